package boost_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// adAccountsWorld gives Ana three ad accounts: act_2 disabled, act_1
// active in New York, act_3 active in Prague (EUR).
func adAccountsWorld(t *testing.T) *world {
	w := newWorld(t)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{
			{ID: "act_2", Status: 2, Currency: "USD"},
			{ID: "act_1", Name: "Ana US", Status: 1, Currency: "USD", TimezoneName: "America/New_York"},
			{ID: "act_3", Name: "Ana EU", Status: 1, Currency: "EUR", TimezoneName: "Europe/Prague"},
		}
	})
	return w
}

// adAccountOf answers a campaign's ad_account as its detail answers it.
func (w *world) adAccountOf(campaign int64) any {
	w.t.Helper()
	var page map[string]any
	w.call("GET", fmt.Sprintf("/v1/boosted-pages/detail/%d", campaign), nil, &page)
	return page["ad_account"]
}

// The account the user chose is the one the network_a campaign is made in;
// without a choice the first usable one is, and the campaign then answers
// it as its ad_account. end_time is the end date's 23:59:59 in the
// account's time zone, sent in UTC, on either side of a daylight-saving
// change (Prague: CET +01:00 until 2027-03-28 02:00, then CEST +02:00; New
// York: EST -05:00 in winter).
func TestEngineChosenAdAccountAndItsTimeZone(t *testing.T) {
	w := adAccountsWorld(t)
	w.stSave(7, map[string]any{"ad_account_id": "act_3", "end_date": "2027-03-27"})
	w.stSave(8, map[string]any{"end_date": "2027-01-15"})
	if a := w.adAccountOf(8); a != nil {
		t.Fatalf("campaign 8 before its first boost: ad_account %v, want null", a)
	}
	w.post("1", "#gym fitness", time.Hour, 900)
	w.cycle()
	if got := w.object("campaign", "adboost-7").AccountID; got != "act_3" {
		t.Errorf("campaign 7's network_a campaign made in %s, want the chosen act_3", got)
	}
	if got := w.object("campaign", "adboost-8").AccountID; got != "act_1" {
		t.Errorf("campaign 8's network_a campaign made in %s, want the first usable act_1", got)
	}
	want := map[string]any{"id": "act_1", "name": "Ana US", "currency": "USD", "timezone_name": "America/New_York"}
	if a := w.adAccountOf(8); !reflect.DeepEqual(a, want) {
		t.Errorf("campaign 8 after its first boost: ad_account %v, want %v", a, want)
	}
	for _, c := range []struct{ name, want string }{
		{"adboost-7", "2027-03-27T22:59:59Z"}, // Prague, CET
		{"adboost-8", "2027-01-16T04:59:59Z"}, // New York, EST
	} {
		if got := w.object("adset", c.name).Fields["end_time"]; got != c.want {
			t.Errorf("%s's end_time %v, want %s", c.name, got, c.want)
		}
	}
	// The end date moves past the change to summer time: the end is 23
	// hours later, not 24.
	w.stSave(7, map[string]any{"end_date": "2027-03-28"})
	w.cycle()
	adset := w.object("adset", "adboost-7")
	if got := adset.Updates[len(adset.Updates)-1]["end_time"]; got != "2027-03-28T21:59:59Z" {
		t.Errorf("adboost-7's end_time sent %v, want 2027-03-28T21:59:59Z (CEST)", got)
	}
	// The account is fixed now: a save naming another is refused.
	status, body := w.stRaw("POST", "/v1/boosted-pages/save/7", map[string]any{"ad_account_id": "act_1"})
	if status != 409 {
		t.Errorf("a change of a boosted campaign's account: %d %s, want 409", status, body)
	}
}

// A campaign runs until its end date is over in its ad account's time zone,
// not in UTC's: at 11:00 UTC on day D, D-1 is still going on at UTC-12
// (Etc/GMT+12), and D+1 has begun at UTC+14 (Etc/GMT-14).
func TestEngineEndDateInTheAccountsTimeZone(t *testing.T) {
	w := adAccountsWorld(t)
	now := time.Now().UTC()
	zone, end, runs := "Etc/GMT+12", now.AddDate(0, 0, -1), true
	if now.Hour() >= 12 {
		// At UTC-12 it is day D already: take UTC+14, where D is over once
		// it is 10:00 UTC.
		zone, end, runs = "Etc/GMT-14", now, false
	}
	// network_a's account is in that zone too: the engine takes the
	// account's time zone from network_a when it makes the campaign.
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		for i := range u.AdAccounts {
			if u.AdAccounts[i].ID == "act_1" {
				u.AdAccounts[i].TimezoneName = zone
			}
		}
	})
	w.stExec(`UPDATE campaign SET ad_account_id = 'act_1', ad_account_currency = 'USD', ad_account_timezone = $1, end_date = $2
		WHERE id = 7`, zone, end.Format(time.DateOnly))
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	e := w.engineState(7)
	if (e.State == "running") != runs {
		t.Errorf("campaign 7 ending %s in %s at %s: %s %q, runs %v", end.Format(time.DateOnly), zone, now.Format(time.DateTime), e.State, e.Message, runs)
	}
	if got := w.names("campaign") != ""; got != runs {
		t.Errorf("a network_a campaign made: %v, want %v", got, runs)
	}
}

