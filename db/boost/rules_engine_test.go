package boost_test

// The engine applies a campaign's rules: each rule is set through the API
// (boosted-pages/save with {"rules": {...}}), the posts come from the fake
// network_a, and a post is boosted when network_a has an ad for it
// (adboost-<campaign>-<post id>, adboost-<campaign>-b<media id>) and
// boosted-posts/list shows it.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// rulesPostFields are the fields network_a's posts are read with.
const rulesPostFields = "id,message,created_time,permalink_url,full_picture,status_type," +
	"reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares"

// rulesWorld is a world (newWorld, newWorldB) with the helpers of these
// tests.
type rulesWorld struct{ *world }

// save sets a campaign's rules with boosted-pages/save, and checks that
// the campaign answers each of them back.
func (w *rulesWorld) save(campaign int64, r map[string]any) {
	w.t.Helper()
	var ok bool
	w.call(http.MethodPost, fmt.Sprintf("/v1/boosted-pages/save/%d", campaign), map[string]any{"rules": r}, &ok)
	if !ok {
		w.t.Fatalf("save/%d answered false", campaign)
	}
	var page struct {
		Rules map[string]json.RawMessage `json:"rules"`
	}
	w.call(http.MethodGet, fmt.Sprintf("/v1/boosted-pages/detail/%d", campaign), nil, &page)
	for k := range r {
		if v := strings.TrimSpace(string(page.Rules[k])); v == "" || v == "null" {
			w.t.Fatalf("campaign %d's rules after save: %s is %q (rules %s)", campaign, k, v, jsonString(page.Rules))
		}
	}
}

// deactivate turns campaigns off with boosted-pages/save, so that only the
// campaign under test reads posts and calls network_a.
func (w *rulesWorld) deactivate(campaigns ...int64) {
	w.t.Helper()
	for _, c := range campaigns {
		var ok bool
		w.call(http.MethodPost, fmt.Sprintf("/v1/boosted-pages/save/%d", c), map[string]any{"active": false}, &ok)
	}
}

// rulesPost is a post of page 456 as the rules see it.
type rulesPost struct {
	id                          string // the post's id in adboost: "456_" + id on network_a
	message                     string
	created                     time.Time
	reach                       int
	status                      string // status_type; "" = absent
	reactions, comments, shares int
}

// publish publishes a post on page 456.
func (w *rulesWorld) publish(p rulesPost) {
	w.fake.AddPost("456", networkafake.Post{
		ID: "456_" + p.id, Message: p.message, Created: p.created,
		Permalink: "https://net-a.example/456/posts/" + p.id, Picture: "https://img.example/" + p.id + ".jpg",
		OrganicReach: p.reach, StatusType: p.status, Reactions: p.reactions, Comments: p.comments, Shares: p.shares,
	})
}

// rulesMediaID answers the n-th media id: 17 digits, as network_b's are.
func rulesMediaID(n int) string { return fmt.Sprintf("1789%013d", n) }

// rulesMedia is a media of network_b account 789 as the rules see it.
type rulesMedia struct {
	n               int // its id is rulesMediaID(n)
	caption         string
	kind            string // IMAGE, VIDEO, CAROUSEL_ALBUM
	created         time.Time
	reach           int
	likes, comments int
}

// publishMedia publishes a media on network_b account 789.
func (w *rulesWorld) publishMedia(m rulesMedia) {
	id := rulesMediaID(m.n)
	media := networkafake.Media{ID: id, Caption: m.caption, Type: m.kind, Created: m.created,
		Permalink: "https://net-b.example/p/" + id, URL: "https://img-b.example/" + id + ".jpg",
		Reach: m.reach, Likes: m.likes, Comments: m.comments}
	if m.kind == "VIDEO" {
		media.Thumbnail = "https://img-b.example/" + id + "-thumb.jpg"
	}
	w.fake.AddMedia("789", media)
}

// boostedIn answers what network_a has ads for in a campaign: the post ids
// (and "b"+media id for network_b), shortest and then lowest first, joined
// by commas; boosted-posts/list must show as many posts.
func (w *rulesWorld) boostedIn(campaign int64) string {
	w.t.Helper()
	prefix := fmt.Sprintf("adboost-%d-", campaign)
	var s []string
	for _, o := range w.fake.Objects("ad") {
		if strings.HasPrefix(o.Name, prefix) {
			s = append(s, strings.TrimPrefix(o.Name, prefix))
		}
	}
	slices.SortFunc(s, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) })
	if n := len(w.list(campaign)); n != len(s) {
		w.t.Errorf("campaign %d: network_a has %d ads (%v), boosted-posts/list shows %d posts", campaign, len(s), s, n)
	}
	return strings.Join(s, ",")
}

// rulesMediaList answers the boostedIn form of media: "b"+rulesMediaID(n) for each n.
func rulesMediaList(ns ...int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = "b" + rulesMediaID(n)
	}
	return strings.Join(s, ",")
}

// reads answers the query of each call the fake handled whose path starts
// with prefix ("/456/posts?").
func (w *rulesWorld) reads(prefix string) []url.Values {
	w.t.Helper()
	var out []url.Values
	for _, c := range w.fake.Calls() {
		if path, query, ok := strings.Cut(c.Path, "?"); ok && path+"?" == prefix {
			q, err := url.ParseQuery(query)
			if err != nil {
				w.t.Fatalf("%s: %v", c.Path, err)
			}
			out = append(out, q)
		}
	}
	return out
}

