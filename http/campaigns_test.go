package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	httpapi "adboost/http"
)

// campaign2 is Ana's campaign 2 as the BoostedPage JSON decodes: every field
// with its declared type.
var campaign2 = map[string]any{
	"id": 2, "active": false, "page_id": 456, "network_b_id": 789, "preset_id": 2,
	"campaign_budget_type": "lifetime", "campaign_budget_value": 150.5,
	"adset_budget_sharing_enabled": true, "campaign_bid_strategy_enabled": true,
	"campaign_bid_strategy": "COST_CAP", "campaign_bid_amount": 0.45, "goal": "LINK_CLICKS",
	"audience_targeting": map[string]any{"genders": []any{2}}, "hashtag": "#brunch", "end_date": "",
	"page":      map[string]any{"id": 456, "name": "Ana's Gym", "picture": "https://img.example/456.png"},
	"network_b": map[string]any{"id": 789, "name": "anasgym", "picture": "https://img.example/789.png"},
	"preset":    map[string]any{"id": 2, "title": "Café buzz"},
	// Inactive, never run by the engine.
	"promoted_object": nil, "special_ad_categories": []any{}, "dsa_beneficiary": nil, "dsa_payor": nil, "ad_account": nil,
	"engine": map[string]any{"state": "paused", "message": "", "checked_at": nil},
	"rules":  noRules,
}

func TestBoostedPageDetail(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)

	r := e.get("/v1/boosted-pages/detail/2", ana)
	var page json.RawMessage
	r.ok(&page)
	requireJSON(t, "detail/2", page, campaign2)
	// Numbers are JSON numbers rendered exactly from numeric(12, 2).
	for _, want := range []string{`"campaign_budget_value":150.50`, `"campaign_bid_amount":0.45`, `"active":false`, `"id":2`} {
		if !strings.Contains(string(r.body), want) {
			t.Fatalf("detail/2 = %s, want it to contain %s", r.body, want)
		}
	}

	// A network_b account of its own, no page, no preset, the defaults of the import.
	e.get("/v1/boosted-pages/detail/4", ana).ok(&page)
	requireJSON(t, "detail/4", page, map[string]any{
		"id": 4, "active": true, "page_id": 0, "network_b_id": 790, "preset_id": 0,
		"campaign_budget_type": "daily", "campaign_budget_value": 8, "adset_budget_sharing_enabled": false,
		"campaign_bid_strategy_enabled": false, "campaign_bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"campaign_bid_amount": 0, "goal": "BRAND_AWARENESS", "audience_targeting": map[string]any{},
		"hashtag": "", "end_date": "", "page": nil,
		"network_b": map[string]any{"id": 790, "name": "ana.travels", "picture": "https://img.example/790.png"},
		"preset":    nil, "promoted_object": nil,
		"special_ad_categories": []any{}, "dsa_beneficiary": nil, "dsa_payor": nil, "ad_account": nil,
		"engine": map[string]any{"state": "waiting", "message": "", "checked_at": nil},
		"rules":  noRules,
	})
	if !strings.Contains(string(e.get("/v1/boosted-pages/detail/4", ana).body), `"campaign_bid_amount":0.00`) {
		t.Fatal("bid amount 0 is not rendered as 0.00")
	}
	// A page the user has no source row for: its id, empty name and picture.
	e.get("/v1/boosted-pages/detail/6", ana).ok(&page)
	var six map[string]any
	_ = json.Unmarshal(page, &six)
	if !reflect.DeepEqual(six["page"], map[string]any{"id": 999.0, "name": "", "picture": ""}) || six["network_b"] != nil {
		t.Fatalf("detail/6 page = %v, network_b = %v", six["page"], six["network_b"])
	}
	// The end date, and the targeting object as stored.
	e.get("/v1/boosted-pages/detail/1", ana).ok(&page)
	var one map[string]any
	_ = json.Unmarshal(page, &one)
	if one["end_date"] != "2026-12-31" || !reflect.DeepEqual(one["audience_targeting"], map[string]any{
		"geo_locations": map[string]any{"countries": []any{"CZ"}}, "age_min": 18.0, "age_max": 35.0}) {
		t.Fatalf("detail/1 = %s", page)
	}
}

func TestBoostedPagesOwnership(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana, bob := e.token(100), e.token(101)

	// Every {id} route: Bob's campaign 7, Bob's source 800 and unknown ids are
	// 404 for Ana; ids that are not positive integers are 400.
	routes := []struct {
		method, path string
		body         any
		id           string // Bob's campaign or source
	}{
		{http.MethodGet, "/v1/boosted-pages/detail/", nil, "7"},
		{http.MethodPost, "/v1/boosted-pages/save/", map[string]any{"budget": "5.00"}, "7"},
		{http.MethodGet, "/v1/boosted-pages/history/", nil, "7"},
		{http.MethodGet, "/v1/boosted-pages/access-data/", nil, "7"},
		{http.MethodGet, "/v1/boosted-pages/source-detail/", nil, "800"},
		{http.MethodDelete, "/v1/boosted-pages/delete-source/", nil, "800"},
	}
	for _, rt := range routes {
		t.Run(rt.path, func(t *testing.T) {
			for _, id := range []string{rt.id, "12345"} {
				e.do(request{method: rt.method, path: rt.path + id, token: ana, body: rt.body}).fails(http.StatusNotFound, "not_found")
			}
			for _, id := range []string{"abc", "0", "-1", "1.5", "+7", "99999999999999999999"} {
				e.do(request{method: rt.method, path: rt.path + id, token: ana, body: rt.body}).fails(http.StatusBadRequest, "bad_request", "id")
			}
			e.do(request{method: rt.method, path: rt.path + rt.id, body: rt.body}).fails(http.StatusUnauthorized, "unauthorized")
		})
	}
	// Nothing of Bob's changed: his campaign kept its budget, his source its campaigns.
	var seven map[string]any
	e.get("/v1/boosted-pages/detail/7", bob).ok(&seven)
	if seven["campaign_budget_value"] != 30.0 {
		t.Fatalf("Bob's campaign after Ana's save = %v", seven)
	}
	var n int
	e.post("/v1/boosted-pages/count", bob, map[string]any{"source_id": "800"}).ok(&n)
	if n != 1 {
		t.Fatalf("Bob's campaigns of source 800 after Ana's delete-source: %d, want 1", n)
	}
	// Page 456 is managed by both: each sees only their own campaigns of it.
	var page map[string]any
	e.get("/v1/boosted-pages/source-detail/456", ana).ok(&page)
	if page["id"] != 2.0 {
		t.Fatalf("Ana's source-detail/456 = campaign %v, want 2", page["id"])
	}
	e.get("/v1/boosted-pages/source-detail/456", bob).ok(&page)
	if page["id"] != 7.0 || page["page"].(map[string]any)["name"] != "Gym (Bob's view)" {
		t.Fatalf("Bob's source-detail/456 = %v", page)
	}

	// Every Bearer route of the area answers 401 without a valid token.
	for _, rt := range e.api.Routes() {
		if !rt.Bearer || !strings.Contains(rt.Pattern, "/boosted-") {
			continue
		}
		method, path, _ := strings.Cut(rt.Pattern, " ")
		path = strings.Replace(path, "{id}", "1", 1)
		e.do(request{method: method, path: path, token: "not-a-token"}).fails(http.StatusUnauthorized, "unauthorized")
	}
}

