package httpapi_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
	httpapi "adboost/http"
)

// The app of these tests on network_a; its secret has characters a query
// escapes.
var testApp = networka.App{ID: "4242424242", Secret: "app+secret/4242=="}

// connected configures a server that stores tokens and exchanges them with
// the test app.
func connected(t *testing.T, fake *fakeNetworkA) func(*httpapi.Config) {
	return func(cfg *httpapi.Config) {
		fake.config(cfg)
		cfg.TokenCipher = testCipher(t)
		cfg.NetworkAApp = testApp
	}
}

// connectionOf answers the connection of a User answer.
func connectionOf(t *testing.T, user map[string]any) map[string]any {
	t.Helper()
	c, ok := user["connection"].(map[string]any)
	if !ok {
		t.Fatalf("no connection in %v", user)
	}
	a, ok := c["network_a"].(map[string]any)
	if !ok || len(c) != 1 {
		t.Fatalf("connection %v", c)
	}
	return a
}

// wantConnection checks a connection against its status, end and missing
// permissions.
func wantConnection(t *testing.T, user map[string]any, status string, expiresAt any, missing ...string) {
	t.Helper()
	want := map[string]any{"status": status, "expires_at": expiresAt, "missing_permissions": []any{}}
	for _, m := range missing {
		want["missing_permissions"] = append(want["missing_permissions"].([]any), m)
	}
	if got := connectionOf(t, user); !reflect.DeepEqual(got, want) {
		t.Fatalf("connection %v\nwant       %v", got, want)
	}
}

// dateTime writes a time as created_at is written.
func dateTime(at time.Time) string { return at.UTC().Format("2006-01-02 15:04:05") }

// With the app's id and secret, signup-sn stores the long-lived token the
// sign-in token was exchanged for, with its end, reads the pages with it
// (so their tokens do not end), and the secret is in no log, answer or
// request that network_a recorded in the clear.
func TestSignupSnExchangesTheToken(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.SetApp(testApp.ID, testApp.Secret)
	social := anaSocial()
	social.Issued = time.Now() // a sign-in token: it ends in an hour
	fake.AddUser(social)
	e, logs := newLoggedEnv(t, connected(t, fake))
	cipher := testCipher(t)

	r := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken})
	user := r.object()
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	stored := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id)
	if stored == anaToken || !strings.HasPrefix(stored, "EAAlong0") {
		t.Fatalf("stored token %q, want the exchanged one", stored)
	}
	end, ends := fake.TokenEnd(stored)
	if !ends || end.Sub(time.Now()) < 59*24*time.Hour {
		t.Fatalf("the stored token ends %v (%v), want in 60 days", end, ends)
	}
	storedEnd := scalar[time.Time](e, "SELECT network_a_token_expires_at FROM app_user WHERE id = $1", id)
	if d := storedEnd.Sub(end); d < -2*time.Second || d > 2*time.Second {
		t.Fatalf("stored end %v, network_a's %v", storedEnd, end)
	}
	wantConnection(t, user, "ok", dateTime(storedEnd))
	wantConnection(t, e.get("/v1/user/detail", r.token(t)).object(), "ok", dateTime(storedEnd))

	// The pages were read with the long-lived token: their tokens do not end.
	if got := opened(e, cipher, "SELECT access_token FROM source WHERE user_id = $1 AND id = 1001", id); got != pageToken(1001) {
		t.Fatalf("page token %q", got)
	}
	if end, ends := fake.TokenEnd(pageToken(1001)); ends {
		t.Fatalf("the page token ends at %v: it was read with the sign-in token", end)
	}
	// /me with the sign-in token, the exchange, then every read with the
	// long-lived token.
	var calls []string
	for _, c := range fake.Calls() {
		path, _, _ := strings.Cut(c.Path, "?")
		calls = append(calls, c.Method+" "+path+" "+c.Token)
	}
	want := []string{"GET /me " + anaToken, "GET /oauth/access_token " + anaToken,
		"GET /me/accounts " + stored, "GET /me/accounts " + stored, "GET /me/accounts " + stored, "GET /me/permissions " + stored}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("calls %q\nwant  %q", calls, want)
	}
	for _, text := range []string{logs.String(), string(r.body)} {
		for _, secret := range []string{testApp.Secret, url.QueryEscape(testApp.Secret)} {
			if strings.Contains(text, secret) {
				t.Fatalf("the app secret shows in %.500s", text)
			}
		}
	}
}

