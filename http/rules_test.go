package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	httpapi "adboost/http"
)

// rulesPresets are presets of the import with default rules in their
// boosting condition: 20 with several rules, 21 with a condition and no
// rules.
const rulesPresets = `{"presets": [
  {"id": 20, "agency_id": 12, "title": "Weekday engagement", "campaign_objective": "OUTCOME_ENGAGEMENT", "price": "10.00",
   "allowed_options": ["advanced_settings"],
   "boosting_condition": {"keywords": ["gym"], "reach": 0, "rules": {
     "min_reactions": 10, "min_engagement_rate": "1.5", "content_types": ["photo", "video"],
     "hours": {"days": ["mon", "tue", "wed", "thu", "fri"], "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"},
     "post_budget": "5", "post_days": 3}}},
  {"id": 21, "agency_id": 12, "title": "No default rules", "campaign_objective": "OUTCOME_ENGAGEMENT", "price": "10.00",
   "boosting_condition": {"keywords": [], "reach": 0}}
]}`

// presetRules are preset 20's default rules as a BoostedPage answers them.
func presetRules() map[string]any {
	return withRules(map[string]any{
		"min_reactions": 10, "min_engagement_rate": 1.5, "content_types": []any{"photo", "video"},
		"hours":       map[string]any{"days": []any{"mon", "tue", "wed", "thu", "fri"}, "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"},
		"post_budget": "5.00", "post_days": 3,
	})
}

// withRules answers noRules with the given rules set.
func withRules(set map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range noRules {
		out[k] = v
	}
	for k, v := range set {
		if _, ok := out[k]; !ok {
			panic("withRules: unknown rule " + k)
		}
		out[k] = v
	}
	return out
}

// everyRule sets every rule, in the forms a client may send.
var everyRule = map[string]any{
	"min_reactions": 25, "min_comments": "5", "min_shares": 0, "min_engagement_rate": 2.25,
	"post_age_min_hours": 2, "post_age_max_hours": 168, "content_types": []any{"link", "text"},
	"exclude_keywords": []any{" giveaway ", "#ad", "free shipping"},
	"hours":            map[string]any{"days": []any{"sat", "sun"}, "from": "22:00", "to": "02:00", "timezone": "America/New_York"},
	"post_budget":      12.5, "post_days": "90", "max_posts_per_day": 1000, "spend_cap": "0500.00",
}

// everyRuleAnswered is everyRule as a BoostedPage answers it.
var everyRuleAnswered = map[string]any{
	"min_reactions": 25, "min_comments": 5, "min_shares": 0, "min_engagement_rate": 2.25,
	"post_age_min_hours": 2, "post_age_max_hours": 168, "content_types": []any{"link", "text"},
	"exclude_keywords": []any{"giveaway", "#ad", "free shipping"},
	"hours":            map[string]any{"days": []any{"sat", "sun"}, "from": "22:00", "to": "02:00", "timezone": "America/New_York"},
	"post_budget":      "12.50", "post_days": 90, "max_posts_per_day": 1000, "spend_cap": "500.00",
}

// rulesOf answers the rules of campaign id as its detail answers them.
func rulesOf(t *testing.T, e *env, token string, id int) json.RawMessage {
	t.Helper()
	var page map[string]json.RawMessage
	e.get(fmt.Sprintf("/v1/boosted-pages/detail/%d", id), token).ok(&page)
	return page["rules"]
}

