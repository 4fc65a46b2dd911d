package networkafake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

const (
	userToken = "EAAuser0token"
	pageToken = "EAApage0token"
	otherPage = "EAAother0page"
)

// world is a user with two pages (one linked to a network_b account) and two
// ad accounts, the first disabled.
func world(t *testing.T) (*networkafake.Fake, string) {
	f, base := networkafake.Start(t)
	f.AddUser(networkafake.User{
		Token: userToken, ID: "5550001", FirstName: "Ana", LastName: "Nováková", Email: "ana@network-a.example",
		Pages: []networkafake.Page{
			{ID: "456", Name: "Gym", Picture: "https://img.example/456.png", Token: pageToken, Followers: 1200,
				B: &networkafake.AccountB{ID: "789", Username: "gym.b", Picture: "https://img.example/789.png"}},
			{ID: "457", Name: "Cafe", Token: otherPage, Followers: 10},
		},
		AdAccounts: []networkafake.AdAccount{{ID: "act_2", Status: 2, Currency: "EUR"}, {ID: "act_1", Status: 1, Currency: "USD"}},
	})
	return f, base
}

// call sends one request and decodes the JSON answer.
func call(t *testing.T, method, rawURL, token string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, rawURL, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s answered %d %q: %v", method, rawURL, resp.StatusCode, raw, err)
	}
	return resp.StatusCode, m
}

// mustOK calls and fails unless the answer is 200.
func mustOK(t *testing.T, method, rawURL, token string, body any) map[string]any {
	t.Helper()
	status, m := call(t, method, rawURL, token, body)
	if status != http.StatusOK {
		t.Fatalf("%s %s = %d %v", method, rawURL, status, m)
	}
	return m
}

// graphErr is the error of an answer: status, type and code.
func graphErr(t *testing.T, method, rawURL, token string, body any) string {
	t.Helper()
	status, m := call(t, method, rawURL, token, body)
	e, _ := m["error"].(map[string]any)
	if e == nil || e["message"] == "" {
		t.Fatalf("%s %s = %d %v: not an error", method, rawURL, status, m)
	}
	return fmt.Sprintf("%d %v %v", status, e["type"], e["code"])
}

