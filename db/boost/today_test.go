package boost_test

// What the engine sends network_a as it answers today: each create's body
// by goal, cities by network_a's keys, the EU's transparency fields from
// each source, special ad categories with their countries, and the
// network_b account that post ads in ad sets delivering there name.

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// brno is Brno as network_a knows it (its own key), and as the
// geographic data knows it (GeoNames id 3078610).
var brno = networkafake.City{Key: "2420605", Name: "Brno", CountryCode: "CZ", CountryName: "Czech Republic",
	Region: "South Moravian Region", RegionID: "1166"}

const brnoGeoNames = "3078610"

// only7 leaves campaign 7 the world's only active campaign, with the goal,
// promoted object (SQL text, "NULL" for none) and targeting (JSON text)
// given.
func (w *world) only7(goal, promotedObject, targeting string) {
	w.t.Helper()
	w.stExec(`UPDATE campaign SET active = false WHERE id <> 7`)
	w.stExec(`UPDATE campaign SET goal = $1, promoted_object = `+promotedObject+`::jsonb, audience_targeting = $2::jsonb WHERE id = 7`,
		goal, targeting)
}

// adSetWant is campaign 7's ad set as the engine sends it (daily 20.00,
// COST_CAP 1.50, its end date), with the optimization goal, the targeting
// (JSON text) and the fields a goal or the EU adds (JSON members, without
// braces, in key order after "daily_budget", or "").
func (w *world) adSetWant(goal, extra, targeting string) string {
	c := w.object("campaign", "adboost-7")
	if extra != "" {
		extra += ","
	}
	return fmt.Sprintf(`{"bid_amount":150,"bid_strategy":"COST_CAP","billing_event":"IMPRESSIONS","campaign_id":%q,`+
		`"daily_budget":2000,%s"end_time":"%sT23:59:59Z","name":"adboost-7","optimization_goal":%q,`+
		`"status":"ACTIVE","targeting":%s}`, c.ID, extra, w.endDate, goal, targeting)
}

// usOnly is a targeting outside the EU as network_a takes it from a page
// without a network_b account.
const usOnly = `{"geo_locations":{"countries":["US"]},"publisher_platforms":["network_a"],"targeting_automation":{"advantage_audience":0}}`

