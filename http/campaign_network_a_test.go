package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// networkAFields answers the special ad categories and DSA fields of a
// BoostedPage.
func networkAFields(t *testing.T, page map[string]any) [3]any {
	t.Helper()
	for _, k := range []string{"special_ad_categories", "dsa_beneficiary", "dsa_payor"} {
		if _, ok := page[k]; !ok {
			t.Fatalf("BoostedPage without %s: %v", k, page)
		}
	}
	return [3]any{page["special_ad_categories"], page["dsa_beneficiary"], page["dsa_payor"]}
}

// Special ad categories and the DSA beneficiary and payor: saved, answered
// on every BoostedPage, kept when absent, cleared by null (the DSA fields)
// or [] (the categories), and recorded in the history.
func TestBoostedPageSpecialAdCategoriesAndDSA(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	var ok bool
	var page map[string]any
	detail := func() [3]any {
		t.Helper()
		e.get("/v1/boosted-pages/detail/2", ana).ok(&page)
		return networkAFields(t, page)
	}
	if got := detail(); !reflect.DeepEqual(got, [3]any{[]any{}, nil, nil}) {
		t.Fatalf("an imported campaign: %v, want [] null null", got)
	}
	// Bob's campaign is not found, whatever the save sends.
	e.post("/v1/boosted-pages/save/7", ana, map[string]any{"special_ad_categories": []any{"HOUSING"}}).fails(http.StatusNotFound, "not_found")
	e.post("/v1/boosted-pages/save/7", ana, map[string]any{"dsa_payor": "Ana"}).fails(http.StatusNotFound, "not_found")

	// Campaign 2 targets women only: a category needs a targeting that
	// keeps every adult in reach, sent with it.
	wide := map[string]any{"geo_locations": map[string]any{"countries": []any{"DE"}, "cities": []any{
		map[string]any{"key": "2867714", "name": "Munich", "country": "DE", "radius": 25, "distance_unit": "kilometer"}}},
		"age_min": 18, "age_max": 65}
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{
		"targeting": wide, "special_ad_categories": []any{"EMPLOYMENT", "HOUSING"}, "end_date": daysFromToday(10),
		"dsa_beneficiary": "  Ana's Gym GmbH ", "dsa_payor": "Ana Novak",
	}).ok(&ok)
	want := [3]any{[]any{"EMPLOYMENT", "HOUSING"}, "Ana's Gym GmbH", "Ana Novak"}
	if got := detail(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after save: %v, want %v", got, want)
	}
	h := history(t, e, ana, 2)
	d := h[0]["details"].(map[string]any)
	if !reflect.DeepEqual(d["special_ad_categories"], map[string]any{"old": []any{}, "new": []any{"EMPLOYMENT", "HOUSING"}}) ||
		!reflect.DeepEqual(d["dsa_beneficiary"], map[string]any{"old": nil, "new": "Ana's Gym GmbH"}) ||
		!reflect.DeepEqual(d["dsa_payor"], map[string]any{"old": nil, "new": "Ana Novak"}) {
		t.Fatalf("updated details = %v", d)
	}

	// Absent, null categories and "" keep every field; the other sources of
	// a BoostedPage answer the same.
	for _, body := range []map[string]any{
		{"budget": "21.00"},
		{"special_ad_categories": nil, "dsa_beneficiary": "", "dsa_payor": ""},
		{"special_ad_categories": ""},
	} {
		e.post("/v1/boosted-pages/save/2", ana, body).ok(&ok)
		if got := detail(); !reflect.DeepEqual(got, want) {
			t.Fatalf("after save %v: %v, want %v", body, got, want)
		}
	}
	var pages []map[string]any
	e.post("/v1/boosted-pages/sources", ana, map[string]any{}).ok(&pages)
	for _, p := range pages {
		if p["id"] == 2.0 && !reflect.DeepEqual(networkAFields(t, p), want) {
			t.Fatalf("sources answer campaign 2 with %v", networkAFields(t, p))
		}
	}
	e.get("/v1/boosted-pages/source-detail/456", ana).ok(&page)
	if page["id"] != 2.0 || !reflect.DeepEqual(networkAFields(t, page), want) {
		t.Fatalf("source-detail/456 = %v", page)
	}

	// null clears a DSA field; [] clears the categories, and then the
	// targeting may narrow again.
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"dsa_payor": nil, "special_ad_categories": []any{}}).ok(&ok)
	if got := detail(); !reflect.DeepEqual(got, [3]any{[]any{}, "Ana's Gym GmbH", nil}) {
		t.Fatalf("after clearing: %v", got)
	}
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"targeting": map[string]any{"genders": []any{2}}}).ok(&ok)
	d = history(t, e, ana, 2)[1]["details"].(map[string]any)
	if !reflect.DeepEqual(d, map[string]any{
		"special_ad_categories": map[string]any{"old": []any{"EMPLOYMENT", "HOUSING"}, "new": []any{}},
		"dsa_payor":             map[string]any{"old": "Ana Novak", "new": nil},
	}) {
		t.Fatalf("clearing details = %v", d)
	}
}

