package boost_test

import (
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
	w.cycle() // reads the spend
	w.cycle() // sees the cap reached
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