func TestSignInCalls(t *testing.T) {
	f, base := world(t)
	me := mustOK(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, nil)
	want := map[string]any{"id": "5550001", "first_name": "Ana", "last_name": "Nováková", "email": "ana@network-a.example"}
	if !reflect.DeepEqual(me, want) {
		t.Fatalf("/me = %v", me)
	}
	// Two pages fit one answer of size 3: no paging.next.
	acc := mustOK(t, "GET", base+"/me/accounts?fields=id,name,picture,access_token,network_b_account", userToken, nil)
	data := acc["data"].([]any)
	first := data[0].(map[string]any)
	wantFirst := map[string]any{"id": "456", "name": "Gym", "access_token": pageToken,
		"picture":           map[string]any{"data": map[string]any{"url": "https://img.example/456.png", "is_silhouette": false}},
		"network_b_account": map[string]any{"id": "789", "username": "gym.b", "profile_picture_url": "https://img.example/789.png"}}
	if len(data) != 2 || !reflect.DeepEqual(first, wantFirst) || acc["paging"] != nil {
		t.Fatalf("/me/accounts = %v", acc)
	}
	if _, linked := data[1].(map[string]any)["network_b_account"]; linked {
		t.Fatalf("a page without network_b account answered one: %v", data[1])
	}

	// Paging: one page an answer; paging.next carries the token, as Graph's do.
	f.SetAccountsPageSize(1)
	acc = mustOK(t, "GET", base+"/me/accounts?fields=id,name,picture,network_b_account", userToken, nil)
	next := acc["paging"].(map[string]any)["next"].(string)
	u, _ := url.Parse(next)
	if u.Query().Get("access_token") != userToken || u.Query().Get("after") != "1" || !strings.HasPrefix(next, base+"/me/accounts?") {
		t.Fatalf("paging.next = %s", next)
	}
	acc = mustOK(t, "GET", next, userToken, nil)
	if d := acc["data"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != "457" || acc["paging"] != nil {
		t.Fatalf("second page = %v", acc)
	}

	// The modes of paging.
	f.SetAccountsPaging(networkafake.PagingLoop, "")
	acc = mustOK(t, "GET", next, userToken, nil)
	if n := acc["paging"].(map[string]any)["next"].(string); strings.Contains(n, "after=") {
		t.Fatalf("loop: last page leads to %s, want the first", n)
	}
	f.SetAccountsPaging(networkafake.PagingEndless, "")
	acc = mustOK(t, "GET", base+"/me/accounts?fields=id,name,picture,network_b_account&after=50", userToken, nil)
	if len(acc["data"].([]any)) != 0 || acc["paging"] == nil {
		t.Fatalf("endless: %v", acc)
	}
	f.SetAccountsPaging(networkafake.PagingForeign, "http://elsewhere.example/v25.0")
	acc = mustOK(t, "GET", base+"/me/accounts?fields=id,name,picture,network_b_account", userToken, nil)
	if n := acc["paging"].(map[string]any)["next"].(string); !strings.HasPrefix(n, "http://elsewhere.example/v25.0/me/accounts?") {
		t.Fatalf("foreign: %s", n)
	}

	// Without a version prefix too.
	mustOK(t, "GET", strings.TrimSuffix(base, "/v25.0")+"/me?fields=id,first_name,last_name,email", userToken, nil)
}

func TestTokens(t *testing.T) {
	f, base := world(t)
	for _, tc := range []struct{ name, method, path, token, want string }{
		{"no token", "GET", "/me?fields=id,first_name,last_name,email", "", "400 OAuthException 190"},
		{"unknown token", "GET", "/me?fields=id,first_name,last_name,email", "EAAnobody", "401 OAuthException 190"},
		{"page token on /me", "GET", "/me?fields=id,first_name,last_name,email", pageToken, "400 OAuthException 2500"},
		{"user token on a page", "GET", "/456?fields=followers_count", userToken, "400 OAuthException 210"},
		{"another page's token", "GET", "/456/posts?fields=id", otherPage, "400 OAuthException 210"},
		{"page token on ad accounts", "GET", "/me/adaccounts?fields=id", pageToken, "400 OAuthException 2500"},
		{"page token on an ad account", "POST", "/act_1/campaigns", pageToken, "400 GraphMethodException 100"},
		{"foreign ad account", "GET", "/act_9/ads?fields=id", userToken, "400 GraphMethodException 100"},
		{"unknown page", "GET", "/999?fields=followers_count", pageToken, "400 GraphMethodException 100"},
		{"unknown path", "GET", "/me/friends", userToken, "400 OAuthException 2500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.method == "POST" {
				body = map[string]any{"name": "x"}
			}
			if got := graphErr(t, tc.method, base+tc.path, tc.token, body); got != tc.want {
				t.Fatalf("%s %s = %s, want %s", tc.method, tc.path, got, tc.want)
			}
		})
	}

	// An expired token, a user's or a page's: 400 code 190, whatever the call.
	mustOK(t, "GET", base+"/456?fields=followers_count", pageToken, nil)
	f.ExpireToken(pageToken)
	f.ExpireToken(userToken)
	for _, c := range []struct{ path, token string }{
		{"/456?fields=followers_count", pageToken},
		{"/me/adaccounts?fields=id", userToken},
		{"/me?fields=id,first_name,last_name,email", userToken},
	} {
		status, m := call(t, "GET", base+c.path, c.token, nil)
		e := m["error"].(map[string]any)
		if status != 400 || e["code"] != float64(190) || !strings.Contains(e["message"].(string), "expired") {
			t.Fatalf("%s with an expired token = %d %v", c.path, status, m)
		}
	}
	// A page token still works for its page after the user's expired.
	mustOK(t, "GET", base+"/457?fields=followers_count", otherPage, nil)
}