// ids answers the ids of a list of BoostedPages, in order.
func ids(t *testing.T, r *response) []int {
	t.Helper()
	var pages []map[string]any
	r.ok(&pages)
	out := []int{}
	for _, p := range pages {
		out = append(out, int(p["id"].(float64)))
	}
	return out
}

func TestBoostedPageSources(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)

	for _, tc := range []struct {
		body any
		want []int
	}{
		// By page (456: 1, 2; 457: 3, 9; 999: 6), by account without a page (790: 4; 789: 5).
		{map[string]any{}, []int{9, 6, 5, 4, 2}},
		{map[string]any{"status": "all", "platform": "all"}, []int{9, 6, 5, 4, 2}},
		{map[string]any{"status": "active"}, []int{6, 4, 3, 1}},
		{map[string]any{"platform": "network_a"}, []int{9, 6, 2}},
		{map[string]any{"platform": "network_a", "status": "active"}, []int{6, 3, 1}},
		// By account (789: 1, 2, 5; 790: 4).
		{map[string]any{"platform": "network_b"}, []int{5, 4}},
		{map[string]any{"platform": "network_b", "status": "active"}, []int{4, 1}},
		{map[string]any{"status": "", "platform": ""}, []int{9, 6, 5, 4, 2}},
	} {
		if got := ids(t, e.post("/v1/boosted-pages/sources", ana, tc.body)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("sources %v = %v, want %v", tc.body, got, tc.want)
		}
	}
	// Each entry is a whole BoostedPage with its page/network_b objects.
	var pages []json.RawMessage
	e.post("/v1/boosted-pages/sources", ana, map[string]any{}).ok(&pages)
	requireJSON(t, "sources[4]", pages[4], campaign2)

	// Another user sees only their own; a user without campaigns gets [].
	if got := ids(t, e.post("/v1/boosted-pages/sources", e.token(101), map[string]any{})); !reflect.DeepEqual(got, []int{8, 7}) {
		t.Fatalf("Bob's sources = %v", got)
	}
	if r := e.post("/v1/boosted-pages/sources", e.token(102), nil); strings.TrimSpace(string(r.body)) != "[]" {
		t.Fatalf("sources of a user without campaigns = %s", r.body)
	}
	e.post("/v1/boosted-pages/sources", ana, map[string]any{"status": "paused"}).fails(http.StatusBadRequest, "bad_request", "status")
	e.post("/v1/boosted-pages/sources", ana, map[string]any{"platform": "network_c"}).fails(http.StatusBadRequest, "bad_request", "platform")
	e.post("/v1/boosted-pages/sources", ana, map[string]any{"status": 1}).fails(http.StatusBadRequest, "bad_request", "status")
}

func TestBoostedPageCount(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)

	for _, tc := range []struct {
		body any
		want int
	}{
		{map[string]any{}, 7},
		{map[string]any{"status": "all", "platform": "all"}, 7},
		{map[string]any{"status": "active"}, 4},       // 1, 3, 4, 6
		{map[string]any{"platform": "network_a"}, 5},  // 1, 2, 3, 6, 9
		{map[string]any{"platform": "network_b"}, 4},  // 1, 2, 4, 5
		{map[string]any{"source_id": "456"}, 2},       // 1, 2 (not Bob's 7)
		{map[string]any{"source_id": 789}, 3},         // 1, 2, 5
		{map[string]any{"source_id": "790"}, 1},       // 4
		{map[string]any{"source_id": "457"}, 2},       // 3, 9
		{map[string]any{"source_id": "800"}, 0},       // Bob's
		{map[string]any{"boosted_post_id": "900"}, 2}, // 1, 2
		{map[string]any{"boosted_post_id": 901}, 1},   // 2
		{map[string]any{"boosted_post_id": "950"}, 0}, // Bob's post
		{map[string]any{"boosted_post_id": "904"}, 0}, // boosted in nothing
		{map[string]any{"status": "active", "boosted_post_id": "900"}, 1},
		{map[string]any{"status": "active", "platform": "network_b", "source_id": "789"}, 1},
		{map[string]any{"status": "active", "platform": "network_a", "source_id": "789"}, 1},
		{map[string]any{"platform": "network_a", "source_id": "790"}, 0},
		{map[string]any{"status": "active", "platform": "network_b", "source_id": "789", "boosted_post_id": "901"}, 0},
		{map[string]any{"source_id": "", "boosted_post_id": ""}, 7},
	} {
		var n int
		e.post("/v1/boosted-pages/count", ana, tc.body).ok(&n)
		if n != tc.want {
			t.Errorf("count %v = %d, want %d", tc.body, n, tc.want)
		}
	}
	r := e.post("/v1/boosted-pages/count", e.token(102), nil)
	if strings.TrimSpace(string(r.body)) != "0" {
		t.Fatalf("count of a user without campaigns = %s, want 0", r.body)
	}
	for field, body := range map[string]any{
		"status":          map[string]any{"status": "paused"},
		"platform":        map[string]any{"platform": "x"},
		"source_id":       map[string]any{"source_id": "abc"},
		"boosted_post_id": map[string]any{"boosted_post_id": "-3"},
	} {
		e.post("/v1/boosted-pages/count", ana, body).fails(http.StatusBadRequest, "bad_request", field)
	}
	e.post("/v1/boosted-pages/count", ana, map[string]any{"source_id": 0}).fails(http.StatusBadRequest, "bad_request", "source_id")
}