// checkSince checks that every read of the source since the last TakeCalls
// asked since = want (UNIX seconds), and that there was one.
func (w *rulesWorld) checkSince(prefix string, want time.Time) {
	w.t.Helper()
	reads := w.reads(prefix)
	if len(reads) == 0 {
		w.t.Errorf("no %s read", prefix)
	}
	for _, q := range reads {
		if got := q.Get("since"); got != strconv.FormatInt(want.Unix(), 10) {
			w.t.Errorf("%s read with since=%s, want %d (%s)", prefix, got, want.Unix(), want.UTC().Format(time.RFC3339))
		}
	}
}

// cycleCalls runs a cycle and answers its calls as "METHOD /path" (no
// query), sorted, with the network_a campaigns' ids replaced by C<id>.
func (w *rulesWorld) cycleCalls() []string {
	w.t.Helper()
	w.fake.TakeCalls()
	w.cycle()
	var ids []string
	for _, o := range w.fake.Objects("campaign") {
		ids = append(ids, o.ID, "C"+strings.TrimPrefix(o.Name, "adboost-"))
	}
	r := strings.NewReplacer(ids...)
	var got []string
	for _, c := range w.fake.Calls() {
		path, _, _ := strings.Cut(c.Path, "?")
		got = append(got, c.Method+" "+r.Replace(path))
	}
	slices.Sort(got)
	return got
}

// utc reads a time of day in UTC: "2026-03-29 01:00:00".
func rulesUTC(t *testing.T, s string) time.Time { return rulesLocal(t, s, "UTC") }

// local reads a wall-clock time of a time zone: "2026-11-19 22:00:00".
func rulesLocal(t *testing.T, s, zone string) time.Time {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	at, err := time.ParseInLocation(time.DateTime, s, loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := at.Format(time.DateTime); got != s {
		t.Fatalf("%s does not exist in %s (it is %s)", s, zone, got)
	}
	return at
}

// 1. min_reactions, min_comments, min_shares: exactly the minimum
// qualifies, one less does not; shares absent count as 0.
func TestRuleEngineCounts(t *testing.T) {
	type counts struct{ reactions, comments, shares int }
	for _, c := range []struct {
		name  string
		rules map[string]any
		posts []counts // post i+1
		want  string
	}{
		{"min_reactions", map[string]any{"min_reactions": 10},
			[]counts{{10, 0, 0}, {9, 50, 50}, {11, 0, 0}}, "1,3"},
		{"min_comments", map[string]any{"min_comments": 5},
			[]counts{{0, 5, 0}, {50, 4, 50}, {0, 6, 0}}, "1,3"},
		{"min_shares", map[string]any{"min_shares": 3},
			[]counts{{0, 0, 3}, {50, 50, 2}, {0, 0, 0}}, "1"},
		{"all three", map[string]any{"min_reactions": 10, "min_comments": 5, "min_shares": 3},
			[]counts{{10, 5, 3}, {9, 5, 3}, {10, 4, 3}, {10, 5, 2}, {100, 100, 100}}, "1,5"},
		{"given as strings", map[string]any{"min_reactions": "10", "min_shares": "1"},
			[]counts{{10, 0, 1}, {9, 0, 1}, {10, 0, 0}}, "1"},
		{"zero minimums", map[string]any{"min_reactions": 0, "min_comments": 0, "min_shares": 0},
			[]counts{{0, 0, 0}}, "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &rulesWorld{newWorld(t)}
			w.deactivate(8)
			w.save(7, c.rules)
			for i, p := range c.posts {
				w.publish(rulesPost{id: strconv.Itoa(i + 1), message: "#gym post", created: time.Now().Add(-time.Duration(i+1) * time.Hour),
					reactions: p.reactions, comments: p.comments, shares: p.shares})
			}
			w.cycle()
			if got := w.boostedIn(7); got != c.want {
				t.Errorf("boosted %s, want %s\n%s", got, c.want, w.logs)
			}
		})
	}
}

// 1. network_b: like_count counts as reactions, comments_count as
// comments; min_shares does not apply to media.
func TestRuleEngineCountsMedia(t *testing.T) {
	w := &rulesWorld{newWorldB(t)}
	w.deactivate(10)
	w.save(9, map[string]any{"min_reactions": 10, "min_comments": 5, "min_shares": 3})
	now := time.Now()
	for _, m := range []rulesMedia{
		{n: 1, likes: 10, comments: 5, kind: "IMAGE"}, // exactly the minimums, no shares
		{n: 2, likes: 9, comments: 5, kind: "IMAGE"},  // one like short
		{n: 3, likes: 10, comments: 4, kind: "IMAGE"}, // one comment short
		{n: 4, likes: 11, comments: 6, kind: "VIDEO"},
		{n: 5, likes: 4, comments: 11, kind: "IMAGE"}, // comments do not count as likes
	} {
		m.caption, m.created = "#gym media", now.Add(-time.Duration(m.n)*time.Hour)
		w.publishMedia(m)
	}
	w.cycle()
	if got, want := w.boostedIn(9), rulesMediaList(1, 4); got != want {
		t.Errorf("boosted %s, want %s\n%s", got, want, w.logs)
	}
}

