package boost_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// A VIDEO_VIEWS campaign boosts video posts only (status_type added_video),
// whatever its other rules say of the rest; the campaign's objective and
// optimization goal are OUTCOME_ENGAGEMENT and THRUPLAY.
func TestEngineVideoViewsBoostsVideosOnly(t *testing.T) {
	w := newWorld(t)
	if _, err := w.pool.Exec(context.Background(), `UPDATE campaign SET goal = 'VIDEO_VIEWS' WHERE id = 7`); err != nil {
		t.Fatal(err)
	}
	for id, typ := range map[string]string{"1": "added_video", "2": "added_photos", "3": "", "4": "shared_story"} {
		w.fake.AddPost("456", networkafake.Post{ID: "456_" + id, Message: "#gym " + id, Created: time.Now().Add(-time.Hour), StatusType: typ})
	}
	w.cycle()
	if got := w.namesOf("ad", "adboost-7-"); got != "adboost-7-1" {
		t.Errorf("ads of the VIDEO_VIEWS campaign: %q, want the video's only", got)
	}
	c := w.object("campaign", "adboost-7")
	s := w.object("adset", "adboost-7")
	if c.Fields["objective"] != "OUTCOME_ENGAGEMENT" || s.Fields["optimization_goal"] != "THRUPLAY" {
		t.Errorf("objective %v, optimization goal %v; want OUTCOME_ENGAGEMENT and THRUPLAY", c.Fields["objective"], s.Fields["optimization_goal"])
	}
}

// An ad account whose currency network_a does not tell gets no budget: the
// amount could go out 100 times too high. The campaign is `refused` with
// the reason, nothing is created, and once network_a tells the currency the
// campaign is boosted with its budget in that currency's unit.
func TestEngineUnknownCurrencySendsNoMoney(t *testing.T) {
	w := newWorld(t)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{{ID: "act_9", Status: 1, Currency: ""}}
	})
	w.post("1", "Morning #gym", time.Hour, 0)
	w.cycle()
	if got := w.names("campaign") + w.names("adset") + w.names("ad"); got != "" {
		t.Fatalf("objects made with an unknown currency: %s", got)
	}
	if e := w.engineState(7); e.State != "refused" || e.Message != "network_a did not tell the ad account's currency: adboost sends no budget until it does" {
		t.Errorf("engine state with an unknown currency: %+v", e)
	}
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{{ID: "act_9", Status: 1, Currency: "HUF", MinDailyBudget: 1}}
	})
	w.cycle()
	s := w.object("adset", "adboost-7")
	if got := jsonString(s.Fields["daily_budget"]); got != "20" {
		t.Errorf("HUF daily budget %s, want 20", got)
	}
	if e := w.engineState(7); e.State != "running" {
		t.Errorf("engine state once the currency is known: %+v", e)
	}
}

// A resumption whose answer is lost (network_a took it, the engine never
// heard back) leaves the campaign possibly running there: when the user
// deactivates it right after, the campaign is `pausing` and the pause is
// sent, although the engine's last record of network_a says PAUSED.
func TestEngineLostResumptionStillPaused(t *testing.T) {
	w := newWorld(t)
	w.post("1", "Morning #gym", time.Hour, 0)
	w.cycle()
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	w.cycle()
	campaign := w.object("campaign", "adboost-7")
	if campaign.Status != "PAUSED" {
		t.Fatalf("network_a campaign %s after the deactivation, want PAUSED", campaign.Status)
	}
	// Reactivated; the engine marks the resumption as sent and network_a
	// takes it, but its answer never comes back (the state such a work
	// leaves).
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": true}, &ok)
	if _, err := w.pool.Exec(context.Background(),
		`UPDATE network_a_campaign SET resume_sent_at = now() WHERE campaign_id = 7`); err != nil {
		t.Fatal(err)
	}
	w.fake.SetObjectStatus(campaign.ID, "ACTIVE")
	// Deactivated again: the resumption on its way makes it `pausing`, and
	// the next work sends the pause.
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	if e := w.engineState(7); e.State != "pausing" {
		t.Fatalf("engine state after deactivating with a resumption on its way: %+v, want pausing", e)
	}
	w.cycle()
	if got := w.object("campaign", "adboost-7").Status; got != "PAUSED" {
		t.Errorf("network_a campaign %s, want PAUSED: the pause was not sent", got)
	}
	if e := w.engineState(7); e.State != "paused" {
		t.Errorf("engine state after the pause: %+v, want paused", e)
	}
}
