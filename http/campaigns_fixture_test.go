package httpapi_test

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"
	"time"
)

// campaignsFixture is told apart by the campaign tests: three users, presets
// of several agencies (public, private, inactive), sources (a page with a
// linked network_b account, a page alone, a network_b account of its own; the
// same page 456 is also managed by Bob), campaigns on every kind of source,
// active and not, and posts linked to them.
//
// Ana (100, agency 10) has campaigns
//
//	1: page 456 + account 789, active, preset 1      5: account 789 only, inactive, preset 1
//	2: page 456 + account 789, inactive, preset 2    6: page 999 (no source row), active, no preset
//	3: page 457, active, preset 3                    9: page 457, inactive, preset 1
//	4: account 790 (its own source), active
//
// Bob (101, agency 11) has 7 (his page 456) and 8 (page 800 + account 801).
const campaignUsers = `{
  "agencies": [
    {"id": 10, "username": "northwind", "email": "ads@northwind.example"},
    {"id": 11, "username": "bluepeak"},
    {"id": 12, "username": "cityhive", "email": "team@cityhive.example"}
  ],
  "users": [
    {"id": 100, "email": "ana@example.com", "agency_id": 10},
    {"id": 101, "email": "bob@example.com", "agency_id": 11},
    {"id": 102, "email": "cleo@example.com"}
  ]
}`

// campaignPresetsAndSources are written with SQL: the presets and sources
// sections of the import belong to other parts of the service.
const campaignPresetsAndSources = `
INSERT INTO preset (id, agency_id, title, active, private, campaign_objective, price, original_price) VALUES
    (1, 12, 'Gym launch', true, false, 'OUTCOME_TRAFFIC', 49, 59),
    (2, 11, 'Café buzz', true, false, 'OUTCOME_ENGAGEMENT', 29, 29),
    (3, 10, 'Northwind private', true, true, 'OUTCOME_SALES', 99, 99),
    (4, 12, 'Retired preset', false, false, 'OUTCOME_AWARENESS', 10, 10),
    (5, 12, 'Cityhive private', true, true, 'OUTCOME_LEADS', 10, 10);
INSERT INTO source (user_id, id, platform, name, picture, network_b_id, network_b_name, network_b_picture) VALUES
    (100, 456, 'network_a', 'Ana''s Gym', 'https://img.example/456.png', 789, 'anasgym', 'https://img.example/789.png'),
    (100, 457, 'network_a', 'Ana''s Café', 'https://img.example/457.png', NULL, '', ''),
    (100, 790, 'network_b', 'ana.travels', 'https://img.example/790.png', NULL, '', ''),
    (101, 456, 'network_a', 'Gym (Bob''s view)', 'https://img.example/456b.png', NULL, '', ''),
    (101, 800, 'network_a', 'Bob''s Bikes', 'https://img.example/800.png', 801, 'bobbikes', 'https://img.example/801.png');
`

const campaignRows = `{
  "boosted_pages": [
    {"id": 1, "user_id": 100, "page_id": 456, "network_b_id": 789, "preset_id": 1, "active": true,
     "campaign_budget_type": "daily", "campaign_budget_value": "20.00", "adset_budget_sharing_enabled": false,
     "campaign_bid_strategy_enabled": false, "campaign_bid_strategy": "LOWEST_COST_WITHOUT_CAP",
     "campaign_bid_amount": "0.00", "goal": "POST_ENGAGEMENT",
     "audience_targeting": {"geo_locations": {"countries": ["CZ"]}, "age_min": 18, "age_max": 35},
     "hashtag": "#gym", "end_date": "2026-12-31"},
    {"id": 2, "user_id": 100, "page_id": 456, "network_b_id": 789, "preset_id": 2, "active": false,
     "campaign_budget_type": "lifetime", "campaign_budget_value": "150.5", "adset_budget_sharing_enabled": true,
     "campaign_bid_strategy_enabled": true, "campaign_bid_strategy": "COST_CAP", "campaign_bid_amount": "0.45",
     "goal": "LINK_CLICKS", "audience_targeting": {"genders": [2]}, "hashtag": "#brunch"},
    {"id": 3, "user_id": 100, "page_id": 457, "preset_id": 3, "campaign_budget_value": "10.00", "goal": "REACH"},
    {"id": 4, "user_id": 100, "network_b_id": 790, "campaign_budget_value": "8.00", "goal": "BRAND_AWARENESS"},
    {"id": 5, "user_id": 100, "network_b_id": 789, "preset_id": 1, "active": false, "campaign_budget_value": "5.00"},
    {"id": 6, "user_id": 100, "page_id": 999, "campaign_budget_value": "12.00", "goal": "VIDEO_VIEWS"},
    {"id": 9, "user_id": 100, "page_id": 457, "preset_id": 1, "active": false, "campaign_budget_value": "9.00"},
    {"id": 7, "user_id": 101, "page_id": 456, "preset_id": 1, "campaign_budget_value": "30.00"},
    {"id": 8, "user_id": 101, "page_id": 800, "network_b_id": 801, "preset_id": 2, "campaign_budget_value": "40.00"}
  ],
  "boosted_posts": [
    {"id": 900, "boosted_page_ids": [1, 2], "name": "New classes", "created": 1767225600,
     "insights": {"impressions": 1200, "reach": 1000, "engagement": 80, "clicks": 40, "spend": "12.00", "conversions": 4}},
    {"id": 901, "boosted_page_ids": [2], "name": "Brunch menu", "created": 1767312000,
     "insights": {"impressions": 800, "reach": 650, "engagement": 35, "clicks": 17, "spend": "7.35", "conversions": 1}},
    {"id": 902, "boosted_page_ids": [4], "name": "Travel reel", "created": 1767398400},
    {"id": 903, "boosted_page_ids": [3], "name": "No clicks", "created": 1767484800,
     "insights": {"impressions": 500, "reach": 400, "engagement": 10, "clicks": 0, "spend": "2.50", "conversions": 0}},
    {"id": 904, "user_id": 100, "source_id": 457, "name": "Tiny", "created": 1767571200,
     "insights": {"impressions": 3, "reach": 3, "engagement": 1, "clicks": 2, "spend": "0.25", "conversions": 2}},
    {"id": 950, "boosted_page_ids": [7], "name": "Bob's post", "created": 1767225600,
     "insights": {"impressions": 100000, "reach": 90000, "engagement": 5000, "clicks": 3000, "spend": "999.99", "conversions": 300}}
  ]
}`