// 2. min_engagement_rate: (reactions + comments + shares) × 100 ≥ rate ×
// organic reach, the rate with two decimals, exactly; reach 0 never
// qualifies.
func TestRuleEngineEngagementRate(t *testing.T) {
	type post struct{ reach, reactions, comments, shares int }
	for _, c := range []struct {
		rate  any
		posts []post // post i+1
		want  string
	}{
		{json.Number("2.55"), []post{
			{2000, 30, 15, 6},  // 51 × 100 = 5100 = 2.55 × 2000
			{2000, 30, 15, 5},  // 50: just under
			{0, 1000, 0, 0},    // no reach
			{10000, 255, 0, 0}, // exactly
			{10000, 0, 0, 254}, // just under
			{1, 0, 0, 1},       // 100 ≥ 2.55
			{3, 0, 0, 0},       // 0 < 7.65
		}, "1,4,6"},
		// Rates whose binary floating point is not exact: 1.15 × 100 is
		// 114.99… and 0.29 × 10000 is 2899.99… in float64.
		{json.Number("1.15"), []post{{10000, 115, 0, 0}, {10000, 114, 0, 0}, {20000, 0, 230, 0}, {20000, 0, 229, 0}}, "1,3"},
		{"0.29", []post{{10000, 29, 0, 0}, {10000, 28, 0, 0}}, "1"},
		{json.Number("100"), []post{{50, 25, 25, 0}, {50, 25, 24, 0}}, "1"},
		// Rate 0: every post with reach, none without.
		{json.Number("0"), []post{{5, 0, 0, 0}, {0, 100, 100, 100}}, "1"},
	} {
		t.Run(fmt.Sprint(c.rate), func(t *testing.T) {
			w := &rulesWorld{newWorld(t)}
			w.deactivate(8)
			w.save(7, map[string]any{"min_engagement_rate": c.rate})
			for i, p := range c.posts {
				w.publish(rulesPost{id: strconv.Itoa(i + 1), message: "#gym post", created: time.Now().Add(-time.Duration(i+1) * time.Hour),
					reach: p.reach, reactions: p.reactions, comments: p.comments, shares: p.shares})
			}
			w.cycle()
			if got := w.boostedIn(7); got != c.want {
				t.Errorf("boosted %s, want %s\n%s", got, c.want, w.logs)
			}
		})
	}
}

// 2. The engagement rate of media: (like_count + comments_count) × 100 ≥
// rate × the media's reach.
func TestRuleEngineEngagementRateMedia(t *testing.T) {
	w := &rulesWorld{newWorldB(t)}
	w.deactivate(10)
	w.save(9, map[string]any{"min_engagement_rate": json.Number("2.55")})
	now := time.Now()
	for _, m := range []rulesMedia{
		{n: 1, reach: 2000, likes: 40, comments: 11}, // 51: exactly
		{n: 2, reach: 2000, likes: 40, comments: 10}, // 50: just under
		{n: 3, reach: 0, likes: 500, comments: 500},  // no reach
		{n: 4, reach: 10000, likes: 0, comments: 255},
		{n: 5, reach: 10000, likes: 254, comments: 0},
	} {
		m.caption, m.kind, m.created = "#gym media", "IMAGE", now.Add(-time.Duration(m.n)*time.Hour)
		w.publishMedia(m)
	}
	w.cycle()
	if got, want := w.boostedIn(9), rulesMediaList(1, 4); got != want {
		t.Errorf("boosted %s, want %s\n%s", got, want, w.logs)
	}
}

// 3. A post an engagement rule holds back is looked at again in later
// cycles and boosted once its counts rise, with no call beyond those of a
// steady cycle (the posts read carries the counts) and those of any boost:
// the ad account's check (once a work with something to create) and the ad's
// create.
func TestRuleEngineHeldBackThenBoosted(t *testing.T) {
	t.Run("min_reactions", testHeldBackByMinReactions)
	t.Run("min_engagement_rate", testHeldBackByMinEngagementRate)
	t.Run("network_b min_comments", testHeldBackByNetworkBMinComments)
}

// testHeldBackByMinReactions: a post under min_reactions is boosted once its
// reactions rise, with only the calls of a boost beyond a steady cycle's.
func testHeldBackByMinReactions(t *testing.T) {
	w := &rulesWorld{newWorld(t)}
	w.deactivate(8)
	w.save(7, map[string]any{"min_reactions": 10})
	w.publish(rulesPost{id: "1", message: "#gym held back", created: time.Now().Add(-2 * time.Hour), reactions: 9})
	w.publish(rulesPost{id: "2", message: "#gym popular", created: time.Now().Add(-time.Hour), reactions: 50})
	w.cycle()
	if got := w.boostedIn(7); got != "2" {
		t.Fatalf("first cycle boosted %s, want 2\n%s", got, w.logs)
	}
	steady := []string{"GET /456/posts", "GET /C7/ads", "GET /C7/insights"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, steady) {
		t.Errorf("a cycle with the post still held back called\n %v\nwant %v", got, steady)
	}
	for _, q := range w.reads("/456/posts?") {
		if q.Get("fields") != rulesPostFields {
			t.Errorf("posts read with fields=%s, want %s", q.Get("fields"), rulesPostFields)
		}
	}
	if got := w.boostedIn(7); got != "2" {
		t.Errorf("second cycle: boosted %s, want 2", got)
	}
	w.fake.SetPostCounts("456_1", 10, 0, 0)
	want := []string{"GET /456/posts", "GET /C7/ads", "GET /C7/insights", "GET /me/adaccounts", "POST /act_1/ads"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("the cycle after the counts rose called\n %v\nwant %v", got, want)
	}
	if got := w.boostedIn(7); got != "1,2" {
		t.Errorf("after the counts rose: boosted %s, want 1,2\n%s", got, w.logs)
	}
}