// history answers the entries of history/{id}.
func history(t *testing.T, e *env, token string, id int) []map[string]any {
	t.Helper()
	var h struct {
		Data []map[string]any `json:"data"`
	}
	e.get(fmt.Sprintf("/v1/boosted-pages/history/%d", id), token).ok(&h)
	if h.Data == nil {
		t.Fatalf("history/%d has no data array", id)
	}
	return h.Data
}

func actions(entries []map[string]any) []string {
	out := []string{}
	for _, e := range entries {
		out = append(out, e["action"].(string))
	}
	return out
}

func TestBoostedPageSave(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	end := daysFromToday(30)

	targeting, wantTargeting := saveTargetings()
	var ok bool
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{
		"budget": "35.5", "targeting": targeting, "hashtag": "#autumn", "end_date": end,
	}).ok(&ok)
	if !ok {
		t.Fatal("save answered false")
	}
	want := map[string]any{}
	for k, v := range campaign2 {
		want[k] = v
	}
	want["campaign_budget_value"] = 35.5
	want["audience_targeting"] = wantTargeting
	want["hashtag"] = "#autumn"
	want["end_date"] = end
	checkSavedDetail(t, e, ana, want)
	checkSaveHistory(t, e, ana, end)
	checkSaveUnchanged(t, e, ana, want)
	checkSaveTargetingReplaced(t, e, ana, wantTargeting)
	checkSaveActive(t, e, ana)
}

// saveTargetings answers the targeting TestBoostedPageSave saves and the
// normalized form it must come back in: ints as numbers, codes in capitals.
func saveTargetings() (targeting, wantTargeting map[string]any) {
	targeting = map[string]any{
		"geo_locations": map[string]any{
			"countries": []any{"cz", "SK"},
			"cities": []any{map[string]any{"key": "3067696", "name": "Prague", "region": "Hlavní město Praha",
				"country": "CZ", "radius": "10", "distance_unit": "mile"}},
			"location_types": []any{"home", "recent"},
		},
		"age_min": "21", "age_max": 45, "genders": []any{1, "2"}, "locales": []any{6, 24},
		"flexible_spec": []any{map[string]any{
			"interests": []any{map[string]any{"id": "6003139266461", "name": "Movies"}},
			"behaviors": []any{map[string]any{"id": "6002714895372", "name": "Frequent travellers"}},
		}},
		"exclusions":           map[string]any{"interests": []any{map[string]any{"id": "6003020834693", "name": "Music"}}},
		"publisher_platforms":  []any{"network_a", "network_b"},
		"network_a_positions":  []any{"feed", "video_feeds"},
		"network_b_positions":  []any{"stream", "story", "reels"},
		"device_platforms":     []any{"mobile", "desktop"},
		"targeting_automation": map[string]any{"advantage_audience": 0},
	}
	// The saved targeting comes back normalized: ints as numbers, codes in capitals.
	wantTargeting = map[string]any{
		"geo_locations": map[string]any{
			"countries": []any{"CZ", "SK"},
			"cities": []any{map[string]any{"key": "3067696", "name": "Prague", "region": "Hlavní město Praha",
				"country": "CZ", "radius": 10, "distance_unit": "mile"}},
			"location_types": []any{"home", "recent"},
		},
		"age_min": 21, "age_max": 45, "genders": []any{1, 2}, "locales": []any{6, 24},
		"flexible_spec":        targeting["flexible_spec"],
		"exclusions":           targeting["exclusions"],
		"publisher_platforms":  targeting["publisher_platforms"],
		"network_a_positions":  targeting["network_a_positions"],
		"network_b_positions":  targeting["network_b_positions"],
		"device_platforms":     targeting["device_platforms"],
		"targeting_automation": map[string]any{"advantage_audience": 0},
	}
	return targeting, wantTargeting
}

// checkSavedDetail checks detail/2 answers the saved campaign, its budget
// with two decimals.
func checkSavedDetail(t *testing.T, e *env, ana string, want map[string]any) {
	t.Helper()
	r := e.get("/v1/boosted-pages/detail/2", ana)
	var page json.RawMessage
	r.ok(&page)
	requireJSON(t, "detail/2 after save", page, want)
	if !strings.Contains(string(r.body), `"campaign_budget_value":35.50`) {
		t.Fatalf("budget not rendered with two decimals: %s", r.body)
	}
}

