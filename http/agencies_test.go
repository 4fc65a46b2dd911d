package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"adboost/db"
)

// agenciesFixture tells the directory's rules apart: a search term found
// in each of username, description and locations, in another case; `%` and
// `_` that a LIKE wildcard would match elsewhere ("100%" only in bluepeak's
// description, "a_m" only in alpha_media while a wildcard also matches
// alphaxmedia); two agencies with one username (ordered by id); services and
// industries combined.
const agenciesFixture = `{
  "services": [{"id": 1, "name": "Paid social"}, {"id": 2, "name": "Branding"}, {"id": 3, "name": "Analytics"}],
  "industries": [{"id": 1, "name": "Retail"}, {"id": 2, "name": "Travel"}],
  "agencies": [
    {"id": 10, "username": "northwind", "email": "ads@northwind.example", "description": "Performance-first social ads",
     "about": "Since 2016", "image": "https://cdn.example/nw.png", "website": "https://northwind.example",
     "locations": "Prague, Brno", "gps": "50.08,14.43", "coordinates": "50.08,14.44", "employees": "5-20",
     "services": [2, 1], "industries": [1]},
    {"id": 11, "username": "bluepeak", "description": "Hotels & travel, 100% remote", "locations": "Vienna",
     "services": [2, 3], "industries": [2, 1]},
    {"id": 12, "username": "cityhive", "description": "Lead generation", "locations": "Berlin"},
    {"id": 14, "username": "cityhive", "description": "Another hive", "locations": "Hamburg", "services": [3]},
    {"id": 15, "username": "alpha_media", "locations": "Brno"},
    {"id": 16, "username": "alphaxmedia"}
  ],
  "users": [{"id": 100, "email": "ana@example.com", "agency_id": 10}]
}`

// agencyIDs decodes a list of agencies and answers their ids.
func (r *response) agencyIDs() []int64 {
	r.t.Helper()
	var list []map[string]any
	r.ok(&list)
	out := []int64{}
	for _, a := range list {
		out = append(out, int64(a["id"].(float64)))
	}
	return out
}