// testHeldBackByMinEngagementRate: a post under min_engagement_rate is read
// once a cycle and boosted once its counts rise.
func testHeldBackByMinEngagementRate(t *testing.T) {
	// The rate needs each candidate's organic reach: one insights read
	// of the held-back post a cycle, nothing more.
	w := &rulesWorld{newWorld(t)}
	w.deactivate(8)
	w.save(7, map[string]any{"min_engagement_rate": json.Number("2.55")})
	w.publish(rulesPost{id: "1", message: "#gym held back", created: time.Now().Add(-2 * time.Hour), reach: 2000, reactions: 50})
	w.publish(rulesPost{id: "2", message: "#gym popular", created: time.Now().Add(-time.Hour), reach: 100, reactions: 50})
	w.cycle()
	if got := w.boostedIn(7); got != "2" {
		t.Fatalf("first cycle boosted %s, want 2\n%s", got, w.logs)
	}
	steady := []string{"GET /456/posts", "GET /456_1/insights", "GET /C7/ads", "GET /C7/insights"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, steady) {
		t.Errorf("a cycle with the post still held back called\n %v\nwant %v", got, steady)
	}
	w.fake.SetPostCounts("456_1", 50, 0, 1)
	want := []string{"GET /456/posts", "GET /456_1/insights", "GET /C7/ads", "GET /C7/insights", "GET /me/adaccounts", "POST /act_1/ads"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("the cycle after the counts rose called\n %v\nwant %v", got, want)
	}
	if got := w.boostedIn(7); got != "1,2" {
		t.Errorf("after the counts rose: boosted %s, want 1,2\n%s", got, w.logs)
	}
}

// testHeldBackByNetworkBMinComments: a network_b media under min_comments is
// boosted once its comments rise.
func testHeldBackByNetworkBMinComments(t *testing.T) {
	w := &rulesWorld{newWorldB(t)}
	w.deactivate(10)
	w.save(9, map[string]any{"min_comments": 5})
	w.publishMedia(rulesMedia{n: 1, caption: "#gym held back", kind: "IMAGE", created: time.Now().Add(-2 * time.Hour), likes: 100, comments: 4})
	w.publishMedia(rulesMedia{n: 2, caption: "#gym popular", kind: "IMAGE", created: time.Now().Add(-time.Hour), comments: 5})
	w.cycle()
	if got := w.boostedIn(9); got != rulesMediaList(2) {
		t.Fatalf("first cycle boosted %s, want %s\n%s", got, rulesMediaList(2), w.logs)
	}
	steady := []string{"GET /789/media", "GET /C9/ads", "GET /C9/insights"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, steady) {
		t.Errorf("a cycle with the media still held back called\n %v\nwant %v", got, steady)
	}
	w.fake.SetMediaCounts(rulesMediaID(1), 100, 5)
	want := []string{"GET /789/media", "GET /C9/ads", "GET /C9/insights", "GET /me/adaccounts", "POST /act_1/ads"}
	if got := w.cycleCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("the cycle after the counts rose called\n %v\nwant %v", got, want)
	}
	if got := w.boostedIn(9); got != rulesMediaList(1, 2) {
		t.Errorf("after the counts rose: boosted %s, want %s\n%s", got, rulesMediaList(1, 2), w.logs)
	}
}

