package boost_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// saveRules replaces a campaign's rules through the API.
func (w *world) saveRules(campaign string, rules map[string]any) {
	w.t.Helper()
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/"+campaign, map[string]any{"rules": rules}, &ok)
}

// The spend cap goes to the network_a campaign (offset units), and a
// campaign whose recorded spend reaches it is paused there, in state
// spend_cap_reached with its history entry and mail, while it stays
// active; raising the cap resumes it, removing it sends network_a's value
// for no cap.
func TestEngineSpendCap(t *testing.T) {
	w := newWorld(t)
	w.saveRules("7", map[string]any{"spend_cap": "10.00"})
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	c := w.object("campaign", "adboost-7")
	if got := jsonString(c.Fields["spend_cap"]); got != "1000" {
		t.Fatalf("the network_a campaign's spend_cap %s, want 1000 (10.00 USD in cents)", got)
	}
	ad := w.object("ad", "adboost-7-1").ID
	// Under the cap: it runs.
	w.fake.SetAdInsights(ad, networkafake.Insights{Impressions: 100, Spend: "9.99"})
	w.cycle()
	w.cycle()
	if c := w.object("campaign", "adboost-7"); c.Status != "ACTIVE" {
		t.Fatalf("paused under the cap: %s", c.Status)
	}
	w.stExpect(7, "running", "")
	// Exactly at the cap: paused on network_a, the campaign still active.
	w.fake.SetAdInsights(ad, networkafake.Insights{Impressions: 120, Spend: "10.00"})
	w.cycle() // reads the spend, sees the cap reached and pauses
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Fatalf("the network_a campaign at the cap: %s", c.Status)
	}
	msg := "the campaign's recorded spend (10.00) reached its spend cap: raise or remove the cap to go on"
	w.stExpect(7, "spend_cap_reached", msg)
	var page struct {
		Active bool `json:"active"`
	}
	w.call(http.MethodGet, "/v1/boosted-pages/detail/7", nil, &page)
	if !page.Active {
		t.Error("the spend cap deactivated the campaign")
	}
	entries := w.stEngineEntries(7)
	if len(entries) == 0 || entries[len(entries)-1] != stEntry("spend_cap_reached", msg) {
		t.Errorf("engine history %v", entries)
	}
	if got := w.list(7); len(got) != 1 || got[0].Active {
		t.Errorf("the post at the cap: %+v", got)
	}
	mails := w.stMails()
	if len(mails) != 1 || mails[0].stListed() != "7" || !strings.Contains(mails[0].Body, "raise the cap") {
		t.Errorf("mails %+v", mails)
	}
	// No new boost while capped; the state holds and is mailed once.
	w.post("2", "#gym again", 0, 0)
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads while capped: %s", got)
	}
	if n := len(w.stMails()); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}
	// Raising the cap: network_a gets it, the campaign resumes and boosts.
	w.saveRules("7", map[string]any{"spend_cap": "25.50"})
	w.cycle()
	c = w.object("campaign", "adboost-7")
	if c.Status != "ACTIVE" || jsonString(c.Fields["spend_cap"]) != "2550" {
		t.Errorf("after raising the cap: %s spend_cap %s", c.Status, jsonString(c.Fields["spend_cap"]))
	}
	w.stExpect(7, "running", "")
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ads after raising the cap: %s", got)
	}
	// Removing it: network_a's value for no cap.
	w.saveRules("7", map[string]any{})
	w.cycle()
	if got := jsonString(w.object("campaign", "adboost-7").Fields["spend_cap"]); got != "922337203685478" {
		t.Errorf("spend_cap after removing the cap: %s", got)
	}
}