func TestAgencyList(t *testing.T) {
	e := newEnv(t)
	e.load(agenciesFixture)
	ana := e.token(100)

	all := []int64{15, 16, 11, 12, 14, 10}
	for _, tc := range []struct {
		name string
		body string
		want []int64
	}{
		{"everything by username then id", `{}`, all},
		{"empty filters are absent", `{"search": "", "service": "", "industry": ""}`, all},
		{"search username", `{"search": "HIVE"}`, []int64{12, 14}},
		{"search description", `{"search": "hotels & TRAVEL"}`, []int64{11}},
		{"search locations", `{"search": "prague"}`, []int64{10}},
		{"search in any of the three", `{"search": "brno"}`, []int64{15, 10}},
		{"search is trimmed", `{"search": "  vienna "}`, []int64{11}},
		{"search percent is literal", `{"search": "%"}`, []int64{11}},
		{"search 100% is literal", `{"search": "0% r"}`, []int64{11}},
		{"search underscore is literal", `{"search": "a_m"}`, []int64{15}},
		{"search nothing", `{"search": "zzz"}`, []int64{}},
		{"service", `{"service": 2}`, []int64{11, 10}},
		{"service as a string", `{"service": "3"}`, []int64{11, 14}},
		{"unknown service", `{"service": 99}`, []int64{}},
		{"industry", `{"industry": "1"}`, []int64{11, 10}},
		{"service and industry", `{"service": 3, "industry": 2}`, []int64{11}},
		{"service and search", `{"service": 2, "search": "prague"}`, []int64{10}},
		{"service, page 2", `{"service": 2, "limit": 1, "page": 2}`, []int64{10}},
		{"industry and search", `{"industry": 1, "search": "PRAGUE"}`, []int64{10}},
		{"industry, past the end", `{"industry": 1, "limit": 2, "page": 2}`, []int64{}},
		{"a search across two fields matches nothing", `{"search": "northwind\u001fperformance"}`, []int64{}},
		{"a search across two fields with a service", `{"service": 2, "search": "northwind\u001fperformance"}`, []int64{}},
		{"all three", `{"service": "1", "industry": "1", "search": "NORTH"}`, []int64{10}},
		{"all three, no match", `{"service": "3", "industry": "1", "search": "north"}`, []int64{}},
		{"page", `{"limit": 2, "page": 2}`, []int64{11, 12}},
		{"last page", `{"limit": "4", "page": "2"}`, []int64{14, 10}},
		{"past the end", `{"limit": 4, "page": 3}`, []int64{}},
		{"limit above 50 acts as 50", `{"limit": 51}`, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := e.in(t).post("/v1/agencies/list", ana, tc.body).agencyIDs(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("list %s = %v, want %v", tc.body, got, tc.want)
			}
		})
	}

	// The Agency object, with the id added to the spec's fields.
	var list []map[string]any
	e.post("/v1/agencies/list", ana, `{"search": "northwind"}`).ok(&list)
	northwind := decodeJSON(t, `[{"id": 10, "username": "northwind", "description": "Performance-first social ads",
		"about": "Since 2016", "image": "https://cdn.example/nw.png", "website": "https://northwind.example",
		"locations": "Prague, Brno", "services": [["Branding", "Paid social"]], "industries": [["Retail"]],
		"gps": "50.08,14.43", "employess": "5-20", "coordinates": "50.08,14.44"}]`)
	if got, _ := json.Marshal(list); !reflect.DeepEqual(decodeJSON(t, string(got)), northwind) {
		t.Fatalf("northwind = %s", got)
	}

	e.post("/v1/agencies/list", "", `{}`).fails(http.StatusUnauthorized, "unauthorized")
	for _, tc := range []struct{ body, word string }{
		{`{"service": "x"}`, "service"},
		{`{"service": 0}`, "service"},
		{`{"industry": -1}`, "industry"},
		{`{"industry": [1]}`, "industry"},
		{`{"search": 5}`, "search"},
		{`{"search": "a\u0000"}`, "search"},
		{`{"limit": 0}`, "limit"},
		{`{"page": 0}`, "page"},
		{`{"page": "-1"}`, "page"},
	} {
		e.post("/v1/agencies/list", ana, tc.body).fails(http.StatusBadRequest, "bad_request", tc.word)
	}
}

func TestAgencyListLimitCap(t *testing.T) {
	e := newEnv(t)
	var agencies []string
	for i := 1; i <= 55; i++ {
		agencies = append(agencies, fmt.Sprintf(`{"id": %d, "username": "agency %02d"}`, i, i))
	}
	e.load(`{"agencies": [` + strings.Join(agencies, ",") + `], "users": [{"id": 100, "email": "a@example.com"}]}`)
	for body, want := range map[string][2]int64{
		`{}`:                       {1, 50},
		`{"limit": 51}`:            {1, 50},
		`{"page": 2}`:              {51, 55},
		`{"page": 2, "limit": 99}`: {51, 55},
	} {
		got := e.post("/v1/agencies/list", e.token(100), body).agencyIDs()
		if int64(len(got)) != want[1]-want[0]+1 || got[0] != want[0] || got[len(got)-1] != want[1] {
			t.Fatalf("list %s = %v", body, got)
		}
	}
}

