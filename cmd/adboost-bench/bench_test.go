package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestGenerateShape makes the data set at a small scale and checks its
// shape against the issue's: the share of visible presets, of US, of
// cities, of advanced settings, reviews per preset, the Zipf spread of the
// agencies, the benchmark user's campaigns, sources and posts, and that the
// derived data that triggers keep (off during the load) was rebuilt exactly,
// and that the cards fill their table from its first page even while
// another session holds an older snapshot.
func TestGenerateShape(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	s := scale{Presets: 20_000, Campaigns: 5_000, Posts: 1_000}
	// A snapshot older than the load, held by another session until the
	// load is done, as other sessions of a shared server hold them: the
	// cards that the reorder deleted must not stay in the table for it.
	old, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	if err := generate(ctx, pool, s); err != nil {
		t.Fatal(err)
	}
	if err := old.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	var buffers string
	if err := pool.QueryRow(ctx, "SHOW shared_buffers").Scan(&buffers); err != nil {
		t.Fatal(err)
	}
	memory, err := serverMemory(ctx, pool)
	if err != nil || !strings.HasPrefix(memory, "shared_buffers="+buffers+" huge_pages=") ||
		!strings.Contains(memory, ", preset_card ") || strings.HasSuffix(memory, "preset_card 0 bytes") {
		t.Fatalf("serverMemory = %q, %v; want shared_buffers=%s, huge_pages and the size of the generated cards", memory, err, buffers)
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
			WHERE c.object IS DISTINCT FROM o.object::jsonb`, 0, 0},
		{"tally", `SELECT ((SELECT sum(presets) FROM preset_tally) = (SELECT count(*) FROM preset WHERE active AND NOT private))::int`, 1, 0},
		{"triggers restored", `SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'`, 0, 0},
		// The cards fill the table from its first page, in title order but
		// for the few that the reorder wrote into the free space of the
		// pages it emptied: no space is left where its old rows lay.
		{"first page of the cards", `SELECT min((ctid::text::point)[0]) FROM preset_card`, 0, 0},
		{"cards out of title order", `SELECT avg(back::int) FROM (SELECT p.title < lag(p.title) OVER (ORDER BY c.ctid) AS back
			FROM preset_card AS c JOIN preset AS p ON p.id = c.id) AS x`, 0, 0.01},
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
	s := scale{Presets: 3_000, Campaigns: 2_000, Posts: 1_000}
	if err := generate(t.Context(), pool, s); err != nil {
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
	// Every route in both modes: the distinct requests are valid requests
	// of the route (200), of the small data set's values.
	ds := newDataset(s)
	var rows []row
	for _, r := range routes() {
		cached := drive(srv.URL, token, r, 4, 300*time.Millisecond, nil, 0)
		distinct := drive(srv.URL, token, r, 4, 300*time.Millisecond, &ds, 0)
		for _, res := range []result{cached, distinct} {
			if res.Errors != 0 || res.Requests == 0 || res.Rate <= 0 || res.P99 < res.P50 {
				t.Errorf("%s: %+v", r.Name, res)
			}
		}
		rows = append(rows, row{Route: r.Name, Cached: &cached, Distinct: &distinct})
	}
	var out bytes.Buffer
	printTable(&out, rows, "1234 kB")
	for _, r := range routes() {
		if !strings.Contains(out.String(), r.Name) {
			t.Errorf("the table has no line for %s:\n%s", r.Name, out.String())
		}
	}
	for _, col := range []string{"cached req/s", "distinct req/s", "distinct client cpu/req", "distinct load", "adboost peak RSS: 1234 kB"} {
		if !strings.Contains(out.String(), col) {
			t.Errorf("the table has no %q:\n%s", col, out.String())
		}
	}
	checkDistinctAtScale(t)
	checkCeiling(t, srv.URL, token, ds)

	// A route that fails is counted as errors.
	bad := drive(srv.URL, "", route{Name: "no token", Method: "GET", Path: "/v1/presets/available", Auth: true}, 2, 100*time.Millisecond, nil, 0)
	if bad.Errors == 0 || bad.Errors != bad.Requests {
		t.Errorf("a refused route: %+v, want every request an error", bad)
	}
}

// checkDistinctAtScale checks the distinct mode at the issue's scale: every
// route varies, and the browse and count bodies each exclude a real preset.
func checkDistinctAtScale(t *testing.T) {
	t.Helper()
	// The distinct mode at the issue's scale: every route varies, the
	// browse and count bodies are all different and each excludes a real
	// preset. A user's sources have six filter combinations only, and
	// boosted-pages/count without a source or post no more.
	full := newDataset(scale{Presets: 1_000_000, Campaigns: 100_000, Posts: 20_000})
	for _, r := range routes() {
		if r.Distinct == nil {
			t.Errorf("%s has no distinct form", r.Name)
			continue
		}
		seen := map[string]bool{}
		for n := uint64(1); n <= 200; n++ {
			path, body := r.Distinct(full, n)
			seen[path+" "+body] = true
			if strings.HasPrefix(r.Path, "/v1/presets/") && r.Method == "POST" {
				var m struct {
					Excluded int `json:"excluded_preset_id"`
				}
				if err := json.Unmarshal([]byte(body), &m); err != nil || m.Excluded < 1 || m.Excluded > full.Presets {
					t.Errorf("%s: request %d excludes %d (%v), want a preset of 1..%d", r.Name, n, m.Excluded, err, full.Presets)
				}
			}
		}
		want := map[string]int{"boosted-pages/sources": 6, "boosted-pages/count": 130}[r.Name]
		if want == 0 {
			want = 160
		}
		if strings.HasPrefix(r.Path, "/v1/presets/") && r.Method == "POST" {
			want = 200
		}
		if len(seen) < want {
			t.Errorf("%s: %d distinct requests of 200, want at least %d", r.Name, len(seen), want)
		}
	}
	if full.excluded(1) == full.excluded(2) {
		t.Errorf("requests 1 and 2 exclude the same preset")
	}
}

// TestDriveReadsAnswersAsSent checks that the load generator asks for gzip
// and reads the answer as it comes, neither inflated nor kept: a server
// that answers bytes labelled gzip that are not gzip counts no error (an
// inflating client would fail to read them), and the first error's example
// keeps keptBody bytes of an answer at most.
func TestDriveReadsAnswersAsSent(t *testing.T) {
	t.Parallel()
	var asked atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.Header.Get("Accept-Encoding"))
		w.Header().Set("Content-Encoding", "gzip")
		if r.URL.Path == "/refused" {
			w.WriteHeader(http.StatusTeapot)
		}
		_, _ = w.Write(bytes.Repeat([]byte("not gzip "), 10_000))
	}))
	t.Cleanup(srv.Close)

	res := drive(srv.URL, "", route{Name: "gzip", Method: "GET", Path: "/"}, 2, 100*time.Millisecond, nil, 0)
	if res.Requests == 0 || res.Errors != 0 {
		t.Errorf("answers labelled gzip: %+v, want every request answered without an error", res)
	}
	if got := asked.Load(); got != "gzip" {
		t.Errorf("Accept-Encoding %q, want gzip", got)
	}
	bad := drive(srv.URL, "", route{Name: "refused", Method: "GET", Path: "/refused"}, 1, 50*time.Millisecond, nil, 0)
	if bad.Errors == 0 || !strings.Contains(bad.Example, "418") || len(bad.Example) > keptBody+50 {
		t.Errorf("a refused route: %d errors, example %q", bad.Errors, bad.Example)
	}
}

