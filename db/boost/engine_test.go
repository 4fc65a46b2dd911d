package boost_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
	"adboost/db"
	"adboost/db/boost"
)

// publishRulePosts publishes posts that meet and miss each rule. Campaign 7
// (#gym, no keywords, no reach) boosts 1, 3, 6 and 8; campaign 8 (keywords
// fitness/#run, reach ≥ 20 % of 1,000 followers = 200) boosts 3 and 5.
func (w *world) publishRulePosts() {
	w.post("1", "Morning #Gym! session", 1*time.Hour, 10)                       // 7: #Gym! whole tag; 8: no keyword
	w.post("2", "#gymnastics for kids, fitness too", 2*time.Hour, 900)          // 7: not a whole tag; 8: fitness, reach 900 → but see below
	w.post("3", "#gym and FITNESS", 3*time.Hour, 250)                           // both (8: reach 250 ≥ 200)
	w.post("4", "Fitness tips", 4*time.Hour, 199)                               // 8: reach 199 < 200
	w.post("5", "Fitness tips again, #run", 5*time.Hour, 200)                   // 8: reach exactly 200
	w.post("6", "fitnessfirst #gym", 6*time.Hour, 500)                          // 7; 8: fitnessfirst is not the word
	w.post("7", "#gym old fitness", 169*time.Hour, 5000)                        // too old for both
	w.post("8", "#gym "+strings.Repeat("long text ", 15)+"end", 7*time.Hour, 0) // 7, name cut to 100
	w.post("9", "running gymnast", 8*time.Hour, 900)                            // neither: no #gym, no whole keyword
}

func TestEngineBoostsMatchingPosts(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	// Post 2 has fitness and enough reach: it is boosted in 8 only. Expected:
	// 7 → 1, 3, 6, 8; 8 → 2, 3, 5.
	w.cycle()

	now := time.Now()
	created := func(age time.Duration) int64 { return now.Add(-age).UTC().Truncate(time.Second).Unix() }
	_ = created
	posts := w.list(7)
	if got := w.ids(posts); got != "1,3,6,8" {
		t.Fatalf("campaign 7 boosted %s, want 1,3,6,8\n%s", got, w.logs)
	}
	if got := w.ids(w.list(8)); got != "2,3,5" {
		t.Fatalf("campaign 8 boosted %s, want 2,3,5", got)
	}
	if got := w.ids(w.list(0)); got != "1,2,3,5,6,8" {
		t.Fatalf("Ana's boosted posts: %s, want 1,2,3,5,6,8", got)
	}
	checkBoostedPostFields(t, w, posts)
	checkNetworkAObjectsOfBoosts(t, w)
	checkBoostHistoryAndReads(t, w)
	checkSecondCycle(t, w)
}

// checkBoostedPostFields checks every field of campaign 7's boosted posts, as
// network_a gave the post, post 8's name cut to 100 characters.
func checkBoostedPostFields(t *testing.T, w *world, posts []boostedPost) {
	t.Helper()
	// Every field of a boosted post, as network_a gave the post.
	fakePosts := map[string]networkafake.Post{}
	for _, p := range w.fake.Posts("456") {
		fakePosts[p.ID] = p
	}
	for _, p := range posts {
		fp := fakePosts[fmt.Sprintf("456_%d", p.ID)]
		name := fp.Message
		if p.ID == 8 {
			name = strings.TrimRight(fp.Message[:99], " ") + "…"
		}
		want := boostedPost{ID: p.ID, Active: true, Name: name, Link: fp.Permalink, Image: fp.Picture, Created: fp.Created.Unix(), Stopped: 0}
		if p != want {
			t.Errorf("boosted post %d:\n got %+v\nwant %+v", p.ID, p, want)
		}
	}
	if n := len([]rune(posts[3].Name)); posts[3].ID != 8 || n != 100 {
		t.Errorf("post 8's name has %d characters, want 100", n)
	}
}

