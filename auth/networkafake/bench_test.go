package networkafake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// loaded is a fake with the given number of users, each with a page, its
// token, an ad account act_<n>, and perUser posts, each boosted as an ad
// (with insights) of the user's campaign and ad set, and a second campaign
// and ad set "spare-<page>" without ads. It records nothing.
func loaded(users, perUser int) *networkafake.Fake {
	s := networkafake.State{Posts: map[string][]networkafake.Post{}, Insights: map[string]networkafake.Insights{}}
	now := time.Now().UTC().Truncate(time.Second)
	object := func(kind, account, name string, fields map[string]any) string {
		s.ObjectSeq++
		id := strconv.Itoa(120200000000000000 + s.ObjectSeq)
		fields["name"], fields["status"] = name, "ACTIVE"
		s.Objects = append(s.Objects, networkafake.Object{Kind: kind, ID: id, AccountID: account, Name: name, Status: "ACTIVE", Fields: fields})
		return id
	}
	for n := range users {
		page, act := benchPage(n), benchAccount(n)
		s.Users = append(s.Users, networkafake.User{Token: benchUser(n), ID: strconv.Itoa(n + 1),
			Pages:      []networkafake.Page{{ID: page, Name: "page " + page, Token: "EAApage" + page, Followers: 100}},
			AdAccounts: []networkafake.AdAccount{{ID: act, Status: 1, Currency: "USD"}}})
		campaign := object("campaign", act, "adboost-"+page, map[string]any{"objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}})
		adset := object("adset", act, "adboost-"+page, map[string]any{"campaign_id": campaign, "daily_budget": json.Number("2500"),
			"billing_event": "IMPRESSIONS", "optimization_goal": "REACH", "targeting": onNetworkA()})
		for i := range perUser {
			post := fmt.Sprintf("%s_%d", page, i)
			s.Posts[page] = append(s.Posts[page], networkafake.Post{ID: post, Message: "#gym", Created: now.Add(-time.Duration(i) * time.Hour)})
			ad := object("ad", act, "adboost-"+post, map[string]any{"adset_id": adset, "creative": map[string]any{"object_story_id": post}})
			s.Insights[ad] = networkafake.Insights{Impressions: 100 * i, Reach: 90 * i, Clicks: i, Spend: "1.00", Engagement: i}
		}
		spare := object("campaign", act, "spare-"+page, map[string]any{"objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}})
		object("adset", act, "spare-"+page, map[string]any{"campaign_id": spare, "daily_budget": json.Number("2500"),
			"billing_event": "IMPRESSIONS", "optimization_goal": "REACH", "targeting": onNetworkA()})
	}
	f := networkafake.New()
	f.SetState(s)
	f.SetRecording(false)
	return f
}

func benchUser(n int) string    { return "EAAuser" + strconv.Itoa(n) }
func benchPage(n int) string    { return strconv.Itoa(1000000 + n) }
func benchAccount(n int) string { return "act_" + strconv.Itoa(n+1) }

// benchBatch is a batch of 50 calls about 10 users spread over all of them:
// for each, a create, a look-up by name, the campaign's level=ad insights,
// its ads, and the page's new posts. campaigns are the ids of each ad
// account's campaign with ads, adsets of its spare ad set (where the creates
// go, so that the lists read stay the same size).
func benchBatch(k, users int, campaigns, adsets map[string]string) []byte {
	var entries []map[string]any
	for i := range 10 {
		n := (k*10 + i) * 7919 % users
		page, act, token := benchPage(n), benchAccount(n), benchUser(n)
		create, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("adboost-%s-new%d", page, k), "adset_id": adsets[act],
			"creative": map[string]any{"object_story_id": page + "_0"}, "status": "ACTIVE"})
		filter := url.QueryEscape(fmt.Sprintf(`[{"field":"name","operator":"EQUAL","value":"adboost-%s_3"}]`, page))
		since := strconv.FormatInt(time.Now().Add(-48*time.Hour).Unix(), 10)
		entries = append(entries,
			map[string]any{"method": "POST", "relative_url": act + "/ads", "body": string(create), "access_token": token},
			map[string]any{"method": "GET", "relative_url": act + "/ads?fields=id,name,status&filtering=" + filter, "access_token": token},
			map[string]any{"method": "GET", "relative_url": campaigns[act] + "/insights?level=ad&fields=ad_id,impressions,reach,clicks,spend,actions&date_preset=maximum&limit=500", "access_token": token},
			map[string]any{"method": "GET", "relative_url": campaigns[act] + "/ads?fields=id,name,effective_status&limit=500", "access_token": token},
			map[string]any{"method": "GET", "relative_url": page + "/posts?fields=id,message,created_time,permalink_url,full_picture&limit=100&since=" + since, "access_token": "EAApage" + page},
		)
	}
	body, _ := json.Marshal(map[string]any{"batch": entries})
	return body
}

// BenchmarkBatch serves batches of 50 creates and look-ups: the cost of a
// batch does not grow with the number of users, posts and ads loaded.
func BenchmarkBatch(b *testing.B) {
	for _, size := range []struct{ users, perUser int }{{100, 10}, {10000, 10}} {
		b.Run(fmt.Sprintf("users=%d,ads=%d", size.users, size.users*size.perUser), func(b *testing.B) {
			f := loaded(size.users, size.perUser)
			campaigns, adsets := map[string]string{}, map[string]string{}
			for _, o := range f.Objects("") {
				switch {
				case o.Kind == "campaign" && strings.HasPrefix(o.Name, "adboost-"):
					campaigns[o.AccountID] = o.ID
				case o.Kind == "adset" && strings.HasPrefix(o.Name, "spare-"):
					adsets[o.AccountID] = o.ID
				}
			}
			bodies := make([][]byte, 64)
			for k := range bodies {
				bodies[k] = benchBatch(k, size.users, campaigns, adsets)
			}
			ok := []byte(`"code":200`)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				req := httptest.NewRequest("POST", "/v25.0/", bytes.NewReader(bodies[i%len(bodies)]))
				req.Header.Set("Authorization", "Bearer "+benchUser(0))
				rec := httptest.NewRecorder()
				f.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || bytes.Count(rec.Body.Bytes(), ok) != 50 {
					b.Fatalf("batch = %d %.500s", rec.Code, rec.Body)
				}
			}
			_, calls := f.Counts()
			b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}

// onNetworkA is a targeting that runs on network_a only, with Advantage
// audience off.
func onNetworkA() map[string]any {
	return map[string]any{"publisher_platforms": []any{"network_a"}, "targeting_automation": map[string]any{"advantage_audience": 0}}
}