// TestWithPool checks how the bench sizes adboost's pool: without -pool,
// DATABASE_URL is passed as it is, so that adboost picks its own default;
// with -pool N, pool_max_conns=N is set and the URL's other settings kept.
func TestWithPool(t *testing.T) {
	const base = "postgres://postgres@127.0.0.1:5432/adboost_bench?sslmode=disable"
	got, desc := withPool(base, 0)
	if got != base || !strings.Contains(desc, "default") {
		t.Errorf("withPool(0) = %q, %q; want the URL unchanged and adboost's default named", got, desc)
	}
	got, desc = withPool(base, 5)
	u, err := url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if q := u.Query(); q.Get("pool_max_conns") != "5" || q.Get("sslmode") != "disable" || u.Path != "/adboost_bench" {
		t.Errorf("withPool(5) = %q; want pool_max_conns=5 beside sslmode=disable on adboost_bench", got)
	}
	if desc != "pool_max_conns=5" {
		t.Errorf("withPool(5) describes itself as %q", desc)
	}
}

// checkCeiling checks the ceiling's server against the API at base: it
// answers the first `limit` Preset objects of presets/available's largest
// answer, byte for byte, gzipped for a caller that accepts gzip, and the
// route's distinct requests without an error.
func checkCeiling(t *testing.T, base, token string, ds dataset) {
	t.Helper()
	answer, err := largestAnswer(t.Context(), base, token)
	if err != nil {
		t.Fatal(err)
	}
	var cards []json.RawMessage
	if err := json.Unmarshal(answer, &cards); err != nil || len(cards) < 3 {
		t.Fatalf("presets/available's largest answer: %d cards (%v)", len(cards), err)
	}
	srv := httptest.NewServer(answerHandler(cards))
	t.Cleanup(srv.Close)
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/v1/presets/available?page=4&limit=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the ceiling's answer is not gzipped: %v", resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if want := "[" + string(cards[0]) + "," + string(cards[1]) + "]"; err != nil || string(got) != want {
		t.Errorf("the ceiling's answer of limit 2 (%v):\n%s\nwant the API's first two cards:\n%s", err, got, want)
	}
	var available route
	for _, r := range routes() {
		if r.Name == ceilingOf {
			available = r
		}
	}
	if available.Distinct == nil {
		t.Fatalf("no route %q with a distinct mode: the ceiling follows none", ceilingOf)
	}
	res := drive(srv.URL, token, ceilingRoute(available), 2, 100*time.Millisecond, &ds, 0)
	if res.Requests == 0 || res.Errors != 0 {
		t.Errorf("the ceiling's route: %+v, want every request answered", res)
	}
}
