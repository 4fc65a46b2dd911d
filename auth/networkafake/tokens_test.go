package networkafake_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// clock is a fake's clock a test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

// issuedAt is when the tests' sign-in tokens are issued: 08:00 in Los
// Angeles, in daylight saving time.
var issuedAt = time.Date(2026, 7, 1, 15, 0, 0, 0, time.UTC)

// timedWorld is world with the fake's clock at issuedAt and the user's
// token issued then.
func timedWorld(t *testing.T) (*networkafake.Fake, string, *clock) {
	f, base := world(t)
	c := &clock{now: issuedAt}
	f.SetNow(c.Now)
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Issued = issuedAt })
	return f, base, c
}

// expiredSession is network_a's refusal of a token that ended at end,
// called at now.
func expiredSession(end, now string) string {
	return refusal(190, 463, "Error validating access token: Session has expired on "+end+". The current time is "+now+".")
}

// answerOf is a call's status and body as text.
func answerOf(t *testing.T, method, rawURL, token string) string {
	t.Helper()
	status, _, body := send(t, method, rawURL, token, "")
	return fmt.Sprintf("%d %s", status, body)
}

// TestSignInTokenEnds: a sign-in token ends an hour after it was issued,
// by the fake's clock, and the page tokens read with it end with it; then
// every call answers 190/463 with the end and the current time in Pacific
// time. A user's token without an issue time does not end.
func TestSignInTokenEnds(t *testing.T) {
	f, base, c := timedWorld(t)
	f.SetAccountsPageSize(1) // the first answer holds page 456 only
	mustOK(t, "GET", base+"/me/accounts?fields=id,access_token", userToken, nil)
	if end, ok := f.TokenEnd(userToken); !ok || !end.Equal(issuedAt.Add(time.Hour)) {
		t.Fatalf("TokenEnd = %v %v", end, ok)
	}
	if end, ok := f.TokenEnd(pageToken); !ok || !end.Equal(issuedAt.Add(time.Hour)) {
		t.Fatalf("the page token's end = %v %v", end, ok)
	}
	c.Set(issuedAt.Add(time.Hour - time.Second))
	mustOK(t, "GET", base+"/me?fields=id", userToken, nil)
	mustOK(t, "GET", base+"/456?fields=name", pageToken, nil)

	c.Set(issuedAt.Add(time.Hour + 90*time.Second))
	want := "400 " + expiredSession("Wednesday, 01-Jul-26 09:00:00 PDT", "Wednesday, 01-Jul-26 09:01:30 PDT")
	for _, call := range []struct{ path, token string }{
		{"/me?fields=id", userToken},
		{"/me/permissions", userToken},
		{"/me/adaccounts?fields=id", userToken},
		{"/act_1/campaigns?fields=id", userToken},
		{"/456?fields=name", pageToken},
		{"/456/posts?fields=id", pageToken},
	} {
		if got := answerOf(t, "GET", base+call.path, call.token); got != want {
			t.Errorf("%s after the end: %s\nwant %s", call.path, got, want)
		}
	}
	// A page token not read with the user's token (457, on the next page
	// of /me/accounts) does not end.
	mustOK(t, "GET", base+"/457?fields=name", otherPage, nil)

	// In winter network_a writes PST.
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Issued = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC) })
	c.Set(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	if got, want := answerOf(t, "GET", base+"/me?fields=id", userToken),
		"400 "+expiredSession("Tuesday, 01-Dec-26 01:00:00 PST", "Tuesday, 01-Dec-26 01:00:00 PST"); got != want {
		t.Errorf("at the end exactly: %s\nwant %s", got, want)
	}

	// Without an issue time, the token and the pages read with it go on.
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Issued = time.Time{} })
	mustOK(t, "GET", base+"/me/accounts?fields=id,access_token", userToken, nil)
	c.Set(issuedAt.AddDate(3, 0, 0))
	mustOK(t, "GET", base+"/me?fields=id", userToken, nil)
	mustOK(t, "GET", base+"/456?fields=name", pageToken, nil)
	if end, ok := f.TokenEnd(userToken); ok {
		t.Errorf("TokenEnd without an issue time = %v", end)
	}
}

