package networka

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// adSetBody is an ad set create network_a takes for an engagement
// campaign of page 11: Advantage audience off, the post as destination,
// the page as promoted object, a country outside the EU.
func adSetBody(name, campaign string) map[string]any {
	return map[string]any{"name": name, "campaign_id": campaign, "daily_budget": 2500,
		"bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT",
		"destination_type": "ON_POST", "promoted_object": map[string]any{"page_id": "11"},
		"targeting": map[string]any{"geo_locations": map[string]any{"countries": []string{"CL"}},
			"targeting_automation": map[string]any{"advantage_audience": 0}},
		"status": "ACTIVE"}
}

// campaignWithAds creates, through c, a campaign on act_1, an ad set and an
// ad for each post of page 11, and answers the campaign's and the ads' ids.
func campaignWithAds(t *testing.T, c *Client, posts ...string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	s := Scope{User: "1", AdAccount: "act_1"}
	campaign, err := c.Create(ctx, tokenA, "campaign", campaignBody("adboost-7"), s)
	if err != nil {
		t.Fatal(err)
	}
	adset, err := c.Create(ctx, tokenA, "adset", adSetBody("adboost-7", campaign), s)
	if err != nil {
		t.Fatal(err)
	}
	var ads []string
	for _, p := range posts {
		// The ad set may deliver on network_b: the creative names the
		// page's network_b account.
		id, err := c.Create(ctx, tokenA, "ad", map[string]any{"name": "adboost-7-" + p, "adset_id": adset,
			"creative": map[string]any{"object_story_id": p, "instagram_user_id": "711"}, "status": "ACTIVE"}, s)
		if err != nil {
			t.Fatal(err)
		}
		ads = append(ads, id)
	}
	return campaign, ads
}

// TestPostsSince: Posts asks with since in UNIX seconds and answers the
// posts created at or after it, newest first, with their fields.
func TestPostsSince(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	now := time.Now().UTC().Truncate(time.Second)
	since := now.Add(-48 * time.Hour)
	for i, age := range []time.Duration{49 * time.Hour, 48 * time.Hour, 47 * time.Hour, time.Hour} {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", i+1), Message: fmt.Sprintf("post %d #gym", i+1),
			Created: now.Add(-age), Permalink: fmt.Sprintf("https://a.example/11_%d", i+1), Picture: fmt.Sprintf("https://cdn.example/%d.jpg", i+1),
			Reactions: 10 * i, Comments: i, Shares: i - 2})
	}
	c := newClient(t, base, Options{})
	posts, _, err := c.Posts(context.Background(), page11, "11", since, 500, Scope{Page: "11"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range posts {
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%d/%d/%d", p.ID, p.Message, p.Created.UTC().Format(time.RFC3339), p.Permalink, p.Picture,
			p.Reactions, p.Comments, p.Shares))
	}
	// Shares left out (0 or fewer, as the fake answers) count 0.
	want := []string{
		"11_4|post 4 #gym|" + now.Add(-time.Hour).Format(time.RFC3339) + "|https://a.example/11_4|https://cdn.example/4.jpg|30/3/1",
		"11_3|post 3 #gym|" + now.Add(-47*time.Hour).Format(time.RFC3339) + "|https://a.example/11_3|https://cdn.example/3.jpg|20/2/0",
		"11_2|post 2 #gym|" + now.Add(-48*time.Hour).Format(time.RFC3339) + "|https://a.example/11_2|https://cdn.example/2.jpg|10/1/0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("posts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := fake.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	q := query(t, calls[0].Path)
	if !strings.HasPrefix(calls[0].Path, "/11/posts?") || calls[0].Token != page11 || len(q) != 3 ||
		q.Get("since") != strconv.FormatInt(since.Unix(), 10) || q.Get("limit") != "100" ||
		q.Get("fields") != "id,message,created_time,permalink_url,full_picture,status_type,"+
			"reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares" {
		t.Fatalf("posts asked as %+v", calls[0])
	}
}