// checkNetworkAObjectsOfBoosts checks one network_a campaign and ad set per
// adboost campaign, with their fields, and one ad per boosted post.
func checkNetworkAObjectsOfBoosts(t *testing.T, w *world) {
	t.Helper()
	// One network_a campaign and ad set per adboost campaign, in the first
	// active ad account; one ad per boosted post.
	if got := w.sortedNames("campaign"); got != "adboost-7,adboost-8" {
		t.Errorf("campaigns %s", got)
	}
	if got := w.sortedNames("adset"); got != "adboost-7,adboost-8" {
		t.Errorf("ad sets %s", got)
	}
	c7 := w.object("campaign", "adboost-7")
	if c7.AccountID != "act_1" || c7.Status != "ACTIVE" || jsonString(c7.Fields) !=
		`{"is_adset_budget_sharing_enabled":false,"name":"adboost-7","objective":"OUTCOME_ENGAGEMENT","special_ad_categories":[],"status":"ACTIVE"}` {
		t.Errorf("campaign adboost-7: %s %s %s", c7.AccountID, c7.Status, jsonString(c7.Fields))
	}
	s7 := w.object("adset", "adboost-7")
	// CZ is in the EU: the page's name is the beneficiary, the billing
	// details' company the payor. The page has no network_b account: its ad
	// set delivers on network_a alone.
	want7 := fmt.Sprintf(`{"bid_amount":150,"bid_strategy":"COST_CAP","billing_event":"IMPRESSIONS","campaign_id":%q,`+
		`"daily_budget":2000,"destination_type":"ON_POST","dsa_beneficiary":"Ana's Gym","dsa_payor":"Ana Novak s.r.o.",`+
		`"end_time":"%sT23:59:59Z","name":"adboost-7","optimization_goal":"POST_ENGAGEMENT","promoted_object":{"page_id":"456"},`+
		`"status":"ACTIVE","targeting":{"age_min":18,"geo_locations":{"countries":["CZ"]},"publisher_platforms":["network_a"],`+
		`"targeting_automation":{"advantage_audience":0}}}`, c7.ID, w.endDate)
	if got := jsonString(s7.Fields); got != want7 {
		t.Errorf("ad set adboost-7:\n got %s\nwant %s", got, want7)
	}
	c8 := w.object("campaign", "adboost-8")
	s8 := w.object("adset", "adboost-8")
	want8 := fmt.Sprintf(`{"bid_strategy":"LOWEST_COST_WITHOUT_CAP","billing_event":"IMPRESSIONS","campaign_id":%q,`+
		`"end_time":"%sT23:59:59Z","lifetime_budget":10000,"name":"adboost-8","optimization_goal":"LINK_CLICKS","status":"ACTIVE",`+
		`"targeting":{"publisher_platforms":["network_a"],"targeting_automation":{"advantage_audience":0}}}`, c8.ID, w.endDate)
	if got := jsonString(s8.Fields); got != want8 {
		t.Errorf("ad set adboost-8:\n got %s\nwant %s", got, want8)
	}
	// Oldest post first.
	if got := w.namesOf("ad", "adboost-7-") + " " + w.namesOf("ad", "adboost-8-"); got != "adboost-7-8,adboost-7-6,adboost-7-3,adboost-7-1 adboost-8-5,adboost-8-3,adboost-8-2" {
		t.Errorf("ads %s", got)
	}
	ad := w.object("ad", "adboost-7-3")
	if got := jsonString(ad.Fields); got != fmt.Sprintf(`{"adset_id":%q,"creative":{"object_story_id":"456_3"},"name":"adboost-7-3","status":"ACTIVE"}`, s7.ID) {
		t.Errorf("ad adboost-7-3: %s", got)
	}
}

// checkBoostHistoryAndReads checks a `boosted` history entry per boost of 7,
// that reach was asked only for campaign 8's candidates and followers once,
// and that no token is in a URL.
func checkBoostHistoryAndReads(t *testing.T, w *world) {
	t.Helper()
	// A `boosted` history entry per boost, with the post and the ad.
	var want []string
	for _, id := range []string{"8", "6", "3", "1"} {
		want = append(want, fmt.Sprintf(`{"ad_id":%q,"post_id":%s}`, w.object("ad", "adboost-7-"+id).ID, id))
	}
	if got := w.boostedEntries(7); !reflect.DeepEqual(got, want) {
		t.Errorf("history of 7: %v, want %v", got, want)
	}
	// Reach was asked only for campaign 8's candidates (2, 3, 4, 5), and
	// followers once.
	var reachAsked, followersAsked []string
	for _, r := range w.fake.Calls() {
		if strings.Contains(r.Path, "/insights?") && strings.Contains(r.Path, "metric=post_total_media_view_unique") {
			reachAsked = append(reachAsked, strings.Split(strings.TrimPrefix(r.Path, "/"), "/")[0])
		}
		if strings.Contains(r.Path, "fields=followers_count") {
			followersAsked = append(followersAsked, r.Path)
		}
		if strings.Contains(r.Path, userToken) || strings.Contains(r.Path, pageToken) {
			t.Errorf("a token in a URL: %s", r.Path)
		}
	}
	if got := strings.Join(reachAsked, ","); got != "456_5,456_4,456_3,456_2" {
		t.Errorf("reach asked for %s", got)
	}
	if len(followersAsked) != 1 {
		t.Errorf("followers asked %d times", len(followersAsked))
	}
}

