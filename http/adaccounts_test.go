package httpapi_test

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"adboost/auth/networkafake"
	httpapi "adboost/http"
)

// anaNetworkAToken is Ana's (user 100) network_a token in the ad account
// tests; Bob (101) is connected too, Cleo (102) is not.
const (
	anaNetworkAToken = "EAAanaadaccounts01"
	bobNetworkAToken = "EAAbobadaccounts01"
)

// anaAdAccounts are Ana's ad accounts on network_a: two that may boost (one
// active, one in its grace period) and one disabled.
var anaAdAccounts = []networkafake.AdAccount{
	{ID: "act_1001", Name: "Ana's Gym EUR", Status: 1, Currency: "EUR", TimezoneName: "Europe/Prague"},
	{ID: "act_1002", Name: "Ana's Gym US", Status: 9, Currency: "USD", TimezoneName: "America/New_York"},
	{ID: "act_1003", Name: "Old account", Status: 2, DisableReason: 3, Currency: "USD", TimezoneName: "UTC"},
}

// adAccountsEnv is the campaigns fixture with Ana and Bob connected to
// the fake network_a, their tokens stored as sign-in stores them.
func adAccountsEnv(t *testing.T) (*env, *fakeNetworkA) {
	t.Helper()
	fake := newFakeNetworkA(t)
	cipher := testCipher(t)
	e := newEnv(t, fake.config, func(c *httpapi.Config) { c.TokenCipher = cipher })
	e.loadCampaigns()
	for id, token := range map[int64]string{100: anaNetworkAToken, 101: bobNetworkAToken} {
		sealed, err := cipher.Seal(token)
		if err != nil {
			t.Fatal(err)
		}
		e.sqlExec(`UPDATE app_user SET network_a_token = $2 WHERE id = $1`, id, sealed)
	}
	fake.AddUser(networkafake.User{Token: anaNetworkAToken, ID: "9100", FirstName: "Ana", AdAccounts: anaAdAccounts})
	fake.AddUser(networkafake.User{Token: bobNetworkAToken, ID: "9101", FirstName: "Bob",
		AdAccounts: []networkafake.AdAccount{{ID: "act_2001", Name: "Bob's Bikes", Status: 1, Currency: "JPY", TimezoneName: "Asia/Tokyo"}}})
	return e, fake
}

// adAccountReads counts the fake's reads of /me/adaccounts.
func adAccountReads(fake *fakeNetworkA) int {
	n := 0
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c.Path, "/me/adaccounts") {
			n++
		}
	}
	return n
}

// GET /v1/ad-accounts: the user's accounts with `usable`, read from
// network_a at most once a minute; 409 without a connection adboost may
// use, 503 when network_a cannot be reached.
func TestAdAccountsList(t *testing.T) {
	e, fake := adAccountsEnv(t)
	ana := e.token(100)
	want := []any{
		map[string]any{"id": "act_1001", "name": "Ana's Gym EUR", "currency": "EUR", "timezone_name": "Europe/Prague", "account_status": 1.0, "usable": true},
		map[string]any{"id": "act_1002", "name": "Ana's Gym US", "currency": "USD", "timezone_name": "America/New_York", "account_status": 9.0, "usable": true},
		map[string]any{"id": "act_1003", "name": "Old account", "currency": "USD", "timezone_name": "UTC", "account_status": 2.0, "usable": false},
	}
	var got []any
	e.get("/v1/ad-accounts", ana).ok(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ad accounts = %v, want %v", got, want)
	}
	if n := adAccountReads(fake); n != 1 {
		t.Fatalf("%d reads of /me/adaccounts, want 1", n)
	}
	for _, c := range fake.Calls() {
		if c.Token != anaNetworkAToken || !strings.Contains(c.Path, "timezone_name") || !strings.Contains(c.Path, "disable_reason") {
			t.Fatalf("call %s with token %q: want Ana's token and the accounts' fields", c.Path, c.Token)
		}
	}

	// Within the minute the answer is the read's, whatever network_a says
	// now, and network_a is not asked again.
	fake.UpdateUser(anaNetworkAToken, func(u *networkafake.User) { u.AdAccounts = u.AdAccounts[:1] })
	e.get("/v1/ad-accounts", ana).ok(&got)
	if !reflect.DeepEqual(got, want) || adAccountReads(fake) != 1 {
		t.Fatalf("a second read within the minute: %v after %d reads", got, adAccountReads(fake))
	}

	// Bob's accounts are his own.
	e.get("/v1/ad-accounts", e.token(101)).ok(&got)
	if len(got) != 1 || got[0].(map[string]any)["id"] != "act_2001" {
		t.Fatalf("Bob's ad accounts = %v", got)
	}

	// Cleo never connected network_a; no access token is 401.
	e.get("/v1/ad-accounts", e.token(102)).fails(http.StatusConflict, "not_connected", "sign in with network_a")
	e.get("/v1/ad-accounts", "").fails(http.StatusUnauthorized, "unauthorized")
	if n := adAccountReads(fake); n != 2 {
		t.Fatalf("%d reads of /me/adaccounts, want 2 (Ana's and Bob's)", n)
	}
}

