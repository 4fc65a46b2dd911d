package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth/networkafake"
)

// killPosts is how many posts of page 456 campaign 7 boosts in
// TestEngineKilledMidBatchBoostsOnce.
const killPosts = 12

// killWorld is engineWorld with killPosts matching posts (456_1, the
// newest, to 456_12) and a fake network_a served behind a counter of the
// requests it is handling. It answers the fake, the counter, the database
// and the environment of the binary.
func killWorld(t *testing.T) (*networkafake.Fake, *atomic.Int64, *pgxpool.Pool, map[string]string) {
	t.Helper()
	fake := networkafake.New()
	inflight := &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inflight.Add(1)
		defer inflight.Add(-1)
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	for i := 1; i <= killPosts; i++ {
		fake.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_%d", i), Message: fmt.Sprintf("#gym day %d", i),
			Created: time.Now().Add(-time.Duration(i) * 10 * time.Minute)})
	}
	pool, env := seedEngineWorld(t, fake, srv.URL+"/v25.0")
	return fake, inflight, pool, env
}

// adAttempts answers the states of campaign 7's ad attempts, as
// "state:count" in state order.
func adAttempts(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT state || ':' || count(*) FROM network_a_attempt
		WHERE campaign_id = 7 AND kind = 'ad' GROUP BY state ORDER BY state`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, ",")
}

// No duplicate ads: `adboost engine` is killed (SIGKILL)
// while network_a makes the ads of campaign 7's 12 posts, right after the
// 5th, before any of their answers reached it. The next run makes each
// missing ad and finds the others by name: exactly one ad per post, each
// recorded once. network_a either fails the rest of the batch (the engine
// finds 5 and makes 7) or makes them all (it finds all 12).
func TestEngineKilledMidBatchBoostsOnce(t *testing.T) {
	t.Parallel()
	for _, restFails := range []bool{true, false} {
		name := "rest of the batch made"
		if restFails {
			name = "rest of the batch fails"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			fake, inflight, pool, env := killWorld(t)
			runEngineKilledAtFifthAd(t, fake, inflight, env, restFails)

			wantAfterKill := killPosts
			if restFails {
				wantAfterKill = 5
			}
			checkAfterKill(t, ctx, fake, pool, wantAfterKill)
			checkRunRightAfterKill(t, fake, env)
			checkRunAfterCallTimeout(t, ctx, fake, pool, env, wantAfterKill)
			adID := checkOneAdPerPost(t, fake)
			checkEachBoostRecordedOnce(t, ctx, pool, adID)
		})
	}
}

// runEngineKilledAtFifthAd runs `adboost engine` and kills it (SIGKILL) as
// network_a makes the 5th ad, failing the rest of the batch if restFails;
// it waits until network_a finished the dead engine's batch.
func runEngineKilledAtFifthAd(t *testing.T, fake *networkafake.Fake, inflight *atomic.Int64, env map[string]string, restFails bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "engine")
	cmd.Env = append(os.Environ(), "ADBOOST_TEST_RUN_MAIN=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var child atomic.Pointer[os.Process]
	var ads atomic.Int32
	var killed sync.Once
	killErr := make(chan error, 1)
	fake.AfterCreate(func(o networkafake.Object) {
		if o.Kind != "ad" || ads.Add(1) != 5 {
			return
		}
		killed.Do(func() {
			if restFails {
				fake.FailCalls(http.MethodPost, "act_1/ads", killPosts, networkafake.Transient())
			}
			p := child.Load()
			for ; p == nil; p = child.Load() { // the child asks before Start returned
				time.Sleep(time.Millisecond)
			}
			killErr <- p.Kill()
		})
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child.Store(cmd.Process)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-waited
		t.Fatalf("the engine did not end within 60 s\n%s", stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !exit.Sys().(syscall.WaitStatus).Signaled() ||
		exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the first run ended with %v, want killed by SIGKILL at the 5th ad (ads made: %d)\n%s", err, ads.Load(), stderr.String())
	}
	if err := <-killErr; err != nil {
		t.Fatalf("kill: %v", err)
	}
	// network_a finishes the batch the dead engine sent.
	for deadline := time.Now().Add(10 * time.Second); inflight.Load() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("network_a still handles a request of the killed engine after 10 s")
		}
	}
	fake.AfterCreate(nil)
	fake.FailCalls(http.MethodPost, "act_1/ads", 0, networkafake.Error{})
}

// checkAfterKill checks network_a has wantAfterKill distinct ads and the
// database no boosted post, every ad attempt pending.
func checkAfterKill(t *testing.T, ctx context.Context, fake *networkafake.Fake, pool *pgxpool.Pool, wantAfterKill int) {
	t.Helper()
	made := adNames(fake)
	if len(made) != wantAfterKill || len(slices.Compact(slices.Clone(made))) != wantAfterKill {
		t.Fatalf("ads on network_a after the kill %v, want %d distinct", made, wantAfterKill)
	}
	var boosted int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM boosted_post_campaign WHERE campaign_id = 7`).Scan(&boosted); err != nil {
		t.Fatal(err)
	}
	if got := adAttempts(t, pool); boosted != 0 || got != fmt.Sprintf("pending:%d", killPosts) {
		t.Fatalf("after the kill: %d posts recorded, ad attempts %s; want 0 and pending:%d", boosted, got, killPosts)
	}
}

