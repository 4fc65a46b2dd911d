package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"adboost/db/dataset"
)

// A hashtag is stored trimmed, in any script; the schema refuses one that
// is only `#` or has surrounding spaces from any writer (00099), here an
// import, which changes nothing.
func TestBoostedPageHashtagTrimmed(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	var page map[string]any
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": 1, "page_id": 456, "budget": "10", "hashtag": "  #Café_2026\t",
	}).ok(&page)
	if page["hashtag"] != "#Café_2026" {
		t.Fatalf("created hashtag %q, want #Café_2026", page["hashtag"])
	}
	// Tags of scripts with combining marks, and a decomposed é, are tags.
	var ok bool
	for _, tag := range []string{"#สวัสดี", "#नमस्ते", "#cafe\u0301"} {
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"budget": "10", "hashtag": tag}).ok(&ok)
	}
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"budget": "10", "hashtag": " yoga "}).ok(&ok)
	if got := e.get("/v1/boosted-pages/detail/1", ana).object()["hashtag"]; got != "yoga" {
		t.Fatalf("saved hashtag %q, want yoga", got)
	}
	for _, tag := range []string{"#", "##", " #gym"} {
		err := dataset.Load(context.Background(), e.pool, strings.NewReader(`{"boosted_pages": [
		  {"id": 1, "user_id": 100, "page_id": 456, "preset_id": 1, "campaign_budget_value": "5.00", "hashtag": "`+tag+`"}]}`))
		if err == nil || !strings.Contains(err.Error(), "boosted_pages[0].hashtag") {
			t.Errorf("import of hashtag %q: %v, want the check to refuse it", tag, err)
		}
	}
	if got := e.get("/v1/boosted-pages/detail/1", ana).object()["hashtag"]; got != "yoga" {
		t.Fatalf("hashtag after the refused imports %q, want yoga", got)
	}
}
