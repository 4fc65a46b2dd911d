package httpapi_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// derivedFixture is a catalogue of 240 presets over 6 agencies, with
// locations whose keys collide across kinds (a city and a region keyed "DE"
// beside the country DE), services and industries, and reviews.
const derivedFixture = `
INSERT INTO vertical (slug, label) VALUES ('fitness', 'Fitness'), ('food', 'Food'), ('pets', 'Pets');
INSERT INTO service (id, name) VALUES (1, 'Ads'), (2, 'Branding');
INSERT INTO industry (id, name) VALUES (1, 'Retail'), (2, 'Sport');
INSERT INTO agency (id, username, email) SELECT a, 'agency ' || a, 'a' || a || '@example.com' FROM generate_series(1, 6) AS a;
INSERT INTO agency_service (agency_id, service_id, agency_username)
SELECT v.a, v.s, a.username FROM (VALUES (1, 1), (1, 2), (2, 2)) AS v (a, s) JOIN agency AS a ON a.id = v.a;
INSERT INTO agency_industry (agency_id, industry_id, agency_username)
SELECT v.a, v.i, a.username FROM (VALUES (1, 2), (3, 1)) AS v (a, i) JOIN agency AS a ON a.id = v.a;
INSERT INTO app_user (id, email, agency_id) SELECT u, 'u' || u || '@example.com', CASE WHEN u = 1 THEN 2 END
FROM generate_series(1, 30) AS u;
INSERT INTO preset (id, agency_id, title, active, private, campaign_objective, vertical, price, original_price,
                    location_json, allowed_options)
SELECT g, 1 + g % 6, (ARRAY['Alpha', 'Beta', 'Gamma', 'Delta'])[1 + g % 4] || ' ' || (g * 7919) % 240,
       g % 9 <> 0, g % 11 = 0,
       (ARRAY['OUTCOME_LEADS', 'OUTCOME_SALES', 'OUTCOME_TRAFFIC'])[1 + g % 3],
       (ARRAY['fitness', 'food', 'fitness,pets', 'food,fitness', ''])[1 + g % 5],
       g % 50, g % 50 + 5,
       CASE g % 6
           WHEN 0 THEN '{}'
           WHEN 1 THEN '{"countries": ["DE"]}'
           WHEN 2 THEN '{"countries": ["US", "DE"], "cities": [{"key": "100", "name": "X"}]}'
           WHEN 3 THEN '{"cities": [{"key": "DE", "name": "Odd"}], "regions": [{"key": "R1"}]}'
           WHEN 4 THEN '{"countries": ["US"], "regions": [{"key": "DE"}, {"key": "R1"}]}'
           ELSE '{"countries": ["US", "US"], "cities": [{"key": "100"}, {"key": "101"}]}'
       END::jsonb,
       CASE WHEN g % 2 = 0 THEN '{location,advanced_settings}'::text[] ELSE '{location}' END
FROM generate_series(1, 240) AS g;
INSERT INTO review (preset_id, user_id, rating)
SELECT p, u, 1 + (p + u) % 5 FROM generate_series(1, 240) AS p, generate_series(1, 3 + p % 4) AS u;
`