// 4. post_age_min_hours and post_age_max_hours at the engine's clock: a
// post exactly min hours old qualifies, one second younger not (until a
// second later); exactly max hours old qualifies, one second older not;
// the posts are read with since = now − post_age_max_hours (without the
// rule, now − ENGINE_POST_MAX_AGE).
func TestRuleEnginePostAge(t *testing.T) {
	w := &rulesWorld{newWorld(t)}
	w.deactivate(8)
	now := rulesUTC(t, "2026-11-18 12:00:00")
	w.setNow(now)
	w.cycleCalls()
	w.checkSince("/456/posts?", now.Add(-168*time.Hour))

	w.save(7, map[string]any{"post_age_min_hours": 2, "post_age_max_hours": 48})
	for _, p := range []rulesPost{
		{id: "1", created: now.Add(-2 * time.Hour)},               // exactly min
		{id: "2", created: now.Add(-2*time.Hour + time.Second)},   // one second younger
		{id: "3", created: now.Add(-48 * time.Hour)},              // exactly max
		{id: "4", created: now.Add(-48*time.Hour - time.Second)},  // one second older
		{id: "5", created: now.Add(-24 * time.Hour)},              //
		{id: "6", created: now.Add(-time.Hour), reactions: 1000},  // too young
		{id: "7", created: now.Add(-100 * time.Hour), reach: 900}, // too old
	} {
		p.message = "#gym post " + p.id
		w.publish(p)
	}
	w.cycleCalls()
	w.checkSince("/456/posts?", now.Add(-48*time.Hour))
	if got := w.boostedIn(7); got != "1,3,5" {
		t.Errorf("at %s: boosted %s, want 1,3,5\n%s", now.Format(time.RFC3339), got, w.logs)
	}
	// A second later post 2 is old enough; post 4 is still too old.
	w.setNow(now.Add(time.Second))
	w.cycleCalls()
	w.checkSince("/456/posts?", now.Add(time.Second-48*time.Hour))
	if got := w.boostedIn(7); got != "1,2,3,5" {
		t.Errorf("a second later: boosted %s, want 1,2,3,5\n%s", got, w.logs)
	}
	// Post 6 an hour later.
	w.setNow(now.Add(time.Hour))
	w.cycle()
	if got := w.boostedIn(7); got != "1,2,3,5,6" {
		t.Errorf("an hour later: boosted %s, want 1,2,3,5,6\n%s", got, w.logs)
	}
}

// 4. The age rules on network_b media, and the media read with since.
func TestRuleEnginePostAgeMedia(t *testing.T) {
	w := &rulesWorld{newWorldB(t)}
	w.deactivate(10)
	now := rulesUTC(t, "2026-11-18 12:00:00")
	w.setNow(now)
	w.save(9, map[string]any{"post_age_min_hours": 1, "post_age_max_hours": 24})
	for _, m := range []rulesMedia{
		{n: 1, created: now.Add(-24 * time.Hour)},                // exactly max
		{n: 2, created: now.Add(-24*time.Hour - time.Second)},    // one second older
		{n: 3, created: now.Add(-time.Hour)},                     // exactly min
		{n: 4, created: now.Add(-time.Hour + time.Second)},       // one second younger
		{n: 5, created: now.Add(-12 * time.Hour), kind: "VIDEO"}, //
	} {
		m.caption = "#gym media"
		w.publishMedia(m)
	}
	w.cycleCalls()
	w.checkSince("/789/media?", now.Add(-24*time.Hour))
	if got, want := w.boostedIn(9), rulesMediaList(1, 3, 5); got != want {
		t.Errorf("boosted %s, want %s\n%s", got, want, w.logs)
	}
}

// 5. content_types: network_a's status_type added_photos → photo,
// added_video → video, shared_story → link, mobile_status_update → text;
// any other status_type (or none) matches no content type.
func TestRuleEngineContentTypes(t *testing.T) {
	posts := []rulesPost{
		{id: "1", status: "added_photos"},
		{id: "2", status: "added_video"},
		{id: "3", status: "shared_story"},
		{id: "4", status: "mobile_status_update"},
		{id: "5", status: "created_event"}, // not in the table
		{id: "6"},                          // no status_type
	}
	for _, c := range []struct {
		types []string
		want  string
	}{
		{nil, "1,2,3,4,5,6"}, // no rule
		{[]string{"photo"}, "1"},
		{[]string{"video"}, "2"},
		{[]string{"link"}, "3"},
		{[]string{"text"}, "4"},
		{[]string{"text", "photo"}, "1,4"},
		{[]string{"photo", "video", "link", "text"}, "1,2,3,4"},
	} {
		t.Run(strings.Join(c.types, "+"), func(t *testing.T) {
			w := &rulesWorld{newWorld(t)}
			w.deactivate(8)
			if c.types != nil {
				w.save(7, map[string]any{"content_types": c.types})
			}
			for i, p := range posts {
				p.message, p.created = "#gym post", time.Now().Add(-time.Duration(i+1)*time.Hour)
				w.publish(p)
			}
			w.cycle()
			if got := w.boostedIn(7); got != c.want {
				t.Errorf("boosted %s, want %s\n%s", got, c.want, w.logs)
			}
		})
	}
}

// 5. content_types on network_b: IMAGE and CAROUSEL_ALBUM are photos,
// VIDEO videos; no media is a link or a text.
func TestRuleEngineContentTypesMedia(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  string
	}{
		{[]string{"photo"}, rulesMediaList(1, 2)},
		{[]string{"video"}, rulesMediaList(3)},
		{[]string{"link", "text"}, ""},
		{[]string{"video", "link"}, rulesMediaList(3)},
	} {
		t.Run(strings.Join(c.types, "+"), func(t *testing.T) {
			w := &rulesWorld{newWorldB(t)}
			w.deactivate(10)
			w.save(9, map[string]any{"content_types": c.types})
			for i, kind := range []string{"IMAGE", "CAROUSEL_ALBUM", "VIDEO"} {
				w.publishMedia(rulesMedia{n: i + 1, caption: "#gym " + kind, kind: kind, created: time.Now().Add(-time.Duration(i+1) * time.Hour)})
			}
			w.cycle()
			if got := w.boostedIn(9); got != c.want {
				t.Errorf("boosted %s, want %s\n%s", got, c.want, w.logs)
			}
		})
	}
}