// token answers the access token of a sign-in answer.
func (r *response) token(t *testing.T) string {
	t.Helper()
	var v struct {
		AccessToken string `json:"access_token"`
	}
	r.ok(&v)
	if v.AccessToken == "" {
		t.Fatalf("no access_token in %s", r.body)
	}
	return v.AccessToken
}

// Without the app the token is stored as given and its end is unknown.
func TestSignupSnWithoutApp(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	e := newEnv(t, fake.config, func(cfg *httpapi.Config) { cfg.TokenCipher = testCipher(t) })
	user := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	wantConnection(t, user, "ok", nil)
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	if got := opened(e, testCipher(t), "SELECT network_a_token FROM app_user WHERE id = $1", id); got != anaToken {
		t.Fatalf("stored token %q", got)
	}
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c.Path, "/oauth/") {
			t.Fatal("an exchange without the app")
		}
	}
}

// Declined and expired permissions are listed, sorted, network_b's only
// for a user with a network_b account; the sign-in succeeds.
func TestSignupSnMissingPermissions(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.SetApp(testApp.ID, testApp.Secret)
	ana := anaSocial() // pages with network_b accounts
	ana.Permissions = map[string]string{networkafake.PermissionPagesManageAds: networkafake.Declined,
		networkafake.PermissionAdsManagement: networkafake.Expired, networkafake.PermissionInstagramBasic: networkafake.Declined}
	fake.AddUser(ana)
	noB := networkafake.User{Token: "EAAnob0token", ID: "5550077", FirstName: "Ned", Email: "ned@example.com",
		Pages:       []networkafake.Page{{ID: "7001", Name: "Ned's", Token: "EAApage7001"}},
		Permissions: map[string]string{networkafake.PermissionInstagramBasic: networkafake.Declined}}
	fake.AddUser(noB)
	e := newEnv(t, connected(t, fake))

	user := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	status := connectionOf(t, user)
	wantConnection(t, user, "missing_permissions", status["expires_at"], "ads_management", "instagram_basic", "pages_manage_ads")
	if got := scalar[[]string](e, "SELECT network_a_permissions_missing FROM app_user WHERE snid = 5550001"); !reflect.DeepEqual(got,
		[]string{"ads_management", "instagram_basic", "pages_manage_ads"}) {
		t.Fatalf("stored %v", got)
	}
	user = e.post("/v1/user/signup-sn", "", map[string]any{"access-token": "EAAnob0token"}).object()
	wantConnection(t, user, "ok", connectionOf(t, user)["expires_at"])
}

// user/detail answers each status, by precedence when several apply.
func TestConnectionStatuses(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.SetApp(testApp.ID, testApp.Secret)
	fake.AddUser(anaSocial())
	e := newEnv(t, connected(t, fake))
	e.load(accountsFixture)
	r := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken})
	token := r.token(t)
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")

	wantConnection(t, e.get("/v1/user/detail", e.token(100)).object(), "not_connected", nil)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name    string
		ends    time.Duration // from now; 0 = unknown
		refused bool
		missing []string
		status  string
	}{
		{"ok", 30 * day, false, nil, "ok"},
		{"ok, end unknown", 0, false, nil, "ok"},
		{"expiring", 6 * day, false, nil, "expiring"},
		{"expired", -time.Hour, false, nil, "expired"},
		{"refused", 30 * day, true, nil, "refused"},
		{"missing", 30 * day, false, []string{"ads_management"}, "missing_permissions"},
		{"expired over refused and missing", -time.Minute, true, []string{"ads_management"}, "expired"},
		{"refused over missing", 3 * day, true, []string{"pages_show_list"}, "refused"},
		{"missing over expiring", 3 * day, false, []string{"pages_manage_ads", "pages_show_list"}, "missing_permissions"},
	} {
		var end any
		var at *time.Time
		if tc.ends != 0 {
			v := time.Now().Add(tc.ends).Truncate(time.Second)
			at, end = &v, dateTime(v)
		}
		missing := tc.missing
		if missing == nil {
			missing = []string{}
		}
		e.exec(`UPDATE app_user SET network_a_token_expires_at = $2, network_a_permissions_missing = $3,
			network_a_token_invalid_at = CASE WHEN $4 THEN now() END WHERE id = $1`, id, at, missing, tc.refused)
		t.Run(tc.name, func(t *testing.T) {
			wantConnection(t, e.get("/v1/user/detail", token).object(), tc.status, end, tc.missing...)
		})
	}
}