// TestPostsStopAtOlder: a post older than since ends the list, even when
// network_a answers it (and more pages) all the same.
func TestPostsStopAtOlder(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Truncate(time.Second)
	post := func(id string, age time.Duration) map[string]any {
		return map[string]any{"id": id, "message": id, "created_time": now.Add(-age).Format("2006-01-02T15:04:05-0700")}
	}
	var api *server
	api = serve(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"data":   []any{post("11_9", time.Hour), post("11_8", 50*time.Hour), post("11_7", 2*time.Hour)},
			"paging": map[string]any{"next": api.URL + "/11/posts?after=3"},
		})
	})
	c := newClient(t, api.URL, Options{})
	posts, _, err := c.Posts(context.Background(), page11, "11", now.Add(-48*time.Hour), 500, Scope{})
	if err != nil || len(posts) != 1 || posts[0].ID != "11_9" || !posts[0].Created.Equal(now.Add(-time.Hour)) {
		t.Fatalf("Posts = %+v, %v; want only 11_9", posts, err)
	}
	if reqs := api.requests(); len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 (no page after an older post)", len(reqs))
	}
}

// TestPostsMax: max caps the number of posts, and pages are read only
// while it is not reached.
func TestPostsMax(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	now := time.Now().UTC().Truncate(time.Second)
	for i := 0; i < 150; i++ {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", 1000+i), Created: now.Add(-time.Duration(150-i) * time.Minute)})
	}
	c := newClient(t, base, Options{})
	since := now.Add(-24 * time.Hour)
	for _, c2 := range []struct{ max, posts, requests int }{{3, 3, 1}, {99, 99, 1}, {120, 120, 2}, {500, 150, 2}} {
		fake.ClearRequests()
		posts, truncated, err := c.Posts(context.Background(), page11, "11", since, c2.max, Scope{Page: "11"})
		if err != nil || len(posts) != c2.posts || truncated != (c2.max < 150) {
			t.Fatalf("Posts max %d = %d posts, truncated %v, %v; want %d", c2.max, len(posts), truncated, err, c2.posts)
		}
		for i, p := range posts {
			if want := fmt.Sprintf("11_%d", 1149-i); p.ID != want {
				t.Fatalf("post %d is %s, want %s", i, p.ID, want)
			}
		}
		reqs := fake.Requests()
		if len(reqs) != c2.requests {
			t.Fatalf("max %d: %d requests, want %d", c2.max, len(reqs), c2.requests)
		}
		if c2.requests == 2 {
			q := query(t, reqs[1].Path)
			if q.Get("since") != strconv.FormatInt(since.Unix(), 10) || q.Get("after") != "100" || q.Has("access_token") || reqs[1].Authorization != "Bearer "+page11 {
				t.Fatalf("second page asked as %+v", reqs[1])
			}
		}
	}
}

// TestPostsMaxNoExtraPage: once max posts are read, no further page is
// asked for (a full first page of 100 with max 100 is one call).
func TestPostsMaxNoExtraPage(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	now := time.Now().UTC().Truncate(time.Second)
	for i := 0; i < 150; i++ {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", 1000+i), Created: now.Add(-time.Duration(150-i) * time.Minute)})
	}
	c := newClient(t, base, Options{})
	posts, truncated, err := c.Posts(context.Background(), page11, "11", now.Add(-24*time.Hour), 100, Scope{Page: "11"})
	if err != nil || len(posts) != 100 || !truncated {
		t.Fatalf("Posts max 100 = %d posts, %v", len(posts), err)
	}
	if reqs := fake.Requests(); len(reqs) != 1 {
		t.Fatalf("max 100 reached on the first page: %d requests, want 1", len(reqs))
	}
}