// 6. exclude_keywords: a keyword that occurs as a whole word or tag,
// case-insensitively, keeps the post from being boosted.
func TestRuleEngineExcludeKeywords(t *testing.T) {
	w := &rulesWorld{newWorldB(t)}
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": true}, &ok)
	w.deactivate(10)
	excluded := map[string]any{"exclude_keywords": []string{"#promo", "Sale", "flash deal"}}
	w.save(7, excluded)
	w.save(9, excluded)
	for i, m := range []string{
		"#gym #Promo!",          // 1: the tag, another case
		"#gym #promotion week",  // 2: not the whole tag
		"#gym big SALE today",   // 3: the word, another case
		"#gym wholesale prices", // 4: not the whole word
		"#gym #PROMO",           // 5
		"#gym sales team",       // 6: not the whole word
		"#gym Flash Deal, now",  // 7: the phrase
		"#gym flash dealer",     // 8: not the whole phrase
		"#gym sale.",            // 9
		"#gym",                  // 10
	} {
		w.publish(rulesPost{id: strconv.Itoa(i + 1), message: m, created: time.Now().Add(-time.Duration(i+1) * time.Hour)})
	}
	w.publishMedia(rulesMedia{n: 1, caption: "#gym #promo", kind: "IMAGE", created: time.Now().Add(-time.Hour)})
	w.publishMedia(rulesMedia{n: 2, caption: "#gym #Promotional", kind: "IMAGE", created: time.Now().Add(-2 * time.Hour)})
	w.publishMedia(rulesMedia{n: 3, caption: "#GYM end of season SALE!", kind: "IMAGE", created: time.Now().Add(-3 * time.Hour)})
	w.cycle()
	if got := w.boostedIn(7); got != "2,4,6,8,10" {
		t.Errorf("campaign 7 boosted %s, want 2,4,6,8,10\n%s", got, w.logs)
	}
	if got, want := w.boostedIn(9), rulesMediaList(2); got != want {
		t.Errorf("campaign 9 boosted %s, want %s", got, want)
	}
}

// 7. hours: boosts happen only in [from, to) of the campaign's time zone,
// on its days (to the minute: at `from` yes, at `to` no); a window that
// wraps past midnight belongs to the day it opens; across a daylight-saving
// change the window is the wall clock's.
func TestRuleEngineHours(t *testing.T) {
	for _, g := range hoursGroups() {
		for _, c := range g.ats {
			t.Run(g.name+"/"+c.name, func(t *testing.T) {
				w := &rulesWorld{newWorld(t)}
				w.deactivate(8)
				now := c.at(t)
				w.setNow(now)
				w.save(7, map[string]any{"hours": g.hours})
				w.publish(rulesPost{id: "1", message: "#gym now", created: now.Add(-time.Minute)})
				w.cycle()
				want := map[bool]string{true: "1", false: ""}[c.want]
				if got := w.boostedIn(7); got != want {
					t.Errorf("at %s (%s): boosted %q, want %q\n%s", now.UTC().Format(time.RFC3339), c.name, got, want, w.logs)
				}
			})
		}
	}
}

// hoursAt is a moment TestRuleEngineHours tries and whether a post is boosted then.
type hoursAt struct {
	name string
	at   func(t *testing.T) time.Time
	want bool
}

// hoursGroup is an hours rule and the moments tried with it.
type hoursGroup struct {
	name  string
	hours map[string]any
	ats   []hoursAt
}

