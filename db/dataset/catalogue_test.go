package dataset_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"adboost/db/dataset"
	"adboost/db/dbtest"
)

const catalogueFile = `{
  "agencies": [{"id": 10, "username": "northwind"}],
  "users": [{"id": 100, "email": "ana@example.com", "agency_id": 10}, {"id": 101, "email": "bob@example.com"}],
  "presets": [
    {"id": 1, "agency_id": 10, "title": "Gym launch", "image": "/img/gym.png", "active": true, "private": false,
     "campaign_objective": "OUTCOME_TRAFFIC", "vertical": "fitness,health", "price": "49.00", "original_price": "59.00",
     "version": 3, "platform": "network_b", "audience_targeting": "Adults", "description": "..",
     "location_json": {"countries": ["CZ"], "regions": [{"key": "CZ-10", "name": "Prague"}],
                       "cities": [{"key": "2643743", "name": "London", "region": "England", "country": "GB"}]},
     "allowed_options": ["location", "age", "advanced_settings"],
     "boosting_condition": {"keywords": ["gym", "fitness"], "reach": 20},
     "agency_id": 10, "number_of_purchases": 3},
    {"id": 2, "agency_id": 10, "title": "Defaults", "image": "", "campaign_objective": "REACH", "price": "5"}
  ],
  "reviews": [
    {"id": 1, "preset_id": 1, "user_id": 100, "rating": 5, "message": "Great", "created_at": "2026-01-02 10:00:00"},
    {"id": 2, "preset_id": 1, "user_id": 101, "rating": 4}
  ]
}`

