package httpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
	"adboost/db/mailer"
	httpapi "adboost/http"
)

// accountsFixture: Ana has a password and an agency; Bob signed up with
// network_a (snid 5550009) and has a password too.
const accountsFixture = `{
  "agencies": [{"id": 10, "username": "northwind", "email": "ads@northwind.example"}],
  "users": [
    {"id": 100, "email": "Ana.Novak@Example.com", "password": "ana-password", "first_name": "Ana",
     "last_name": "Novak", "phone_number": "+420111222333", "phone_country": "CZ", "agency_id": 10},
    {"id": 101, "email": "bob@example.com", "password": "bob-password", "snid": 5550009, "first_name": "Bob"}
  ]
}`

// Presets for sign-up: 1 public and active, 2 private, 3 inactive.
func (e *env) presets() {
	e.t.Helper()
	e.exec(`INSERT INTO preset (id, agency_id, title, active, private, campaign_objective, price, original_price) VALUES
		(1, 10, 'Gym launch', true, false, 'OUTCOME_TRAFFIC', 49, 59),
		(2, 10, 'Agency only', true, true, 'OUTCOME_TRAFFIC', 49, 59),
		(3, 10, 'Retired', false, false, 'OUTCOME_TRAFFIC', 49, 59)`)
}

// countries writes the countries the tests use when the ISO 3166 data set
// is not loaded in the test database.
func (e *env) countries() {
	e.t.Helper()
	e.exec(`INSERT INTO geo_country (code, name) VALUES
		('CZ', 'Czechia'), ('DE', 'Germany'), ('US', 'United States'), ('AT', 'Austria')
		ON CONFLICT (code) DO NOTHING`)
}

func (e *env) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
}