func TestBoostedPageCreateWithCategoryAndDSA(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	var page map[string]any
	e.post("/v1/boosted-pages/create", ana, map[string]any{
		"preset_id": 1, "page_id": 456, "budget": "25.00",
		"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"AT"}},
			"targeting_automation": map[string]any{"advantage_audience": 1}},
		"special_ad_categories": []any{"FINANCIAL_PRODUCTS_SERVICES"},
		"dsa_beneficiary":       "Ana's Gym GmbH", "dsa_payor": "Ana Novak",
	}).ok(&page)
	want := [3]any{[]any{"FINANCIAL_PRODUCTS_SERVICES"}, "Ana's Gym GmbH", "Ana Novak"}
	if got := networkAFields(t, page); !reflect.DeepEqual(got, want) {
		t.Fatalf("created: %v, want %v", got, want)
	}
	id := int(page["id"].(float64))
	e.get(fmt.Sprintf("/v1/boosted-pages/detail/%d", id), ana).ok(&page)
	if got := networkAFields(t, page); !reflect.DeepEqual(got, want) {
		t.Fatalf("detail: %v, want %v", got, want)
	}
	d := history(t, e, ana, id)[0]["details"].(map[string]any)
	if !reflect.DeepEqual([3]any{d["special_ad_categories"], d["dsa_beneficiary"], d["dsa_payor"]}, want) {
		t.Fatalf("created details = %v", d)
	}
	// Without them: [] and null.
	e.post("/v1/boosted-pages/create", ana, map[string]any{"preset_id": 1, "page_id": 456, "budget": "5"}).ok(&page)
	if got := networkAFields(t, page); !reflect.DeepEqual(got, [3]any{[]any{}, nil, nil}) {
		t.Fatalf("created without them: %v", got)
	}
}

// cityTargeting is a Targeting object with a city of the given radius.
func cityTargeting(radius any, unit string) map[string]any {
	c := map[string]any{"key": "3067696", "name": "Prague", "country": "CZ"}
	if radius != nil {
		c["radius"], c["distance_unit"] = radius, unit
	}
	return map[string]any{"geo_locations": map[string]any{"cities": []any{c}}}
}