// derivedFilters are the browse/count bodies that the derived data must
// answer exactly as the plain definition does.
var derivedFilters = []map[string]any{
	{},
	{"goal": "OUTCOME_LEADS"},
	{"vertical": "fitness"},
	{"vertical": "ss,p"},
	// A vertical within one slug, or within two (fitness and pets), whose
	// presets of both are taken once (PresetBrowseVerticalSlug).
	{"vertical": "o", "excluded_preset_id": 3},
	{"vertical": "e"},
	{"vertical": "%"},
	{"goal": "OUTCOME_SALES", "vertical": "food"},
	{"agency_id": 2},
	{"partner_id": 3},
	{"agency_id": 2, "partner_id": 2},
	{"agency_id": 2, "partner_id": 3},
	{"preset_name": "Gamma 1"},
	{"preset_name": "B"},
	{"preset_name": "Ga", "goal": "OUTCOME_SALES"},
	{"preset_name": "Alp", "agency_id": 2, "excluded_preset_id": 4},
	{"excluded_preset_id": 14},
	{"location": map[string]any{"value": "DE"}},
	{"location": map[string]any{"value": "DE", "type": "country"}},
	{"location": map[string]any{"value": "DE", "type": "city"}},
	{"location": map[string]any{"value": "DE", "type": "region"}},
	{"location": map[string]any{"value": "US"}, "excluded_preset_id": 14},
	{"location": map[string]any{"value": "100", "type": "city"}, "goal": "OUTCOME_TRAFFIC"},
	{"location": map[string]any{"value": "R1"}, "agency_id": 5, "vertical": "fit"},
	{"location": map[string]any{"value": "US"}, "goal": "OUTCOME_LEADS", "vertical": "fitness", "agency_id": 3,
		"partner_id": 3, "preset_name": "Alpha", "excluded_preset_id": 8},
	{"location": map[string]any{"value": "XX"}},
	// Every filter together, each of them the narrowest in turn: an agency
	// with a goal walks their pair's index (also when a location is given
	// whose tally is larger, and whatever the title prefix), a location
	// narrower than both walks its own (PresetBrowseLocationWalk).
	{"location": map[string]any{"value": "US"}, "goal": "OUTCOME_SALES", "agency_id": 2},
	{"location": map[string]any{"value": "US", "type": "country"}, "goal": "OUTCOME_SALES", "vertical": "food",
		"agency_id": 2, "partner_id": 2, "preset_name": "B", "excluded_preset_id": 38},
	{"location": map[string]any{"value": "DE", "type": "region"}, "goal": "OUTCOME_TRAFFIC", "partner_id": 5,
		"vertical": "fitness", "preset_name": "De"},
	{"location": map[string]any{"value": "101", "type": "city"}, "goal": "OUTCOME_LEADS", "agency_id": 6,
		"vertical": "fit", "preset_name": "Gamma 1"},
	{"location": map[string]any{"value": "XX"}, "goal": "OUTCOME_LEADS", "agency_id": 1},
	// A location no wider than the agency and the goal, with a dozen of
	// the pair's presets: its own walk (PresetBrowseAgencyGoalLocation).
	{"location": map[string]any{"value": "101", "type": "city"}, "goal": "OUTCOME_TRAFFIC", "agency_id": 6},
	{"location": map[string]any{"value": "R1"}, "goal": "OUTCOME_TRAFFIC", "agency_id": 5, "vertical": "pets"},
	{"goal": "OUTCOME_LEADS", "agency_id": 4, "preset_name": "Al"},
	{"goal": "OUTCOME_SALES", "partner_id": 3, "vertical": "food", "preset_name": "Beta", "excluded_preset_id": 8},
	{"goal": "OUTCOME_SALES", "agency_id": 1, "partner_id": 2},
	// A title prefix of up to four characters with a goal and/or a
	// vertical (counted from preset_prefix_tally), a longer one, and a
	// prefix within a location (its titles' byte-order range).
	{"preset_name": "Del", "vertical": "fitness"},
	{"preset_name": "G", "goal": "OUTCOME_LEADS", "vertical": "pets"},
	{"preset_name": "Gamma 2", "vertical": "food", "excluded_preset_id": 2},
	// A prefix with a vertical of two slugs (fitness and pets; each preset
	// once) or with a wildcard: PresetBrowseVerticalPrefixOrdered where
	// titles sort by code point.
	{"preset_name": "B", "vertical": "e", "excluded_preset_id": 7},
	{"preset_name": "Al", "vertical": "t"},
	{"preset_name": "%", "vertical": "fit"},
	{"preset_name": "A_p"},
	{"preset_name": "Be", "excluded_preset_id": 1},
	{"preset_name": "Beta 2", "excluded_preset_id": 1},
	{"preset_name": "B", "agency_id": 3, "vertical": "fit"},
	// An agency with a vertical and no goal or location: the agency's
	// ranges of the lists that hold the vertical (PresetBrowseAgencyVertical).
	{"agency_id": 2, "vertical": "fit"},
	{"partner_id": 3, "vertical": "food", "excluded_preset_id": 8},
	{"agency_id": 2, "partner_id": 3, "vertical": "fit"},
	{"agency_id": 1, "vertical": "s,f"},
	{"agency_id": 5, "vertical": "%"},
	{"agency_id": 4, "vertical": "e", "preset_name": "Al"},
	{"location": map[string]any{"value": "US"}, "preset_name": "Be"},
	{"location": map[string]any{"value": "DE", "type": "country"}, "preset_name": "Alpha 1", "excluded_preset_id": 25},
	{"location": map[string]any{"value": "R1"}, "preset_name": "%"},
	// A prefix late in the title order within a location: its range of the
	// location's titles, sorted (PresetBrowseLocationPrefix).
	{"location": map[string]any{"value": "US"}, "preset_name": "Ga", "excluded_preset_id": 14},
	{"location": map[string]any{"value": "DE"}, "preset_name": "G", "goal": "OUTCOME_LEADS", "vertical": "fit"},
	// A location with a goal and/or a vertical (preset_location_tally).
	{"location": map[string]any{"value": "US"}, "goal": "OUTCOME_SALES", "vertical": "fitness"},
	{"location": map[string]any{"value": "DE"}, "vertical": "pets"},
	{"location": map[string]any{"value": "100", "type": "city"}, "goal": "OUTCOME_LEADS"},
}