// The recorded spend is the campaign's ads' spend together, kept as each
// ad's statistics change (a correction downward included): the cap is
// reached by two ads' sum, exactly at the cap, not before.
func TestEngineSpendCapAcrossAds(t *testing.T) {
	w := newWorld(t)
	w.saveRules("7", map[string]any{"spend_cap": "10.00"})
	w.post("1", "#gym", 2*time.Hour, 0)
	w.post("2", "#gym again", time.Hour, 0)
	w.cycle()
	ad1, ad2 := w.object("ad", "adboost-7-1").ID, w.object("ad", "adboost-7-2").ID
	recorded := func() string {
		t.Helper()
		var total, sum string
		if err := w.pool.QueryRow(context.Background(),
			`SELECT n.spend::text, (SELECT sum(i.spend) FROM network_a_ad_insight AS i WHERE i.campaign_id = 7)::text
			 FROM network_a_campaign AS n WHERE n.campaign_id = 7`).Scan(&total, &sum); err != nil {
			t.Fatal(err)
		}
		if total != sum {
			t.Errorf("the campaign's recorded spend %s, its ads' %s", total, sum)
		}
		return total
	}
	steps := []struct {
		spend1, spend2, total, state string
	}{
		{"4.00", "5.00", "9.000", "running"},
		{"3.50", "6.49", "9.990", "running"}, // a correction downward, and the other ad's rise
		{"3.50", "6.499", "9.999", "running"},
		{"3.50", "6.50", "10.000", "spend_cap_reached"},
	}
	for _, st := range steps {
		w.fake.SetAdInsights(ad1, networkafake.Insights{Impressions: 10, Spend: st.spend1})
		w.fake.SetAdInsights(ad2, networkafake.Insights{Impressions: 10, Spend: st.spend2})
		w.cycle() // reads the spend
		w.cycle() // acts on it
		if got := recorded(); got != st.total {
			t.Fatalf("spend %s + %s: recorded %s, want %s", st.spend1, st.spend2, got, st.total)
		}
		if state := w.engineState(7).State; state != st.state {
			t.Fatalf("spend %s: state %s, want %s", st.total, state, st.state)
		}
	}
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Errorf("the network_a campaign at the cap: %s", c.Status)
	}
}

// post_budget and post_days: each boosted post gets an ad set of its own
// (lifetime budget in offset units, end time post_days after the boost),
// as many a day as the campaign's daily budget holds; its boost ends at
// that time.
func TestEnginePostBudget(t *testing.T) {
	w := newWorld(t)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	w.setNow(now)
	// Campaign 7: daily 20.00 USD, so two post budgets of 7.50 a day.
	w.saveRules("7", map[string]any{"post_budget": "7.50", "post_days": 3})
	for i, id := range []string{"1", "2", "3"} {
		w.fake.AddPost("456", networkafake.Post{ID: "456_" + id, Message: "#gym " + id, Created: now.Add(-time.Duration(3-i) * time.Hour),
			Permalink: "https://net-a.example/456/posts/" + id})
	}
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Fatalf("ads %s, want the two oldest posts'\n%s", got, w.logs)
	}
	if got := w.sortedNames("adset"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ad sets %s, want one per post and no campaign ad set", got)
	}
	c7 := w.object("campaign", "adboost-7")
	s1 := w.object("adset", "adboost-7-1")
	want := `{"bid_amount":150,"bid_strategy":"COST_CAP","billing_event":"IMPRESSIONS","campaign_id":"` + c7.ID + `",` +
		`"destination_type":"ON_POST","dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak s.r.o.",` +
		`"end_time":"2026-11-23T10:00:00Z","lifetime_budget":750,"name":"adboost-7-1","optimization_goal":"POST_ENGAGEMENT",` +
		`"promoted_object":{"page_id":"456"},"status":"ACTIVE",` +
		`"targeting":{"age_min":18,"geo_locations":{"countries":["CZ"]},"publisher_platforms":["network_a"],"targeting_automation":{"advantage_audience":0}}}`
	if got := jsonString(s1.Fields); got != want {
		t.Errorf("post 1's ad set:\n got %s\nwant %s", got, want)
	}
	if got := w.object("ad", "adboost-7-2").Fields["adset_id"]; got != w.object("adset", "adboost-7-2").ID {
		t.Errorf("post 2's ad is in ad set %v", got)
	}
	// The same day: the budget holds no third post.
	w.setNow(now.Add(13 * time.Hour))
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ads later that day %s", got)
	}
	// The next day (UTC): the third.
	w.setNow(now.Add(14 * time.Hour))
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2,adboost-7-3" {
		t.Errorf("ads the next day %s", got)
	}
	if got := jsonString(w.object("adset", "adboost-7-3").Fields["end_time"]); got != `"2026-11-24T00:00:00Z"` {
		t.Errorf("post 3's ad set ends %s", got)
	}
	// Three days after their boost, posts 1 and 2 end; post 3 runs on.
	w.setNow(now.Add(72 * time.Hour))
	w.cycle()
	for _, p := range w.list(7) {
		if (p.ID == 3) != p.Active {
			t.Errorf("post %d after post_days: active %v", p.ID, p.Active)
		}
	}
	stopped := w.stEntries(7, "post_stopped")
	if len(stopped) != 2 || !strings.Contains(stopped[0], "its post_days are over") {
		t.Errorf("post_stopped entries %v", stopped)
	}
}

