package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	httpapi "adboost/http"
)

// catalogueFixture is built to tell the rules of the catalogue apart:
//   - titles that differ only by case, and titles holding `%` and `_`
//     where a LIKE wildcard would match another title ("Yoga_" against
//     "Yoga Basics", "1%" against "100% Organic"); titles whose order is
//     the same in every collation;
//   - vertical lists holding `%` and `_` ("organic%", "real_estate" next to
//     "real-estate"), an unknown slug, and a list matched across its comma;
//   - the same key "X1" as a city of one preset and a region of another,
//     and a city key that is no country;
//   - two presets with the same title (ordered by id);
//   - ratings averaging 4.5 (→ 5), 3.49 (→ 3, a hundred reviews), 2.5 (→ 3),
//     1 and none (→ 0);
//   - the three reach cases: advanced_settings with a condition (its reach),
//     without advanced_settings (a condition that is ignored: []), with
//     advanced_settings and no condition (null);
//   - images relative with and without a leading slash, protocol-relative,
//     absolute, and none;
//   - private presets of two agencies, an inactive one, and an inactive
//     private one.
//
// Visible in browse: 1..9. Private: 10 (agency 10), 11 (agency 11). Inactive:
// 12 (public), 13 (private, agency 10).
func catalogueFixture() string {
	var users, reviews []string
	// Preset 2: 49 fours and 51 threes, an average of exactly 3.49.
	for i := range 100 {
		id := 200 + i
		users = append(users, fmt.Sprintf(`{"id": %d, "email": "rater%d@example.com"}`, id, id))
		rating := 3
		if i < 49 {
			rating = 4
		}
		reviews = append(reviews, fmt.Sprintf(`{"id": %d, "preset_id": 2, "user_id": %d, "rating": %d}`, 1000+i, id, rating))
	}
	return `{
  "verticals": [{"slug": "fitness", "label": "Fitness"}, {"slug": "health", "label": "Health"},
                {"slug": "real-estate", "label": "Real estate"}, {"slug": "pets", "label": "Pets"},
                {"slug": "food", "label": "Food & drink"}],
  "services": [{"id": 1, "name": "Paid social"}, {"id": 2, "name": "Branding"}],
  "industries": [{"id": 1, "name": "Retail"}],
  "agencies": [
    {"id": 10, "username": "northwind", "email": "ads@northwind.example", "description": "Performance-first social ads",
     "about": "Since 2016", "image": "https://cdn.example/nw.png", "website": "https://northwind.example",
     "locations": "Prague, Brno", "gps": "50.08,14.43", "coordinates": "50.08,14.44", "employees": "5-20",
     "services": [1, 2], "industries": [1]},
    {"id": 11, "username": "bluepeak", "services": [2]},
    {"id": 12, "username": "cityhive"}
  ],
  "users": [
    {"id": 100, "email": "ana@example.com", "first_name": "Ana", "last_name": "Novak", "agency_id": 10},
    {"id": 101, "email": "max@example.com", "first_name": "Max", "last_name": "Huber", "agency_id": 11},
    {"id": 102, "email": "bob@example.com", "first_name": "Bob", "last_name": "Stone"},
    ` + strings.Join(users, ",\n    ") + `
  ],
  "presets": [
    {"id": 1, "agency_id": 10, "title": "Beach Body", "image": "/img/beach.png", "campaign_objective": "OUTCOME_TRAFFIC",
     "vertical": "fitness,health", "price": "49.00", "original_price": "59.00", "version": 2, "platform": "network_a",
     "audience_targeting": "Adults 18-35", "description": "Summer body campaign",
     "location_json": {"countries": ["CZ"], "cities": [{"key": "3067696", "name": "Prague"}]},
     "allowed_options": ["location", "advanced_settings"],
     "boosting_condition": {"keywords": ["gym", "summer"], "reach": 20}, "number_of_purchases": 7},
    {"id": 2, "agency_id": 11, "title": "Apartment Hunt", "image": "https://cdn.example/apt.png",
     "campaign_objective": "OUTCOME_LEADS", "vertical": "real-estate", "price": "10", "original_price": "12.5",
     "location_json": {"countries": ["DE"], "regions": [{"key": "DE-BE", "name": "State of Berlin"}]},
     "allowed_options": ["location"], "boosting_condition": {"keywords": ["flat"], "reach": 30}},
    {"id": 3, "agency_id": 11, "title": "Pet Corner", "campaign_objective": "OUTCOME_SALES",
     "vertical": "real_estate,pets", "price": "0", "original_price": "0",
     "location_json": {"countries": ["AT"], "cities": [{"key": "2950159", "name": "Berlin"}]},
     "allowed_options": ["advanced_settings"]},
    {"id": 4, "agency_id": 10, "title": "100% Organic", "image": "img/organic.png", "campaign_objective": "OUTCOME_AWARENESS",
     "vertical": "food,organic%", "price": "5.55", "original_price": "6.00", "location_json": {"countries": ["GB"]}},
    {"id": 5, "agency_id": 12, "title": "Steps Challenge", "image": "//static.example/steps.png",
     "campaign_objective": "OUTCOME_TRAFFIC", "vertical": "fitness", "price": "1", "original_price": "1",
     "location_json": {"regions": [{"key": "CZ-10", "name": "Prague"}]}},
    {"id": 6, "agency_id": 10, "title": "Yoga Basics", "campaign_objective": "OUTCOME_ENGAGEMENT",
     "vertical": "fitness", "price": "1", "location_json": {"countries": ["CZ"]}},
    {"id": 7, "agency_id": 12, "title": "Yoga_Pro", "campaign_objective": "OUTCOME_ENGAGEMENT",
     "vertical": "fitness", "price": "1", "location_json": {"cities": [{"key": "X1", "name": "Somewhere"}]}},
    {"id": 8, "agency_id": 11, "title": "yoga zen", "campaign_objective": "OUTCOME_LEADS",
     "vertical": "health", "price": "1", "location_json": {"regions": [{"key": "X1", "name": "Elsewhere"}]}},
    {"id": 9, "agency_id": 12, "title": "Apartment Hunt", "campaign_objective": "OUTCOME_LEADS",
     "vertical": "real-estate", "price": "1", "location_json": {"countries": ["DE"]}},
    {"id": 10, "agency_id": 10, "title": "Members Only", "private": true, "campaign_objective": "OUTCOME_TRAFFIC",
     "vertical": "fitness", "price": "1", "location_json": {"countries": ["CZ"]}, "number_of_purchases": 3},
    {"id": 11, "agency_id": 11, "title": "Bluepeak Insiders", "private": true, "campaign_objective": "OUTCOME_LEADS",
     "vertical": "health", "price": "1", "location_json": {"countries": ["CZ"]}},
    {"id": 12, "agency_id": 10, "title": "Archived Sale", "active": false, "campaign_objective": "OUTCOME_SALES",
     "vertical": "fitness", "price": "1", "location_json": {"countries": ["CZ"]}},
    {"id": 13, "agency_id": 10, "title": "Archived Members", "active": false, "private": true,
     "campaign_objective": "OUTCOME_SALES", "vertical": "fitness", "price": "1", "location_json": {"countries": ["CZ"]}}
  ],
  "reviews": [
    {"id": 1, "preset_id": 1, "user_id": 100, "rating": 4, "message": "Good", "created_at": "2026-01-02 10:00:00"},
    {"id": 2, "preset_id": 1, "user_id": 101, "rating": 5},
    {"id": 3, "preset_id": 4, "user_id": 100, "rating": 2},
    {"id": 4, "preset_id": 4, "user_id": 101, "rating": 3},
    {"id": 5, "preset_id": 5, "user_id": 102, "rating": 1},
    {"id": 6, "preset_id": 12, "user_id": 102, "rating": 5},
    ` + strings.Join(reviews, ",\n    ") + `
  ]
}`
}

