package boost_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
	"adboost/db/boost"
)

// unfinishedJobs answers, by campaign id, how many of its campaign jobs are
// unfinished (available, pending, running, retryable or scheduled), and how
// many cycle jobs River holds in any state.
func (w *world) unfinishedJobs() (map[string]int, int) {
	w.t.Helper()
	ctx := context.Background()
	rows, err := w.pool.Query(ctx, `
		SELECT args->>'campaign_id', count(*)::int FROM river_job
		WHERE kind = 'adboost_engine_campaign'
		  AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled')
		GROUP BY 1`)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	per := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			w.t.Fatal(err)
		}
		per[id] = n
	}
	if err := rows.Err(); err != nil {
		w.t.Fatal(err)
	}
	var cycles int
	if err := w.pool.QueryRow(ctx, `SELECT count(*)::int FROM river_job WHERE kind = 'adboost_engine_cycle'`).Scan(&cycles); err != nil {
		w.t.Fatal(err)
	}
	return per, cycles
}

// campaign8Ends gives campaign 8 (a lifetime budget) the end date network_a
// requires with one (without it the campaign needs setup).
func (w *world) campaign8Ends() {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(), `UPDATE campaign SET end_date = $1 WHERE id = 8`, w.endDate); err != nil {
		w.t.Fatal(err)
	}
}

// At most one unit of work per campaign is pending or running
// at a time. A cycle enqueued twice before anything runs inserts its jobs
// once; a cycle whose campaigns overrun the interval (network_a answers
// each request after 3 s, the interval is 1 s, the shortest River's unique
// periodic job allows, see TestRunnerSubSecondInterval) piles no second job
// on a campaign while the periodic cycle keeps running; once network_a is
// fast again, the work ends with one ad per qualifying post.
func TestRunnerOneUnfinishedJobPerCampaign(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.campaign8Ends()
	w.post("1", "Morning #gym", time.Hour, 0)    // campaign 7
	w.post("2", "Fitness day", 2*time.Hour, 300) // campaign 8: keyword, reach 300 ≥ 200
	runner, err := w.newRunner(w.engine, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	checkCycleEnqueuedOnce(t, w, runner)

	w.fake.SetDelay(3 * time.Second)
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := runner.Stop(sctx); err != nil {
			t.Errorf("stopping the runner: %v", err)
		}
	}
	defer stop()

	// Well past several intervals, and until the periodic cycle ran at
	// least three times (River elects its leader first). A campaign's work
	// is five to seven requests in a row: over 15 s.
	start := time.Now()
	deadline := start.Add(20 * time.Second)
	polls, maxCycles := watchSlowCycles(t, w, start, deadline)
	checkSlowWorkNotDoubled(t, w, maxCycles)
	t.Logf("%d polls over %v, %d cycle jobs", polls, time.Since(start), maxCycles)

	w.fake.SetDelay(0)
	waitFastWorkDone(t, w, deadline)
	stop()
	if got := w.sortedNames("ad"); got != "adboost-7-1,adboost-8-2" {
		t.Errorf("ads after the stop %q, want one per post", got)
	}
	if got := w.sortedNames("campaign") + " " + w.sortedNames("adset"); got != "adboost-7,adboost-8 adboost-7,adboost-8" {
		t.Errorf("campaigns and ad sets %s", got)
	}
}

// checkCycleEnqueuedOnce enqueues a cycle twice before anything runs and
// checks its jobs are inserted once, one for 7 and one for 8.
func checkCycleEnqueuedOnce(t *testing.T, w *world, r *runner) {
	t.Helper()
	ctx := context.Background()
	if n, err := r.EnqueueCycle(ctx); err != nil || n != 2 {
		t.Fatalf("first EnqueueCycle: %d, %v; want 2", n, err)
	}
	if n, err := r.EnqueueCycle(ctx); err != nil || n != 0 {
		t.Fatalf("second EnqueueCycle before any job ran: %d, %v; want 0", n, err)
	}
	if per, _ := w.unfinishedJobs(); len(per) != 2 || per["7"] != 1 || per["8"] != 1 {
		t.Fatalf("unfinished jobs before the start %v, want one for 7 and one for 8", per)
	}
}