// TestIssueToken: a new sign-in token of the same user ends an hour after
// it is issued; the user's other tokens go on.
func TestIssueToken(t *testing.T) {
	f, base, c := timedWorld(t)
	c.Set(issuedAt.Add(50 * time.Minute))
	f.IssueToken(userToken, "EAAsecond0token")
	c.Set(issuedAt.Add(70 * time.Minute))
	if got := mustOK(t, "GET", base+"/me?fields=id,first_name", "EAAsecond0token", nil); !reflect.DeepEqual(got,
		map[string]any{"id": "5550001", "first_name": "Ana"}) {
		t.Fatalf("/me with the new token = %v", got)
	}
	if got := graphErr(t, "GET", base+"/me?fields=id", userToken, nil); got != "400 OAuthException 190" {
		t.Fatalf("the first token after its end: %s", got)
	}
	c.Set(issuedAt.Add(110 * time.Minute))
	if got, want := answerOf(t, "GET", base+"/me?fields=id", "EAAsecond0token"),
		"400 "+expiredSession("Wednesday, 01-Jul-26 09:50:00 PDT", "Wednesday, 01-Jul-26 09:50:00 PDT"); got != want {
		t.Fatalf("the new token after its end: %s\nwant %s", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("IssueToken for an unknown token did not panic")
		}
	}()
	f.IssueToken("EAAnobody", "EAAthird0token")
}

// TestExpireTokenMessage: ExpireToken ends a token at the fake's clock,
// even one that would go on.
func TestExpireTokenMessage(t *testing.T) {
	f, base, c := timedWorld(t)
	c.Set(issuedAt.Add(10 * time.Minute))
	f.ExpireToken(pageToken)
	c.Set(issuedAt.Add(20 * time.Minute))
	if got, want := answerOf(t, "GET", base+"/456?fields=name", pageToken),
		"400 "+expiredSession("Wednesday, 01-Jul-26 08:10:00 PDT", "Wednesday, 01-Jul-26 08:20:00 PDT"); got != want {
		t.Fatalf("an expired page token: %s\nwant %s", got, want)
	}
	// Moving the clock back does not bring it back.
	c.Set(issuedAt)
	if got := graphErr(t, "GET", base+"/456?fields=name", pageToken, nil); got != "400 OAuthException 190" {
		t.Fatalf("an expired token before its end: %s", got)
	}
}

// exchangeURL is the exchange call's URL.
func exchangeURL(base, id, secret, token string) string {
	q := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {id}, "client_secret": {secret}, "fb_exchange_token": {token}}
	return base + "/oauth/access_token?" + q.Encode()
}

const (
	appID     = "1470000000000001"
	appSecret = "9f0c2d1e8b7a6c5d4e3f2a1b0c9d8e7f"
)