// visibleOrder is every preset of the fixture that browse lists, by title
// then id.
var visibleOrder = []int64{4, 2, 9, 1, 3, 5, 6, 7, 8}

func withFee(fee string) func(*httpapi.Config) {
	return func(c *httpapi.Config) { c.ServiceFixedFee = fee }
}

// in answers the env for a subtest, so that its failures stop the subtest.
func (e *env) in(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// presetList decodes a list of presets.
func (r *response) presetList() []map[string]any {
	r.t.Helper()
	var list []map[string]any
	r.ok(&list)
	return list
}

func presetIDs(list []map[string]any) []int64 {
	out := []int64{}
	for _, p := range list {
		out = append(out, int64(p["id"].(float64)))
	}
	return out
}

// presetCount answers presets/count for the body.
func (e *env) presetCount(body any) int64 {
	e.t.Helper()
	var n int64
	e.post("/v1/presets/count", "", body).ok(&n)
	return n
}

// decodeJSON decodes a JSON literal of a test's expectations.
func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("expectation %s: %v", s, err)
	}
	return v
}

func TestPresetBrowseFilters(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())

	for _, tc := range browseFilterCases() {
		t.Run(tc.name, func(t *testing.T) {
			e := e.in(t)
			got := presetIDs(e.post("/v1/presets/browse", "", tc.body).presetList())
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("browse %s = %v, want %v", tc.body, got, tc.want)
			}
			// count is the number of what browse lists, for the same body.
			if n := e.presetCount(tc.body); n != int64(len(tc.want)) {
				t.Fatalf("count %s = %d, want %d", tc.body, n, len(tc.want))
			}
		})
	}

	// No body at all is no filter.
	got := presetIDs(e.do(request{method: http.MethodPost, path: "/v1/presets/browse"}).presetList())
	if !reflect.DeepEqual(got, visibleOrder) {
		t.Fatalf("browse without a body = %v", got)
	}
	var n int64
	e.do(request{method: http.MethodPost, path: "/v1/presets/count"}).ok(&n)
	if n != int64(len(visibleOrder)) {
		t.Fatalf("count without a body = %d", n)
	}

	// The listing is ordered by title then id as the database orders titles
	// (its collation): the same order as SQL's ORDER BY.
	rows, err := e.pool.Query(t.Context(), "SELECT id FROM preset WHERE active AND NOT private ORDER BY title, id")
	if err != nil {
		t.Fatal(err)
	}
	var dbOrder []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		dbOrder = append(dbOrder, id)
	}
	if !reflect.DeepEqual(dbOrder, visibleOrder) {
		t.Fatalf("ORDER BY title, id = %v, want %v", dbOrder, visibleOrder)
	}
}