// checkSaveHistory checks the save recorded one `updated` entry with what
// changed, above the `created` one of the import.
func checkSaveHistory(t *testing.T, e *env, ana, end string) {
	t.Helper()
	// One `updated` entry with what changed, above the `created` one of the import.
	h := history(t, e, ana, 2)
	if got := actions(h); !reflect.DeepEqual(got, []string{"updated", "created"}) {
		t.Fatalf("history after save = %v", h)
	}
	details := h[0]["details"].(map[string]any)
	if len(details) != 4 ||
		!reflect.DeepEqual(details["campaign_budget_value"], map[string]any{"old": 150.5, "new": 35.5}) ||
		!reflect.DeepEqual(details["hashtag"], map[string]any{"old": "#brunch", "new": "#autumn"}) ||
		!reflect.DeepEqual(details["end_date"], map[string]any{"old": nil, "new": end}) ||
		!reflect.DeepEqual(details["audience_targeting"].(map[string]any)["old"], map[string]any{"genders": []any{2.0}}) {
		t.Fatalf("details = %v", details)
	}
	if ca, _ := h[0]["created_at"].(string); len(ca) != len("2006-01-02 15:04:05") || ca[10] != ' ' {
		t.Fatalf("created_at = %v", h[0]["created_at"])
	}
}

// checkSaveUnchanged checks saving the same values again, or nothing,
// changes nothing and records nothing.
func checkSaveUnchanged(t *testing.T, e *env, ana string, want map[string]any) {
	t.Helper()
	var ok bool
	var page json.RawMessage
	// Saving the same values again changes nothing and records nothing; an
	// absent field keeps its value.
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": "35.50", "hashtag": "#autumn"}).ok(&ok)
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{}).ok(&ok)
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": "", "targeting": "", "hashtag": "", "end_date": "", "active": ""}).ok(&ok)
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": nil, "targeting": nil, "end_date": nil}).ok(&ok)
	if got := len(history(t, e, ana, 2)); got != 2 {
		t.Fatalf("%d history entries after saves that changed nothing, want 2", got)
	}
	e.get("/v1/boosted-pages/detail/2", ana).ok(&page)
	requireJSON(t, "detail/2 after empty save", page, want)
}

// checkSaveTargetingReplaced checks null members of the targeting count as
// absent and the targeting replaces the stored one as a whole; it saves
// wantTargeting back.
func checkSaveTargetingReplaced(t *testing.T, e *env, ana string, wantTargeting map[string]any) {
	t.Helper()
	var ok bool
	// null members of the targeting count as absent; the targeting replaces
	// the stored one as a whole.
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{
		"targeting": map[string]any{"age_min": nil, "genders": []any{1}, "geo_locations": nil}}).ok(&ok)
	var saved map[string]any
	e.get("/v1/boosted-pages/detail/2", ana).ok(&saved)
	if !reflect.DeepEqual(saved["audience_targeting"], map[string]any{"genders": []any{1.0}}) {
		t.Fatalf("targeting after a save with nulls = %v", saved["audience_targeting"])
	}
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"targeting": wantTargeting}).ok(&ok)
}

// checkSaveActive checks `active` pauses and resumes, with its own history
// entries and the engine's, newest first.
func checkSaveActive(t *testing.T, e *env, ana string) {
	t.Helper()
	var ok bool
	// `active` (an addition to save) pauses and resumes, with its own entries.
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"active": "1", "budget": 40}).ok(&ok)
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"active": false}).ok(&ok)
	h := history(t, e, ana, 2)
	// Each change of `active` changes the engine's state too: `waiting` for
	// the engine, then `paused` (nothing ran on network_a).
	if got := actions(h); !reflect.DeepEqual(got, []string{"engine", "deactivated", "engine", "activated", "updated", "updated", "updated", "updated", "created"}) {
		t.Fatalf("history = %v", got)
	}
	if !reflect.DeepEqual(h[0]["details"], map[string]any{"state": "paused", "message": ""}) ||
		!reflect.DeepEqual(h[2]["details"], map[string]any{"state": "waiting", "message": ""}) ||
		!reflect.DeepEqual(h[3]["details"], map[string]any{"active": map[string]any{"old": false, "new": true}}) ||
		!reflect.DeepEqual(h[4]["details"], map[string]any{"campaign_budget_value": map[string]any{"old": 35.5, "new": 40.0}}) {
		t.Fatalf("history details = %v", h)
	}
	for i := 1; i < len(h); i++ {
		if h[i-1]["id"].(float64) <= h[i]["id"].(float64) {
			t.Fatalf("history is not newest first: %v", h)
		}
	}
}

func TestBoostedPageSaveRefused(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	before := e.get("/v1/boosted-pages/detail/1", ana).body
	for _, tc := range append(saveRefusalsOfBudgetAndGeo(), saveRefusalsOfTheRest()...) {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body
			if m, ok := body.(map[string]any); ok {
				full := map[string]any{"budget": "77.00", "hashtag": "#changed", "active": false, "end_date": daysFromToday(3)}
				for k, v := range m {
					full[k] = v
				}
				body = full
			}
			e.post("/v1/boosted-pages/save/1", ana, body).fails(http.StatusBadRequest, "bad_request", tc.words...)
		})
	}
	if after := e.get("/v1/boosted-pages/detail/1", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign_history WHERE campaign_id = 1 AND action <> 'created'"); n != 0 {
		t.Fatalf("%d history entries written by refused saves", n)
	}
}

// saveRefusal is a save body that must be refused and the words of the
// refusal.
type saveRefusal struct {
	name  string
	body  any // a valid budget and hashtag come along: nothing may be written
	words []string
}