// checkSecondCycle checks a second cycle boosts nothing again, a new post is
// boosted, and no token is in the logs.
func checkSecondCycle(t *testing.T, w *world) {
	t.Helper()
	// A second cycle boosts nothing again; a new post is boosted.
	w.post("10", "Back to the #gym", 0, 0)
	w.cycle()
	if got := w.namesOf("ad", "adboost-7-") + " " + w.namesOf("ad", "adboost-8-"); got != "adboost-7-8,adboost-7-6,adboost-7-3,adboost-7-1,adboost-7-10 adboost-8-5,adboost-8-3,adboost-8-2" {
		t.Errorf("after a second cycle, ads %s", got)
	}
	if got := w.sortedNames("campaign"); got != "adboost-7,adboost-8" {
		t.Errorf("after a second cycle, campaigns %s", got)
	}
	if got := len(w.boostedEntries(7)); got != 5 {
		t.Errorf("after a second cycle, %d boosted entries, want 5", got)
	}
	if strings.Contains(w.logs.String(), userToken) || strings.Contains(w.logs.String(), pageToken) {
		t.Error("a token in the logs")
	}
}

func TestEngineKeepsAdSetInStepAndPauses(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym day", time.Hour, 0)
	w.cycle()
	adset := w.object("adset", "adboost-7")
	if len(adset.Updates) != 0 {
		t.Fatalf("ad set updated before any save: %v", adset.Updates)
	}
	checkSaveUpdatesAdSet(t, w)
	checkDeactivatePauses(t, w)
	checkReactivateResumes(t, w)

	// Deleting the source deletes campaigns 7 and 8: both are paused on
	// network_a (8 never boosted anything: nothing to pause there).
	var deleted map[string]any
	w.call(http.MethodDelete, "/v1/boosted-pages/delete-source/456", nil, &deleted)
	w.cycle()
	c7 := w.object("campaign", "adboost-7")
	if c7.Status != "PAUSED" {
		t.Errorf("campaign adboost-7 after delete-source: %s", c7.Status)
	}
	for _, p := range w.list(0) {
		if p.Active || p.Stopped == 0 {
			t.Errorf("post after delete-source: %+v", p)
		}
	}
	// The end date passing pauses too: checked in SQL by EngineCampaignLoad.
}

// checkSaveUpdatesAdSet saves campaign 7 and checks the changed fields reach
// the ad set, once.
func checkSaveUpdatesAdSet(t *testing.T, w *world) {
	t.Helper()
	// save → the changed fields reach the ad set, once.
	end := time.Now().UTC().AddDate(0, 2, 0).Format(time.DateOnly)
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{
		"budget": "35.50", "targeting": map[string]any{"geo_locations": map[string]any{"countries": []string{"DE"}}},
		"end_date": end, "hashtag": "#gym",
	}, &ok)
	var stored string
	if err := w.pool.QueryRow(context.Background(), `SELECT audience_targeting::text FROM campaign WHERE id = 7`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	adset := w.object("adset", "adboost-7")
	// The targeting as network_a takes it: the Advantage audience flag
	// given, network_a alone for a page without a network_b account.
	sent := strings.TrimSuffix(strings.ReplaceAll(stored, " ", ""), "}") +
		`,"publisher_platforms":["network_a"],"targeting_automation":{"advantage_audience":0}}`
	wantUpdate := fmt.Sprintf(`[{"daily_budget":3550,"end_time":"%sT23:59:59Z","targeting":%s}]`, end, sent)
	if got := jsonString(adset.Updates); got != wantUpdate {
		t.Errorf("ad set updates:\n got %s\nwant %s", got, wantUpdate)
	}
	w.cycle()
	if n := len(w.object("adset", "adboost-7").Updates); n != 1 {
		t.Errorf("ad set updated %d times after an unchanged cycle", n)
	}
}

// checkDeactivatePauses deactivates campaign 7 and checks it is PAUSED once,
// its posts stopped at the time of the pause, and nothing new boosted.
func checkDeactivatePauses(t *testing.T, w *world) {
	t.Helper()
	var ok bool
	// deactivate → PAUSED, posts stopped at the time of the pause.
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	before := time.Now().Unix()
	w.cycle()
	after := time.Now().Unix()
	c7 := w.object("campaign", "adboost-7")
	if c7.Status != "PAUSED" || jsonString(c7.Updates) != `[{"status":"PAUSED"}]` {
		t.Errorf("campaign adboost-7 after deactivation: %s %s", c7.Status, jsonString(c7.Updates))
	}
	p := w.list(7)[0]
	if p.Active || p.Stopped < before || p.Stopped > after {
		t.Errorf("post after deactivation: %+v, want inactive and stopped in [%d, %d]", p, before, after)
	}
	w.post("2", "#gym while paused", 0, 0)
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("a paused campaign boosted: %s", got)
	}
	if n := len(w.object("campaign", "adboost-7").Updates); n != 1 {
		t.Errorf("a paused campaign was paused %d times", n)
	}
}

