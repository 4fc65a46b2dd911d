package networkafake_test

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// TestSearchCities: /search?type=adgeolocation answers the cities network_a
// knows whose name starts with q, then those whose name holds it, in one
// country when asked; ad sets may name only their keys; State keeps them.
func TestSearchCities(t *testing.T) {
	f, base := world(t)
	stare := networkafake.City{Key: "2420700", Name: "Staré Brno", CountryCode: "CZ", CountryName: "Czech Republic", Region: "South Moravian Region", RegionID: "1166"}
	parisFR := networkafake.City{Key: "2417000", Name: "Paris", CountryCode: "FR", CountryName: "France", Region: "Île-de-France", RegionID: "1500"}
	for _, c := range []networkafake.City{stare, brno, praha, paris, parisFR} {
		f.AddCity(c)
	}
	entry := func(c networkafake.City) any {
		return map[string]any{"key": c.Key, "name": c.Name, "type": "city", "country_code": c.CountryCode,
			"country_name": c.CountryName, "region": c.Region, "region_id": c.RegionID}
	}
	search := func(query string) []any {
		t.Helper()
		return mustOK(t, "GET", base+"/search?"+query, userToken, nil)["data"].([]any)
	}
	cityTypes := "&location_types=" + url.QueryEscape(`["city"]`)
	for query, want := range map[string][]any{
		"type=adgeolocation" + cityTypes + "&q=Brno&country_code=CZ":                {entry(brno), entry(stare)},
		"type=adgeolocation" + cityTypes + "&q=brno":                                {entry(brno), entry(stare)},
		"type=adgeolocation&q=paris":                                                {entry(paris), entry(parisFR)},
		"type=adgeolocation&q=paris&country_code=fr":                                {entry(parisFR)},
		"type=adgeolocation&q=paris&limit=1":                                        {entry(paris)},
		"type=adgeolocation&q=Wien":                                                 {},
		"type=adgeolocation&q=Brno&location_types=" + url.QueryEscape(`["region"]`): {},
	} {
		if got := search(query); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v\nwant %v", query, got, want)
		}
	}
	// A page's token searches too.
	if got := mustOK(t, "GET", base+"/search?type=adgeolocation&q=Praha", pageToken, nil)["data"]; !reflect.DeepEqual(got, []any{entry(praha)}) {
		t.Errorf("with a page token: %v", got)
	}
	for query, want := range map[string]string{
		"q=Brno":                 "Param type must be adgeolocation in this fake",
		"type=adinterest&q=Brno": "Param type must be adgeolocation in this fake",
		"type=adgeolocation":     "The parameter q is required",
		"type=adgeolocation&q=Brno&location_types=city": `Param location_types must be a JSON list such as ["city"]`,
	} {
		if status, got := sendJSON(t, "GET", base+"/search?"+query, userToken, nil); status != 400 || got != invalid(want) {
			t.Errorf("%s: %d %s", query, status, got)
		}
	}
	// A city replaced by its key; restored from the state.
	brno2 := brno
	brno2.Region = "Jihomoravský kraj"
	f.AddCity(brno2)
	b, _ := json.Marshal(f.State())
	var s networkafake.State
	json.Unmarshal(b, &s)
	g, base2 := networkafake.Start(t)
	g.SetState(s)
	g.AddUser(networkafake.User{Token: userToken, ID: "1"})
	if got := mustOK(t, "GET", base2+"/search?type=adgeolocation&q=Brno&country_code=CZ", userToken, nil)["data"]; !reflect.DeepEqual(got, []any{entry(brno2), entry(stare)}) {
		t.Errorf("after restore: %v", got)
	}
}

// day is a date of November 2026 at noon UTC.
func day(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }

// TestInsightsWindows: an ad's figures are kept per day; a read sums its
// window (date_preset=maximum the whole life, time_range its days, neither
// the 30 days before today), or answers a row a day with time_increment=1,
// paged.
func TestInsightsWindows(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	f.AddPost("456", networkafake.Post{ID: "456_2"})
	f.SetNow(func() time.Time { return day(27) })
	camp, _, ads := campaignWithAds(t, base, "adboost-7", "456_1", "456_2")
	f.SetAdInsightsDay(ads[0], time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), networkafake.Insights{Impressions: 1, Spend: "0.01"})
	f.SetAdInsightsDay(ads[0], day(20), networkafake.Insights{Impressions: 10, Reach: 8, Clicks: 1, Spend: "1.50", Engagement: 2})
	f.SetAdInsightsDay(ads[0], day(26), networkafake.Insights{Impressions: 100, Reach: 80, Clicks: 10, Spend: "2.25", Engagement: 20})
	f.SetAdInsightsDay(ads[0], day(27), networkafake.Insights{Impressions: 1000, Spend: "10"})
	f.SetAdInsightsDay(ads[1], day(26), networkafake.Insights{Impressions: 5, Spend: "0.05"})
	const fieldList = "fields=impressions,reach,clicks,spend,actions"
	row := func(start, stop, impressions, reach, clicks, spend string, engagement string) map[string]any {
		r := map[string]any{"date_start": start, "date_stop": stop, "impressions": impressions, "reach": reach, "clicks": clicks, "spend": spend}
		if engagement != "" {
			r["actions"] = []any{map[string]any{"action_type": "post_engagement", "value": engagement}}
		}
		return r
	}
	for query, want := range map[string][]any{
		"&date_preset=maximum": {row("2026-09-01", "2026-11-27", "1111", "88", "11", "13.76", "22")},
		"&time_range=" + url.QueryEscape(`{"since":"2026-11-20","until":"2026-11-26"}`): {row("2026-11-20", "2026-11-26", "110", "88", "11", "3.75", "22")},
		"":                       {row("2026-10-28", "2026-11-26", "110", "88", "11", "3.75", "22")},
		"&date_preset=today":     {row("2026-11-27", "2026-11-27", "1000", "0", "0", "10", "")},
		"&date_preset=yesterday": {row("2026-11-26", "2026-11-26", "100", "80", "10", "2.25", "20")},
		"&date_preset=last_3d":   {row("2026-11-24", "2026-11-26", "100", "80", "10", "2.25", "20")},
		"&time_range=" + url.QueryEscape(`{"since":"2026-10-01","until":"2026-10-31"}`): {},
	} {
		if got := mustOK(t, "GET", base+"/"+ads[0]+"/insights?"+fieldList+query, userToken, nil)["data"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%q = %v\nwant %v", query, got, want)
		}
	}

	// A row a day, level=ad, paged.
	daily := "/" + camp + "/insights?level=ad&fields=ad_id,impressions&time_increment=1&date_preset=maximum&limit=3"
	page1 := mustOK(t, "GET", base+daily, userToken, nil)
	r := func(ad, date, impressions string) any {
		return map[string]any{"ad_id": ad, "date_start": date, "date_stop": date, "impressions": impressions}
	}
	if want := []any{r(ads[0], "2026-09-01", "1"), r(ads[0], "2026-11-20", "10"), r(ads[0], "2026-11-26", "100")}; !reflect.DeepEqual(page1["data"], want) {
		t.Fatalf("daily rows = %v", page1)
	}
	page2 := mustOK(t, "GET", page1["paging"].(map[string]any)["next"].(string), userToken, nil)
	if want := []any{r(ads[0], "2026-11-27", "1000"), r(ads[1], "2026-11-26", "5")}; !reflect.DeepEqual(page2["data"], want) || page2["paging"] != nil {
		t.Fatalf("daily rows, page 2 = %v", page2)
	}
	ranged := "/" + camp + "/insights?level=ad&fields=ad_id,impressions&time_increment=1&time_range=" + url.QueryEscape(`{"since":"2026-11-25","until":"2026-11-26"}`)
	if got := mustOK(t, "GET", base+ranged, userToken, nil)["data"]; !reflect.DeepEqual(got, []any{r(ads[0], "2026-11-26", "100"), r(ads[1], "2026-11-26", "5")}) {
		t.Fatalf("daily rows of a range = %v", got)
	}

	// Zero figures remove a day; SetAdInsights replaces every day by today's.
	f.SetAdInsightsDay(ads[0], day(27), networkafake.Insights{})
	if got := mustOK(t, "GET", base+"/"+ads[0]+"/insights?fields=impressions&date_preset=today", userToken, nil)["data"]; len(got.([]any)) != 0 {
		t.Fatalf("a removed day answered %v", got)
	}
	f.SetAdInsights(ads[0], networkafake.Insights{Impressions: 7})
	if got := mustOK(t, "GET", base+"/"+ads[0]+"/insights?fields=impressions", userToken, nil)["data"]; len(got.([]any)) != 0 {
		t.Fatalf("lifetime figures are today's, outside the default window: %v", got)
	}
	if got := mustOK(t, "GET", base+"/"+ads[0]+"/insights?fields=impressions&date_preset=maximum", userToken, nil)["data"]; !reflect.DeepEqual(got,
		[]any{map[string]any{"date_start": "2026-11-27", "date_stop": "2026-11-27", "impressions": "7"}}) {
		t.Fatalf("lifetime after SetAdInsights = %v", got)
	}

	// Bad windows are refused.
	for query, want := range map[string]string{
		"time_range=" + url.QueryEscape(`{"since":"2026-11-26"}`):                      `Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"} with since not after until`,
		"time_range=" + url.QueryEscape(`{"since":"2026-11-26","until":"2026-11-01"}`): `Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"} with since not after until`,
		"time_range=since":    `Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}`,
		"date_preset=forever": "Param date_preset must be one of {last_14d, last_28d, last_30d, last_3d, last_7d, last_90d, today, yesterday, maximum}",
		"time_increment=7":    "Param time_increment must be 1 or all_days in this fake",
	} {
		if status, got := sendJSON(t, "GET", base+"/"+ads[0]+"/insights?fields=impressions&"+query, userToken, nil); status != 400 || got != invalid(want) {
			t.Errorf("%s: %d %s", query, status, got)
		}
	}
}

