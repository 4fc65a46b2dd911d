package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/db"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

// loadScale fills a test database with a catalogue of n presets (about 85%
// of them visible), 1,000 agencies, a boosting condition on every third
// preset and reviewsPer reviews per preset, then analyzes it.
//
// To load fast, the preset table's secondary indexes are dropped and built
// again afterwards from their own definitions (pg_get_indexdef), so the plans
// are made with exactly the indexes of the migrations; foreign keys are not
// checked row by row where the role may skip them (session_replication_role,
// superuser only), the rows being consistent by construction.
//
// Layout of preset g: title md5(g); agency 1 + g % 1000; objective g % 6 of
// six; vertical "slug[g % 12],slug[g / 12 % 12]"; location document g % 1000:
// country g % 10 of ten, city key 1000000 + g % 1000, region key
// "R-" || g % 100; inactive when g % 10 = 0, private when g % 17 = 0.
func loadScale(tb testing.TB, pool *pgxpool.Pool, n, reviewsPer int) {
	tb.Helper()
	ctx := context.Background()
	start := time.Now()
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var super bool
		if err := tx.QueryRow(ctx, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").Scan(&super); err != nil {
			return err
		}
		if super {
			if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
				return err
			}
		}
		defs, err := dropPresetIndexes(ctx, tx)
		if err != nil {
			return err
		}
		if err := insertScaleRows(ctx, tx, n, reviewsPer); err != nil {
			return err
		}
		for _, def := range defs {
			if _, err := tx.Exec(ctx, def); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("load %d presets: %v", n, err)
	}
	if _, err := pool.Exec(ctx, "VACUUM ANALYZE preset, review, boosting_condition, agency"); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("loaded %d presets and %d reviews in %v", n, n*reviewsPer, time.Since(start).Round(time.Millisecond))
}

// dropPresetIndexes drops the preset table's secondary indexes and answers
// their definitions, to build them again after the load.
func dropPresetIndexes(ctx context.Context, tx pgx.Tx) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid)
		FROM pg_index WHERE indrelid = 'preset'::regclass AND NOT indisprimary ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	var names, defs []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, err
		}
		names, defs = append(names, name), append(defs, def)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, name := range names {
		if _, err := tx.Exec(ctx, "DROP INDEX "+name); err != nil {
			return nil, err
		}
	}
	return defs, nil
}