// checkReactivateResumes reactivates campaign 7 and checks it is ACTIVE, its
// posts running again and the new post boosted.
func checkReactivateResumes(t *testing.T, w *world) {
	t.Helper()
	var ok bool
	// reactivate → ACTIVE, posts running again, new posts boosted.
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": true}, &ok)
	w.cycle()
	c7 := w.object("campaign", "adboost-7")
	if c7.Status != "ACTIVE" || jsonString(c7.Updates) != `[{"status":"PAUSED"},{"status":"ACTIVE"}]` {
		t.Errorf("campaign adboost-7 after reactivation: %s %s", c7.Status, jsonString(c7.Updates))
	}
	for _, p := range w.list(7) {
		if !p.Active || p.Stopped != 0 {
			t.Errorf("post after reactivation: %+v", p)
		}
	}
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ads after reactivation: %s", got)
	}
}

func TestEngineEndDatePauses(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	// The campaign's last day was yesterday (UTC).
	if _, err := w.pool.Exec(context.Background(), `UPDATE campaign SET end_date = (now() AT TIME ZONE 'UTC')::date - 1 WHERE id = 7`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Errorf("campaign past its end date: %s", c.Status)
	}
	if p := w.list(7)[0]; p.Active || p.Stopped == 0 {
		t.Errorf("post of a campaign past its end date: %+v", p)
	}
}

func TestEngineInsights(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	w.cycle()
	// Post 3 is boosted in both campaigns: its insights are the sum of its two ads.
	w.fake.SetAdInsights(w.object("ad", "adboost-7-1").ID, networkafake.Insights{Impressions: 1200, Reach: 1000, Clicks: 40, Engagement: 80, Conversions: 4, Spend: "12.34"})
	w.fake.SetAdInsights(w.object("ad", "adboost-7-3").ID, networkafake.Insights{Impressions: 800, Reach: 700, Clicks: 10, Engagement: 5, Conversions: 0, Spend: "3.00"})
	w.fake.SetAdInsights(w.object("ad", "adboost-8-3").ID, networkafake.Insights{Impressions: 1000, Reach: 900, Clicks: 30, Engagement: 15, Conversions: 2, Spend: "7.66"})
	w.cycle()
	var got map[string]any
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "1,3,5"}, &got)
	// impressions 3000, reach 2600, clicks 80, engagement 100, conversions 6, spend 23.00:
	// cpm 23*1000/3000 = 7.67, ctr 80*100/3000 = 2.67, cpc 23/80 = 0.29, cpa 23/6 = 3.83, conversion rate 6*100/80 = 7.50.
	want := map[string]any{"posts": "3", "reach": "2600", "engagement": "100", "clicks": "80", "spend": "23.00",
		"cpm": "7.67", "ctr": "2.67", "cpc": "0.29", "cpa": "3.83", "conversions": "6", "conversion_rate": "7.50"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batch-insights:\n got %v\nwant %v", got, want)
	}
	// Replaced, not added, by the next cycle.
	w.fake.SetAdInsights(w.object("ad", "adboost-7-3").ID, networkafake.Insights{Impressions: 900, Reach: 700, Clicks: 10, Engagement: 5, Spend: "4.00"})
	w.cycle()
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "3"}, &got)
	want = map[string]any{"posts": "1", "reach": "1600", "engagement": "20", "clicks": "40", "spend": "11.66",
		"cpm": "6.14", "ctr": "2.11", "cpc": "0.29", "cpa": "5.83", "conversions": "2", "conversion_rate": "5.00"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batch-insights after a second cycle:\n got %v\nwant %v", got, want)
	}
	// An ad network_a no longer knows keeps its last statistics; the
	// others are still read.
	if _, err := w.pool.Exec(context.Background(),
		`UPDATE network_a_attempt SET object_id = '999' WHERE campaign_id = 8 AND post_id = 3`); err != nil {
		t.Fatal(err)
	}
	w.fake.SetAdInsights(w.object("ad", "adboost-7-3").ID, networkafake.Insights{Impressions: 1000, Reach: 800, Clicks: 10, Engagement: 5, Spend: "5.00"})
	w.cycle()
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "3"}, &got)
	if got["reach"] != "1700" || got["spend"] != "12.66" {
		t.Errorf("insights with one ad unknown to network_a: %v", got)
	}
	// A paused campaign's posts (stopped within 28 days) are still read.
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	w.cycle()
	w.fake.SetAdInsights(w.object("ad", "adboost-7-1").ID, networkafake.Insights{Impressions: 2000, Reach: 1000, Clicks: 40, Engagement: 80, Conversions: 4, Spend: "20.00"})
	w.cycle()
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "1"}, &got)
	if got["spend"] != "20.00" {
		t.Errorf("insights of a stopped post: %v", got)
	}
}