// watchSlowCycles polls the unfinished jobs while network_a is slow, until
// at least 4 s passed and the periodic cycle ran three times, checking no
// campaign has two; it answers the polls and the cycles counted.
func watchSlowCycles(t *testing.T, w *world, start, deadline time.Time) (polls, maxCycles int) {
	t.Helper()
	seen := map[string]bool{}
	for {
		per, cycles := w.unfinishedJobs()
		polls++
		maxCycles = cycles
		for id, n := range per {
			if n > 1 {
				t.Fatalf("after %v: campaign %s has %d unfinished jobs (%v), want at most 1\n%s", time.Since(start), id, n, per, w.logs)
			}
			if id != "7" && id != "8" {
				t.Fatalf("a job for campaign %s, which is not due", id)
			}
			seen[id] = true
		}
		if time.Since(start) >= 4*time.Second && cycles >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the periodic cycle ran %d times in %v, want at least 3\n%s", cycles, time.Since(start), w.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !seen["7"] || !seen["8"] {
		t.Errorf("campaigns with an unfinished job while network_a was slow: %v, want 7 and 8", seen)
	}
	return polls, maxCycles
}

// checkSlowWorkNotDoubled checks each campaign still has its one job of
// before the start and no ad was made while every answer took 3 s.
func checkSlowWorkNotDoubled(t *testing.T, w *world, maxCycles int) {
	t.Helper()
	ctx := context.Background()
	// Each campaign still has its one job of before the start: the slow
	// work was never doubled, it is still going on.
	var total7, total8 int
	if err := w.pool.QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE args->>'campaign_id' = '7')::int, count(*) FILTER (WHERE args->>'campaign_id' = '8')::int
		FROM river_job WHERE kind = 'adboost_engine_campaign'`).Scan(&total7, &total8); err != nil {
		t.Fatal(err)
	}
	if total7 != 1 || total8 != 1 {
		t.Errorf("campaign jobs after %d cycles while the first ones ran: 7 has %d, 8 has %d; want 1 each", maxCycles, total7, total8)
	}
	if got := w.names("ad"); got != "" {
		t.Fatalf("ads %q made while every answer took 3 s: the work did not overrun", got)
	}
}

// waitFastWorkDone waits, once network_a is fast again, for one ad per
// qualifying post and the posts recorded, never two unfinished jobs of a
// campaign.
func waitFastWorkDone(t *testing.T, w *world, deadline time.Time) {
	t.Helper()
	for w.sortedNames("ad") != "adboost-7-1,adboost-8-2" {
		per, _ := w.unfinishedJobs()
		for id, n := range per {
			if n > 1 {
				t.Fatalf("campaign %s has %d unfinished jobs (%v), want at most 1", id, n, per)
			}
		}
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("ads %q, want adboost-7-1,adboost-8-2\n%s", w.sortedNames("ad"), w.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Recorded too: the campaign jobs end once their posts are written.
	for w.ids(w.list(7)) != "1" || w.ids(w.list(8)) != "2" {
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("boosted: 7 %q, 8 %q; want 1 and 2", w.ids(w.list(7)), w.ids(w.list(8)))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const (
	bobToken     = "bob-user-token"
	bobPageToken = "bob-page-789-token"
)

// addBob gives user 101 (Bob) what Ana has: a network_a page 789 with its
// sealed token, his own sealed user token, his own ad account act_5 on the
// fake, and campaign 20 on the page (#run, daily 10.00, POST_ENGAGEMENT).
func (w *world) addBob() {
	w.t.Helper()
	ctx := context.Background()
	w.fake.AddUser(networkafake.User{
		Token: bobToken, ID: "5002", FirstName: "Bob", LastName: "Runner", Email: "bob@example.com",
		Pages:      []networkafake.Page{{ID: "789", Name: "Bob Runs", Token: bobPageToken, Followers: 100}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_5", Status: 1, Currency: "USD"}},
	})
	su, err := w.cipher.Seal(bobToken)
	if err != nil {
		w.t.Fatal(err)
	}
	sp, err := w.cipher.Seal(bobPageToken)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE app_user SET network_a_token = $1, network_a_token_invalid_at = NULL WHERE id = 101`, []any{su}},
		{`INSERT INTO source (user_id, id, platform, name, access_token) VALUES (101, 789, 'network_a', 'Bob Runs', $1)`, []any{sp}},
		{`INSERT INTO campaign (id, user_id, page_id, active, campaign_budget_type, campaign_budget_value, goal, hashtag)
		  VALUES (20, 101, 789, true, 'daily', 10.00, 'POST_ENGAGEMENT', '#run')`, nil},
	} {
		if _, err := w.pool.Exec(ctx, q.sql, q.args...); err != nil {
			w.t.Fatalf("%s: %v", q.sql, err)
		}
	}
}