// browseFilterCase is a browse body and the visible presets it lists, in
// order.
type browseFilterCase struct {
	name string
	body string
	want []int64
}

// browseFilterCases are the filter bodies TestPresetBrowseFilters browses
// and counts.
func browseFilterCases() []browseFilterCase {
	return []browseFilterCase{
		{"no filter, no body fields", `{}`, visibleOrder},
		{"goal", `{"goal": "OUTCOME_LEADS"}`, []int64{2, 9, 8}},
		{"goal, another", `{"goal": "OUTCOME_ENGAGEMENT"}`, []int64{6, 7}},
		{"goal known but unused", `{"goal": "REACH"}`, []int64{}},
		{"goal no preset has, not even an objective code", `{"goal": "OUTCOME_NOPE"}`, []int64{}},
		{"goal of a legacy code", `{"goal": "POST_ENGAGEMENT"}`, []int64{}},
		{"vertical", `{"vertical": "fitness"}`, []int64{1, 5, 6, 7}},
		{"vertical hyphen", `{"vertical": "real-estate"}`, []int64{2, 9}},
		{"vertical underscore is literal", `{"vertical": "real_estate"}`, []int64{3}},
		{"vertical percent is literal", `{"vertical": "%"}`, []int64{4}},
		{"vertical percent matches no fitness", `{"vertical": "fit%ss"}`, []int64{}},
		{"vertical backslash is literal", `{"vertical": "estate\\"}`, []int64{}},
		{"vertical across the comma", `{"vertical": "ness,hea"}`, []int64{1}},
		{"vertical is case-sensitive", `{"vertical": "FITNESS"}`, []int64{}},
		{"agency_id", `{"agency_id": 10}`, []int64{4, 1, 6}},
		{"agency_id as a string", `{"agency_id": "11"}`, []int64{2, 3, 8}},
		{"partner_id is its alias", `{"partner_id": "10"}`, []int64{4, 1, 6}},
		{"agency_id and partner_id both apply", `{"agency_id": 10, "partner_id": 11}`, []int64{}},
		{"preset_name prefix", `{"preset_name": "Yoga"}`, []int64{6, 7}},
		{"preset_name is case-sensitive", `{"preset_name": "yoga"}`, []int64{8}},
		{"preset_name underscore is literal", `{"preset_name": "Yoga_"}`, []int64{7}},
		{"preset_name percent is literal", `{"preset_name": "100%"}`, []int64{4}},
		{"preset_name percent matches no other", `{"preset_name": "1%"}`, []int64{}},
		{"preset_name is a prefix, not a substring", `{"preset_name": "Hunt"}`, []int64{}},
		{"excluded_preset_id", `{"excluded_preset_id": "2", "goal": "OUTCOME_LEADS"}`, []int64{9, 8}},
		{"location country", `{"location": {"value": "CZ", "label": "Czechia"}}`, []int64{1, 6}},
		{"location city key", `{"location": {"value": "3067696", "label": "Prague"}}`, []int64{1}},
		{"location region key", `{"location": {"value": "DE-BE"}}`, []int64{2}},
		{"location key of a city and a region", `{"location": {"value": "X1"}}`, []int64{7, 8}},
		{"location type city", `{"location": {"value": "X1", "type": "city"}}`, []int64{7}},
		{"location type region", `{"location": {"value": "X1", "type": "region"}}`, []int64{8}},
		{"location type country", `{"location": {"value": "X1", "type": "country"}}`, []int64{}},
		{"location type country of a country", `{"location": {"value": "DE", "type": "country"}}`, []int64{2, 9}},
		{"location type city of a country", `{"location": {"value": "DE", "type": "city"}}`, []int64{}},
		{"location empty is no filter", `{"location": {"value": "", "label": ""}}`, visibleOrder},
		{"location empty string is no filter", `{"location": ""}`, visibleOrder},
		{"empty strings are absent", `{"goal": "", "vertical": "", "agency_id": "", "preset_name": "", "excluded_preset_id": ""}`, visibleOrder},
		{"combined", `{"goal": "OUTCOME_ENGAGEMENT", "vertical": "fitness", "agency_id": 12}`, []int64{7}},
		{"every filter", `{"goal": "OUTCOME_LEADS", "vertical": "real-estate", "agency_id": "12", "partner_id": 12,
			"preset_name": "Apart", "excluded_preset_id": 2, "location": {"value": "DE", "label": "Germany", "type": "country"}}`, []int64{9}},
		{"every filter, excluding the match", `{"goal": "OUTCOME_LEADS", "vertical": "real-estate", "agency_id": 12,
			"preset_name": "Apart", "excluded_preset_id": 9, "location": {"value": "DE"}}`, []int64{}},
	}
}