func TestAgencyDetailAndServices(t *testing.T) {
	e := newEnv(t)
	e.load(agenciesFixture)

	// Public: no token. An agency without services or industries has [].
	got := e.get("/v1/agencies/detail/12", "").object()
	want := decodeJSON(t, `{"id": 12, "username": "cityhive", "description": "Lead generation", "about": "",
		"image": "", "website": "", "locations": "Berlin", "services": [], "industries": [], "gps": "",
		"employess": "", "coordinates": ""}`)
	if !reflect.DeepEqual(any(got), want) {
		t.Fatalf("detail 12 = %v", got)
	}
	// Names in name order whatever the order of the import.
	got = e.get("/v1/agencies/detail/11", "").object()
	if !reflect.DeepEqual(got["services"], decodeJSON(t, `[["Analytics", "Branding"]]`)) ||
		!reflect.DeepEqual(got["industries"], decodeJSON(t, `[["Retail", "Travel"]]`)) {
		t.Fatalf("detail 11 = %v", got)
	}

	e.get("/v1/agencies/detail/999", "").fails(http.StatusNotFound, "not_found")
	e.get("/v1/agencies/detail/abc", "").fails(http.StatusBadRequest, "bad_request", "id")
	e.get("/v1/agencies/detail/0", "").fails(http.StatusBadRequest, "bad_request", "id")
	e.get("/v1/agencies/detail/99999999999999999999", "").fails(http.StatusBadRequest, "bad_request", "id")

	var services []map[string]any
	e.get("/v1/agencies/services", e.token(100)).ok(&services)
	gotJSON, _ := json.Marshal(services)
	if !reflect.DeepEqual(decodeJSON(t, string(gotJSON)), decodeJSON(t,
		`[{"id": 3, "name": "Analytics"}, {"id": 2, "name": "Branding"}, {"id": 1, "name": "Paid social"}]`)) {
		t.Fatalf("services = %s", gotJSON)
	}
	e.get("/v1/agencies/services", "").fails(http.StatusUnauthorized, "unauthorized")
}

// An unlisted agency (a user's own, or one imported with "listed": false) is
// in neither the directory nor its detail.
func TestAgencyUnlisted(t *testing.T) {
	e := newEnv(t)
	e.load(`{"services": [{"id": 1, "name": "Ads"}], "industries": [{"id": 1, "name": "Retail"}],
	 "agencies": [
	  {"id": 1, "username": "visible studio", "services": [1], "industries": [1]},
	  {"id": 2, "username": "hidden studio", "listed": false, "services": [1], "industries": [1]}],
	 "users": [{"id": 100, "email": "ana@example.com", "agency_id": 2}]}`)
	for _, body := range []string{`{"search": "studio"}`, `{"service": 1}`, `{"industry": 1}`,
		`{"service": 1, "industry": 1, "search": "studio"}`, `{"industry": 1, "search": "studio"}`} {
		if got := e.post("/v1/agencies/list", e.token(100), body).agencyIDs(); !reflect.DeepEqual(got, []int64{1}) {
			t.Fatalf("agencies/list %s = %v, want only the listed agency", body, got)
		}
	}
	e.get("/v1/agencies/detail/1", "").object()
	e.get("/v1/agencies/detail/2", "").fails(http.StatusNotFound, "not_found")
	// Path ids are plain digits, as on every {id} route.
	for _, id := range []string{"+1", "01x", "1e0", "0x1"} {
		e.get("/v1/agencies/detail/"+id, "").fails(http.StatusBadRequest, "bad_request", "id")
	}
}

// A service's and an industry's agencies are read in username order from
// their own entries, which hold a copy of the username: a renamed agency
// moves in those lists as in the whole directory, and a deleted service's
// entries go with it.
func TestAgencyListFollowsRenames(t *testing.T) {
	e := newEnv(t)
	e.load(agenciesFixture)
	ana := e.token(100)
	lists := []string{`{}`, `{"service": 2}`, `{"industry": 1}`, `{"service": 2, "industry": 1}`, `{"service": 2, "search": "e"}`}
	before := [][]int64{{15, 16, 11, 12, 14, 10}, {11, 10}, {11, 10}, {11, 10}, {11, 10}}
	for i, body := range lists {
		if got := e.post("/v1/agencies/list", ana, body).agencyIDs(); !reflect.DeepEqual(got, before[i]) {
			t.Fatalf("before the rename, list %s = %v, want %v", body, got, before[i])
		}
	}
	e.load(`{"agencies": [{"id": 11, "username": "zenith", "description": "Hotels & travel, 100% remote",
	  "locations": "Vienna", "services": [2, 3], "industries": [2, 1]}]}`)
	after := [][]int64{{15, 16, 12, 14, 10, 11}, {10, 11}, {10, 11}, {10, 11}, {10, 11}}
	for i, body := range lists {
		if got := e.post("/v1/agencies/list", ana, body).agencyIDs(); !reflect.DeepEqual(got, after[i]) {
			t.Fatalf("after the rename, list %s = %v, want %v", body, got, after[i])
		}
	}
	entries := scalar[string](e, `SELECT string_agg(u, ',') FROM (
		SELECT agency_username FROM agency_service WHERE agency_id = 11
		UNION ALL SELECT agency_username FROM agency_industry WHERE agency_id = 11) AS x (u)`)
	if entries != "zenith,zenith,zenith,zenith" {
		t.Fatalf("agency 11's entries hold %s, want zenith four times", entries)
	}
}