func TestLoadCatalogue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for range 2 { // the second load updates the same rows
		if err := dataset.Load(ctx, pool, strings.NewReader(catalogueFile)); err != nil {
			t.Fatal(err)
		}
	}

	var (
		presets, conditions, reviews            int
		image, platform, price, original, loc   string
		active, private                         bool
		version, purchases, reach               int
		keywords, options                       []string
		image2, platform2, original2, location2 *string
		active2                                 bool
		version2                                int
		created                                 time.Time
	)
	err := pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM preset), (SELECT count(*) FROM boosting_condition), (SELECT count(*) FROM review),
		p.image, p.platform, p.price::text, p.original_price::text, p.location_json -> 'cities' -> 0 ->> 'key',
		p.active, p.private, p.version, p.number_of_purchases, c.reach, c.keywords, p.allowed_options,
		d.image, d.platform, d.original_price::text, d.location_json::text, d.active, d.version,
		(SELECT created_at FROM review WHERE id = 1)
		FROM preset AS p JOIN boosting_condition AS c ON c.preset_id = p.id, preset AS d
		WHERE p.id = 1 AND d.id = 2`).Scan(&presets, &conditions, &reviews, &image, &platform, &price, &original, &loc,
		&active, &private, &version, &purchases, &reach, &keywords, &options,
		&image2, &platform2, &original2, &location2, &active2, &version2, &created)
	if err != nil {
		t.Fatal(err)
	}
	if presets != 2 || conditions != 1 || reviews != 2 {
		t.Fatalf("%d presets, %d conditions, %d reviews; want 2, 1, 2", presets, conditions, reviews)
	}
	if image != "/img/gym.png" || platform != "network_b" || price != "49.00" || original != "59.00" || loc != "2643743" ||
		!active || private || version != 3 || purchases != 3 || reach != 20 ||
		strings.Join(keywords, ",") != "gym,fitness" || strings.Join(options, ",") != "location,age,advanced_settings" {
		t.Fatalf("preset 1 stored as %v %v %v %v %v %v %v %v %v %v %v %v", image, platform, price, original, loc,
			active, private, version, purchases, reach, keywords, options)
	}
	// Defaults: no image, platform all, original price = price, no
	// location, active, version 1.
	if image2 != nil || *platform2 != "all" || *original2 != "5.00" || *location2 != "{}" || !active2 || version2 != 1 {
		t.Fatalf("preset 2 stored as %v %v %v %v %v %v", image2, *platform2, *original2, *location2, active2, version2)
	}
	if !created.Equal(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("review 1 created_at = %v, want 2026-01-02 10:00:00 UTC", created)
	}

	// A preset loaded without its condition loses it.
	if err := dataset.Load(ctx, pool, strings.NewReader(`{"presets": [
		{"id": 1, "agency_id": 10, "title": "Gym launch", "campaign_objective": "OUTCOME_TRAFFIC", "price": "1"}]}`)); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM boosting_condition").Scan(&conditions); err != nil || conditions != 0 {
		t.Fatalf("%d conditions after re-import without one (%v)", conditions, err)
	}
}

func TestLoadCatalogueRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	preset := func(fields string) string {
		return `{"agencies": [{"id": 10, "username": "a"}], "presets": [
			{"id": 1, "agency_id": 10, "title": "ok", "campaign_objective": "REACH", "price": "1"},
			{"id": 2, "agency_id": 10, "title": "t", "campaign_objective": "REACH", "price": "1", ` + fields + `}]}`
	}
	review := func(fields string) string {
		return `{"agencies": [{"id": 10, "username": "a"}], "users": [{"id": 100, "email": "a@example.com"}],
			"presets": [{"id": 1, "agency_id": 10, "title": "ok", "campaign_objective": "REACH", "price": "1"}],
			"reviews": [{"id": 1, "preset_id": 1, "user_id": 100, "rating": 5},
			            {"id": 2, ` + fields + `}]}`
	}
	for _, tc := range []struct{ name, file, want string }{
		{"bad price", preset(`"price": "1.234"`), "presets[1].price"},
		{"price as a number", preset(`"price": 1`), "presets[1].price"},
		{"bad original price", preset(`"original_price": "-1"`), "presets[1].original_price"},
		{"no agency", preset(`"agency_id": 0`), "presets[1].agency_id"},
		{"unknown agency", preset(`"agency_id": 99`), "presets[1].agency_id"},
		{"unknown objective", preset(`"campaign_objective": "NOPE"`), "presets[1].campaign_objective"},
		{"empty title", preset(`"title": ""`), "presets[1].title"},
		{"unknown platform", preset(`"platform": "network_c"`), "presets[1].platform"},
		{"unknown option", preset(`"allowed_options": ["location", "colour"]`), "presets[1].allowed_options"},
		{"location not an object", preset(`"location_json": ["CZ"]`), "presets[1].location_json"},
		{"location country not a string", preset(`"location_json": {"countries": [1]}`), "presets[1].location_json"},
		{"location city without key", preset(`"location_json": {"cities": [{"name": "Prague"}]}`), "presets[1].location_json"},
		{"condition without reach", preset(`"boosting_condition": {"keywords": ["a"]}`), "presets[1].boosting_condition.reach"},
		{"condition reach out of range", preset(`"boosting_condition": {"reach": 101}`), "presets[1].boosting_condition.reach"},
		{"rules time zone", preset(`"boosting_condition": {"reach": 10, "rules": {"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "Mars/Olympus"}}}`),
			`presets[1].boosting_condition.rules.hours.timezone: must be an IANA time zone name such as "Europe/Prague", not "Mars/Olympus"`},
		{"rules post_budget alone", preset(`"boosting_condition": {"reach": 10, "rules": {"post_budget": "5.00"}}`), "presets[1].boosting_condition.rules.post_days: is required with post_budget"},
		{"rules post_days 91", preset(`"boosting_condition": {"reach": 10, "rules": {"post_budget": "5.00", "post_days": 91}}`), "presets[1].boosting_condition.rules.post_days: must be from 1 to 90"},
		{"rules post age", preset(`"boosting_condition": {"reach": 10, "rules": {"post_age_max_hours": 169}}`), "presets[1].boosting_condition.rules.post_age_max_hours: must be at most 168"},
		{"rules unknown key", preset(`"boosting_condition": {"reach": 10, "rules": {"min_likes": 1}}`), "presets[1].boosting_condition.rules.min_likes: is not a known rule"},
		{"rules an array", preset(`"boosting_condition": {"reach": 10, "rules": []}`), "presets[1].boosting_condition.rules: must be an object"},
		{"rules a wrong type", preset(`"boosting_condition": {"reach": 10, "rules": {"content_types": "photo"}}`), "presets[1].boosting_condition.rules.content_types: must be an array"},
		{"unknown field", preset(`"colour": "red"`), `presets[1]: json: unknown field "colour"`},
		{"rating out of range", review(`"preset_id": 1, "user_id": 100, "rating": 6`), "reviews[1].rating"},
		{"bad created_at", review(`"preset_id": 1, "user_id": 100, "rating": 5, "created_at": "2026-01-02T10:00:00Z"`), "reviews[1].created_at"},
		{"unknown preset", review(`"preset_id": 9, "user_id": 100, "rating": 5`), "reviews[1].preset_id"},
		{"second review of the same user", review(`"preset_id": 1, "user_id": 100, "rating": 3`), "reviews[1]"},
		{"message too long", review(`"preset_id": 1, "user_id": 100, "rating": 3, "message": "` + strings.Repeat("x", 2001) + `"`), "reviews[1].message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := dataset.Load(ctx, pool, strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM preset) + (SELECT count(*) FROM review)
		+ (SELECT count(*) FROM agency)`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d rows written by failed imports (%v); want none", rows, err)
	}
}

// A preset's default rules are stored in the form the service writes; a
// preset loaded again without rules has none. ENGINE_POST_MAX_AGE
// (Options.PostMaxAge) bounds their post ages.
func TestLoadPresetRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	file := func(rules string) string {
		return `{"agencies": [{"id": 10, "username": "a"}], "presets": [{"id": 1, "agency_id": 10, "title": "t",
			"campaign_objective": "REACH", "price": "1", "boosting_condition": {"reach": 5` + rules + `}}]}`
	}
	stored := func() string {
		t.Helper()
		var r string
		if err := pool.QueryRow(ctx, "SELECT rules::text FROM boosting_condition WHERE preset_id = 1").Scan(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	err := dataset.Load(ctx, pool, strings.NewReader(file(`, "rules": {"min_comments": "4", "spend_cap": 20,
		"hours": {"days": ["sat"], "from": "10:00", "to": "12:30", "timezone": "Europe/London"}, "min_shares": null}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hours": {"to": "12:30", "days": ["sat"], "from": "10:00", "timezone": "Europe/London"}, "spend_cap": "20.00", "min_comments": 4}`
	if got := stored(); got != want {
		t.Fatalf("stored rules %s, want %s", got, want)
	}
	if err := dataset.Load(ctx, pool, strings.NewReader(file(``))); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got != `{}` {
		t.Fatalf("rules after a load without them = %s, want {}", got)
	}
	long := file(`, "rules": {"post_age_max_hours": 500}`)
	if err := dataset.Load(ctx, pool, strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "presets[0].boosting_condition.rules.post_age_max_hours") {
		t.Fatalf("post age 500 with the default ENGINE_POST_MAX_AGE: %v", err)
	}
	if err := (dataset.Options{PostMaxAge: 720 * time.Hour}).Load(ctx, pool, strings.NewReader(long)); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got != `{"post_age_max_hours": 500}` {
		t.Fatalf("stored rules %s", got)
	}
}

func TestDemoCatalogue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for range 2 {
		if err := dataset.LoadDemo(ctx, pool); err != nil {
			t.Fatal(err)
		}
	}
	var presets, agencies, objectives, verticals, countries, private, inactive, reviewed, ownPrivate int
	err := pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT agency_id), count(DISTINCT campaign_objective),
		(SELECT count(DISTINCT v) FROM preset, unnest(string_to_array(vertical, ',')) AS v),
		(SELECT count(DISTINCT c) FROM preset, jsonb_array_elements_text(location_json -> 'countries') AS c),
		count(*) FILTER (WHERE private), count(*) FILTER (WHERE NOT active),
		(SELECT count(DISTINCT preset_id) FROM review),
		count(*) FILTER (WHERE private AND active AND agency_id = 20)
		FROM preset`).Scan(&presets, &agencies, &objectives, &verticals, &countries, &private, &inactive, &reviewed, &ownPrivate)
	if err != nil {
		t.Fatal(err)
	}
	if presets < 30 || agencies < 5 || objectives < 6 || verticals < 8 || countries < 5 ||
		private < 2 || inactive < 2 || reviewed < 10 || ownPrivate < 1 {
		t.Fatalf("demo catalogue: %d presets, %d agencies, %d objectives, %d verticals, %d countries, %d private, "+
			"%d inactive, %d reviewed, %d private active of the demo agency", presets, agencies, objectives,
			verticals, countries, private, inactive, reviewed, ownPrivate)
	}
}

// Some demo presets have default rules, every rule set by one of them at
// least; presets 1 and 3, which the sandbox's walkthrough boosts with, have
// none.
func TestDemoPresetRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		t.Fatal(err)
	}
	var presets, rules string
	err := pool.QueryRow(ctx, `SELECT
		(SELECT string_agg(preset_id::text, ',' ORDER BY preset_id) FROM boosting_condition WHERE rules <> '{}'),
		(SELECT string_agg(DISTINCT k, ',' ORDER BY k) FROM boosting_condition, jsonb_object_keys(rules) AS k)`).Scan(&presets, &rules)
	if err != nil {
		t.Fatal(err)
	}
	if presets != "8,10,20,23,34" {
		t.Fatalf("demo presets with rules: %s", presets)
	}
	if want := "content_types,exclude_keywords,hours,max_posts_per_day,min_comments,min_engagement_rate,min_reactions," +
		"min_shares,post_age_max_hours,post_age_min_hours,post_budget,post_days,spend_cap"; rules != want {
		t.Fatalf("rules of the demo presets: %s, want %s", rules, want)
	}
}

// An import that leaves a title bucket of presets/browse's deep pages with
// more than 4,000 visible presets draws the buckets again (1,000 each); a
// smaller one leaves them as they are.
func TestLoadRebalancesSkewedTitleBuckets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	presets := func(from, to int) string {
		var b strings.Builder
		b.WriteString(`{"agencies": [{"id": 10, "username": "a"}], "presets": [`)
		for i := from; i <= to; i++ {
			if i > from {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id": %d, "agency_id": 10, "title": "T%05d", "campaign_objective": "OUTCOME_TRAFFIC", "price": "1"}`, i, i)
		}
		b.WriteString("]}")
		return b.String()
	}
	buckets := func() (n, largest int) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT count(*), coalesce(max(presets), 0) FROM preset_title_bucket`).Scan(&n, &largest); err != nil {
			t.Fatal(err)
		}
		return n, largest
	}
	if err := dataset.Load(ctx, pool, strings.NewReader(presets(1, 4000))); err != nil {
		t.Fatal(err)
	}
	if n, largest := buckets(); n != 1 || largest != 4000 {
		t.Fatalf("after 4,000 presets: %d buckets, largest %d; want the one bucket of 4,000", n, largest)
	}
	if err := dataset.Load(ctx, pool, strings.NewReader(presets(4001, 4500))); err != nil {
		t.Fatal(err)
	}
	// The bound '' (empty) and the title of every 1,000th preset.
	if n, largest := buckets(); n != 6 || largest != 1000 {
		t.Fatalf("after 4,500 presets: %d buckets, largest %d; want 6 of at most 1,000", n, largest)
	}
}