// A context cancelled right after network_a created the ad and before the
// engine wrote it down: the next cycle finds the ad by its name.
func TestEngineNoDuplicateAdAfterCrash(t *testing.T) {
	for _, kind := range []string{"campaign", "adset", "ad"} {
		t.Run(kind, func(t *testing.T) {
			w := newWorld(t)
			w.post("1", "#gym", time.Hour, 0)
			w.interrupted(kind)
			if got := w.names(kind); got == "" {
				t.Fatalf("network_a has no %s", kind)
			}
			if got := w.list(7); len(got) != 0 {
				t.Fatalf("recorded before the commit: %v", got)
			}
			// Right after, the create may still be on its way (its batch
			// outlives the work): it is neither looked up nor made again.
			w.fake.ClearRequests()
			w.failedUnavailable(w.engine.Cycle(context.Background()), "a create on its way")
			for _, c := range w.fake.Calls() {
				if strings.HasPrefix(c.Path, "/act_1/"+kind+"s") {
					t.Errorf("%s asked again while its create may be on its way: %s %s", kind, c.Method, c.Path)
				}
			}
			w.landed()
			w.cycle()
			if got := w.names("campaign"); got != "adboost-7" {
				t.Errorf("campaigns %s", got)
			}
			if got := w.names("adset"); got != "adboost-7" {
				t.Errorf("ad sets %s", got)
			}
			if got := w.names("ad"); got != "adboost-7-1" {
				t.Errorf("ads %s", got)
			}
			if got := w.ids(w.list(7)); got != "1" {
				t.Errorf("boosted %s", got)
			}
			if got := w.boostedEntries(7); len(got) != 1 || got[0] != fmt.Sprintf(`{"ad_id":%q,"post_id":1}`, w.object("ad", "adboost-7-1").ID) {
				t.Errorf("history %v", got)
			}
		})
	}
}

// Three engines at once on one database over the same campaigns: each post
// is boosted once.
func TestEngineThreeEnginesBoostOnce(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	w.fake.SetDelay(5 * time.Millisecond) // the cycles overlap
	engines := []*boost.Engine{w.engine, w.newEngine(), w.newEngine()}
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make([]error, len(engines))
		for i, e := range engines {
			wg.Go(func() { errs[i] = e.Cycle(context.Background()) })
		}
		wg.Wait()
		for i, err := range errs {
			// An engine reports the campaigns another one was working on.
			var cycleErr *boost.CycleError
			if err == nil {
				continue
			}
			if !errors.As(err, &cycleErr) {
				t.Fatalf("round %d, engine %d: %v", round, i, err)
			}
			for id, ferr := range cycleErr.Failed {
				if !errors.Is(ferr, boost.ErrLocked) {
					t.Fatalf("round %d, engine %d, campaign %d: %v", round, i, id, ferr)
				}
			}
		}
	}
	if got := w.sortedNames("ad"); got != "adboost-7-1,adboost-7-3,adboost-7-6,adboost-7-8,adboost-8-2,adboost-8-3,adboost-8-5" {
		t.Errorf("ads %s", got)
	}
	// Three engines on two campaigns: created in no particular order.
	if got := w.sortedNames("campaign") + " " + w.sortedNames("adset"); got != "adboost-7,adboost-8 adboost-7,adboost-8" {
		t.Errorf("campaigns and ad sets %s", got)
	}
	if got := len(w.boostedEntries(7)) + len(w.boostedEntries(8)); got != 7 {
		t.Errorf("%d boosted entries, want 7", got)
	}
}