// The connection's faults: an ended or refused token is 409 with no call
// made; network_a failing or refusing the token is answered, never a 500.
func TestAdAccountsNotConnected(t *testing.T) {
	e, fake := adAccountsEnv(t)
	bob := e.token(101)
	e.sqlExec(`UPDATE app_user SET network_a_token_expires_at = '2026-03-01 10:00:00+00' WHERE id = 101`)
	e.get("/v1/ad-accounts", bob).fails(http.StatusConflict, "not_connected", "the connection to network_a ended on 2026-03-01; sign in again with network_a")
	e.sqlExec(`UPDATE app_user SET network_a_token_expires_at = now() + interval '1 day', network_a_token_invalid_at = now() WHERE id = 101`)
	e.get("/v1/ad-accounts", bob).fails(http.StatusConflict, "not_connected", "refused")
	if n := adAccountReads(fake); n != 0 {
		t.Fatalf("%d reads of /me/adaccounts with an ended or refused token, want none", n)
	}

	ana := e.token(100)
	fake.fail("error500")
	e.get("/v1/ad-accounts", ana).fails(http.StatusServiceUnavailable, "unavailable", "network_a")
	fake.fail("slow")
	e.get("/v1/ad-accounts", ana).fails(http.StatusServiceUnavailable, "unavailable", "network_a")
	fake.fail("")
	// network_a refuses the token (it expired there): not connected.
	fake.ExpireToken(anaNetworkAToken)
	e.get("/v1/ad-accounts", ana).fails(http.StatusConflict, "not_connected", "sign in again with network_a")
}

// adAccountOf answers a BoostedPage's ad_account.
func adAccountOf(t *testing.T, e *env, token string, id int) any {
	t.Helper()
	var page map[string]any
	e.get("/v1/boosted-pages/detail/"+strconv.Itoa(id), token).ok(&page)
	a, ok := page["ad_account"]
	if !ok {
		t.Fatalf("BoostedPage %d without ad_account: %v", id, page)
	}
	return a
}