// hoursGroups lists the hours rules TestRuleEngineHours tries, each with
// moments in and out of its window.
func hoursGroups() []hoursGroup {
	all := []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
	in := func(zone, s string) func(*testing.T) time.Time {
		return func(t *testing.T) time.Time { return rulesLocal(t, s, zone) }
	}
	return []hoursGroup{
		{"Tokyo wed 09:00-17:30", map[string]any{"days": []string{"wed"}, "from": "09:00", "to": "17:30", "timezone": "Asia/Tokyo"}, []hoursAt{
			{"wed 08:59:59", in("Asia/Tokyo", "2026-11-18 08:59:59"), false},
			{"wed 09:00", in("Asia/Tokyo", "2026-11-18 09:00:00"), true}, // 00:00 UTC
			{"wed 12:00", in("Asia/Tokyo", "2026-11-18 12:00:00"), true},
			{"wed 17:29:59", in("Asia/Tokyo", "2026-11-18 17:29:59"), true},
			{"wed 17:30", in("Asia/Tokyo", "2026-11-18 17:30:00"), false},
			{"thu 10:00", in("Asia/Tokyo", "2026-11-19 10:00:00"), false},
			{"tue 10:00", in("Asia/Tokyo", "2026-11-17 10:00:00"), false},
		}},
		{"Los Angeles wed 17:00-23:00", map[string]any{"days": []string{"wed"}, "from": "17:00", "to": "23:00", "timezone": "America/Los_Angeles"}, []hoursAt{
			// Wednesday 20:00 in Los Angeles is Thursday 04:00 UTC.
			{"wed 20:00", in("America/Los_Angeles", "2026-11-18 20:00:00"), true},
			// Thursday 20:00 in Los Angeles is Friday 04:00 UTC, Wednesday
			// 20:00 UTC is Wednesday noon in Los Angeles.
			{"thu 20:00", in("America/Los_Angeles", "2026-11-19 20:00:00"), false},
			{"wed 12:00", in("America/Los_Angeles", "2026-11-18 12:00:00"), false},
		}},
		{"New York thu 22:00-02:00", map[string]any{"days": []string{"thu"}, "from": "22:00", "to": "02:00", "timezone": "America/New_York"}, []hoursAt{
			{"thu 21:59", in("America/New_York", "2026-11-19 21:59:00"), false},
			{"thu 22:00", in("America/New_York", "2026-11-19 22:00:00"), true},
			{"thu 23:59:59", in("America/New_York", "2026-11-19 23:59:59"), true},
			{"fri 00:00", in("America/New_York", "2026-11-20 00:00:00"), true},
			{"fri 01:00", in("America/New_York", "2026-11-20 01:00:00"), true},
			{"fri 01:59:59", in("America/New_York", "2026-11-20 01:59:59"), true},
			{"fri 02:00", in("America/New_York", "2026-11-20 02:00:00"), false},
			{"thu 01:00", in("America/New_York", "2026-11-19 01:00:00"), false}, // wednesday's window
			{"fri 22:30", in("America/New_York", "2026-11-20 22:30:00"), false},
			{"sat 01:00", in("America/New_York", "2026-11-21 01:00:00"), false},
		}},
		{"all days 08:00-20:00 UTC", map[string]any{"days": all, "from": "08:00", "to": "20:00", "timezone": "UTC"}, []hoursAt{
			{"07:59:59", in("UTC", "2026-11-21 07:59:59"), false},
			{"08:00", in("UTC", "2026-11-21 08:00:00"), true},
			{"19:59", in("UTC", "2026-11-22 19:59:00"), true},
			{"20:00", in("UTC", "2026-11-22 20:00:00"), false},
		}},
		// Prague moves from 02:00 CET to 03:00 CEST at 01:00 UTC on
		// 2026-03-29 (a Sunday).
		{"Prague sun 01:00-04:00, spring", map[string]any{"days": []string{"sun"}, "from": "01:00", "to": "04:00", "timezone": "Europe/Prague"}, []hoursAt{
			{"00:59 CET", in("UTC", "2026-03-28 23:59:00"), false},
			{"01:00 CET", in("UTC", "2026-03-29 00:00:00"), true},
			{"01:59 CET", in("UTC", "2026-03-29 00:59:59"), true},
			{"03:00 CEST", in("UTC", "2026-03-29 01:00:00"), true},
			{"03:59 CEST", in("UTC", "2026-03-29 01:59:00"), true},
			{"04:00 CEST", in("UTC", "2026-03-29 02:00:00"), false}, // 03:00 by winter's offset
			{"04:30 CEST", in("UTC", "2026-03-29 02:30:00"), false},
		}},
		// Prague moves from 03:00 CEST back to 02:00 CET at 01:00 UTC on
		// 2026-10-25 (a Sunday).
		{"Prague sun 01:00-04:00, autumn", map[string]any{"days": []string{"sun"}, "from": "01:00", "to": "04:00", "timezone": "Europe/Prague"}, []hoursAt{
			{"00:59 CEST", in("UTC", "2026-10-24 22:59:00"), false},
			{"01:00 CEST", in("UTC", "2026-10-24 23:00:00"), true},
			{"02:30 CEST", in("UTC", "2026-10-25 00:30:00"), true},
			{"02:30 CET", in("UTC", "2026-10-25 01:30:00"), true},
			{"03:59 CET", in("UTC", "2026-10-25 02:59:00"), true}, // 04:59 by summer's offset
			{"04:00 CET", in("UTC", "2026-10-25 03:00:00"), false},
		}},
	}
}

// 7. Posts published outside the hours wait, and are boosted once the
// clock enters the window (the next one when the day is not in it).
func TestRuleEngineHoursEntering(t *testing.T) {
	w := &rulesWorld{newWorld(t)}
	w.deactivate(8)
	const ny = "America/New_York"
	w.save(7, map[string]any{"hours": map[string]any{"days": []string{"thu"}, "from": "22:00", "to": "02:00", "timezone": ny}})
	for _, step := range []struct {
		at      string // New York's wall clock
		publish string // a post published a minute before
		want    string
	}{
		{"2026-11-19 21:00:00", "1", ""},    // thursday, before the window
		{"2026-11-19 21:59:00", "2", ""},    //
		{"2026-11-19 22:00:00", "", "1,2"},  // the window opens
		{"2026-11-20 02:00:00", "3", "1,2"}, // friday: closed at 02:00
		{"2026-11-20 23:00:00", "4", "1,2"}, // friday's 22:00 is no window
		{"2026-11-25 23:00:00", "5", "1,2"}, // wednesday
		{"2026-11-26 01:30:00", "6", "1,2"}, // thursday, wednesday's night
		{"2026-11-26 22:01:00", "", "1,2,3,4,5,6"},
	} {
		now := rulesLocal(t, step.at, ny)
		w.setNow(now)
		if step.publish != "" {
			w.publish(rulesPost{id: step.publish, message: "#gym post", created: now.Add(-time.Minute)})
		}
		w.cycle()
		if got := w.boostedIn(7); got != step.want {
			t.Errorf("at %s New York: boosted %s, want %s\n%s", step.at, got, step.want, w.logs)
		}
	}
}