// TestInsightsTimeZone: a day is the ad account's: its "today" follows the
// account's time zone.
func TestInsightsTimeZone(t *testing.T) {
	f, base := world(t)
	f.UpdateUser(userToken, func(u *networkafake.User) { u.AdAccounts[1].TimezoneName = "America/Los_Angeles" })
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	f.SetNow(func() time.Time { return time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC) }) // 26 Nov, 21:00 in Los Angeles
	_, _, ads := campaignWithAds(t, base, "adboost-7", "456_1")
	f.SetAdInsights(ads[0], networkafake.Insights{Impressions: 3})
	got := mustOK(t, "GET", base+"/"+ads[0]+"/insights?fields=impressions&date_preset=today", userToken, nil)["data"]
	if !reflect.DeepEqual(got, []any{map[string]any{"date_start": "2026-11-26", "date_stop": "2026-11-26", "impressions": "3"}}) {
		t.Fatalf("today in Los Angeles = %v", got)
	}
}

// TestConversionActions: conversions are reported under the pixel event of
// the ad set's promoted object (purchase without one) or its custom
// conversion, and again under the grouped types network_a adds.
func TestConversionActions(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, campaignBody("c", "OUTCOME_SALES", nil))["id"].(string)
	onA := targeting(map[string]any{"publisher_platforms": []any{"network_a"}})
	for _, tc := range []struct {
		promoted any
		want     []string
	}{
		{nil, []string{"offsite_conversion.fb_pixel_purchase", "offsite_conversion", "omni_purchase"}},
		{map[string]any{"pixel_id": "1", "custom_event_type": "LEAD"}, []string{"offsite_conversion.fb_pixel_lead", "offsite_conversion", "omni_lead"}},
		{map[string]any{"pixel_id": "1", "custom_event_type": "OTHER"}, []string{"offsite_conversion.fb_pixel_other", "offsite_conversion"}},
		{map[string]any{"pixel_id": "1", "custom_conversion_id": "77"}, []string{"offsite_conversion.custom.77", "offsite_conversion"}},
	} {
		change := map[string]any{"targeting": onA}
		if tc.promoted != nil {
			change["promoted_object"], change["optimization_goal"] = tc.promoted, "OFFSITE_CONVERSIONS"
		}
		set := mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(camp, change))["id"].(string)
		ad := mustOK(t, "POST", base+"/act_1/ads", userToken, map[string]any{"name": "a", "adset_id": set,
			"creative": map[string]any{"object_story_id": "456_1"}})["id"].(string)
		f.SetAdInsights(ad, networkafake.Insights{Conversions: 4})
		var want []any
		for _, typ := range tc.want {
			want = append(want, map[string]any{"action_type": typ, "value": "4"})
		}
		got := mustOK(t, "GET", base+"/"+ad+"/insights?fields=actions&date_preset=maximum", userToken, nil)["data"].([]any)[0].(map[string]any)
		if !reflect.DeepEqual(got["actions"], want) {
			t.Errorf("%v: actions = %v\nwant %v", tc.promoted, got["actions"], want)
		}
	}
}

