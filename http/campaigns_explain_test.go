package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
	"adboost/db/dbtest"
)

// queryRecorder remembers the SQL and arguments of the last query a pool
// ran, so that a test can EXPLAIN exactly what a sqlc method sends.
type queryRecorder struct {
	mu   sync.Mutex
	sql  string
	args []any
}

func (r *queryRecorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sql, r.args = d.SQL, d.Args
	return ctx
}

func (r *queryRecorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// planner EXPLAINs the queries of the sqlc methods run through its Queries.
type planner struct {
	t    *testing.T
	pool *pgxpool.Pool
	rec  *queryRecorder
	q    *db.Queries
}

func newPlanner(e *env) *planner {
	cfg, err := pgxpool.ParseConfig(e.pool.Config().ConnString())
	if err != nil {
		e.t.Fatal(err)
	}
	rec := &queryRecorder{}
	cfg.ConnConfig.Tracer = rec
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(pool.Close)
	return &planner{t: e.t, pool: pool, rec: rec, q: db.New(pool)}
}

// plan runs call (one sqlc method), then EXPLAINs the statement it sent as
// a prepared statement with the same arguments, in plan_cache_mode mode:
// force_custom_plan (the arguments are known to the planner, what PostgreSQL
// does for the first executions of a prepared statement) or
// force_generic_plan (the plan a prepared statement may keep using).
func (p *planner) plan(mode string, call func(q *db.Queries) error) map[string]any {
	p.t.Helper()
	if err := call(p.q); err != nil {
		p.t.Fatal(err)
	}
	p.rec.mu.Lock()
	sql, args := p.rec.sql, p.rec.args
	p.rec.mu.Unlock()
	raw := dbtest.ExplainPrepared(p.t, p.pool, mode, sql, args)
	var plans []map[string]any
	if err := json.Unmarshal(raw, &plans); err != nil {
		p.t.Fatal(err)
	}
	return plans[0]["Plan"].(map[string]any)
}

// planNodes lists every node of a plan, depth first.
func planNodes(plan map[string]any) []map[string]any {
	out := []map[string]any{plan}
	if kids, ok := plan["Plans"].([]any); ok {
		for _, k := range kids {
			out = append(out, planNodes(k.(map[string]any))...)
		}
	}
	return out
}

// requireIndexed fails when the plan reads one of tables with a sequential
// scan, or reads none of them through one of indexes.
func requireIndexed(t *testing.T, what string, plan map[string]any, tables []string, indexes ...string) {
	t.Helper()
	raw, _ := json.MarshalIndent(plan, "", " ")
	used := false
	for _, n := range planNodes(plan) {
		rel, _ := n["Relation Name"].(string)
		if n["Node Type"] == "Seq Scan" {
			for _, tb := range tables {
				if rel == tb {
					t.Fatalf("%s: sequential scan of %s:\n%s", what, tb, raw)
				}
			}
		}
		if idx, ok := n["Index Name"].(string); ok {
			for _, want := range indexes {
				used = used || idx == want
			}
		}
	}
	if !used {
		t.Fatalf("%s: none of the indexes %v is used:\n%s", what, indexes, raw)
	}
}

// nodeSummary is a one-line account of a plan for the log.
func nodeSummary(plan map[string]any) string {
	var parts []string
	for _, n := range planNodes(plan) {
		s := n["Node Type"].(string)
		if idx, ok := n["Index Name"].(string); ok {
			s += " " + idx
		} else if rel, ok := n["Relation Name"].(string); ok {
			s += " " + rel
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " > ")
}

// TestCampaignQueriesUseIndexes builds 150,000 campaigns (100,000 of Ana's),
// 60,000 posts (1,000 of hers) with insights and 30,000 links, and checks
// that count and batch-insights answer from indexes, whatever the plan mode.
func TestCampaignQueriesUseIndexes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 300,000 rows")
	}
	e := newEnv(t)
	seedCampaignScale(e)
	p := newPlanner(e)
	source, post := int64(10005), int64(1)
	checkCampaignCountIndexed(t, p, source, post)
	checkBatchInsightsIndexed(t, p)
	checkPostsListIndexed(t, p, source)
}