// TestExchange: the exchange answers a new token of the same user that
// ends ExchangedExpiresIn seconds later; the pages read with it do not end;
// the secret is in nothing the fake records.
func TestExchange(t *testing.T) {
	f, base, c := timedWorld(t)
	f.SetApp(appID, appSecret)
	got := answerOf(t, "GET", exchangeURL(base, appID, appSecret, userToken), "")
	if want := `200 {"access_token":"EAAlong0555000101","expires_in":5183944,"token_type":"bearer"}`; got != want {
		t.Fatalf("exchange = %s\nwant %s", got, want)
	}
	const long = "EAAlong0555000101"
	end := issuedAt.Add(5183944 * time.Second)
	if e, ok := f.TokenEnd(long); !ok || !e.Equal(end) {
		t.Fatalf("TokenEnd(exchanged) = %v %v, want %v", e, ok, end)
	}
	if got := mustOK(t, "GET", base+"/me?fields=id", long, nil); got["id"] != "5550001" {
		t.Fatalf("/me with the exchanged token = %v", got)
	}
	mustOK(t, "GET", base+"/me/accounts?fields=id,access_token", long, nil)
	if e, ok := f.TokenEnd(pageToken); ok {
		t.Fatalf("a page token read with the long-lived token ends %v", e)
	}

	c.Set(end.Add(-time.Second))
	mustOK(t, "GET", base+"/me/adaccounts?fields=id", long, nil)
	mustOK(t, "GET", base+"/456/posts?fields=id", pageToken, nil)
	if got := graphErr(t, "GET", base+"/me?fields=id", userToken, nil); got != "400 OAuthException 190" {
		t.Fatalf("the sign-in token 60 days later: %s", got)
	}
	c.Set(end)
	if got, want := answerOf(t, "GET", base+"/me?fields=id", long),
		"400 "+expiredSession("Sunday, 30-Aug-26 07:59:04 PDT", "Sunday, 30-Aug-26 07:59:04 PDT"); got != want {
		t.Fatalf("the exchanged token at its end: %s\nwant %s", got, want)
	}
	mustOK(t, "GET", base+"/456/posts?fields=id", pageToken, nil)

	// An exchange by POST with a form, and one in a batch: each a new token.
	c.Set(issuedAt)
	form := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {appID}, "client_secret": {appSecret}, "fb_exchange_token": {userToken}}
	req, _ := http.NewRequest("POST", base+"/oauth/access_token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var posted map[string]any
	json.NewDecoder(resp.Body).Decode(&posted)
	resp.Body.Close()
	if posted["access_token"] != "EAAlong0555000102" {
		t.Fatalf("exchange by POST = %d %v", resp.StatusCode, posted)
	}
	entries := batch(t, base, userToken, get(strings.TrimPrefix(exchangeURL("", appID, appSecret, userToken), "/")))
	if entries[0].Code != 200 || entries[0].Body != `{"access_token":"EAAlong0555000103","expires_in":5183944,"token_type":"bearer"}` {
		t.Fatalf("exchange in a batch = %d %s", entries[0].Code, entries[0].Body)
	}

	// A wrong secret is masked too.
	answerOf(t, "GET", exchangeURL(base, appID, "wrong0secret", userToken), "")
	recorded := fmt.Sprint(f.Requests(), f.Calls())
	for _, secret := range []string{appSecret, "wrong0secret"} {
		if strings.Contains(recorded, secret) {
			t.Errorf("the fake recorded the secret %s: %s", secret, recorded)
		}
	}
	if calls := f.Calls(); !strings.Contains(calls[0].Path, "client_secret=***&") {
		t.Errorf("the exchange recorded as %s", calls[0].Path)
	}
}