func TestPresetBrowsePaging(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())

	// Pages of two concatenate to the whole listing; past the end is [].
	var all []int64
	for page := 1; page <= 5; page++ {
		got := presetIDs(e.post("/v1/presets/browse", "", map[string]any{"page": page, "limit": 2}).presetList())
		want := 2
		if page == 5 {
			want = 1
		}
		if len(got) != want {
			t.Fatalf("page %d of 2 has %d presets", page, len(got))
		}
		all = append(all, got...)
	}
	if !reflect.DeepEqual(all, visibleOrder) {
		t.Fatalf("pages = %v, want %v", all, visibleOrder)
	}
	if got := presetIDs(e.post("/v1/presets/browse", "", `{"page": "6", "limit": "2"}`).presetList()); len(got) != 0 {
		t.Fatalf("page 6 = %v, want []", got)
	}
	// Paging applies after the filters.
	got := presetIDs(e.post("/v1/presets/browse", "", `{"vertical": "fitness", "page": 2, "limit": 3}`).presetList())
	if !reflect.DeepEqual(got, []int64{7}) {
		t.Fatalf("fitness page 2 of 3 = %v, want [7]", got)
	}

	for _, tc := range []struct{ body, word string }{
		{`{"limit": 0}`, "limit"},
		{`{"limit": -1}`, "limit"},
		{`{"limit": "0"}`, "limit"},
		{`{"limit": "ten"}`, "limit"},
		{`{"limit": 2.5}`, "limit"},
		{`{"page": 0}`, "page"},
		{`{"page": "0"}`, "page"},
		{`{"page": -2}`, "page"},
		{`{"page": 3000000000}`, "page"},
		{`{"page": true}`, "page"},
	} {
		e.post("/v1/presets/browse", "", tc.body).fails(http.StatusBadRequest, "bad_request", tc.word)
	}
}

func TestPresetBrowseLimitCap(t *testing.T) {
	e := newEnv(t)
	var presets []string
	for i := 1; i <= 60; i++ {
		presets = append(presets, fmt.Sprintf(
			`{"id": %d, "agency_id": 1, "title": "Preset %02d", "campaign_objective": "REACH", "price": "1"}`, i, i))
	}
	e.load(`{"agencies": [{"id": 1, "username": "a"}], "presets": [` + strings.Join(presets, ",") + `]}`)

	for _, tc := range []struct {
		body      string
		first, n  int64
		wantCount int
	}{
		{`{}`, 1, 50, 50},
		{`{"limit": 50}`, 1, 50, 50},
		{`{"limit": 51}`, 1, 50, 50},
		{`{"limit": "1000"}`, 1, 50, 50},
		{`{"limit": 1}`, 1, 1, 1},
		{`{"page": 2}`, 51, 10, 10},
		{`{"page": 2, "limit": 51}`, 51, 10, 10},
		{`{"page": 3, "limit": 25}`, 51, 10, 10},
	} {
		got := presetIDs(e.post("/v1/presets/browse", "", tc.body).presetList())
		if len(got) != tc.wantCount || got[0] != tc.first || got[len(got)-1] != tc.first+tc.n-1 {
			t.Fatalf("browse %s = %d presets %v", tc.body, len(got), got)
		}
	}
	if n := e.presetCount(`{"limit": 1}`); n != 60 {
		t.Fatalf("count = %d, want 60 (count is not paged)", n)
	}
}