// What network_a refuses of a targeting: each is 400 naming the field, and
// a refused save writes nothing. Campaign 1 stores age 18–35.
func TestBoostedPageTargetingRulesRefused(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	before := e.get("/v1/boosted-pages/detail/1", ana).body
	housing := []any{"HOUSING"}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		words []string
	}{
		{"unknown category", map[string]any{"special_ad_categories": []any{"HOUSING", "CREDIT"}}, []string{"special_ad_categories[1]", "CREDIT", "EMPLOYMENT"}},
		{"repeated category", map[string]any{"special_ad_categories": []any{"HOUSING", "HOUSING"}}, []string{"special_ad_categories[1]", "repeats"}},
		{"category lower case", map[string]any{"special_ad_categories": []any{"housing"}}, []string{"special_ad_categories[0]"}},
		{"categories a string", map[string]any{"special_ad_categories": "HOUSING"}, []string{"special_ad_categories", "array"}},
		{"category a number", map[string]any{"special_ad_categories": []any{1}}, []string{"special_ad_categories[0]"}},
		{"beneficiary too long", map[string]any{"dsa_beneficiary": strings.Repeat("é", 513)}, []string{"dsa_beneficiary", "512"}},
		{"payor blank", map[string]any{"dsa_payor": "   "}, []string{"dsa_payor", "blank"}},
		{"payor a number", map[string]any{"dsa_payor": 5}, []string{"dsa_payor", "string"}},
		{"category on the stored age", map[string]any{"special_ad_categories": housing}, []string{"targeting.age_max", "35", "65", "HOUSING"}},
		{"category and age_min 19", map[string]any{"special_ad_categories": housing, "targeting": map[string]any{"age_min": 19}}, []string{"targeting.age_min", "19", "18"}},
		{"category and age_max 64", map[string]any{"special_ad_categories": housing, "targeting": map[string]any{"age_max": 64}}, []string{"targeting.age_max", "64"}},
		{"category and genders", map[string]any{"special_ad_categories": housing, "targeting": map[string]any{"genders": []any{1, 2}}}, []string{"targeting.genders", "HOUSING"}},
		{"category and 14 miles", map[string]any{"special_ad_categories": housing, "targeting": cityTargeting(14, "mile")}, []string{"targeting.geo_locations.cities[0].radius", "15 miles"}},
		{"category and 24 km", map[string]any{"special_ad_categories": housing, "targeting": cityTargeting("24", "kilometer")}, []string{"targeting.geo_locations.cities[0].radius", "25 kilometers"}},
		{"category and no radius", map[string]any{"special_ad_categories": housing, "targeting": cityTargeting(nil, "")}, []string{"targeting.geo_locations.cities[0].radius", "required"}},
		{"advantage audience and age_max 64", map[string]any{"targeting": map[string]any{"age_max": 64, "targeting_automation": map[string]any{"advantage_audience": "1"}}}, []string{"targeting.age_max", "advantage_audience"}},
		{"radius 9 miles", map[string]any{"targeting": cityTargeting(9, "mile")}, []string{"cities[0].radius", "10 to 50 miles"}},
		{"radius 51 miles", map[string]any{"targeting": cityTargeting(51, "mile")}, []string{"cities[0].radius", "10 to 50 miles"}},
		{"radius 16 km", map[string]any{"targeting": cityTargeting(16, "kilometer")}, []string{"cities[0].radius", "17 to 80 kilometers"}},
		{"radius 81 km", map[string]any{"targeting": cityTargeting(81, "kilometer")}, []string{"cities[0].radius", "17 to 80 kilometers"}},
		{"radius 0", map[string]any{"targeting": cityTargeting(0, "mile")}, []string{"cities[0].radius", "not 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.post("/v1/boosted-pages/save/1", ana, tc.body).fails(http.StatusBadRequest, "bad_request", tc.words...)
			create := map[string]any{"preset_id": 1, "page_id": 456, "budget": "5"}
			for k, v := range tc.body {
				create[k] = v
			}
			if tc.name == "category on the stored age" { // create has no stored targeting: send it
				create["targeting"] = map[string]any{"age_min": 18, "age_max": 35}
			}
			e.post("/v1/boosted-pages/create", ana, create).fails(http.StatusBadRequest, "bad_request", tc.words...)
		})
	}
	if after := e.get("/v1/boosted-pages/detail/1", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign_history WHERE action <> 'created' OR campaign_id > 9"); n != 0 {
		t.Fatalf("%d history entries written by refused requests", n)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign"); n != 9 {
		t.Fatalf("%d campaigns after refused creates, want the 9 imported", n)
	}
}

// The bounds network_a takes are accepted, and the check reads the campaign
// as the save leaves it: a save of categories alone reads the stored
// targeting, a save of a targeting alone the stored categories.
func TestBoostedPageTargetingRulesBounds(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(geoFixtures)
	ana := e.token(100)
	var ok bool
	for _, tg := range []map[string]any{
		cityTargeting(10, "mile"), cityTargeting(50, "mile"), cityTargeting(17, "kilometer"), cityTargeting("80", "kilometer"),
		cityTargeting(nil, ""),
		{"age_max": 65, "targeting_automation": map[string]any{"advantage_audience": 1}},
		{"age_min": 30, "age_max": 40, "targeting_automation": map[string]any{"advantage_audience": 0}},
	} {
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"targeting": tg}).ok(&ok)
	}
	// With a category: 15 miles, 25 km, ages 13 to 65 (not narrowed above
	// 18), genders [] (none).
	for _, tg := range []map[string]any{
		cityTargeting(15, "mile"), cityTargeting(25, "kilometer"),
		{"age_min": 13, "age_max": 65, "genders": []any{}},
		{"age_min": 18},
	} {
		e.post("/v1/boosted-pages/save/1", ana, map[string]any{"targeting": tg, "special_ad_categories": []any{"ONLINE_GAMBLING_AND_GAMING"}}).ok(&ok)
	}
	// The campaign now has a category and targets 18+: a targeting alone
	// is checked against the stored category.
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"targeting": map[string]any{"age_max": 50}}).
		fails(http.StatusBadRequest, "bad_request", "targeting.age_max", "ONLINE_GAMBLING_AND_GAMING")
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"special_ad_categories": []any{}}).ok(&ok)
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"targeting": map[string]any{"age_max": 50}}).ok(&ok)
	var page map[string]any
	e.get("/v1/boosted-pages/detail/1", ana).ok(&page)
	if !reflect.DeepEqual(page["audience_targeting"], map[string]any{"age_max": 50.0}) || !reflect.DeepEqual(page["special_ad_categories"], []any{}) {
		t.Fatalf("campaign 1 = %v", page)
	}
}

