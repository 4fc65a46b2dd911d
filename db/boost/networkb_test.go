package boost_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
	"adboost/db/dataset"
)

// The range of the ids adboost assigns to network_b posts: [2^52, 2^53).
const (
	minMediaPostID = 1 << 52
	maxMediaPostID = 1<<53 - 1
)

// newWorldB is newWorld with Ana's network_b account 789 (1,000 followers)
// linked to page 456 (login-sn stores the link), campaigns 7 and 8 turned
// off, and two campaigns more:
//   - 9: network_b account 789 only, hashtag #gym, preset 1, daily 10.00,
//     POST_ENGAGEMENT, targeting on both networks with network_b_positions;
//   - 10: page 456 and account 789, preset 2 (keywords fitness and #run,
//     reach 20 %), lifetime 50.00, LINK_CLICKS.
func newWorldB(t *testing.T) *world {
	t.Helper()
	w := newWorld(t)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.Pages[0].B = &networkafake.AccountB{ID: "789", Username: "anasgym", Picture: "https://img-b.example/anasgym.jpg"}
	})
	w.fake.SetFollowers("789", 1000)
	w.loginSN(userToken)
	fixture := strings.ReplaceAll(`{"boosted_pages": [
    {"id": 9, "user_id": 100, "network_b_id": 789, "preset_id": 1, "active": true,
     "campaign_budget_type": "daily", "campaign_budget_value": "10.00", "goal": "POST_ENGAGEMENT",
     "audience_targeting": {"geo_locations": {"countries": ["CZ"]}, "publisher_platforms": ["network_a", "network_b"],
                            "network_a_positions": ["feed"], "network_b_positions": ["stream", "reels"]},
     "hashtag": "#gym", "end_date": "END"},
    {"id": 10, "user_id": 100, "page_id": 456, "network_b_id": 789, "preset_id": 2, "active": true,
     "campaign_budget_type": "lifetime", "campaign_budget_value": "50.00", "goal": "LINK_CLICKS",
     "audience_targeting": {"age_min": 21}, "hashtag": "", "end_date": "END"}
  ]}`, "END", w.endDate)
	if err := dataset.Load(context.Background(), w.pool, strings.NewReader(fixture)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.pool.Exec(context.Background(), `UPDATE campaign SET active = false WHERE id IN (7, 8)`); err != nil {
		t.Fatal(err)
	}
	return w
}

// media publishes a media on network_b account 789, age ago, with its
// organic reach, and answers it as network_a holds it.
func (w *world) media(id, caption, kind string, age time.Duration, reach int) networkafake.Media {
	w.t.Helper()
	m := networkafake.Media{ID: id, Caption: caption, Type: kind, Created: time.Now().Add(-age),
		Permalink: "https://net-b.example/p/" + id, URL: "https://img-b.example/" + id + ".jpg", Reach: reach}
	if kind == "VIDEO" {
		m.Thumbnail = "https://img-b.example/" + id + "-thumb.jpg"
	}
	w.fake.AddMedia("789", m)
	for _, got := range w.fake.MediaOf("789") {
		if got.ID == id {
			return got
		}
	}
	w.t.Fatalf("the fake has no media %s", id)
	return m
}

// postByLink answers the boosted post of a list with that link.
func postByLink(posts []boostedPost, link string) (boostedPost, bool) {
	i := slices.IndexFunc(posts, func(p boostedPost) bool { return p.Link == link })
	if i < 0 {
		return boostedPost{}, false
	}
	return posts[i], true
}