// TestAgencyListPlans checks that a service's and an industry's pages are
// read in username order from their own entries and end with the page,
// whatever the search: the agency of each entry is looked up by its key,
// never found from the agencies that a search matches (a trigram scan of
// the directory) and joined back, nor cached by agency (each comes once in
// the entries of a service or an industry). The directory is that of make
// bench-scale: 10,000 agencies, whose descriptions repeat every fourth
// agency, so that the statistics of search_text (every hundredth username)
// hold one description of the four and the planner expects next to no
// agency to match "fashion", where a quarter do: a plain join starts from
// the search there.
func TestAgencyListPlans(t *testing.T) {
	e := newEnv(t)
	e.exec(`INSERT INTO service (id, name) SELECT s, 'Service ' || s FROM generate_series(1, 20) AS s;
		INSERT INTO industry (id, name) SELECT i, 'Industry ' || i FROM generate_series(1, 20) AS i;
		INSERT INTO agency (id, username, description, locations)
		SELECT a, 'agency-' || lpad(a::text, 6, '0'),
		       'We boost ' || (ARRAY['fitness', 'food', 'travel', 'fashion'])[1 + a % 4] || ' brands',
		       (ARRAY['New York', 'Prague', 'Berlin', 'London', 'Paris'])[1 + a % 5]
		FROM generate_series(1, 10000) AS a;
		INSERT INTO agency_service (agency_id, service_id, agency_username)
		SELECT a.id, 1 + (a.id * 7 + k * 5) % 20, a.username FROM agency AS a, generate_series(1, 3) AS k
		WHERE k <= 1 + a.id % 3;
		INSERT INTO agency_industry (agency_id, industry_id, agency_username)
		SELECT a.id, 1 + (a.id * 3 + k * 7) % 20, a.username FROM agency AS a, generate_series(1, 2) AS k
		WHERE k <= 1 + a.id % 2;
		ANALYZE agency, agency_service, agency_industry, agency_object`)
	p := newPlanner(e)
	search := "FASHION"
	var got []json.RawMessage
	for _, tc := range []struct {
		name  string
		index string
		call  func(q *db.Queries) (err error)
	}{
		{"service and search", "agency_service_service_idx", func(q *db.Queries) (err error) {
			got, err = q.AgencyListByService(t.Context(), db.AgencyListByServiceParams{ServiceID: 4, Search: &search, PageNumber: 1, PageSize: 5})
			return err
		}},
		{"industry and search", "agency_industry_industry_idx", func(q *db.Queries) (err error) {
			got, err = q.AgencyListByIndustry(t.Context(), db.AgencyListByIndustryParams{IndustryID: 16, Search: &search, PageNumber: 1, PageSize: 5})
			return err
		}},
	} {
		plan := p.plan("force_custom_plan", tc.call)
		requireIndexed(t, tc.name, plan, []string{"agency", "agency_service", "agency_industry"}, tc.index)
		for _, n := range planNodes(plan) {
			if n["Node Type"] == "Sort" || n["Index Name"] == "agency_search_text_idx" {
				t.Fatalf("%s: the page is not read in order from %s: %s", tc.name, tc.index, nodeSummary(plan))
			}
			if n["Node Type"] != "Memoize" {
				continue
			}
			for _, m := range planNodes(n) {
				if m["Relation Name"] == "agency" {
					t.Fatalf("%s: the entries' agencies are cached by a Memoize node, though each comes once: %s", tc.name, nodeSummary(plan))
				}
			}
		}
		if len(got) != 5 {
			t.Fatalf("%s: %d agencies, want 5", tc.name, len(got))
		}
		t.Logf("%s: %s", tc.name, nodeSummary(plan))
	}
}
