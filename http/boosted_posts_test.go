package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// postsFixture gives Ana 45 posts (30 on page 456 linked to campaign 1, every
// third also to campaign 2; 15 on page 457 linked to campaign 3), created in
// pairs at the same second so that the id decides between them, and Bob 10
// posts interleaved with hers. It answers Ana's post ids in the list's order
// and the source and campaigns of each.
func postsFixture(e *env) (order []int64, source map[int64]int64, links map[int64][]int64) {
	e.t.Helper()
	e.load(campaignUsers)
	e.sqlExec(campaignPresetsAndSources)
	var file map[string]json.RawMessage
	if err := json.Unmarshal([]byte(campaignRows), &file); err != nil {
		e.t.Fatal(err)
	}
	type post struct {
		ID       int64   `json:"id"`
		UserID   int64   `json:"user_id"`
		SourceID int64   `json:"source_id"`
		Pages    []int64 `json:"boosted_page_ids"`
		Active   bool    `json:"active"`
		Name     string  `json:"name"`
		Link     string  `json:"link"`
		Image    string  `json:"image"`
		Created  int64   `json:"created"`
		Stopped  int64   `json:"stopped"`
	}
	const base = 1767225600 // 2026-01-01
	var posts []post
	source, links = map[int64]int64{}, map[int64][]int64{}
	for i := range 45 {
		p := post{ID: int64(1100 - i*7%45), UserID: 100, Active: true, Created: base + int64(i/2)*3600,
			Name: fmt.Sprintf("Post %d", i), Link: fmt.Sprintf("https://net.example/p/%d", i), Image: fmt.Sprintf("https://img.example/p/%d.jpg", i)}
		if i%3 == 2 {
			p.SourceID, p.Pages = 457, []int64{3}
		} else {
			p.SourceID, p.Pages = 456, []int64{1}
			if i%6 == 0 {
				p.Pages = []int64{1, 2}
			}
		}
		posts = append(posts, p)
		source[p.ID], links[p.ID] = p.SourceID, p.Pages
	}
	for i := range 10 {
		posts = append(posts, post{ID: int64(2000 + i), UserID: 101, SourceID: 800, Pages: []int64{8}, Active: true,
			Name: "Bob's", Created: base + int64(i)*7200 + 1})
	}
	for _, p := range posts {
		if p.UserID == 100 {
			order = append(order, p.ID)
		}
	}
	created := map[int64]int64{}
	for _, p := range posts {
		created[p.ID] = p.Created
	}
	slices.SortFunc(order, func(a, b int64) int {
		if created[a] != created[b] {
			return int(created[b] - created[a])
		}
		return int(b - a)
	})
	raw, _ := json.Marshal(posts)
	file["boosted_posts"] = raw
	all, _ := json.Marshal(file)
	e.load(string(all))
	return order, source, links
}

// postIDs answers the ids of a BoostedPost list.
func postIDs(t *testing.T, r *response) []int64 {
	t.Helper()
	var posts []map[string]any
	r.ok(&posts)
	out := []int64{}
	for _, p := range posts {
		out = append(out, int64(p["id"].(float64)))
	}
	return out
}