// A network_b-only campaign boosts exactly its matching media, each as a
// boosted post with an id adboost assigns, in an ad set of its own; a
// campaign with both ids boosts both networks, each into its own ad set.
func TestNetworkBBoostsMatchingMedia(t *testing.T) {
	w := newWorldB(t)
	long := "#gym " + strings.Repeat("lift ", 40)
	m1 := w.media("17890000000000001", "Leg day at the #gym", "IMAGE", 2*time.Hour, 0)
	m2 := w.media("17890000000000002", "A #gym tour for fitness fans", "VIDEO", 3*time.Hour, 300) // 30 % of followers
	w.media("17890000000000003", "fitness carousel", "CAROUSEL_ALBUM", 4*time.Hour, 199)          // 19.9 %: under 20 %
	w.media("17890000000000004", "Floor routine #gymnastics", "IMAGE", 5*time.Hour, 900)          // not the whole tag
	m5 := w.media("17890000000000005", long, "CAROUSEL_ALBUM", 6*time.Hour, 0)                    //
	w.media("17890000000000006", "Old #gym fitness news", "IMAGE", 200*time.Hour, 900)            // older than the max age
	m7 := w.media("17890000000000007", "#run with us", "IMAGE", 7*time.Hour, 200)                 // exactly 20 %
	w.post("1", "Morning #run", time.Hour, 500)
	w.cycle()

	ids := checkCampaign9Media(t, w, m1, m2, m5)
	checkCampaign10Media(t, w, ids, m2, m7)
	checkNetworkBAdSetsAndAds(t, w)
	checkNetworkBHistoryAndReads(t, w, ids, m1, m2, m5)

	// The same ids on the next cycles; a new media is boosted.
	m8 := w.media("17890000000000008", "New #gym hours", "IMAGE", 0, 0)
	w.cycle()
	w.cycle()
	posts9 := w.list(9)
	if len(posts9) != 4 || posts9[0].Link != m8.Permalink || posts9[1].ID != ids[m1.ID] || posts9[0].ID == ids[m1.ID] {
		t.Errorf("after two more cycles, campaign 9: %+v", posts9)
	}
	if got := len(w.namesOf("ad", "adboost-9-")); got == 0 || strings.Count(w.namesOf("ad", "adboost-9-"), ",") != 3 {
		t.Errorf("after two more cycles, ads of 9: %s", w.namesOf("ad", "adboost-9-"))
	}
}

// checkCampaign9Media checks campaign 9 (network_b only, #gym) boosted m1, m2
// and m5, newest first, each as a post with an id adboost assigns; it
// answers the posts' ids by media id.
func checkCampaign9Media(t *testing.T, w *world, m1, m2, m5 networkafake.Media) map[string]int64 {
	t.Helper()
	// Campaign 9 (network_b only, #gym): m1, m2 and m5, newest first.
	posts9 := w.list(9)
	if len(posts9) != 3 {
		t.Fatalf("campaign 9 boosted %d posts, want 3: %+v\n%s", len(posts9), posts9, w.logs)
	}
	ids := map[string]int64{}
	for _, want := range []struct {
		m    networkafake.Media
		name string
		img  string
	}{
		{m1, m1.Caption, m1.URL},
		{m2, m2.Caption, m2.Thumbnail},
		{m5, strings.TrimRight(m5.Caption[:99], " ") + "…", m5.URL},
	} {
		p, ok := postByLink(posts9, want.m.Permalink)
		if !ok {
			t.Fatalf("media %s not boosted in 9: %+v", want.m.ID, posts9)
		}
		if p.ID < minMediaPostID || p.ID > maxMediaPostID {
			t.Errorf("media %s has id %d, outside [2^52, 2^53)", want.m.ID, p.ID)
		}
		wantPost := boostedPost{ID: p.ID, Active: true, Name: want.name, Link: want.m.Permalink, Image: want.img, Created: want.m.Created.Unix()}
		if p != wantPost {
			t.Errorf("media %s's post:\n got %+v\nwant %+v", want.m.ID, p, wantPost)
		}
		ids[want.m.ID] = p.ID
	}
	if got := []int64{posts9[0].ID, posts9[1].ID, posts9[2].ID}; !reflect.DeepEqual(got, []int64{ids[m1.ID], ids[m2.ID], ids[m5.ID]}) {
		t.Errorf("campaign 9's posts in order %v, want m1, m2, m5 (newest first)", got)
	}
	if n := len([]rune(posts9[2].Name)); n != 100 {
		t.Errorf("m5's name has %d characters, want 100", n)
	}
	return ids
}

// checkCampaign10Media checks campaign 10 (page and account, keywords and
// reach 20 %) boosted the page's post 1, m2 (the same post as in 9) and m7.
func checkCampaign10Media(t *testing.T, w *world, ids map[string]int64, m2, m7 networkafake.Media) {
	t.Helper()
	// Campaign 10 (page and account, keywords and reach 20 %): the page's
	// post 1, m2 (the same post as in 9) and m7 (exactly 20 %).
	posts10 := w.list(10)
	p7, ok := postByLink(posts10, m7.Permalink)
	if !ok {
		t.Fatalf("m7 not boosted in 10: %+v", posts10)
	}
	if got, want := w.ids(posts10), fmt.Sprintf("1,%d,%d", ids[m2.ID], p7.ID); got != want {
		t.Errorf("campaign 10 boosted %s, want %s", got, want)
	}
	if p7.ID == ids[m2.ID] || p7.ID < minMediaPostID {
		t.Errorf("m7's id %d", p7.ID)
	}
}

