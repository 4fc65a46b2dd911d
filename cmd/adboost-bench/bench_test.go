package main

import (
	"bytes"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestGenerateShape makes the data set at a small scale and checks its
// shape against the issue's: the share of visible presets, of US, of
// cities, of advanced settings, reviews per preset, the Zipf spread of the
// agencies, the benchmark user's campaigns, sources and posts, and that the
// derived data that triggers keep (off during the load) was rebuilt exactly.
func TestGenerateShape(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	s := scale{Presets: 20_000, Campaigns: 5_000, Posts: 1_000}
	if err := generate(ctx, pool, s); err != nil {
		t.Fatal(err)
	}
	share := func(q string) float64 {
		t.Helper()
		var v float64
		if err := pool.QueryRow(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	for _, c := range []struct {
		name      string
		q         string
		want, tol float64
	}{
		{"presets", `SELECT count(*) FROM preset`, 20_000, 0},
		{"visible", `SELECT avg((active AND NOT private)::int) FROM preset`, 0.855, 0.001},
		{"US", `SELECT avg((location_json -> 'countries' ? 'US')::int) FROM preset`, 0.41, 0.02},
		{"cities", `SELECT avg((location_json ? 'cities')::int) FROM preset`, 0.20, 0.02},
		{"advanced settings", `SELECT avg(('advanced_settings' = ANY (allowed_options))::int) FROM preset`, 0.5, 0.001},
		{"reviews a preset", `SELECT (SELECT count(*) FROM review)::float / 20000`, 10, 0.1},
		{"agencies", `SELECT count(*) FROM agency`, 200, 0},
		// Zipf: the largest agency has many times the median agency's presets.
		{"largest agency's share", `SELECT max(n)::float / 20000 FROM (SELECT count(*) AS n FROM preset GROUP BY agency_id) AS x`, 0.13, 0.03},
		{"campaigns of user 1", `SELECT count(*) FROM campaign WHERE user_id = 1`, 5_000, 0},
		{"pages of user 1's campaigns", `SELECT count(DISTINCT page_id) FROM campaign WHERE user_id = 1`, 200, 0},
		{"sources of user 1", `SELECT count(*) FROM source WHERE user_id = 1`, 250, 0},
		{"posts of user 1", `SELECT count(*) FROM boosted_post WHERE user_id = 1`, 1_000, 0},
		{"private presets of user 1's agency", `SELECT (count(*) > 0)::int FROM preset WHERE private AND active
			AND agency_id = (SELECT agency_id FROM app_user WHERE id = 1)`, 1, 0},
		{"stale preset_location rows", `SELECT count(*) FROM (
			SELECT k.key, p.id, k.kinds FROM preset AS p, location_keys(p.location_json) AS k WHERE p.active AND NOT p.private
			EXCEPT SELECT key, preset_id, kinds FROM preset_location) AS x`, 0, 0},
		{"preset_location rows", `SELECT ((SELECT count(*) FROM preset_location) = (SELECT count(*)
			FROM preset AS p, location_keys(p.location_json) AS k WHERE p.active AND NOT p.private))::int`, 1, 0},
		{"agency objects", `SELECT count(*) FROM agency_card AS c FULL JOIN agency_object AS o ON o.agency_id = c.id
			WHERE c.object IS DISTINCT FROM o.object`, 0, 0},
		{"tally", `SELECT ((SELECT sum(presets) FROM preset_tally) = (SELECT count(*) FROM preset WHERE active AND NOT private))::int`, 1, 0},
		{"triggers restored", `SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'`, 0, 0},
	} {
		if got := share(c.q); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s = %v, want %v ± %v", c.name, got, c.want, c.tol)
		}
	}

	// The triggers work again after the load: a new visible preset is
	// counted and located.
	if _, err := pool.Exec(ctx, `INSERT INTO preset (id, agency_id, title, campaign_objective, price, original_price, location_json)
		VALUES (99999999, 1, 'Zz test', 'OUTCOME_SALES', 1, 1, '{"countries": ["ZZ"]}')`); err != nil {
		t.Fatal(err)
	}
	if got := share(`SELECT count(*) FROM preset_location WHERE key = 'ZZ'`); got != 1 {
		t.Errorf("preset_location rows of a preset inserted after the load: %v, want 1", got)
	}
}

// TestDrive runs every route of the benchmark against the API over a small
// generated data set: each answers 200 only, at several requests a second,
// and the table prints every route.
func TestDrive(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	if err := generate(t.Context(), pool, scale{Presets: 3_000, Campaigns: 2_000, Posts: 1_000}); err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte(jwtSecret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{ServiceFixedFee: "1.00", PublicBaseURL: "https://bench.test"}, pool, tokens,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	token, err := tokens.Issue(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var results []result
	for _, r := range routes() {
		res := drive(srv.URL, token, r, 4, 300*time.Millisecond)
		if res.Errors != 0 || res.Requests == 0 || res.Rate <= 0 || res.P99 < res.P50 {
			t.Errorf("%s: %+v", r.Name, res)
		}
		results = append(results, res)
	}
	var out bytes.Buffer
	printTable(&out, results, "1234 kB")
	for _, r := range routes() {
		if !strings.Contains(out.String(), r.Name) {
			t.Errorf("the table has no line for %s:\n%s", r.Name, out.String())
		}
	}
	if !strings.Contains(out.String(), "adboost peak RSS: 1234 kB") {
		t.Errorf("the table has no RSS:\n%s", out.String())
	}

	// -distinct: every browse and count request its own cache key, the
	// same answer.
	if got := distinctBody(`{"page": 2, "excluded_preset_id": 5}`, 7); got != `{"excluded_preset_id":900000007,"page":2}` {
		t.Errorf("distinctBody = %s", got)
	}
	for _, r := range routes()[:1] {
		if res := drive(srv.URL, token, r, 2, 200*time.Millisecond, true); res.Errors != 0 || res.Requests == 0 {
			t.Errorf("%s, distinct: %+v", r.Name, res)
		}
	}

	// A route that fails is counted as errors.
	bad := drive(srv.URL, "", route{Name: "no token", Method: "GET", Path: "/v1/presets/available", Auth: true}, 2, 100*time.Millisecond)
	if bad.Errors == 0 || bad.Errors != bad.Requests {
		t.Errorf("a refused route: %+v, want every request an error", bad)
	}
}