// insertScaleRows inserts the verticals, agencies, users, n presets with
// their boosting conditions, and reviewsPer reviews per preset.
func insertScaleRows(ctx context.Context, tx pgx.Tx, n, reviewsPer int) error {
	if _, err := tx.Exec(ctx, `
INSERT INTO vertical (slug, label)
SELECT s, initcap(s) FROM unnest('{fitness,health,food,fashion,beauty,travel,real-estate,education,tech,events,automotive,pets}'::text[]) AS s;
INSERT INTO agency (id, username) SELECT a, 'agency ' || a FROM generate_series(1, 1000) AS a;
INSERT INTO app_user (id, email) SELECT u, 'user' || u || '@example.com' FROM generate_series(1, 100) AS u;`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
WITH loc AS (
    SELECT i, jsonb_build_object(
        'countries', jsonb_build_array(('{CZ,DE,AT,GB,US,FR,ES,PL,IT,NL}'::text[])[1 + i % 10]),
        'cities', jsonb_build_array(jsonb_build_object('key', (1000000 + i)::text)),
        'regions', jsonb_build_array(jsonb_build_object('key', 'R-' || i % 100))) AS doc
    FROM generate_series(0, 999) AS i
), slug AS (
    SELECT '{fitness,health,food,fashion,beauty,travel,real-estate,education,tech,events,automotive,pets}'::text[] AS s
)
INSERT INTO preset (id, agency_id, title, active, private, campaign_objective, vertical,
                    price, original_price, location_json, allowed_options)
SELECT g, 1 + g % 1000, md5(g::text), g % 10 <> 0, g % 17 = 0,
       ('{OUTCOME_TRAFFIC,OUTCOME_LEADS,OUTCOME_SALES,OUTCOME_AWARENESS,OUTCOME_ENGAGEMENT,OUTCOME_APP_PROMOTION}'::text[])[1 + g % 6],
       slug.s[1 + g % 12] || ',' || slug.s[1 + g / 12 % 12],
       g % 100, g % 100 + 10, loc.doc,
       CASE WHEN g % 2 = 0 THEN '{location,advanced_settings}'::text[] ELSE '{location}' END
FROM generate_series(1, $1::int) AS g
JOIN loc ON loc.i = g % 1000
CROSS JOIN slug`, n); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
INSERT INTO boosting_condition (preset_id, keywords, reach)
SELECT g, '{gym,run}', g % 100 FROM generate_series(1, $1::int, 3) AS g`, n); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
INSERT INTO review (preset_id, user_id, rating)
SELECT p, 1 + (p + u) % 100, 1 + (p * 7 + u) % 5
FROM generate_series(1, $1::int) AS p, generate_series(1, $2::int) AS u`, n, reviewsPer); err != nil {
		return err
	}
	return nil
}

// captured is a db.DBTX that records the statement a query would run, so
// that a test can EXPLAIN exactly what the handler runs.
type captured struct {
	sql  string
	args []any
	// through answers the statements that only choose the way to the page
	// (PresetAgencyGoalWalk, PresetAgencyWalk, PresetPrefixRange), so that the statement they
	// choose is the one captured.
	through *pgxpool.Pool
}

// choosesTheWay tells a statement that through answers.
func choosesTheWay(sql string) bool {
	for _, name := range []string{"PresetAgencyGoalWalk", "PresetAgencyWalk", "PresetPrefixRange"} {
		if strings.Contains(sql, "-- name: "+name+" :one") {
			return true
		}
	}
	return false
}

var errCaptured = errors.New("captured")

func (c *captured) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c.sql, c.args = sql, args
	return pgconn.CommandTag{}, errCaptured
}

func (c *captured) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	c.sql, c.args = sql, args
	return nil, errCaptured
}

func (c *captured) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if c.through != nil && choosesTheWay(sql) {
		return c.through.QueryRow(ctx, sql, args...)
	}
	c.sql, c.args = sql, args
	return capturedRow{}
}

func (c *captured) SendBatch(context.Context, *pgx.Batch) pgx.BatchResults {
	panic("captured: no batches")
}

func (c *captured) CopyFrom(context.Context, pgx.Identifier, []string, pgx.CopyFromSource) (int64, error) {
	panic("captured: no COPY")
}

type capturedRow struct{}

func (capturedRow) Scan(...any) error { return errCaptured }

// explain plans a captured statement as the handlers run it: as the unnamed
// statement, planned for its parameters' values (see perRequestPlans).
func explain(t *testing.T, pool *pgxpool.Pool, c *captured) dbtest.PlanNode {
	t.Helper()
	var raw []byte
	args := append([]any{pgx.QueryExecModeCacheDescribe}, c.args...)
	if err := pool.QueryRow(t.Context(), "EXPLAIN (FORMAT JSON) "+c.sql, args...).Scan(&raw); err != nil {
		t.Fatalf("explain: %v", err)
	}
	return dbtest.Plan(t, raw)
}

func ptr[T any](v T) *T { return &v }

// TestPresetBrowsePlans checks, on 100,000 presets and 200,000 reviews, that
// the browse query (with each filter, and with every filter at once) and the
// count query never read the preset or review table sequentially: each filter
// has its index, the rating is an index-only scan of the reviews, and the
// same queries answer what the rules say.
func TestPresetBrowsePlans(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	loadScale(t, pool, 100_000, 2)
	ctx := t.Context()

	// Preset 2011 is visible; the "every filter" case is built from its own
	// values, so that the query is known to find it.
	var goal, vertical, prefix, country string
	var agency int64
	if err := pool.QueryRow(ctx, `SELECT campaign_objective, split_part(vertical, ',', 2), left(title, 2),
		location_json -> 'countries' ->> 0, agency_id FROM preset WHERE id = 2011 AND active AND NOT private`).
		Scan(&goal, &vertical, &prefix, &country, &agency); err != nil {
		t.Fatal(err)
	}

	bytewise, err := db.New(pool).CatalogueTitlesBytewise(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range browsePlanCases(goal, vertical, prefix, country, agency, bytewise) {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.filter
			browse := httpapi.BrowseQuery{
				Goal: f.Goal, Vertical: f.Vertical,
				AgencyID: f.AgencyID, PartnerID: f.PartnerID, PresetName: f.PresetName,
				ExcludedPresetID: f.ExcludedPresetID, Location: f.Location, LocationType: f.LocationType,
				PageNumber: tc.page, PageSize: 50,
			}
			checkBrowsePlan(t, pool, browse, tc.index)

			// The query itself, run as the handler runs it.
			ids, err := httpapi.PresetBrowseIDs(ctx, db.New(pool), db.New(pool), browse, db.New(pool).CatalogueTitlesBytewise)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != 0 && !slices.Contains(ids, tc.want) {
				t.Errorf("the page does not hold preset %d", tc.want)
			}
			checkCardsPlan(t, pool, ids)
			checkCountPlan(t, pool, f)
		})
	}
}

// browsePlanCase is a browse filter, the page asked, a preset the page must
// hold (or 0) and the index that must serve a selective filter (or "").
type browsePlanCase struct {
	name   string
	filter db.PresetCountParams
	page   int32
	want   int64  // a preset the page must hold, or 0
	index  string // the index that must serve a selective filter (or one of several, separated by |), or ""
}

// browsePlanCases are the filters TestPresetBrowsePlans plans, "every
// filter" built from preset 2011's own values.
func browsePlanCases(goal, vertical, prefix, country string, agency int64, bytewise bool) []browsePlanCase {
	// A location with a title prefix: where titles sort by code point, the
	// prefix's range of the location's title order
	// (PresetBrowseLocationPrefixOrdered); elsewhere, when the prefix's
	// titles are fewer than those before it, its range of the titles' byte
	// order, sorted (PresetPrefixRange, PresetBrowseLocationPrefix).
	latePrefix := "preset_location_title_pattern_idx"
	if bytewise {
		// With a goal, the prefix's part of the pair's range
		// (preset_location_objective_idx).
		latePrefix = "preset_visible_location_idx|preset_location_objective_idx"
	}
	// A vertical with a title prefix: where titles sort by code point, the
	// prefix's range of each of the vertical's slugs
	// (PresetBrowseVerticalPrefixOrdered); elsewhere the prefix's entries.
	verticalPrefix := "preset_title_prefix_idx|preset_title_prefix_pkey"
	if bytewise {
		verticalPrefix = "preset_vertical_title_idx"
	}
	return []browsePlanCase{
		{name: "no filter", page: 1, index: "preset_visible_title_idx"},
		{name: "deep page", page: 400, index: "preset_visible_title_idx"},
		{name: "goal", filter: db.PresetCountParams{Goal: ptr("OUTCOME_LEADS")}, page: 1, index: "preset_visible_objective_idx"},
		{name: "agency", filter: db.PresetCountParams{AgencyID: ptr(int64(17))}, page: 2, index: "preset_agency_idx"},
		{name: "country", filter: db.PresetCountParams{Location: ptr("US")}, page: 1, index: "preset_visible_location_idx"},
		{name: "country, deep page", filter: db.PresetCountParams{Location: ptr("US")}, page: 300, index: "preset_visible_location_idx"},
		{name: "title prefix", filter: db.PresetCountParams{PresetName: ptr("ab")}, page: 1, index: "preset_title_prefix_pkey|preset_title_prefix_idx"},
		{name: "vertical", filter: db.PresetCountParams{Vertical: ptr("health")}, page: 1, index: "preset_vertical_title_idx"},
		{name: "rare vertical pair", filter: db.PresetCountParams{Vertical: ptr("tech,pets")}, page: 1, index: "preset_visible_objective_vertical_idx"},
		{name: "vertical matching nothing", filter: db.PresetCountParams{Vertical: ptr("zz%zz")}, page: 1, index: "preset_vertical_title_idx"},
		{name: "vertical deep page", filter: db.PresetCountParams{Vertical: ptr("ealt")}, page: 30, index: "preset_vertical_title_idx"},
		{name: "agency", filter: db.PresetCountParams{AgencyID: ptr(int64(17))}, page: 1, index: "preset_agency_idx"},
		{name: "partner", filter: db.PresetCountParams{PartnerID: ptr(int64(17))}, page: 1, index: "preset_agency_idx"},
		{name: "title prefix", filter: db.PresetCountParams{PresetName: ptr("ab")}, page: 1},
		// A prefix longer than three characters is read from the presets of
		// its first three (either index of preset_title_prefix), never by
		// walking the title index.
		{name: "rare title prefix", filter: db.PresetCountParams{PresetName: ptr("abcd")}, page: 1, index: "preset_title_prefix_idx|preset_title_prefix_pkey"},
		{name: "excluded", filter: db.PresetCountParams{ExcludedPresetID: ptr(int64(5))}, page: 1, index: "preset_visible_title_idx"},
		{name: "common country", filter: db.PresetCountParams{Location: ptr("US")}, page: 1, index: "preset_visible_location_idx"},
		{name: "country of inactive presets only", filter: db.PresetCountParams{Location: ptr("CZ")}, page: 1, index: "preset_visible_location_idx"},
		{name: "city key", filter: db.PresetCountParams{Location: ptr("1000017")}, page: 1, index: "preset_visible_location_idx"},
		{name: "region key", filter: db.PresetCountParams{Location: ptr("R-7"), LocationType: ptr("region")}, page: 1, index: "preset_visible_location_idx"},
		{name: "common country deep page", filter: db.PresetCountParams{Location: ptr("US")}, page: 40, index: "preset_location_bucket_pkey"},
		{name: "region deep page", filter: db.PresetCountParams{Location: ptr("R-7"), LocationType: ptr("region"), ExcludedPresetID: ptr(int64(7))}, page: 3, index: "preset_location_bucket_pkey"},
		{name: "location matching nothing", filter: db.PresetCountParams{Location: ptr("XX")}, page: 1, index: "preset_visible_location_idx"},
		{name: "goal and vertical", filter: db.PresetCountParams{Goal: ptr("OUTCOME_LEADS"), Vertical: ptr("health")}, page: 2, index: "preset_visible_objective_vertical_idx"},
		{name: "agency and partner alike", filter: db.PresetCountParams{AgencyID: ptr(int64(17)), PartnerID: ptr(int64(17))}, page: 1, index: "preset_agency_idx"},
		// A location with a goal (and no agency) reads the pair's range of
		// the location's entries by objective.
		{name: "country with a goal", filter: db.PresetCountParams{Location: ptr("US"), Goal: ptr("OUTCOME_LEADS")}, page: 1, index: "preset_location_objective_idx"},
		{name: "country with a goal and a vertical, deep", filter: db.PresetCountParams{Location: ptr("US"), Goal: ptr("OUTCOME_SALES"), Vertical: ptr("health")}, page: 5, index: "preset_location_objective_idx"},
		{name: "country with a prefix", filter: db.PresetCountParams{Location: ptr("US"), PresetName: ptr("ab")}, page: 2, index: "preset_visible_location_idx|preset_location_title_pattern_idx"},
		{name: "country with a late prefix", filter: db.PresetCountParams{Location: ptr("US"), PresetName: ptr("f3"), Goal: ptr("OUTCOME_LEADS")}, page: 2, index: latePrefix},
		// An agency with a location reads its range of the location's
		// entries; one narrower than the prefix given with it walks its own
		// presets (PresetAgencyWalk).
		{name: "agency with a country", filter: db.PresetCountParams{Location: ptr("US"), AgencyID: ptr(int64(17)), Vertical: ptr("health")}, page: 1, index: "preset_location_agency_idx"},
		{name: "large agency with a country", filter: db.PresetCountParams{Location: ptr("US"), AgencyID: ptr(int64(1)), Vertical: ptr("health")}, page: 2, index: "preset_location_agency_idx"},
		// An agency with a vertical and no goal reads the agency's ranges of
		// the lists that hold the vertical, not the agency's whole range.
		{name: "agency and vertical", filter: db.PresetCountParams{AgencyID: ptr(int64(17)), Vertical: ptr("health")}, page: 2, index: "preset_visible_agency_objective_vertical_idx"},
		{name: "large agency, vertical and prefix", filter: db.PresetCountParams{AgencyID: ptr(int64(1)), Vertical: ptr("ealt"), PresetName: ptr("a"), ExcludedPresetID: ptr(int64(9))}, page: 1, index: "preset_visible_agency_objective_vertical_idx"},
		{name: "agency with a prefix", filter: db.PresetCountParams{PresetName: ptr("ab"), PartnerID: ptr(int64(17))}, page: 1, index: "preset_agency_idx|preset_visible_agency_objective_idx|preset_visible_agency_objective_vertical_idx"},
		{name: "prefix with a vertical", filter: db.PresetCountParams{PresetName: ptr("ab"), Vertical: ptr("health")}, page: 1, index: verticalPrefix},
		{name: "long prefix with a vertical, deep", filter: db.PresetCountParams{PresetName: ptr("abc"), Vertical: ptr("ealt")}, page: 3, index: verticalPrefix},
		// A title prefix with a goal reads the pair's range of the prefix's
		// entries by objective, with a vertical too.
		{name: "prefix with a goal", filter: db.PresetCountParams{PresetName: ptr("ab"), Goal: ptr("OUTCOME_LEADS")}, page: 2, index: "preset_title_prefix_objective_idx"},
		{name: "prefix with a goal and a vertical", filter: db.PresetCountParams{PresetName: ptr("abcd"), Goal: ptr("OUTCOME_SALES"), Vertical: ptr("health")}, page: 2, index: "preset_title_prefix_objective_idx"},
		{name: "every filter", page: 1, want: 2011, filter: db.PresetCountParams{
			Goal: &goal, Vertical: &vertical, AgencyID: &agency, PartnerID: &agency, PresetName: &prefix,
			ExcludedPresetID: ptr(int64(11)), Location: &country, LocationType: ptr("country")}},
	}
}

// checkBrowsePlan checks the plan of the statement that the handler runs
// for browse: it reads no preset, card or agency object sequentially (a
// prepared statement's page joins its cards), uses a preset index, and
// index when given (one of the indexes it names, separated by |). A shape
// with one filter (or none) goes to a prepared statement, whose generic
// plan, which PostgreSQL may keep for every later request on a connection,
// must satisfy the same.
func checkBrowsePlan(t *testing.T, pool *pgxpool.Pool, browse httpapi.BrowseQuery, index string) {
	t.Helper()
	ctx := t.Context()
	prepared, planned := captured{through: pool}, captured{}
	if _, err := httpapi.PresetBrowseIDs(ctx, db.New(&prepared), db.New(&planned), browse, db.New(pool).CatalogueTitlesBytewise); !errors.Is(err, errCaptured) {
		t.Fatalf("capture: %v", err)
	}
	given := 0
	for _, f := range []bool{browse.Goal != nil, browse.Vertical != nil, browse.AgencyID != nil || browse.PartnerID != nil,
		browse.PresetName != nil, browse.Location != nil} {
		if f {
			given++
		}
	}
	plans := map[string]dbtest.PlanNode{}
	switch {
	case prepared.sql != "":
		plans["custom"], plans["generic"] = explain(t, pool, &prepared), explainGeneric(t, pool, &prepared)
		if given > 1 && (given > 2 || browse.Vertical == nil || browse.Goal == nil) {
			t.Errorf("%d filters answered by a prepared statement", given)
		}
	default:
		plans["custom"] = explain(t, pool, &planned)
		if given <= 1 {
			t.Errorf("one filter or none planned per request, not prepared")
		}
	}
	if generic, ok := plans["generic"]; ok {
		checkPageOfCards(t, generic)
	}
	for kind, plan := range plans {
		var used []string
		plan.Walk(func(n dbtest.PlanNode) {
			// A prepared statement answers its page's cards: a primary-key
			// lookup each, never every card joined by hash.
			if n.NodeType == "Seq Scan" && (n.Relation == "preset" || n.Relation == "preset_card" || n.Relation == "agency_object") {
				t.Errorf("%s plan: sequential scan of %s", kind, n.Relation)
			}
			if strings.HasPrefix(n.IndexName, "preset_") {
				used = append(used, n.IndexName)
			}
		})
		if len(used) == 0 {
			t.Errorf("%s plan: no preset index used", kind)
		}
		if index != "" && !slices.ContainsFunc(strings.Split(index, "|"), func(i string) bool { return slices.Contains(used, i) }) {
			t.Errorf("%s plan: preset indexes %v, want %s among them", kind, used, index)
		}
		t.Logf("%s plan: indexes %v", kind, slices.Compact(used))
	}
}

// checkPageOfCards checks that a generic plan joins the cards to a page:
// every join that reads preset_card is planned for at most 50 rows (the
// largest page). A page cut by a LIMIT parameter alone is costed as a
// tenth of its input, and at scale PostgreSQL joins that many cards by
// hash, reading them all.
func checkPageOfCards(t *testing.T, plan dbtest.PlanNode) {
	t.Helper()
	plan.Walk(func(n dbtest.PlanNode) {
		if !strings.HasSuffix(n.NodeType, "Join") && n.NodeType != "Nested Loop" {
			return
		}
		cards := false
		n.Walk(func(c dbtest.PlanNode) { cards = cards || c.Relation == "preset_card" })
		if cards && n.Rows > 50 {
			t.Errorf("generic plan: %s of preset_card planned for %.0f rows, more than a page", n.NodeType, n.Rows)
		}
	})
}

// explainGeneric plans a captured statement as a prepared statement's
// generic plan (plan_cache_mode = force_generic_plan): the plan made
// without the parameters' values.
func explainGeneric(t *testing.T, pool *pgxpool.Pool, c *captured) dbtest.PlanNode {
	t.Helper()
	ctx := t.Context()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	literals := make([]string, len(c.args))
	for i, a := range c.args {
		literals[i] = sqlLiteral(a)
	}
	var raw []byte
	for _, q := range []string{"SET plan_cache_mode = force_generic_plan", "PREPARE generic_check AS " + c.sql} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), "DEALLOCATE generic_check; RESET plan_cache_mode")
	if err := conn.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE generic_check("+strings.Join(literals, ", ")+")").Scan(&raw); err != nil {
		t.Fatalf("explain generic: %v", err)
	}
	return dbtest.Plan(t, raw)
}

// sqlLiteral writes a statement's parameter (a value or a pointer to one,
// nil for NULL) as an SQL literal.
func sqlLiteral(a any) string {
	v := reflect.ValueOf(a)
	for v.IsValid() && v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "NULL"
		}
		v = v.Elem()
	}
	switch {
	case !v.IsValid():
		return "NULL"
	case v.Kind() == reflect.String:
		return "'" + strings.ReplaceAll(v.String(), "'", "''") + "'"
	}
	return fmt.Sprint(v.Interface())
}

// checkCardsPlan checks the page's Preset objects are primary-key lookups
// of the stored cards (preset_card) and agency objects, reading neither the
// presets nor their reviews.
func checkCardsPlan(t *testing.T, pool *pgxpool.Pool, ids []int64) {
	t.Helper()
	ctx := t.Context()
	cards := db.PresetCardsParams{PublicBaseUrl: "https://x.test", ServiceFixedFee: "0.00", Ids: ids}
	c := captured{}
	if _, err := db.New(&c).PresetCards(ctx, cards); !errors.Is(err, errCaptured) {
		t.Fatalf("capture: %v", err)
	}
	var cardIndex bool
	explain(t, pool, &c).Walk(func(n dbtest.PlanNode) {
		switch {
		case n.Relation == "preset" || n.Relation == "review" || n.Relation == "boosting_condition":
			t.Errorf("cards: %s of %s (the card is stored)", n.NodeType, n.Relation)
		case n.NodeType == "Seq Scan" && (n.Relation == "preset_card" || n.Relation == "agency_object"):
			t.Errorf("cards: sequential scan of %s", n.Relation)
		}
		cardIndex = cardIndex || n.IndexName == "preset_card_pkey"
	})
	if !cardIndex && len(ids) > 0 {
		t.Errorf("cards: preset_card is not read by its primary key")
	}
}

// checkCountPlan checks count, with the same filters, reads no preset
// sequentially either when a filter is selective.
func checkCountPlan(t *testing.T, pool *pgxpool.Pool, f db.PresetCountParams) {
	t.Helper()
	ctx := t.Context()
	// count, with the same filters: no sequential scan either when
	// a filter is selective.
	if f.Location != nil || f.AgencyID != nil || f.PresetName != nil || f.Goal != nil {
		c := captured{}
		if _, err := db.New(&c).PresetCount(ctx, f); !errors.Is(err, errCaptured) {
			t.Fatalf("capture: %v", err)
		}
		explain(t, pool, &c).Walk(func(n dbtest.PlanNode) {
			if n.NodeType == "Seq Scan" && n.Relation == "preset" {
				t.Errorf("count: sequential scan of preset")
			}
		})
	}
}

// TestPresetAvailablePlan checks that presets/available reads each kind of
// preset from its index in title order and stops at the end of the page,
// however large the catalogue.
func TestPresetAvailablePlan(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	loadScale(t, pool, 100_000, 1)
	ctx := t.Context()
	if _, err := pool.Exec(ctx, "UPDATE app_user SET agency_id = 17 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	params := db.PresetAvailableParams{PublicBaseUrl: "https://x.test", ServiceFixedFee: "0.00", UserID: 1,
		PageNumber: 3, PageSize: 1000}
	var c captured
	if _, err := db.New(&c).PresetAvailable(ctx, params); !errors.Is(err, errCaptured) {
		t.Fatalf("capture: %v", err)
	}
	var used []string
	explain(t, pool, &c).Walk(func(n dbtest.PlanNode) {
		if n.NodeType == "Seq Scan" && (n.Relation == "preset" || n.Relation == "review") {
			t.Errorf("sequential scan of %s", n.Relation)
		}
		if strings.HasPrefix(n.IndexName, "preset_") {
			used = append(used, n.IndexName)
		}
	})
	for _, want := range []string{"preset_visible_title_idx", "preset_agency_idx"} {
		if !slices.Contains(used, want) {
			t.Errorf("preset indexes %v, want %s among them", used, want)
		}
	}
	rows, err := db.New(pool).PresetAvailable(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1000 {
		t.Fatalf("%d presets on page 3, want 1000", len(rows))
	}
	title := func(i int) string {
		var card struct{ Title string }
		if err := json.Unmarshal(rows[i].Body, &card); err != nil || card.Title == "" {
			t.Fatalf("card %d: %v, body %s", i, err, rows[i].Body)
		}
		return card.Title
	}
	for i := 1; i < len(rows); i++ {
		if title(i-1) > title(i) {
			t.Fatalf("not in title order at %d: %q > %q", i, title(i-1), title(i))
		}
	}
}

// BenchmarkPresetBrowse measures presets/browse and presets/count over HTTP
// on a large catalogue: ADBOOST_BENCH_PRESETS presets (default 100,000) with
// ADBOOST_BENCH_REVIEWS reviews each (default 2). For the performance target:
//
//	ADBOOST_BENCH_PRESETS=1000000 ADBOOST_BENCH_REVIEWS=10 go test ./http -run '^$' -bench PresetBrowse -benchtime 200x
func BenchmarkPresetBrowse(b *testing.B) {
	n, per := envInt(b, "ADBOOST_BENCH_PRESETS", 100_000), envInt(b, "ADBOOST_BENCH_REVIEWS", 2)
	pool := dbtest.New(b)
	loadScale(b, pool, n, per)
	tokens, err := auth.NewTokens([]byte(testSecret), time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{ServiceFixedFee: "1.00", PublicBaseURL: "https://x.test"}, pool, tokens,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(api.Handler())
	b.Cleanup(srv.Close)

	for _, bc := range []struct{ name, path, body string }{
		{"browse/none", "browse", `{}`},
		{"browse/page100", "browse", `{"page": 100}`},
		{"browse/goal", "browse", `{"goal": "OUTCOME_LEADS"}`},
		{"browse/vertical", "browse", `{"vertical": "fitness"}`},
		{"browse/vertical-rare", "browse", `{"vertical": "tech,pets"}`},
		{"browse/agency", "browse", `{"agency_id": "17"}`},
		{"browse/prefix", "browse", `{"preset_name": "ab"}`},
		{"browse/country", "browse", `{"location": {"value": "US"}}`},
		{"browse/city", "browse", `{"location": {"value": "1000017", "type": "city"}}`},
		{"browse/every-filter", "browse", `{"goal": "OUTCOME_LEADS", "vertical": "health", "agency_id": 18,
			"preset_name": "a", "excluded_preset_id": 5, "location": {"value": "DE"}}`},
		{"count/none", "count", `{}`},
		{"count/goal", "count", `{"goal": "OUTCOME_LEADS"}`},
		{"count/vertical", "count", `{"vertical": "fitness"}`},
		{"count/city", "count", `{"location": {"value": "1000017"}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				resp, err := http.Post(srv.URL+"/v1/presets/"+bc.path, "application/json", bytes.NewBufferString(bc.body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

func envInt(tb testing.TB, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		tb.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return v
}