// login-sn with a new token renews everything at once: the token and its
// end, the permissions, the pages' tokens, and the refusal is cleared.
func TestLoginSnRenewsTheConnection(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.SetApp(testApp.ID, testApp.Secret)
	now := time.Now().UTC().Truncate(time.Second)
	fake.SetNow(func() time.Time { return now })
	ana := anaSocial()
	ana.Issued = now
	ana.Permissions = map[string]string{networkafake.PermissionAdsManagement: networkafake.Declined}
	fake.AddUser(ana)
	e := newEnv(t, connected(t, fake))
	cipher := testCipher(t)
	user := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	wantConnection(t, user, "missing_permissions", dateTime(connectionEnd(t, e)), "ads_management")
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	first := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id)

	// Two hours later the sign-in token has ended: signing in with it again
	// is refused, nothing changes.
	now = now.Add(2 * time.Hour)
	e.post("/v1/user/login-sn", "", map[string]any{"access-token": anaToken}).fails(http.StatusBadRequest, "bad_request", "access-token")
	if got := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id); got != first {
		t.Fatal("a refused sign-in changed the token")
	}

	// The engine found the token refused; the user grants ads_management
	// and signs in with a new sign-in token.
	e.exec(`UPDATE app_user SET network_a_token_invalid_at = now(), network_a_token_refusal = 'Session has expired' WHERE id = $1`, id)
	fake.UpdateUser(anaToken, func(u *networkafake.User) { u.Permissions = nil })
	fake.IssueToken(anaToken, "EAAana0new0signin")
	user = e.post("/v1/user/login-sn", "", map[string]any{"access-token": "EAAana0new0signin"}).object()
	second := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id)
	end := connectionEnd(t, e)
	if second == first || second == "EAAana0new0signin" || !strings.HasPrefix(second, "EAAlong0") {
		t.Fatalf("renewed token %q (first %q)", second, first)
	}
	// The end is now + expires_in by adboost's clock (the fake's runs two
	// hours ahead).
	if d := time.Until(end) - networkafake.ExchangedExpiresIn*time.Second; d < -2*time.Second || d > time.Second {
		t.Fatalf("stored end %v, %v from now + expires_in", end, d)
	}
	wantConnection(t, user, "ok", dateTime(end))
	if n := scalar[int64](e, `SELECT count(*) FROM app_user WHERE id = $1 AND network_a_token_invalid_at IS NULL
		AND network_a_token_refusal IS NULL AND network_a_permissions_missing = '{}'`, id); n != 1 {
		t.Fatal("the refusal or the missing permissions were kept")
	}
}

// connectionEnd answers the stored end of the only user's token.
func connectionEnd(t *testing.T, e *env) time.Time {
	t.Helper()
	return scalar[time.Time](e, "SELECT network_a_token_expires_at FROM app_user WHERE snid = 5550001")
}

// An app id or secret network_a refuses is the service's fault: 503,
// nothing written, and the secret is in no log line or answer.
func TestSignupSnAppRefused(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.SetApp(testApp.ID, "another+secret")
	fake.AddUser(anaSocial())
	e, logs := newLoggedEnv(t, connected(t, fake))
	before := e.rowCounts()
	r := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken})
	r.fails(http.StatusServiceUnavailable, "unavailable", "app settings")
	if after := e.rowCounts(); after != before {
		t.Fatalf("rows %s, before %s", after, before)
	}
	if !strings.Contains(logs.String(), "NETWORK_A_APP_SECRET") {
		t.Fatalf("the log does not name the settings: %s", logs.String())
	}
	for _, s := range []string{testApp.Secret, url.QueryEscape(testApp.Secret), anaToken} {
		if strings.Contains(logs.String(), s) || strings.Contains(string(r.body), s) {
			t.Fatalf("%q shows in the log or the answer:\n%s\n%s", s, logs.String(), r.body)
		}
	}
}