// saveRefusalsOfBudgetAndGeo are the refused saves of the budget, the
// targeting's ages, genders, locales and geo_locations.
func saveRefusalsOfBudgetAndGeo() []saveRefusal {
	city := func(extra map[string]any) map[string]any {
		c := map[string]any{"key": "3067696", "name": "Prague", "region": "Hlavní město Praha", "country": "CZ"}
		for k, v := range extra {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return map[string]any{"geo_locations": map[string]any{"cities": []any{c}}}
	}
	return []saveRefusal{
		{"budget zero", map[string]any{"budget": "0.00"}, []string{"budget"}},
		{"budget negative", map[string]any{"budget": "-5"}, []string{"budget"}},
		{"budget three decimals", map[string]any{"budget": "1.234"}, []string{"budget"}},
		{"budget text", map[string]any{"budget": "ten"}, []string{"budget"}},
		{"budget too large", map[string]any{"budget": "12345678901.00"}, []string{"budget"}},
		{"budget bool", map[string]any{"budget": true}, []string{"budget"}},
		{"targeting not an object", map[string]any{"targeting": "CZ"}, []string{"targeting"}},
		{"targeting array", map[string]any{"targeting": []any{}}, []string{"targeting"}},
		{"unknown key", map[string]any{"targeting": map[string]any{"interests": []any{}}}, []string{"targeting.interests", "not a known field"}},
		{"age below 13", map[string]any{"targeting": map[string]any{"age_min": 12}}, []string{"targeting.age_min", "13"}},
		{"age above 65", map[string]any{"targeting": map[string]any{"age_max": "66"}}, []string{"targeting.age_max", "65"}},
		{"age min above max", map[string]any{"targeting": map[string]any{"age_min": 40, "age_max": 30}}, []string{"age_min", "age_max"}},
		{"age not an int", map[string]any{"targeting": map[string]any{"age_min": "twenty"}}, []string{"targeting.age_min", "integer"}},
		{"age fraction", map[string]any{"targeting": map[string]any{"age_min": 20.5}}, []string{"targeting.age_min"}},
		{"gender 3", map[string]any{"targeting": map[string]any{"genders": []any{1, 3}}}, []string{"targeting.genders[1]"}},
		{"genders not an array", map[string]any{"targeting": map[string]any{"genders": 1}}, []string{"targeting.genders", "array"}},
		{"locale not an int", map[string]any{"targeting": map[string]any{"locales": []any{"en"}}}, []string{"targeting.locales[0]"}},
		{"unknown country", map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ", "XX"}}}}, []string{"targeting.geo_locations.countries[1]", "XX"}},
		{"three-letter country", map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"CZE"}}}}, []string{"countries[0]"}},
		{"country not a string", map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{5}}}}, []string{"countries[0]"}},
		{"geo_locations unknown key", map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"zips": []any{"11000"}}}}, []string{"targeting.geo_locations.zips"}},
		{"location type", map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"location_types": []any{"work"}}}}, []string{"location_types[0]", "home"}},
		{"city without key", map[string]any{"targeting": city(map[string]any{"key": nil})}, []string{"cities[0].key", "required"}},
		{"city key not digits", map[string]any{"targeting": city(map[string]any{"key": "prague"})}, []string{"cities[0].key"}},
		{"city without name", map[string]any{"targeting": city(map[string]any{"name": ""})}, []string{"cities[0].name"}},
		{"city unknown field", map[string]any{"targeting": city(map[string]any{"zip": "11000"})}, []string{"cities[0].zip"}},
		{"city unknown country", map[string]any{"targeting": city(map[string]any{"country": "XX"})}, []string{"cities[0].country", "XX"}},
		{"distance unit", map[string]any{"targeting": city(map[string]any{"radius": 10, "distance_unit": "meter"})}, []string{"cities[0].distance_unit", "mile"}},
		{"radius without unit", map[string]any{"targeting": city(map[string]any{"radius": 10})}, []string{"cities[0].distance_unit"}},
		{"radius over 50 miles", map[string]any{"targeting": city(map[string]any{"radius": 51, "distance_unit": "mile"})}, []string{"cities[0].radius"}},
		{"radius over 80 km", map[string]any{"targeting": city(map[string]any{"radius": 81, "distance_unit": "kilometer"})}, []string{"cities[0].radius"}},
		{"negative radius", map[string]any{"targeting": city(map[string]any{"radius": -1, "distance_unit": "kilometer"})}, []string{"cities[0].radius"}},
	}
}