// scalar answers the single value of a query.
func scalar[T any](e *env, sql string, args ...any) T {
	e.t.Helper()
	var v T
	if err := e.pool.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// sources lists a user's sources, one line each, by id.
func (e *env) sources(userID int64) []string {
	e.t.Helper()
	rows, err := e.pool.Query(context.Background(), `
		SELECT format('%s|%s|%s|%s|%s|%s|%s', id, platform, name, picture,
		              coalesce(network_b_id::text, '-'), network_b_name, network_b_picture)
		FROM source WHERE user_id = $1 ORDER BY id`, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// rowCounts counts the rows that sign-up writes.
func (e *env) rowCounts() string {
	e.t.Helper()
	return scalar[string](e, `SELECT format('users %s, agencies %s, sources %s',
		(SELECT count(*) FROM app_user), (SELECT count(*) FROM agency), (SELECT count(*) FROM source))`)
}

const anaToken = "EAAana0social0token"

// anaSocial is a network_a user with seven pages, each with its own token
// (pageToken), four of them linked to a network_b account: three pages of
// /me/accounts at the fake's page size.
func anaSocial() networkafake.User {
	u := networkafake.User{Token: anaToken, ID: "5550001", FirstName: "Ana", LastName: "Nováková", Email: "ana@network-a.example"}
	for i := 1; i <= 7; i++ {
		p := networkafake.Page{ID: fmt.Sprint(1000 + i), Name: fmt.Sprintf("Page %d", i), Picture: fmt.Sprintf("https://img.network-a.example/%d.png", 1000+i),
			Token: pageToken(1000 + i)}
		if i%2 == 1 {
			p.B = &networkafake.AccountB{ID: fmt.Sprint(2000 + i), Username: fmt.Sprintf("account%d", i), Picture: fmt.Sprintf("https://img.network-b.example/%d.png", 2000+i)}
		}
		u.Pages = append(u.Pages, p)
	}
	return u
}

// pageToken is the network_a token of a page of anaSocial.
func pageToken(id int) string { return fmt.Sprintf("EAApage%dtoken", id) }

// sourceLines is what sources() lists for the pages of a fake user.
func sourceLines(pages []networkafake.Page) []string {
	out := []string{}
	for _, p := range pages {
		b := networkafake.AccountB{ID: "-"}
		if p.B != nil {
			b = *p.B
		}
		out = append(out, strings.Join([]string{p.ID, "network_a", p.Name, p.Picture, b.ID, b.Username, b.Picture}, "|"))
	}
	return out
}

// checkTokenOnlyInHeader fails when a request the fake saw carried a token
// in its URL, or did not carry the expected one in its Authorization header.
func checkTokenOnlyInHeader(t *testing.T, seen []networkafake.Request, token string) {
	t.Helper()
	if len(seen) == 0 {
		t.Fatal("network_a saw no request")
	}
	for _, r := range seen {
		u, err := url.Parse(r.Path)
		if err != nil || strings.Contains(r.Path, token) || u.Query().Has("access_token") {
			t.Fatalf("a token appeared in the URL %s", r.Path)
		}
		if r.Authorization != "Bearer "+token {
			t.Fatalf("request %s had Authorization %q, want the Bearer token", r.Path, r.Authorization)
		}
	}
}

func TestPreSignupSn(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	fake.AddUser(networkafake.User{Token: "EAAno0email", ID: "5550002", FirstName: "Noemi"})
	e := newEnv(t, fake.config)

	got := e.post("/v1/user/pre-signup-sn", "", map[string]string{"access-token": anaToken}).object()
	if !reflect.DeepEqual(got, map[string]any{"email": "ana@network-a.example"}) {
		t.Fatalf("pre-signup = %v", got)
	}
	seen := fake.TakeRequests()
	if len(seen) != 1 || seen[0].Path != "/v25.0/me?fields=id%2Cfirst_name%2Clast_name%2Cemail" {
		t.Fatalf("requests = %+v, want one GET /me with the fields", seen)
	}
	checkTokenOnlyInHeader(t, seen, anaToken)

	got = e.post("/v1/user/pre-signup-sn", "", map[string]string{"access-token": "EAAno0email"}).object()
	if !reflect.DeepEqual(got, map[string]any{"email": ""}) {
		t.Fatalf("pre-signup of a user without e-mail = %v", got)
	}
	// Nothing is written before sign-up.
	if n := scalar[int64](e, "SELECT count(*) FROM app_user"); n != 0 {
		t.Fatalf("%d users after pre-signup", n)
	}
}

func TestSignupSn(t *testing.T) {
	fake := newFakeNetworkA(t)
	social := anaSocial()
	fake.AddUser(social)
	e := newEnv(t, fake.config)
	e.load(accountsFixture)
	e.presets()

	got := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken, "preset_id": "1", "email": ""}).object()
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	agencyID := scalar[int64](e, "SELECT agency_id FROM app_user WHERE id = $1", id)
	token, _ := got["access_token"].(string)
	delete(got, "access_token")
	want := map[string]any{
		"snid": float64(5550001), "email": "ana@network-a.example", "first_name": "Ana", "last_name": "Nováková",
		"phone_number": "", "agency_id": float64(agencyID), "agency_name": "Ana Nováková", "credit_balance": "0.00",
		"connection":    notConnected, // without TOKEN_ENCRYPTION_KEY no token is stored
		"weekly_report": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("signup = %v\nwant     %v", got, want)
	}
	if sub, _, err := e.tokens.Verify(token); err != nil || sub != id {
		t.Fatalf("access_token is of user %d (%v), want %d", sub, err, id)
	}
	// The token works, for the same user.
	detail := e.get("/v1/user/detail", token).object()
	if !reflect.DeepEqual(detail, want) {
		t.Fatalf("detail = %v\nwant     %v", detail, want)
	}
	// The agency is the user's own, named after the user; the preset is kept.
	if name := scalar[string](e, "SELECT username FROM agency WHERE id = $1", agencyID); name != "Ana Nováková" || agencyID == 10 {
		t.Fatalf("agency %d is %q", agencyID, name)
	}
	if p := scalar[*int64](e, "SELECT signup_preset_id FROM app_user WHERE id = $1", id); p == nil || *p != 1 {
		t.Fatalf("signup_preset_id = %v, want 1", p)
	}
	// The user's own agency carries the user's name: it stays out of the
	// public directory.
	e.get(fmt.Sprintf("/v1/agencies/detail/%d", agencyID), "").fails(http.StatusNotFound, "not_found")
	var listed []map[string]any
	e.post("/v1/agencies/list", token, map[string]string{"search": "Nováková"}).ok(&listed)
	if len(listed) != 0 {
		t.Fatalf("agencies/list shows the user's own agency: %v", listed)
	}
	// Every page of every page of /me/accounts, with its network_b account.
	if got, want := e.sources(id), sourceLines(social.Pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("sources =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	seen := fake.TakeRequests()
	var paths []string
	for _, r := range seen {
		paths = append(paths, r.Path)
	}
	wantPaths := []string{
		"/v25.0/me?fields=id%2Cfirst_name%2Clast_name%2Cemail",
		"/v25.0/me/accounts?fields=id%2Cname%2Cpicture%2Caccess_token%2Cnetwork_b_account",
		"/v25.0/me/accounts?after=3&fields=id%2Cname%2Cpicture%2Caccess_token%2Cnetwork_b_account&limit=3",
		"/v25.0/me/accounts?after=6&fields=id%2Cname%2Cpicture%2Caccess_token%2Cnetwork_b_account&limit=3",
	}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Fatalf("network_a saw\n%s\nwant\n%s", strings.Join(paths, "\n"), strings.Join(wantPaths, "\n"))
	}
	// The paging URLs carried the token (as Graph APIs do); it was taken out.
	checkTokenOnlyInHeader(t, seen, anaToken)

	// Signing up again with the same network_a user is a conflict, and
	// writes nothing.
	before := e.rowCounts()
	e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken, "email": "other@example.com"}).
		fails(http.StatusConflict, "conflict", "network_a", "log in")
	if after := e.rowCounts(); after != before {
		t.Fatalf("a refused sign-up wrote rows: %s, then %s", before, after)
	}
}