func TestBoostedPageRulesCreate(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.load(rulesPresets)
	ana := e.token(100)
	create := func(body map[string]any) (int, json.RawMessage) {
		t.Helper()
		var page map[string]json.RawMessage
		e.post("/v1/boosted-pages/create", ana, body).ok(&page)
		var id int
		if err := json.Unmarshal(page["id"], &id); err != nil {
			t.Fatal(err)
		}
		// The detail answers the rules the create answered.
		requireJSON(t, "detail rules", rulesOf(t, e, ana, id), mustDecode(t, page["rules"]))
		return id, page["rules"]
	}

	// Without rules, the campaign starts with the preset's defaults, and its
	// `created` entry records them as stored.
	id, got := create(map[string]any{"preset_id": 20, "page_id": 456, "budget": "30"})
	requireJSON(t, "rules copied from the preset", got, presetRules())
	h := history(t, e, ana, id)
	if r := h[0]["details"].(map[string]any)["rules"]; !reflect.DeepEqual(r, map[string]any{
		"min_reactions": 10.0, "min_engagement_rate": 1.5, "content_types": []any{"photo", "video"},
		"hours":       map[string]any{"days": []any{"mon", "tue", "wed", "thu", "fri"}, "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"},
		"post_budget": "5.00", "post_days": 3.0}) {
		t.Fatalf("created entry's rules = %v", r)
	}
	// null and "" are absent too.
	_, got = create(map[string]any{"preset_id": "20", "page_id": 456, "budget": "30", "rules": nil})
	requireJSON(t, "rules null", got, presetRules())
	_, got = create(map[string]any{"preset_id": "20", "page_id": 456, "budget": "30", "rules": ""})
	requireJSON(t, "rules empty", got, presetRules())

	// Given rules replace the defaults whole: what they leave out is off.
	_, got = create(map[string]any{"preset_id": 20, "page_id": 456, "budget": "30", "rules": map[string]any{"max_posts_per_day": 2}})
	requireJSON(t, "given rules", got, withRules(map[string]any{"max_posts_per_day": 2}))
	_, got = create(map[string]any{"preset_id": 20, "page_id": 456, "budget": "30", "rules": map[string]any{}})
	requireJSON(t, "no rules", got, noRules)
	_, got = create(map[string]any{"preset_id": 1, "network_b_id": 789, "budget": "30", "rules": everyRule})
	requireJSON(t, "every rule", got, everyRuleAnswered)
	// A preset with a condition but no rules, and one without a condition.
	_, got = create(map[string]any{"preset_id": 21, "page_id": 456, "budget": "30"})
	requireJSON(t, "preset without rules", got, noRules)
	_, got = create(map[string]any{"preset_id": 1, "page_id": 456, "budget": "30"})
	requireJSON(t, "preset without a condition", got, noRules)

	// The preset's defaults changed later do not change the campaigns made
	// from it.
	e.load(strings.Replace(rulesPresets, `"min_reactions": 10`, `"min_reactions": 99`, 1))
	requireJSON(t, "rules after the preset changed", rulesOf(t, e, ana, id), presetRules())
}