// network_a down: the cycle fails naming the campaigns, nothing is
// recorded; the next cycle completes.
func TestEngineNetworkDown(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.fake.SetDown(true)
	err := w.engine.Cycle(context.Background())
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) || len(cycleErr.Failed) != 2 || cycleErr.Failed[7] == nil || cycleErr.Failed[8] == nil ||
		!strings.Contains(err.Error(), "campaign 7") || !strings.Contains(err.Error(), "campaign 8") ||
		!errors.Is(cycleErr.Failed[7], networka.ErrUnavailable) {
		t.Fatalf("cycle with network_a down: %v", err)
	}
	if got := w.list(0); len(got) != 0 {
		t.Errorf("recorded while down: %v", got)
	}
	if got := w.boostedEntries(7); len(got) != 0 {
		t.Errorf("history while down: %v", got)
	}
	// Down in the middle: after the ad set is created.
	w.fake.SetDown(false)
	w.fake.AfterCreate(func(o networkafake.Object) {
		if o.Kind == "adset" {
			w.fake.SetDown(true)
		}
	})
	if err := w.engine.Campaign(context.Background(), 7); !errors.Is(err, networka.ErrUnavailable) {
		t.Fatalf("campaign with network_a down halfway: %v", err)
	}
	if got := w.list(0); len(got) != 0 {
		t.Errorf("recorded while down: %v", got)
	}
	w.fake.AfterCreate(nil)
	w.fake.SetDown(false)
	w.cycle()
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("after network_a came back: %s", got)
	}
	if got := w.names("ad") + " " + w.names("adset"); got != "adboost-7-1 adboost-7" {
		t.Errorf("objects %s", got)
	}
}

// The user's token expired (OAuth 190 on a call made with it): the user's
// campaigns are skipped, logged once, until the next sign-in stores a new
// token. (A page's token refused: TestEnginePageTokenRefused.)
func TestEngineTokenRefused(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.fake.ExpireToken(userToken)
	w.cycle()
	w.cycle()
	if n := strings.Count(w.logs.String(), "OAuth 190"); n != 1 {
		t.Errorf("the refusal was logged %d times, want 1\n%s", n, w.logs)
	}
	// The campaigns stay in the cycle (their state says what to do), and
	// nothing is asked with the refused token again.
	due, err := w.engine.Due(context.Background())
	if err != nil || len(due) != 2 {
		t.Errorf("due with a refused token: %v %v", due, err)
	}
	w.fake.ClearRequests()
	w.cycle()
	for _, c := range w.fake.Calls() {
		if c.Token == userToken {
			t.Errorf("the refused token was used again: %s %s", c.Method, c.Path)
		}
	}
	if got := w.names("ad"); got != "" {
		t.Errorf("ads with a refused token: %s", got)
	}
	if e := w.engineState(7); e.State != "token_refused" || !strings.Contains(e.Message, "sign in again") {
		t.Errorf("campaign 7's engine state with a refused token: %+v", e)
	}
	// A new sign-in (login-sn) stores the new tokens and clears the mark.
	w.fake.AddUser(networkafake.User{
		Token: "ana-new-user-token", ID: "5001", FirstName: "Ana", LastName: "Novak", Email: "ana@example.com",
		Pages:      []networkafake.Page{{ID: "456", Name: "Ana's Gym", Token: pageToken, Followers: 1000}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_1", Status: 1, Currency: "USD"}},
	})
	w.loginSN("ana-new-user-token")
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads after a new sign-in: %s", got)
	}
}

// A page without a stored token, or a user without an active ad account:
// skipped, with the reason logged.
func TestEngineSkips(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	if _, err := w.pool.Exec(context.Background(), `UPDATE source SET access_token = NULL`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if !strings.Contains(w.logs.String(), "its page has no network_a token") {
		t.Errorf("no reason logged:\n%s", w.logs)
	}
	w.storeTokens(userToken, pageToken)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) { u.AdAccounts = []networkafake.AdAccount{{ID: "act_2", Status: 2}} })
	w.cycle()
	if !strings.Contains(w.logs.String(), "no active network_a ad account") {
		t.Errorf("no reason logged:\n%s", w.logs)
	}
	if got := w.names("ad") + w.names("campaign"); got != "" {
		t.Errorf("created %s", got)
	}
}

// While another engine holds a campaign's lock, Campaign leaves the
// campaign alone: not one call to network_a.
func TestEngineCampaignLockedElsewhere(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	ctx := context.Background()
	conn, err := w.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if locked, err := db.New(conn).EngineCampaignLock(ctx, 7); err != nil || !locked {
		t.Fatalf("lock: %v %v", locked, err)
	}
	w.fake.TakeRequests()
	if err := w.engine.Campaign(ctx, 7); !errors.Is(err, boost.ErrLocked) {
		t.Fatalf("campaign locked by another engine: %v, want ErrLocked", err)
	}
	if got := w.fake.TakeRequests(); len(got) != 0 {
		t.Fatalf("network_a called while another engine works on the campaign: %v", got)
	}
	if _, err := db.New(conn).EngineCampaignUnlock(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if err := w.engine.Campaign(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Fatalf("ads after the lock was released: %s", got)
	}
}

// Users without a stored token (imported, demo) are not in the cycle.
func TestEngineDueNeedsToken(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	due, err := w.engine.Due(ctx)
	if err != nil || fmt.Sprint(due) != "[7 8]" {
		t.Fatalf("due %v %v", due, err)
	}
	if _, err := w.pool.Exec(ctx, `UPDATE app_user SET network_a_token = NULL WHERE id = 100`); err != nil {
		t.Fatal(err)
	}
	if due, err := w.engine.Due(ctx); err != nil || len(due) != 0 {
		t.Fatalf("due without a token %v %v", due, err)
	}
}

// network_a too slow: each call times out, the cycle fails and nothing is
// recorded; once it answers in time, the next cycle completes.
func TestEngineNetworkTimeout(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	e, err := boost.New(w.pool, boost.Config{NetworkAURL: w.fakeURL, Cipher: w.cipher, CallTimeout: 100 * time.Millisecond, Jobs: w.jobs}, w.log)
	if err != nil {
		t.Fatal(err)
	}
	w.fake.SetDelay(time.Second)
	err = e.Cycle(context.Background())
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) || !errors.Is(cycleErr.Failed[7], networka.ErrUnavailable) {
		t.Fatalf("cycle with network_a slow: %v", err)
	}
	if got := w.list(0); len(got) != 0 {
		t.Errorf("recorded while slow: %v", got)
	}
	w.fake.SetDelay(0)
	if err := e.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("after network_a sped up: %s", got)
	}
}