// seedCampaignScale loads 150,000 campaigns (100,000 of Ana's), 60,000 posts
// (1,000 of hers) with insights and 30,000 links, and analyzes them.
func seedCampaignScale(e *env) {
	e.t.Helper()
	t := e.t
	e.load(campaignUsers)
	for _, sql := range []string{
		`INSERT INTO app_user (id, email) SELECT 1000 + i, 'user' || i || '@example.com' FROM generate_series(1, 100) AS i`,
		// Ana (100) owns campaigns 1..100,000; 100 other users share the rest.
		// Three in four have a page (1,000 pages), every fourth and seventh an
		// account (500 accounts); two in three are active.
		`INSERT INTO campaign (id, user_id, page_id, network_b_id, active, campaign_budget_value)
		 SELECT i, CASE WHEN i <= 100000 THEN 100 ELSE 1000 + i % 100 + 1 END,
		        CASE WHEN i % 4 <> 0 THEN 10000 + i % 1000 END,
		        CASE WHEN i % 4 = 0 OR i % 7 = 0 THEN 50000 + i % 500 END,
		        i % 3 <> 0, 10
		 FROM generate_series(1, 150000) AS i`,
		`WITH post AS (
		     INSERT INTO boosted_post (id, user_id, source_id, name, created)
		     SELECT i, CASE WHEN i <= 1000 THEN 100 ELSE 1000 + i % 100 + 1 END, 10000 + i % 1000, 'Post ' || i,
		            timestamptz '2026-01-01' + i * interval '1 minute'
		     FROM generate_series(1, 60000) AS i
		     RETURNING id AS i, user_id)
		 INSERT INTO boosted_post_insight (user_id, post_id, impressions, reach, engagement, clicks, spend, conversions)
		 SELECT user_id, i, 1000 + i % 100, 800, 50, 20 + i % 7, (i % 50)::numeric / 4, i % 3
		 FROM post`,
		// Ana's post i is boosted in her campaign i; post 1 in campaigns 1..50 too.
		// Post i of another user in campaign 100,000 + i of the same user.
		`INSERT INTO boosted_post_campaign (user_id, campaign_id, post_id)
		 SELECT CASE WHEN i <= 1000 THEN 100 ELSE 1000 + i % 100 + 1 END, CASE WHEN i <= 1000 THEN i ELSE 100000 + i END, i
		 FROM generate_series(1, 30000) AS i
		 UNION ALL
		 SELECT 100, c, 1 FROM generate_series(2, 50) AS c`,
		`VACUUM ANALYZE campaign, boosted_post, boosted_post_insight, boosted_post_campaign`,
	} {
		e.sqlExec(sql)
	}
	if n := e.sqlInt("SELECT count(*) FROM campaign WHERE user_id = 100"); n != 100000 {
		t.Fatalf("Ana has %d campaigns", n)
	}
}