// plainBrowse is the definition of presets/browse written plainly: the
// visible presets passing every filter, the location by containment, by
// title then id, one page.
const plainBrowse = `
SELECT coalesce(array_agg(x.id ORDER BY x.title, x.id), '{}')
FROM (
    SELECT p.id, p.title
    FROM preset AS p
    WHERE p.active AND NOT p.private
      AND ($1::text IS NULL OR p.campaign_objective = $1)
      AND ($2::text IS NULL OR strpos(p.vertical, $2) > 0)
      AND ($3::bigint IS NULL OR p.agency_id = $3)
      AND ($4::bigint IS NULL OR p.agency_id = $4)
      AND ($5::text IS NULL OR left(p.title, length($5)) = $5)
      AND ($6::bigint IS NULL OR p.id <> $6)
      AND ($7::text IS NULL
           OR (coalesce($8, 'country') = 'country' AND p.location_json @> jsonb_build_object('countries', jsonb_build_array($7)))
           OR (coalesce($8, 'city') = 'city' AND p.location_json @> jsonb_build_object('cities', jsonb_build_array(jsonb_build_object('key', $7))))
           OR (coalesce($8, 'region') = 'region' AND p.location_json @> jsonb_build_object('regions', jsonb_build_array(jsonb_build_object('key', $7)))))
    ORDER BY p.title, p.id
    LIMIT $9 OFFSET $10
) AS x`

// plainArgs turns a filter body into plainBrowse's first eight parameters.
func plainArgs(f map[string]any) []any {
	text := func(k string) any {
		if v, ok := f[k].(string); ok {
			return v
		}
		return nil
	}
	id := func(k string) any {
		if v, ok := f[k].(int); ok {
			return int64(v)
		}
		return nil
	}
	var loc, typ any
	if l, ok := f["location"].(map[string]any); ok {
		loc = l["value"]
		if t, ok := l["type"]; ok {
			typ = t
		}
	}
	return []any{text("goal"), text("vertical"), id("agency_id"), id("partner_id"), text("preset_name"),
		id("excluded_preset_id"), loc, typ}
}

// checkDerived compares browse (three pages of 7), count and available, and
// the derived tables themselves, with the plain definitions.
func (e *env) checkDerived(step string) {
	e.t.Helper()
	e.checkDerivedTables(step)
	e.checkDerivedFilters(step)
	e.checkDerivedDeepPages(step)
	e.checkDerivedAvailable(step)
}

