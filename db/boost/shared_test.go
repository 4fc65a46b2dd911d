package boost_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"adboost/auth/networkafake"
	"adboost/db"
	"adboost/db/boost"
)

// listed answers post id as boosted-posts/list of a campaign shows it.
func (w *world) listed(campaign, id int64) boostedPost {
	w.t.Helper()
	for _, p := range w.list(campaign) {
		if p.ID == id {
			return p
		}
	}
	w.t.Fatalf("post %d is not listed in campaign %d", id, campaign)
	return boostedPost{}
}

// Post 3 is boosted in campaigns 7 and 8. Pausing 8 stops the posts only 8
// boosted (2 and 5), not post 3, whose ad in 7 still runs; pausing 7 too
// stops it. Resuming 8 starts it again.
func TestEnginePauseKeepsPostsOtherCampaignsRun(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	w.cycle()
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/8", map[string]any{"active": false}, &ok)
	w.cycle()
	if c := w.object("campaign", "adboost-8"); c.Status != "PAUSED" {
		t.Fatalf("campaign adboost-8 %s, want PAUSED", c.Status)
	}
	if p := w.listed(7, 3); !p.Active || p.Stopped != 0 {
		t.Errorf("post 3, still boosted by running campaign 7, after 8 paused: %+v", p)
	}
	for _, id := range []int64{2, 5} {
		if p := w.listed(8, id); p.Active || p.Stopped == 0 {
			t.Errorf("post %d, boosted by 8 only, after 8 paused: %+v", id, p)
		}
	}
	if p := w.listed(7, 1); !p.Active || p.Stopped != 0 {
		t.Errorf("post 1 of campaign 7 after 8 paused: %+v", p)
	}

	// Its last campaign pauses: post 3 stops.
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	w.cycle()
	if p := w.listed(7, 3); p.Active || p.Stopped == 0 {
		t.Errorf("post 3 after both its campaigns paused: %+v", p)
	}

	// 8 runs again: post 3 runs again in it.
	w.call(http.MethodPost, "/v1/boosted-pages/save/8", map[string]any{"active": true}, &ok)
	w.cycle()
	if p := w.listed(8, 3); !p.Active || p.Stopped != 0 {
		t.Errorf("post 3 after 8 resumed: %+v", p)
	}
	if p := w.listed(7, 1); p.Active || p.Stopped == 0 {
		t.Errorf("post 1 of paused campaign 7 after 8 resumed: %+v", p)
	}
}

// The statistics of a paused campaign's ads are read for 28 days after its
// pause, whether or not their posts are stopped: post 3's ad in paused
// campaign 7 is read although post 3 still runs in campaign 8.
func TestEngineInsightsWindowFollowsCampaignPause(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	w.cycle()
	ad7, ad8 := w.object("ad", "adboost-7-3").ID, w.object("ad", "adboost-8-3").ID
	w.fake.SetAdInsights(ad7, networkafake.Insights{Impressions: 100, Spend: "1.00"})
	w.fake.SetAdInsights(ad8, networkafake.Insights{Impressions: 100, Spend: "2.00"})
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	w.cycle()
	if p := w.listed(8, 3); !p.Active {
		t.Fatalf("post 3 stopped though campaign 8 runs it: %+v", p)
	}
	spend := func() string {
		var got map[string]any
		w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "3"}, &got)
		return got["spend"].(string)
	}
	if got := spend(); got != "3.00" {
		t.Fatalf("post 3 spend %s, want 3.00", got)
	}
	// The paused campaign's ad still spent before the pause took effect.
	w.fake.SetAdInsights(ad7, networkafake.Insights{Impressions: 150, Spend: "1.50"})
	w.cycle()
	if got := spend(); got != "3.50" {
		t.Errorf("post 3 spend %s after its ad in paused campaign 7 changed, want 3.50", got)
	}
	// 28 days after the pause, 7's ad is read no more; 8's still is.
	if _, err := w.pool.Exec(context.Background(),
		`UPDATE network_a_campaign SET paused_at = now() - interval '29 days' WHERE campaign_id = 7`); err != nil {
		t.Fatal(err)
	}
	w.fake.SetAdInsights(ad7, networkafake.Insights{Impressions: 200, Spend: "9.00"})
	w.fake.SetAdInsights(ad8, networkafake.Insights{Impressions: 200, Spend: "2.50"})
	w.cycle()
	if got := spend(); got != "4.00" {
		t.Errorf("post 3 spend %s 29 days after 7 paused, want 4.00 (7's ad no longer read)", got)
	}
}

// Two campaigns that share post 3 are paused at once, as two engines (or
// two workers) would: the second pause waits for the first's lock of the
// user's posts, then sees campaign 8 paused, so post 3, which no campaign
// runs any more, is stopped. Without the lock each pause saw the other
// campaign still running and post 3 stayed active for good.
func TestEngineConcurrentPausesStopSharedPost(t *testing.T) {
	w := newWorld(t)
	w.publishRulePosts()
	w.cycle()
	ctx := context.Background()
	first, err := w.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	second, err := w.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Release()

	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- boost.InPostsTx(ctx, first, 100, func(q *db.Queries) error {
			if _, err := q.NetworkACampaignPaused(ctx, 8); err != nil {
				return err
			}
			close(holding)
			<-release // the pause of 7 starts while this one is not committed
			return nil
		})
	}()
	<-holding
	secondDone := make(chan error, 1)
	go func() {
		secondDone <- boost.InPostsTx(ctx, second, 100, func(q *db.Queries) error {
			_, err := q.NetworkACampaignPaused(ctx, 7)
			return err
		})
	}()
	time.Sleep(200 * time.Millisecond)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-secondDone; err != nil {
		t.Fatal(err)
	}
	var active bool
	var stopped *time.Time
	if err := w.pool.QueryRow(ctx, `SELECT active, stopped FROM boosted_post WHERE id = 3`).Scan(&active, &stopped); err != nil {
		t.Fatal(err)
	}
	if active || stopped == nil {
		t.Errorf("post 3 after both its campaigns paused at once: active %v, stopped %v", active, stopped)
	}
}