// review on boosted-posts/list: the columns the engine writes, answered as
// {status, reason}, null for a post without an ad.
func TestBoostedPostReview(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	e.sqlExec(`UPDATE boosted_post SET review_status = 'pending' WHERE id = 900;
		UPDATE boosted_post SET review_status = 'disapproved',
			review_reason = 'Your ad makes misleading claims; Your ad uses a before-and-after image' WHERE id = 901;
		UPDATE boosted_post SET review_status = 'with_issues', review_reason = 'Image has too much text' WHERE id = 903;
		UPDATE boosted_post SET review_status = 'approved' WHERE id = 904;`)
	var posts []map[string]any
	e.post("/v1/boosted-posts/list", ana, map[string]any{}).ok(&posts)
	got := map[float64]any{}
	for _, p := range posts {
		got[p["id"].(float64)] = p["review"]
	}
	want := map[float64]any{
		900: map[string]any{"status": "pending", "reason": nil},
		901: map[string]any{"status": "disapproved", "reason": "Your ad makes misleading claims; Your ad uses a before-and-after image"},
		902: nil,
		903: map[string]any{"status": "with_issues", "reason": "Image has too much text"},
		904: map[string]any{"status": "approved", "reason": nil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("reviews = %v\nwant %v", got, want)
	}
	var bobs []map[string]any
	e.post("/v1/boosted-posts/list", e.token(101), map[string]any{}).ok(&bobs)
	if len(bobs) != 1 || bobs[0]["review"] != nil {
		t.Fatalf("Bob's posts = %v", bobs)
	}
}

// A promoted_object that jsonb cannot hold, or whose numbers a browser
// cannot, is 400 naming the member, on save and create; nothing is written.
// What it can hold is kept as sent.
func TestBoostedPagePromotedObjectHostile(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	before := e.get("/v1/boosted-pages/detail/1", ana).body
	for _, tc := range []struct {
		object string
		words  []string
	}{
		{`{"a":"\ud800"}`, []string{"promoted_object.a", "surrogate"}},
		{`{"a":"x\udc00"}`, []string{"promoted_object.a", "surrogate"}},
		{`{"a":["ok","\ud800\u0041"]}`, []string{"promoted_object.a[1]", "surrogate"}},
		{`{"\ud800":"key"}`, []string{"promoted_object", "surrogate"}},
		{`{"a":{"b":"\u0000"}}`, []string{"b", "NUL"}},
		{`{"n":1e131072}`, []string{"promoted_object.n", "1e131072", "64-bit float"}},
		{`{"n":1e309}`, []string{"promoted_object.n", "1e309"}},
		{`{"n":-1.8e308}`, []string{"promoted_object.n"}},
		{`{"n":[1,1e-400]}`, []string{"promoted_object.n[1]", "1e-400"}},
		{`{"n":1e-16384}`, []string{"promoted_object.n"}},
	} {
		t.Run(tc.object, func(t *testing.T) {
			e.post("/v1/boosted-pages/save/1", ana, `{"promoted_object":`+tc.object+`}`).fails(http.StatusBadRequest, "bad_request", tc.words...)
			e.post("/v1/boosted-pages/create", ana, `{"preset_id":1,"page_id":456,"budget":"5","promoted_object":`+tc.object+`}`).
				fails(http.StatusBadRequest, "bad_request", tc.words...)
		})
	}
	if after := e.get("/v1/boosted-pages/detail/1", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign"); n != 9 {
		t.Fatalf("%d campaigns after refused creates, want 9", n)
	}
	// A surrogate pair, escaped backslashes, 0, a subnormal and the largest float are kept.
	var ok bool
	e.post("/v1/boosted-pages/save/1", ana,
		`{"promoted_object":{"s":"\ud83d\ude00 \\ud800","z":[0,0.0e-999,-0],"small":5e-324,"big":1.7976931348623157e308}}`).ok(&ok)
	var page struct {
		PromotedObject json.RawMessage `json:"promoted_object"`
	}
	e.get("/v1/boosted-pages/detail/1", ana).ok(&page)
	want := `{"s": "😀 \\ud800", "z": [0, 0, 0], "big": 1.7976931348623157e308, "small": 5e-324}`
	var g, w any
	_ = json.Unmarshal(page.PromotedObject, &g)
	_ = json.Unmarshal([]byte(want), &w)
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("promoted_object = %s", page.PromotedObject)
	}
}

