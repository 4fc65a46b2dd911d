package httpapi

import (
	"context"
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
	"adboost/db/dataset"
	"adboost/db/dbtest"

	"github.com/jackc/pgx/v5/pgxpool"
)

// catalogueShapes are requests whose statements take optional filters
// (the walks, PresetBrowseAgencyGoal, PresetBrowseAgencyGoalLocation,
// PresetCount) in an empty catalogue: a location with no presets is
// narrower than any agency, and no agency is narrower than a prefix.
type shape struct{ path, body, statement string }

var catalogueShapes = []shape{
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "agency_id": 1, "vertical": "fitness"}`, "PresetBrowseAgencyGoal :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "agency_id": 1, "location": {"value": "US"}}`, "PresetBrowseAgencyGoalLocation :many"},
	{"/v1/presets/browse", `{"agency_id": 1, "preset_name": "S"}`, "PresetBrowsePrefixWalk :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "preset_name": "Sp"}`, "PresetBrowsePrefixWalk :many"},
	{"/v1/presets/browse", `{"agency_id": 1, "partner_id": 2}`, "PresetBrowseWalk :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "vertical": "fitness", "location": {"value": "US"}}`, "PresetBrowseLocationWalk :many"},
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
	pool := oneConnectionPool(t)

	// With the catalogue pool (db.CustomPlans), as serve runs: each
	// statement is prepared on its connection and every execution had a
	// custom plan.
	catalogue := planCachePool(t, pool, db.CustomPlans, "force_custom_plan")
	askEachShape(t, pool, Config{Catalogue: catalogue}, catalogueShapes)
	requirePlans(t, catalogue, catalogueShapes, false)

	// Without it: sent unprepared on the main pool, planned each time,
	// never a prepared statement of the connection.
	askEachShape(t, pool, Config{}, catalogueShapes)
	for _, shape := range catalogueShapes {
		if _, ok := preparedPlans(t, pool, catalogueShapes)[shape.statement]; ok {
			t.Errorf("%s is a prepared statement of the main pool's connection: a repeated request can give it a generic plan", shape.statement)
		}
	}
}

// askEachShape asks each of shapes eight times of a server over pool with
// cfg.
func askEachShape(t *testing.T, pool *pgxpool.Pool, cfg Config, shapes []shape) {
	t.Helper()
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(cfg, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, shape := range shapes {
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

// preparedPlans answers the plans made for each named statement of shapes
// prepared on the connection of a pool of one connection, by the sqlc name
// of its query.
func preparedPlans(t *testing.T, pool *pgxpool.Pool, shapes []shape) map[string]planCounts {
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
		for _, shape := range shapes {
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

// onePlanShapes are requests of the demo catalogue whose statements one
// generic plan serves, each with its statement: the page with its cards
// for a shape of one filter or none, and the cards of the ids that a
// statement planned for the request answers for an agency with a goal
// (three of the demo's presets).
var onePlanShapes = []shape{
	{"/v1/presets/browse", `{}`, "PresetBrowseTitle :many"},
	{"/v1/presets/browse", `{"agency_id": 10, "goal": "OUTCOME_LEADS"}`, "PresetCards :many"},
	{"/v1/presets/browse", `{"page": 2, "limit": 2}`, "PresetBrowseDeep :many"},
	{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS"}`, "PresetBrowseGoal :many"},
	{"/v1/presets/browse", `{"agency_id": 1}`, "PresetBrowseAgency :many"},
	{"/v1/presets/browse", `{"location": {"value": "US"}}`, "PresetBrowseLocation :many"},
	{"/v1/presets/browse", `{"location": {"value": "US"}, "page": 2, "limit": 1}`, "PresetBrowseLocationDeep :many"},
	{"/v1/presets/browse", `{"preset_name": "S"}`, "PresetBrowsePrefix :many"},
	{"/v1/presets/browse", `{"vertical": "fitness"}`, "PresetBrowseVerticalSlug :many"},
	{"/v1/presets/browse", `{"vertical": "fitness", "goal": "OUTCOME_LEADS"}`, "PresetBrowseVertical :many"},
	{"/v1/presets/count", `{"preset_name": "S"}`, "PresetCountPrefix :one"},
}

// The catalogue's statements without optional filters run on the pool of
// generic plans (db.GenericPlans, Config.OnePlan) with one plan per
// connection: left to choose, PostgreSQL plans them again at every
// execution (a LIMIT or OFFSET parameter makes the generic plan look
// dearer than any custom one at scale), and planning costs as much as
// reading a page. Over pools of one connection, each shape is asked eight
// times.
func TestCatalogueOnePlanStatements(t *testing.T) {
	t.Parallel()
	pool := oneConnectionPool(t)
	if err := dataset.LoadDemo(t.Context(), pool); err != nil {
		t.Fatal(err)
	}
	onePlan := planCachePool(t, pool, db.GenericPlans, "force_generic_plan")
	askEachShape(t, pool, Config{OnePlan: onePlan}, onePlanShapes)
	requirePlans(t, onePlan, onePlanShapes, true)
}

// oneConnectionPool is a pool of one connection over a fresh database, so
// that the statements a test sends are prepared on one connection.
func oneConnectionPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	u, err := url.Parse(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1")
	u.RawQuery = q.Encode()
	return dbtest.NewPool(t, u.String())
}

// planCachePool opens a pool like pool with open (db.CustomPlans or
// db.GenericPlans) and checks that its connections run with
// plan_cache_mode mode.
func planCachePool(t *testing.T, pool *pgxpool.Pool, open func(context.Context, *pgxpool.Pool) (*pgxpool.Pool, error), mode string) *pgxpool.Pool {
	t.Helper()
	p, err := open(t.Context(), pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	var got string
	if err := p.QueryRow(t.Context(), `SELECT current_setting('plan_cache_mode')`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != mode {
		t.Errorf("the pool's plan_cache_mode is %q, want %s", got, mode)
	}
	return p
}

// requirePlans checks that each statement of shapes is prepared on pool's
// connection and had at least eight plans of one kind (generic ones when
// generic, else custom ones) and none of the other.
func requirePlans(t *testing.T, pool *pgxpool.Pool, shapes []shape, generic bool) {
	t.Helper()
	plans := preparedPlans(t, pool, shapes)
	for _, shape := range shapes {
		p, ok := plans[shape.statement]
		if !ok {
			t.Errorf("%s is not a prepared statement of the pool's connection", shape.statement)
			continue
		}
		wanted, other, kind := p.custom, p.generic, "custom"
		if generic {
			wanted, other, kind = p.generic, p.custom, "generic"
		}
		if wanted < 8 || other != 0 {
			t.Errorf("%s: %d generic and %d custom plans, want at least 8 %s plans and no other", shape.statement, p.generic, p.custom, kind)
		}
	}
}