func TestPagesAndPosts(t *testing.T) {
	f, base := world(t)
	got := mustOK(t, "GET", base+"/456?fields=followers_count", pageToken, nil)
	if !reflect.DeepEqual(got, map[string]any{"id": "456", "followers_count": float64(1200)}) {
		t.Fatalf("page = %v", got)
	}
	f.SetFollowers("456", 1500)
	if got := mustOK(t, "GET", base+"/456?fields=followers_count", pageToken, nil); got["followers_count"] != float64(1500) {
		t.Fatalf("after SetFollowers: %v", got)
	}

	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	// Added out of order: listed newest first.
	for _, i := range []int{3, 1, 5, 2, 4} {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_900%d", i), Message: fmt.Sprintf("post %d #gym", i),
			Permalink: fmt.Sprintf("https://network-a.example/456/posts/900%d", i), Picture: "https://img.example/p.png",
			Created: t0.Add(time.Duration(i) * time.Hour), OrganicReach: 100 * i})
	}
	f.AddPost("457", networkafake.Post{Message: "elsewhere"})
	const fieldList = "id,message,created_time,permalink_url,full_picture"
	page := mustOK(t, "GET", base+"/456/posts?fields="+fieldList+"&limit=2", pageToken, nil)
	data := page["data"].([]any)
	want := map[string]any{"id": "456_9005", "message": "post 5 #gym", "created_time": "2026-11-20T15:00:00+0000",
		"permalink_url": "https://network-a.example/456/posts/9005", "full_picture": "https://img.example/p.png"}
	if len(data) != 2 || !reflect.DeepEqual(data[0], want) || data[1].(map[string]any)["id"] != "456_9004" {
		t.Fatalf("first page of posts = %v", data)
	}
	var ids []string
	next := page["paging"].(map[string]any)["next"].(string)
	for next != "" {
		if !strings.Contains(next, "access_token=") {
			t.Fatalf("paging.next without the token, unlike Graph's: %s", next)
		}
		page = mustOK(t, "GET", next, pageToken, nil)
		for _, d := range page["data"].([]any) {
			ids = append(ids, d.(map[string]any)["id"].(string))
		}
		next = ""
		if p, ok := page["paging"].(map[string]any); ok {
			next = p["next"].(string)
		}
	}
	if !reflect.DeepEqual(ids, []string{"456_9003", "456_9002", "456_9001"}) {
		t.Fatalf("later pages = %v", ids)
	}
	// Only the fields asked for.
	page = mustOK(t, "GET", base+"/456/posts?fields=id&limit=1", pageToken, nil)
	if d := page["data"].([]any)[0]; !reflect.DeepEqual(d, map[string]any{"id": "456_9005"}) {
		t.Fatalf("fields=id answered %v", d)
	}
	if got := graphErr(t, "GET", base+"/456/posts?limit=zero", pageToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("bad limit: %s", got)
	}

	// Organic reach, with the page's token only.
	ins := mustOK(t, "GET", base+"/456_9003/insights?metric=post_total_media_view_unique", pageToken, nil)
	values := ins["data"].([]any)[0].(map[string]any)
	if values["name"] != "post_total_media_view_unique" || !reflect.DeepEqual(values["values"], []any{map[string]any{"value": float64(300)}}) {
		t.Fatalf("post insights = %v", ins)
	}
	// The retired metric is refused.
	if status, got := sendJSON(t, "GET", base+"/456_9003/insights?metric=post_impressions_unique", pageToken, nil); status != 400 ||
		got != invalid("The value must be a valid insights metric") {
		t.Fatalf("post_impressions_unique: %d %s", status, got)
	}
	f.SetOrganicReach("456_9003", 777)
	ins = mustOK(t, "GET", base+"/456_9003/insights?metric=post_total_media_view_unique", pageToken, nil)
	if v := ins["data"].([]any)[0].(map[string]any)["values"].([]any)[0].(map[string]any)["value"]; v != float64(777) {
		t.Fatalf("after SetOrganicReach: %v", v)
	}
	if got := graphErr(t, "GET", base+"/456_9003/insights?metric=post_total_media_view_unique", otherPage, nil); got != "400 OAuthException 210" {
		t.Fatalf("another page's token on a post: %s", got)
	}
	if posts := f.Posts("457"); len(posts) != 1 || !strings.HasPrefix(posts[0].ID, "457_") || posts[0].Created.IsZero() {
		t.Fatalf("a post added without id or time: %+v", posts)
	}
}