// bobPost publishes a post on Bob's page 789. Its id (≥ 500) is not one of
// Ana's: a boosted post's id is the part after `_`.
func (w *world) bobPost(id, message string, age time.Duration) {
	w.fake.AddPost("789", networkafake.Post{
		ID: "789_" + id, Message: message, Created: time.Now().Add(-age),
		Permalink: "https://net-a.example/789/posts/" + id, Picture: "https://img.example/" + id + ".jpg",
	})
}

// bobBoosted answers the ids of campaign 20's boosted posts, in id order.
func (w *world) bobBoosted() string {
	w.t.Helper()
	rows, err := w.pool.Query(context.Background(),
		`SELECT post_id FROM boosted_post_campaign WHERE campaign_id = 20 ORDER BY post_id`)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			w.t.Fatal(err)
		}
		ids = append(ids, fmt.Sprint(id))
	}
	if err := rows.Err(); err != nil {
		w.t.Fatal(err)
	}
	return strings.Join(ids, ",")
}

// pauseLeft answers how long the pause of ad account 1 still holds.
func (w *world) pauseLeft() time.Duration {
	w.t.Helper()
	var secs float64
	err := w.pool.QueryRow(context.Background(), `
		SELECT extract(epoch FROM until - now())::float8 FROM network_a_throttle
		WHERE scope = 'ad_account' AND key = '1'`).Scan(&secs)
	if err != nil {
		w.t.Fatalf("the pause of ad account 1: %v (pauses in force %q)", err, w.throttles())
	}
	return time.Duration(secs * float64(time.Second))
}

// objectIDs answers the ids of the fake's objects on an ad account.
func (w *world) objectIDs(account string) []string {
	var ids []string
	for _, o := range w.fake.Objects("") {
		if o.AccountID == account {
			ids = append(ids, o.ID)
		}
	}
	return ids
}

// aboutAccount answers the calls (plain or in a batch) about the ad
// account: on its path, or on one of its objects (ids).
func aboutAccount(calls []networkafake.Call, account string, ids []string) []string {
	var out []string
	for _, c := range calls {
		path, _, _ := strings.Cut(c.Path, "?")
		first := strings.Split(strings.TrimPrefix(path, "/"), "/")[0]
		if first == account || slices.Contains(ids, first) {
			out = append(out, c.Method+" "+c.Path)
		}
	}
	return out
}