func TestBoostedPostsList(t *testing.T) {
	e := newEnv(t)
	order, source, links := postsFixture(e)
	ana := e.token(100)
	if len(order) != 45 {
		t.Fatalf("fixture has %d posts of Ana", len(order))
	}

	// 20 a page, newest created first, then the higher id; page as int or string.
	for _, tc := range []struct {
		page any
		want []int64
	}{
		{nil, order[:20]}, {1, order[:20]}, {"2", order[20:40]}, {3, order[40:]}, {"4", []int64{}}, {"", order[:20]},
	} {
		got := postIDs(t, e.post("/v1/boosted-posts/list", ana, map[string]any{"page": tc.page}))
		if !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("page %v = %v\nwant %v", tc.page, got, tc.want)
		}
	}
	var n int
	e.post("/v1/boosted-posts/count", ana, nil).ok(&n)
	if n != 45 {
		t.Fatalf("count = %d, want 45", n)
	}
	checkPostsListFiltered(t, e, ana, order, source, links)
	// Bob's posts, source and campaign are not Ana's.
	for _, body := range []map[string]any{{"source_id": "800"}, {"boosted_page_id": "8"}, {"boosted_page_id": "12345"}} {
		if got := postIDs(t, e.post("/v1/boosted-posts/list", ana, body)); len(got) != 0 {
			t.Fatalf("list %v for Ana = %v", body, got)
		}
		e.post("/v1/boosted-posts/count", ana, body).ok(&n)
		if n != 0 {
			t.Fatalf("count %v for Ana = %d", body, n)
		}
	}
	if got := postIDs(t, e.post("/v1/boosted-posts/list", e.token(101), nil)); len(got) != 10 || got[0] != 2009 {
		t.Fatalf("Bob's list = %v", got)
	}

	for field, body := range map[string]map[string]any{
		"page":            {"page": 0},
		"page ":           {"page": "-1"},
		"page  ":          {"page": "first"},
		"source_id":       {"source_id": "abc"},
		"boosted_page_id": {"boosted_page_id": 0},
	} {
		e.post("/v1/boosted-posts/list", ana, body).fails(http.StatusBadRequest, "bad_request", strings.TrimSpace(field))
	}
	e.post("/v1/boosted-posts/count", ana, map[string]any{"boosted_page_id": "x"}).fails(http.StatusBadRequest, "bad_request", "boosted_page_id")
	e.post("/v1/boosted-posts/list", "", nil).fails(http.StatusUnauthorized, "unauthorized")
}

// checkPostsListFiltered checks list (every page) and count by source, by
// campaign and both against the fixture's posts in order.
func checkPostsListFiltered(t *testing.T, e *env, ana string, order []int64, source map[int64]int64, links map[int64][]int64) {
	t.Helper()
	var n int
	// Filters: by source, by campaign, both.
	filter := func(src, campaign int64) []int64 {
		out := []int64{}
		for _, id := range order {
			if (src == 0 || source[id] == src) && (campaign == 0 || slices.Contains(links[id], campaign)) {
				out = append(out, id)
			}
		}
		return out
	}
	for _, tc := range []struct {
		body             map[string]any
		source, campaign int64
	}{
		{map[string]any{"source_id": "457"}, 457, 0},
		{map[string]any{"source_id": 456}, 456, 0},
		{map[string]any{"boosted_page_id": 2}, 0, 2},
		{map[string]any{"boosted_page_id": "1"}, 0, 1},
		{map[string]any{"boosted_page_id": "3", "source_id": "457"}, 457, 3},
		{map[string]any{"boosted_page_id": "2", "source_id": "456"}, 456, 2},
		{map[string]any{"boosted_page_id": "3", "source_id": "456"}, 456, 3},
	} {
		want := filter(tc.source, tc.campaign)
		all := []int64{}
		for page := 1; ; page++ {
			body := map[string]any{"page": page}
			for k, v := range tc.body {
				body[k] = v
			}
			got := postIDs(t, e.post("/v1/boosted-posts/list", ana, body))
			all = append(all, got...)
			if len(got) < 20 {
				break
			}
		}
		if !reflect.DeepEqual(all, want) {
			t.Errorf("list %v = %v\nwant %v", tc.body, all, want)
		}
		e.post("/v1/boosted-posts/count", ana, tc.body).ok(&n)
		if n != len(want) {
			t.Errorf("count %v = %d, want %d", tc.body, n, len(want))
		}
	}
	if len(filter(457, 0)) != 15 || len(filter(0, 2)) != 8 || len(filter(456, 3)) != 0 {
		t.Fatal("the fixture does not tell the filters apart")
	}
}