// checkDerivedTables compares the derived tables, row for row, and the
// location keys with their plain definitions.
func (e *env) checkDerivedTables(step string) {
	e.t.Helper()
	t := e.t
	ctx := t.Context()
	// The derived tables, row for row.
	for name, q := range map[string]string{
		"agency_object": `SELECT count(*) FROM agency_card AS c FULL JOIN agency_object AS o ON o.agency_id = c.id
			WHERE c.object IS DISTINCT FROM o.object::jsonb`,
		"preset_location": `SELECT count(*) FROM (
			(SELECT k.key, p.id, p.title, k.kinds, p.campaign_objective, p.vertical, p.agency_id
			 FROM preset AS p, location_keys(p.location_json) AS k
			 WHERE p.active AND NOT p.private
			 EXCEPT ALL SELECT key, preset_id, title, kinds, campaign_objective, vertical, agency_id FROM preset_location)
			UNION ALL
			(SELECT key, preset_id, title, kinds, campaign_objective, vertical, agency_id FROM preset_location
			 EXCEPT ALL SELECT k.key, p.id, p.title, k.kinds, p.campaign_objective, p.vertical, p.agency_id
			 FROM preset AS p, location_keys(p.location_json) AS k
			 WHERE p.active AND NOT p.private)) AS d`,
		"preset_location_tally": `SELECT count(*) FROM (SELECT key, kinds, campaign_objective, vertical, count(*) AS n
			FROM preset AS p, location_keys(p.location_json) AS k
			WHERE p.active AND NOT p.private GROUP BY 1, 2, 3, 4) AS a
			FULL JOIN (SELECT * FROM preset_location_tally WHERE presets > 0) AS t
			USING (key, kinds, campaign_objective, vertical)
			WHERE a.n IS DISTINCT FROM t.presets`,
		"preset_prefix_tally": `SELECT count(*) FROM (SELECT x.prefix, x.campaign_objective, x.vertical, count(*) AS n
			FROM (SELECT DISTINCT p.id, left(p.title, g) AS prefix, p.campaign_objective, p.vertical
				FROM preset AS p, generate_series(1, 4) AS g WHERE p.active AND NOT p.private) AS x
			GROUP BY 1, 2, 3) AS a
			FULL JOIN (SELECT * FROM preset_prefix_tally WHERE presets > 0) AS t
			USING (prefix, campaign_objective, vertical)
			WHERE a.n IS DISTINCT FROM t.presets`,
		"preset_tally": `SELECT count(*) FROM (SELECT campaign_objective, vertical, count(*) AS n FROM preset
			WHERE active AND NOT private GROUP BY 1, 2) AS a
			FULL JOIN (SELECT * FROM preset_tally WHERE presets > 0) AS t USING (campaign_objective, vertical)
			WHERE a.n IS DISTINCT FROM t.presets`,
		"preset_title_prefix": `SELECT count(*) FROM (
			(SELECT DISTINCT left(p.title, n), p.id, p.title, p.campaign_objective, p.vertical, p.agency_id
			 FROM preset AS p, generate_series(1, 3) AS n
			 WHERE p.active AND NOT p.private
			 EXCEPT ALL SELECT prefix, preset_id, title, campaign_objective, vertical, agency_id FROM preset_title_prefix)
			UNION ALL
			(SELECT prefix, preset_id, title, campaign_objective, vertical, agency_id FROM preset_title_prefix
			 EXCEPT ALL SELECT DISTINCT left(p.title, n), p.id, p.title, p.campaign_objective, p.vertical, p.agency_id
			 FROM preset AS p, generate_series(1, 3) AS n
			 WHERE p.active AND NOT p.private)) AS d`,
		// Each bucket counts the visible presets from its bound to the
		// next, the buckets are numbered 1, 2, ... in the order of their
		// bounds, and the bucket '' exists.
		"preset_title_bucket": `SELECT count(*) + (SELECT count(*) FROM (VALUES (1)) AS v (x)
			WHERE NOT EXISTS (SELECT 1 FROM preset_title_bucket WHERE lower = ''))
			FROM (SELECT b.presets, b.ordinal, b.n AS expected_ordinal,
				(SELECT count(*) FROM preset AS p WHERE p.active AND NOT p.private
				AND p.title >= b.lower AND (b.next IS NULL OR p.title < b.next)) AS n
				FROM (SELECT lower, presets, ordinal, lead(lower) OVER (ORDER BY lower) AS next,
					row_number() OVER (ORDER BY lower) AS n
					FROM preset_title_bucket) AS b) AS x
			WHERE x.presets <> x.n OR x.ordinal <> x.expected_ordinal`,
		// Each visible preset's slugs, once each, without empty ones.
		"preset_vertical": `SELECT count(*) FROM (
			(SELECT DISTINCT s, p.id, p.title FROM preset AS p, unnest(string_to_array(p.vertical, ',')) AS s
			 WHERE p.active AND NOT p.private AND s <> ''
			 EXCEPT ALL SELECT slug, preset_id, title FROM preset_vertical)
			UNION ALL
			(SELECT slug, preset_id, title FROM preset_vertical
			 EXCEPT ALL SELECT DISTINCT s, p.id, p.title FROM preset AS p, unnest(string_to_array(p.vertical, ',')) AS s
			 WHERE p.active AND NOT p.private AND s <> '')) AS d`,
		// Each location key's visible presets per title bucket and kinds,
		// each in the bucket of its title (the last bound not after it).
		"preset_location_bucket": `SELECT count(*) FROM (SELECT k.key, b.ordinal, k.kinds, count(*) AS n
			FROM preset AS p, location_keys(p.location_json) AS k, preset_title_bucket AS b
			WHERE p.active AND NOT p.private
			  AND b.lower = (SELECT max(m.lower) FROM preset_title_bucket AS m WHERE m.lower <= p.title)
			GROUP BY 1, 2, 3) AS a
			FULL JOIN (SELECT * FROM preset_location_bucket WHERE presets > 0) AS t USING (key, ordinal, kinds)
			WHERE a.n IS DISTINCT FROM t.presets`,
		// Each preset's stored card is the card its view makes (json has no
		// equality: its text is compared).
		"preset_card": `SELECT count(*) FROM (
			(SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card_source
			 EXCEPT ALL
			 SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card)
			UNION ALL
			(SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card
			 EXCEPT ALL
			 SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card_source)) AS d`,
		"preset_agency_tally": `SELECT count(*) FROM (SELECT agency_id, count(*) AS n FROM preset
			WHERE active AND NOT private GROUP BY 1) AS a
			FULL JOIN (SELECT * FROM preset_agency_tally WHERE presets > 0) AS t USING (agency_id)
			WHERE a.n IS DISTINCT FROM t.presets`,
	} {
		var bad int64
		if err := e.pool.QueryRow(ctx, q).Scan(&bad); err != nil {
			t.Fatalf("%s: %s: %v", step, name, err)
		}
		if bad != 0 {
			t.Errorf("%s: %s differs from its definition in %d rows", step, name, bad)
		}
	}
	// The location keys match the containment tests of the location filter.
	var bad int64
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM preset AS p, location_keys(p.location_json) AS k
		WHERE ((k.kinds & 1 <> 0) <> (p.location_json @> jsonb_build_object('countries', jsonb_build_array(k.key))))
		   OR ((k.kinds & 2 <> 0) <> (p.location_json @> jsonb_build_object('cities', jsonb_build_array(jsonb_build_object('key', k.key)))))
		   OR ((k.kinds & 4 <> 0) <> (p.location_json @> jsonb_build_object('regions', jsonb_build_array(jsonb_build_object('key', k.key)))))`).
		Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%s: location_keys disagrees with containment for %d keys (%v)", step, bad, err)
	}
}

// checkDerivedFilters compares browse (three pages of 7) and count under each
// of derivedFilters with the plain definition.
func (e *env) checkDerivedFilters(step string) {
	e.t.Helper()
	t := e.t
	ctx := t.Context()
	for _, f := range derivedFilters {
		name, _ := json.Marshal(f)
		args := plainArgs(f)
		for page := 1; page <= 3; page++ {
			e.checkDerivedBrowsePage(step, name, f, args, page)
		}
		var count int64
		e.post("/v1/presets/count", "", f).ok(&count)
		var want []int64
		if err := e.pool.QueryRow(ctx, plainBrowse, append(args, 100000, 0)...).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if count != int64(len(want)) {
			t.Errorf("%s: count %s = %d, want %d", step, name, count, len(want))
		}
	}
}

// checkDerivedBrowsePage compares one page of 7 of browse under filter f with
// the plain definition, and on the first page each card's rating and agency.
func (e *env) checkDerivedBrowsePage(step string, name []byte, f map[string]any, args []any, page int) {
	e.t.Helper()
	t := e.t
	ctx := t.Context()
	body := map[string]any{"page": page, "limit": 7}
	for k, v := range f {
		body[k] = v
	}
	var got []struct {
		ID     int64           `json:"id"`
		Rating int64           `json:"rating"`
		Agency json.RawMessage `json:"agency"`
	}
	e.post("/v1/presets/browse", "", body).ok(&got)
	var want []int64
	if err := e.pool.QueryRow(ctx, plainBrowse, append(args, 7, (page-1)*7)...).Scan(&want); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(got))
	for i, p := range got {
		ids[i] = p.ID
		if page > 1 {
			continue
		}
		// The rating and the agency of each card, from their plain definitions.
		var rating int64
		var agency []byte
		if err := e.pool.QueryRow(ctx, `SELECT coalesce(round(avg(r.rating)), 0)::bigint,
			(SELECT c.object FROM preset AS p JOIN agency_card AS c ON c.id = p.agency_id WHERE p.id = $1)
			FROM review AS r WHERE r.preset_id = $1`, p.ID).Scan(&rating, &agency); err != nil {
			t.Fatal(err)
		}
		if p.Rating != rating {
			t.Errorf("%s: browse %s: preset %d rating %d, want %d", step, name, p.ID, p.Rating, rating)
		}
		if !jsonEqual(p.Agency, agency) {
			t.Errorf("%s: browse %s: preset %d agency %s, want %s", step, name, p.ID, p.Agency, agency)
		}
	}
	if !reflect.DeepEqual(ids, append([]int64{}, want...)) {
		t.Errorf("%s: browse %s page %d = %v, want %v", step, name, page, ids, want)
	}
}

// deepFilters are the filters whose pages after the first are not cut from
// the start of one index: none (preset_title_bucket) and a location alone
// (preset_location_bucket), from the title buckets, each with and without
// an excluded preset, visible or not, in the location or not; and a
// vertical alone (preset_vertical), merged from its slugs; and an agency
// with a vertical, merged from the agency's ranges of the lists that hold
// it. With each "step" the pages compared.
var deepFilters = []struct {
	filter map[string]any
	step   int
}{
	{map[string]any{}, 2},
	{map[string]any{"excluded_preset_id": 14}, 2},
	{map[string]any{"excluded_preset_id": 115}, 2},
	{map[string]any{"excluded_preset_id": 9}, 2},
	{map[string]any{"excluded_preset_id": 999}, 2},
	{map[string]any{"location": map[string]any{"value": "US"}}, 2},
	{map[string]any{"location": map[string]any{"value": "US"}, "excluded_preset_id": 14}, 3},
	{map[string]any{"location": map[string]any{"value": "DE"}, "excluded_preset_id": 115}, 3},
	{map[string]any{"location": map[string]any{"value": "DE", "type": "country"}, "excluded_preset_id": 13}, 3},
	{map[string]any{"location": map[string]any{"value": "DE", "type": "region"}}, 3},
	{map[string]any{"location": map[string]any{"value": "100", "type": "city"}, "excluded_preset_id": 9}, 3},
	{map[string]any{"location": map[string]any{"value": "XX"}}, 3},
	{map[string]any{"vertical": "e", "excluded_preset_id": 14}, 3},
	{map[string]any{"vertical": "fitness"}, 3},
	{map[string]any{"agency_id": 2, "vertical": "f"}, 2},
	{map[string]any{"partner_id": 3, "vertical": "o", "excluded_preset_id": 14}, 3},
}

// checkDerivedDeepPages compares deep pages of the unfiltered browse and of
// a location alone with the plain definition, up to past the last page.
func (e *env) checkDerivedDeepPages(step string) {
	e.t.Helper()
	t := e.t
	ctx := t.Context()
	for _, d := range deepFilters {
		f := d.filter
		args := plainArgs(f)
		for _, limit := range []int{7, 50} {
			for page := 2; page <= 260/limit+1; page += d.step {
				body := map[string]any{"page": page, "limit": limit}
				for k, v := range f {
					body[k] = v
				}
				var got []struct {
					ID int64 `json:"id"`
				}
				e.post("/v1/presets/browse", "", body).ok(&got)
				var want []int64
				if err := e.pool.QueryRow(ctx, plainBrowse, append(args, limit, (page-1)*limit)...).Scan(&want); err != nil {
					t.Fatal(err)
				}
				ids := make([]int64, len(got))
				for i, p := range got {
					ids[i] = p.ID
				}
				if !reflect.DeepEqual(ids, append([]int64{}, want...)) {
					t.Errorf("%s: browse %v page %d of %d = %v, want %v", step, f, page, limit, ids, want)
				}
			}
		}
	}
}

// checkDerivedAvailable compares every page of 50 of user 1's available
// presets with the plain definition.
func (e *env) checkDerivedAvailable(step string) {
	e.t.Helper()
	t := e.t
	ctx := t.Context()
	// available: user 1 (agency 2), every page of 50.
	var want []int64
	if err := e.pool.QueryRow(ctx, `SELECT coalesce(array_agg(p.id ORDER BY p.title, p.id), '{}') FROM preset AS p
		WHERE p.active AND (NOT p.private OR p.agency_id = 2)`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	var got []int64
	for page := 1; ; page++ {
		var rows []struct {
			ID int64 `json:"id"`
		}
		e.get(fmt.Sprintf("/v1/presets/available?page=%d&limit=50", page), e.token(1)).ok(&rows)
		for _, r := range rows {
			got = append(got, r.ID)
		}
		if len(rows) < 50 {
			break
		}
	}
	if !reflect.DeepEqual(append([]int64{}, got...), append([]int64{}, want...)) {
		t.Errorf("%s: available = %v, want %v", step, got, want)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// TestCatalogueDerivedExact changes presets, reviews and agencies in every
// way the catalogue can change (insert, update of each filtered column,
// hide, show, delete, re-agency, upsert, services and industries, a renamed
// service, review submit and replace) and proves after each change that
// browse, count and available answer exactly what the plain definition
// does, and that every derived table equals its definition.
func TestCatalogueDerivedExact(t *testing.T) {
	e := newEnv(t)
	e.sqlExec(derivedFixture)
	// Buckets of about five presets, so that deep pages start in them.
	e.sqlExec(`SELECT preset_title_bucket_rebalance(5)`)
	e.checkDerived("loaded")

	for _, step := range []struct{ name, sql string }{
		{"titles", `UPDATE preset SET title = 'Gamma 1' || id WHERE id % 7 = 0`},
		{"equal titles", `UPDATE preset SET title = 'Beta 1' WHERE id % 10 = 3`},
		{"rebalanced", `SELECT preset_title_bucket_rebalance(3)`},
		{"titles before every bound", `UPDATE preset SET title = ' first ' || id WHERE id % 19 = 0`},
		{"locations", `UPDATE preset SET location_json = '{"countries": ["DE"], "regions": [{"key": "US"}]}' WHERE id % 5 = 1`},
		{"a key of two kinds", `UPDATE preset SET location_json = '{"countries": ["DE"], "regions": [{"key": "DE"}]}' WHERE id % 23 = 2`},
		{"hide", `UPDATE preset SET active = false WHERE id BETWEEN 20 AND 40`},
		{"make private", `UPDATE preset SET private = true WHERE id BETWEEN 41 AND 50`},
		{"show", `UPDATE preset SET active = true, private = false WHERE id BETWEEN 30 AND 45`},
		{"slugs repeated and empty", `UPDATE preset SET vertical = 'pets,,pets' WHERE id % 29 = 3`},
		{"objective and vertical", `UPDATE preset SET campaign_objective = 'OUTCOME_LEADS', vertical = 'pets,fitness' WHERE id % 13 = 0`},
		{"re-agency", `UPDATE preset SET agency_id = 3 WHERE agency_id = 2 AND id % 2 = 0`},
		{"purchases only", `UPDATE preset SET number_of_purchases = number_of_purchases + 1`},
		{"delete", `DELETE FROM preset WHERE id % 17 = 0`},
		{"insert", `INSERT INTO preset (id, agency_id, title, campaign_objective, vertical, price, original_price, location_json)
			SELECT g, 4, 'Alpha new ' || g, 'OUTCOME_SALES', 'food', 1, 2, '{"countries": ["US"], "cities": [{"key": "DE"}]}'
			FROM generate_series(300, 320) AS g`},
		{"upsert", `INSERT INTO preset (id, agency_id, title, campaign_objective, vertical, price, original_price, location_json)
			SELECT g, 5, 'Beta up ' || g, 'OUTCOME_TRAFFIC', 'fitness', 1, 2, '{"regions": [{"key": "R1"}]}'
			FROM generate_series(310, 330) AS g
			ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, agency_id = EXCLUDED.agency_id,
				location_json = EXCLUDED.location_json, private = NOT preset.private`},
		{"agency fields", `UPDATE agency SET username = 'renamed ' || id, description = 'new' WHERE id IN (1, 3)`},
		{"agency services", `DELETE FROM agency_service WHERE agency_id = 1 AND service_id = 2;
			INSERT INTO agency_service (agency_id, service_id, agency_username)
			SELECT v.a, v.s, a.username FROM (VALUES (3, 1), (4, 2)) AS v (a, s) JOIN agency AS a ON a.id = v.a;
			INSERT INTO agency_industry (agency_id, industry_id, agency_username) SELECT id, 2, username FROM agency WHERE id = 2;
			UPDATE agency_industry SET industry_id = 1 WHERE agency_id = 1`},
		{"renamed service", `UPDATE service SET name = 'Paid ads' WHERE id = 1; UPDATE industry SET name = 'Shops' WHERE id = 1`},
		{"deleted service", `DELETE FROM service WHERE id = 2`},
		{"new agency", `INSERT INTO agency (id, username) VALUES (7, 'seven');
			UPDATE preset SET agency_id = 7 WHERE id BETWEEN 60 AND 70`},
		{"reviews deleted", `DELETE FROM review WHERE user_id = 2`},
		{"reviews inserted", `INSERT INTO review (preset_id, user_id, rating)
			SELECT p, 25, 1 + p % 5 FROM generate_series(1, 230, 3) AS p WHERE p % 17 <> 0`},
		{"reviews re-rated", `UPDATE review SET rating = 6 - rating WHERE preset_id % 4 = 1`},
		{"reviews moved", `UPDATE review SET preset_id = preset_id + 1 WHERE user_id = 25 AND preset_id < 200
			AND preset_id + 1 IN (SELECT id FROM preset)`},
		{"conditions", `INSERT INTO boosting_condition (preset_id, keywords, reach)
			SELECT id, ARRAY['tag' || id], id % 100 FROM preset WHERE id % 3 = 0`},
		{"conditions changed", `UPDATE boosting_condition SET keywords = '{}', reach = 7 WHERE preset_id % 2 = 0`},
		{"conditions deleted", `DELETE FROM boosting_condition WHERE preset_id % 5 = 0`},
		{"vertical relabelled", `UPDATE vertical SET label = 'Pets and animals' WHERE slug = 'pets'`},
		{"vertical deleted", `DELETE FROM vertical WHERE slug = 'food'`},
		{"vertical added", `INSERT INTO vertical (slug, label) VALUES ('food', 'Food again')`},
		{"objective relabelled", `UPDATE campaign_objective SET label = 'Leads, relabelled' WHERE code = 'OUTCOME_LEADS'`},
		{"purchases", `UPDATE preset SET number_of_purchases = number_of_purchases + 2 WHERE id % 4 = 0`},
		{"cards in title order", `SELECT preset_card_reorder()`},
		{"after the reorder", `UPDATE preset SET title = 'Alpha again ' || id WHERE id % 11 = 0`},
	} {
		t.Log(step.name)
		e.sqlExec(step.sql)
		e.checkDerived(step.name)
	}

	// reviews/submit: a new review and a replaced one change the rating.
	for _, r := range []struct {
		user, preset, rating int
	}{{20, 1, 5}, {20, 1, 1}, {21, 2, 5}, {22, 2, 5}} {
		e.post("/v1/reviews/submit", e.token(int64(r.user)), map[string]any{"preset_id": r.preset, "rating": r.rating}).ok(&map[string]any{})
	}
	e.checkDerived("reviews submitted")

	// After a load with the triggers off, the rebuild makes every derived
	// table again from the base tables.
	e.sqlExec(`TRUNCATE preset_card, preset_location, preset_tally, preset_location_tally, preset_prefix_tally, preset_title_prefix,
		preset_location_bucket, preset_vertical`)
	e.sqlExec(`SELECT catalogue_derived_rebuild()`)
	e.checkDerived("rebuilt")
}

// plainSources is boosted-pages/sources written plainly (DISTINCT ON over
// every campaign of the user), as one JSON array.
const plainSources = `
SELECT coalesce(jsonb_agg(v.boosted_page ORDER BY v.id DESC), '[]')
FROM campaign_boosted_page AS v
WHERE v.user_id = $1
  AND v.id IN (
    SELECT DISTINCT ON (g.network, g.source_id) c.id
    FROM campaign AS c
    CROSS JOIN LATERAL (
        SELECT CASE WHEN $2 = 'network_b' OR c.page_id IS NULL THEN 'network_b' ELSE 'network_a' END AS network,
               CASE WHEN $2 = 'network_b' OR c.page_id IS NULL THEN c.network_b_id ELSE c.page_id END AS source_id
    ) AS g
    WHERE c.user_id = $1
      AND ($3 <> 'active' OR c.active)
      AND ($2 <> 'network_a' OR c.page_id IS NOT NULL)
      AND ($2 <> 'network_b' OR c.network_b_id IS NOT NULL)
    ORDER BY g.network, g.source_id, c.id DESC)`

// plainCampaignCount is boosted-pages/count written plainly.
const plainCampaignCount = `
SELECT count(*) FROM campaign AS c
WHERE c.user_id = $1
  AND ($3 <> 'active' OR c.active)
  AND ($2 <> 'network_a' OR c.page_id IS NOT NULL)
  AND ($2 <> 'network_b' OR c.network_b_id IS NOT NULL)
  AND ($4::bigint IS NULL OR c.page_id = $4 OR c.network_b_id = $4)
  AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM boosted_post_campaign AS l WHERE l.campaign_id = c.id AND l.post_id = $5))`

// TestBoostedPagesAnswersExact changes a user's campaigns, sources, post
// links and a preset's title, and proves after each change that
// boosted-pages/sources and count (kept per campaign version) answer what
// the plain definitions do.
func TestBoostedPagesAnswersExact(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	e.sqlExec(`WITH post AS (INSERT INTO boosted_post (id, user_id, source_id, created) VALUES (9001, 100, 456, now()) RETURNING user_id, id)
	           INSERT INTO boosted_post_insight (user_id, post_id) SELECT user_id, id FROM post`)
	ana := e.token(100)
	check := func(step string) {
		t.Helper()
		for _, platform := range []string{"all", "network_a", "network_b"} {
			for _, status := range []string{"all", "active"} {
				body := map[string]any{"platform": platform, "status": status}
				r := e.post("/v1/boosted-pages/sources", ana, body)
				var want []byte
				if err := e.pool.QueryRow(t.Context(), plainSources, 100, platform, status).Scan(&want); err != nil {
					t.Fatal(err)
				}
				if r.status != 200 || !jsonEqual(r.body, want) {
					t.Errorf("%s: sources %v = %s, want %s", step, body, r.body, want)
				}
				for _, f := range []struct{ source, post *int64 }{{}, {source: ptr(int64(456))}, {post: ptr(int64(9001))}} {
					body := map[string]any{"platform": platform, "status": status}
					if f.source != nil {
						body["source_id"] = *f.source
					}
					if f.post != nil {
						body["boosted_post_id"] = *f.post
					}
					var got, want int64
					e.post("/v1/boosted-pages/count", ana, body).ok(&got)
					if err := e.pool.QueryRow(t.Context(), plainCampaignCount, 100, platform, status, f.source, f.post).Scan(&want); err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s: count %v = %d, want %d", step, body, got, want)
					}
				}
			}
		}
	}
	check("loaded")
	for _, step := range []struct{ name, sql string }{
		{"new campaign", `INSERT INTO campaign (user_id, page_id, campaign_budget_value) VALUES (100, 456, 5)`},
		{"deactivated", `UPDATE campaign SET active = false WHERE user_id = 100 AND id = (SELECT max(id) FROM campaign WHERE user_id = 100)`},
		{"account campaign", `INSERT INTO campaign (user_id, network_b_id, campaign_budget_value) VALUES (100, 790, 5)`},
		{"deleted", `DELETE FROM campaign WHERE id = (SELECT min(id) FROM campaign WHERE user_id = 100)`},
		{"source renamed", `UPDATE source SET name = 'Renamed', picture = 'https://x.test/p.png' WHERE user_id = 100`},
		{"post linked", `INSERT INTO boosted_post_campaign (user_id, campaign_id, post_id)
			SELECT 100, id, 9001 FROM campaign WHERE user_id = 100 ORDER BY id LIMIT 2`},
		{"post unlinked", `DELETE FROM boosted_post_campaign WHERE post_id = 9001 AND campaign_id = (SELECT min(campaign_id) FROM boosted_post_campaign WHERE post_id = 9001)`},
		{"preset renamed", `UPDATE preset SET title = 'Renamed preset' WHERE id IN (SELECT preset_id FROM campaign WHERE user_id = 100)`},
		{"preset's other columns changed", `UPDATE preset SET number_of_purchases = number_of_purchases + 1`},
		{"preset deleted", `DELETE FROM preset WHERE id = (SELECT max(preset_id) FROM campaign WHERE user_id = 100)`},
		{"another user's campaign", `INSERT INTO campaign (user_id, page_id, campaign_budget_value) VALUES (101, 456, 5)`},
	} {
		e.sqlExec(step.sql)
		check(step.name)
	}
}

// Two transactions that write reviews of one preset at once leave its
// stored card with the rating of all the reviews: the second one's trigger
// waits for the first to commit and makes the card from what it committed
// (made from the second's own snapshot, the card would miss the first's
// twenty reviews: 3 instead of 4).
func TestPresetCardConcurrentReviews(t *testing.T) {
	e := newEnv(t)
	e.sqlExec(derivedFixture)
	ctx := t.Context()
	first, err := e.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback(ctx)
	if _, err := first.Exec(ctx, `INSERT INTO review (preset_id, user_id, rating)
		SELECT 7, u, 5 FROM generate_series(10, 29) AS u`); err != nil {
		t.Fatal(err)
	}
	second, err := e.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Release()
	var secondPID int
	if err := second.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&secondPID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := second.Exec(ctx, `INSERT INTO review (preset_id, user_id, rating) VALUES (7, 30, 1)`)
		done <- err
	}()
	// The second waits for a lock the first holds.
	for waiting := false; !waiting; {
		if err := e.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE pid = $1 AND wait_event_type = 'Lock')`, secondPID).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := e.sqlInt(`SELECT (body->>'rating')::int FROM preset_card WHERE id = 7`),
		e.sqlInt(`SELECT round(avg(rating))::int FROM review WHERE preset_id = 7`); got != want || want != 4 {
		t.Errorf("preset 7's card has rating %d, its reviews average %d (want 4)", got, want)
	}
}