func TestBoostedPageRulesSave(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana, bob := e.token(100), e.token(101)
	var ok bool
	save := func(id int, body map[string]any) {
		t.Helper()
		e.post(fmt.Sprintf("/v1/boosted-pages/save/%d", id), ana, body).ok(&ok)
	}
	requireJSON(t, "imported campaign", rulesOf(t, e, ana, 1), noRules)

	// Every rule, saved and answered exactly, in the detail, source-detail
	// and sources.
	save(1, map[string]any{"rules": everyRule})
	requireJSON(t, "after saving every rule", rulesOf(t, e, ana, 1), everyRuleAnswered)
	if !strings.Contains(string(e.get("/v1/boosted-pages/detail/1", ana).body), `"min_engagement_rate":2.25`) {
		t.Fatal("min_engagement_rate is not a JSON number with two decimals")
	}
	var pages []map[string]json.RawMessage
	e.post("/v1/boosted-pages/sources", ana, map[string]any{"status": "active"}).ok(&pages)
	found := false
	for _, p := range pages {
		if string(p["id"]) == "1" {
			found = true
			requireJSON(t, "sources rules", p["rules"], everyRuleAnswered)
		}
	}
	if !found {
		t.Fatal("campaign 1 is not in its sources")
	}

	// A save without rules (absent, null or "") keeps them.
	save(1, map[string]any{"budget": "21.00"})
	save(1, map[string]any{"rules": nil})
	save(1, map[string]any{"rules": ""})
	requireJSON(t, "after saves without rules", rulesOf(t, e, ana, 1), everyRuleAnswered)

	// Given rules replace them whole.
	save(1, map[string]any{"rules": map[string]any{"min_comments": 3, "spend_cap": "100"}})
	requireJSON(t, "after replacing", rulesOf(t, e, ana, 1), withRules(map[string]any{"min_comments": 3, "spend_cap": "100.00"}))
	h := history(t, e, ana, 1)
	if got := h[0]["details"]; !reflect.DeepEqual(got, map[string]any{"rules": map[string]any{
		"old": map[string]any{"min_reactions": 25.0, "min_comments": 5.0, "min_shares": 0.0, "min_engagement_rate": 2.25,
			"post_age_min_hours": 2.0, "post_age_max_hours": 168.0, "content_types": []any{"link", "text"},
			"exclude_keywords": []any{"giveaway", "#ad", "free shipping"},
			"hours":            map[string]any{"days": []any{"sat", "sun"}, "from": "22:00", "to": "02:00", "timezone": "America/New_York"},
			"post_budget":      "12.50", "post_days": 90.0, "max_posts_per_day": 1000.0, "spend_cap": "500.00"},
		"new": map[string]any{"min_comments": 3.0, "spend_cap": "100.00"}}}) {
		t.Fatalf("updated entry = %v", got)
	}
	// Raising the spend cap is a save like any other; the same rules again
	// record nothing.
	entries := len(history(t, e, ana, 1))
	save(1, map[string]any{"rules": map[string]any{"min_comments": "3", "spend_cap": 250}})
	requireJSON(t, "after raising the cap", rulesOf(t, e, ana, 1), withRules(map[string]any{"min_comments": 3, "spend_cap": "250.00"}))
	save(1, map[string]any{"rules": map[string]any{"min_comments": 3, "spend_cap": "250.00"}})
	if n := len(history(t, e, ana, 1)); n != entries+1 {
		t.Fatalf("%d history entries, want %d", n, entries+1)
	}
	// {} turns every rule off.
	save(1, map[string]any{"rules": map[string]any{}})
	requireJSON(t, "after {}", rulesOf(t, e, ana, 1), noRules)

	// Another user sees no rules of Ana's and cannot set them.
	var page map[string]json.RawMessage
	save(1, map[string]any{"rules": map[string]any{"min_shares": 4}})
	e.get("/v1/boosted-pages/detail/1", bob).fails(http.StatusNotFound, "not_found")
	e.post("/v1/boosted-pages/save/1", bob, map[string]any{"rules": map[string]any{}}).fails(http.StatusNotFound, "not_found")
	e.get("/v1/boosted-pages/source-detail/456", bob).ok(&page)
	if string(page["id"]) != "7" {
		t.Fatalf("Bob's source-detail/456 = campaign %s", page["id"])
	}
	requireJSON(t, "Bob's campaign", page["rules"], noRules)
	if strings.Contains(string(e.post("/v1/boosted-pages/sources", bob, map[string]any{}).body), "min_shares\":4") {
		t.Fatal("Ana's rules are in Bob's sources")
	}
	requireJSON(t, "Ana's rules after Bob's save", rulesOf(t, e, ana, 1), withRules(map[string]any{"min_shares": 4}))
}

// rulesCase is a rules object the server refuses, and the words its
// message must have (the field first).
type rulesCase struct {
	name  string
	rules any
	words []string
}

var rulesHours = func(set map[string]any) map[string]any {
	h := map[string]any{"days": []any{"mon"}, "from": "09:00", "to": "17:00", "timezone": "Europe/Prague"}
	for k, v := range set {
		if v == nil {
			delete(h, k)
		} else {
			h[k] = v
		}
	}
	return map[string]any{"hours": h}
}