// An ad network_a refuses to make (the post was deleted after the engine
// began its attempt) is given up; the campaign's other posts are boosted.
func TestEngineAdRefused(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	w.post("2", "#gym again", time.Minute, 0)
	// An attempt begun for a post that network_a no longer has.
	if _, err := w.pool.Exec(context.Background(), `INSERT INTO network_a_attempt (campaign_id, kind, post_id, name, post)
		VALUES (7, 'ad', 777, 'adboost-7-777', '{"id": "456_777", "message": "#gym gone", "created_time": "2026-01-01T00:00:00Z"}')`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if got := w.ids(w.list(7)); got != "2,1" {
		t.Errorf("boosted %s, want 2,1", got)
	}
	var state string
	if err := w.pool.QueryRow(context.Background(), `SELECT state FROM network_a_attempt WHERE post_id = 777`).Scan(&state); err != nil || state != "refused" {
		t.Errorf("attempt %q %v", state, err)
	}
	w.cycle() // not tried again
	n := 0
	for _, r := range w.fake.Calls() {
		if strings.Contains(r.Body, "456_777") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the refused ad was asked %d times", n)
	}
}

// Money goes to network_a in the offset unit of the ad account's currency,
// network_a's own table: the amount as is for CLP, COP, CRC,
// HUF, IDR, ISK, JPY, KRW, PYG, TWD and VND, × 100 for every other currency,
// BHD, JOD and KWD included; rounded half up. The ad set's budget and bid at
// its create and a later save's change, for one currency of each kind, then
// the rule itself for every currency of the table.
func TestEngineCurrencyOffsets(t *testing.T) {
	for _, c := range []struct {
		currency            string
		budget, bid, saved  string // sent as daily_budget and bid_amount at the create, then the saved budget
		wantBudget, wantBid int64
		wantSaved           int64
	}{
		{"huf", "20.00", "1.50", "35.50", 20, 2, 36},
		{"BHD", "20.00", "1.50", "35.55", 2000, 150, 3555},
		{"JPY", "20.00", "1.50", "35.49", 20, 2, 35},
		{"USD", "20.00", "1.50", "35.5", 2000, 150, 3550},
	} {
		t.Run(c.currency, func(t *testing.T) {
			w := newWorld(t)
			w.fake.UpdateUser(userToken, func(u *networkafake.User) {
				u.AdAccounts = []networkafake.AdAccount{{ID: "act_9", Status: 1, Currency: c.currency, MinDailyBudget: 1}}
			})
			w.post("1", "Morning #gym", time.Hour, 0)
			w.cycle()
			s7 := w.object("adset", "adboost-7")
			if s7.AccountID != "act_9" {
				t.Fatalf("ad set adboost-7 in %q, want act_9", s7.AccountID)
			}
			if got := fmt.Sprint(s7.Fields["daily_budget"], " ", s7.Fields["bid_amount"]); got != fmt.Sprint(c.wantBudget, " ", c.wantBid) {
				t.Errorf("ad set adboost-7 in %s: daily_budget and bid_amount %s, want %d %d", c.currency, got, c.wantBudget, c.wantBid)
			}
			var ok bool
			w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"budget": c.saved, "hashtag": "#gym"}, &ok)
			w.cycle()
			if got, want := jsonString(w.object("adset", "adboost-7").Updates), fmt.Sprintf(`[{"daily_budget":%d}]`, c.wantSaved); got != want {
				t.Errorf("ad set updates in %s: %s, want %s", c.currency, got, want)
			}
		})
	}

	t.Run("table", func(t *testing.T) {
		w := newWorld(t)
		type row struct {
			amount   string
			currency *string
			want     int64
		}
		var rows []row
		for _, code := range []string{"CLP", "COP", "CRC", "HUF", "IDR", "ISK", "JPY", "KRW", "PYG", "TWD", "VND"} {
			rows = append(rows, row{"1234.49", ptr(code), 1234}, row{"1234.50", ptr(code), 1235}, row{"0.5", ptr(strings.ToLower(code)), 1})
		}
		for _, code := range []string{"BHD", "JOD", "KWD", "USD", "EUR"} {
			rows = append(rows, row{"12.34", ptr(code), 1234}, row{"0.005", ptr(code), 1}, row{"0.004", ptr(code), 0}, row{"1.234", ptr(code), 123})
		}
		rows = append(rows, row{"20.00", nil, 2000}) // an unknown currency: two decimals
		for _, r := range rows {
			var got int64
			if err := w.pool.QueryRow(context.Background(), `SELECT network_a_offset_units($1::numeric, $2::text)`, r.amount, r.currency).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != r.want {
				t.Errorf("network_a_offset_units(%s, %v) = %d, want %d", r.amount, deref(r.currency), got, r.want)
			}
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

func ptr[T any](v T) *T { return &v }

// A three-decimal currency (KWD) answers spend with three decimals: it is
// read and kept exactly (more decimals are rounded half up to three), and
// batch-insights sums the exact amounts before it rounds its answer to two
// decimals: 1.235 + 1.235 = 2.470 → "2.47" (not 1.24 + 1.24 = "2.48").
func TestEngineThreeDecimalSpend(t *testing.T) {
	w := newWorld(t)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{{ID: "act_9", Status: 1, Currency: "KWD"}}
	})
	w.post("1", "#gym", time.Hour, 0)
	w.post("2", "#gym again", 2*time.Hour, 0)
	w.cycle()
	w.fake.SetAdInsights(w.object("ad", "adboost-7-1").ID, networkafake.Insights{Impressions: 2, Clicks: 1, Spend: "1.235"})
	w.fake.SetAdInsights(w.object("ad", "adboost-7-2").ID, networkafake.Insights{Impressions: 1, Clicks: 2, Spend: "1.2345"})
	w.cycle()
	var stored string
	if err := w.pool.QueryRow(context.Background(),
		`SELECT string_agg(spend::text, ',' ORDER BY post_id) FROM network_a_ad_insight WHERE campaign_id = 7`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != "1.235,1.235" {
		t.Errorf("stored spend %s, want 1.235,1.235", stored)
	}
	var got map[string]any
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "1,2"}, &got)
	// spend 2.470: cpm 2.47*1000/3 = 823.33, cpc 2.47/3 = 0.82.
	if got["spend"] != "2.47" || got["cpm"] != "823.33" || got["cpc"] != "0.82" {
		t.Errorf("batch-insights of three-decimal spend: %v", got)
	}
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "1"}, &got)
	if got["spend"] != "1.24" {
		t.Errorf("batch-insights of 1.235: spend %v, want 1.24 (half up)", got["spend"])
	}
}