// TestPresetPriceFee checks the prices of presets/browse and
// presets/available for each shape of fee SERVICE_FIXED_FEE accepts (none,
// one or two decimals, the largest): the stored amount plus the fee, with
// two decimals. Preset 1 costs 49.00, was 59.00.
func TestPresetPriceFee(t *testing.T) {
	for fee, want := range map[string][2]string{
		"0": {"49.00", "59.00"}, "0.5": {"49.50", "59.50"}, "3": {"52.00", "62.00"},
		"0.07": {"49.07", "59.07"}, "99999999.99": {"100000048.99", "100000058.99"},
	} {
		t.Run(fee, func(t *testing.T) {
			e := newEnv(t, withFee(fee))
			e.load(catalogueFixture())
			browsed := browsedPresetsByID(t, e)[1]
			var available map[string]any
			for _, p := range e.get("/v1/presets/available", e.token(102)).presetList() {
				if p["id"] == 1.0 {
					available = p
				}
			}
			for _, p := range []map[string]any{browsed, available} {
				if p["price"] != want[0] || p["original_price"] != want[1] {
					t.Fatalf("fee %s: price %v, original_price %v; want %q and %q", fee, p["price"], p["original_price"], want[0], want[1])
				}
			}
		})
	}
}

func TestPresetFields(t *testing.T) {
	e := newEnv(t, withFee("2.50"))
	e.load(catalogueFixture())

	byID := browsedPresetsByID(t, e)

	northwind := `{"id": 10, "username": "northwind", "description": "Performance-first social ads", "about": "Since 2016",
		"image": "https://cdn.example/nw.png", "website": "https://northwind.example", "locations": "Prague, Brno",
		"services": [["Branding", "Paid social"]], "industries": [["Retail"]], "gps": "50.08,14.43",
		"employess": "5-20", "coordinates": "50.08,14.44"}`
	bluepeak := `{"id": 11, "username": "bluepeak", "description": "", "about": "", "image": "", "website": "",
		"locations": "", "services": [["Branding"]], "industries": [], "gps": "", "employess": "", "coordinates": ""}`
	cityhive := `{"id": 12, "username": "cityhive", "description": "", "about": "", "image": "", "website": "",
		"locations": "", "services": [], "industries": [], "gps": "", "employess": "", "coordinates": ""}`

	for id, want := range map[int64]string{
		// advanced_settings with a condition: its keywords and reach. 4 and 5
		// average 4.5, rounded up to 5. A relative image on the base URL.
		1: `{"id": 1, "title": "Beach Body", "image": "https://api.adboost.test/img/beach.png",
			"campaign_objective": "Traffic", "vertical": ["Fitness", "Health"], "price": "51.50",
			"original_price": "61.50", "version": 2, "private": false, "platform": "network_a",
			"audience_targeting": "Adults 18-35",
			"location_json": {"countries": ["CZ"], "cities": [{"key": "3067696", "name": "Prague"}]},
			"description": "Summer body campaign", "hashtags": ["gym", "summer"], "reach": 20,
			"allowed_options": ["location", "advanced_settings"], "rating": 5, "agency": ` + northwind + `}`,
		// No advanced_settings: the condition is not shown (hashtags [], reach
		// []). A hundred reviews averaging 3.49: 3. An absolute image as is.
		2: `{"id": 2, "title": "Apartment Hunt", "image": "https://cdn.example/apt.png",
			"campaign_objective": "Leads", "vertical": ["Real estate"], "price": "12.50",
			"original_price": "15.00", "version": 1, "private": false, "platform": "all",
			"audience_targeting": "",
			"location_json": {"countries": ["DE"], "regions": [{"key": "DE-BE", "name": "State of Berlin"}]},
			"description": "", "hashtags": [], "reach": [], "allowed_options": ["location"], "rating": 3,
			"agency": ` + bluepeak + `}`,
		// advanced_settings without a condition: reach null. An unknown slug
		// has a null label. No image: null. No reviews: 0.
		3: `{"id": 3, "title": "Pet Corner", "image": null, "campaign_objective": "Sales",
			"vertical": [null, "Pets"], "price": "2.50", "original_price": "2.50", "version": 1,
			"private": false, "platform": "all", "audience_targeting": "",
			"location_json": {"countries": ["AT"], "cities": [{"key": "2950159", "name": "Berlin"}]},
			"description": "", "hashtags": [], "reach": null, "allowed_options": ["advanced_settings"],
			"rating": 0, "agency": ` + bluepeak + `}`,
		// 2 and 3 average 2.5: 3. A relative path without its slash.
		4: `{"id": 4, "title": "100% Organic", "image": "https://api.adboost.test/img/organic.png",
			"campaign_objective": "Awareness", "vertical": ["Food & drink", null], "price": "8.05",
			"original_price": "8.50", "version": 1, "private": false, "platform": "all",
			"audience_targeting": "", "location_json": {"countries": ["GB"]}, "description": "",
			"hashtags": [], "reach": [], "allowed_options": [], "rating": 3, "agency": ` + northwind + `}`,
		// A protocol-relative image takes the scheme of the base URL; an
		// agency without services or industries has [] for both.
		5: `{"id": 5, "title": "Steps Challenge", "image": "https://static.example/steps.png",
			"campaign_objective": "Traffic", "vertical": ["Fitness"], "price": "3.50",
			"original_price": "3.50", "version": 1, "private": false, "platform": "all",
			"audience_targeting": "", "location_json": {"regions": [{"key": "CZ-10", "name": "Prague"}]},
			"description": "", "hashtags": [], "reach": [], "allowed_options": [], "rating": 1,
			"agency": ` + cityhive + `}`,
	} {
		if got := byID[id]; !reflect.DeepEqual(any(got), decodeJSON(t, want)) {
			gotJSON, _ := json.Marshal(got)
			t.Errorf("preset %d =\n%s\nwant\n%s", id, gotJSON, want)
		}
	}
	checkBrowseFieldSet(t, byID)
}

