package boost_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/db"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	"adboost/db/rules"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// rulesFile: campaign 7 boosts #gym posts (its preset has no
// advanced_settings, so the preset's keywords do not apply); campaign 8
// (hashtag "yoga", without `#`) has a preset with advanced_settings and the
// keywords fitness and #run.
const rulesFile = `{
  "agencies": [{"id": 10, "username": "northwind"}],
  "users": [{"id": 100, "email": "ana@example.com"}],
  "presets": [
    {"id": 1, "title": "Plain", "campaign_objective": "OUTCOME_ENGAGEMENT", "price": "1.00", "original_price": "1.00",
     "agency_id": 10, "allowed_options": ["location"], "boosting_condition": {"keywords": ["nothing"], "reach": 90}},
    {"id": 2, "title": "Advanced", "campaign_objective": "OUTCOME_ENGAGEMENT", "price": "1.00", "original_price": "1.00",
     "agency_id": 10, "allowed_options": ["advanced_settings"], "boosting_condition": {"keywords": ["fitness", "#run"], "reach": 20}}
  ],
  "sources": [{"id": 456, "user_id": 100, "platform": "network_a", "name": "Gym"}],
  "boosted_pages": [
    {"id": 7, "user_id": 100, "page_id": 456, "preset_id": 1, "campaign_budget_value": "20.00", "hashtag": "#gym"},
    {"id": 8, "user_id": 100, "page_id": 456, "preset_id": 2, "campaign_budget_value": "20.00", "hashtag": "yoga"}
  ]
}`

// The campaign's load answers what the rules of its posts need: its
// hashtag and goal, and the keywords and reach R of its preset only when
// the preset allows advanced_settings. (What the posts must be is
// rules.Conditions', tested in package rules.)
func TestCampaignLoadConditions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	if err := dataset.Load(ctx, pool, strings.NewReader(rulesFile)); err != nil {
		t.Fatal(err)
	}
	q := db.New(pool)
	for _, want := range []struct {
		id       int64
		reach    int32
		hashtag  string
		keywords []string
	}{{7, 0, "#gym", []string{}}, {8, 20, "yoga", []string{"fitness", "#run"}}} {
		c, err := q.EngineCampaignLoad(ctx, db.EngineCampaignLoadParams{CampaignID: want.id, Now: time.Now(), MaxAgeSeconds: 3600})
		if err != nil {
			t.Fatal(err)
		}
		if c.ReachPercent != want.reach || !c.Found || !c.Runs || c.PageID != 456 {
			t.Errorf("campaign %d: reach %d found %v runs %v page %d, want reach %d", want.id, c.ReachPercent, c.Found, c.Runs, c.PageID, want.reach)
		}
		if c.Hashtag != want.hashtag || !slices.Equal(c.Keywords, want.keywords) || c.Goal != "POST_ENGAGEMENT" {
			t.Errorf("campaign %d: hashtag %q, keywords %q, goal %q; want %q, %q, POST_ENGAGEMENT",
				want.id, c.Hashtag, c.Keywords, c.Goal, want.hashtag, want.keywords)
		}
	}
	// The window of the posts read and compared (since) is the rules'
	// (rules.Conditions.Since), with and without post_age_max_hours.
	if _, err := pool.Exec(ctx, `UPDATE campaign SET rules = '{"post_age_max_hours": 2}' WHERE id = 8`); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, maxAge := range []time.Duration{time.Hour, 2 * time.Hour, 2*time.Hour + 30*time.Minute, 3 * time.Hour, 168 * time.Hour} {
		for _, id := range []int64{7, 8} {
			c, err := q.EngineCampaignLoad(ctx, db.EngineCampaignLoadParams{CampaignID: id, Now: now, MaxAgeSeconds: maxAge.Seconds()})
			if err != nil {
				t.Fatal(err)
			}
			cond := rules.Conditions{MaxAge: maxAge}
			if err := json.Unmarshal(c.Rules, &cond.Rules); err != nil {
				t.Fatal(err)
			}
			if want := cond.Since(now); !c.Since.Equal(want) {
				t.Errorf("campaign %d, ENGINE_POST_MAX_AGE %s: since %s, the rules' %s", id, maxAge, c.Since, want)
			}
		}
	}
}

// EngineNewPosts keeps of the qualifying posts those the campaign did not
// boost nor attempt yet, and gives each new network_b media of the user one
// id, the same in every campaign and statement.
func TestEngineNewPosts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	file := strings.Replace(rulesFile, `"boosted_pages"`, `"boosted_posts": [{"id": 21, "boosted_page_ids": [7], "created": 1767225600}],
  "boosted_pages"`, 1)
	if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	q := db.New(pool)
	err := q.NetworkACampaignStart(ctx, db.NetworkACampaignStartParams{CampaignID: 7, AdAccountID: "act_1", Currency: "USD", Name: "Ana", Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = q.NetworkAAttemptBeginAds(ctx, db.NetworkAAttemptBeginAdsParams{CampaignID: 7, Kind: "ad",
		Posts: json.RawMessage(`[{"post_id": 22, "name": "adboost-7-22", "post": {"id": "456_22"}}]`), InFlightSeconds: 60, BoostedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	fresh := func(campaign int64, posts []int64, media []string) map[string]int64 {
		t.Helper()
		rows, err := q.EngineNewPosts(ctx, db.EngineNewPostsParams{CampaignID: campaign, PostIds: posts, MediaIds: media})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, r := range rows {
			key := "a" + strconv.FormatInt(r.PostID, 10)
			if r.MediaID != "" {
				key = "b" + r.MediaID
			}
			out[key] = r.PostID
		}
		return out
	}
	got := fresh(7, []int64{21, 22, 23}, []string{"17890000000000001", "17890000000000002"})
	b1, b2 := got["b17890000000000001"], got["b17890000000000002"]
	if len(got) != 3 || got["a23"] != 23 || b1 < 1<<52 || b2 < 1<<52 || b1 == b2 {
		t.Fatalf("campaign 7: %v, want post 23 and both media with new ids", got)
	}
	// In campaign 8 posts 21 and 22 are new; the media keep their ids.
	got = fresh(8, []int64{21, 22}, []string{"17890000000000002", "17890000000000001"})
	if want := map[string]int64{"a21": 21, "a22": 22, "b17890000000000001": b1, "b17890000000000002": b2}; !maps.Equal(got, want) {
		t.Errorf("campaign 8: %v, want %v", got, want)
	}
	if got := fresh(7, nil, nil); len(got) != 0 {
		t.Errorf("no posts: %v", got)
	}
	if got := fresh(999, []int64{23}, []string{"17890000000000003"}); len(got) != 0 {
		t.Errorf("a campaign that does not exist: %v", got)
	}
}

func TestPostID(t *testing.T) {
	for in, want := range map[string]int64{"456_9001": 9001, "9001": 0, "456_x": 0, "456_0": 0, "456_-3": 0} {
		got, ok := boost.PostID(in)
		if got != want && ok || ok != (want > 0) {
			t.Errorf("PostID(%q) = %d, %v", in, got, ok)
		}
	}
}