// Other free-form members of save and create, sent the values jsonb cannot
// hold, never make the server fail: each is stored in a form it holds, or
// refused naming the member.
func TestBoostedPageHostileMembers(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	for _, body := range []string{
		`{"targeting":{"flexible_spec":[{"interests":[{"id":"1","name":"\ud800"}]}]}}`,
		`{"targeting":{"age_min":1e131072}}`,
		`{"rules":{"exclude_keywords":["\ud800"]}}`,
		`{"rules":{"min_engagement_rate":1e131072}}`,
		`{"rules":{"min_reactions":1e-400}}`,
		`{"hashtag":"#\udc00"}`,
		`{"dsa_beneficiary":"\ud800"}`,
		`{"budget":1e131072}`,
		`{"special_ad_categories":["\ud800"]}`,
	} {
		for _, path := range []string{"/v1/boosted-pages/save/1", "/v1/boosted-pages/create"} {
			b := body
			if path == "/v1/boosted-pages/create" {
				b = `{"preset_id":1,"page_id":456,"budget":"5",` + strings.TrimPrefix(body, "{")
			}
			r := e.post(path, ana, b)
			if r.status != http.StatusOK && r.status != http.StatusBadRequest {
				t.Fatalf("%s %s: status %d, body %s", path, b, r.status, r.body)
			}
		}
	}
}

// A save with active true after the end date passed is refused naming
// end_date, and writes nothing; a later end_date resumes the campaign.
func TestBoostedPageResumeAfterEndDate(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana := e.token(100)
	ended := daysFromToday(-1)
	e.sqlExec(`UPDATE campaign SET end_date = $1::date WHERE id IN (1, 2)`, ended)
	before := e.get("/v1/boosted-pages/detail/2", ana).body
	for _, body := range []map[string]any{
		{"active": true},
		{"active": "1", "budget": "99.00", "hashtag": "#back", "dsa_payor": "Ana Novak"},
	} {
		e.post("/v1/boosted-pages/save/2", ana, body).
			fails(http.StatusBadRequest, "bad_request", "end_date "+ended+" has passed", "set a later end_date")
	}
	// An active campaign that ended (paused by the engine) is no different.
	e.post("/v1/boosted-pages/save/1", ana, map[string]any{"active": true}).fails(http.StatusBadRequest, "bad_request", "end_date")
	if after := e.get("/v1/boosted-pages/detail/2", ana).body; string(after) != string(before) {
		t.Fatalf("a refused save changed the campaign:\nbefore %s\nafter  %s", before, after)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign_history WHERE action <> 'created'"); n != 0 {
		t.Fatalf("%d history entries written by refused saves", n)
	}
	// Other changes of an ended campaign, and a resume with a new end date, are saved.
	var ok bool
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"budget": "99.00", "active": false}).ok(&ok)
	later := daysFromToday(30)
	e.post("/v1/boosted-pages/save/2", ana, map[string]any{"active": true, "end_date": later}).ok(&ok)
	var page map[string]any
	e.get("/v1/boosted-pages/detail/2", ana).ok(&page)
	if page["active"] != true || page["end_date"] != later || page["campaign_budget_value"] != 99.0 ||
		page["engine"].(map[string]any)["state"] != "waiting" {
		t.Fatalf("campaign 2 = %v", page)
	}
}