// An ad account that may not boost puts the campaign in no_ad_account with
// its status and the reason network_a disabled it, in words.
func TestEngineAdAccountStatusInWords(t *testing.T) {
	w := adAccountsWorld(t)
	w.stSave(7, map[string]any{"ad_account_id": "act_3"})
	w.post("1", "#gym", time.Hour, 0)
	const prefix = "the ad account chosen for the campaign may not boost: act_3 is "
	for _, c := range []struct {
		status, reason int
		want           string
	}{
		{2, 0, "disabled"},
		{2, 1, "disabled (reason: ads integrity policy)"},
		{2, 2, "disabled (reason: ads IP review)"},
		{2, 3, "disabled (reason: risky payment)"},
		{2, 4, "disabled (reason: gray account shut down)"},
		{2, 5, "disabled (reason: ads AFC review)"},
		{2, 6, "disabled (reason: business integrity RAR)"},
		{2, 7, "disabled (reason: permanent close)"},
		{2, 8, "disabled (reason: unused reseller account)"},
		{2, 9, "disabled (reason: unused account)"},
		{3, 0, "unsettled"},
		{7, 0, "pending risk review"},
		{8, 0, "pending settlement"},
		{100, 0, "pending closure"},
		{101, 7, "closed (reason: permanent close)"},
		{42, 0, "in status 42"},
	} {
		w.fake.UpdateUser(userToken, func(u *networkafake.User) {
			u.AdAccounts[2].Status, u.AdAccounts[2].DisableReason = c.status, c.reason
		})
		w.cycle()
		w.stExpect(7, "no_ad_account", prefix+c.want)
	}
	if got := w.namesOf("campaign", "adboost-7"); got != "" {
		t.Fatalf("network_a objects of campaign 7 with its account disabled: %s", got)
	}
	// Back in its grace period (9), it boosts.
	w.fake.UpdateUser(userToken, func(u *networkafake.User) { u.AdAccounts[2].Status, u.AdAccounts[2].DisableReason = 9, 0 })
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.object("campaign", "adboost-7").AccountID; got != "act_3" {
		t.Errorf("campaign made in %s, want act_3", got)
	}
}

// A token past its end makes no call at all: the campaigns that run are
// token_refused, one that should stop stays pausing, both with the date
// the connection ended; a new end lets the pause through.
func TestEngineNoCallWithAnEndedToken(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym fitness", time.Hour, 900)
	w.cycle()
	w.stSave(7, map[string]any{"active": false})
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = '2026-03-01 23:30:00+00' WHERE id = 100`)
	w.fake.TakeCalls()
	w.post("2", "#gym again", time.Minute, 900)
	w.cycle()
	if calls := w.fake.TakeCalls(); len(calls) != 0 {
		t.Fatalf("%d calls with an ended token, want none: %v", len(calls), calls)
	}
	const ended = "the connection to network_a ended on 2026-03-01; sign in again with network_a"
	w.stExpect(7, "pausing", "deactivated: "+ended+" to carry out the pause")
	w.stExpect(8, "token_refused", ended)

	w.stExec(`UPDATE app_user SET network_a_token_expires_at = now() + interval '60 days' WHERE id = 100`)
	w.cycle()
	w.stExpect(7, "paused", "")
	w.stExpect(8, "running", "")
	if len(w.fake.TakeCalls()) == 0 {
		t.Fatal("no call with a token that has not ended")
	}
}

// Permissions the user did not grant: the campaigns that need them are
// token_refused naming them (network_b's only for a campaign with a
// network_b account), and make no call; granted, they run.
func TestEngineMissingPermissions(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym fitness", time.Hour, 900)
	w.stExec(`UPDATE app_user SET network_a_permissions_missing = '{instagram_basic,pages_manage_ads,ads_management}' WHERE id = 100`)
	w.stExec(`UPDATE campaign SET network_b_id = 789 WHERE id = 8`)
	w.fake.TakeCalls()
	w.cycle()
	if calls := w.fake.TakeCalls(); len(calls) != 0 {
		t.Fatalf("%d calls without the permissions, want none: %v", len(calls), calls)
	}
	w.stExpect(7, "token_refused", "network_a has not granted adboost the permissions ads_management, pages_manage_ads: sign in again with network_a and grant them")
	w.stExpect(8, "token_refused", "network_a has not granted adboost the permissions ads_management, pages_manage_ads, instagram_basic: sign in again with network_a and grant them")

	w.stExec(`UPDATE app_user SET network_a_permissions_missing = '{instagram_basic}' WHERE id = 100`)
	w.stExec(`UPDATE campaign SET network_b_id = NULL WHERE id = 8`)
	w.cycle()
	w.stExpect(7, "running", "")
	w.stExpect(8, "running", "")
}