// checkNetworkBAdSetsAndAds checks one network_a campaign per adboost
// campaign, the network_b ad sets' fields, and an ad per media in them.
func checkNetworkBAdSetsAndAds(t *testing.T, w *world) {
	t.Helper()
	// One network_a campaign per adboost campaign; campaign 9 has only the
	// network_b ad set, campaign 10 one for each network.
	if got := w.sortedNames("campaign"); got != "adboost-10,adboost-9" {
		t.Errorf("campaigns %s", got)
	}
	if got := w.sortedNames("adset"); got != "adboost-10,adboost-10-network_b,adboost-9-network_b" {
		t.Errorf("ad sets %s", got)
	}
	c9 := w.object("campaign", "adboost-9")
	s9 := w.object("adset", "adboost-9-network_b")
	want9 := fmt.Sprintf(`{"bid_strategy":"LOWEST_COST_WITHOUT_CAP","billing_event":"IMPRESSIONS","campaign_id":%q,`+
		`"daily_budget":1000,"destination_type":"ON_POST","dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak s.r.o.",`+
		`"end_time":"%sT23:59:59Z","name":"adboost-9-network_b","optimization_goal":"POST_ENGAGEMENT","promoted_object":{"page_id":"456"},"status":"ACTIVE",`+
		`"targeting":{"geo_locations":{"countries":["CZ"]},"network_a_positions":["feed"],"network_b_positions":["stream","reels"],"publisher_platforms":["network_b"],`+
		`"targeting_automation":{"advantage_audience":0}}}`,
		c9.ID, w.endDate)
	if got := jsonString(s9.Fields); got != want9 {
		t.Errorf("ad set adboost-9-network_b:\n got %s\nwant %s", got, want9)
	}
	c10 := w.object("campaign", "adboost-10")
	s10 := w.object("adset", "adboost-10")
	s10b := w.object("adset", "adboost-10-network_b")
	if got := jsonString(s10.Fields["targeting"]); got != `{"age_min":21,"targeting_automation":{"advantage_audience":0}}` || s10.Fields["campaign_id"] != c10.ID {
		t.Errorf("ad set adboost-10: %s", jsonString(s10.Fields))
	}
	if got := jsonString(s10b.Fields["targeting"]); got != `{"age_min":21,"publisher_platforms":["network_b"],"targeting_automation":{"advantage_audience":0}}` || s10b.Fields["campaign_id"] != c10.ID {
		t.Errorf("ad set adboost-10-network_b: %s", jsonString(s10b.Fields))
	}

	// An ad per media, named with the media id, its creative the media of
	// the account, in the network_b ad set; oldest first.
	if got := w.namesOf("ad", "adboost-9-"); got != "adboost-9-b17890000000000005,adboost-9-b17890000000000002,adboost-9-b17890000000000001" {
		t.Errorf("ads of 9: %s", got)
	}
	ad := w.object("ad", "adboost-9-b17890000000000002")
	if got, want := jsonString(ad.Fields), fmt.Sprintf(`{"adset_id":%q,"creative":{"instagram_user_id":"789","object_id":"456","source_instagram_media_id":"17890000000000002"},`+
		`"name":"adboost-9-b17890000000000002","status":"ACTIVE"}`, s9.ID); got != want {
		t.Errorf("ad of m2 in 9:\n got %s\nwant %s", got, want)
	}
	if got := w.namesOf("ad", "adboost-10-"); got != "adboost-10-b17890000000000007,adboost-10-b17890000000000002,adboost-10-1" {
		t.Errorf("ads of 10: %s", got)
	}
	if got := w.object("ad", "adboost-10-1").Fields["adset_id"]; got != s10.ID {
		t.Errorf("the page's post's ad is in ad set %v, want %s", got, s10.ID)
	}
	if got := w.object("ad", "adboost-10-b17890000000000007").Fields["adset_id"]; got != s10b.ID {
		t.Errorf("m7's ad is in ad set %v, want %s", got, s10b.ID)
	}
}