// czTargeting reaches the Czech Republic, with Advantage audience off.
var czTargeting = map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ"}},
	"targeting_automation": map[string]any{"advantage_audience": 0}}

func TestMarketingAPI(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_9001", Message: "#gym"})

	checkAdAccounts(t, base)
	camp, adset, ad, adsetBody := createCampaignAdSetAd(t, f, base)
	checkRefusedCreates(t, base, adset, adsetBody)
	checkCreatedObjects(t, f, adset)
	checkLookupByName(t, base, ad)
	checkUpdates(t, f, base, camp, adset)
	checkAdInsights(t, f, base, ad)
	checkRequestsRecorded(t, f)
}

// checkAdAccounts checks the user's ad accounts as listed by the API.
func checkAdAccounts(t *testing.T, base string) {
	t.Helper()
	acc := mustOK(t, "GET", base+"/me/adaccounts?fields=id,account_status,currency", userToken, nil)
	wantAcc := []any{
		map[string]any{"id": "act_2", "account_status": float64(2), "currency": "EUR"},
		map[string]any{"id": "act_1", "account_status": float64(1), "currency": "USD"},
	}
	if !reflect.DeepEqual(acc["data"], wantAcc) {
		t.Fatalf("ad accounts = %v", acc)
	}
}

// createCampaignAdSetAd creates a campaign, an ad set and an ad on act_1 and
// checks the AfterCreate hook runs before each answer; it returns their ids and
// the ad set's body.
func createCampaignAdSetAd(t *testing.T, f *networkafake.Fake, base string) (camp, adset, ad string, adsetBody map[string]any) {
	t.Helper()
	var order []string
	f.AfterCreate(func(o networkafake.Object) { order = append(order, "hook "+o.Kind+" "+o.Name) })
	camp = mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-7", "objective": "OUTCOME_TRAFFIC", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	order = append(order, "answered")
	adsetBody = map[string]any{"name": "adboost-7", "campaign_id": camp, "daily_budget": 2500, "bid_strategy": "LOWEST_COST_WITH_BID_CAP",
		"bid_amount": 150, "billing_event": "IMPRESSIONS", "optimization_goal": "LINK_CLICKS",
		"targeting": czTargeting, "end_time": "2026-12-31T23:59:59Z", "status": "ACTIVE", "dsa_beneficiary": "Gym", "dsa_payor": "Gym s.r.o."}
	adset = mustOK(t, "POST", base+"/act_1/adsets", userToken, adsetBody)["id"].(string)
	ad = mustOK(t, "POST", base+"/act_1/ads", userToken, map[string]any{
		"name": "adboost-7-9001", "adset_id": adset, "creative": map[string]any{"object_story_id": "456_9001", "instagram_user_id": bAccount}, "status": "ACTIVE"})["id"].(string)
	if want := []string{"hook campaign adboost-7", "answered", "hook adset adboost-7", "hook ad adboost-7-9001"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("order = %v: the hook does not run before the answer", order)
	}
	f.AfterCreate(nil)
	return camp, adset, ad, adsetBody
}

