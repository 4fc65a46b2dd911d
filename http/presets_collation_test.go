package httpapi_test

import (
	"fmt"
	"slices"
	"testing"

	"adboost/db"
	"adboost/db/dbtest"
)

// collationPresets are presets whose titles sort differently by code point
// and by language: upper and lower case, accents, LIKE's wildcards, digits,
// the last code point (alone too), in the United States (most), Germany, or hidden,
// of one vertical or two (fitness,food).
const collationPresets = `
INSERT INTO agency (id, username, email) VALUES (1, 'agency', 'a@example.com'), (2, 'other', 'o@example.com');
INSERT INTO preset (id, agency_id, title, active, private, campaign_objective, vertical, price, original_price, location_json)
SELECT g, 1 + g % 3 / 2,
       (ARRAY['S', 'Sa', 'sa', 'SB', 'Sb', 'Sé', 'Sê', 'Sz', 'S%', 'S_', 'S a', 'Šk', 'S' || chr(1114111), chr(1114111), 'T', 'R', 'é', 'É',
              'Sa1', 'Sa10', 'Sa2', 'sZ'])[1 + g % 22] || CASE WHEN g % 5 = 0 THEN '' ELSE ' ' || g % 7 END,
       g % 13 <> 0, g % 17 = 0,
       (ARRAY['OUTCOME_LEADS', 'OUTCOME_SALES'])[1 + g % 2], (ARRAY['fitness', 'food', 'fitness,food', 'pets', 'fitness'])[1 + g % 5],
       10, 20,
       CASE WHEN g % 9 = 0 THEN '{"countries": ["DE"]}' ELSE '{"countries": ["US"]}' END::jsonb
FROM generate_series(1, 1200) AS g;
`

// TestPresetBrowseLocationPrefixCollations: a location, or a vertical, with
// a title prefix answers, page after page, exactly the visible presets of the
// location (or whose slug list contains the vertical) whose title starts with
// the prefix (literally), in title order then id, in a database that sorts
// titles by code point (C, C.UTF-8: read as one range of the location's, or
// of each slug's, title order) and in one that does not (ICU's English: read
// as the prefix's range sorted, or the location's or the prefix's walk). The
// expected pages come from the preset table itself.
func TestPresetBrowseLocationPrefixCollations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		collation dbtest.Collation
		bytewise  bool
	}{
		{dbtest.Collation{Provider: "libc", Locale: "C"}, true},
		{dbtest.Collation{Provider: "libc", Locale: "C.UTF-8"}, true},
		{dbtest.Collation{Provider: "icu", Locale: "en-US"}, false},
	} {
		t.Run(tc.collation.Provider+" "+tc.collation.Locale, func(t *testing.T) {
			t.Parallel()
			pool := dbtest.NewPool(t, dbtest.NewCollatedURL(t, tc.collation))
			bytewise, err := db.New(pool).CatalogueTitlesBytewise(t.Context())
			if err != nil || bytewise != tc.bytewise {
				t.Fatalf("CatalogueTitlesBytewise = %v, %v; want %v", bytewise, err, tc.bytewise)
			}
			e := newEnvOver(t, pool)
			e.exec(collationPresets)
			for _, prefix := range []string{"S", "Sa", "Sa1", "Sé", "S%", "S_", "s", "É", "S\U0010FFFF", "\U0010FFFF", "Sz", "Q", "S a"} {
				for _, goal := range []string{"", "OUTCOME_SALES"} {
					checkPrefixPages(t, e, prefixCase{prefix: prefix, goal: goal, us: true})
				}
				// With an agency: the pair's entries of the location from
				// the prefix's first (PresetBrowseLocationWalk).
				checkPrefixPages(t, e, prefixCase{prefix: prefix, us: true, agency: 1})
				checkPrefixPages(t, e, prefixCase{prefix: prefix, us: true, agency: 2, vertical: "oo"})
				// An agency without a location: the agency's titles from the
				// prefix's first (PresetBrowseAgencyWalk), with a goal the
				// pair's (PresetBrowseAgencyGoal).
				checkPrefixPages(t, e, prefixCase{prefix: prefix, agency: 1})
				checkPrefixPages(t, e, prefixCase{prefix: prefix, agency: 2, vertical: "fit"})
				checkPrefixPages(t, e, prefixCase{prefix: prefix, agency: 1, goal: "OUTCOME_LEADS"})
				// A vertical of one slug, of two (fitness and its list with
				// food, each preset once), and one that matches nothing.
				for _, vertical := range []string{"fitness", "oo", "t", "zz"} {
					checkPrefixPages(t, e, prefixCase{prefix: prefix, vertical: vertical})
				}
			}
		})
	}
}

// prefixCase is a browse body of checkPrefixPages: a title prefix, in the
// United States (us) or not, with a goal and a vertical when not "".
type prefixCase struct {
	prefix, goal, vertical string
	us                     bool
	agency                 int // the agency_id filter, or 0
}

// body answers the browse body of the case for page.
func (c prefixCase) body(page int) map[string]any {
	body := map[string]any{"preset_name": c.prefix, "page": page}
	if c.us {
		body["location"] = map[string]any{"value": "US", "type": "country"}
	}
	if c.goal != "" {
		body["goal"] = c.goal
	}
	if c.vertical != "" {
		body["vertical"] = c.vertical
	}
	if c.agency != 0 {
		body["agency_id"] = c.agency
	}
	return body
}

// checkPrefixPages compares every page of presets/browse for the case, 50
// presets a page, with the visible presets of the table that match, and the
// page after the last with an empty one; and presets/count with their
// number.
func checkPrefixPages(t *testing.T, e *env, c prefixCase) {
	t.Helper()
	var want []int64
	rows, err := e.pool.Query(t.Context(), `SELECT p.id FROM preset AS p
		WHERE p.active AND NOT p.private AND (NOT $4 OR p.location_json -> 'countries' ? 'US')
		  AND starts_with(p.title, $1) AND ($2 = '' OR p.campaign_objective = $2)
		  AND ($3 = '' OR strpos(p.vertical, $3) > 0) AND ($5 = 0 OR p.agency_id = $5)
		ORDER BY p.title, p.id`, c.prefix, c.goal, c.vertical, c.us, c.agency)
	if err == nil {
		for rows.Next() {
			var id int64
			if err = rows.Scan(&id); err != nil {
				break
			}
			want = append(want, id)
		}
		rows.Close()
		err = rows.Err()
	}
	if err != nil {
		t.Fatal(err)
	}
	if c.prefix == "S" && c.vertical != "zz" && len(want) < 60 {
		t.Fatalf("%+v matches %d presets; the fixture wants several pages", c, len(want))
	}
	var got []int64
	for page := 1; page <= len(want)/50+1; page++ {
		ids := presetIDs(e.post("/v1/presets/browse", "", c.body(page)).presetList())
		if len(ids) > 50 || (len(ids) < 50 && page <= len(want)/50) {
			t.Fatalf("%+v page %d: %d presets", c, page, len(ids))
		}
		got = append(got, ids...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%+v: pages hold\n%v\nwant\n%v", c, trim(got), trim(want))
	}
	count := c.body(1)
	delete(count, "page")
	if n := e.presetCount(count); n != int64(len(want)) {
		t.Errorf("%+v: count %d, want %d", c, n, len(want))
	}
}

// trim shortens a long list of ids for a failure's message.
func trim(ids []int64) string {
	if len(ids) > 12 {
		return fmt.Sprintf("%v ... (%d ids)", ids[:12], len(ids))
	}
	return fmt.Sprint(ids)
}