// checkNetworkBHistoryAndReads checks the history names the posts by their
// ids in adboost, and how media, reach and followers were read.
func checkNetworkBHistoryAndReads(t *testing.T, w *world, ids map[string]int64, m1, m2, m5 networkafake.Media) {
	t.Helper()
	// The history names the post by its id in adboost.
	var want []string
	for _, m := range []string{m5.ID, m2.ID, m1.ID} {
		want = append(want, fmt.Sprintf(`{"ad_id":%q,"post_id":%d}`, w.object("ad", "adboost-9-b"+m).ID, ids[m]))
	}
	if got := w.boostedEntries(9); !reflect.DeepEqual(got, want) {
		t.Errorf("history of 9: %v, want %v", got, want)
	}
	// Media were read with since; reach was asked only for campaign 10's
	// candidates (m2, m3, m7), with metric=reach, and the account's
	// followers once.
	var reachAsked []string
	followers := 0
	for _, c := range w.fake.Calls() {
		if strings.HasPrefix(c.Path, "/789/media") && !strings.Contains(c.Path, "since=") {
			t.Errorf("media read without since: %s", c.Path)
		}
		if strings.Contains(c.Path, "/insights?") && strings.Contains(c.Path, "metric=reach") {
			reachAsked = append(reachAsked, strings.Split(strings.TrimPrefix(c.Path, "/"), "/")[0])
		}
		if strings.HasPrefix(c.Path, "/789?") && strings.Contains(c.Path, "followers_count") {
			followers++
		}
		if c.Token == userToken && (strings.HasPrefix(c.Path, "/789") || strings.HasPrefix(c.Path, "/1789")) {
			t.Errorf("network_b read with the user's token: %s", c.Path)
		}
	}
	slices.Sort(reachAsked)
	if got := strings.Join(reachAsked, ","); got != "17890000000000002,17890000000000003,17890000000000007" {
		t.Errorf("reach asked for %s", got)
	}
	if followers != 1 {
		t.Errorf("the account's followers asked %d times, want 1", followers)
	}
}

// The interface sees network_b posts like network_a ones: list and count by
// the account as source_id, batch-insights of their ads, the platform
// filters of campaigns.
func TestNetworkBInterface(t *testing.T) {
	w := newWorldB(t)
	m1 := w.media("17890000000000001", "#gym fitness", "IMAGE", 2*time.Hour, 500)
	w.post("1", "fitness at the #gym", time.Hour, 500)
	w.cycle()
	all := w.list(0)
	pb, ok := postByLink(all, m1.Permalink)
	if !ok || len(all) != 2 {
		t.Fatalf("Ana's posts: %+v", all)
	}
	var bySource []boostedPost
	w.call(http.MethodPost, "/v1/boosted-posts/list", map[string]any{"page": "1", "source_id": "789"}, &bySource)
	if len(bySource) != 1 || bySource[0] != pb {
		t.Errorf("list by source 789: %+v, want [%+v]", bySource, pb)
	}
	w.call(http.MethodPost, "/v1/boosted-posts/list", map[string]any{"page": "1", "source_id": "456"}, &bySource)
	if len(bySource) != 1 || bySource[0].ID != 1 {
		t.Errorf("list by source 456: %+v", bySource)
	}
	var n int
	w.call(http.MethodPost, "/v1/boosted-posts/count", map[string]any{"source_id": "789"}, &n)
	if n != 1 {
		t.Errorf("count by source 789: %d", n)
	}
	w.call(http.MethodPost, "/v1/boosted-posts/count", map[string]any{"source_id": "789", "boosted_page_id": 10}, &n)
	if n != 1 {
		t.Errorf("count by source 789 in campaign 10: %d", n)
	}
	// Campaigns: 9 and 10 have the account; the post is boosted in both.
	w.call(http.MethodPost, "/v1/boosted-pages/count", map[string]any{"status": "all", "platform": "network_b"}, &n)
	if n != 2 {
		t.Errorf("campaigns on network_b: %d, want 2", n)
	}
	w.call(http.MethodPost, "/v1/boosted-pages/count", map[string]any{"status": "all", "platform": "all", "boosted_post_id": fmt.Sprint(pb.ID)}, &n)
	if n != 2 {
		t.Errorf("campaigns boosting the media: %d, want 2", n)
	}
	// Its insights are the sum of its two ads.
	w.fake.SetAdInsights(w.object("ad", "adboost-9-b"+m1.ID).ID, networkafake.Insights{Impressions: 1000, Reach: 800, Clicks: 20, Engagement: 30, Conversions: 1, Spend: "4.00"})
	w.fake.SetAdInsights(w.object("ad", "adboost-10-b"+m1.ID).ID, networkafake.Insights{Impressions: 1000, Reach: 700, Clicks: 20, Engagement: 10, Conversions: 1, Spend: "6.00"})
	w.cycle()
	var got map[string]any
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": fmt.Sprintf("%d,1", pb.ID)}, &got)
	// impressions 2000, clicks 40, spend 10.00, conversions 2:
	// cpm 5.00, ctr 2.00, cpc 0.25, cpa 5.00, conversion rate 5.00.
	want := map[string]any{"posts": "2", "reach": "1500", "engagement": "40", "clicks": "40", "spend": "10.00",
		"cpm": "5.00", "ctr": "2.00", "cpc": "0.25", "cpa": "5.00", "conversions": "2", "conversion_rate": "5.00"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batch-insights:\n got %v\nwant %v", got, want)
	}
}