// saveRefusalsOfTheRest are the refused saves of the targeting's platforms,
// interests and automation, the end date, the hashtag, active,
// promoted_object and malformed JSON.
func saveRefusalsOfTheRest() []saveRefusal {
	interest := func(spec any) map[string]any { return map[string]any{"flexible_spec": []any{spec}} }
	return []saveRefusal{
		{"publisher platform", map[string]any{"targeting": map[string]any{"publisher_platforms": []any{"network_c"}}}, []string{"publisher_platforms[0]"}},
		{"network_a position", map[string]any{"targeting": map[string]any{"network_a_positions": []any{"feed", "story"}}}, []string{"network_a_positions[1]"}},
		{"network_b position", map[string]any{"targeting": map[string]any{"network_b_positions": []any{"feed"}}}, []string{"network_b_positions[0]"}},
		{"device platform", map[string]any{"targeting": map[string]any{"device_platforms": []any{"tablet"}}}, []string{"device_platforms[0]"}},
		{"interest without id", map[string]any{"targeting": interest(map[string]any{"interests": []any{map[string]any{"name": "Movies"}}})}, []string{"flexible_spec[0].interests[0].id"}},
		{"interest id not a string", map[string]any{"targeting": interest(map[string]any{"behaviors": []any{map[string]any{"id": 6003, "name": "x"}}})}, []string{"flexible_spec[0].behaviors[0].id"}},
		{"flexible_spec unknown key", map[string]any{"targeting": interest(map[string]any{"hobbies": []any{}})}, []string{"flexible_spec[0].hobbies"}},
		{"flexible_spec not objects", map[string]any{"targeting": map[string]any{"flexible_spec": []any{"movies"}}}, []string{"flexible_spec[0]", "object"}},
		{"exclusions behaviors", map[string]any{"targeting": map[string]any{"exclusions": map[string]any{"behaviors": []any{}}}}, []string{"exclusions.behaviors"}},
		{"advantage audience 2", map[string]any{"targeting": map[string]any{"targeting_automation": map[string]any{"advantage_audience": 2}}}, []string{"advantage_audience"}},
		{"end date in the past", map[string]any{"end_date": daysFromToday(-1)}, []string{"end_date", "past"}},
		{"end date not a date", map[string]any{"end_date": "2026-02-30"}, []string{"end_date"}},
		{"end date format", map[string]any{"end_date": "31.12.2030"}, []string{"end_date", "YYYY-MM-DD"}},
		{"hashtag too long", map[string]any{"hashtag": "#" + strings.Repeat("a", 255)}, []string{"hashtag"}},
		{"hashtag with NUL", map[string]any{"hashtag": "#a\u0000b"}, []string{"hashtag"}},
		{"hashtag only #", map[string]any{"hashtag": "#"}, []string{"hashtag", "one tag"}},
		{"hashtag only ##", map[string]any{"hashtag": " ## "}, []string{"hashtag", "one tag"}},
		{"hashtag of two words", map[string]any{"hashtag": "#gym day"}, []string{"hashtag", "one tag"}},
		{"hashtag with punctuation", map[string]any{"hashtag": "#gym!"}, []string{"hashtag", "one tag"}},
		{"interest name with NUL", map[string]any{"targeting": interest(map[string]any{"interests": []any{map[string]any{"id": "1", "name": "a\u0000"}}})}, []string{"interests[0].name"}},
		{"active not a bool", map[string]any{"active": "maybe"}, []string{"active"}},
		{"promoted_object a string", map[string]any{"promoted_object": "pixel"}, []string{"promoted_object", "object"}},
		{"promoted_object an array", map[string]any{"promoted_object": []any{"1"}}, []string{"promoted_object", "object"}},
		{"promoted_object too large", map[string]any{"promoted_object": map[string]any{"x": strings.Repeat("a", 9000)}}, []string{"promoted_object", "8192"}},
		{"malformed JSON", `{"budget": "5.00", "targeting": {`, []string{"malformed"}},
	}
}

// promoted_object (for CONVERSIONS and APP_INSTALLS campaigns) is kept as
// sent, answered on the BoostedPage, recorded in the history, and kept by a
// save that leaves it out. A lifetime budget needs an end date: a save that
// would leave one without is 400 naming end_date, and writes nothing.
func TestBoostedPagePromotedObjectAndLifetimeEndDate(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	promoted := map[string]any{"pixel_id": "1234567890", "custom_event_type": "PURCHASE"}
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"promoted_object": promoted}).ok(&ok)
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"budget": "12.00"}).ok(&ok)
	var page map[string]any
	e.get("/v1/boosted-pages/detail/1", ana).ok(&page)
	if !reflect.DeepEqual(page["promoted_object"], promoted) {
		t.Fatalf("promoted_object = %v, want %v", page["promoted_object"], promoted)
	}
	h := history(t, e, ana, 1)
	if got := actions(h); !reflect.DeepEqual(got, []string{"updated", "updated", "created"}) {
		t.Fatalf("history = %v", got)
	}
	if !reflect.DeepEqual(h[1]["details"], map[string]any{"promoted_object": map[string]any{"old": nil, "new": promoted}}) {
		t.Fatalf("history of the promoted object = %v", h[1]["details"])
	}
	var created map[string]any
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": "1", "page_id": "456", "budget": "10", "promoted_object": promoted,
	}).ok(&created)
	if !reflect.DeepEqual(created["promoted_object"], promoted) {
		t.Fatalf("created promoted_object = %v", created["promoted_object"])
	}
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": "1", "page_id": "456", "budget": "10", "promoted_object": "x",
	}).fails(http.StatusBadRequest, "bad_request", "promoted_object")

	// Campaign 2 has a lifetime budget and no end date.
	before := e.get("/v1/boosted-pages/detail/2", ana).body
	entries := len(history(t, e, ana, 2))
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": "99.00"}).
		fails(http.StatusBadRequest, "bad_request", "end_date is required: the campaign has a lifetime budget")
	if after := e.get("/v1/boosted-pages/detail/2", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := len(history(t, e, ana, 2)); n != entries {
		t.Fatalf("a refused save wrote history: %d entries, want %d", n, entries)
	}
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": "99.00", "end_date": daysFromToday(10)}).ok(&ok)
}

func TestBoostedPageCreate(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana, bob := e.token(100), e.token(101)
	end := daysFromToday(60)
	checkCreateOfPublicPreset(t, e, ana, end)
	checkCreateOfPrivatePreset(t, e, ana)
	checkCreateRefused(t, e, ana, bob)
}