// A work ended right after network_a created a post's own ad set: the next
// cycle finds it by name, and the post has one ad set and one ad.
func TestEnginePostBudgetNoDuplicateAdSet(t *testing.T) {
	w := newWorld(t)
	w.saveRules("7", map[string]any{"post_budget": "5.00", "post_days": 1})
	w.post("1", "#gym", time.Hour, 0)
	w.interrupted("adset")
	if got := w.names("adset"); got != "adboost-7-1" {
		t.Fatalf("ad sets %s", got)
	}
	w.landed()
	w.cycle()
	if got := w.names("adset") + " " + w.names("ad"); got != "adboost-7-1 adboost-7-1" {
		t.Errorf("ad sets and ads %s", got)
	}
	if got := w.object("ad", "adboost-7-1").Fields["adset_id"]; got != w.object("adset", "adboost-7-1").ID {
		t.Errorf("the ad is in ad set %v", got)
	}
}

// A media's ad set of its own targets network_b; a lifetime budget holds
// as many post budgets as it has room for, ever.
func TestEnginePostBudgetMediaAndLifetime(t *testing.T) {
	w := newWorldB(t)
	w.saveRules("9", map[string]any{"post_budget": "4.00", "post_days": 2})
	// Campaign 10: lifetime 50.00, so two post budgets of 20.00, ever.
	w.saveRules("10", map[string]any{"post_budget": "20.00", "post_days": 1})
	m1 := w.media("17890000000000001", "#gym #run fitness", "IMAGE", 3*time.Hour, 500)
	w.media("17890000000000002", "#gym #run fitness", "IMAGE", 2*time.Hour, 500)
	w.media("17890000000000003", "#gym #run fitness", "IMAGE", time.Hour, 500)
	w.cycle()
	p1, _ := postByLink(w.list(9), m1.Permalink)
	s := w.object("adset", "adboost-9-"+jsonString(p1.ID))
	if got := jsonString(s.Fields["targeting"]); !strings.Contains(got, `"publisher_platforms":["network_b"]`) {
		t.Errorf("the media's ad set targets %s", got)
	}
	if got := jsonString(s.Fields["lifetime_budget"]); got != "400" {
		t.Errorf("the media's ad set's lifetime_budget %s, want 400", got)
	}
	if got := w.object("ad", "adboost-9-b"+m1.ID).Fields["adset_id"]; got != s.ID {
		t.Errorf("the media's ad is in ad set %v, want %s", got, s.ID)
	}
	// Daily 10.00 holds two of 4.00; lifetime 50.00 two of 20.00.
	if n9, n10 := len(w.list(9)), len(w.list(10)); n9 != 2 || n10 != 2 {
		t.Errorf("boosted %d in 9 and %d in 10, want 2 and 2", n9, n10)
	}
	// Days later (for network_a too, which holds the post ad sets' budgets
	// to their flights from its own clock): 9 has room again, 10 never.
	later := time.Now().Add(50 * time.Hour)
	w.setNow(later)
	w.fake.SetNow(func() time.Time { return later })
	w.cycle()
	if n9, n10 := len(w.namesOf("ad", "adboost-9-")), len(w.list(10)); n9 == 0 || strings.Count(w.namesOf("ad", "adboost-9-"), ",") != 2 || n10 != 2 {
		t.Errorf("later: ads of 9 %s, %d posts in 10", w.namesOf("ad", "adboost-9-"), n10)
	}
}

// A post_budget larger than the campaign's budget could never be spent:
// the campaign needs setup, and nothing is sent.
func TestEnginePostBudgetBeyondBudget(t *testing.T) {
	w := newWorld(t)
	w.saveRules("7", map[string]any{"post_budget": "20.01", "post_days": 1}) // campaign 7's budget: 20.00 a day
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	if got := w.names("ad") + w.names("adset"); got != "" {
		t.Errorf("sent %s", got)
	}
	w.stExpect(7, "needs_setup", "rules.post_budget: each post's budget is more than the campaign's budget, so no post can be boosted")
	w.saveRules("7", map[string]any{"post_budget": "20.00", "post_days": 1})
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads once the post budget fits: %s", got)
	}
}
