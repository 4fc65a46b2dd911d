package boost_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
	"adboost/db/boost"
)

// campaignState answers what the database records of campaign 7 on
// network_a: its status and the state of its ad attempt for post.
func (w *world) campaignState(post int64) (status, attempt string) {
	w.t.Helper()
	err := w.pool.QueryRow(context.Background(), `
		SELECT n.status, coalesce((SELECT a.state FROM network_a_attempt AS a
		                           WHERE a.campaign_id = n.campaign_id AND a.kind = 'ad' AND a.post_id = $1), '')
		FROM network_a_campaign AS n WHERE n.campaign_id = 7`, post).Scan(&status, &attempt)
	if err != nil {
		w.t.Fatal(err)
	}
	return status, attempt
}

// failedUnavailable checks that a cycle failed campaign 7 as worth retrying.
func (w *world) failedUnavailable(err error, what string) {
	w.t.Helper()
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) || !errors.Is(cycleErr.Failed[7], networka.ErrUnavailable) {
		w.t.Fatalf("%s: cycle answered %v, want campaign 7 failed with ErrUnavailable", what, err)
	}
}

// pauseEnds ends network_a's pauses: those kept in PostgreSQL, and the
// engine's own (a new engine knows only those PostgreSQL keeps).
func (w *world) pauseEnds() {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(), `UPDATE network_a_throttle SET until = now() - interval '1 second'`); err != nil {
		w.t.Fatal(err)
	}
	w.engine = w.newEngine()
}

// throttles answers the pauses in force, as "scope key" lines.
func (w *world) throttles() string {
	w.t.Helper()
	rows, err := w.pool.Query(context.Background(),
		`SELECT scope || ' ' || key FROM network_a_throttle WHERE until > now() ORDER BY 1`)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// Graph answers a rate limit as HTTP 400 (code 17 here): the pause did not
// happen, so nothing is recorded (the campaign still runs, its post is not
// stopped), no call is made with the user's token for the minute network_a
// asks, and the cycle after that pauses it. The same for a resumption
// refused with is_transient (no rate limit: tried again at once).
func TestEnginePauseRateLimitedIsRetried(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	campaign := w.object("campaign", "adboost-7").ID
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)

	w.fake.FailCalls(http.MethodPost, campaign, 1, networkafake.RateLimited())
	w.failedUnavailable(w.engine.Cycle(context.Background()), "pause rate-limited")
	if got := w.throttles(); got != "user 100" {
		t.Fatalf("pauses in force %q, want the user's", got)
	}
	if e := w.engineState(7); e.State != "pausing" || !strings.Contains(e.Message, "User request limit") {
		t.Errorf("engine state while the pause waits: %+v", e)
	}
	// During the user's pause only the pause itself is sent (it saves the
	// user's money): network_a refuses it again here.
	w.fake.FailCalls(http.MethodPost, campaign, 1, networkafake.RateLimited())
	w.fake.ClearRequests()
	w.failedUnavailable(w.engine.Cycle(context.Background()), "pause while the user's calls wait")
	for _, c := range w.fake.Calls() {
		if c.Token == userToken && c.Path != "/"+campaign {
			t.Errorf("a call with the user's token during the user's pause: %s %s", c.Method, c.Path)
		}
	}
	if c := w.object("campaign", "adboost-7"); c.Status != "ACTIVE" {
		t.Fatalf("network_a campaign %s, the fake should have refused the pause", c.Status)
	}
	if status, _ := w.campaignState(1); status != "ACTIVE" {
		t.Errorf("a rate-limited pause was recorded: status %s", status)
	}
	if p := w.list(7)[0]; !p.Active || p.Stopped != 0 {
		t.Errorf("a rate-limited pause stopped the post: %+v", p)
	}
	if due, err := w.engine.Due(context.Background()); err != nil || len(due) == 0 || due[0] != 7 {
		t.Errorf("campaign 7 not due after a failed pause: %v %v", due, err)
	}

	w.pauseEnds()
	w.cycle()
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Errorf("network_a campaign %s after the rate limit lifted, want PAUSED", c.Status)
	}
	if status, _ := w.campaignState(1); status != "PAUSED" {
		t.Errorf("status %s after the pause, want PAUSED", status)
	}
	if p := w.list(7)[0]; p.Active || p.Stopped == 0 {
		t.Errorf("post after the pause: %+v", p)
	}

	// Resumed: a transient error (is_transient, any code) is retried too.
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": true}, &ok)
	w.fake.FailCalls(http.MethodPost, campaign, 1, networkafake.Error{Code: 999, Transient: true, Message: "try again"})
	w.failedUnavailable(w.engine.Cycle(context.Background()), "resume transient")
	if status, _ := w.campaignState(1); status != "PAUSED" {
		t.Errorf("a failed resumption was recorded: status %s", status)
	}
	if p := w.list(7)[0]; p.Active {
		t.Errorf("a failed resumption started the post: %+v", p)
	}
	w.cycle()
	if c := w.object("campaign", "adboost-7"); c.Status != "ACTIVE" {
		t.Errorf("network_a campaign %s after the resumption, want ACTIVE", c.Status)
	}
	if p := w.list(7)[0]; !p.Active || p.Stopped != 0 {
		t.Errorf("post after the resumption: %+v", p)
	}
}

