package main

import (
	"bytes"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// exchange is the sandbox's exchange call for the token, with the app.
func exchange(id, secret, token string) string {
	return "/oauth/access_token?" + url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {id},
		"client_secret": {secret}, "fb_exchange_token": {token}}.Encode()
}

// TestSandboxConnection: the sandbox's app exchanges the demo user's token
// for one that ends 60 days later by the sandbox's clock, with pages read
// with it that go on; the fixed tokens never end; another secret is
// refused; the exchanged token survives a restart with -state.
func TestSandboxConnection(t *testing.T) {
	state := t.TempDir() + "/sandbox.json"
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, stop := startSandboxStop(t, t0, "-state", state, "-page-lost-after", "0")
	if out := s.out.String(); !strings.Contains(out, "app id "+DefaultAppID+" (NETWORK_A_APP_ID") || strings.Contains(out, DefaultAppSecret) {
		t.Fatalf("start-up output and the app:\n%s", out)
	}
	got := s.call("GET", exchange(DefaultAppID, DefaultAppSecret, DefaultDemoToken), "", nil)
	long, _ := got["access_token"].(string)
	if !reflect.DeepEqual(got, map[string]any{"access_token": long, "token_type": "bearer", "expires_in": float64(5183944)}) || long == "" {
		t.Fatalf("exchange = %v", got)
	}
	if status, m := s.send("GET", exchange(DefaultAppID, "another0secret", DefaultDemoToken), "", nil); graphError(status, m) !=
		"400 1 <nil> Error validating client secret." {
		t.Fatalf("another secret: %s", graphError(status, m))
	}
	if me := s.call("GET", "/me?fields=id,first_name", long, nil); me["id"] != "1000100" {
		t.Fatalf("/me with the exchanged token = %v", me)
	}
	s.call("GET", "/me/accounts?fields=id,access_token", long, nil)
	stop()

	// 60 days later, after a restart: the exchanged token and the demo
	// page's token go on; a second before the end, and at it.
	end := t0.Add(5183944 * time.Second)
	s = startSandbox(t, end.Add(-time.Second), "-state", state, "-page-lost-after", "0")
	s.call("GET", "/me?fields=id", long, nil)
	s.call("GET", "/2000101/posts?fields=id", "EAAsandbox0page0demofit", nil)
	s.tick(end)
	if status, m := s.send("GET", "/me?fields=id", long, nil); graphError(status, m) != "400 190 463 Error validating access token: "+
		"Session has expired on Friday, 22-Jan-27 01:59:04 PST. The current time is Friday, 22-Jan-27 01:59:04 PST." {
		t.Fatalf("the exchanged token at its end: %s", graphError(status, m))
	}
	for _, token := range []string{DefaultUserToken, DefaultDemoToken, DefaultNoPayToken, DefaultDeclinedToken} {
		s.call("GET", "/me?fields=id", token, nil)
	}
	s.call("GET", "/2000101/posts?fields=id", "EAAsandbox0page0demofit", nil)
}

// TestSandboxAdAccountsAndPermissions: the demo user has two usable ad
// accounts in different currencies and time zones; the declined user has
// declined pages_manage_ads and granted the rest.
func TestSandboxAdAccountsAndPermissions(t *testing.T) {
	s := startSandbox(t, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	const fields = "/me/adaccounts?fields=id,name,account_status,currency,timezone_name,disable_reason"
	account := func(id, name string, status float64, currency, zone string, reason float64) any {
		return map[string]any{"id": id, "name": name, "account_status": status, "currency": currency, "timezone_name": zone, "disable_reason": reason}
	}
	for token, want := range map[string][]any{
		DefaultDemoToken: {account("act_2000", "Demo Studio Prague", 1, "EUR", "Europe/Prague", 0),
			account("act_2001", "Demo Studio New York", 1, "USD", "America/New_York", 0)},
		DefaultUserToken:     {account("act_1001", "Sam's old account", 2, "USD", "UTC", 3), account("act_1000", "Sam Sandbox", 1, "USD", "UTC", 0)},
		DefaultDeclinedToken: {account(DeclinedAccount, "Dora Declined", 1, "USD", "UTC", 0)},
	} {
		if got := s.call("GET", fields, token, nil)["data"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s's ad accounts = %v\nwant %v", token, got, want)
		}
	}
	grant := func(name, status string) any { return map[string]any{"permission": name, "status": status} }
	want := []any{grant("public_profile", "granted"), grant("ads_management", "granted"), grant("pages_show_list", "granted"),
		grant("pages_read_engagement", "granted"), grant("pages_manage_ads", "declined"), grant("instagram_basic", "granted"),
		grant("instagram_manage_insights", "granted")}
	if got := s.call("GET", "/me/permissions", DefaultDeclinedToken, nil)["data"]; !reflect.DeepEqual(got, want) {
		t.Errorf("the declined user's permissions = %v\nwant %v", got, want)
	}
	if got := s.call("GET", "/me/permissions", DefaultDemoToken, nil)["data"].([]any); got[4].(map[string]any)["status"] != "granted" {
		t.Errorf("the demo user's permissions = %v", got)
	}
	page := s.call("GET", "/me/accounts?fields=id,name,access_token", DefaultDeclinedToken, nil)["data"]
	if !reflect.DeepEqual(page, []any{map[string]any{"id": "7000021", "name": "Sandbox Yoga Loft", "access_token": "EAAsandbox0page0yoga"}}) {
		t.Errorf("the declined user's pages = %v", page)
	}
	if posts := s.call("GET", "/7000021/posts?fields=id,message", "EAAsandbox0page0yoga", nil)["data"].([]any); len(posts) != 3 {
		t.Errorf("the declined user's page has %d posts, want 3", len(posts))
	}
}

// TestSandboxAppFlags: the app and the declined user's token default to
// the README's values, take their environment variables and flags, and
// are refused empty or shared.
func TestSandboxAppFlags(t *testing.T) {
	cfg, err := parseFlags(nil, func(string) string { return "" }, &bytes.Buffer{})
	if err != nil || cfg.appID != "8090000000000001" || cfg.appSecret != "sandbox0app0secret" || cfg.declinedToken != "EAAsandbox0declined0token" {
		t.Fatalf("cfg = %+v, %v", cfg, err)
	}
	env := map[string]string{"SANDBOX_APP_ID": "42", "SANDBOX_APP_SECRET": "s", "SANDBOX_DECLINED_TOKEN": "EAAother0declined"}
	cfg, err = parseFlags(nil, func(k string) string { return env[k] }, &bytes.Buffer{})
	if err != nil || cfg.appID != "42" || cfg.appSecret != "s" || cfg.declinedToken != "EAAother0declined" {
		t.Fatalf("cfg from the environment = %+v, %v", cfg, err)
	}
	cfg, err = parseFlags([]string{"-app-id", "43", "-app-secret", "t", "-declined-token", "EAAthird"}, func(k string) string { return env[k] }, &bytes.Buffer{})
	if err != nil || cfg.appID != "43" || cfg.appSecret != "t" || cfg.declinedToken != "EAAthird" {
		t.Fatalf("cfg from flags = %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-app-id", ""}, {"-app-secret", ""}, {"-declined-token", DefaultUserToken},
		{"-declined-token", "a b"}, {"-demo-token", DefaultDeclinedToken}} {
		if _, err := parseFlags(args, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
