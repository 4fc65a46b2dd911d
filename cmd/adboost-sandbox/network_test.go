package main

import (
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// TestSandboxNetworkARules: the sandbox's network_a knows the demo's cities
// by its own keys, refuses the demo account's ad set below its minimum
// daily budget with network_a's words, and disapproves the ads of posts
// that hold DisapprovedPhrase with a reason.
func TestSandboxNetworkARules(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s := startSandbox(t, t0)

	// The demo's cities, under keys other than adboost's GeoNames keys
	// (Prague 3067696, Brno 3078610).
	for name, want := range map[string]string{"Prague": "2420659", "Brno": "2420605"} {
		data := s.call("GET", "/search?type=adgeolocation&location_types="+url.QueryEscape(`["city"]`)+"&q="+name+"&country_code=CZ",
			DefaultDemoToken, nil)["data"].([]any)
		if len(data) == 0 {
			t.Fatalf("%s: no city", name)
		}
		first := data[0].(map[string]any)
		if first["key"] != want || first["name"] != name || first["country_code"] != "CZ" {
			t.Fatalf("%s = %v", name, data)
		}
	}

	// The demo account's minimum: 8.00 € a day is refused, 9.00 € taken.
	camp := s.call("POST", "/act_2000/campaigns", DefaultDemoToken, map[string]any{"name": "adboost-1006",
		"objective": "OUTCOME_AWARENESS", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := func(budget int) map[string]any {
		return map[string]any{"name": "adboost-1006", "campaign_id": camp, "daily_budget": budget, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
			"billing_event": "IMPRESSIONS", "optimization_goal": "AD_RECALL_LIFT", "dsa_beneficiary": "Demo Studio Fitness", "dsa_payor": "Demo s.r.o.",
			"targeting": merge(anywhere(), map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ"}}}), "status": "ACTIVE"}
	}
	status, m := s.send("POST", "/act_2000/adsets", DefaultDemoToken, adset(800))
	e, _ := m["error"].(map[string]any)
	if got := graphError(status, m); got != "400 100 1885272 Invalid parameter" || e["error_user_title"] != "Budget is too low" ||
		e["error_user_msg"] != "The daily budget of this ad set must be at least €9.00." {
		t.Fatalf("an 8.00 € ad set: %s %v", got, e)
	}
	s.call("POST", "/act_2000/adsets", DefaultDemoToken, adset(DemoMinDailyBudget))

	// The demo's park workout post: its ad is disapproved, with the reason.
	var park string
	for _, d := range s.call("GET", "/2000101/posts?fields=id,message&limit=100", demoFitToken, nil)["data"].([]any) {
		if d.(map[string]any)["message"] == "Saturday workout in the park #gymlife" {
			park = d.(map[string]any)["id"].(string)
		}
	}
	if park == "" {
		t.Fatal("no park workout post on the demo page")
	}
	var other string
	for _, d := range s.call("GET", "/2000101/posts?fields=id,message&limit=100", demoFitToken, nil)["data"].([]any) {
		if d.(map[string]any)["id"] != park {
			other = d.(map[string]any)["id"].(string)
		}
	}
	eng := s.call("POST", "/act_2000/campaigns", DefaultDemoToken, map[string]any{"name": "adboost-1003",
		"objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	set := s.call("POST", "/act_2000/adsets", DefaultDemoToken, merge(adset(1000), map[string]any{"campaign_id": eng,
		"optimization_goal": "POST_ENGAGEMENT", "destination_type": "ON_POST", "promoted_object": map[string]any{"page_id": "2000101"}}))["id"].(string)
	for _, post := range []string{park, other} {
		s.call("POST", "/act_2000/ads", DefaultDemoToken, map[string]any{"name": "adboost-1003-" + post, "adset_id": set,
			"creative": map[string]any{"object_story_id": post, "instagram_user_id": "3000101"}, "status": "ACTIVE"})
	}
	ads := s.call("GET", "/"+eng+"/ads?fields=name,effective_status,ad_review_feedback", DefaultDemoToken, nil)["data"].([]any)
	if len(ads) != 2 {
		t.Fatalf("ads = %v", ads)
	}
	disapproved, approved := ads[0].(map[string]any), ads[1].(map[string]any)
	delete(disapproved, "id")
	delete(approved, "id")
	if want := map[string]any{"name": "adboost-1003-" + park, "effective_status": "DISAPPROVED", "ad_review_feedback": map[string]any{
		"global": map[string]any{"Health and Fitness": disapprovalReasons["Health and Fitness"]}}}; !reflect.DeepEqual(disapproved, want) {
		t.Fatalf("the park post's ad = %v", disapproved)
	}
	if want := map[string]any{"name": "adboost-1003-" + other, "effective_status": "ACTIVE"}; !reflect.DeepEqual(approved, want) {
		t.Fatalf("another post's ad = %v", approved)
	}
}

// TestSandboxAdDays: an ad's figures grow on the day of its ad account's
// time zone, so its daily rows split at that midnight and add up to its
// lifetime figures.
func TestSandboxAdDays(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 22, 59, 0, 0, time.UTC) // 23:59 in Prague
	s := startSandbox(t, t0)
	camp := s.call("POST", "/act_2000/campaigns", DefaultDemoToken, map[string]any{"name": "adboost-1003",
		"objective": "OUTCOME_AWARENESS", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	set := s.call("POST", "/act_2000/adsets", DefaultDemoToken, map[string]any{"name": "adboost-1003", "campaign_id": camp,
		"daily_budget": 1000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "REACH",
		"dsa_beneficiary": "Demo Studio Fitness", "dsa_payor": "Demo s.r.o.",
		"targeting": merge(anywhere(), map[string]any{"publisher_platforms": []any{"network_a"}}), "status": "ACTIVE"})["id"].(string)
	post := s.call("GET", "/2000101/posts?fields=id&limit=1", demoFitToken, nil)["data"].([]any)[0].(map[string]any)["id"].(string)
	ad := s.call("POST", "/act_2000/ads", DefaultDemoToken, map[string]any{"name": "adboost-1003-x", "adset_id": set,
		"creative": map[string]any{"object_story_id": post}, "status": "ACTIVE"})["id"].(string)
	s.tick(t0.Add(40 * time.Second)) // 23:59:40
	s.tick(t0.Add(90 * time.Second)) // 00:00:30 on the 24th
	rows := s.call("GET", "/"+ad+"/insights?fields=impressions,spend&time_increment=1&date_preset=maximum", DefaultDemoToken, nil)["data"].([]any)
	if len(rows) != 2 || rows[0].(map[string]any)["date_start"] != "2026-11-23" || rows[1].(map[string]any)["date_start"] != "2026-11-24" {
		t.Fatalf("daily rows = %v", rows)
	}
	sum := 0
	for _, r := range rows {
		n, _ := strconv.Atoi(r.(map[string]any)["impressions"].(string))
		if n <= 0 {
			t.Fatalf("a day without impressions: %v", rows)
		}
		sum += n
	}
	life := s.call("GET", "/"+ad+"/insights?fields=impressions&date_preset=maximum", DefaultDemoToken, nil)["data"].([]any)[0].(map[string]any)
	if total, _ := strconv.Atoi(life["impressions"].(string)); total != sum {
		t.Fatalf("lifetime impressions %d, the days add up to %d", total, sum)
	}
}
