package networkafake_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// adSet creates an ad set in the campaign on act_1 and answers its id.
func adSet(t *testing.T, base, campaign, name string) string {
	t.Helper()
	return mustOK(t, "POST", base+"/act_1/adsets", userToken, map[string]any{"name": name, "campaign_id": campaign,
		"daily_budget": 2500, "bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS",
		"optimization_goal": "REACH", "targeting": noAutomation()})["id"].(string)
}

// campaignWithAds creates on act_1 a campaign, an ad set in it and an ad
// for each post, and answers their ids.
func campaignWithAds(t *testing.T, base, name string, posts ...string) (campaign, adset string, ads []string) {
	t.Helper()
	campaign = mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": name, "objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset = adSet(t, base, campaign, name)
	for _, p := range posts {
		ads = append(ads, ad(t, base, adset, name+"-"+p, p))
	}
	return campaign, adset, ads
}

// ad creates an ad of the post in the ad set and answers its id.
func ad(t *testing.T, base, adset, name, post string) string {
	t.Helper()
	return mustOK(t, "POST", base+"/act_1/ads", userToken, map[string]any{"name": name, "adset_id": adset,
		"creative": map[string]any{"object_story_id": post, "instagram_user_id": bAccount}, "status": "ACTIVE"})["id"].(string)
}

// withoutDates drops the date fields of insights rows.
func withoutDates(rows []any) []any {
	for _, r := range rows {
		delete(r.(map[string]any), "date_start")
		delete(r.(map[string]any), "date_stop")
	}
	return rows
}

// TestPostsSince: since keeps the posts created at or after it, and paging
// keeps since, fields and limit.
func TestPostsSince(t *testing.T) {
	f, base := world(t)
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for i := 1; i <= 5; i++ {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_%d", i), Created: t0.Add(time.Duration(i) * time.Hour)})
	}
	since := strconv.FormatInt(t0.Add(3*time.Hour).Unix(), 10)
	page := mustOK(t, "GET", base+"/456/posts?fields=id,created_time&limit=2&since="+since, pageToken, nil)
	want := []any{
		map[string]any{"id": "456_5", "created_time": "2026-11-20T15:00:00+0000"},
		map[string]any{"id": "456_4", "created_time": "2026-11-20T14:00:00+0000"},
	}
	next := base + "/456/posts?access_token=" + pageToken + "&after=2&fields=id%2Ccreated_time&limit=2&since=" + since
	if !reflect.DeepEqual(page["data"], want) || page["paging"].(map[string]any)["next"] != next {
		t.Fatalf("posts since = %v", page)
	}
	page = mustOK(t, "GET", next, pageToken, nil)
	if want := []any{map[string]any{"id": "456_3", "created_time": "2026-11-20T13:00:00+0000"}}; !reflect.DeepEqual(page["data"], want) || page["paging"] != nil {
		t.Fatalf("second page since = %v", page)
	}
	later := strconv.FormatInt(t0.Add(6*time.Hour).Unix(), 10)
	if page := mustOK(t, "GET", base+"/456/posts?fields=id&since="+later, pageToken, nil); !reflect.DeepEqual(page, map[string]any{"data": []any{}}) {
		t.Fatalf("posts since after the newest = %v", page)
	}
	if got := graphErr(t, "GET", base+"/456/posts?fields=id&since=yesterday", pageToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("since not an integer: %s", got)
	}
}