// Each goal's objective, optimization goal, destination type and promoted
// object, exactly: engagement goals deliver on the post (ON_POST) or the
// video (ON_VIDEO) and promote the campaign's page; link clicks and reach
// name neither; a conversions campaign's own promoted object is sent as
// given, without the page. network_a took every create: the ad exists.
func TestTodayCreateBodiesByGoal(t *testing.T) {
	for _, c := range []struct {
		goal, promoted, objective, optimization, extra string
	}{
		{"POST_ENGAGEMENT", "NULL", "OUTCOME_ENGAGEMENT", "POST_ENGAGEMENT", `"destination_type":"ON_POST"`},
		{"VIDEO_VIEWS", "NULL", "OUTCOME_ENGAGEMENT", "THRUPLAY", `"destination_type":"ON_VIDEO"`},
		{"LINK_CLICKS", "NULL", "OUTCOME_TRAFFIC", "LINK_CLICKS", ""},
		{"REACH", "NULL", "OUTCOME_AWARENESS", "REACH", ""},
		{"CONVERSIONS", `'{"pixel_id": "777", "custom_event_type": "PURCHASE"}'`, "OUTCOME_SALES", "OFFSITE_CONVERSIONS", ""},
	} {
		t.Run(c.goal, func(t *testing.T) {
			w := newWorld(t)
			w.only7(c.goal, c.promoted, `{"geo_locations": {"countries": ["US"]}}`)
			w.fake.AddPost("456", networkafake.Post{ID: "456_1", Message: "#gym day", Created: time.Now().Add(-time.Hour),
				StatusType: "added_video"})
			w.cycle()
			w.stExpect(7, "running", "")
			camp := w.object("campaign", "adboost-7")
			wantCampaign := `{"is_adset_budget_sharing_enabled":false,"name":"adboost-7","objective":"` + c.objective +
				`","special_ad_categories":[],"status":"ACTIVE"}`
			if got := jsonString(camp.Fields); got != wantCampaign {
				t.Errorf("campaign:\n got %s\nwant %s", got, wantCampaign)
			}
			// The fields of the goal sort around daily_budget: destination_type
			// after it, promoted_object after optimization_goal.
			want := w.adSetWant(c.optimization, c.extra, usOnly)
			switch c.goal {
			case "POST_ENGAGEMENT", "VIDEO_VIEWS":
				want = strings.Replace(want, `"status"`, `"promoted_object":{"page_id":"456"},"status"`, 1)
			case "CONVERSIONS":
				want = strings.Replace(want, `"status"`, `"promoted_object":{"custom_event_type":"PURCHASE","pixel_id":"777"},"status"`, 1)
			}
			if got := jsonString(w.object("adset", "adboost-7").Fields); got != want {
				t.Errorf("ad set:\n got %s\nwant %s", got, want)
			}
			s := w.object("adset", "adboost-7")
			if got, want := jsonString(w.object("ad", "adboost-7-1").Fields),
				fmt.Sprintf(`{"adset_id":%q,"creative":{"object_story_id":"456_1"},"name":"adboost-7-1","status":"ACTIVE"}`, s.ID); got != want {
				t.Errorf("ad:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// searches answers the city searches network_a was asked, as their queries.
func (w *world) searches() []string {
	var out []string
	for _, c := range w.fake.Calls() {
		if strings.HasPrefix(c.Path, "/search?") {
			out = append(out, strings.TrimPrefix(c.Path, "/search?"))
		}
	}
	return out
}

// brnoTargeting is a targeting of Brno (adboost's key) with a radius.
func brnoTargeting(radius int, unit string) map[string]any {
	return map[string]any{"geo_locations": map[string]any{"cities": []any{
		map[string]any{"key": brnoGeoNames, "name": "Brno", "radius": radius, "distance_unit": unit}}}}
}

// A city is sent by network_a's key, looked up once for every campaign
// (two campaigns targeting Brno, in one cycle and later: one search in
// all), with its radius and unit as the campaign gives them. Brno is in
// the EU: the ad sets name their beneficiary and payor.
func TestTodayCityLookedUpOnce(t *testing.T) {
	w := newWorld(t)
	w.fake.AddCity(networkafake.City{Key: "2420001", Name: "Brno-venkov", CountryCode: "CZ", Region: "South Moravian Region"})
	w.fake.AddCity(brno)
	w.stSave(7, map[string]any{"targeting": brnoTargeting(20, "kilometer")})
	w.stSave(8, map[string]any{"targeting": brnoTargeting(12, "mile")})
	w.post("1", "#gym and fitness", time.Hour, 500) // boosted by both
	w.cycle()
	w.stExpect(7, "running", "")
	w.stExpect(8, "running", "")
	// Both campaigns' work runs side by side in the cycle: still one search.
	if got := strings.Join(w.searches(), " "); got != `country_code=CZ&limit=25&location_types=%5B%22city%22%5D&q=Brno&type=adgeolocation` {
		t.Errorf("city searches in the first cycle: %s, want one for Brno", got)
	}
	searched := len(w.searches())
	dsa := `"dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak s.r.o."`
	geo := func(radius int, unit string) string {
		return fmt.Sprintf(`{"geo_locations":{"cities":[{"distance_unit":%q,"key":"2420605","radius":%d}]},`+
			`"publisher_platforms":["network_a"],"targeting_automation":{"advantage_audience":0}}`, unit, radius)
	}
	want7 := strings.Replace(w.adSetWant("POST_ENGAGEMENT", `"destination_type":"ON_POST",`+dsa, geo(20, "kilometer")),
		`"status"`, `"promoted_object":{"page_id":"456"},"status"`, 1)
	if got := jsonString(w.object("adset", "adboost-7").Fields); got != want7 {
		t.Errorf("ad set 7:\n got %s\nwant %s", got, want7)
	}
	if got, want := jsonString(w.object("adset", "adboost-8").Fields["targeting"]), geo(12, "mile"); got != want {
		t.Errorf("ad set 8's targeting:\n got %s\nwant %s", got, want)
	}
	// A campaign made later with the same city: no search.
	w.stExec(`UPDATE campaign SET audience_targeting = (SELECT audience_targeting FROM campaign WHERE id = 7) WHERE id = 8`)
	w.post("2", "#gym again", time.Minute, 0)
	w.cycle()
	if n := len(w.searches()); n != searched {
		t.Errorf("%d city searches after the next cycle, want none more than the first cycle's %d", n, searched)
	}
	if got := jsonString(w.object("adset", "adboost-8").Fields["targeting"]); got != geo(20, "kilometer") {
		t.Errorf("ad set 8's targeting after its save: %s", got)
	}
}

// A city network_a does not know puts the campaign in needs_setup naming
// it, with nothing created; what network_a answered is kept (no search in
// later cycles). Once the campaign targets a city network_a knows, that
// one is looked up and the campaign runs; and a city whose answer is no
// longer kept is looked up again.
func TestTodayUnknownCity(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.stSave(7, map[string]any{"targeting": brnoTargeting(20, "kilometer")})
	w.post("1", "#gym", time.Hour, 0)
	const setup = "targeting.geo_locations.cities: network_a knows no city Brno (CZ); choose another city"
	w.cycle()
	w.stExpect(7, "needs_setup", setup)
	if got := w.names("campaign") + w.names("adset") + w.names("ad"); got != "" {
		t.Errorf("created %q for a campaign whose city network_a does not know", got)
	}
	w.cycle()
	w.stExpect(7, "needs_setup", setup)
	if n := len(w.searches()); n != 1 {
		t.Errorf("%d city searches after two cycles, want 1 (the answer kept)", n)
	}
	if got, want := w.stEngineEntries(7), []string{stEntry("needs_setup", setup)}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("engine entries %v, want %v", got, want)
	}
	mails := w.stMails()
	if len(mails) != 1 || !strings.Contains(mails[0].Body, "network_a: "+setup) {
		t.Errorf("mails %v, want one naming the city", mails)
	}

	// The user chooses Prague, which network_a knows.
	w.fake.AddCity(networkafake.City{Key: "2419001", Name: "Prague", CountryCode: "CZ", Region: "Prague"})
	w.stSave(7, map[string]any{"targeting": map[string]any{"geo_locations": map[string]any{"cities": []any{
		map[string]any{"key": "3067696", "name": "Prague", "radius": 30, "distance_unit": "kilometer"}}}}})
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q, want 1", got)
	}
	if got := jsonString(w.object("adset", "adboost-7").Fields["targeting"].(map[string]any)["geo_locations"]); got !=
		`{"cities":[{"distance_unit":"kilometer","key":"2419001","radius":30}]}` {
		t.Errorf("ad set's cities %s", got)
	}
	if n := len(w.searches()); n != 2 {
		t.Errorf("%d city searches, want 2 (Brno, Prague)", n)
	}

	// network_a learns Brno; the kept answer for Brno goes (as a clean-up of
	// stale answers would): the next campaign of Brno looks it up again.
	w.fake.AddCity(brno)
	w.stExec(`DELETE FROM network_a_city WHERE city_key = $1`, brnoGeoNames)
	w.stSave(7, map[string]any{"targeting": brnoTargeting(20, "kilometer")})
	w.cycle()
	w.stExpect(7, "running", "")
	if got := jsonString(w.object("adset", "adboost-7").Fields["targeting"].(map[string]any)["geo_locations"]); got !=
		`{"cities":[{"distance_unit":"kilometer","key":"2420605","radius":20}]}` {
		t.Errorf("ad set's cities after Brno was looked up again: %s", got)
	}
	if n := len(w.searches()); n != 3 {
		t.Errorf("%d city searches, want 3", n)
	}
}

// setAccount changes Ana's ad account act_1 on network_a.
func (w *world) setAccount(change func(a *networkafake.AdAccount)) {
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		for i := range u.AdAccounts {
			if u.AdAccounts[i].ID == "act_1" {
				change(&u.AdAccounts[i])
			}
		}
	})
}

// The EU's transparency fields from each source: the campaign's own; the
// page's name and the billing company; the billing full name without a
// company; a field the ad account has a default for is not sent; a payor
// nowhere is needs_setup naming dsa_payor, with no ad set; a targeting
// outside the EU sends neither.
func TestTodayDSASources(t *testing.T) {
	const payorMissing = "dsa_payor: network_a requires who pays for ads shown in the EU; set dsa_payor on the campaign, or a company or full name in the billing details"
	for _, c := range []struct {
		name    string
		prepare func(w *world)
		country string
		want    string // the ad set's DSA members, or the needs_setup message
		setup   bool
	}{
		{"campaign's own", func(w *world) {
			w.stSave(7, map[string]any{"dsa_beneficiary": "Gym Brand", "dsa_payor": "Payer Ltd"})
		}, "CZ", `{"dsa_beneficiary":"Gym Brand","dsa_payor":"Payer Ltd"}`, false},
		{"page and company", func(w *world) {}, "DE", `{"dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak s.r.o."}`, false},
		{"full name", func(w *world) {
			w.stExec(`UPDATE billing_info SET company_name = '' WHERE user_id = 100`)
		}, "CZ", `{"dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak"}`, false},
		{"account's payor", func(w *world) {
			w.setAccount(func(a *networkafake.AdAccount) { a.DefaultDSAPayor = "Account Payor" })
		}, "CZ", `{"dsa_beneficiary":"Ana's Gym"}`, false},
		{"account's both", func(w *world) {
			w.setAccount(func(a *networkafake.AdAccount) {
				a.DefaultDSABeneficiary, a.DefaultDSAPayor = "Account Brand", "Account Payor"
			})
			w.stExec(`DELETE FROM billing_info WHERE user_id = 100`)
		}, "FR", `{}`, false},
		{"account's payor over the campaign's", func(w *world) {
			w.stSave(7, map[string]any{"dsa_beneficiary": "Gym Brand", "dsa_payor": "Payer Ltd"})
			w.setAccount(func(a *networkafake.AdAccount) { a.DefaultDSAPayor = "Account Payor" })
		}, "CZ", `{"dsa_beneficiary":"Gym Brand"}`, false},
		{"no beneficiary", func(w *world) {
			w.stExec(`UPDATE source SET name = '' WHERE id = 456`)
		}, "CZ", "dsa_beneficiary: network_a requires who benefits from ads shown in the EU; set dsa_beneficiary on the campaign", true},
		{"no payor", func(w *world) {
			w.stExec(`DELETE FROM billing_info WHERE user_id = 100`)
		}, "CZ", payorMissing, true},
		{"outside the EU", func(w *world) {
			w.stSave(7, map[string]any{"dsa_beneficiary": "Gym Brand", "dsa_payor": "Payer Ltd"})
		}, "US", `{}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.only7("POST_ENGAGEMENT", "NULL", `{"geo_locations": {"countries": ["`+c.country+`"]}}`)
			c.prepare(w)
			w.post("1", "#gym", time.Hour, 0)
			w.cycle()
			if c.setup {
				w.stExpect(7, "needs_setup", c.want)
				if got := w.names("adset") + w.names("ad"); got != "" {
					t.Errorf("created %q without a payor", got)
				}
				if got := w.list(7); len(got) != 0 {
					t.Errorf("boosted %v without a payor", got)
				}
				return
			}
			w.stExpect(7, "running", "")
			dsa := map[string]any{}
			for k, v := range w.object("adset", "adboost-7").Fields {
				if strings.HasPrefix(k, "dsa_") {
					dsa[k] = v
				}
			}
			if got := jsonString(dsa); got != c.want {
				t.Errorf("the ad set's DSA fields %s, want %s", got, c.want)
			}
			if got := w.ids(w.list(7)); got != "1" {
				t.Errorf("boosted %q, want 1", got)
			}
		})
	}
}

// A campaign with special ad categories (saved through the API, or set in
// the database) creates its network_a campaign with them and the countries
// its targeting reaches: its countries and its cities' countries, sorted.
func TestTodaySpecialAdCategories(t *testing.T) {
	t.Run("saved", func(t *testing.T) {
		w := newWorld(t)
		w.fake.AddCity(brno)
		w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
		targeting := brnoTargeting(25, "kilometer")
		targeting["geo_locations"].(map[string]any)["countries"] = []string{"DE"}
		w.stSave(7, map[string]any{"special_ad_categories": []string{"HOUSING"}, "targeting": targeting})
		w.post("1", "#gym", time.Hour, 0)
		w.cycle()
		w.stExpect(7, "running", "")
		want := `{"is_adset_budget_sharing_enabled":false,"name":"adboost-7","objective":"OUTCOME_ENGAGEMENT",` +
			`"special_ad_categories":["HOUSING"],"special_ad_category_country":["CZ","DE"],"status":"ACTIVE"}`
		if got := jsonString(w.object("campaign", "adboost-7").Fields); got != want {
			t.Errorf("campaign:\n got %s\nwant %s", got, want)
		}
		if got := w.ids(w.list(7)); got != "1" {
			t.Errorf("boosted %q, want 1", got)
		}
		var page struct {
			SpecialAdCategories []string `json:"special_ad_categories"`
		}
		w.call(http.MethodGet, "/v1/boosted-pages/detail/7", nil, &page)
		if got := strings.Join(page.SpecialAdCategories, ","); got != "HOUSING" {
			t.Errorf("detail's special_ad_categories %q", got)
		}
	})
	t.Run("in the database", func(t *testing.T) {
		w := newWorld(t)
		w.only7("POST_ENGAGEMENT", "NULL", `{"geo_locations": {"countries": ["SK", "AT"]}}`)
		w.stExec(`UPDATE campaign SET special_ad_categories = '{EMPLOYMENT,FINANCIAL_PRODUCTS_SERVICES}' WHERE id = 7`)
		w.post("1", "#gym", time.Hour, 0)
		w.cycle()
		w.stExpect(7, "running", "")
		want := `{"is_adset_budget_sharing_enabled":false,"name":"adboost-7","objective":"OUTCOME_ENGAGEMENT",` +
			`"special_ad_categories":["EMPLOYMENT","FINANCIAL_PRODUCTS_SERVICES"],"special_ad_category_country":["AT","SK"],"status":"ACTIVE"}`
		if got := jsonString(w.object("campaign", "adboost-7").Fields); got != want {
			t.Errorf("campaign:\n got %s\nwant %s", got, want)
		}
	})
}

// A post ad names the page's network_b account (instagram_user_id) when its
// ad set may deliver on network_b: no platforms named, or network_b among
// them; not when the targeting names network_a alone. A page without a
// network_b account gets an ad set on network_a alone, without
// network_b_positions, and its ads name no account.
func TestTodayPlatformsAndInstagramUser(t *testing.T) {
	for _, c := range []struct {
		name, targeting string
		linked          bool
		platforms       string // the ad set's targeting's publisher_platforms and network_b_positions
		creative        string
	}{
		{"linked, no platforms", `{"geo_locations": {"countries": ["US"]}}`, true,
			`{}`, `{"instagram_user_id":"789","object_story_id":"456_1"}`},
		{"linked, both", `{"geo_locations": {"countries": ["US"]}, "publisher_platforms": ["network_a", "network_b"], "network_b_positions": ["stream"]}`, true,
			`{"network_b_positions":["stream"],"publisher_platforms":["network_a","network_b"]}`, `{"instagram_user_id":"789","object_story_id":"456_1"}`},
		{"linked, network_a alone", `{"geo_locations": {"countries": ["US"]}, "publisher_platforms": ["network_a"]}`, true,
			`{"publisher_platforms":["network_a"]}`, `{"object_story_id":"456_1"}`},
		{"not linked, no platforms", `{"geo_locations": {"countries": ["US"]}}`, false,
			`{"publisher_platforms":["network_a"]}`, `{"object_story_id":"456_1"}`},
		{"not linked, both", `{"geo_locations": {"countries": ["US"]}, "publisher_platforms": ["network_a", "network_b"], "network_b_positions": ["stream"]}`, false,
			`{"publisher_platforms":["network_a"]}`, `{"object_story_id":"456_1"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w *world
			if c.linked {
				w = newWorldB(t)
				w.stExec(`UPDATE campaign SET active = true WHERE id = 7`)
			} else {
				w = newWorld(t)
			}
			w.only7("POST_ENGAGEMENT", "NULL", c.targeting)
			w.post("1", "#gym", time.Hour, 0)
			w.cycle()
			w.stExpect(7, "running", "")
			targeting := w.object("adset", "adboost-7").Fields["targeting"].(map[string]any)
			platforms := map[string]any{}
			for _, k := range []string{"publisher_platforms", "network_b_positions"} {
				if v, ok := targeting[k]; ok {
					platforms[k] = v
				}
			}
			if got := jsonString(platforms); got != c.platforms {
				t.Errorf("the ad set's platforms %s, want %s", got, c.platforms)
			}
			if got := jsonString(w.object("ad", "adboost-7-1").Fields["creative"]); got != c.creative {
				t.Errorf("the ad's creative %s, want %s", got, c.creative)
			}
		})
	}
}

// Conversions are the pixel event's count of the campaign's promoted object
// (PURCHASE: offsite_conversion.fb_pixel_purchase; ADD_TO_CART:
// offsite_conversion.fb_pixel_add_to_cart), never added to the grouped
// types network_a reports with the same value (offsite_conversion,
// omni_purchase).
func TestTodayConversionsByPixelEvent(t *testing.T) {
	w := newWorld(t)
	w.only7("CONVERSIONS", `'{"pixel_id": "777", "custom_event_type": "PURCHASE"}'`, `{"geo_locations": {"countries": ["US"]}}`)
	w.stExec(`UPDATE campaign SET active = true, goal = 'CONVERSIONS', promoted_object = '{"pixel_id": "777", "custom_event_type": "ADD_TO_CART"}',
		audience_targeting = '{"geo_locations": {"countries": ["US"]}}' WHERE id = 8`)
	w.post("1", "#gym", 2*time.Hour, 0)         // campaign 7 only
	w.post("2", "fitness news", time.Hour, 500) // campaign 8 only
	w.cycle()
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(8)); got != "1 2" {
		t.Fatalf("boosted %s, want 1 in 7 and 2 in 8\n%s", got, w.logs)
	}
	w.fake.SetAdInsights(w.object("ad", "adboost-7-1").ID, networkafake.Insights{Impressions: 1000, Reach: 900, Clicks: 20, Conversions: 7, Spend: "10.00"})
	w.fake.SetAdInsights(w.object("ad", "adboost-8-2").ID, networkafake.Insights{Impressions: 500, Reach: 400, Clicks: 10, Conversions: 3, Spend: "6.00"})
	w.cycle()
	for _, c := range []struct {
		post string
		want map[string]any
	}{
		// 7 conversions of 20 clicks for 10.00: cpa 1.43, rate 35.00.
		{"1", map[string]any{"posts": "1", "reach": "900", "engagement": "0", "clicks": "20", "spend": "10.00", "cpm": "10.00",
			"ctr": "2.00", "cpc": "0.50", "cpa": "1.43", "conversions": "7", "conversion_rate": "35.00"}},
		// 3 of 10 for 6.00: cpa 2.00, rate 30.00.
		{"2", map[string]any{"posts": "1", "reach": "400", "engagement": "0", "clicks": "10", "spend": "6.00", "cpm": "12.00",
			"ctr": "2.00", "cpc": "0.60", "cpa": "2.00", "conversions": "3", "conversion_rate": "30.00"}},
	} {
		var got map[string]any
		w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": c.post}, &got)
		if jsonString(got) != jsonString(c.want) {
			t.Errorf("batch-insights of post %s:\n got %v\nwant %v", c.post, got, c.want)
		}
	}
}

// Fields saved once the network_a objects exist reach them in the next
// cycle, each once: special ad categories (and the countries they need)
// reach the network_a campaign, a new payor the ad set.
func TestTodaySavedLaterReachNetworkA(t *testing.T) {
	t.Run("special ad categories", func(t *testing.T) {
		w := newWorld(t)
		w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
		w.post("1", "#gym", time.Hour, 0)
		w.cycle()
		w.stSave(7, map[string]any{"special_ad_categories": []string{"EMPLOYMENT"}})
		w.cycle()
		w.cycle()
		want := `[{"special_ad_categories":["EMPLOYMENT"],"special_ad_category_country":["CZ"]}]`
		if got := jsonString(w.object("campaign", "adboost-7").Updates); got != want {
			t.Errorf("the network_a campaign's updates %s, want %s", got, want)
		}
	})
	t.Run("payor", func(t *testing.T) {
		w := newWorld(t)
		w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
		w.post("1", "#gym", time.Hour, 0)
		w.cycle()
		w.stSave(7, map[string]any{"dsa_payor": "Payer Ltd"})
		w.cycle()
		w.cycle()
		if got := jsonString(w.object("adset", "adboost-7").Updates); got != `[{"dsa_payor":"Payer Ltd"}]` {
			t.Errorf("the ad set's updates %s, want the payor once", got)
		}
	})
}

// A running campaign saved with a city network_a does not know is
// needs_setup naming it; its ad set is not sent a city without network_a's
// key, and no new post is boosted until the city is one network_a knows.
func TestTodayUnknownCitySavedLater(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.post("1", "#gym", 2*time.Hour, 0)
	w.cycle()
	w.stSave(7, map[string]any{"targeting": brnoTargeting(20, "kilometer")})
	w.post("2", "#gym again", time.Hour, 0)
	w.cycle()
	w.stExpect(7, "needs_setup", "targeting.geo_locations.cities: network_a knows no city Brno (CZ); choose another city")
	if got := w.object("adset", "adboost-7").Updates; len(got) != 0 {
		t.Errorf("the ad set was sent %s", jsonString(got))
	}
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q, want 1 only", got)
	}
}
