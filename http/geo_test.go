package httpapi_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// geo is a GeoLocation as JSON decodes it.
func geo(value, label, typ, region, country string) map[string]any {
	return map[string]any{"value": value, "label": label, "type": typ, "region": region, "country_name": country}
}

var (
	prague      = geo("3067696", "Prague", "city", "Hlavní město Praha", "Czechia")
	brno        = geo("3078610", "Brno", "city", "Jihomoravský kraj", "Czechia")
	ostrava     = geo("3068799", "Ostrava", "city", "Moravskoslezský kraj", "Czechia")
	praia       = geo("3374333", "Praia", "city", "Praia", "Cabo Verde")
	zurichCity  = geo("2657896", "Zürich", "city", "Zürich", "Switzerland")
	zurichCtn   = geo("CH-ZH", "Zürich", "region", "", "Switzerland")
	zugCity     = geo("2657908", "Zug", "city", "Zug", "Switzerland")
	zugCtn      = geo("CH-ZG", "Zug", "region", "", "Switzerland")
	zugdidi     = geo("610864", "Zugdidi", "city", "Samegrelo and Zemo Svaneti", "Georgia")
	saoPaulo    = geo("3448439", "São Paulo", "city", "São Paulo", "Brazil")
	saoPauloSt  = geo("BR-SP", "São Paulo", "region", "", "Brazil")
	saoLuis     = geo("3388368", "São Luís", "city", "Maranhão", "Brazil")
	saoTome     = geo("2410763", "São Tomé", "city", "Água Grande", "Sao Tome and Principe")
	saoTomeLand = geo("ST", "Sao Tome and Principe", "country", "", "Sao Tome and Principe")
)

func geoList(t *testing.T, r *response) []map[string]any {
	t.Helper()
	var out []map[string]any
	r.ok(&out)
	if out == nil {
		t.Fatalf("answer %s is not an array", r.body)
	}
	return out
}

func TestGeoLocations(t *testing.T) {
	e := newEnv(t)
	e.sqlExec(geoFixtures)
	// Thirty towns of one prefix for the limit.
	e.sqlExec(`INSERT INTO geo_city (id, country_code, region_name, name, population)
		SELECT 9000000 + i, 'US', 'Kansas', 'Limitville ' || i, 1000 * i FROM generate_series(1, 30) AS i`)

	for _, tc := range []struct {
		query, typ string
		want       []map[string]any
	}{
		{"Prague", "", []map[string]any{prague}},
		{"prague", "city", []map[string]any{prague}},
		{"PRA", "city", []map[string]any{prague, praia}}, // larger first
		{"pra", "", []map[string]any{prague, praia}},
		{"pra", "region", []map[string]any{}},
		{"zur", "", []map[string]any{zurichCtn, zurichCity}}, // a canton before a city
		{"zur", "city", []map[string]any{zurichCity}},
		{"zur", "region", []map[string]any{zurichCtn}},
		{"zur", "country", []map[string]any{}},
		{"ZÜR", "city", []map[string]any{zurichCity}},
		{"Zurich", "", []map[string]any{zurichCtn, zurichCity}},
		{"sao", "city", []map[string]any{saoPaulo, saoLuis, saoTome}},
		{"São", "country", []map[string]any{saoTomeLand}},
		{"sao", "", []map[string]any{saoTomeLand, saoPauloSt, saoPaulo, saoLuis, saoTome}},
		{"sao l", "", []map[string]any{saoLuis}},
		// Exact matches first: Zug before the larger Zugdidi.
		{"zug", "city", []map[string]any{zugCity, zugdidi}},
		{"zug", "", []map[string]any{zugCtn, zugCity, zugdidi}},
		{"  zug  ", "city", []map[string]any{zugCity, zugdidi}},
		// Prefixes are literal: no wildcards.
		{"pr%", "", []map[string]any{}},
		{"_rague", "", []map[string]any{}},
		{"rague", "", []map[string]any{}},
		// Shorter than two characters.
		{"p", "", []map[string]any{}},
		{" p ", "city", []map[string]any{}},
		{"", "", []map[string]any{}},
		{"Ü", "", []map[string]any{}},
	} {
		got := geoList(t, e.post("/v1/boosted-pages/geo-locations", "", map[string]any{"query": tc.query, "type": tc.typ}))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("geo-locations %q %q =\n  %v\nwant\n  %v", tc.query, tc.typ, got, tc.want)
		}
	}

	// At most 25, largest first.
	got := geoList(t, e.post("/v1/boosted-pages/geo-locations", "", map[string]any{"query": "limitv"}))
	if len(got) != 25 || got[0]["label"] != "Limitville 30" || got[24]["label"] != "Limitville 6" {
		t.Fatalf("limit: %d results, first %v, last %v", len(got), got[0], got[len(got)-1])
	}

	e.post("/v1/boosted-pages/geo-locations", "", map[string]any{"query": "zur", "type": "town"}).fails(http.StatusBadRequest, "bad_request", "type")
	e.post("/v1/boosted-pages/geo-locations", "", map[string]any{"query": strings.Repeat("a", 256)}).fails(http.StatusBadRequest, "bad_request", "query")
	e.post("/v1/boosted-pages/geo-locations", "", map[string]any{"query": 42}).fails(http.StatusBadRequest, "bad_request", "query")
	e.post("/v1/boosted-pages/geo-locations", "", `{"query": "pr\u0000"}`).fails(http.StatusBadRequest, "bad_request", "query")
	// No body at all is a query of nothing.
	if got := geoList(t, e.post("/v1/boosted-pages/geo-locations", "", nil)); len(got) != 0 {
		t.Fatalf("no body = %v", got)
	}
}