// TestCampaignInsights: level=ad answers a row for each ad of the campaign
// that delivered, in creation order, paged.
func TestCampaignInsights(t *testing.T) {
	f, base := world(t)
	for i := 1; i <= 4; i++ {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_%d", i)})
	}
	camp, _, ads := campaignWithAds(t, base, "adboost-7", "456_1", "456_2")
	second := adSet(t, base, camp, "adboost-7-second")
	ads = append(ads, ad(t, base, second, "adboost-7-3", "456_3"))
	_, _, other := campaignWithAds(t, base, "adboost-8", "456_4")
	f.SetAdInsights(ads[2], networkafake.Insights{Impressions: 30, Reach: 20, Clicks: 3, Spend: "3.30", Engagement: 7})
	f.SetAdInsights(ads[0], networkafake.Insights{Impressions: 1200, Reach: 1000, Clicks: 40, Spend: "12.34", Engagement: 80, Conversions: 4})
	f.SetAdInsights(other[0], networkafake.Insights{Impressions: 5})

	const query = "/insights?level=ad&fields=ad_id,impressions,reach,clicks,spend,actions&date_preset=maximum"
	got := mustOK(t, "GET", base+"/"+camp+query+"&limit=500", userToken, nil)
	want := []any{
		map[string]any{"ad_id": ads[0], "impressions": "1200", "reach": "1000", "clicks": "40", "spend": "12.34", "actions": []any{
			map[string]any{"action_type": "post_engagement", "value": "80"}, map[string]any{"action_type": "offsite_conversion.fb_pixel_purchase", "value": "4"},
			map[string]any{"action_type": "offsite_conversion", "value": "4"}, map[string]any{"action_type": "omni_purchase", "value": "4"}}},
		map[string]any{"ad_id": ads[2], "impressions": "30", "reach": "20", "clicks": "3", "spend": "3.30", "actions": []any{
			map[string]any{"action_type": "post_engagement", "value": "7"}}},
	}
	if rows := withoutDates(got["data"].([]any)); !reflect.DeepEqual(rows, want) || got["paging"] != nil {
		t.Fatalf("level=ad insights = %v\nwant %v", got, want)
	}

	// Paged: limit 1, then the next link.
	got = mustOK(t, "GET", base+"/"+camp+query+"&limit=1", userToken, nil)
	next := base + "/" + camp + "/insights?access_token=" + userToken +
		"&after=1&date_preset=maximum&fields=ad_id%2Cimpressions%2Creach%2Cclicks%2Cspend%2Cactions&level=ad&limit=1"
	if rows := withoutDates(got["data"].([]any)); !reflect.DeepEqual(rows, want[:1]) || got["paging"].(map[string]any)["next"] != next {
		t.Fatalf("first page = %v", got)
	}
	got = mustOK(t, "GET", next, userToken, nil)
	if rows := withoutDates(got["data"].([]any)); !reflect.DeepEqual(rows, want[1:]) || got["paging"] != nil {
		t.Fatalf("second page = %v", got)
	}

	// Without level=ad, unknown, or another user's: refused.
	if got := graphErr(t, "GET", base+"/"+camp+"/insights?fields=impressions", userToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("campaign insights without level=ad: %s", got)
	}
	if got := graphErr(t, "GET", base+"/120299999"+query, userToken, nil); got != "400 GraphMethodException 100" {
		t.Fatalf("unknown campaign: %s", got)
	}
	f.AddUser(networkafake.User{Token: "EAAother", ID: "2", AdAccounts: []networkafake.AdAccount{{ID: "act_3", Status: 1}}})
	if got := graphErr(t, "GET", base+"/"+camp+query, "EAAother", nil); got != "400 GraphMethodException 100" {
		t.Fatalf("another user's campaign: %s", got)
	}
}

