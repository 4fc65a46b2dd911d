package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db"
	"adboost/db/dbtest"

	"github.com/jackc/pgx/v5/pgxpool"
)

// catalogueShapes are requests whose statements take optional filters
// (PresetBrowse, PresetBrowseAgencyGoal, PresetBrowseAgencyGoalLocation,
// PresetCount) in an empty catalogue: a location with no presets is
// narrower than any agency, and no agency is narrower than a prefix.
var catalogueShapes = []struct{ path, body, statement string }{
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "agency_id": 1, "vertical": "fitness"}`, "PresetBrowseAgencyGoal :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "agency_id": 1, "location": {"value": "US"}}`, "PresetBrowseAgencyGoalLocation :many"},
	{"/v1/presets/browse", `{"agency_id": 1, "preset_name": "S"}`, "PresetBrowse :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "preset_name": "Sp"}`, "PresetBrowse :many"},
	{"/v1/presets/count", `{"goal": "OUTCOME_LEADS", "agency_id": 1}`, "PresetCount :one"},
}

// The catalogue's statements with optional filters are planned for each
// request's values, never with a generic plan: a request repeated on a
// connection would otherwise make PostgreSQL switch that connection to the
// statement's generic plan (after five executions), which keeps every
// filter as a runtime check and reads the wide index whole for any other
// values (an agency with a goal: 21 ms of CPU a request instead of 1.4).
// Over pools of one connection, each shape of filters is asked eight times.
func TestCatalogueStatementsPlannedPerRequest(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1")
	u.RawQuery = q.Encode()
	pool := dbtest.NewPool(t, u.String())

	// With the catalogue pool (db.CustomPlans), as serve runs: each
	// statement is prepared on its connection and every execution had a
	// custom plan.
	catalogue, err := db.CustomPlans(t.Context(), pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(catalogue.Close)
	var mode string
	if err := catalogue.QueryRow(t.Context(), `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "force_custom_plan" {
		t.Errorf("the catalogue pool's plan_cache_mode is %q, want force_custom_plan: a prepared statement may get a generic plan", mode)
	}
	askEachShape(t, pool, Config{Catalogue: catalogue})
	plans := preparedPlans(t, catalogue)
	for _, shape := range catalogueShapes {
		p, ok := plans[shape.statement]
		if !ok {
			t.Errorf("%s is not a prepared statement of the catalogue pool's connection", shape.statement)
			continue
		}
		if p.generic != 0 || p.custom < 8 {
			t.Errorf("%s: %d generic and %d custom plans, want 0 and at least 8", shape.statement, p.generic, p.custom)
		}
	}

	// Without it: sent unprepared on the main pool, planned each time,
	// never a prepared statement of the connection.
	askEachShape(t, pool, Config{})
	for _, shape := range catalogueShapes {
		if _, ok := preparedPlans(t, pool)[shape.statement]; ok {
			t.Errorf("%s is a prepared statement of the main pool's connection: a repeated request can give it a generic plan", shape.statement)
		}
	}
}

// askEachShape asks each of catalogueShapes eight times of a server over
// pool with cfg.
func askEachShape(t *testing.T, pool *pgxpool.Pool, cfg Config) {
	t.Helper()
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(cfg, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, shape := range catalogueShapes {
		for range 8 {
			resp, err := http.Post(srv.URL+shape.path, "application/json", strings.NewReader(shape.body))
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: %d", shape.path, shape.body, resp.StatusCode)
			}
		}
	}
}

type planCounts struct{ generic, custom int64 }

// preparedPlans answers the plans made for each named statement prepared
// on the connection of a pool of one connection, by the sqlc name of its
// query.
func preparedPlans(t *testing.T, pool *pgxpool.Pool) map[string]planCounts {
	t.Helper()
	rows, err := pool.Query(t.Context(), `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	plans := map[string]planCounts{}
	for rows.Next() {
		var statement string
		var p planCounts
		if err := rows.Scan(&statement, &p.generic, &p.custom); err != nil {
			t.Fatal(err)
		}
		for _, shape := range catalogueShapes {
			if strings.Contains(statement, "-- name: "+shape.statement+"\n") {
				plans[shape.statement] = p
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plans
}