// checkCampaignCountIndexed checks count answers from indexes under each
// filter, in custom and generic plans, and counts right.
func checkCampaignCountIndexed(t *testing.T, p *planner, source, post int64) {
	t.Helper()
	campaignTables := []string{"campaign", "boosted_post_campaign"}
	for _, tc := range []struct {
		name    string
		arg     db.CampaignCountParams
		want    int64
		indexes []string
	}{
		{"no filter", db.CampaignCountParams{Status: "all", Platform: "all"}, 100000, []string{"campaign_user_id_key"}},
		{"active", db.CampaignCountParams{Status: "active", Platform: "all"}, 66667, []string{"campaign_active_idx"}},
		{"network_a", db.CampaignCountParams{Status: "all", Platform: "network_a"}, 75000, []string{"campaign_page_idx"}},
		{"network_b", db.CampaignCountParams{Status: "all", Platform: "network_b"}, 35714, []string{"campaign_network_b_idx"}},
		{"source", db.CampaignCountParams{Status: "all", Platform: "all", SourceID: &source}, 100, []string{"campaign_page_idx"}},
		{"post", db.CampaignCountParams{Status: "all", Platform: "all", BoostedPostID: &post}, 50, []string{"boosted_post_campaign_post_idx"}},
		{"every filter", db.CampaignCountParams{Status: "active", Platform: "network_a", SourceID: &source, BoostedPostID: &post}, 1, []string{"boosted_post_campaign_post_idx"}},
	} {
		tc.arg.UserID = 100
		var got int64
		count := func(q *db.Queries) (err error) {
			got, err = q.CampaignCount(context.Background(), tc.arg)
			return err
		}
		custom := p.plan("force_custom_plan", count)
		requireIndexed(t, "count "+tc.name, custom, campaignTables, tc.indexes...)
		generic := p.plan("force_generic_plan", count)
		requireIndexed(t, "count "+tc.name+" (generic plan)", generic, campaignTables,
			"campaign_user_id_key", "campaign_active_idx", "campaign_page_idx", "campaign_network_b_idx", "campaign_pkey")
		if tc.name == "no filter" || tc.name == "source" {
			t.Logf("count %s: %s\n  generic: %s", tc.name, nodeSummary(custom), nodeSummary(generic))
		}
		if got != tc.want {
			t.Errorf("count %s = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// checkBatchInsightsIndexed checks batch-insights over Ana's posts, with
// another user's ids mixed in, answers from the counters' index alone (an
// index-only scan of her range) and counts her posts only.
func checkBatchInsightsIndexed(t *testing.T, p *planner) {
	t.Helper()
	// batch-insights over Ana's 1,000 posts, with another user's ids mixed in.
	ids := make([]int64, 0, 1000)
	for i := int64(1); i <= 990; i++ {
		ids = append(ids, i)
	}
	for i := int64(1); i <= 10; i++ {
		ids = append(ids, 50000+i)
	}
	postTables := []string{"boosted_post", "boosted_post_insight"}
	var sum db.BoostedPostInsightsSumRow
	insights := func(q *db.Queries) (err error) {
		sum, err = q.BoostedPostInsightsSum(context.Background(), db.BoostedPostInsightsSumParams{UserID: 100, Ids: ids})
		return err
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		plan := p.plan(mode, insights)
		requireIndexed(t, "batch-insights ("+mode+")", plan, postTables, "boosted_post_insight_user_idx")
		for _, n := range planNodes(plan) {
			if rel, _ := n["Relation Name"].(string); rel != "" && (rel != "boosted_post_insight" || n["Node Type"] != "Index Only Scan") {
				t.Fatalf("batch-insights (%s) reads %s with a %s, not the counters' key alone", mode, rel, n["Node Type"])
			}
		}
		t.Logf("batch-insights %s: %s", mode, nodeSummary(plan))
	}
	if sum.Posts != "990" {
		t.Fatalf("batch-insights counted %s posts, want 990", sum.Posts)
	}
}

// checkPostsListIndexed checks the posts list and its filters read the list
// indexes.
func checkPostsListIndexed(t *testing.T, p *planner, source int64) {
	t.Helper()
	postTables := []string{"boosted_post", "boosted_post_insight"}
	// The posts list and its filters read the list indexes.
	campaign := int64(1)
	for _, tc := range []struct {
		name    string
		arg     db.BoostedPostListParams
		indexes []string
	}{
		{"all", db.BoostedPostListParams{Page: 3}, []string{"boosted_post_created_idx"}},
		{"source", db.BoostedPostListParams{Page: 1, SourceID: &source}, []string{"boosted_post_source_idx"}},
		{"campaign", db.BoostedPostListParams{Page: 1, BoostedPageID: &campaign}, []string{"boosted_post_campaign_pkey"}},
	} {
		tc.arg.UserID = 100
		list := func(q *db.Queries) error {
			_, err := q.BoostedPostList(context.Background(), tc.arg)
			return err
		}
		requireIndexed(t, "posts list "+tc.name, p.plan("force_custom_plan", list), append(postTables, "boosted_post_campaign"), tc.indexes...)
	}
}

// TestGeoSearchUsesIndexes checks that geo-locations reads the search-key
// indexes of cities and regions, also with a prepared statement's generic
// plan, over 30,000 cities and 5,000 regions.
func TestGeoSearchUsesIndexes(t *testing.T) {
	e := newEnv(t)
	e.sqlExec(geoFixtures)
	e.sqlExec(`INSERT INTO geo_region (key, country_code, name)
		SELECT 'US-' || i, 'US', 'County ' || md5(i::text) FROM generate_series(1, 5000) AS i`)
	e.sqlExec(`INSERT INTO geo_city (id, country_code, region_name, name, population)
		SELECT 10000000 + i, 'US', 'Somewhere', initcap(md5(i::text)), 15000 + i FROM generate_series(1, 30000) AS i`)
	e.sqlExec(`ANALYZE geo_country, geo_region, geo_city`)
	p := newPlanner(e)
	for _, query := range []string{"zur", "Prague", "São"} {
		search := func(q *db.Queries) error {
			_, err := q.GeoLocationSearch(context.Background(), db.GeoLocationSearchParams{Query: query, Type: ""})
			return err
		}
		for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
			plan := p.plan(mode, search)
			requireIndexed(t, "geo search "+query+" ("+mode+")", plan, []string{"geo_city", "geo_region"}, "geo_city_search_idx")
			requireIndexed(t, "geo search "+query+" ("+mode+")", plan, []string{"geo_city", "geo_region"}, "geo_region_search_idx")
			if query == "zur" {
				t.Logf("geo search %s: %s", mode, nodeSummary(plan))
			}
		}
	}
	byCode := func(q *db.Queries) error {
		_, err := q.GeoLocationsByCode(context.Background(), db.GeoLocationsByCodeParams{Type: "city", Country: "CZ"})
		return err
	}
	requireIndexed(t, "geo by code", p.plan("force_custom_plan", byCode), []string{"geo_city", "geo_region"}, "geo_city_country_idx")
}