// ad_account_id on create and save: one of the user's accounts that may
// boost, kept with its name, currency and time zone and answered as
// ad_account; a foreign, disabled or malformed one is 400 naming it, with
// nothing written; once the campaign has boosted, another one is 409.
func TestBoostedPageAdAccount(t *testing.T) {
	e, fake := adAccountsEnv(t)
	ana := e.token(100)
	if a := adAccountOf(t, e, ana, 1); a != nil {
		t.Fatalf("a campaign without a chosen account answers ad_account %v, want null", a)
	}
	campaigns := func() int { return e.sqlInt(`SELECT count(*) FROM campaign`) }
	entries := func() int { return e.sqlInt(`SELECT count(*) FROM campaign_history`) }
	before, logged := campaigns(), entries()
	create := map[string]any{"preset_id": 1, "page_id": 456, "budget": "25.00"}
	with := func(m map[string]any, k string, v any) map[string]any {
		c := map[string]any{k: v}
		for key, val := range m {
			if key != k {
				c[key] = val
			}
		}
		return c
	}
	for _, bad := range []struct {
		id   any
		want string
	}{
		{"act_1003", "ad_account_id act_1003 may not boost: network_a gives it account_status 2"},
		{"act_2001", "ad_account_id act_2001 is not one of your network_a ad accounts"},
		{"1001", `ad_account_id must be a network_a ad account id such as "act_1234", not "1001"`},
		{"act_1001; DROP", "ad_account_id must be a network_a ad account id"},
		{1001, "ad_account_id"},
	} {
		e.post("/v1/boosted-pages/create", ana, with(create, "ad_account_id", bad.id)).fails(http.StatusBadRequest, "bad_request", bad.want)
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": bad.id, "budget": "99.00"}).fails(http.StatusBadRequest, "bad_request", bad.want)
	}
	if campaigns() != before || entries() != logged || e.sqlInt(`SELECT count(*) FROM campaign WHERE campaign_budget_value = 99`) != 0 {
		t.Fatal("a refused ad_account_id wrote something")
	}

	var page map[string]any
	e.post("/v1/boosted-pages/create", ana, with(create, "ad_account_id", " act_1001 ")).ok(&page)
	eur := map[string]any{"id": "act_1001", "name": "Ana's Gym EUR", "currency": "EUR", "timezone_name": "Europe/Prague"}
	if !reflect.DeepEqual(page["ad_account"], eur) {
		t.Fatalf("created with ad_account %v, want %v", page["ad_account"], eur)
	}
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": "act_1002"}).ok(&ok)
	us := map[string]any{"id": "act_1002", "name": "Ana's Gym US", "currency": "USD", "timezone_name": "America/New_York"}
	if a := adAccountOf(t, e, ana, 1); !reflect.DeepEqual(a, us) {
		t.Fatalf("saved ad_account %v, want %v", a, us)
	}
	d := history(t, e, ana, 1)[0]["details"].(map[string]any)
	if !reflect.DeepEqual(d, map[string]any{"ad_account_id": map[string]any{"old": nil, "new": "act_1002"}}) {
		t.Fatalf("the save's history details = %v", d)
	}
	// Absent, null or "" keeps it.
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": nil, "budget": "21.00"}).ok(&ok)
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": ""}).ok(&ok)
	if a := adAccountOf(t, e, ana, 1); !reflect.DeepEqual(a, us) {
		t.Fatalf("after saves without an account: %v, want %v", a, us)
	}
	if n := adAccountReads(fake); n != 1 {
		t.Fatalf("%d reads of /me/adaccounts, want 1 within the minute", n)
	}
}

// Once the campaign has boosted (its network_a campaign exists), another
// ad_account_id is 409 with nothing written, the same one is taken; a user
// without a network_a connection cannot choose one.
func TestBoostedPageAdAccountFixed(t *testing.T) {
	e, _ := adAccountsEnv(t)
	ana := e.token(100)
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": "act_1002"}).ok(&ok)
	us := map[string]any{"id": "act_1002", "name": "Ana's Gym US", "currency": "USD", "timezone_name": "America/New_York"}
	entries := func() int { return e.sqlInt(`SELECT count(*) FROM campaign_history`) }
	e.sqlExec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id, currency) VALUES (1, 100, 'act_1002', 'USD')`)
	logged := entries()
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": "act_1001", "budget": "30.00"}).
		fails(http.StatusConflict, "conflict", "ad_account_id: the ad account is fixed once the campaign has boosted")
	if entries() != logged || e.sqlInt(`SELECT count(*) FROM campaign WHERE id = 1 AND campaign_budget_value = 30`) != 0 {
		t.Fatal("a refused change of the ad account wrote something")
	}
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"ad_account_id": "act_1002", "budget": "30.00"}).ok(&ok)
	if a := adAccountOf(t, e, ana, 1); !reflect.DeepEqual(a, us) {
		t.Fatalf("after saving the same account: %v, want %v", a, us)
	}
	// Another user's campaign stays not found, account or not.
	e.post("/v1/boosted-pages/save/7", ana, map[string]any{"ad_account_id": "act_1001"}).fails(http.StatusNotFound, "not_found")
	// Cleo is not connected: choosing an account is 409 not_connected.
	e.load(`{"boosted_pages": [{"id": 20, "user_id": 102, "page_id": 457, "campaign_budget_value": "5.00"}]}`)
	e.post("/v1/boosted-pages/save/20", e.token(102), map[string]any{"ad_account_id": "act_1001"}).fails(http.StatusConflict, "not_connected")
	if got := e.sqlInt(`SELECT count(*) FROM campaign WHERE ad_account_id IS NOT NULL AND user_id <> 100`); got != 0 {
		t.Fatalf("%d campaigns of other users got an ad account", got)
	}
}