// TestCampaignAds: a campaign's ads with their effective_status, deleted
// ones left out, paged; the status of one ad answers the same.
func TestCampaignAds(t *testing.T) {
	f, base := world(t)
	var posts []string
	for i := 1; i <= 6; i++ {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_%d", i)})
		posts = append(posts, fmt.Sprintf("456_%d", i))
	}
	camp, _, ads := campaignWithAds(t, base, "adboost-7", posts[:5]...)
	paused := adSet(t, base, camp, "adboost-7-paused")
	ads = append(ads, ad(t, base, paused, "adboost-7-6", posts[5]))
	campaignWithAds(t, base, "adboost-8", posts[0]) // another campaign's ad is not listed

	f.SetAdReview(ads[1], networkafake.ReviewDisapproved)
	mustOK(t, "POST", base+"/"+ads[2], userToken, map[string]any{"status": "PAUSED"})
	f.SetObjectStatus(ads[3], "ARCHIVED")
	f.SetObjectStatus(ads[4], "DELETED")
	f.SetObjectStatus(paused, "PAUSED")

	statuses := func() []any {
		t.Helper()
		got := mustOK(t, "GET", base+"/"+camp+"/ads?fields=id,name,effective_status&limit=500", userToken, nil)
		if got["paging"] != nil {
			t.Fatalf("one page answered %v", got)
		}
		return got["data"].([]any)
	}
	row := func(i int, status string) any {
		return map[string]any{"id": ads[i], "name": fmt.Sprintf("adboost-7-456_%d", i+1), "effective_status": status}
	}
	fix := func(rows ...any) []any {
		rows[4].(map[string]any)["name"] = "adboost-7-6"
		return rows
	}
	want := fix(row(0, "ACTIVE"), row(1, "DISAPPROVED"), row(2, "PAUSED"), row(3, "ARCHIVED"), row(5, "ADSET_PAUSED"))
	if got := statuses(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ads = %v\nwant %v", got, want)
	}
	// The campaign's pause comes before its ad set's; the ad's own status
	// and review before both.
	f.SetObjectStatus(camp, "PAUSED")
	want = fix(row(0, "CAMPAIGN_PAUSED"), row(1, "DISAPPROVED"), row(2, "PAUSED"), row(3, "ARCHIVED"), row(5, "CAMPAIGN_PAUSED"))
	if got := statuses(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ads of a paused campaign = %v\nwant %v", got, want)
	}
	f.SetObjectStatus(camp, "ACTIVE")
	f.SetAdReview(ads[1], networkafake.ReviewPending)
	f.SetAdReview(ads[0], networkafake.ReviewWithIssues)
	for _, c := range []struct {
		id, want string
	}{{ads[0], "WITH_ISSUES"}, {ads[1], "PENDING_REVIEW"}, {ads[4], "DELETED"}, {ads[5], "ADSET_PAUSED"}} {
		got := mustOK(t, "GET", base+"/"+c.id+"?fields=effective_status,status", userToken, nil)
		if got["effective_status"] != c.want {
			t.Errorf("%s: %v, want %s", c.id, got, c.want)
		}
	}
	f.SetAdReview(ads[0], "")
	if got := mustOK(t, "GET", base+"/"+ads[0]+"?fields=effective_status", userToken, nil); got["effective_status"] != "ACTIVE" {
		t.Fatalf("after the review was cleared: %v", got)
	}
	// A status set on network_a's site is not an update.
	if o := f.Objects("campaign")[0]; o.Status != "ACTIVE" || len(o.Updates) != 0 {
		t.Fatalf("campaign after SetObjectStatus = %+v", o)
	}
	// A deleted campaign takes its ads with it.
	f.SetObjectStatus(camp, "DELETED")
	if got := statuses(); len(got) != 0 {
		t.Fatalf("ads of a deleted campaign = %v", got)
	}
	f.SetObjectStatus(camp, "ACTIVE")
	checkCampaignAdsPaged(t, base, camp, paused, ads)
}

// checkCampaignAdsPaged checks a campaign's ads are paged two at a time, and
// that an ad set's ads or a page token are refused.
func checkCampaignAdsPaged(t *testing.T, base, camp, paused string, ads []string) {
	t.Helper()
	// Paged: two at a time.
	got := mustOK(t, "GET", base+"/"+camp+"/ads?fields=id&limit=2&after=2", userToken, nil)
	next := base + "/" + camp + "/ads?access_token=" + userToken + "&after=4&fields=id&limit=2"
	if !reflect.DeepEqual(got["data"], []any{map[string]any{"id": ads[2]}, map[string]any{"id": ads[3]}}) ||
		got["paging"].(map[string]any)["next"] != next {
		t.Fatalf("second page of ads = %v", got)
	}
	if got := graphErr(t, "GET", base+"/"+paused+"/ads?fields=id", userToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("ads of an ad set: %s", got)
	}
	if got := graphErr(t, "GET", base+"/"+camp+"/ads?fields=id", pageToken, nil); got != "400 GraphMethodException 100" {
		t.Fatalf("ads with a page token: %s", got)
	}
}

// TestDeletePost: a deleted post leaves its page, cannot be advertised,
// and answers no insights.
func TestDeletePost(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1", Created: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)})
	f.AddPost("456", networkafake.Post{ID: "456_2", Created: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)})
	_, adset, _ := campaignWithAds(t, base, "adboost-7", "456_1")
	f.DeletePost("456_1")
	f.DeletePost("456_404") // unknown: nothing happens
	if posts := f.Posts("456"); len(posts) != 1 || posts[0].ID != "456_2" {
		t.Fatalf("posts after DeletePost = %+v", posts)
	}
	if got := mustOK(t, "GET", base+"/456/posts?fields=id", pageToken, nil); !reflect.DeepEqual(got["data"], []any{map[string]any{"id": "456_2"}}) {
		t.Fatalf("page's posts after DeletePost = %v", got)
	}
	_, m := call(t, "POST", base+"/act_1/ads", userToken, map[string]any{"name": "again", "adset_id": adset,
		"creative": map[string]any{"object_story_id": "456_1", "instagram_user_id": bAccount}})
	if e := m["error"].(map[string]any); e["code"] != float64(100) || e["error_subcode"] != float64(networkafake.SubcodePostUnavailable) {
		t.Fatalf("ad of a deleted post = %v", m)
	}
	if got := graphErr(t, "GET", base+"/456_1/insights?metric=post_total_media_view_unique", pageToken, nil); got != "400 GraphMethodException 100" {
		t.Fatalf("insights of a deleted post: %s", got)
	}
	if len(f.Objects("ad")) != 1 {
		t.Fatal("DeletePost removed the ad made for the post")
	}
}