func TestGeoLocationsByCode(t *testing.T) {
	e := newEnv(t)
	e.sqlExec(geoFixtures)
	czRegions := []map[string]any{
		geo("CZ-10", "Hlavní město Praha", "region", "", "Czechia"),
		geo("CZ-64", "Jihomoravský kraj", "region", "", "Czechia"),
		geo("CZ-80", "Moravskoslezský kraj", "region", "", "Czechia"),
		geo("CZ-20", "Středočeský kraj", "region", "", "Czechia"),
	}
	czechia := geo("CZ", "Czechia", "country", "", "Czechia")
	for _, tc := range []struct {
		body map[string]any
		want []map[string]any
	}{
		{map[string]any{"type": "region", "value": "CZ"}, czRegions},
		{map[string]any{"type": "region", "value": "cz", "key": "CZ-10"}, czRegions[:1]},
		{map[string]any{"type": "region", "value": "CZ", "key": "CH-ZH"}, []map[string]any{}},
		{map[string]any{"type": "city", "value": "CZ"}, []map[string]any{prague, brno, ostrava}},
		{map[string]any{"type": "city", "value": "CZ", "key": "3078610"}, []map[string]any{brno}},
		{map[string]any{"type": "city", "value": "CZ", "key": "brno"}, []map[string]any{}},
		{map[string]any{"type": "country", "value": "CZ"}, []map[string]any{czechia}},
		{map[string]any{"type": "country", "value": "CZ", "key": "CZ"}, []map[string]any{czechia}},
		{map[string]any{"value": "CH"}, []map[string]any{geo("CH", "Switzerland", "country", "", "Switzerland"), zugCtn, zurichCtn, zurichCity, zugCity}},
		{map[string]any{"type": "region", "value": "US"}, []map[string]any{}},
		{map[string]any{"type": "region", "value": "XX"}, []map[string]any{}},
	} {
		got := geoList(t, e.post("/v1/boosted-pages/geo-locations-by-code", "", tc.body))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("geo-locations-by-code %v =\n  %v\nwant\n  %v", tc.body, got, tc.want)
		}
	}
	for word, body := range map[string]map[string]any{
		"value":  {"type": "region"},
		"value ": {"type": "region", "value": "CZE"},
		"type":   {"type": "state", "value": "CZ"},
		"key":    {"type": "region", "value": "CZ", "key": strings.Repeat("k", 65)},
	} {
		e.post("/v1/boosted-pages/geo-locations-by-code", "", body).fails(http.StatusBadRequest, "bad_request", strings.TrimSpace(word))
	}
}