// A network_a post and a network_b media with the same numeric id are two
// posts, with two ids.
func TestNetworkBSameNumericID(t *testing.T) {
	w := newWorldB(t)
	if _, err := w.pool.Exec(context.Background(), `UPDATE campaign SET active = true WHERE id = 7`); err != nil {
		t.Fatal(err)
	}
	w.post("5", "#gym on the page", time.Hour, 0)
	m := w.media("5", "#gym on the account", "IMAGE", 2*time.Hour, 0)
	w.cycle()
	all := w.list(0)
	if len(all) != 2 {
		t.Fatalf("Ana's posts: %+v", all)
	}
	pa, okA := postByLink(all, "https://net-a.example/456/posts/5")
	pb, okB := postByLink(all, m.Permalink)
	if !okA || !okB || pa.ID != 5 || pb.ID < minMediaPostID || pa.Name != "#gym on the page" || pb.Name != "#gym on the account" {
		t.Errorf("the page's post %+v and the media %+v", pa, pb)
	}
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(9)); got != fmt.Sprintf("5 %d", pb.ID) {
		t.Errorf("campaigns 7 and 9 boosted %s", got)
	}
}

// A work ended right after network_a created the network_b ad set or a
// media's ad, before the engine heard back: the next cycle finds it by its
// name, and there is one of each.
func TestNetworkBNoDuplicateAfterCrash(t *testing.T) {
	for _, kind := range []string{"campaign", "adset", "ad"} {
		t.Run(kind, func(t *testing.T) {
			w := newWorldB(t)
			m := w.media("17890000000000001", "#gym", "IMAGE", time.Hour, 0)
			w.interruptedIn(9, kind)
			if w.names(kind) == "" {
				t.Fatalf("network_a has no %s", kind)
			}
			if got := w.list(9); len(got) != 0 {
				t.Fatalf("recorded before the commit: %v", got)
			}
			w.landed()
			w.cycle()
			if got := w.names("campaign") + " " + w.names("adset") + " " + w.names("ad"); got != "adboost-9 adboost-9-network_b adboost-9-b"+m.ID {
				t.Errorf("objects %s", got)
			}
			if got := w.list(9); len(got) != 1 || got[0].Link != m.Permalink {
				t.Errorf("boosted %+v", got)
			}
			if got := w.boostedEntries(9); len(got) != 1 {
				t.Errorf("history %v", got)
			}
		})
	}
}

// Deactivating a campaign with both ids pauses its one network_a campaign
// (both ad sets with it) and stops its posts of both networks; activating
// it again brings them back.
func TestNetworkBPauseAndResume(t *testing.T) {
	w := newWorldB(t)
	w.media("17890000000000001", "#run fitness", "IMAGE", time.Hour, 500)
	w.post("1", "#run", time.Hour, 500)
	w.cycle()
	if got := w.list(10); len(got) != 2 || !got[0].Active || !got[1].Active {
		t.Fatalf("boosted %+v", got)
	}
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/10", map[string]any{"active": false}, &ok)
	w.cycle()
	c := w.object("campaign", "adboost-10")
	if c.Status != "PAUSED" {
		t.Errorf("network_a campaign %s", c.Status)
	}
	for _, s := range []string{"adboost-10", "adboost-10-network_b"} {
		if got := w.object("adset", s).Fields["campaign_id"]; got != c.ID {
			t.Errorf("ad set %s is in campaign %v, want %s", s, got, c.ID)
		}
	}
	for _, p := range w.list(10) {
		if p.Active || p.Stopped == 0 {
			t.Errorf("post %d after the pause: %+v", p.ID, p)
		}
	}
	if e := w.engineState(10); e.State != "paused" {
		t.Errorf("state %+v", e)
	}
	w.call(http.MethodPost, "/v1/boosted-pages/save/10", map[string]any{"active": true}, &ok)
	w.cycle()
	if c := w.object("campaign", "adboost-10"); c.Status != "ACTIVE" {
		t.Errorf("network_a campaign after the resumption %s", c.Status)
	}
	for _, p := range w.list(10) {
		if !p.Active || p.Stopped != 0 {
			t.Errorf("post %d after the resumption: %+v", p.ID, p)
		}
	}
}