// TestRenameIndex: a look-up by name finds an object under its current name.
func TestRenameIndex(t *testing.T) {
	_, base := world(t)
	first, _, _ := campaignWithAds(t, base, "adboost-7")
	second, _, _ := campaignWithAds(t, base, "adboost-8")
	byName := func(name string) []any {
		filter := url.QueryEscape(fmt.Sprintf(`[{"field":"name","operator":"EQUAL","value":%q}]`, name))
		return mustOK(t, "GET", base+"/act_1/campaigns?fields=id&filtering="+filter, userToken, nil)["data"].([]any)
	}
	mustOK(t, "POST", base+"/"+second, userToken, map[string]any{"name": "adboost-7"})
	if got := byName("adboost-7"); !reflect.DeepEqual(got, []any{map[string]any{"id": first}, map[string]any{"id": second}}) {
		t.Fatalf("adboost-7 = %v", got)
	}
	if got := byName("adboost-8"); len(got) != 0 {
		t.Fatalf("the old name found %v", got)
	}
	contain := url.QueryEscape(`[{"field":"name","operator":"CONTAIN","value":"boost-7"},{"field":"name","operator":"EQUAL","value":"adboost-7"}]`)
	if got := mustOK(t, "GET", base+"/act_1/campaigns?fields=id&filtering="+contain, userToken, nil)["data"].([]any); len(got) != 2 {
		t.Fatalf("two filters = %v", got)
	}
}