// noRules is the rules object of a campaign without rules: every rule,
// null.
var noRules = map[string]any{
	"min_reactions": nil, "min_comments": nil, "min_shares": nil, "min_engagement_rate": nil,
	"post_age_min_hours": nil, "post_age_max_hours": nil, "content_types": nil, "exclude_keywords": nil,
	"hours": nil, "post_budget": nil, "post_days": nil, "max_posts_per_day": nil, "spend_cap": nil,
}

// loadCampaigns loads campaignsFixture into the test's database.
func (e *env) loadCampaigns() {
	e.t.Helper()
	e.load(campaignUsers)
	e.sqlExec(campaignPresetsAndSources)
	e.load(campaignRows)
}

// sqlExec runs SQL of a fixture.
func (e *env) sqlExec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatalf("fixture SQL: %v", err)
	}
}

// sqlInt answers one integer from SQL.
func (e *env) sqlInt(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		e.t.Fatalf("count: %v", err)
	}
	return n
}

// geoFixtures replaces the geographic data of the test's database with a
// small world of real places (ISO 3166 codes, GeoNames ids and populations),
// so that the tests do not depend on the data set a deployment loads.
const geoFixtures = `
DELETE FROM geo_city;
DELETE FROM geo_region;
DELETE FROM geo_country;
INSERT INTO geo_country (code, name) VALUES
    ('AT', 'Austria'), ('BR', 'Brazil'), ('CH', 'Switzerland'), ('CV', 'Cabo Verde'), ('CZ', 'Czechia'),
    ('DE', 'Germany'), ('GE', 'Georgia'), ('SK', 'Slovakia'), ('ST', 'Sao Tome and Principe'),
    ('US', 'United States');
INSERT INTO geo_region (key, country_code, name) VALUES
    ('CZ-10', 'CZ', 'Hlavní město Praha'), ('CZ-20', 'CZ', 'Středočeský kraj'),
    ('CZ-64', 'CZ', 'Jihomoravský kraj'), ('CZ-80', 'CZ', 'Moravskoslezský kraj'),
    ('CH-ZH', 'CH', 'Zürich'), ('CH-ZG', 'CH', 'Zug'), ('BR-SP', 'BR', 'São Paulo'), ('BR-MA', 'BR', 'Maranhão'),
    ('DE-BY', 'DE', 'Bayern');
INSERT INTO geo_city (id, country_code, region_key, region_name, name, population) VALUES
    (3067696, 'CZ', 'CZ-10', 'Hlavní město Praha', 'Prague', 1165581),
    (3078610, 'CZ', 'CZ-64', 'Jihomoravský kraj', 'Brno', 369559),
    (3068799, 'CZ', 'CZ-80', 'Moravskoslezský kraj', 'Ostrava', 313088),
    (3374333, 'CV', NULL, 'Praia', 'Praia', 113364),
    (2657896, 'CH', 'CH-ZH', 'Zürich', 'Zürich', 341730),
    (2657908, 'CH', 'CH-ZG', 'Zug', 'Zug', 23435),
    (610864, 'GE', NULL, 'Samegrelo and Zemo Svaneti', 'Zugdidi', 42998),
    (3448439, 'BR', 'BR-SP', 'São Paulo', 'São Paulo', 10021295),
    (3388368, 'BR', 'BR-MA', 'Maranhão', 'São Luís', 1014837),
    (2410763, 'ST', NULL, 'Água Grande', 'São Tomé', 53300),
    (2867714, 'DE', 'DE-BY', 'Bayern', 'Munich', 1260391);
`

// daysFromToday is a date days from today (UTC).
func daysFromToday(days int) string {
	return time.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly)
}

// requireJSON compares a JSON document with an expected value written as Go.
func requireJSON(t *testing.T, what string, got json.RawMessage, want any) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v in %s", what, err, got)
	}
	raw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	dropEngineSince(t, what, g, w)
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s =\n  %s\nwant\n  %s", what, got, raw)
	}
}

// engineTime is how the engine object writes its times.
var engineTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

// dropEngineSince leaves out of got the `since` of a BoostedPage's engine
// object (the time its state began, which moves with every run) when want's
// engine object names none, after checking that it is a time.
func dropEngineSince(t *testing.T, what string, got, want any) {
	t.Helper()
	g, ok1 := got.(map[string]any)
	w, ok2 := want.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	ge, ok1 := g["engine"].(map[string]any)
	we, ok2 := w["engine"].(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	if _, named := we["since"]; named {
		return
	}
	if since, _ := ge["since"].(string); !engineTime.MatchString(since) {
		t.Fatalf("%s: engine.since %v is not a time", what, ge["since"])
	}
	delete(ge, "since")
}