// TestReviewFeedback: the ads list answers a reviewed ad's
// ad_review_feedback and issues_info when asked; every review status is its
// effective_status; State keeps them.
func TestReviewFeedback(t *testing.T) {
	f, base := world(t)
	for i := 1; i <= 4; i++ {
		f.AddPost("456", networkafake.Post{ID: "456_" + string(rune('0'+i))})
	}
	camp, _, ads := campaignWithAds(t, base, "adboost-7", "456_1", "456_2", "456_3", "456_4")
	f.SetAdReviewFeedback(ads[0], networkafake.ReviewDisapproved, map[string]string{
		"Circumventing Systems": "Your ad isn't approved because it doesn't follow our Advertising Policies.",
		"Adult Content":         "Ads can't show adult content."}, nil)
	f.SetAdReviewFeedback(ads[1], networkafake.ReviewWithIssues, nil, []networkafake.Issue{
		{ErrorCode: 1815694, ErrorMessage: "The ad's image has too much text.", ErrorSummary: "Too much text", Level: "AD"}})
	f.SetAdReview(ads[2], networkafake.ReviewInProcess)
	f.SetAdReview(ads[3], networkafake.ReviewPreapproved)
	const list = "/ads?fields=id,effective_status,ad_review_feedback,issues_info"
	want := []any{
		map[string]any{"id": ads[0], "effective_status": "DISAPPROVED", "ad_review_feedback": map[string]any{"global": map[string]any{
			"Circumventing Systems": "Your ad isn't approved because it doesn't follow our Advertising Policies.",
			"Adult Content":         "Ads can't show adult content."}}},
		map[string]any{"id": ads[1], "effective_status": "WITH_ISSUES", "issues_info": []any{map[string]any{
			"error_code": float64(1815694), "error_message": "The ad's image has too much text.", "error_summary": "Too much text", "level": "AD"}}},
		map[string]any{"id": ads[2], "effective_status": "IN_PROCESS"},
		map[string]any{"id": ads[3], "effective_status": "PREAPPROVED"},
	}
	if got := mustOK(t, "GET", base+"/"+camp+list, userToken, nil)["data"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("ads = %v\nwant %v", got, want)
	}
	// Not asked, not answered.
	if got := mustOK(t, "GET", base+"/"+camp+"/ads?fields=id", userToken, nil)["data"].([]any)[0]; !reflect.DeepEqual(got, map[string]any{"id": ads[0]}) {
		t.Fatalf("ad without the fields asked = %v", got)
	}
	// Restored from the state.
	b, _ := json.Marshal(f.State())
	var s networkafake.State
	json.Unmarshal(b, &s)
	g, base2 := networkafake.Start(t)
	g.SetState(s)
	if got := mustOK(t, "GET", base2+"/"+camp+list, userToken, nil)["data"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("ads after restore = %v", got)
	}
	// Cleared: the ad is active again, without feedback.
	f.SetAdReview(ads[0], "")
	if got := mustOK(t, "GET", base+"/"+camp+list, userToken, nil)["data"].([]any)[0]; !reflect.DeepEqual(got, map[string]any{"id": ads[0], "effective_status": "ACTIVE"}) {
		t.Fatalf("after clearing = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("an unknown review status did not panic")
		}
	}()
	f.SetAdReviewFeedback(ads[0], "REJECTED", nil, nil)
}