// browsedPresetsByID browses every visible preset and answers them by id,
// location_json (a string of JSON) decoded.
func browsedPresetsByID(t *testing.T, e *env) map[int64]map[string]any {
	t.Helper()
	byID := map[int64]map[string]any{}
	for _, p := range e.post("/v1/presets/browse", "", `{}`).presetList() {
		loc, ok := p["location_json"].(string)
		if !ok {
			t.Fatalf("preset %v: location_json %T, want a string of JSON", p["id"], p["location_json"])
		}
		var parsed any
		if err := json.Unmarshal([]byte(loc), &parsed); err != nil {
			t.Fatalf("preset %v: location_json %q is not JSON: %v", p["id"], loc, err)
		}
		p["location_json"] = parsed
		byID[int64(p["id"].(float64))] = p
	}
	return byID
}

// checkBrowseFieldSet checks every browsed preset has the same 18 fields,
// without number_of_purchases.
func checkBrowseFieldSet(t *testing.T, byID map[int64]map[string]any) {
	t.Helper()
	// The browse object has no number_of_purchases (spec), the same fields
	// for every preset.
	for id, p := range byID {
		if len(p) != 18 {
			t.Errorf("preset %d has %d fields: %v", id, len(p), p)
		}
		if _, ok := p["number_of_purchases"]; ok {
			t.Errorf("preset %d: browse answers number_of_purchases", id)
		}
	}
}

func TestPresetAvailable(t *testing.T) {
	e := newEnv(t, withFee("1.00"))
	e.load(catalogueFixture())

	e.get("/v1/presets/available", "").fails(http.StatusUnauthorized, "unauthorized")

	for _, tc := range []struct {
		user int64
		want []int64
	}{
		// Ana's agency (10) has the private "Members Only" (10); not the
		// inactive private 13, not Bluepeak's private 11.
		{100, []int64{4, 2, 9, 1, 10, 3, 5, 6, 7, 8}},
		// Max's agency (11) has "Bluepeak Insiders" (11).
		{101, []int64{4, 2, 9, 1, 11, 3, 5, 6, 7, 8}},
		// Bob has no agency: the public presets only.
		{102, visibleOrder},
	} {
		list := e.get("/v1/presets/available", e.token(tc.user)).presetList()
		if got := presetIDs(list); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("user %d: available = %v, want %v", tc.user, got, tc.want)
		}
		for _, p := range list {
			switch p["id"] {
			case 1.0:
				if p["number_of_purchases"] != 7.0 || p["price"] != "50.00" || p["rating"] != 5.0 || p["reach"] != 20.0 {
					t.Fatalf("user %d: preset 1 = %v", tc.user, p)
				}
			case 10.0:
				if p["private"] != true || p["number_of_purchases"] != 3.0 || p["campaign_objective"] != "Traffic" {
					t.Fatalf("preset 10 = %v", p)
				}
			}
			if len(p) != 19 {
				t.Fatalf("user %d: preset %v has %d fields", tc.user, p["id"], len(p))
			}
		}
	}

	// Paged with the optional page and limit: Ana's own private preset (10)
	// takes its place in title order among the public ones.
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"?limit=3", []int64{4, 2, 9}},
		{"?page=2&limit=3", []int64{1, 10, 3}},
		{"?page=4&limit=3", []int64{8}},
		{"?page=5&limit=3", []int64{}},
		{"?limit=5000", []int64{4, 2, 9, 1, 10, 3, 5, 6, 7, 8}},
		{"?page=&limit=", []int64{4, 2, 9, 1, 10, 3, 5, 6, 7, 8}},
	} {
		if got := presetIDs(e.get("/v1/presets/available"+tc.query, e.token(100)).presetList()); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("available%s = %v, want %v", tc.query, got, tc.want)
		}
	}
	for _, query := range []string{"?page=0", "?limit=0", "?page=x", "?limit=-1", "?page=99999999999"} {
		e.do(request{method: http.MethodGet, path: "/v1/presets/available" + query, token: e.token(100)}).
			fails(http.StatusBadRequest, "bad_request")
	}
	checkAvailableCards(e)
}