var refusedRules = []rulesCase{
	{"not an object", "min_reactions", []string{"rules must be an object"}},
	{"an array", []any{}, []string{"rules must be an object"}},
	{"a number", 5, []string{"rules must be an object"}},
	{"a boolean", true, []string{"rules must be an object"}},
	{"unknown rule", map[string]any{"min_likes": 3}, []string{"rules.min_likes", "not a known rule"}},
	{"min_reactions negative", map[string]any{"min_reactions": -1}, []string{"rules.min_reactions", "0"}},
	{"min_reactions fraction", map[string]any{"min_reactions": 1.5}, []string{"rules.min_reactions", "integer"}},
	{"min_reactions text", map[string]any{"min_reactions": "ten"}, []string{"rules.min_reactions", "integer"}},
	{"min_reactions boolean", map[string]any{"min_reactions": true}, []string{"rules.min_reactions", "integer"}},
	{"min_reactions array", map[string]any{"min_reactions": []any{1}}, []string{"rules.min_reactions", "integer"}},
	{"min_reactions too large", map[string]any{"min_reactions": 2147483648}, []string{"rules.min_reactions", "2147483647"}},
	{"min_comments negative", map[string]any{"min_comments": "-2"}, []string{"rules.min_comments"}},
	{"min_shares object", map[string]any{"min_shares": map[string]any{}}, []string{"rules.min_shares", "integer"}},
	{"min_engagement_rate three decimals", map[string]any{"min_engagement_rate": 1.234}, []string{"rules.min_engagement_rate", "two decimals"}},
	{"min_engagement_rate negative", map[string]any{"min_engagement_rate": -1}, []string{"rules.min_engagement_rate"}},
	{"min_engagement_rate above 1000", map[string]any{"min_engagement_rate": 1000.01}, []string{"rules.min_engagement_rate", "1000"}},
	{"min_engagement_rate text", map[string]any{"min_engagement_rate": "high"}, []string{"rules.min_engagement_rate"}},
	{"min_engagement_rate boolean", map[string]any{"min_engagement_rate": false}, []string{"rules.min_engagement_rate"}},
	{"post_age_min_hours negative", map[string]any{"post_age_min_hours": -1}, []string{"rules.post_age_min_hours"}},
	{"post_age_max_hours beyond ENGINE_POST_MAX_AGE", map[string]any{"post_age_max_hours": 169}, []string{"rules.post_age_max_hours", "168"}},
	{"post_age_min_hours beyond ENGINE_POST_MAX_AGE", map[string]any{"post_age_min_hours": 200}, []string{"rules.post_age_min_hours", "168"}},
	{"post ages min above max", map[string]any{"post_age_min_hours": 10, "post_age_max_hours": 5}, []string{"rules.post_age_min_hours", "post_age_max_hours"}},
	{"content_types a string", map[string]any{"content_types": "photo"}, []string{"rules.content_types", "array"}},
	{"content_types empty", map[string]any{"content_types": []any{}}, []string{"rules.content_types", "at least one"}},
	{"content_types unknown", map[string]any{"content_types": []any{"photo", "gif"}}, []string{"rules.content_types[1]", "photo, video, link, text"}},
	{"content_types twice", map[string]any{"content_types": []any{"video", "video"}}, []string{"rules.content_types[1]", "repeats"}},
	{"content_types a number", map[string]any{"content_types": []any{1}}, []string{"rules.content_types[0]"}},
	{"exclude_keywords a string", map[string]any{"exclude_keywords": "gym"}, []string{"rules.exclude_keywords", "array"}},
	{"exclude_keywords empty word", map[string]any{"exclude_keywords": []any{"ok", "  "}}, []string{"rules.exclude_keywords[1]", "empty"}},
	{"exclude_keywords only #", map[string]any{"exclude_keywords": []any{"#"}}, []string{"rules.exclude_keywords[0]", "letter or a digit"}},
	{"exclude_keywords too long", map[string]any{"exclude_keywords": []any{strings.Repeat("a", 101)}}, []string{"rules.exclude_keywords[0]", "100"}},
	{"exclude_keywords too many", map[string]any{"exclude_keywords": manyWords(51)}, []string{"rules.exclude_keywords", "50"}},
	{"exclude_keywords a number", map[string]any{"exclude_keywords": []any{7}}, []string{"rules.exclude_keywords[0]", "string"}},
	{"exclude_keywords twice", map[string]any{"exclude_keywords": []any{"Sale", "#sale"}}, []string{"rules.exclude_keywords[1]", "repeats"}},
	{"hours a string", map[string]any{"hours": "9-17"}, []string{"rules.hours", "object"}},
	{"hours empty", map[string]any{"hours": map[string]any{}}, []string{"rules.hours.days", "required"}},
	{"hours without timezone", rulesHours(map[string]any{"timezone": nil}), []string{"rules.hours.timezone", "required"}},
	{"hours unknown member", rulesHours(map[string]any{"start": "09:00"}), []string{"rules.hours.start", "not a known field"}},
	{"hours from 24:00", rulesHours(map[string]any{"from": "24:00"}), []string{"rules.hours.from", "00:00 to 23:59"}},
	{"hours to 9:00", rulesHours(map[string]any{"to": "9:00"}), []string{"rules.hours.to", "HH:MM"}},
	{"hours minute 60", rulesHours(map[string]any{"from": "09:60"}), []string{"rules.hours.from"}},
	{"hours from a number", rulesHours(map[string]any{"from": 9}), []string{"rules.hours.from"}},
	{"hours from = to", rulesHours(map[string]any{"to": "09:00"}), []string{"rules.hours.to", "differ"}},
	{"hours no days", rulesHours(map[string]any{"days": []any{}}), []string{"rules.hours.days", "at least one"}},
	{"hours day name", rulesHours(map[string]any{"days": []any{"monday"}}), []string{"rules.hours.days[0]", "mon, tue"}},
	{"hours day twice", rulesHours(map[string]any{"days": []any{"mon", "fri", "mon"}}), []string{"rules.hours.days[2]", "repeats"}},
	{"hours unknown time zone", rulesHours(map[string]any{"timezone": "Mars/Olympus"}), []string{"rules.hours.timezone", "IANA", "Mars/Olympus"}},
	{"hours time zone Local", rulesHours(map[string]any{"timezone": "Local"}), []string{"rules.hours.timezone"}},
	{"hours time zone empty", rulesHours(map[string]any{"timezone": ""}), []string{"rules.hours.timezone"}},
	{"hours time zone a path", rulesHours(map[string]any{"timezone": "../../etc/passwd"}), []string{"rules.hours.timezone"}},
	{"hours time zone a number", rulesHours(map[string]any{"timezone": 1}), []string{"rules.hours.timezone"}},
	{"hours time zone not canonical", rulesHours(map[string]any{"timezone": "Europe//Prague"}), []string{"rules.hours.timezone", "Europe//Prague"}},
	{"hours time zone with a dot", rulesHours(map[string]any{"timezone": "Europe/./Prague"}), []string{"rules.hours.timezone"}},
	{"hours time zone a posix file", rulesHours(map[string]any{"timezone": "posix/Europe/Prague"}), []string{"rules.hours.timezone"}},
	{"hours time zone a right file", rulesHours(map[string]any{"timezone": "right/UTC"}), []string{"rules.hours.timezone"}},
	{"hours time zone the host's", rulesHours(map[string]any{"timezone": "localtime"}), []string{"rules.hours.timezone"}},
	{"hours time zone in other case", rulesHours(map[string]any{"timezone": "europe/prague"}), []string{"rules.hours.timezone"}},
	{"post_budget without post_days", map[string]any{"post_budget": "10.00"}, []string{"rules.post_days", "required with post_budget"}},
	{"post_days without post_budget", map[string]any{"post_days": 7}, []string{"rules.post_budget", "required with post_days"}},
	{"post_budget zero", map[string]any{"post_budget": "0.00", "post_days": 7}, []string{"rules.post_budget", "greater than 0"}},
	{"post_budget negative", map[string]any{"post_budget": -5, "post_days": 7}, []string{"rules.post_budget"}},
	{"post_budget three decimals", map[string]any{"post_budget": "1.234", "post_days": 7}, []string{"rules.post_budget", "two decimals"}},
	{"post_budget text", map[string]any{"post_budget": "ten", "post_days": 7}, []string{"rules.post_budget"}},
	{"post_budget boolean", map[string]any{"post_budget": true, "post_days": 7}, []string{"rules.post_budget"}},
	{"post_days 0", map[string]any{"post_budget": "10", "post_days": 0}, []string{"rules.post_days", "1 to 90"}},
	{"post_days 91", map[string]any{"post_budget": "10", "post_days": 91}, []string{"rules.post_days", "1 to 90"}},
	{"post_days fraction", map[string]any{"post_budget": "10", "post_days": 1.5}, []string{"rules.post_days", "integer"}},
	{"max_posts_per_day 0", map[string]any{"max_posts_per_day": 0}, []string{"rules.max_posts_per_day", "1 to 1000"}},
	{"max_posts_per_day 1001", map[string]any{"max_posts_per_day": 1001}, []string{"rules.max_posts_per_day"}},
	{"spend_cap zero", map[string]any{"spend_cap": 0}, []string{"rules.spend_cap", "greater than 0"}},
	{"spend_cap three decimals", map[string]any{"spend_cap": "1.005"}, []string{"rules.spend_cap"}},
	{"spend_cap too large", map[string]any{"spend_cap": "12345678901.00"}, []string{"rules.spend_cap"}},
}