// TestExchangeRefused: each way an exchange is refused, with network_a's
// code and words; nothing is issued.
func TestExchangeRefused(t *testing.T) {
	f, base, c := timedWorld(t)
	noApp := answerOf(t, "GET", exchangeURL(base, appID, appSecret, userToken), "")
	if want := "400 " + refusal(101, 0, "Error validating application. Invalid application ID."); noApp != want {
		t.Errorf("without an app: %s\nwant %s", noApp, want)
	}
	f.SetApp(appID, appSecret)
	f.ExpireToken("EAAgone")
	c.Set(issuedAt.Add(30 * time.Minute))
	ok := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {appID}, "client_secret": {appSecret}, "fb_exchange_token": {userToken}}
	with := func(k, v string) string {
		q := url.Values{}
		for key, vs := range ok {
			q[key] = vs
		}
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
		return base + "/oauth/access_token?" + q.Encode()
	}
	for _, tc := range []struct{ what, url, want string }{
		{"no client_id", with("client_id", ""), "400 " + refusal(101, 0, "Missing client_id parameter.")},
		{"another client_id", with("client_id", "1470000000000002"), "400 " + refusal(101, 0, "Error validating application. Invalid application ID.")},
		{"no client_secret", with("client_secret", ""), "400 " + refusal(1, 0, "Error validating client secret.")},
		{"another client_secret", with("client_secret", "0"+appSecret[1:]), "400 " + refusal(1, 0, "Error validating client secret.")},
		{"no grant_type", with("grant_type", ""), "400 " + refusal(1, 0, "Unsupported grant_type: this call takes grant_type=fb_exchange_token.")},
		{"another grant_type", with("grant_type", "client_credentials"), "400 " + refusal(1, 0, "Unsupported grant_type: this call takes grant_type=fb_exchange_token.")},
		{"no token", with("fb_exchange_token", ""), "400 " + refusal(1, 0, "fb_exchange_token parameter not specified")},
		{"an unknown token", with("fb_exchange_token", "EAAnobody"), "401 " + refusal(190, 0, "Invalid OAuth access token - Cannot parse access token")},
		{"a page's token", with("fb_exchange_token", pageToken), "401 " + refusal(190, 0, "Invalid OAuth access token - Cannot parse access token")},
		{"an expired token", with("fb_exchange_token", "EAAgone"),
			"400 " + expiredSession("Wednesday, 01-Jul-26 08:00:00 PDT", "Wednesday, 01-Jul-26 08:30:00 PDT")},
	} {
		if got := answerOf(t, "GET", tc.url, ""); got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.what, got, tc.want)
		}
	}
	c.Set(issuedAt.Add(time.Hour))
	if got, want := answerOf(t, "GET", exchangeURL(base, appID, appSecret, userToken), ""),
		"400 "+expiredSession("Wednesday, 01-Jul-26 09:00:00 PDT", "Wednesday, 01-Jul-26 09:00:00 PDT"); got != want {
		t.Errorf("a sign-in token past its end: %s\nwant %s", got, want)
	}
	if s := f.State(); len(s.Aliases) != 0 || len(s.LongLived) != 0 {
		t.Errorf("refused exchanges issued tokens: %v %v", s.Aliases, s.LongLived)
	}
}

// TestTokensState: the tokens' ends, the exchanged tokens and the expired
// ones survive State and SetState.
func TestTokensState(t *testing.T) {
	f, base, c := timedWorld(t)
	f.SetApp(appID, appSecret)
	long := mustOK(t, "GET", exchangeURL(base, appID, appSecret, userToken), "", nil)["access_token"].(string)
	mustOK(t, "GET", base+"/me/accounts?fields=id,access_token", userToken, nil)
	f.ExpireToken("EAAgone")
	saved, err := json.Marshal(f.State())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), appSecret) {
		t.Fatalf("the state holds the app's secret: %s", saved)
	}
	var s networkafake.State
	if err := json.Unmarshal(saved, &s); err != nil {
		t.Fatal(err)
	}
	g, base2 := networkafake.Start(t)
	g.SetNow(c.Now)
	g.SetState(s)
	if !reflect.DeepEqual(g.State(), f.State()) {
		t.Fatalf("restored state differs:\n%+v\n%+v", g.State(), f.State())
	}
	c.Set(issuedAt.Add(2 * time.Hour))
	mustOK(t, "GET", base2+"/me?fields=id", long, nil)
	for _, token := range []string{userToken, pageToken} {
		if got, want := answerOf(t, "GET", base2+"/me?fields=id", token),
			"400 "+expiredSession("Wednesday, 01-Jul-26 09:00:00 PDT", "Wednesday, 01-Jul-26 10:00:00 PDT"); got != want {
			t.Errorf("%s after restore: %s\nwant %s", token, got, want)
		}
	}
	if got, want := answerOf(t, "GET", base2+"/me?fields=id", "EAAgone"),
		"400 "+expiredSession("Wednesday, 01-Jul-26 08:00:00 PDT", "Wednesday, 01-Jul-26 10:00:00 PDT"); got != want {
		t.Errorf("an expired token after restore: %s\nwant %s", got, want)
	}
}
