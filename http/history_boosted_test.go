package httpapi_test

import (
	"reflect"
	"testing"
)

// TestHistoryBoosted: the engine's `boosted` entry is answered
// by history/{id} as written, newest first, and only to the campaign's owner.
func TestHistoryBoosted(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	before := len(history(t, e, ana, 1))
	e.sqlExec(`INSERT INTO campaign_history (user_id, campaign_id, action, details, created_at)
		VALUES (100, 1, 'boosted', '{"post_id": 9001, "ad_id": "120200000000000001"}', now() + interval '1 minute')`)
	entries := history(t, e, ana, 1)
	if len(entries) != before+1 {
		t.Fatalf("%d entries, want %d", len(entries), before+1)
	}
	got := entries[0]
	if got["action"] != "boosted" || !reflect.DeepEqual(got["details"], map[string]any{"post_id": float64(9001), "ad_id": "120200000000000001"}) {
		t.Fatalf("newest entry = %v", got)
	}
	e.get("/v1/boosted-pages/history/1", e.token(101)).fails(404, "not_found")
}