func manyWords(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("word%d", i)
	}
	return out
}

// Every invalid rule is a 400 naming it, on save and on create, and writes
// nothing.
func TestBoostedPageRulesRefused(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"rules": map[string]any{"min_reactions": 7}}).ok(&ok)
	before := e.get("/v1/boosted-pages/detail/1", ana).body
	entries := len(history(t, e, ana, 1))
	campaigns := e.sqlInt("SELECT count(*) FROM campaign")
	for _, tc := range refusedRules {
		t.Run(tc.name, func(t *testing.T) {
			// Valid fields come along: nothing may be written.
			e.post("/v1/boosted-pages/save/1", ana, map[string]any{"budget": "77.00", "hashtag": "#changed", "rules": tc.rules}).
				fails(http.StatusBadRequest, "bad_request", tc.words...)
			e.post("/v1/boosted-pages/create", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5", "rules": tc.rules}).
				fails(http.StatusBadRequest, "bad_request", tc.words...)
		})
	}
	if after := e.get("/v1/boosted-pages/detail/1", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := len(history(t, e, ana, 1)); n != entries {
		t.Fatalf("refused saves wrote history: %d entries, want %d", n, entries)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign"); n != campaigns {
		t.Fatalf("refused creates wrote campaigns: %d, want %d", n, campaigns)
	}
	// The bounds themselves are accepted.
	for _, tc := range []struct {
		rules map[string]any
		want  map[string]any
	}{
		{map[string]any{"post_budget": "0.01", "post_days": 1}, map[string]any{"post_budget": "0.01", "post_days": 1}},
		{map[string]any{"post_budget": "9999999999.99", "post_days": 90}, map[string]any{"post_budget": "9999999999.99", "post_days": 90}},
		{map[string]any{"min_engagement_rate": 1.23}, map[string]any{"min_engagement_rate": 1.23}},
		{map[string]any{"min_engagement_rate": "1000"}, map[string]any{"min_engagement_rate": 1000}},
		{map[string]any{"min_engagement_rate": 0}, map[string]any{"min_engagement_rate": 0}},
		{map[string]any{"min_reactions": 0, "min_comments": 2147483647}, map[string]any{"min_reactions": 0, "min_comments": 2147483647}},
		{map[string]any{"post_age_min_hours": 168, "post_age_max_hours": 168}, map[string]any{"post_age_min_hours": 168, "post_age_max_hours": 168}},
		{map[string]any{"post_age_min_hours": 0, "post_age_max_hours": 0}, map[string]any{"post_age_min_hours": 0, "post_age_max_hours": 0}},
		{map[string]any{"max_posts_per_day": 1}, map[string]any{"max_posts_per_day": 1}},
		{map[string]any{"exclude_keywords": manyWords(50)}, map[string]any{"exclude_keywords": manyWords(50)}},
		{map[string]any{"exclude_keywords": []any{}}, map[string]any{}},
		{rulesHours(map[string]any{"from": "00:00", "to": "23:59", "timezone": "UTC", "days": []any{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}}),
			rulesHours(map[string]any{"from": "00:00", "to": "23:59", "timezone": "UTC", "days": []any{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}})},
		{rulesHours(map[string]any{"from": "23:59", "to": "00:00"}), rulesHours(map[string]any{"from": "23:59", "to": "00:00"})},
		{map[string]any{"spend_cap": "0.01", "min_shares": ""}, map[string]any{"spend_cap": "0.01"}},
	} {
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"rules": tc.rules}).ok(&ok)
		requireJSON(t, fmt.Sprintf("rules %v", tc.rules), rulesOf(t, e, ana, 1), withRules(tc.want))
	}
}

// ENGINE_POST_MAX_AGE bounds the post ages of the rules, in whole hours.
func TestBoostedPageRulesPostMaxAge(t *testing.T) {
	e := newEnv(t, func(c *httpapi.Config) { c.PostMaxAge = 48*time.Hour + 30*time.Minute })
	e.loadCampaigns()
	ana := e.token(100)
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"rules": map[string]any{"post_age_max_hours": 48}}).ok(&ok)
	requireJSON(t, "post_age_max_hours 48", rulesOf(t, e, ana, 1), withRules(map[string]any{"post_age_max_hours": 48}))
	for _, field := range []string{"post_age_max_hours", "post_age_min_hours"} {
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"rules": map[string]any{field: 49}}).
			fails(http.StatusBadRequest, "bad_request", "rules."+field, "at most 48")
		e.post("/v1/boosted-pages/create", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5", "rules": map[string]any{field: 49}}).
			fails(http.StatusBadRequest, "bad_request", "rules."+field, "at most 48")
	}
}

// mustDecode decodes a JSON value for requireJSON.
func mustDecode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