// checkCreateOfPublicPreset creates a campaign of a public preset on Ana's
// page 456 and checks the answer, its detail and its `created` entry.
func checkCreateOfPublicPreset(t *testing.T, e *env, ana, end string) {
	t.Helper()
	// A public preset (objective Traffic → goal LINK_CLICKS) on Ana's page 456.
	var page map[string]any
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": "1", "page_id": "456", "network_b_id": "", "budget": "25.5",
		"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ"}}, "age_min": 18},
		"hashtag":   "#launch", "end_date": end,
	}).ok(&page)
	id := int(page["id"].(float64))
	if id <= 9 {
		t.Fatalf("new campaign id %d collides with imported ids", id)
	}
	want := map[string]any{
		"id": id, "active": true, "page_id": 456, "network_b_id": 0, "preset_id": 1,
		"campaign_budget_type": "daily", "campaign_budget_value": 25.5, "adset_budget_sharing_enabled": false,
		"campaign_bid_strategy_enabled": false, "campaign_bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"campaign_bid_amount": 0, "goal": "LINK_CLICKS",
		"audience_targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ"}}, "age_min": 18},
		"hashtag":            "#launch", "end_date": end,
		"page":                  map[string]any{"id": 456, "name": "Ana's Gym", "picture": "https://img.example/456.png"},
		"network_b":             nil,
		"preset":                map[string]any{"id": 1, "title": "Gym launch"},
		"promoted_object":       nil,
		"special_ad_categories": []any{}, "dsa_beneficiary": nil, "dsa_payor": nil, "ad_account": nil,
		"engine": map[string]any{"state": "waiting", "message": "", "checked_at": nil},
		"rules":  noRules,
	}
	raw, _ := json.Marshal(page)
	requireJSON(t, "created campaign", raw, want)
	var detail json.RawMessage
	e.get(fmt.Sprintf("/v1/boosted-pages/detail/%d", id), ana).ok(&detail)
	requireJSON(t, "detail of the created campaign", detail, want)
	h := history(t, e, ana, id)
	if len(h) != 1 || h[0]["action"] != "created" {
		t.Fatalf("history of a created campaign = %v", h)
	}
	if d := h[0]["details"].(map[string]any); d["preset_id"] != 1.0 || d["page_id"] != 456.0 || d["campaign_budget_value"] != 25.5 {
		t.Fatalf("created details = %v", d)
	}
}

// checkCreateOfPrivatePreset creates campaigns of Ana's private preset of her
// own agency, on the account linked to her page and on her account of its own.
func checkCreateOfPrivatePreset(t *testing.T, e *env, ana string) {
	t.Helper()
	var page map[string]any
	// Ana's private preset of her own agency, on the account linked to her
	// page and on her account of its own.
	for _, body := range []map[string]any{
		{"preset_id": 3, "network_b_id": 789, "budget": "10"},
		{"preset_id": 3, "page_id": 457, "network_b_id": "790", "budget": 10.25},
	} {
		e.post("/v1/boosted-pages/create", ana, body).ok(&page)
		if page["preset_id"] != 3.0 || page["goal"] != "CONVERSIONS" || page["active"] != true {
			t.Fatalf("create %v = %v", body, page)
		}
	}
	if page["network_b"].(map[string]any)["name"] != "ana.travels" || page["campaign_budget_value"] != 10.25 {
		t.Fatalf("create on account 790 = %v", page)
	}
}

// checkCreateRefused checks refused creates (400, and 404 for a source not
// the caller's) write nothing.
func checkCreateRefused(t *testing.T, e *env, ana, bob string) {
	t.Helper()
	campaigns := e.sqlInt("SELECT count(*) FROM campaign")
	for _, tc := range []struct {
		name  string
		token string
		body  any
		words []string
	}{
		{"another agency's private preset", bob, map[string]any{"preset_id": 3, "page_id": 800, "budget": "5"}, []string{"preset_id"}},
		{"private preset of a third agency", ana, map[string]any{"preset_id": 5, "page_id": 456, "budget": "5"}, []string{"preset_id"}},
		{"inactive preset", ana, map[string]any{"preset_id": 4, "page_id": 456, "budget": "5"}, []string{"preset_id"}},
		{"unknown preset", ana, map[string]any{"preset_id": 999, "page_id": 456, "budget": "5"}, []string{"preset_id"}},
		{"no preset", ana, map[string]any{"page_id": 456, "budget": "5"}, []string{"preset_id"}},
		{"no source", ana, map[string]any{"preset_id": 1, "budget": "5"}, []string{"page_id", "network_b_id"}},
		{"no budget", ana, map[string]any{"preset_id": 1, "page_id": 456}, []string{"budget"}},
		{"zero budget", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "0"}, []string{"budget"}},
		{"bad targeting", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5", "targeting": map[string]any{"genders": []any{0}}}, []string{"targeting.genders[0]"}},
		{"unknown country", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5", "targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"QQ"}}}}, []string{"QQ"}},
		{"past end date", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5", "end_date": "2020-01-01"}, []string{"end_date"}},
		{"preset id not a number", ana, map[string]any{"preset_id": "one", "page_id": 456, "budget": "5"}, []string{"preset_id"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.post("/v1/boosted-pages/create", tc.token, tc.body).fails(http.StatusBadRequest, "bad_request", tc.words...)
		})
	}
	// A source that is not the caller's is 404: whether it exists, as
	// another user's, is not revealed.
	for _, tc := range []struct {
		name  string
		body  any
		words []string
	}{
		{"another user's page", map[string]any{"preset_id": 1, "page_id": 800, "budget": "5"}, []string{"page_id", "800"}},
		{"an unknown page", map[string]any{"preset_id": 1, "page_id": 99999, "budget": "5"}, []string{"page_id", "99999"}},
		{"an account id as page", map[string]any{"preset_id": 1, "page_id": 790, "budget": "5"}, []string{"page_id"}},
		{"another user's account", map[string]any{"preset_id": 1, "network_b_id": 801, "budget": "5"}, []string{"network_b_id", "801"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.post("/v1/boosted-pages/create", ana, tc.body).fails(http.StatusNotFound, "not_found", tc.words...)
		})
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign"); n != campaigns {
		t.Fatalf("refused creates wrote campaigns: %d, want %d", n, campaigns)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign_history WHERE action = 'created' AND details->>'imported' IS NULL"); n != 3 {
		t.Fatalf("%d created entries, want 3", n)
	}
}