// A campaign started before the engine kept the ad account's currency
// (00094: currency NULL, budget and bid sent in cents whatever the
// currency): the next cycle asks network_a for the currency, keeps it, and
// sends the budget and bid again in yen.
func TestEngineLearnsCurrencyOfOlderCampaigns(t *testing.T) {
	w := newWorld(t)
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.AdAccounts = []networkafake.AdAccount{{ID: "act_9", Status: 1, Currency: "JPY", MinDailyBudget: 1}}
	})
	w.post("1", "Morning #gym", time.Hour, 0)
	w.cycle()
	// As the engine before 00094 left it: no currency, cents accepted.
	if _, err := w.pool.Exec(context.Background(), `UPDATE network_a_campaign
		SET currency = NULL, adset_synced = adset_synced || '{"daily_budget": 2000, "bid_amount": 150}'
		WHERE campaign_id = 7`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if got := jsonString(w.object("adset", "adboost-7").Updates); got != `[{"bid_amount":2,"daily_budget":20}]` {
		t.Errorf("ad set updates after the currency was learnt: %s", got)
	}
	var currency string
	if err := w.pool.QueryRow(context.Background(), `SELECT currency FROM network_a_campaign WHERE campaign_id = 7`).Scan(&currency); err != nil || currency != "JPY" {
		t.Errorf("currency %q (%v), want JPY", currency, err)
	}
	w.cycle()
	if n := len(w.object("adset", "adboost-7").Updates); n != 1 {
		t.Errorf("%d ad set updates after an unchanged cycle, want 1", n)
	}
}