// A media deleted on network_b, or whose ad network_a deletes, stops its
// post (post_stopped); the page's posts go on.
func TestNetworkBMediaDeleted(t *testing.T) {
	w := newWorldB(t)
	m1 := w.media("17890000000000001", "#gym one", "IMAGE", time.Hour, 0)
	m2 := w.media("17890000000000002", "#gym two", "IMAGE", 2*time.Hour, 0)
	w.cycle()
	w.fake.DeleteMedia(m1.ID)
	w.cycle()
	posts := w.list(9)
	p1, _ := postByLink(posts, m1.Permalink)
	p2, _ := postByLink(posts, m2.Permalink)
	if p1.Active || p1.Stopped == 0 || !p2.Active {
		t.Errorf("after m1's deletion: %+v %+v", p1, p2)
	}
	var stopped []string
	for _, h := range w.history(9) {
		if h["action"] == "post_stopped" {
			stopped = append(stopped, jsonString(h["details"]))
		}
	}
	want := fmt.Sprintf(`{"ad_id":%q,"post_id":%d,"reason":"the media is no longer on network_b"}`, w.object("ad", "adboost-9-b"+m1.ID).ID, p1.ID)
	if len(stopped) != 1 || stopped[0] != want {
		t.Errorf("post_stopped entries %v, want [%s]", stopped, want)
	}
	// Not boosted again, the other one not touched by later cycles.
	w.cycle()
	if got := w.namesOf("ad", "adboost-9-"); got != "adboost-9-b"+m2.ID+",adboost-9-b"+m1.ID {
		t.Errorf("ads %s", got)
	}
}

// An account linked to no page with a stored token: its media are not
// read and the campaign is page_lost; the page's posts of a campaign with
// both ids are still boosted.
func TestNetworkBPageLost(t *testing.T) {
	w := newWorldB(t)
	w.media("17890000000000001", "#run fitness", "IMAGE", time.Hour, 500)
	w.post("1", "#run", time.Hour, 500)
	if _, err := w.pool.Exec(context.Background(), `UPDATE source SET network_b_id = NULL WHERE user_id = 100`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if e := w.engineState(9); e.State != "page_lost" || !strings.Contains(e.Message, "network_b account") {
		t.Errorf("campaign 9: %+v", e)
	}
	if got := w.ids(w.list(10)); got != "1" {
		t.Errorf("campaign 10 boosted %s, want the page's post 1", got)
	}
	for _, c := range w.fake.Calls() {
		if strings.HasPrefix(c.Path, "/789") {
			t.Errorf("the account was read without its page: %s", c.Path)
		}
	}
}

// A steady cycle (nothing new) reads each source once, and each campaign's
// ads and statistics once: within 3 calls a source.
func TestNetworkBSteadyCalls(t *testing.T) {
	w := newWorldB(t)
	w.media("17890000000000001", "#gym #run fitness", "IMAGE", time.Hour, 500)
	w.post("1", "#run", time.Hour, 500)
	w.cycle()
	if got := w.sortedNames("ad"); got != "adboost-10-1,adboost-10-b17890000000000001,adboost-9-b17890000000000001" {
		t.Fatalf("ads %s", got)
	}
	c9, c10 := w.object("campaign", "adboost-9").ID, w.object("campaign", "adboost-10").ID
	w.fake.TakeCalls()
	w.cycle()
	var got []string
	for _, c := range w.fake.TakeCalls() {
		path, _, _ := strings.Cut(c.Path, "?")
		got = append(got, c.Method+" "+strings.NewReplacer(c9, "C9", c10, "C10").Replace(path))
	}
	slices.Sort(got)
	want := []string{"GET /456/posts", "GET /789/media", "GET /789/media", "GET /C10/ads", "GET /C10/insights", "GET /C9/ads", "GET /C9/insights"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a steady cycle's calls:\n got %v\nwant %v", got, want)
	}
}