// checkAvailableCards checks that every card of presets/available is its
// Preset object of presets/browse with the number of purchases added, the
// agency included (the agencies' objects are read once for the page and
// joined to its cards by id): Ana's private preset 10 carries the object of
// her agency, the one of the public preset 1. An agency without its object
// is an error, not a card without its agency.
func checkAvailableCards(e *env) {
	e.t.Helper()
	browsed := map[float64]map[string]any{}
	for _, p := range e.post("/v1/presets/browse", "", `{}`).presetList() {
		browsed[p["id"].(float64)] = p
	}
	available := map[float64]map[string]any{}
	for _, p := range e.get("/v1/presets/available", e.token(100)).presetList() {
		available[p["id"].(float64)] = p
		want, public := browsed[p["id"].(float64)]
		if !public {
			continue
		}
		got := maps.Clone(p)
		delete(got, "number_of_purchases")
		if !reflect.DeepEqual(got, want) {
			e.t.Fatalf("available preset %v = %v\nbrowse answers %v", p["id"], got, want)
		}
	}
	if len(available) != 10 || len(browsed) != 9 {
		e.t.Fatalf("%d available and %d browsed presets, want 10 and 9", len(available), len(browsed))
	}
	agency := available[10]["agency"].(map[string]any)
	if agency["username"] != "northwind" || !reflect.DeepEqual(agency, available[1]["agency"]) {
		e.t.Fatalf("preset 10's agency = %v, want preset 1's: %v", agency, available[1]["agency"])
	}
	if available[2]["agency"].(map[string]any)["username"] != "bluepeak" {
		e.t.Fatalf("preset 2's agency = %v, want bluepeak", available[2]["agency"])
	}
	e.exec("DELETE FROM agency_object WHERE agency_id = 11")
	e.get("/v1/presets/available", e.token(100)).fails(http.StatusInternalServerError, "internal")
}

func TestPresetRequestErrors(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	for _, path := range []string{"/v1/presets/browse", "/v1/presets/count"} {
		for _, tc := range []struct{ body, word string }{
			{`{"goal": 5}`, "goal"},
			{`{"vertical": ["fitness"]}`, "vertical"},
			{`{"vertical": "fit\u0000"}`, "vertical"},
			{`{"agency_id": "ten"}`, "agency_id"},
			{`{"agency_id": 0}`, "agency_id"},
			{`{"partner_id": -3}`, "partner_id"},
			{`{"excluded_preset_id": "x"}`, "excluded_preset_id"},
			{`{"preset_name": 12}`, "preset_name"},
			{`{"preset_name": "S\u0000", "location": {"value": "US", "type": "country"}}`, "preset_name"},
			{`{"location": "CZ"}`, "location"},
			{`{"location": 5}`, "location"},
			{`{"location": {"value": 5}}`, "location.value"},
			{`{"location": {"value": "CZ", "type": "planet"}}`, "location.type"},
			{`[]`, "object"},
			{`{"goal": `, "malformed"},
		} {
			e.post(path, "", tc.body).fails(http.StatusBadRequest, "bad_request", tc.word)
		}
	}
}

func TestPresetOptimizationGoals(t *testing.T) {
	e := newEnv(t)
	var goals []map[string]any
	e.get("/v1/presets/optimization-goals", "").ok(&goals)
	if len(goals) != 15 {
		t.Fatalf("%d goals, want the 15 objectives: %v", len(goals), goals)
	}
	want := decodeJSON(t, `[{"value": "OUTCOME_AWARENESS", "label": "Awareness"},
		{"value": "OUTCOME_TRAFFIC", "label": "Traffic"}, {"value": "OUTCOME_ENGAGEMENT", "label": "Engagement"},
		{"value": "OUTCOME_LEADS", "label": "Leads"}, {"value": "OUTCOME_APP_PROMOTION", "label": "App promotion"},
		{"value": "OUTCOME_SALES", "label": "Sales"}, {"value": "BRAND_AWARENESS", "label": "Brand awareness"}]`)
	got, _ := json.Marshal(goals[:7])
	if !reflect.DeepEqual(decodeJSON(t, string(got)), want) {
		t.Fatalf("goals = %s", got)
	}
	if last := goals[14]; last["value"] != "CONVERSIONS" || last["label"] != "Conversions" {
		t.Fatalf("last goal = %v", last)
	}
}

