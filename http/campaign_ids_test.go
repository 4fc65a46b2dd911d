package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"adboost/db/dataset"
)

// A deleted boosted page's id never names another user's campaign (00097):
// the engine keeps its network_a campaign, ad set and ads under the id.
// After a delete-source and an import (which moves every sequence past the
// imported ids), boosted-pages/create answers a new id, not the deleted one;
// an import that gives that id, or a live campaign that network_a knows, to
// another user is refused and changes nothing; the same user may restore it.
func TestBoostedPageIDsNeverReused(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	// Campaign 10, the newest, is made and then deleted with its page.
	var page map[string]any
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": 1, "page_id": 457, "budget": "10", "hashtag": "#a",
	}).ok(&page)
	if page["id"] != 10.0 {
		t.Fatalf("first create: id %v, want 10", page["id"])
	}
	e.exec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id, campaign_object_id, status, paused_at)
	        VALUES (10, 100, 'act_1', '120200000000000010', 'PAUSED', now())`)
	var deleted map[string]any
	e.do(request{method: http.MethodDelete, path: "/v1/boosted-pages/delete-source/457", token: ana}).ok(&deleted)

	// An import of unrelated rows syncs the sequences: they stay past 10.
	e.load(`{"users": [{"id": 103, "email": "dan@example.com"}]}`)
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": 1, "page_id": 456, "budget": "10", "hashtag": "#b",
	}).ok(&page)
	if page["id"] != 11.0 {
		t.Fatalf("create after the import: id %v, want 11 (10 was deleted)", page["id"])
	}
	if h := history(t, e, ana, 11); len(h) != 1 || h[0]["action"] != "created" {
		t.Fatalf("history of the new campaign 11: %v", h)
	}
	checkImportsKeepIDsOwned(t, e, ana)
	checkSequenceSyncedPastKnownIDs(t, e)

	// Re-importing a live campaign (an upsert of its own id) still works.
	e.load(`{"boosted_pages": [{"id": 11, "user_id": 100, "page_id": 456, "preset_id": 1, "campaign_budget_value": "7.00"}]}`)
	if n := e.sqlInt(`SELECT count(*) FROM campaign WHERE id = 11 AND campaign_budget_value = 7`); n != 1 {
		t.Fatal("the upsert of live campaign 11 did not apply")
	}
}

// checkImportsKeepIDsOwned checks an import giving deleted id 10, or live
// campaign 11 once it ran on network_a, to Bob is refused and writes
// nothing, and that Ana may restore her campaign 10.
func checkImportsKeepIDsOwned(t *testing.T, e *env, ana string) {
	t.Helper()
	// An import giving the deleted id 10 to Bob is refused as a whole.
	err := dataset.Load(context.Background(), e.pool, strings.NewReader(`{"boosted_pages": [
	  {"id": 12, "user_id": 100, "page_id": 456, "preset_id": 1, "campaign_budget_value": "5.00"},
	  {"id": 10, "user_id": 101, "page_id": 456, "preset_id": 1, "campaign_budget_value": "5.00"}]}`))
	if err == nil || !strings.Contains(err.Error(), "boosted_pages[1].id: boosted page 10 ran on network_a for another user") {
		t.Fatalf("import of deleted id 10 for another user: %v", err)
	}
	if n := e.sqlInt(`SELECT count(*) FROM campaign WHERE id IN (10, 12)`); n != 0 {
		t.Fatalf("%d campaigns of the refused import were written", n)
	}
	// Nor may an import move live campaign 11, once it ran on network_a, to Bob.
	e.exec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id) VALUES (11, 100, 'act_1')`)
	err = dataset.Load(context.Background(), e.pool, strings.NewReader(`{"boosted_pages": [
	  {"id": 11, "user_id": 101, "page_id": 456, "preset_id": 1, "campaign_budget_value": "5.00"}]}`))
	if err == nil || !strings.Contains(err.Error(), "boosted page 11 ran on network_a for another user") {
		t.Fatalf("import moving campaign 11 to another user: %v", err)
	}
	// Ana may restore her deleted campaign 10.
	e.load(`{"boosted_pages": [{"id": 10, "user_id": 100, "page_id": 456, "preset_id": 1, "campaign_budget_value": "5.00"}]}`)
	if h := history(t, e, ana, 10); len(h) < 2 || h[0]["action"] != "created" {
		t.Fatalf("history of restored campaign 10: %v", h)
	}
}

// checkSequenceSyncedPastKnownIDs checks a create on a sequence moved back
// onto a deleted campaign answers 409, and a sync moves the sequence past
// every id the campaigns, network_a and the history know.
func checkSequenceSyncedPastKnownIDs(t *testing.T, e *env) {
	t.Helper()
	var page map[string]any
	// A sequence moved back by hand onto deleted campaign 9 (made known to
	// network_a for Ana): Bob's create answers 409, not 500. A sync (any
	// import) moves the sequence past every id that the campaigns, network_a
	// and the history know, and his create then gets a fresh id.
	e.exec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id) VALUES (9, 100, 'act_1')`)
	e.exec(`SELECT setval(pg_get_serial_sequence('campaign', 'id'), 9, false)`)
	bob := e.token(101)
	create := map[string]any{"preset_id": 1, "page_id": 456, "budget": "10", "hashtag": "#c"}
	e.post("/v1/boosted-pages/create", bob, create).fails(http.StatusConflict, "conflict", "send the request again")
	e.load(`{"users": [{"id": 104, "email": "eve@example.com"}]}`)
	e.post("/v1/boosted-pages/create", bob, create).ok(&page)
	if page["id"] != 12.0 {
		t.Fatalf("Bob's create after a sync got id %v, want 12 (past 11, the highest campaign)", page["id"])
	}
	// Deleted campaigns 50 (known to network_a) and 60 (in the history)
	// are beyond every campaign: after a sync, the next id is 61.
	e.exec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id) VALUES (50, 100, 'act_1')`)
	e.exec(`INSERT INTO campaign_history (user_id, campaign_id, action) VALUES (100, 60, 'deleted')`)
	e.load(`{"users": [{"id": 105, "email": "fay@example.com"}]}`)
	e.post("/v1/boosted-pages/create", bob, create).ok(&page)
	if page["id"] != 61.0 {
		t.Fatalf("create after a sync got id %v, want 61 (past deleted 50 and 60)", page["id"])
	}
}