// TestAdInsightsLevelAd: one level=ad read answers each ad that delivered
// with its counts, actions and spend (three decimals kept as sent).
func TestAdInsightsLevelAd(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	for i := 1; i <= 3; i++ {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", i)})
	}
	c := newClient(t, base, Options{})
	campaign, ads := campaignWithAds(t, c, "11_1", "11_2", "11_3")
	fake.SetAdInsights(ads[0], networkafake.Insights{Impressions: 1200, Reach: 1000, Clicks: 40, Engagement: 80, Conversions: 4, Spend: "12.34"})
	fake.SetAdInsights(ads[1], networkafake.Insights{Impressions: 5, Reach: 4, Spend: "1.234"})
	fake.ClearRequests()
	got, _, err := c.AdInsights(context.Background(), tokenA, campaign, "offsite_conversion.fb_pixel_purchase", Scope{User: "1", AdAccount: "act_1"})
	want := map[string]Insights{
		ads[0]: {Impressions: 1200, Reach: 1000, Clicks: 40, Engagement: 80, Conversions: 4, Spend: "12.34"},
		ads[1]: {Impressions: 5, Reach: 4, Spend: "1.234"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("AdInsights = %+v, %v; want %+v", got, err, want)
	}
	calls := fake.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	q := query(t, calls[0].Path)
	if !strings.HasPrefix(calls[0].Path, "/"+campaign+"/insights?") || calls[0].Token != tokenA || len(q) != 4 ||
		q.Get("level") != "ad" || q.Get("limit") != "500" || q.Get("date_preset") != "maximum" ||
		q.Get("fields") != "ad_id,impressions,reach,clicks,spend,actions" {
		t.Fatalf("insights asked as %+v", calls[0])
	}
}

// TestAdInsightsPaging: level=ad rows over two pages are all read, the
// second page without the link's access_token.
func TestAdInsightsPaging(t *testing.T) {
	t.Parallel()
	var api *server
	api = serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("after") == "" {
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{
				map[string]any{"ad_id": "901", "impressions": "10", "reach": "9", "clicks": "1", "spend": "0.50",
					"actions": []any{map[string]any{"action_type": "post_engagement", "value": "3"}, map[string]any{"action_type": "like", "value": "7"}}},
				map[string]any{"ad_id": "902", "impressions": "20", "reach": "18", "clicks": "2", "spend": "1.234"},
			}, "paging": map[string]any{"next": api.URL + "/v25.0/555/insights?level=ad&fields=ad_id%2Cimpressions&limit=2&after=2&access_token=" + tokenA}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{
			map[string]any{"ad_id": "903", "impressions": "30", "reach": "27", "clicks": "3", "spend": "3",
				"actions": []any{map[string]any{"action_type": "offsite_conversion.fb_pixel_purchase", "value": "2"},
					map[string]any{"action_type": "offsite_conversion", "value": "2"}, map[string]any{"action_type": "omni_purchase", "value": "2"},
					map[string]any{"action_type": "post_engagement", "value": "4"}}},
		}})
	})
	c := newClient(t, api.URL+"/v25.0", Options{})
	got, _, err := c.AdInsights(context.Background(), tokenA, "555", "offsite_conversion.fb_pixel_purchase", Scope{})
	want := map[string]Insights{
		"901": {Impressions: 10, Reach: 9, Clicks: 1, Engagement: 3, Spend: "0.50"},
		"902": {Impressions: 20, Reach: 18, Clicks: 2, Spend: "1.234"},
		"903": {Impressions: 30, Reach: 27, Clicks: 3, Engagement: 4, Conversions: 2, Spend: "3"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("AdInsights = %+v, %v; want %+v", got, err, want)
	}
	reqs := api.requests()
	if len(reqs) != 2 || reqs[1].URI != "/v25.0/555/insights?after=2&fields=ad_id%2Cimpressions&level=ad&limit=2" || reqs[1].Authorization != "Bearer "+tokenA {
		t.Fatalf("requests = %+v", reqs)
	}
}