func TestBoostedPageDeleteSource(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana, bob := e.token(100), e.token(101)
	del := func(token, id string) *response { return deleteSource(e, token, id) }
	remaining := func() []int {
		t.Helper()
		return campaignIDs(t, e)
	}

	// A campaign of the user without history entries has an empty history.
	e.sqlExec("DELETE FROM campaign_history WHERE campaign_id = 3")
	if h := history(t, e, ana, 3); len(h) != 0 {
		t.Fatalf("history of campaign 3 without entries = %v", h)
	}

	// Page 456: Ana's 1 and 2 go; her 5 (account 789 only) and Bob's 7 (his
	// page 456) stay.
	var res map[string]any
	del(ana, "456").ok(&res)
	if !reflect.DeepEqual(res, map[string]any{"success": true}) {
		t.Fatalf("delete-source = %v", res)
	}
	if got := remaining(); !reflect.DeepEqual(got, []int{3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("campaigns after delete-source 456: %v", got)
	}
	e.get("/v1/boosted-pages/detail/1", ana).fails(http.StatusNotFound, "not_found")
	e.get("/v1/boosted-pages/source-detail/456", ana).fails(http.StatusNotFound, "not_found")
	var seven map[string]any
	e.get("/v1/boosted-pages/source-detail/456", bob).ok(&seven)
	checkDeletedCampaignsKept(t, e, ana, bob)

	// Account 789: campaign 5 (the account alone). A known source without
	// campaigns left succeeds and deletes nothing.
	del(ana, "789").ok(&res)
	del(ana, "789").ok(&res)
	del(ana, "457").ok(&res)
	if got := remaining(); !reflect.DeepEqual(got, []int{4, 6, 7, 8}) {
		t.Fatalf("campaigns after delete-source 789, 457: %v", got)
	}
	// A page with campaigns but no source row (999) is the user's too.
	del(ana, "999").ok(&res)
	// Unknown, foreign and malformed ids.
	del(ana, "12345").fails(http.StatusNotFound, "not_found")
	del(ana, "800").fails(http.StatusNotFound, "not_found")
	del(ana, "801").fails(http.StatusNotFound, "not_found")
	del(ana, "0").fails(http.StatusBadRequest, "bad_request", "positive integer")
	del(ana, "x1").fails(http.StatusBadRequest, "bad_request", "positive integer")
	if got := remaining(); !reflect.DeepEqual(got, []int{4, 7, 8}) {
		t.Fatalf("campaigns at the end: %v", got)
	}
	if got := actions(history(t, e, ana, 3)); !reflect.DeepEqual(got, []string{"deleted"}) {
		t.Fatalf("history of campaign 3 after its deletion = %v", got)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign_history WHERE action = 'deleted'"); n != 6 {
		t.Fatalf("%d deleted entries, want 6 (1, 2, 5, 3, 9, 6)", n)
	}
}

// deleteSource sends delete-source of id with token.
func deleteSource(e *env, token, id string) *response {
	e.t.Helper()
	return e.do(request{method: http.MethodDelete, path: "/v1/boosted-pages/delete-source/" + id, token: token})
}

// campaignIDs answers the ids of every campaign, in order.
func campaignIDs(t *testing.T, e *env) []int {
	t.Helper()
	var out []int
	rows, err := e.pool.Query(t.Context(), "SELECT id FROM campaign ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		_ = rows.Scan(&id)
		out = append(out, id)
	}
	return out
}

// checkDeletedCampaignsKept checks the deleted campaigns 1 and 2 keep their
// history, with the deletion on top, and their posts stay, unlinked.
func checkDeletedCampaignsKept(t *testing.T, e *env, ana, bob string) {
	t.Helper()
	// Their history stays, with the deletion on top; their posts stay, unlinked.
	for _, id := range []int{1, 2} {
		h := history(t, e, ana, id)
		if got := actions(h); !reflect.DeepEqual(got, []string{"deleted", "created"}) {
			t.Fatalf("history of deleted campaign %d = %v", id, got)
		}
		if d := h[0]["details"].(map[string]any); d["source_id"] != 456.0 || d["page_id"] != 456.0 || d["network_b_id"] != 789.0 {
			t.Fatalf("deleted details = %v", d)
		}
	}
	e.get("/v1/boosted-pages/history/1", bob).fails(http.StatusNotFound, "not_found")
	var n int
	e.post("/v1/boosted-pages/count", ana, map[string]any{"boosted_post_id": "900"}).ok(&n)
	if n != 0 || e.sqlInt("SELECT count(*) FROM boosted_post WHERE id IN (900, 901)") != 2 {
		t.Fatalf("after delete-source: post 900 boosted in %d campaigns; posts must stay", n)
	}
}

func TestBoostedPageAccessData(t *testing.T) {
	e := newEnv(t, func(c *httpapi.Config) { c.AdvertiserAccessEmail = "access@adboost.example" })
	e.loadCampaigns()
	ana := e.token(100)
	for id, want := range map[int]string{
		1: "team@cityhive.example",  // preset 1 of cityhive
		2: "access@adboost.example", // preset 2 of bluepeak, which has no e-mail
		3: "ads@northwind.example",  // preset 3 of northwind
		4: "access@adboost.example", // no preset
	} {
		var got map[string]any
		e.get(fmt.Sprintf("/v1/boosted-pages/access-data/%d", id), ana).ok(&got)
		if !reflect.DeepEqual(got, map[string]any{"email": want}) {
			t.Errorf("access-data/%d = %v, want %s", id, got, want)
		}
	}
	t.Run("without ADVERTISER_ACCESS_EMAIL", func(t *testing.T) {
		bare := newEnv(t)
		bare.loadCampaigns()
		var got map[string]any
		bare.get("/v1/boosted-pages/access-data/4", bare.token(100)).ok(&got)
		if !reflect.DeepEqual(got, map[string]any{"email": ""}) {
			t.Fatalf("access-data without fallback = %v", got)
		}
		bare.get("/v1/boosted-pages/access-data/1", bare.token(100)).ok(&got)
		if !reflect.DeepEqual(got, map[string]any{"email": "team@cityhive.example"}) {
			t.Fatalf("access-data/1 without fallback = %v", got)
		}
	})
}