func TestBoostedPostFields(t *testing.T) {
	e := newEnv(t)
	e.load(campaignUsers)
	long := strings.Repeat("Ab cdefghij", 14) // 154 characters
	e.load(`{"boosted_posts": [
	  {"id": 1, "user_id": 100, "source_id": 456, "active": false, "name": "Stopped post",
	   "link": "https://net.example/p/1", "image": "https://img.example/1.jpg", "created": 1767225600, "stopped": 1767312000},
	  {"id": 2, "user_id": 100, "source_id": 456, "name": "` + long + `", "created": 1767139200},
	  {"id": 3, "user_id": 100, "source_id": 456, "name": "` + long[:100] + `", "created": 1767052800}
	]}`)
	var posts []map[string]any
	e.post("/v1/boosted-posts/list", e.token(100), map[string]any{"page": "1"}).ok(&posts)
	want := map[string]any{"id": 1.0, "active": false, "name": "Stopped post", "link": "https://net.example/p/1",
		"image": "https://img.example/1.jpg", "created": 1767225600.0, "stopped": 1767312000.0, "review": nil}
	if len(posts) != 3 || !reflect.DeepEqual(posts[0], want) {
		t.Fatalf("posts = %v", posts)
	}
	// A running post: active, stopped 0. A long text ends in an ellipsis at 100 characters.
	name := posts[1]["name"].(string)
	if posts[1]["active"] != true || posts[1]["stopped"] != 0.0 || posts[1]["link"] != "" ||
		utf8.RuneCountInString(name) != 100 || !strings.HasSuffix(name, "…") || !strings.HasPrefix(long, strings.TrimSuffix(name, "…")) {
		t.Fatalf("post 2 = %v", posts[1])
	}
	if posts[2]["name"] != long[:100] {
		t.Fatalf("a text of exactly 100 characters was cut: %v", posts[2]["name"])
	}
}

func TestBoostedPostsBatchInsights(t *testing.T) {
	e := newEnv(t)
	e.loadCampaigns()
	ana, bob := e.token(100), e.token(101)
	zero := map[string]any{"posts": "0", "reach": "0", "engagement": "0", "clicks": "0", "spend": "0.00", "cpm": "0.00",
		"ctr": "0.00", "cpc": "0.00", "cpa": "0.00", "conversions": "0", "conversion_rate": "0.00"}
	with := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range zero {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	// 900 + 901: impressions 2000, reach 1650, engagement 115, clicks 57,
	// spend 19.35, conversions 5. cpm 19.35*1000/2000 = 9.675 → 9.68 (half
	// up), ctr 57*100/2000 = 2.85, cpc 19.35/57 = 0.3394 → 0.34, cpa 19.35/5
	// = 3.87, conversion rate 5*100/57 = 8.7719 → 8.77.
	pair := with(map[string]any{"posts": "2", "reach": "1650", "engagement": "115", "clicks": "57", "spend": "19.35",
		"cpm": "9.68", "ctr": "2.85", "cpc": "0.34", "cpa": "3.87", "conversions": "5", "conversion_rate": "8.77"})
	for _, tc := range []struct {
		name, token, ids string
		want             map[string]any
	}{
		{"two posts", ana, "900,901", pair},
		// 902 has no insights yet; Bob's 950 and the unknown 99999 add
		// nothing; a duplicate counts once.
		{"duplicates, foreign and unknown ids", ana, " 901, 900,901 ,950,99999", pair},
		{"a post without insights", ana, "900,902,901", with(map[string]any{"posts": "3", "reach": "1650", "engagement": "115",
			"clicks": "57", "spend": "19.35", "cpm": "9.68", "ctr": "2.85", "cpc": "0.34", "cpa": "3.87", "conversions": "5", "conversion_rate": "8.77"})},
		{"zero impressions, clicks and conversions", ana, "902", with(map[string]any{"posts": "1"})},
		// 903: impressions 500, clicks 0, conversions 0, spend 2.50: cpm
		// 5.00; ctr, cpc, cpa and conversion rate divide by 0.
		{"zero clicks", ana, "903", with(map[string]any{"posts": "1", "reach": "400", "engagement": "10", "spend": "2.50", "cpm": "5.00"})},
		// 904: spend 0.25, impressions 3, clicks 2, conversions 2: cpm
		// 83.333 → 83.33, ctr 66.667 → 66.67, cpc = cpa = 0.125 → 0.13 (half up).
		{"halves round up", ana, "904", with(map[string]any{"posts": "1", "reach": "3", "engagement": "1", "clicks": "2", "spend": "0.25",
			"cpm": "83.33", "ctr": "66.67", "cpc": "0.13", "cpa": "0.13", "conversions": "2", "conversion_rate": "100.00"})},
		// All five: impressions 2503, reach 2053, engagement 126, clicks 59,
		// spend 22.10, conversions 7: cpm 8.8294 → 8.83, ctr 2.3572 → 2.36,
		// cpc 0.3746 → 0.37, cpa 3.1571 → 3.16, conversion rate 11.864 → 11.86.
		{"all of Ana's", ana, "900,901,902,903,904", with(map[string]any{"posts": "5", "reach": "2053", "engagement": "126",
			"clicks": "59", "spend": "22.10", "cpm": "8.83", "ctr": "2.36", "cpc": "0.37", "cpa": "3.16", "conversions": "7", "conversion_rate": "11.86"})},
		{"only another user's post", ana, "950", zero},
		// Bob's 950: spend 999.99 over 100000 impressions, 3000 clicks, 300
		// conversions: cpm 9.9999 → 10.00, ctr 3.00, cpc 0.3333 → 0.33, cpa
		// 3.3333 → 3.33, conversion rate 10.00.
		{"Bob's own", bob, "950,900", with(map[string]any{"posts": "1", "reach": "90000", "engagement": "5000", "clicks": "3000",
			"spend": "999.99", "cpm": "10.00", "ctr": "3.00", "cpc": "0.33", "cpa": "3.33", "conversions": "300", "conversion_rate": "10.00"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]any
			e.post("/v1/boosted-posts/batch-insights", tc.token, map[string]any{"ids": tc.ids}).ok(&got)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("insights of %q =\n  %v\nwant\n  %v", tc.ids, got, tc.want)
			}
		})
	}

	checkBatchInsightsIDLimits(t, e, ana)
	e.post("/v1/boosted-posts/batch-insights", "", map[string]any{"ids": "900"}).fails(http.StatusUnauthorized, "unauthorized")
}