// TestAdInsightsRows: what a row may hold (absent counts are 0, absent
// spend is "0") and what is not network_a's protocol (ErrUnavailable).
func TestAdInsightsRows(t *testing.T) {
	t.Parallel()
	for row, want := range map[string]*Insights{
		`{"ad_id":"9"}`: {Spend: "0"},
		`{"ad_id":"9","impressions":"","spend":"0.001"}`: {Spend: "0.001"},
		`{"ad_id":"9","impressions":"12","actions":[{"action_type":"post_engagement","value":"5"},{"action_type":"post_engagement","value":"6"}]}`: {Impressions: 12, Engagement: 11, Spend: "0"},
		`{"ad_id":"9","impressions":"12x"}`: nil,
		`{"ad_id":"9","reach":"-1"}`:        nil,
		`{"ad_id":"9","clicks":"1.5"}`:      nil,
		`{"ad_id":"9","impressions":12}`:    nil,
		`{"ad_id":"9","actions":[{"action_type":"offsite_conversion.fb_pixel_purchase","value":"x"}]}`:                                                                                              nil,
		`{"ad_id":"9","actions":[{"action_type":"offsite_conversion","value":"7"},{"action_type":"omni_purchase","value":"7"},{"action_type":"offsite_conversion.fb_pixel_purchase","value":"7"}]}`: {Conversions: 7, Spend: "0"},
		`{"ad_id":"9","actions":[{"action_type":"offsite_conversion","value":"x"}]}`:                                                                                                                {Spend: "0"},
		`{"ad_id":"9","spend":"1,5"}`:                        nil,
		`{"ad_id":"9","spend":"-1.00"}`:                      nil,
		`{"ad_id":"9","spend":"abc"}`:                        nil,
		`{"ad_id":"9","spend":"1e3"}`:                        nil,
		`{"impressions":"12"}`:                               nil,
		`"a row"`:                                            nil,
		`{"ad_id":"9","impressions":"99999999999999999999"}`: nil,
		`{"ad_id":"9","actions":{"action_type":"post_engagement","value":"1"}}`: nil,
	} {
		t.Run(row, func(t *testing.T) {
			t.Parallel()
			api := serve(t, func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"data":[`+row+`]}`)
			})
			c := newClient(t, api.URL, Options{})
			got, bad, err := c.AdInsights(context.Background(), tokenA, "555", "offsite_conversion.fb_pixel_purchase", Scope{})
			switch {
			case want == nil && !strings.Contains(row, `"ad_id":"9"`):
				// No ad to lay the row at: left out, answered as "".
				if err != nil || len(got) != 0 || !reflect.DeepEqual(bad, []string{""}) {
					t.Fatalf("AdInsights = %+v, bad %q, %v; want nothing and one bad row of no ad", got, bad, err)
				}
			case want == nil:
				// The ad's bad row is left out; the read goes on.
				if err != nil || len(got) != 0 || !reflect.DeepEqual(bad, []string{"9"}) {
					t.Fatalf("AdInsights = %+v, bad %v, %v; want nothing and ad 9 bad", got, bad, err)
				}
			case err != nil || len(bad) != 0 || !reflect.DeepEqual(got, map[string]Insights{"9": *want}):
				t.Fatalf("AdInsights = %+v, bad %v, %v; want %+v", got, bad, err, *want)
			}
		})
	}
}

// TestAdsEffectiveStatus: Ads answers the campaign's ads with their
// effective_status; deleted ones are left out by network_a.
func TestAdsEffectiveStatus(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	for i := 1; i <= 4; i++ {
		fake.AddPost("11", networkafake.Post{ID: fmt.Sprintf("11_%d", i)})
	}
	c := newClient(t, base, Options{})
	campaign, ads := campaignWithAds(t, c, "11_1", "11_2", "11_3", "11_4")
	fake.SetAdReview(ads[1], networkafake.ReviewDisapproved)
	fake.SetObjectStatus(ads[2], "PAUSED")
	fake.SetObjectStatus(ads[3], "DELETED")
	fake.ClearRequests()
	got, err := c.Ads(context.Background(), tokenA, campaign, Scope{User: "1", AdAccount: "act_1"})
	want := []Ad{
		{ID: ads[0], Name: "adboost-7-11_1", Status: "ACTIVE"},
		{ID: ads[1], Name: "adboost-7-11_2", Status: "DISAPPROVED"},
		{ID: ads[2], Name: "adboost-7-11_3", Status: "PAUSED"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Ads = %+v, %v; want %+v", got, err, want)
	}
	calls := fake.Calls()
	q := query(t, calls[0].Path)
	if len(calls) != 1 || !strings.HasPrefix(calls[0].Path, "/"+campaign+"/ads?") || len(q) != 2 ||
		q.Get("fields") != "id,name,effective_status,ad_review_feedback,issues_info" || q.Get("limit") != "500" || calls[0].Token != tokenA {
		t.Fatalf("ads asked as %+v", calls)
	}
	fake.SetObjectStatus(campaign, "PAUSED")
	got, err = c.Ads(context.Background(), tokenA, campaign, Scope{User: "1", AdAccount: "act_1"})
	if err != nil || len(got) != 3 || got[0].Status != "CAMPAIGN_PAUSED" || got[1].Status != "DISAPPROVED" || got[2].Status != "PAUSED" {
		t.Fatalf("Ads of a paused campaign = %+v, %v", got, err)
	}
}