// failedUnavailableOnly checks that a cycle failed exactly the campaigns
// want, each as worth retrying (ErrUnavailable).
func failedUnavailableOnly(t *testing.T, err error, what string, want ...int64) {
	t.Helper()
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) {
		t.Fatalf("%s: cycle answered %v, want campaigns %v failed", what, err, want)
	}
	var got []int64
	for id, e := range cycleErr.Failed {
		got = append(got, id)
		if !errors.Is(e, networka.ErrUnavailable) {
			t.Errorf("%s: campaign %d failed with %v, want ErrUnavailable", what, id, e)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: failed campaigns %v, want %v (%v)", what, got, want, err)
	}
}

// A throttled ad account stops the calls on that
// account only; the other users' accounts go on. Ana (act_1) and Bob (act_5)
// each have their own ad account.
func TestEngineThrottledAccountOthersServed(t *testing.T) {
	t.Parallel()

	// network_a answers every call about act_1 with code 80004 and 5
	// minutes to regain access.
	t.Run("code 80004", testThrottledByCode80004)

	// Ad account usage ≥ 90 %: the answer that carries it is used (here the
	// ad's create: Ana's first campaign is boosted), then no call is made on
	// the account for reset_time_duration (120 s).
	t.Run("usage 95 % on the ad's answer", testUsageOnTheAdsAnswer)

	// Usage ≥ 90 % from the first answer about act_1 on: exactly one call
	// on the account (the create of campaign 7's network_a campaign), then
	// none for 120 s.
	t.Run("usage 95 % from the first answer", testUsageFromTheFirstAnswer)
}

// testThrottledByCode80004: act_1 answers code 80004 with 5 minutes to regain
// access; Ana's campaigns wait, Bob's go on, and after the pause Ana's post
// is boosted once.
func testThrottledByCode80004(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.addBob()
	w.campaign8Ends()
	w.post("1", "Morning #gym", time.Hour, 0)    // campaign 7
	w.post("2", "Fitness day", 2*time.Hour, 300) // campaign 8
	w.bobPost("501", "Sunday #run", time.Hour)   // campaign 20
	w.cycle()                                    // Ana's objects on act_1 exist from here on
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(8)) + " " + w.bobBoosted(); got != "1 2 501" {
		t.Fatalf("boosted before the throttle: %s", got)
	}
	anaIDs := w.objectIDs("act_1")
	if len(anaIDs) != 6 { // two campaigns, two ad sets, two ads
		t.Fatalf("Ana's objects on act_1: %v", anaIDs)
	}

	w.fake.ThrottleAccount("act_1", 80004, 5)
	w.post("3", "#gym and fitness", 30*time.Minute, 300) // 7 and 8
	w.bobPost("502", "Track #run", 30*time.Minute)
	failedUnavailableOnly(t, w.engine.Cycle(ctx), "the throttled cycle", 7, 8)
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(8)); got != "1 2" {
		t.Errorf("Ana's boosted posts after the throttled cycle %q, want 1 2 (nothing recorded)", got)
	}
	if n := len(w.boostedEntries(7)) + len(w.boostedEntries(8)); n != 2 {
		t.Errorf("Ana's boosted entries %d, want 2", n)
	}
	if got := w.sortedNames("ad"); got != "adboost-20-501,adboost-20-502,adboost-7-1,adboost-8-2" {
		t.Errorf("ads after the throttled cycle %s", got)
	}
	if got := w.bobBoosted(); got != "501,502" {
		t.Errorf("Bob's boosted posts %q, want 501,502", got)
	}
	if got := w.throttles(); got != "ad_account 1" {
		t.Fatalf("pauses in force %q, want ad_account 1", got)
	}
	if left := w.pauseLeft(); left < 270*time.Second || left > 330*time.Second {
		t.Errorf("the pause of act_1 holds %v more, want ≈ 5 min", left)
	}

	checkCyclesDuringThrottle(t, w, anaIDs)

	// network_a lifts the throttle and the pause ends: Ana's post 3
	// is boosted in both campaigns, once.
	w.fake.ThrottleAccount("act_1", 0, 0)
	w.pauseEnds()
	w.cycle()
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(8)); got != "3,1 3,2" {
		t.Errorf("Ana's boosted posts after the pause %q, want 3,1 3,2 (newest first)", got)
	}
	if got := w.sortedNames("ad"); got != "adboost-20-501,adboost-20-502,adboost-20-503,adboost-20-504,adboost-7-1,adboost-7-3,adboost-8-2,adboost-8-3" {
		t.Errorf("ads after the pause %s", got)
	}
	if got := w.throttles(); got != "" {
		t.Errorf("pauses in force after the pause %q", got)
	}
}

