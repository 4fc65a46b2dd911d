package boost_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/db"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/dbtest"
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

func TestQualifyingPostsRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	if err := dataset.Load(ctx, pool, strings.NewReader(rulesFile)); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	since := now.Add(-168 * time.Hour)
	type post struct {
		PostID  int64  `json:"post_id"`
		ID      string `json:"id"`
		Message string `json:"message"`
		Created string `json:"created_time"`
	}
	posts := []post{
		{1, "456_1", "Join us #Gym!", ""},
		{2, "456_2", "#gymnastics class today", ""},
		{3, "456_3", "gym day without a tag", ""},
		{4, "456_4", "#GYM", ""},
		{5, "456_5", "x#gym glued", ""},
		{6, "456_6", "#gym but too old", "old"},
		{7, "456_7", "#yoga and Fitness.", ""},
		{8, "456_8", "#yoga fitnessfirst", ""},
		{9, "456_9", "#Yoga, then a #RUN", ""},
		{10, "456_10", "#yoga run!", ""},
		{11, "456_11", "yoga fitness (no tag)", ""},
		{12, "456_12", "#yoga-class (a.b) fitness", ""},
	}
	for i := range posts {
		if posts[i].Created == "old" {
			posts[i].Created = since.Add(-time.Second).Format(time.RFC3339)
		} else {
			posts[i].Created = now.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)
		}
	}
	arg, _ := json.Marshal(posts)
	q := db.New(pool)
	got := func(campaign int64) []int64 {
		rows, err := q.EngineQualifyingPosts(ctx, db.EngineQualifyingPostsParams{CampaignID: campaign, Since: since, Now: time.Now(), Posts: arg})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range rows {
			ids = append(ids, r.PostID)
		}
		slices.Sort(ids)
		return ids
	}
	if ids := got(7); !slices.Equal(ids, []int64{1, 4}) {
		t.Errorf("campaign 7 (#gym, preset without advanced_settings): %v, want [1 4]", ids)
	}
	// #yoga as a whole tag and a keyword (fitness or run) as a whole word or tag.
	if ids := got(8); !slices.Equal(ids, []int64{7, 9, 10, 12}) {
		t.Errorf("campaign 8 (yoga + keywords): %v, want [7 9 10 12]", ids)
	}
	// Reach is read only for campaign 8 (advanced_settings), as R.
	for id, want := range map[int64]int32{7: 0, 8: 20} {
		c, err := q.EngineCampaignLoad(ctx, db.EngineCampaignLoadParams{CampaignID: id, Now: time.Now(), MaxAgeSeconds: 3600})
		if err != nil {
			t.Fatal(err)
		}
		if c.ReachPercent != want || !c.Found || !c.Runs || c.PageID != 456 {
			t.Errorf("campaign %d: reach %d found %v runs %v page %d, want reach %d", id, c.ReachPercent, c.Found, c.Runs, c.PageID, want)
		}
	}
}

func TestReachQualifies(t *testing.T) {
	for _, c := range []struct {
		reach, followers int64
		percent          int32
		want             bool
	}{
		{200, 1000, 20, true},  // exactly 20 %
		{199, 1000, 20, false}, // just under
		{0, 0, 20, true},       // no followers
		{5, 1000, 0, true},
		{1000, 1000, 100, true},
	} {
		if got := boost.ReachQualifies(c.reach, c.followers, c.percent); got != c.want {
			t.Errorf("ReachQualifies(%d, %d, %d) = %v", c.reach, c.followers, c.percent, got)
		}
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
