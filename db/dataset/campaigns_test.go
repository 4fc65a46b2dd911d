package dataset_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"

	"adboost/db/dataset"
	"adboost/db/dbtest"
)

const campaignFile = `{
  "users": [{"id": 100, "email": "ana@example.com"}, {"id": 101, "email": "bob@example.com"}],
  "boosted_pages": [
    {"id": 7, "user_id": 100, "page_id": 456, "network_b_id": 789, "active": true,
     "campaign_budget_type": "daily", "campaign_budget_value": "20.00", "adset_budget_sharing_enabled": false,
     "campaign_bid_strategy_enabled": false, "campaign_bid_strategy": "LOWEST_COST_WITHOUT_CAP",
     "campaign_bid_amount": "0.00", "goal": "POST_ENGAGEMENT",
     "audience_targeting": {"geo_locations": {"countries": ["CZ"]}}, "hashtag": "#gym", "end_date": "2026-12-31"},
    {"id": 8, "user_id": 100, "network_b_id": 789, "campaign_budget_value": "5",
     "rules": {"max_posts_per_day": "2", "content_types": ["video"], "post_budget": "1.5", "post_days": 30}},
    {"id": 9, "user_id": 101, "page_id": 800, "campaign_budget_value": "7.50"}
  ],
  "boosted_posts": [
    {"id": 900, "boosted_page_ids": [7, 8], "active": true, "name": "New classes", "link": "https://net.example/900",
     "image": "https://img.example/900.jpg", "created": 1767225600, "stopped": 0,
     "insights": {"impressions": 1200, "reach": 1000, "engagement": 80, "clicks": 40, "spend": "12.00", "conversions": 4}},
    {"id": 901, "boosted_page_ids": [8], "created": 1767225600, "stopped": 1767312000},
    {"id": 902, "user_id": 101, "source_id": 801, "created": 1767225600}
  ]
}`

func TestLoadCampaigns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for range 2 { // the second load updates the same rows
		if err := dataset.Load(ctx, pool, strings.NewReader(campaignFile)); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	err := pool.QueryRow(ctx, `SELECT concat_ws(' | ',
		(SELECT string_agg(concat_ws(',', id, user_id, page_id, network_b_id, active, campaign_budget_value, end_date), ';' ORDER BY id) FROM campaign),
		(SELECT string_agg(concat_ws(',', id, user_id, source_id, active, extract(epoch FROM created), extract(epoch FROM stopped)), ';' ORDER BY id) FROM boosted_post),
		(SELECT string_agg(post_id || '>' || campaign_id, ';' ORDER BY post_id, campaign_id) FROM boosted_post_campaign),
		(SELECT string_agg(concat_ws(',', post_id, user_id, impressions, reach, engagement, clicks, spend, conversions), ';' ORDER BY post_id) FROM boosted_post_insight),
		(SELECT string_agg(campaign_id || ':' || action, ';' ORDER BY campaign_id) FROM campaign_history))`).Scan(&got)
	if err != nil {
		t.Fatal(err)
	}
	// Post 900 and 901 take owner and source from their first campaign (its
	// page, else its account); the history has one `created` entry each.
	// Every post has its row of counters, zeros without insights.
	want := "7,100,456,789,t,20.00,2026-12-31;8,100,789,t,5.00;9,101,800,t,7.50" +
		" | 900,100,456,t,1767225600.000000;901,100,789,t,1767225600.000000,1767312000.000000;902,101,801,t,1767225600.000000" +
		" | 900>7;900>8;901>8" +
		" | 900,100,1200,1000,80,40,12.000,4;901,100,0,0,0,0,0.000,0;902,101,0,0,0,0,0.000,0" + // spend numeric(14, 3)
		" | 7:created;8:created;9:created"
	if got != want {
		t.Fatalf("loaded\n  %s\nwant\n  %s", got, want)
	}

	// Importing again with fewer links drops the others; a campaign deleted
	// and imported again gets a new `created` entry.
	if _, err := pool.Exec(ctx, `DELETE FROM campaign WHERE id = 8;
		INSERT INTO campaign_history (user_id, campaign_id, action) VALUES (100, 8, 'deleted')`); err != nil {
		t.Fatal(err)
	}
	file := strings.Replace(campaignFile, `"boosted_page_ids": [7, 8]`, `"boosted_page_ids": [7]`, 1)
	if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	err = pool.QueryRow(ctx, `SELECT concat_ws(' | ',
		(SELECT string_agg(post_id || '>' || campaign_id, ';' ORDER BY post_id, campaign_id) FROM boosted_post_campaign),
		(SELECT string_agg(campaign_id || ':' || action, ';' ORDER BY campaign_id, id) FROM campaign_history))`).Scan(&got)
	if err != nil {
		t.Fatal(err)
	}
	if want := "900>7;901>8 | 7:created;8:created;8:deleted;8:created;9:created"; got != want {
		t.Fatalf("after re-import: %s, want %s", got, want)
	}

	// A campaign's rules are stored as the service writes them, and in its
	// `created` entry; a campaign without rules has none.
	err = pool.QueryRow(ctx, `SELECT string_agg(concat_ws(' ', c.id, c.rules::text, h.details -> 'rules'), '; ' ORDER BY c.id)
		FROM campaign AS c
		JOIN campaign_history AS h ON h.campaign_id = c.id AND h.id = (SELECT max(id) FROM campaign_history WHERE campaign_id = c.id)`).Scan(&got)
	if err != nil {
		t.Fatal(err)
	}
	rules := `{"post_days": 30, "post_budget": "1.50", "content_types": ["video"], "max_posts_per_day": 2}`
	if want := "7 {} {}; 8 " + rules + " " + rules + "; 9 {} {}"; got != want {
		t.Fatalf("rules of the campaigns: %s, want %s", got, want)
	}
}

func TestLoadCampaignsRefusesBadRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	users := `"users": [{"id": 100, "email": "ana@example.com"}, {"id": 101, "email": "bob@example.com"}]`
	page := func(row string) string {
		return `{` + users + `, "boosted_pages": [{"id": 1, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00"}, ` + row + `]}`
	}
	post := func(row string) string {
		return `{` + users + `, "boosted_pages": [{"id": 1, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00"},
			{"id": 2, "user_id": 101, "page_id": 6, "campaign_budget_value": "1.00"}], "boosted_posts": [` + row + `]}`
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"budget decimals", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.234"}`), "boosted_pages[1].campaign_budget_value"},
		{"budget zero", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "0.00"}`), "boosted_pages[1].campaign_budget_value"},
		{"budget type", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "campaign_budget_type": "weekly"}`), "boosted_pages[1].campaign_budget_type"},
		{"goal", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "goal": "SALES"}`), "boosted_pages[1].goal"},
		{"bid strategy", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "campaign_bid_strategy": "CHEAP"}`), "boosted_pages[1].campaign_bid_strategy"},
		{"bid amount", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "campaign_bid_amount": "-1"}`), "boosted_pages[1].campaign_bid_amount"},
		{"no source", page(`{"id": 3, "user_id": 100, "campaign_budget_value": "1"}`), "boosted_pages[1].page_id"},
		{"negative page", page(`{"id": 3, "user_id": 100, "page_id": -5, "campaign_budget_value": "1"}`), "boosted_pages[1].page_id"},
		{"unknown user", page(`{"id": 3, "user_id": 999, "page_id": 5, "campaign_budget_value": "1"}`), "boosted_pages[1].user_id"},
		{"unknown preset", page(`{"id": 3, "user_id": 100, "page_id": 5, "preset_id": 999, "campaign_budget_value": "1"}`), "boosted_pages[1].preset_id"},
		{"end date", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "end_date": "2026-13-01"}`), "boosted_pages[1].end_date"},
		{"targeting", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "audience_targeting": ["CZ"]}`), "boosted_pages[1].audience_targeting"},
		{"unknown field", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "budget": "1"}`), `boosted_pages[1]: json: unknown field "budget"`},
		{"rules post_days", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "rules": {"post_budget": "5"}}`), "boosted_pages[1].rules.post_days: is required with post_budget"},
		{"rules time zone", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "rules": {"hours": {"days": ["sun"], "from": "08:00", "to": "09:00", "timezone": "Nowhere/City"}}}`), "boosted_pages[1].rules.hours.timezone"},
		{"unknown category", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "special_ad_categories": ["HOUSING", "CREDIT"]}`), `boosted_pages[1].special_ad_categories: entry 1 ("CREDIT") must be one of HOUSING, EMPLOYMENT`},
		{"repeated category", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "special_ad_categories": ["HOUSING", "HOUSING"]}`), "boosted_pages[1].special_ad_categories: entry 1 repeats HOUSING"},
		{"categories not an array", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "special_ad_categories": "HOUSING"}`), "boosted_pages[1].special_ad_categories"},
		{"beneficiary too long", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "dsa_beneficiary": "` + strings.Repeat("é", 513) + `"}`), "boosted_pages[1].dsa_beneficiary: must be 1 to 512 characters"},
		{"payor blank", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "dsa_payor": " "}`), "boosted_pages[1].dsa_payor: must be 1 to 512 characters"},
		{"payor a number", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "dsa_payor": 5}`), "boosted_pages[1].dsa_payor"},
		{"ad account without act_", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "ad_account_id": "1234"}`), "boosted_pages[1].ad_account_id: must be a network_a ad account id"},
		{"ad account a number", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "ad_account_id": 1234}`), "boosted_pages[1].ad_account_id"},
		{"ad account empty", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "ad_account_id": ""}`), "boosted_pages[1].ad_account_id"},
		{"rules not an object", page(`{"id": 3, "user_id": 100, "page_id": 5, "campaign_budget_value": "1", "rules": "fast"}`), "boosted_pages[1].rules: must be an object"},
		{"another user's campaign", post(`{"id": 9, "boosted_page_ids": [1, 2], "created": 1767225600}`), "boosted_posts[0].boosted_page_ids"},
		{"unknown campaign", post(`{"id": 9, "boosted_page_ids": [77], "created": 1767225600}`), "boosted_posts[0].boosted_page_ids"},
		{"no owner", post(`{"id": 9, "source_id": 5, "created": 1767225600}`), "boosted_posts[0].user_id"},
		{"no source", post(`{"id": 9, "user_id": 100, "created": 1767225600}`), "boosted_posts[0].source_id"},
		{"no created", post(`{"id": 9, "boosted_page_ids": [1]}`), "boosted_posts[0].created"},
		{"stopped before created", post(`{"id": 9, "boosted_page_ids": [1], "created": 1767225600, "stopped": 1767000000}`), "boosted_posts[0].stopped"},
		{"spend", post(`{"id": 9, "boosted_page_ids": [1], "created": 1767225600, "insights": {"spend": "1.234"}}`), "boosted_posts[0].insights.spend"},
		{"negative reach", post(`{"id": 9, "boosted_page_ids": [1], "created": 1767225600, "insights": {"reach": -1}}`), "boosted_posts[0].insights.reach"},
		{"unknown insight", post(`{"id": 9, "boosted_page_ids": [1], "created": 1767225600, "insights": {"views": 5}}`), `boosted_posts[0]: json: unknown field "views"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := dataset.Load(ctx, pool, strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
	var rows int
	err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM app_user) + (SELECT count(*) FROM campaign)
		+ (SELECT count(*) FROM campaign_history) + (SELECT count(*) FROM boosted_post)`).Scan(&rows)
	if err != nil || rows != 0 {
		t.Fatalf("%d rows written by failed imports (%v); want none", rows, err)
	}
}

// A campaign row's special ad categories and DSA beneficiary and payor are
// stored; absent, they are none, and a row
// imported again without them clears them.
func TestLoadCampaignNetworkAFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	file := `{"users": [{"id": 100, "email": "ana@example.com"}], "boosted_pages": [
		{"id": 1, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00",
		 "special_ad_categories": ["EMPLOYMENT", "HOUSING"], "dsa_beneficiary": "Ana's Gym GmbH", "dsa_payor": "Ana Novak"},
		{"id": 2, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00", "dsa_payor": null}]}`
	read := func() string {
		t.Helper()
		var got string
		err := pool.QueryRow(ctx, `SELECT string_agg(concat_ws(' ', c.id, c.special_ad_categories::text,
				coalesce(c.dsa_beneficiary, '-'), coalesce(c.dsa_payor, '-')), '; ' ORDER BY c.id)
			FROM campaign AS c`).Scan(&got)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	if got, want := read(), `1 {EMPLOYMENT,HOUSING} Ana's Gym GmbH Ana Novak; 2 {} - -`; got != want {
		t.Fatalf("loaded %s, want %s", got, want)
	}
	file = strings.Replace(file, `"special_ad_categories": ["EMPLOYMENT", "HOUSING"], "dsa_beneficiary": "Ana's Gym GmbH", "dsa_payor": "Ana Novak"`, `"goal": "REACH"`, 1)
	if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := pool.QueryRow(ctx, `SELECT concat_ws(' ', special_ad_categories::text, dsa_beneficiary, dsa_payor) FROM campaign WHERE id = 1`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "{}" {
		t.Fatalf("after an import without them: %q, want {} and no DSA fields", got)
	}
}

// A campaign row's ad_account_id is stored; a row imported again without
// it keeps it (with what the engine learnt of it), one naming another
// account forgets the name, currency and time zone of the one before.
func TestLoadCampaignAdAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	file := func(account string) string {
		return `{"users": [{"id": 100, "email": "ana@example.com"}], "boosted_pages": [
			{"id": 1, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00"` + account + `},
			{"id": 2, "user_id": 100, "page_id": 5, "campaign_budget_value": "1.00"}]}`
	}
	read := func() string {
		t.Helper()
		var got string
		err := pool.QueryRow(ctx, `SELECT string_agg(concat_ws(' ', c.id, coalesce(c.ad_account_id, '-'),
				coalesce(c.ad_account_currency, '-'), coalesce(c.ad_account_timezone, '-')), '; ' ORDER BY c.id)
			FROM campaign AS c`).Scan(&got)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, step := range []struct{ account, want string }{
		{`, "ad_account_id": "act_1001"`, "1 act_1001 - -; 2 - - -"},
		{``, "1 act_1001 EUR Europe/Prague; 2 - - -"},
		{`, "ad_account_id": null`, "1 act_1001 EUR Europe/Prague; 2 - - -"},
		{`, "ad_account_id": "act_1001"`, "1 act_1001 EUR Europe/Prague; 2 - - -"},
		{`, "ad_account_id": "act_1002"`, "1 act_1002 - -; 2 - - -"},
	} {
		if err := dataset.Load(ctx, pool, strings.NewReader(file(step.account))); err != nil {
			t.Fatal(err)
		}
		// What the engine learns at the first boost.
		if _, err := pool.Exec(ctx, `UPDATE campaign SET ad_account_currency = 'EUR', ad_account_timezone = 'Europe/Prague'
			WHERE id = 1 AND ad_account_id = 'act_1001' AND ad_account_currency IS NULL AND $1`, step.account == ""); err != nil {
			t.Fatal(err)
		}
		if got := read(); got != step.want {
			t.Fatalf("after importing %q: %s, want %s", step.account, got, step.want)
		}
	}
}

// TestDemoCampaigns: the demo user has campaigns on several sources, some
// inactive, with history, and fifty posts with insights linked to them.
func TestDemoCampaigns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for range 2 {
		if err := dataset.LoadDemo(ctx, pool); err != nil {
			t.Fatal(err)
		}
	}
	var sources, inactive, created, posts, withInsights, linked, multi int
	err := pool.QueryRow(ctx, `SELECT
		(SELECT count(DISTINCT coalesce(page_id, network_b_id)) FROM campaign WHERE user_id = 100),
		(SELECT count(*) FROM campaign WHERE user_id = 100 AND NOT active),
		(SELECT count(*) FROM campaign_history h JOIN campaign c ON c.id = h.campaign_id WHERE c.user_id = 100 AND h.action = 'created'),
		(SELECT count(*) FROM boosted_post WHERE user_id = 100),
		(SELECT count(*) FROM boosted_post p JOIN boosted_post_insight i ON i.post_id = p.id WHERE p.user_id = 100 AND i.impressions > 0),
		(SELECT count(DISTINCT post_id) FROM boosted_post_campaign WHERE user_id = 100),
		(SELECT count(*) FROM (SELECT post_id FROM boosted_post_campaign GROUP BY post_id HAVING count(*) > 1) AS m)`).
		Scan(&sources, &inactive, &created, &posts, &withInsights, &linked, &multi)
	if err != nil {
		t.Fatal(err)
	}
	if sources < 2 || inactive == 0 || created != 6 || posts != 50 || withInsights != 50 || linked < 45 || multi == 0 {
		t.Fatalf("demo: %d sources, %d inactive campaigns, %d created entries, %d posts, %d with insights, %d linked, %d in several campaigns",
			sources, inactive, created, posts, withInsights, linked, multi)
	}
	// Two of the demo user's campaigns have rules, so the dashboard shows
	// some; those the sandbox boosts have none.
	var withRules string
	if err := pool.QueryRow(ctx, `SELECT string_agg(id::text, ',' ORDER BY id) FROM campaign WHERE user_id = 100 AND rules <> '{}'`).Scan(&withRules); err != nil {
		t.Fatal(err)
	}
	if withRules != "1005,1006" {
		t.Fatalf("demo campaigns with rules: %s, want 1005,1006", withRules)
	}
	// One active campaign targeting the EU names its own DSA beneficiary and
	// payor, and every city radius is one network_a takes.
	var dsa string
	err = pool.QueryRow(ctx, `SELECT string_agg(concat_ws(' | ', id, active, audience_targeting -> 'geo_locations' ->> 'countries',
		dsa_beneficiary, dsa_payor), '; ' ORDER BY id) FROM campaign WHERE dsa_beneficiary IS NOT NULL OR dsa_payor IS NOT NULL`).Scan(&dsa)
	if err != nil {
		t.Fatal(err)
	}
	if want := `1003 | t | ["CZ", "SK"] | Demo Studio Fitness s.r.o. | Demo Studio Holding a.s.`; dsa != want {
		t.Fatalf("demo campaigns with DSA fields: %s, want %s", dsa, want)
	}
	var badRadius int
	err = pool.QueryRow(ctx, `SELECT count(*)
		FROM campaign AS c
		CROSS JOIN LATERAL jsonb_array_elements(coalesce(c.audience_targeting -> 'geo_locations' -> 'cities', '[]')) AS city
		WHERE city ? 'radius' AND NOT CASE city ->> 'distance_unit'
			WHEN 'mile' THEN (city ->> 'radius')::int BETWEEN 10 AND 50
			WHEN 'kilometer' THEN (city ->> 'radius')::int BETWEEN 17 AND 80
			ELSE false END`).Scan(&badRadius)
	if err != nil || badRadius != 0 {
		t.Fatalf("%d demo cities with a radius network_a refuses (%v)", badRadius, err)
	}
}

// TestPostCountersRow checks that every post keeps one row of counters with
// its owner: an import that gives a post to another user moves its row and
// its counters along, a post recorded without its row is refused at
// commit, and a row cannot name another owner than its post's.
func TestPostCountersRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	// Bob's post 902 gets counters, then goes to Ana without any given.
	bob := `{"id": 902, "user_id": 101, "source_id": 801, "created": 1767225600}`
	counted := strings.Replace(campaignFile, bob, `{"id": 902, "user_id": 101, "source_id": 801, "created": 1767225600,
		"insights": {"impressions": 70, "reach": 60, "engagement": 5, "clicks": 3, "spend": "1.25", "conversions": 1}}`, 1)
	moved := strings.Replace(campaignFile, bob, `{"id": 902, "user_id": 100, "source_id": 456, "created": 1767225600}`, 1)
	for _, file := range []string{counted, moved} {
		if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	err := pool.QueryRow(ctx, `SELECT string_agg(concat_ws(',', post_id, user_id, impressions, spend), ';' ORDER BY post_id)
		FROM boosted_post_insight`).Scan(&got)
	if err != nil {
		t.Fatal(err)
	}
	if want := "900,100,1200,12.000;901,100,0,0.000;902,100,70,1.250"; got != want {
		t.Fatalf("counters after the move: %s, want %s", got, want)
	}

	_, err = pool.Exec(ctx, `INSERT INTO boosted_post (id, user_id, source_id, created) VALUES (903, 100, 456, now())`)
	if !refusedBy(err, "boosted_post_insight_fkey") {
		t.Fatalf("a post without its row of counters: %v, want boosted_post_insight_fkey refused", err)
	}
	_, err = pool.Exec(ctx, `UPDATE boosted_post_insight SET user_id = 101 WHERE post_id = 902`)
	if !refusedBy(err, "boosted_post_insight_post_fkey") {
		t.Fatalf("counters naming another owner than the post's: %v, want boosted_post_insight_post_fkey refused", err)
	}
}

// refusedBy tells whether err is PostgreSQL refusing a foreign key by name.
func refusedBy(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == pgerrcode.ForeignKeyViolation && pgErr.ConstraintName == constraint
}