// A final refusal of the pause (here a permission error) is not a pause
// either: the campaign may still spend on network_a, so the cycle fails it
// and tries again. A campaign network_a no longer has (code 100, subcode
// 33) runs no more: that is recorded as paused.
func TestEnginePauseRefusedOrGone(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	campaign := w.object("campaign", "adboost-7").ID
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)

	w.fake.FailCalls(http.MethodPost, campaign, 1, networkafake.Error{Code: 200, Message: "(#200) Permissions error"})
	err := w.engine.Cycle(context.Background())
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) || cycleErr.Failed[7] == nil {
		t.Fatalf("pause refused: cycle answered %v, want campaign 7 failed", err)
	}
	if status, _ := w.campaignState(1); status != "ACTIVE" {
		t.Errorf("a refused pause was recorded: status %s", status)
	}

	// network_a no longer has the campaign.
	if _, err := w.pool.Exec(context.Background(), `UPDATE network_a_campaign SET campaign_object_id = '999' WHERE campaign_id = 7`); err != nil {
		t.Fatal(err)
	}
	w.cycle()
	if status, _ := w.campaignState(1); status != "PAUSED" {
		t.Errorf("a campaign network_a no longer has: status %s, want PAUSED", status)
	}
	if p := w.list(7)[0]; p.Active || p.Stopped == 0 {
		t.Errorf("post of a campaign network_a no longer has: %+v", p)
	}
}