// checkCyclesDuringThrottle runs a cycle of the same engine, then of a new one
// (it learns the pause from PostgreSQL), and checks no call is made on act_1
// or Ana's objects while Bob's go on.
func checkCyclesDuringThrottle(t *testing.T, w *world, anaIDs []string) {
	t.Helper()
	ctx := context.Background()
	// The same engine, then a new one (it learns the pause from
	// PostgreSQL): no call on act_1 or Ana's objects; Bob's go on.
	bobCampaign := w.object("campaign", "adboost-20").ID
	for i, e := range []*boost.Engine{w.engine, w.newEngine()} {
		post := fmt.Sprint(503 + i)
		w.bobPost(post, "Hills #run", 10*time.Minute)
		w.fake.ClearRequests()
		failedUnavailableOnly(t, e.Cycle(ctx), fmt.Sprintf("cycle %d during the pause", i+2), 7, 8)
		calls := w.fake.Calls()
		if got := aboutAccount(calls, "act_1", anaIDs); len(got) != 0 {
			t.Errorf("cycle %d: calls on act_1 during its pause: %v", i+2, got)
		}
		if got := aboutAccount(calls, "act_5", []string{bobCampaign}); !slices.Contains(got, "POST /act_5/ads") ||
			!slices.ContainsFunc(got, func(c string) bool { return strings.HasPrefix(c, "GET /"+bobCampaign+"/insights?") }) {
			t.Errorf("cycle %d: Bob's calls on act_5 %v, want his ad's create and his statistics", i+2, got)
		}
		if got := w.bobBoosted(); !strings.HasSuffix(got, ","+post) {
			t.Errorf("cycle %d: Bob's boosted posts %q, want %s among them", i+2, got, post)
		}
		if got := w.throttles(); got != "ad_account 1" {
			t.Errorf("cycle %d: pauses in force %q", i+2, got)
		}
	}
	if got := w.ids(w.list(7)) + " " + w.ids(w.list(8)); got != "1 2" {
		t.Errorf("Ana's boosted posts during the pause %q, want 1 2", got)
	}
}

// testUsageOnTheAdsAnswer: usage of 95 % on the ad's answer; the ad is used,
// then no call is made on act_1 for 120 s.
func testUsageOnTheAdsAnswer(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.addBob()
	w.post("1", "Morning #gym", time.Hour, 0) // campaign 7 only
	w.bobPost("501", "Sunday #run", time.Hour)
	w.fake.AfterCreate(func(o networkafake.Object) {
		if o.Kind == "adset" && o.AccountID == "act_1" {
			w.fake.SetAccountUsage("act_1", 95, 120)
		}
	})
	w.cycle()
	w.fake.AfterCreate(nil)
	if got := w.ids(w.list(7)) + " " + w.bobBoosted(); got != "1 501" {
		t.Fatalf("boosted %q, want 1 (Ana's campaign 7) and 501 (Bob's)", got)
	}
	if got := w.throttles(); got != "ad_account 1" {
		t.Fatalf("pauses in force %q, want ad_account 1", got)
	}
	if left := w.pauseLeft(); left < 90*time.Second || left > 150*time.Second {
		t.Errorf("the pause of act_1 holds %v more, want ≈ 120 s", left)
	}
	anaIDs := w.objectIDs("act_1")
	w.post("2", "Evening #gym", 30*time.Minute, 0)
	w.bobPost("502", "Track #run", 30*time.Minute)
	w.fake.ClearRequests()
	failedUnavailableOnly(t, w.engine.Cycle(ctx), "cycle during the pause", 7)
	if got := aboutAccount(w.fake.Calls(), "act_1", anaIDs); len(got) != 0 {
		t.Errorf("calls on act_1 during its pause: %v", got)
	}
	if got := w.ids(w.list(7)) + " " + w.bobBoosted(); got != "1 501,502" {
		t.Errorf("boosted during the pause %q, want 1 501,502", got)
	}
}