// TestListsArePlannedPerRequest checks that the list queries with optional
// filters (browse, count, agencies/list) are never kept as prepared
// statements, whose generic plan would check every filter at run time
// instead of using its index (see perRequestPlans): over a pool of one
// connection, after more runs than PostgreSQL needs to switch a prepared
// statement to its generic plan, the session holds a prepared statement for
// presets/available (the control) and none for them.
func TestListsArePlannedPerRequest(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	cfg, err := pgxpool.ParseConfig(e.pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 1
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	single := *e
	single.api = httpapi.New(httpapi.Config{PublicBaseURL: "https://x.test"}, pool, e.tokens,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	single.srv = httptest.NewServer(single.api.Handler())
	t.Cleanup(single.srv.Close)

	token := single.token(100)
	for range 7 {
		single.post("/v1/presets/browse", "", `{"location": {"value": "CZ"}}`).presetList()
		// The three walks (browse's statements with optional filters).
		single.post("/v1/presets/browse", "", `{"location": {"value": "CZ"}, "goal": "OUTCOME_LEADS", "vertical": "fitness"}`).presetList()
		single.post("/v1/presets/browse", "", `{"preset_name": "S", "goal": "OUTCOME_LEADS"}`).presetList()
		single.post("/v1/presets/browse", "", `{"agency_id": 10, "partner_id": 11}`).presetList()
		single.presetCount(`{"vertical": "fitness"}`)
		single.post("/v1/agencies/list", token, `{"search": "north"}`).agencyIDs()
		single.post("/v1/agencies/list", token, `{"service": 1, "search": "north"}`).agencyIDs()
		single.post("/v1/agencies/list", token, `{"industry": 1}`).agencyIDs()
		single.get("/v1/presets/available", token).presetList()
	}
	prepared := func(fragment string) (n int) {
		err := pool.QueryRow(t.Context(), "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'",
			pgx.QueryExecModeSimpleProtocol, fragment).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := prepared("-- name: PresetAvailable"); n != 1 {
		t.Fatalf("%d prepared statements of PresetAvailable, want 1 (the control)", n)
	}
	for _, name := range []string{"PresetBrowseWalk", "PresetBrowsePrefixWalk", "PresetBrowseLocationWalk", "PresetCount", "AgencyListSearch", "AgencyListByService", "AgencyListByIndustry"} {
		if n := prepared("-- name: " + name + " "); n != 0 {
			t.Errorf("%s is a prepared statement (%d)", name, n)
		}
	}
}

// TestCatalogueRouteAuth checks the Auth column of the spec for every route
// of the catalogue: Bearer routes answer 401 without a valid token, the
// others answer without one.
func TestCatalogueRouteAuth(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	want := map[string]bool{ // pattern → Bearer
		"POST /v1/presets/browse":            false,
		"POST /v1/presets/count":             false,
		"GET /v1/presets/available":          true,
		"GET /v1/presets/optimization-goals": false,
		"POST /v1/reviews/submit":            true,
		"POST /v1/agencies/list":             true,
		"GET /v1/agencies/detail/{id}":       false,
		"GET /v1/agencies/services":          true,
	}
	seen := 0
	for _, rt := range e.api.Routes() {
		bearer, ok := want[rt.Pattern]
		if !ok {
			continue
		}
		seen++
		if rt.Bearer != bearer {
			t.Errorf("%s: Bearer %v, want %v", rt.Pattern, rt.Bearer, bearer)
		}
		method, path, _ := strings.Cut(rt.Pattern, " ")
		path = strings.Replace(path, "{id}", "10", 1)
		body := any(nil)
		if method == http.MethodPost {
			body = `{"preset_id": 1, "rating": 5}`
		}
		if bearer {
			for _, token := range []string{"", "not-a-token", e.token(100) + "x"} {
				e.do(request{method: method, path: path, token: token, body: body}).fails(http.StatusUnauthorized, "unauthorized")
			}
			var v any
			e.do(request{method: method, path: path, token: e.token(100), body: body}).ok(&v)
		} else {
			var v any
			e.do(request{method: method, path: path, body: body}).ok(&v)
		}
	}
	if seen != len(want) {
		t.Fatalf("%d of the %d catalogue routes are registered", seen, len(want))
	}
}