// checkRefusedCreates checks the bodies network_a refuses on create.
func checkRefusedCreates(t *testing.T, base, adset string, adsetBody map[string]any) {
	t.Helper()
	for name, tc := range map[string]struct {
		path string
		body map[string]any
	}{
		"campaign without name":      {"/act_1/campaigns", map[string]any{"objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}},
		"campaign without objective": {"/act_1/campaigns", map[string]any{"name": "n", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}},
		"bad status":                 {"/act_1/campaigns", map[string]any{"name": "n", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "status": "RUNNING"}},
		"budget as decimal":          {"/act_1/adsets", merge(adsetBody, map[string]any{"daily_budget": 25.5})},
		"budget as string":           {"/act_1/adsets", merge(adsetBody, map[string]any{"daily_budget": "2500"})},
		"two budgets":                {"/act_1/adsets", merge(adsetBody, map[string]any{"lifetime_budget": 100})},
		"foreign campaign":           {"/act_1/adsets", merge(adsetBody, map[string]any{"campaign_id": "1"})},
		"end time not RFC 3339":      {"/act_1/adsets", merge(adsetBody, map[string]any{"end_time": "2026-12-31"})},
		"ad of an unknown post":      {"/act_1/ads", map[string]any{"name": "n", "adset_id": adset, "creative": map[string]any{"object_story_id": "456_1"}}},
		"ad without ad set":          {"/act_1/ads", map[string]any{"name": "n", "creative": map[string]any{"object_story_id": "456_9001"}}},
		"ad set of another account":  {"/act_2/ads", map[string]any{"name": "n", "adset_id": adset, "creative": map[string]any{"object_story_id": "456_9001"}}},
	} {
		if got := graphErr(t, "POST", base+tc.path, userToken, tc.body); got != "400 OAuthException 100" {
			t.Errorf("%s: %s", name, got)
		}
	}
}

// checkCreatedObjects checks the fake recorded the three created objects and
// the ad set's fields.
func checkCreatedObjects(t *testing.T, f *networkafake.Fake, adset string) {
	t.Helper()
	objs := f.Objects("")
	if len(objs) != 3 || objs[0].Kind != "campaign" || objs[1].Kind != "adset" || objs[2].Kind != "ad" {
		t.Fatalf("objects = %+v", objs)
	}
	if o := objs[1]; o.ID != adset || o.AccountID != "act_1" || o.Status != "ACTIVE" || o.Fields["daily_budget"] != json.Number("2500") ||
		!reflect.DeepEqual(o.Fields["targeting"], map[string]any{"geo_locations": map[string]any{"countries": []any{"CZ"}},
			"targeting_automation": map[string]any{"advantage_audience": json.Number("0")}}) {
		t.Fatalf("ad set = %+v", o)
	}
}

// checkLookupByName checks objects are found by name, as after an interrupted
// attempt, and that bad filtering is refused.
func checkLookupByName(t *testing.T, base, ad string) {
	t.Helper()
	filter := url.QueryEscape(`[{"field":"name","operator":"EQUAL","value":"adboost-7-9001"}]`)
	found := mustOK(t, "GET", base+"/act_1/ads?fields=id,name,status&filtering="+filter, userToken, nil)
	if want := []any{map[string]any{"id": ad, "name": "adboost-7-9001", "status": "ACTIVE"}}; !reflect.DeepEqual(found["data"], want) {
		t.Fatalf("ads by name = %v", found)
	}
	filter = url.QueryEscape(`[{"field":"name","operator":"EQUAL","value":"adboost-7-9002"}]`)
	if found := mustOK(t, "GET", base+"/act_1/ads?fields=id&filtering="+filter, userToken, nil); len(found["data"].([]any)) != 0 {
		t.Fatalf("an absent name found %v", found)
	}
	if found := mustOK(t, "GET", base+"/act_1/campaigns?fields=id,name", userToken, nil); len(found["data"].([]any)) != 1 {
		t.Fatalf("campaigns = %v", found)
	}
	if got := graphErr(t, "GET", base+"/act_1/ads?filtering=nonsense", userToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("bad filtering: %s", got)
	}
}

// checkUpdates checks updates are merged in and each recorded, and bad ones
// refused.
func checkUpdates(t *testing.T, f *networkafake.Fake, base, camp, adset string) {
	t.Helper()
	mustOK(t, "POST", base+"/"+adset, userToken, map[string]any{"daily_budget": 3000, "end_time": "2027-01-31T23:59:59Z"})
	if r := mustOK(t, "POST", base+"/"+camp, userToken, map[string]any{"status": "PAUSED"}); r["success"] != true {
		t.Fatalf("update answered %v", r)
	}
	if got := graphErr(t, "POST", base+"/"+adset, userToken, map[string]any{"daily_budget": -1}); got != "400 OAuthException 100" {
		t.Fatalf("negative budget update: %s", got)
	}
	if got := graphErr(t, "POST", base+"/"+camp, userToken, map[string]any{"status": "OFF"}); got != "400 OAuthException 100" {
		t.Fatalf("bad status update: %s", got)
	}
	objs := f.Objects("adset")
	if o := objs[0]; o.Fields["daily_budget"] != json.Number("3000") || o.Fields["end_time"] != "2027-01-31T23:59:59Z" || len(o.Updates) != 1 ||
		o.Fields["bid_amount"] != json.Number("150") {
		t.Fatalf("ad set after update = %+v", o)
	}
	if c := f.Objects("campaign")[0]; c.Status != "PAUSED" || len(c.Updates) != 1 || c.Updates[0]["status"] != "PAUSED" {
		t.Fatalf("campaign after pause = %+v", c)
	}
	if got := graphErr(t, "POST", base+"/"+adset, pageToken, map[string]any{"daily_budget": 1}); got != "400 GraphMethodException 100" {
		t.Fatalf("update with a page token: %s", got)
	}
}

// checkAdInsights checks ad insights are empty until set, then have the
// contract's shape.
func checkAdInsights(t *testing.T, f *networkafake.Fake, base, ad string) {
	t.Helper()
	const insightsQuery = "/insights?fields=impressions,reach,clicks,spend,actions&date_preset=maximum"
	if got := mustOK(t, "GET", base+"/"+ad+insightsQuery, userToken, nil); len(got["data"].([]any)) != 0 {
		t.Fatalf("insights before any = %v", got)
	}
	f.SetAdInsights(ad, networkafake.Insights{Impressions: 1200, Reach: 1000, Clicks: 40, Spend: "12.34", Engagement: 80, Conversions: 4})
	got := mustOK(t, "GET", base+"/"+ad+insightsQuery, userToken, nil)["data"].([]any)[0].(map[string]any)
	delete(got, "date_start")
	delete(got, "date_stop")
	want := map[string]any{"impressions": "1200", "reach": "1000", "clicks": "40", "spend": "12.34", "actions": []any{
		map[string]any{"action_type": "post_engagement", "value": "80"}, map[string]any{"action_type": "offsite_conversion.fb_pixel_purchase", "value": "4"},
		map[string]any{"action_type": "offsite_conversion", "value": "4"}, map[string]any{"action_type": "omni_purchase", "value": "4"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("insights = %v\nwant %v", got, want)
	}
	if got := graphErr(t, "GET", base+"/120299999"+insightsQuery, userToken, nil); got != "400 GraphMethodException 100" {
		t.Fatalf("insights of an unknown ad: %s", got)
	}
}

// checkRequestsRecorded checks every request is recorded, body included, and
// that ClearRequests empties the record.
func checkRequestsRecorded(t *testing.T, f *networkafake.Fake) {
	t.Helper()
	reqs := f.Requests()
	var creates int
	for _, r := range reqs {
		if r.Method == "POST" && strings.HasPrefix(r.Path, "/v25.0/act_1/") && r.Authorization == "Bearer "+userToken {
			creates++
		}
	}
	if creates != 3+10 {
		t.Fatalf("%d creates recorded, want 3 and the 10 refused on act_1", creates)
	}
	if last := reqs[len(reqs)-1]; last.Method != "GET" || !strings.Contains(last.Path, "/120299999/insights?") {
		t.Fatalf("last request = %+v", last)
	}
	f.ClearRequests()
	if len(f.Requests()) != 0 {
		t.Fatal("ClearRequests kept requests")
	}
}

func merge(a, b map[string]any) map[string]any {
	m := map[string]any{}
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

func TestFaults(t *testing.T) {
	f, base := world(t)
	meURL := base + "/me?fields=id,first_name,last_name,email"
	get := func() (int, string, string) {
		resp, err := http.Get(meURL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	f.SetDown(true)
	if status, _, body := get(); status != 503 || !strings.Contains(body, `"is_transient":true`) {
		t.Fatalf("down: %d %s", status, body)
	}
	f.SetFault(networkafake.FaultError500)
	if status, _, body := get(); status != 500 || !strings.Contains(body, `"code":2`) {
		t.Fatalf("error500: %d %s", status, body)
	}
	f.SetFault(networkafake.FaultGarbage)
	if status, ct, _ := get(); status != 200 || ct != "text/html" {
		t.Fatalf("garbage: %d %s", status, ct)
	}
	f.SetFault(networkafake.FaultBare401)
	if status, _, body := get(); status != 401 || strings.Contains(body, "OAuthException") {
		t.Fatalf("bare 401: %d %s", status, body)
	}
	f.SetDown(false)
	mustOK(t, "GET", meURL, userToken, nil)

	// A delay holds the answer, and ends with the caller's context.
	f.SetDelay(time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", meURL, nil)
	req.Header.Set("Authorization", "Bearer "+userToken)
	start := time.Now()
	_, err := http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("delayed call: %v after %v", err, time.Since(start))
	}
	f.SetDelay(50 * time.Millisecond)
	start = time.Now()
	mustOK(t, "GET", meURL, userToken, nil)
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("a 50 ms delay answered after %v", d)
	}
	// Every request was recorded, the failed ones too.
	if n := len(f.Requests()); n != 7 {
		t.Fatalf("%d requests recorded, want 7", n)
	}
}

// FailCalls answers the scripted error to the next n calls of one method
// and path only, under any version prefix, then answers normally again.
func TestFailCalls(t *testing.T) {
	f, base := world(t)
	meURL := base + "/me?fields=id,first_name,last_name,email"
	f.FailCalls("GET", "/me/", 2, networkafake.RateLimited())
	f.FailCalls("POST", "act_1/campaigns", 1, networkafake.Error{Status: 500, Code: 1, Subcode: 99, Transient: true, Message: "(#1) An unknown error occurred"})
	for range 2 {
		status, body := call(t, "GET", meURL, userToken, nil)
		e, _ := body["error"].(map[string]any)
		if status != 400 || e["code"] != float64(17) || e["type"] != "OAuthException" || e["is_transient"] != nil {
			t.Fatalf("rate-limited /me: %d %v", status, body)
		}
	}
	mustOK(t, "GET", meURL, userToken, nil)
	// Another method or path is not scripted.
	mustOK(t, "GET", base+"/act_1/campaigns", userToken, nil)
	status, body := call(t, "POST", strings.TrimSuffix(base, "/v25.0")+"/v20.0/act_1/campaigns", userToken,
		map[string]any{"name": "x", "objective": "OUTCOME_TRAFFIC", "special_ad_categories": []string{}})
	e, _ := body["error"].(map[string]any)
	if status != 500 || e["code"] != float64(1) || e["error_subcode"] != float64(99) || e["is_transient"] != true {
		t.Fatalf("scripted create: %d %v", status, body)
	}
	if len(f.Objects("campaign")) != 0 {
		t.Fatal("a failed create made a campaign")
	}
	// n ≤ 0 ends a script before it is used up.
	f.FailCalls("GET", "me", 5, networkafake.Transient())
	f.FailCalls("GET", "me", 0, networkafake.Error{})
	mustOK(t, "GET", meURL, userToken, nil)
}

// TestUpdateUser changes a user between two sign-ins, and a handler mounted
// without httptest (as the sandbox does) answers the same.
func TestUpdateUser(t *testing.T) {
	f := networkafake.New()
	f.AddUser(networkafake.User{Token: userToken, ID: "1", Pages: []networkafake.Page{{ID: "456", Name: "Gym", Token: pageToken, Followers: 5}}})
	f.SetFollowers("456", 700)
	f.UpdateUser(userToken, func(u *networkafake.User) {
		u.Pages[0].Name = "Gym, renamed"
		u.Pages = append(u.Pages, networkafake.Page{ID: "458", Name: "New", Token: "EAAnew0page"})
	})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/v21.0/me/accounts?fields=id,name,picture,access_token,network_b_account", nil)
	req.Header.Set("Authorization", "Bearer "+userToken)
	f.ServeHTTP(rec, req)
	var acc struct {
		Data []struct {
			ID, Name    string
			AccessToken string `json:"access_token"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &acc); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if len(acc.Data) != 2 || acc.Data[0].Name != "Gym, renamed" || acc.Data[1].AccessToken != "EAAnew0page" {
		t.Fatalf("accounts after UpdateUser = %+v", acc.Data)
	}
	rec = httptest.NewRecorder()
	req = httptest.NewRequest("GET", "/458?fields=followers_count", nil)
	req.Header.Set("Authorization", "Bearer EAAnew0page")
	f.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("the new page's token: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	req = httptest.NewRequest("GET", "/456?fields=followers_count", nil)
	req.Header.Set("Authorization", "Bearer "+pageToken)
	f.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"followers_count":700`) {
		t.Fatalf("UpdateUser lost SetFollowers: %s", rec.Body)
	}
}

// TestState: a world saved as JSON and restored into a new fake answers the
// same, and goes on numbering objects after the saved ones.
func TestState(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_1", Message: "#gym", Created: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), OrganicReach: 50})
	f.AddPost("456", networkafake.Post{ID: "456_2", Message: "later", Created: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)})
	f.SetFollowers("456", 4321)
	f.ExpireToken("EAAgone")
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-7", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := mustOK(t, "POST", base+"/act_1/adsets", userToken, map[string]any{"name": "adboost-7", "campaign_id": camp,
		"daily_budget": 2500, "bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS",
		"optimization_goal": "REACH", "targeting": noAutomation(), "promoted_object": map[string]any{"page_id": "456"}})["id"].(string)
	ad := mustOK(t, "POST", base+"/act_1/ads", userToken, map[string]any{"name": "adboost-7-1", "adset_id": adset,
		"creative": map[string]any{"object_story_id": "456_1", "instagram_user_id": bAccount}})["id"].(string)
	mustOK(t, "POST", base+"/"+camp, userToken, map[string]any{"status": "PAUSED"})
	f.SetAdInsights(ad, networkafake.Insights{Impressions: 10, Spend: "0.50"})

	saved, err := json.Marshal(f.State())
	if err != nil {
		t.Fatal(err)
	}
	g, base2 := networkafake.Start(t)
	var s networkafake.State
	dec := json.NewDecoder(strings.NewReader(string(saved)))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	g.SetState(s)
	if !reflect.DeepEqual(g.State(), f.State()) {
		t.Fatalf("restored state differs:\n%+v\n%+v", g.State(), f.State())
	}
	for _, c := range []struct{ path, token string }{
		{"/456/posts?fields=id,message,created_time", pageToken},
		{"/456?fields=followers_count", pageToken},
		{"/456_1/insights?metric=post_total_media_view_unique", pageToken},
		{"/me/accounts?fields=id,name,picture,network_b_account", userToken},
		{"/act_1/adsets?fields=id,name,status,daily_budget", userToken},
		{"/" + ad + "/insights?fields=impressions,spend&date_preset=maximum", userToken},
	} {
		a, b := mustOK(t, "GET", base+c.path, c.token, nil), mustOK(t, "GET", base2+c.path, c.token, nil)
		delete(a, "paging")
		delete(b, "paging")
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: %v after restore, %v before", c.path, b, a)
		}
	}
	if got := graphErr(t, "GET", base2+"/me?fields=id,first_name,last_name,email", "EAAgone", nil); got != "400 OAuthException 190" {
		t.Fatalf("expired token after restore: %s", got)
	}
	next := mustOK(t, "POST", base2+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-8", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	if next <= ad {
		t.Fatalf("a new object after restore got id %s, not after %s", next, ad)
	}
}