// An ad create answered with a rate limit or a transient error is made
// again in a later cycle; it is never taken for a refusal of the post. A
// rate limit pauses the calls of its scope (the application for code 4, the
// user for 17, the ad account for 613 and 80000–80014) until network_a's
// time has passed; a passing error pauses nothing.
func TestEngineAdCreateRateLimitedIsRetried(t *testing.T) {
	for name, c := range map[string]struct {
		answer networkafake.Error
		paused string
	}{
		"user limit 17":     {networkafake.RateLimited(), "user 100"},
		"app limit 4":       {networkafake.Error{Code: 4, Message: "(#4) Application request limit reached"}, "app "},
		"page limit 32":     {networkafake.Error{Code: 32, Message: "(#32) Page request limit reached"}, ""},
		"hourly limit 613":  {networkafake.Error{Code: 613, Message: "(#613) Calls within one hour exceeded"}, "ad_account 1"},
		"app limit 341":     {networkafake.Error{Code: 341, Message: "(#341) Application limit reached"}, ""},
		"unknown error 1":   {networkafake.Error{Code: 1, Message: "(#1) An unknown error occurred"}, ""},
		"unavailable 2":     {networkafake.Error{Code: 2, Message: "(#2) Service temporarily unavailable"}, ""},
		"business use case": {networkafake.Error{Code: 80004, Status: http.StatusForbidden, Message: "(#80004) There have been too many calls to this ad-account"}, "ad_account 1"},
		"is_transient":      {networkafake.Error{Code: 100, Transient: true, Message: "(#100) Invalid parameter"}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.post("1", "#gym", time.Hour, 0)
			w.fake.FailCalls(http.MethodPost, "act_1/ads", 1, c.answer)
			w.failedUnavailable(w.engine.Cycle(context.Background()), "ad create "+name)
			if _, attempt := w.campaignState(1); attempt != "pending" {
				t.Fatalf("attempt %q after %s, want pending", attempt, name)
			}
			if got := w.list(7); len(got) != 0 {
				t.Fatalf("recorded without an ad: %v", got)
			}
			if got := w.throttles(); got != c.paused {
				t.Fatalf("pauses in force %q, want %q", got, c.paused)
			}
			if c.paused != "" {
				w.fake.ClearRequests()
				w.failedUnavailable(w.engine.Cycle(context.Background()), "cycle during the pause")
				for _, call := range w.fake.Calls() {
					if strings.HasPrefix(call.Path, "/act_1/") {
						t.Errorf("a call on the ad account during the pause: %s %s", call.Method, call.Path)
					}
				}
				w.pauseEnds()
			}
			w.cycle()
			if got := w.ids(w.list(7)); got != "1" {
				t.Errorf("boosted %q after the retry, want 1", got)
			}
			if got := w.names("ad"); got != "adboost-7-1" {
				t.Errorf("ads %s", got)
			}
		})
	}
}

// The ad's create answer is lost, and the lookup by name that follows fails
// (even with an answer that would be final for a create): the post is not
// given up, the lookup is made again, finds the ad, and nothing is created
// twice.
func TestEngineFindFailureIsRetried(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.interrupted("ad")
	w.landed()

	for _, answer := range []networkafake.Error{
		{Code: 100, Message: "(#100) Filtering field name with operation EQUAL is not supported"},
		networkafake.RateLimited(),
	} {
		w.fake.FailCalls(http.MethodGet, "act_1/ads", 1, answer)
		w.failedUnavailable(w.engine.Cycle(context.Background()), "lookup failing")
		if _, attempt := w.campaignState(1); attempt != "pending" {
			t.Fatalf("attempt %q after the lookup failed with code %d, want pending", attempt, answer.Code)
		}
		w.pauseEnds()
	}
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads %s, want the one ad found by name", got)
	}
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q, want 1", got)
	}
	if got := w.boostedEntries(7); len(got) != 1 {
		t.Errorf("history %v", got)
	}
}

// The ad set's create answer is lost, and the campaign's budget is saved
// before the next cycle finds the ad set by name: what network_a has is not
// what the campaign holds now, so the found ad set is sent every field, the
// new budget included, and nothing more once it has them.
func TestEngineFoundAdSetGetsSavedChanges(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.interrupted("adset")
	w.landed()
	if got := w.object("adset", "adboost-7").Fields["daily_budget"]; fmt.Sprint(got) != "2000" {
		t.Fatalf("ad set created with daily_budget %v, want 2000", got)
	}
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"budget": "35.50", "hashtag": "#gym"}, &ok)

	w.cycle()
	s := w.object("adset", "adboost-7")
	if got := w.names("adset"); got != "adboost-7" {
		t.Fatalf("ad sets %s, want the one found by name", got)
	}
	if fmt.Sprint(s.Fields["daily_budget"]) != "3550" || len(s.Updates) != 1 {
		t.Fatalf("found ad set: daily_budget %v, updates %s; want 3550 in one update", s.Fields["daily_budget"], jsonString(s.Updates))
	}
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q, want 1", got)
	}
	w.cycle()
	if n := len(w.object("adset", "adboost-7").Updates); n != 1 {
		t.Errorf("ad set updated %d times after an unchanged cycle, want 1", n)
	}
}