// checkRunRightAfterKill checks a run right after the kill, while its creates
// may still be on their way, makes none of them again and says so.
func checkRunRightAfterKill(t *testing.T, fake *networkafake.Fake, env map[string]string) {
	t.Helper()
	// Right after the kill, its creates may still be on their way:
	// a run at once makes none of them again and says so.
	fake.ClearRequests()
	if code, out := runBinary(t, env, "engine"); code != 1 || !strings.Contains(out, "may still be on its way") {
		t.Fatalf("a run right after the kill: exit %d, want 1 naming the creates on their way\n%s", code, out)
	}
	for _, c := range fake.Calls() {
		if strings.HasPrefix(c.Path, "/act_1/ads") {
			t.Fatalf("an ad asked again while its create may be on its way: %s %s", c.Method, c.Path)
		}
	}
}

// checkRunAfterCallTimeout moves the sent creates past the call time-out and
// checks the next run makes each missing ad and looks every ad up by name.
func checkRunAfterCallTimeout(t *testing.T, ctx context.Context, fake *networkafake.Fake, pool *pgxpool.Pool, env map[string]string, wantAfterKill int) {
	t.Helper()
	// The call time-out later: they landed, or never will.
	if _, err := pool.Exec(ctx, `UPDATE network_a_attempt SET sent_at = now() - interval '1 hour' WHERE sent_at IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	fake.ClearRequests()
	code, out := runBinary(t, env, "engine")
	if code != 0 {
		t.Fatalf("the second run: exit %d\n%s", code, out)
	}
	var creates, lookups int
	for _, c := range fake.Calls() {
		switch {
		case c.Method == http.MethodPost && c.Path == "/act_1/ads":
			creates++
		case c.Method == http.MethodGet && strings.HasPrefix(c.Path, "/act_1/ads?"):
			lookups++
		}
	}
	if creates != killPosts-wantAfterKill || lookups != killPosts {
		t.Errorf("the second run created %d ads and looked %d up by name; want %d and %d",
			creates, lookups, killPosts-wantAfterKill, killPosts)
	}
}

// checkOneAdPerPost checks network_a has one ad per post, one campaign and
// one ad set; it answers the ads' ids by name.
func checkOneAdPerPost(t *testing.T, fake *networkafake.Fake) map[string]string {
	t.Helper()
	var want []string
	for i := 1; i <= killPosts; i++ {
		want = append(want, fmt.Sprintf("adboost-7-%d", i))
	}
	slices.Sort(want)
	if got := adNames(fake); !slices.Equal(got, want) {
		t.Fatalf("ads on network_a %v, want %v", got, want)
	}
	adID := map[string]string{}
	for _, o := range fake.Objects("ad") {
		adID[o.Name] = o.ID
	}
	if n := len(fake.Objects("campaign")) + len(fake.Objects("adset")); n != 2 {
		t.Errorf("%d campaigns and ad sets on network_a, want 1 + 1", n)
	}
	return adID
}

// checkEachBoostRecordedOnce checks each boost is recorded once: 12 boosted
// posts of campaign 7, 12 `boosted` entries with the post's ad, every ad
// attempt done with that ad.
func checkEachBoostRecordedOnce(t *testing.T, ctx context.Context, pool *pgxpool.Pool, adID map[string]string) {
	t.Helper()
	var posts, linked int
	if err := pool.QueryRow(ctx, `
		SELECT count(DISTINCT p.id), count(*) FROM boosted_post AS p
		JOIN boosted_post_campaign AS l ON l.post_id = p.id AND l.user_id = p.user_id
		WHERE l.campaign_id = 7 AND p.user_id = 100 AND p.source_id = 456 AND p.id BETWEEN 1 AND $1`, killPosts).Scan(&posts, &linked); err != nil {
		t.Fatal(err)
	}
	if posts != killPosts || linked != killPosts {
		t.Errorf("boosted posts of campaign 7: %d (%d links), want %d", posts, linked, killPosts)
	}
	var all int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM boosted_post`).Scan(&all); err != nil {
		t.Fatal(err)
	}
	if all != killPosts {
		t.Errorf("%d boosted posts in all, want %d", all, killPosts)
	}
	rows, err := pool.Query(ctx, `
		SELECT h.details->>'post_id', h.details->>'ad_id', coalesce(a.state, ''), coalesce(a.object_id, '')
		FROM campaign_history AS h
		LEFT JOIN network_a_attempt AS a
		  ON a.campaign_id = 7 AND a.kind = 'ad' AND a.post_id = (h.details->>'post_id')::bigint
		WHERE h.campaign_id = 7 AND h.action = 'boosted'
		ORDER BY (h.details->>'post_id')::bigint`)
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for rows.Next() {
		var post, ad, state, object string
		if err := rows.Scan(&post, &ad, &state, &object); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, post)
		if name := "adboost-7-" + post; ad != adID[name] || state != "done" || object != adID[name] {
			t.Errorf("post %s: history names ad %q, attempt %s with %q; network_a's ad %s is %q",
				post, ad, state, object, name, adID[name])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(entries, ","), "1,2,3,4,5,6,7,8,9,10,11,12"; got != want {
		t.Errorf("boosted entries of campaign 7 for posts %s, want %s", got, want)
	}
	if got := adAttempts(t, pool); got != fmt.Sprintf("done:%d", killPosts) {
		t.Errorf("ad attempts %s, want done:%d", got, killPosts)
	}
}