// testUsageFromTheFirstAnswer: usage of 95 % from the first answer about
// act_1; exactly one call on the account, then none for 120 s.
func testUsageFromTheFirstAnswer(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.addBob()
	w.post("1", "Morning #gym", time.Hour, 0)
	w.bobPost("501", "Sunday #run", time.Hour)
	w.fake.SetAccountUsage("act_1", 95, 120)
	w.fake.ClearRequests()
	failedUnavailableOnly(t, w.engine.Cycle(ctx), "cycle with act_1 at 95 %", 7)
	if got := aboutAccount(w.fake.Calls(), "act_1", nil); !slices.Equal(got, []string{"POST /act_1/campaigns"}) {
		t.Errorf("calls on act_1 %v, want only the campaign's create", got)
	}
	if got := w.namesOf("campaign", "adboost-7") + " " + w.namesOf("adset", "adboost-7"); got != "adboost-7 " {
		t.Errorf("Ana's network_a campaigns and ad sets %q, want campaign adboost-7 and no ad set", got)
	}
	if got := w.throttles(); got != "ad_account 1" {
		t.Fatalf("pauses in force %q, want ad_account 1", got)
	}
	if left := w.pauseLeft(); left < 90*time.Second || left > 150*time.Second {
		t.Errorf("the pause of act_1 holds %v more, want ≈ 120 s", left)
	}
	if got := w.ids(w.list(7)) + " " + w.bobBoosted(); got != " 501" {
		t.Errorf("boosted %q, want nothing of Ana's and Bob's 501", got)
	}
	anaIDs := w.objectIDs("act_1")
	w.fake.ClearRequests()
	failedUnavailableOnly(t, w.newEngine().Cycle(ctx), "a new engine during the pause", 7)
	if got := aboutAccount(w.fake.Calls(), "act_1", anaIDs); len(got) != 0 {
		t.Errorf("calls on act_1 during its pause: %v", got)
	}
	w.fake.SetAccountUsage("act_1", -1, 0)
	w.pauseEnds()
	w.cycle()
	if got := w.ids(w.list(7)) + " " + w.sortedNames("campaign") + " " + w.sortedNames("adset"); got != "1 adboost-20,adboost-7 adboost-20,adboost-7" {
		t.Errorf("after the pause: %s", got)
	}
}

// A runner made with an interval under a second must either refuse it or
// run its cycles: River refuses a unique periodic job whose ByPeriod is
// under a second ("UniqueOpts.ByPeriod should not be less than 1 second",
// logged at every interval), so the runner never enqueued a cycle.
// ENGINE_INTERVAL=500ms is accepted by the configuration.
func TestRunnerSubSecondInterval(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.post("1", "Morning #gym", time.Hour, 0)
	runner, err := w.newRunner(w.engine, 200*time.Millisecond)
	if err != nil {
		return // refused: the operator is told at the start
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		runner.Stop(sctx)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, cycles := w.unfinishedJobs(); cycles >= 2 && w.names("ad") == "adboost-7-1" {
			return
		}
		if time.Now().After(deadline) {
			_, cycles := w.unfinishedJobs()
			t.Fatalf("a runner with a 200 ms interval enqueued %d cycle jobs in 10 s and made ads %q; want it refused or cycles run\n%s",
				cycles, w.names("ad"), w.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