func TestSignupSnRules(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	fake.AddUser(networkafake.User{Token: "EAAno0email", ID: "5550002", FirstName: "Noemi", Pages: []networkafake.Page{{ID: "1", Name: "N"}}})
	fake.AddUser(networkafake.User{Token: "EAAbad0email", ID: "5550003", Email: "not-an-address"})
	e := newEnv(t, fake.config)
	e.load(accountsFixture)
	e.presets()
	before := e.rowCounts()

	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		words  []string
	}{
		{"e-mail of another account", map[string]any{"access-token": anaToken, "email": "BOB@example.com"}, 409, "conflict", []string{"email", "BOB@example.com"}},
		{"profile e-mail of another account", map[string]any{"access-token": anaToken, "email": "ana.novak@example.com"}, 409, "conflict", []string{"email"}},
		{"private preset", map[string]any{"access-token": anaToken, "preset_id": 2}, 400, "bad_request", []string{"preset_id", "2"}},
		{"inactive preset", map[string]any{"access-token": anaToken, "preset_id": "3"}, 400, "bad_request", []string{"preset_id"}},
		{"unknown preset", map[string]any{"access-token": anaToken, "preset_id": 99}, 400, "bad_request", []string{"preset_id"}},
		{"preset id not a number", map[string]any{"access-token": anaToken, "preset_id": "abc"}, 400, "bad_request", []string{"preset_id"}},
		{"preset id negative", map[string]any{"access-token": anaToken, "preset_id": -1}, 400, "bad_request", []string{"preset_id"}},
		{"no e-mail anywhere", map[string]any{"access-token": "EAAno0email"}, 400, "bad_request", []string{"email"}},
		{"invalid profile e-mail", map[string]any{"access-token": "EAAbad0email"}, 400, "bad_request", []string{"email"}},
		{"invalid e-mail", map[string]any{"access-token": anaToken, "email": "ana at example"}, 400, "bad_request", []string{"email"}},
		{"e-mail with a display name", map[string]any{"access-token": anaToken, "email": "Ana <ana@example.com>"}, 400, "bad_request", []string{"email"}},
		{"no token", map[string]any{"email": "x@example.com"}, 400, "bad_request", []string{"access-token"}},
		{"token of the wrong type", `{"access-token": 42}`, 400, "bad_request", []string{"access-token"}},
		{"token with a space", map[string]any{"access-token": "EAA abc"}, 400, "bad_request", []string{"access-token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.post("/v1/user/signup-sn", "", tc.body).fails(tc.status, tc.code, tc.words...)
		})
	}
	if after := e.rowCounts(); after != before {
		t.Fatalf("refused sign-ups wrote rows: %s, then %s", before, after)
	}
	// A malformed token is never sent.
	for _, r := range fake.TakeRequests() {
		if strings.Contains(r.Authorization, " abc") {
			t.Fatalf("the malformed token was sent: %+v", r)
		}
	}

	// The e-mail of the body wins over network_a's; no preset is fine.
	var user map[string]any
	e.post("/v1/user/signup-sn", "", map[string]any{"access-token": "EAAno0email", "email": "noemi@example.com"}).ok(&user)
	if user["email"] != "noemi@example.com" || user["agency_name"] != "Noemi" {
		t.Fatalf("signup = %v", user)
	}
	if p := scalar[*int64](e, "SELECT signup_preset_id FROM app_user WHERE snid = 5550002"); p != nil {
		t.Fatalf("signup_preset_id = %d, want none", *p)
	}
}