// TestUsageAndThrottle: usage headers on every answer about the account,
// and a throttled account refuses its calls while others go on.
func TestUsageAndThrottle(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	camp, adset, ads := campaignWithAds(t, base, "adboost-7", "456_1")
	other := mustOK(t, "POST", base+"/act_2/campaigns", userToken, map[string]any{
		"name": "elsewhere", "objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)

	f.SetAccountUsage("act_1", 92.5, 300)
	const usage = `{"acc_id_util_pct":92.5,"reset_time_duration":300}`
	for _, c := range []struct {
		method, path, token, body, want string
	}{
		{"GET", "/act_1/campaigns?fields=id", userToken, "", usage},
		{"POST", "/act_1/campaigns", userToken, `{"name":"no objective","special_ad_categories":[]}`, usage}, // an error too
		{"GET", "/" + camp + "/ads?fields=id", userToken, "", usage},
		{"GET", "/" + camp + "/insights?level=ad&fields=ad_id", userToken, "", usage},
		{"GET", "/" + ads[0] + "/insights?fields=impressions", userToken, "", usage},
		{"POST", "/" + adset, userToken, `{"daily_budget":3000}`, usage},
		{"GET", "/" + other + "?fields=id", userToken, "", ""},
		{"GET", "/me/adaccounts?fields=id", userToken, "", ""},
		{"GET", "/456?fields=followers_count", pageToken, "", ""},
		{"GET", "/" + camp + "?fields=id", pageToken, "", ""}, // refused, and not about the account for this caller
	} {
		_, header, body := send(t, c.method, base+c.path, c.token, c.body)
		if got := header.Get("X-Ad-Account-Usage"); got != c.want {
			t.Errorf("%s %s: usage %q, want %q (%s)", c.method, c.path, got, c.want, body)
		}
	}
	got := batch(t, base, userToken, get(camp+"?fields=id,status"), get(other+"?fields=id"))
	if got[0].headers() != `[{Content-Type application/json; charset=UTF-8} {X-Ad-Account-Usage `+usage+`}]` || got[1].headers() != jsonHeader {
		t.Fatalf("usage in a batch: %+v", got)
	}

	f.ThrottleAccount("1", 80004, 7)
	const regain = `{"1":[{"type":"ads_management","call_count":100,"total_cputime":28,"total_time":31,"estimated_time_to_regain_access":7}]}`
	const refusal = `{"error":{"code":80004,"error_subcode":2446079,"fbtrace_id":"AbCdEf0fake","message":"(#80004) There have been too many calls to this ad-account. Wait a bit and try again.","type":"OAuthException"}}`
	status, header, body := send(t, "GET", base+"/act_1/ads?fields=id", userToken, "")
	if status != 400 || body != refusal || header.Get("X-Business-Use-Case-Usage") != regain || header.Get("X-Ad-Account-Usage") != usage {
		t.Fatalf("throttled call = %d %s %v", status, body, header)
	}
	got = batch(t, base, userToken, post(camp, map[string]any{"status": "PAUSED"}), get(other+"?fields=id"), get("me/adaccounts?fields=id"))
	if e := got[0]; e.Code != 400 || e.Body != refusal ||
		e.headers() != `[{Content-Type application/json; charset=UTF-8} {X-Ad-Account-Usage `+usage+`} {X-Business-Use-Case-Usage `+regain+`}]` {
		t.Fatalf("throttled entry = %+v", e)
	}
	if got[1].Code != 200 || got[2].Code != 200 {
		t.Fatalf("calls about other accounts = %+v", got[1:])
	}
	if c := f.Objects("campaign")[0]; c.Status != "ACTIVE" {
		t.Fatal("a throttled pause was carried out")
	}

	f.ThrottleAccount("act_1", 0, 0)
	f.SetAccountUsage("act_1", -1, 0)
	status, header, _ = send(t, "GET", base+"/act_1/ads?fields=id", userToken, "")
	if status != 200 || header.Get("X-Ad-Account-Usage") != "" || header.Get("X-Business-Use-Case-Usage") != "" {
		t.Fatalf("after the throttle and the usage ended: %d %v", status, header)
	}
}

// TestStateDelivery: reviews, usage and throttles survive State and
// SetState, and the indexes are built again.
func TestStateDelivery(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1"})
	camp, _, ads := campaignWithAds(t, base, "adboost-7", "456_1")
	f.SetAdReview(ads[0], networkafake.ReviewDisapproved)
	f.SetAdInsights(ads[0], networkafake.Insights{Impressions: 9})
	f.SetAccountUsage("act_1", 50, 60)
	f.ThrottleAccount("act_2", 17, 3)
	saved, err := json.Marshal(f.State())
	if err != nil {
		t.Fatal(err)
	}
	var s networkafake.State
	if err := json.Unmarshal(saved, &s); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{ads[0]: "DISAPPROVED"}; !reflect.DeepEqual(s.Reviews, want) ||
		!reflect.DeepEqual(s.Usage, map[string]networkafake.AccountUsage{"act_1": {Pct: 50, ResetSeconds: 60}}) ||
		!reflect.DeepEqual(s.Throttles, map[string]networkafake.Throttle{"act_2": {Code: 17, Minutes: 3}}) {
		t.Fatalf("state = %+v", s)
	}
	g, base2 := networkafake.Start(t)
	g.SetState(s)
	filter := url.QueryEscape(`[{"field":"name","operator":"EQUAL","value":"adboost-7-456_1"}]`)
	if got := mustOK(t, "GET", base2+"/act_1/ads?fields=id,effective_status&filtering="+filter, userToken, nil); !reflect.DeepEqual(got["data"],
		[]any{map[string]any{"id": ads[0], "effective_status": "DISAPPROVED"}}) {
		t.Fatalf("look-up by name after restore = %v", got)
	}
	if got := mustOK(t, "GET", base2+"/"+camp+"/ads?fields=id", userToken, nil); !reflect.DeepEqual(got["data"], []any{map[string]any{"id": ads[0]}}) {
		t.Fatalf("campaign's ads after restore = %v", got)
	}
	if got := mustOK(t, "GET", base2+"/"+camp+"/insights?level=ad&fields=ad_id,impressions&date_preset=maximum", userToken, nil); !reflect.DeepEqual(withoutDates(got["data"].([]any)),
		[]any{map[string]any{"ad_id": ads[0], "impressions": "9"}}) {
		t.Fatalf("campaign's insights after restore = %v", got)
	}
	if got := graphErr(t, "GET", base2+"/act_2/campaigns?fields=id", userToken, nil); got != "400 OAuthException 17" {
		t.Fatalf("throttle after restore: %s", got)
	}
	if _, header, _ := send(t, "GET", base2+"/act_1/campaigns?fields=id", userToken, ""); header.Get("X-Ad-Account-Usage") != `{"acc_id_util_pct":50,"reset_time_duration":60}` {
		t.Fatalf("usage after restore: %v", header)
	}
}