// checkBatchInsightsIDLimits checks 1,000 ids are fine (with Ana's five among
// them); 1,001 are not, nor malformed lists.
func checkBatchInsightsIDLimits(t *testing.T, e *env, ana string) {
	t.Helper()
	// 1,000 ids are fine (with Ana's five among them); 1,001 are not, nor malformed lists.
	thousand := make([]string, 1000)
	for i := range thousand {
		thousand[i] = fmt.Sprint(100000 + i)
	}
	copy(thousand[500:], []string{"900", "901", "902", "903", "904"})
	var got map[string]any
	e.post("/v1/boosted-posts/batch-insights", ana, map[string]any{"ids": strings.Join(thousand, ",")}).ok(&got)
	if got["posts"] != "5" || got["spend"] != "22.10" {
		t.Fatalf("1,000 ids with Ana's five = %v", got)
	}
	for name, body := range map[string]any{
		"1,001 ids":   map[string]any{"ids": strings.Join(thousand, ",") + ",900"},
		"empty":       map[string]any{"ids": ""},
		"blank":       map[string]any{"ids": "  "},
		"missing":     map[string]any{},
		"empty entry": map[string]any{"ids": "900,,901"},
		"trailing":    map[string]any{"ids": "900,"},
		"zero":        map[string]any{"ids": "0"},
		"negative":    map[string]any{"ids": "900,-1"},
		"word":        map[string]any{"ids": "900,abc"},
		"fraction":    map[string]any{"ids": "1.5"},
		"a sign":      map[string]any{"ids": "900,+901"},
		"too large":   map[string]any{"ids": "99999999999999999999"},
		"semicolons":  map[string]any{"ids": "900;901"},
		"a number":    map[string]any{"ids": 900},
		"an array":    map[string]any{"ids": []int{900, 901}},
	} {
		t.Run(name, func(t *testing.T) {
			e.post("/v1/boosted-posts/batch-insights", ana, body).fails(http.StatusBadRequest, "bad_request", "ids")
		})
	}
}