func TestLoginSn(t *testing.T) {
	fake := newFakeNetworkA(t)
	social := anaSocial()
	fake.AddUser(social)
	e := newEnv(t, fake.config)
	e.load(accountsFixture)

	var signup map[string]any
	e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).ok(&signup)
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")

	// network_a changes: page 1 is renamed and loses its network_b account
	// to page 2, page 4 is gone, page 8 is new.
	fake.UpdateUser(anaToken, func(u *networkafake.User) {
		moved := u.Pages[0].B
		u.Pages[0].Name, u.Pages[0].B = "Page 1, renamed", nil
		u.Pages[1].B = moved
		u.Pages = append(u.Pages[:3], u.Pages[4:]...)
		u.Pages = append(u.Pages, networkafake.Page{ID: "1008", Name: "Page 8", Picture: "https://img.network-a.example/1008.png",
			Token: pageToken(1008), B: &networkafake.AccountB{ID: "2008", Username: "account8"}})
	})
	fake.TakeRequests()
	login := e.post("/v1/user/login-sn", "", map[string]string{"access-token": anaToken}).object()
	token := login["access_token"].(string)
	if sub, _, err := e.tokens.Verify(token); err != nil || sub != id {
		t.Fatalf("login-sn token is of user %d (%v), want %d", sub, err, id)
	}
	delete(login, "access_token")
	delete(signup, "access_token")
	if !reflect.DeepEqual(login, signup) {
		t.Fatalf("login-sn = %v\nsignup   = %v", login, signup)
	}
	checkTokenOnlyInHeader(t, fake.TakeRequests(), anaToken)

	want := []string{
		"1001|network_a|Page 1, renamed|https://img.network-a.example/1001.png|-||",
		"1002|network_a|Page 2|https://img.network-a.example/1002.png|2001|account1|https://img.network-b.example/2001.png",
		"1003|network_a|Page 3|https://img.network-a.example/1003.png|2003|account3|https://img.network-b.example/2003.png",
		// No longer listed, kept: campaigns may refer to it.
		"1004|network_a|Page 4|https://img.network-a.example/1004.png|-||",
		"1005|network_a|Page 5|https://img.network-a.example/1005.png|2005|account5|https://img.network-b.example/2005.png",
		"1006|network_a|Page 6|https://img.network-a.example/1006.png|-||",
		"1007|network_a|Page 7|https://img.network-a.example/1007.png|2007|account7|https://img.network-b.example/2007.png",
		"1008|network_a|Page 8|https://img.network-a.example/1008.png|2008|account8|",
	}
	if got := e.sources(id); !reflect.DeepEqual(got, want) {
		t.Fatalf("sources after login-sn =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A first password, set with user/save without current_password (the
	// account has none), signs the same user in with login-password; like
	// every new password it ends the tokens issued before it.
	e.post("/v1/user/save", token, map[string]string{"password": "ana-new-password"}).object()
	pw := e.post("/v1/user/login-password", "", map[string]string{"email": "ana@network-a.example", "password": "ana-new-password"}).object()
	if sub, _, err := e.tokens.Verify(pw["access_token"].(string)); err != nil || sub != id {
		t.Fatalf("login-password token is of user %d (%v), want %d", sub, err, id)
	}
	e.get("/v1/user/detail", token).fails(http.StatusUnauthorized, "unauthorized", "password change")
	for _, tok := range []string{pw["access_token"].(string), e.post("/v1/user/login-sn", "", map[string]string{"access-token": anaToken}).object()["access_token"].(string)} {
		if d := e.get("/v1/user/detail", tok).object(); d["snid"] != float64(5550001) {
			t.Fatalf("detail = %v", d)
		}
	}

	// A network_a user who never signed up.
	fake.AddUser(networkafake.User{Token: "EAAstranger", ID: "5550077", FirstName: "Stranger"})
	e.post("/v1/user/login-sn", "", map[string]string{"access-token": "EAAstranger"}).fails(http.StatusNotFound, "not_found", "sign up")
	e.post("/v1/user/login-sn", "", map[string]string{}).fails(http.StatusBadRequest, "bad_request", "access-token")
}

func TestNetworkAFailures(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	e := newEnv(t, fake.config)
	e.load(accountsFixture)
	fake.AddUser(networkafake.User{Token: "EAAbob", ID: "5550009", FirstName: "Bob"})

	routes := []string{"/v1/user/pre-signup-sn", "/v1/user/signup-sn", "/v1/user/login-sn"}
	for _, route := range routes {
		t.Run(route, func(t *testing.T) {
			// Tokens that network_a refuses: with its status.
			e.post(route, "", map[string]string{"access-token": "EAAunknown"}).fails(http.StatusUnauthorized, "unauthorized", "access-token")
			e.post(route, "", map[string]string{"access-token": fakeExpiredToken}).fails(http.StatusBadRequest, "bad_request", "access-token")
		})
	}
	// Down, failing, slow or speaking something else: 503.
	for _, mode := range []string{"error500", "slow", "garbage", "no-oauth-401"} {
		t.Run(mode, func(t *testing.T) {
			fake.fail(mode)
			defer fake.fail("")
			for _, route := range routes {
				start := time.Now()
				e.post(route, "", map[string]string{"access-token": "EAAbob"}).fails(http.StatusServiceUnavailable, "unavailable", "network_a")
				if d := time.Since(start); d > 1500*time.Millisecond {
					t.Fatalf("%s took %v: the timeout did not cut the slow network short", route, d)
				}
			}
		})
	}
	// network_a fails after the profile: nothing is written.
	before := e.rowCounts()
	fake.AddUser(networkafake.User{Token: "EAAcarl", ID: "5550010", FirstName: "Carl", Email: "carl@example.com"})
	fake.SetAccountsPaging(networkafake.PagingForeign, "http://127.0.0.1:1/v25.0")
	e.post("/v1/user/signup-sn", "", map[string]string{"access-token": "EAAcarl"}).fails(http.StatusServiceUnavailable, "unavailable")
	fake.SetAccountsPaging(networkafake.PagingNormal, "")
	if after := e.rowCounts(); after != before {
		t.Fatalf("a failed sign-up wrote rows: %s, then %s", before, after)
	}
	// Every request carried the token in its header only.
	for _, r := range fake.TakeRequests() {
		for _, tok := range []string{anaToken, "EAAunknown", fakeExpiredToken, "EAAbob", "EAAcarl"} {
			if strings.Contains(r.Path, tok) {
				t.Fatalf("token %s in the URL %s", tok, r.Path)
			}
		}
		if !strings.HasPrefix(r.Authorization, "Bearer EAA") {
			t.Fatalf("request %s without the Bearer token", r.Path)
		}
	}

	t.Run("down", func(t *testing.T) { // nothing listens
		down := newEnv(t, func(cfg *httpapi.Config) { cfg.NetworkAAPIURL = "http://127.0.0.1:1/v25.0" })
		for _, route := range routes {
			down.post(route, "", map[string]string{"access-token": anaToken}).fails(http.StatusServiceUnavailable, "unavailable", "network_a")
		}
	})
	t.Run("not configured", func(t *testing.T) {
		off := newEnv(t)
		for _, route := range routes {
			off.post(route, "", map[string]string{"access-token": anaToken}).fails(http.StatusServiceUnavailable, "unavailable", "network_a")
		}
	})
}

func TestNetworkAPaging(t *testing.T) {
	fake := newFakeNetworkA(t)
	social := anaSocial()
	fake.AddUser(social)
	e := newEnv(t, fake.config)

	// The last page leads back to the first: every page once, then stop.
	fake.SetAccountsPaging(networkafake.PagingLoop, "")
	var user map[string]any
	e.post("/v1/user/signup-sn", "", map[string]string{"access-token": anaToken}).ok(&user)
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	if got, want := e.sources(id), sourceLines(social.Pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("sources =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if seen := fake.TakeRequests(); len(seen) != 1+3 {
		t.Fatalf("%d requests for 3 pages (and /me), want 4", len(seen))
	}

	// paging.next never ends: given up after 100 pages.
	fake.SetAccountsPaging(networkafake.PagingEndless, "")
	e.post("/v1/user/login-sn", "", map[string]string{"access-token": anaToken}).fails(http.StatusServiceUnavailable, "unavailable")
	if seen := fake.TakeRequests(); len(seen) != 1+100 {
		t.Fatalf("%d requests for an endless list, want /me and 100 pages", len(seen))
	}

	// paging.next on another host: not followed, so the token does not
	// leave for it.
	other := newFakeNetworkA(t)
	fake.SetAccountsPaging(networkafake.PagingForeign, other.url)
	e.post("/v1/user/login-sn", "", map[string]string{"access-token": anaToken}).fails(http.StatusServiceUnavailable, "unavailable")
	if seen := other.Requests(); len(seen) != 0 {
		t.Fatalf("the other host received %+v", seen)
	}
}

func TestUserSavePhoneAndPassword(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	e.countries()
	ana := e.token(100)
	saved := map[string]any{"result": true, "message": "Your profile has been saved."}

	got := e.post("/v1/user/save", ana, map[string]string{"phone_number": "+49 30 1234567", "phone_country": "de", "email": "", "password": ""}).object()
	if !reflect.DeepEqual(got, saved) {
		t.Fatalf("save = %v", got)
	}
	if d := e.get("/v1/user/detail", ana).object(); d["phone_number"] != "+49 30 1234567" || d["email"] != "Ana.Novak@Example.com" {
		t.Fatalf("detail = %v", d)
	}
	if c := scalar[string](e, "SELECT phone_country FROM app_user WHERE id = 100"); c != "DE" {
		t.Fatalf("phone_country = %q, want DE", c)
	}
	// Absent fields keep their values.
	e.post("/v1/user/save", ana, map[string]string{"phone_country": "AT"}).object()
	if got := scalar[string](e, "SELECT phone_number || ' ' || phone_country FROM app_user WHERE id = 100"); got != "+49 30 1234567 AT" {
		t.Fatalf("phone = %q", got)
	}

	// Refused: nothing of the request is written.
	for _, tc := range []struct {
		body  any
		words []string
	}{
		{map[string]string{"phone_number": "+1 555 0100", "phone_country": "XX"}, []string{"phone_country", "XX"}},
		{map[string]string{"phone_number": "+1 555 0100", "phone_country": "USA"}, []string{"phone_country"}},
		{map[string]string{"phone_number": "call me", "phone_country": "US"}, []string{"phone_number"}},
		{map[string]string{"phone_number": "+1 555 0100", "password": "short"}, []string{"password", "8"}},
		{map[string]string{"phone_number": "+1 555 0100", "email": "nope"}, []string{"email"}},
		{`{"phone_number": 5550100}`, []string{"phone_number"}},
	} {
		e.post("/v1/user/save", ana, tc.body).fails(http.StatusBadRequest, "bad_request", tc.words...)
	}
	if got := scalar[string](e, "SELECT phone_number || ' ' || phone_country FROM app_user WHERE id = 100"); got != "+49 30 1234567 AT" {
		t.Fatalf("phone after refused saves = %q", got)
	}

	// A new password works at once, the old one no longer.
	e.post("/v1/user/save", ana, map[string]string{"password": "a-new-password", "current_password": "ana-password"}).object()
	e.post("/v1/user/login-password", "", map[string]string{"email": "ana.novak@example.com", "password": "ana-password"}).
		fails(http.StatusUnauthorized, "invalid_credentials")
	var user map[string]any
	e.post("/v1/user/login-password", "", map[string]string{"email": "ana.novak@example.com", "password": "a-new-password"}).ok(&user)
	if user["phone_number"] != "+49 30 1234567" {
		t.Fatalf("login = %v", user)
	}
	// Bob's account is untouched by all this.
	e.post("/v1/user/login-password", "", map[string]string{"email": "bob@example.com", "password": "bob-password"}).ok(&user)

	e.post("/v1/user/save", "", map[string]string{"phone_number": "+1 555 0100"}).fails(http.StatusUnauthorized, "unauthorized")
	e.post("/v1/user/save", "not-a-token", map[string]string{"phone_number": "+1 555 0100"}).fails(http.StatusUnauthorized, "unauthorized")
}

// queuedMails answers the mails of the e-mail changes' jobs, oldest first,
// as their workers render them.
func (e *env) queuedMails() []mailer.Message {
	e.t.Helper()
	rows, err := e.pool.Query(context.Background(), "SELECT kind, args FROM river_job WHERE queue = 'mail' ORDER BY id")
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []mailer.Message
	for rows.Next() {
		var kind string
		var args []byte
		if err := rows.Scan(&kind, &args); err != nil {
			e.t.Fatal(err)
		}
		switch kind {
		case mailer.KindEmailVerification:
			var a mailer.EmailVerificationArgs
			err = json.Unmarshal(args, &a)
			out = append(out, a.Mail())
		case mailer.KindEmailChangeNotice:
			var a mailer.EmailChangeNoticeArgs
			err = json.Unmarshal(args, &a)
			out = append(out, a.Mail())
		default:
			e.t.Fatalf("a mail job of kind %s", kind)
		}
		if err != nil {
			e.t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// mailsTo answers the queued mails to address, oldest first.
func (e *env) mailsTo(address string) []mailer.Message {
	e.t.Helper()
	var out []mailer.Message
	for _, m := range e.queuedMails() {
		if m.To == address {
			out = append(out, m)
		}
	}
	return out
}

// verificationLink answers the verification link of the newest mail to address,
// checking the mail around it.
func (e *env) verificationLink(address string) string {
	e.t.Helper()
	to := e.mailsTo(address)
	if len(to) == 0 {
		e.t.Fatalf("no mail to %s queued", address)
	}
	subject, body := to[len(to)-1].Subject, to[len(to)-1].Text
	link := regexp.MustCompile(`https://api\.adboost\.test/v1/user/verify-email\?token=([A-Za-z0-9_-]{43})\n`).FindStringSubmatch(body)
	if subject != "Confirm your new e-mail address for adboost" || link == nil || !strings.Contains(body, "24 hours") {
		e.t.Fatalf("mail to %s: %q\n%s", address, subject, body)
	}
	// Only the token's hash is stored with the pending change.
	sum := sha256.Sum256([]byte(link[1]))
	if n := scalar[int64](e, "SELECT count(*) FROM email_change WHERE token_hash = $1 AND new_email = $2", sum[:], address); n != 1 {
		e.t.Fatalf("no pending change to %s with the link's token hash", address)
	}
	return strings.TrimPrefix(link[0][:len(link[0])-1], "https://api.adboost.test")
}

func TestUserSaveEmail(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	ana := e.token(100)

	got := e.post("/v1/user/save", ana, map[string]string{"email": "ana.new@example.com", "phone_number": "+420 999 888 777", "current_password": "ana-password"}).object()
	if want := map[string]any{"result": true, "message": "A verification e-mail has been sent to ana.new@example.com."}; !reflect.DeepEqual(got, want) {
		t.Fatalf("save = %v", got)
	}
	// Pending: the address is still the old one; the phone changed at once.
	if d := e.get("/v1/user/detail", ana).object(); d["email"] != "Ana.Novak@Example.com" || d["phone_number"] != "+420 999 888 777" {
		t.Fatalf("detail while pending = %v", d)
	}
	e.post("/v1/user/login-password", "", map[string]string{"email": "ana.new@example.com", "password": "ana-password"}).
		fails(http.StatusUnauthorized, "invalid_credentials")
	link := e.verificationLink("ana.new@example.com")

	// The link, opened without any Bearer token, makes the change.
	got = e.get(link, "").object()
	if want := map[string]any{"result": true, "message": "Your e-mail address is now ana.new@example.com."}; !reflect.DeepEqual(got, want) {
		t.Fatalf("verify = %v", got)
	}
	if d := e.get("/v1/user/detail", ana).object(); d["email"] != "ana.new@example.com" {
		t.Fatalf("detail after verification = %v", d)
	}
	var user map[string]any
	e.post("/v1/user/login-password", "", map[string]string{"email": "ana.new@example.com", "password": "ana-password"}).ok(&user)
	// Used once: refused the second time.
	e.get(link, "").fails(http.StatusBadRequest, "bad_request", "used")

	// An expired link is refused, and changes nothing.
	e.post("/v1/user/save", ana, map[string]string{"email": "ana.late@example.com", "current_password": "ana-password"}).object()
	late := e.verificationLink("ana.late@example.com")
	e.exec("UPDATE email_change SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour' WHERE user_id = 100")
	e.get(late, "").fails(http.StatusBadRequest, "bad_request", "expired")
	if d := e.get("/v1/user/detail", ana).object(); d["email"] != "ana.new@example.com" {
		t.Fatalf("detail after an expired link = %v", d)
	}
	// One just within its 24 hours still works.
	e.post("/v1/user/save", ana, map[string]string{"email": "ana.ontime@example.com", "current_password": "ana-password"}).object()
	onTime := e.verificationLink("ana.ontime@example.com")
	if h := scalar[float64](e, "SELECT extract(epoch FROM expires_at - created_at) / 3600 FROM email_change WHERE user_id = 100"); h != 24 {
		t.Fatalf("the link is valid for %v hours, want 24", h)
	}
	e.exec("UPDATE email_change SET created_at = now() - interval '23 hours 59 minutes', expires_at = now() + interval '1 minute' WHERE user_id = 100")
	e.get(onTime, "").object()

	// A newer request replaces the pending one: its link no longer works.
	e.post("/v1/user/save", ana, map[string]string{"email": "ana.first@example.com", "current_password": "ana-password"}).object()
	first := e.verificationLink("ana.first@example.com")
	e.post("/v1/user/save", ana, map[string]string{"email": "ana.second@example.com", "current_password": "ana-password"}).object()
	second := e.verificationLink("ana.second@example.com")
	e.get(first, "").fails(http.StatusBadRequest, "bad_request")
	e.get(second, "").object()
	if d := e.get("/v1/user/detail", ana).object(); d["email"] != "ana.second@example.com" {
		t.Fatalf("detail = %v", d)
	}

	// Malformed links.
	e.get("/v1/user/verify-email", "").fails(http.StatusBadRequest, "bad_request", "token")
	e.get("/v1/user/verify-email?token=abc", "").fails(http.StatusBadRequest, "bad_request", "token")
	e.get("/v1/user/verify-email?token="+strings.Repeat("A", 43), "").fails(http.StatusBadRequest, "bad_request", "token")
}

func TestUserSaveEmailConflicts(t *testing.T) {
	e := newEnv(t)
	e.load(accountsFixture)
	ana, bob := e.token(100), e.token(101)
	mails := func() int { return len(e.queuedMails()) }

	// Another account's address, whatever its case: 409, and nothing of the
	// request written, no mail queued.
	e.post("/v1/user/save", ana, map[string]string{"email": "BOB@example.com", "phone_number": "+1 555 0100", "current_password": "ana-password"}).
		fails(http.StatusConflict, "conflict", "email", "BOB@example.com")
	if p := scalar[string](e, "SELECT phone_number FROM app_user WHERE id = 100"); p != "+420111222333" || mails() != 0 {
		t.Fatalf("after a conflict: phone %q, %d mails", p, mails())
	}
	// The own address (in another case) is no change: no mail.
	got := e.post("/v1/user/save", ana, map[string]string{"email": "ana.novak@example.com"}).object()
	if got["message"] != "Your profile has been saved." || mails() != 0 {
		t.Fatalf("save of the own address = %v, %d mails", got, mails())
	}

	// Both ask for the same free address; the first to verify gets it, the
	// other's link answers 409 and its change stays pending.
	e.post("/v1/user/save", ana, map[string]string{"email": "shared@example.com", "current_password": "ana-password"}).object()
	anaLink := e.verificationLink("shared@example.com")
	e.post("/v1/user/save", bob, map[string]string{"email": "Shared@Example.com", "current_password": "bob-password"}).object()
	bobLink := e.verificationLink("Shared@Example.com")
	e.get(bobLink, "").object()
	e.get(anaLink, "").fails(http.StatusConflict, "conflict", "another account")
	if d := e.get("/v1/user/detail", ana).object(); d["email"] != "Ana.Novak@Example.com" {
		t.Fatalf("ana = %v", d)
	}
	if n := scalar[int64](e, "SELECT count(*) FROM email_change WHERE user_id = 100"); n != 1 {
		t.Fatal("the refused change was dropped")
	}
	if mails() != 4 {
		t.Fatalf("%d mails queued, want 4 (a verification and a notice each)", mails())
	}
}

// TestSignupSnOddPages: a page listed twice counts once, a network_b account
// linked to two pages stays with the first, an over-long name is cut and an
// over-long picture URL dropped; control characters never reach the database.
func TestSignupSnOddPages(t *testing.T) {
	fake := newFakeNetworkA(t)
	long := "https://img.network-a.example/" + strings.Repeat("x", 2048)
	fake.AddUser(networkafake.User{Token: anaToken, ID: "5550001", FirstName: "Ana\x00", LastName: strings.Repeat("N", 150), Email: "ana@example.com",
		Pages: []networkafake.Page{
			{ID: "1001", Name: "First", B: &networkafake.AccountB{ID: "2001", Username: "shared"}},
			{ID: "1002", Name: strings.Repeat("é", 300), Picture: long, B: &networkafake.AccountB{ID: "2001", Username: "shared again"}},
			{ID: "1001", Name: "First, listed again"},
			{ID: "1003", Name: "Tab\there", B: &networkafake.AccountB{ID: "2003", Username: "third", Picture: long}},
		}})
	e := newEnv(t, fake.config)
	var user map[string]any
	e.post("/v1/user/signup-sn", "", map[string]string{"access-token": anaToken}).ok(&user)
	if user["first_name"] != "Ana" || user["last_name"] != strings.Repeat("N", 100) || user["agency_name"] != "Ana "+strings.Repeat("N", 96) {
		t.Fatalf("user = %v", user)
	}
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	want := []string{
		"1001|network_a|First||2001|shared|",
		"1002|network_a|" + strings.Repeat("é", 255) + "||-||",
		"1003|network_a|Tabhere||2003|third|",
	}
	if got := e.sources(id); !reflect.DeepEqual(got, want) {
		t.Fatalf("sources =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