// 8. max_posts_per_day: at most that many boosts a calendar day of the
// campaign's time zone (hours.timezone, else its ad account's, else UTC),
// both networks together,
// the oldest qualifying posts first; the next day has room again.
// Campaign 10 has page 456 and network_b account 789 (keywords fitness
// and #run, reach ≥ 20 %).
func TestRuleEngineMaxPostsPerDay(t *testing.T) {
	all := []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
	for _, c := range []struct {
		name  string
		rules map[string]any
		zone  string
		// account is the time zone of the campaign's ad account ("": the
		// campaign has none yet).
		account string
		// The cycles' clock, as the zone's wall clock: the first two on
		// one day of the zone (the second on the next day in UTC for New
		// York), the third on the next.
		first, second, third string
	}{
		{"hours.timezone New York", map[string]any{"max_posts_per_day": 2,
			"hours": map[string]any{"days": all, "from": "00:00", "to": "23:59", "timezone": "America/New_York"}},
			"America/New_York", "", "2026-03-05 18:30:00", "2026-03-05 19:30:00", "2026-03-06 00:00:00"},
		{"the ad account's New York", map[string]any{"max_posts_per_day": 2},
			"America/New_York", "America/New_York", "2026-03-05 18:30:00", "2026-03-05 19:30:00", "2026-03-06 00:00:00"},
		{"hours.timezone Tokyo before the ad account's New York", map[string]any{"max_posts_per_day": 2,
			"hours": map[string]any{"days": all, "from": "00:00", "to": "23:59", "timezone": "Asia/Tokyo"}},
			"Asia/Tokyo", "America/New_York", "2026-03-05 08:00:00", "2026-03-05 23:00:00", "2026-03-06 00:00:00"},
		{"UTC", map[string]any{"max_posts_per_day": 2},
			"UTC", "", "2026-03-05 23:00:00", "2026-03-05 23:59:59", "2026-03-06 00:00:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &rulesWorld{newWorldB(t)}
			w.deactivate(9)
			w.save(10, c.rules)
			if c.account != "" {
				w.fake.UpdateUser(userToken, func(u *networkafake.User) {
					u.AdAccounts = []networkafake.AdAccount{{ID: "act_1", Status: 1, Currency: "USD", TimezoneName: c.account}}
				})
				w.stSave(10, map[string]any{"ad_account_id": "act_1"})
			}
			first := rulesLocal(t, c.first, c.zone)
			w.setNow(first)
			// Three qualifying posts: the two oldest (page post 1, media 1)
			// are boosted on the first day.
			w.publish(rulesPost{id: "1", message: "#run at dawn", created: first.Add(-3 * time.Hour), reach: 500})
			w.publishMedia(rulesMedia{n: 1, caption: "fitness in the park", kind: "IMAGE", created: first.Add(-2 * time.Hour), reach: 500})
			w.publish(rulesPost{id: "2", message: "more fitness", created: first.Add(-time.Hour), reach: 500})
			w.publish(rulesPost{id: "3", message: "no keyword here", created: first.Add(-4 * time.Hour), reach: 900})
			w.cycle()
			want := "1," + rulesMediaList(1)
			if got := w.boostedIn(10); got != want {
				t.Fatalf("first cycle at %s: boosted %s, want %s\n%s", c.first, got, want, w.logs)
			}
			// The same day: no room left, on either network.
			second := rulesLocal(t, c.second, c.zone)
			w.setNow(second)
			w.publishMedia(rulesMedia{n: 2, caption: "#run club", kind: "VIDEO", created: second.Add(-time.Minute), reach: 500})
			w.cycle()
			if got := w.boostedIn(10); got != want {
				t.Errorf("second cycle at %s, the same day: boosted %s, want %s\n%s", c.second, got, want, w.logs)
			}
			// The next day: the two oldest of post 2, media 2 and post 4.
			third := rulesLocal(t, c.third, c.zone)
			w.setNow(third)
			w.publish(rulesPost{id: "4", message: "#run again", created: third.Add(-time.Second), reach: 500})
			w.cycle()
			want = "1,2," + rulesMediaList(1, 2)
			if got := w.boostedIn(10); got != want {
				t.Errorf("third cycle at %s, the next day: boosted %s, want %s\n%s", c.third, got, want, w.logs)
			}
			// And no more that day.
			w.setNow(third.Add(12 * time.Hour))
			w.cycle()
			if got := w.boostedIn(10); got != want {
				t.Errorf("fourth cycle, the same day: boosted %s, want %s", got, want)
			}
			// The day after, post 4.
			w.setNow(third.Add(24 * time.Hour))
			w.cycle()
			if got := w.boostedIn(10); got != "1,2,4,"+rulesMediaList(1, 2) {
				t.Errorf("fifth cycle, a day later: boosted %s, want %s", got, "1,2,4,"+rulesMediaList(1, 2))
			}
		})
	}
}
