package networka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// pauses records what a client reports to OnThrottle.
type pauses struct {
	mu   sync.Mutex
	list []Throttle
}

func (p *pauses) add(th Throttle) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, th)
}

func (p *pauses) get() []Throttle {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Throttle(nil), p.list...)
}

// expectPause fails unless got is exactly one pause of the scope and key
// ending wait after a time between before and after.
func expectPause(t *testing.T, got []Throttle, scope ScopeKind, key string, wait time.Duration, before, after time.Time) Throttle {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("pauses reported %+v, want one of %s %q", got, scope, key)
	}
	th := got[0]
	if th.Scope != scope || th.Key != key || th.Until.Before(before.Add(wait)) || th.Until.After(after.Add(wait)) {
		t.Fatalf("pause %+v, want %s %q until now+%v (%s..%s)", th, scope, key, wait,
			before.Add(wait).Format(time.RFC3339Nano), after.Add(wait).Format(time.RFC3339Nano))
	}
	return th
}

// expectThrottled fails unless err is a call refused before it was sent for
// the pause th.
func expectThrottled(t *testing.T, what string, err error, th Throttle) {
	t.Helper()
	var te *ThrottledError
	if !errors.As(err, &te) || te.Scope != th.Scope || te.Key != th.Key || !te.Until.Equal(th.Until) ||
		!errors.Is(err, ErrUnavailable) || !Temporary(err) {
		t.Fatalf("%s = %v, want refused for the pause %+v", what, err, th)
	}
}

// sent answers how many calls the fake has handled.
func sent(fake *networkafake.Fake) int {
	_, calls := fake.Counts()
	return calls
}

// s1, s2 and s3 are the scopes of ad-account calls of user 1 on act_1 and
// act_2, and of user 2 on act_3.
var (
	s1 = Scope{User: "1", AdAccount: "act_1"}
	s2 = Scope{User: "1", AdAccount: "act_2"}
	s3 = Scope{User: "2", AdAccount: "act_3"}
)

// TestUsageHeaderPausesAdAccount: acc_id_util_pct at 90 or more (decimals
// too) pauses the ad account for reset_time_duration, at least 60 s; below
// 90 nothing is paused; other ad accounts go on.
func TestUsageHeaderPausesAdAccount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pct   float64
		reset int
		wait  time.Duration // 0: no pause
	}{
		{90, 300, 300 * time.Second},
		{90.5, 120, 120 * time.Second},
		{100, 3600, time.Hour},
		{95, 0, MinThrottle},
		{99, 30, MinThrottle},
		{89.99, 300, 0},
		{0, 300, 0},
	} {
		t.Run(fmt.Sprintf("%v_%d", c.pct, c.reset), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.SetAccountUsage("act_1", c.pct, c.reset)
			var p pauses
			client := newClient(t, base, Options{OnThrottle: p.add})
			ctx := context.Background()
			before := time.Now()
			if _, _, err := client.Find(ctx, tokenA, "campaign", "adboost-7", s1); err != nil {
				t.Fatalf("the call that reads the usage = %v", err)
			}
			after := time.Now()
			n := sent(fake)
			_, _, err := client.Find(ctx, tokenA, "campaign", "adboost-7", s1)
			if c.wait == 0 {
				if err != nil || len(p.get()) != 0 || sent(fake) != n+1 {
					t.Fatalf("usage %v%%: %v, pauses %+v, %d calls", c.pct, err, p.get(), sent(fake)-n)
				}
				return
			}
			th := expectPause(t, p.get(), ScopeAdAccount, "1", c.wait, before, after)
			expectThrottled(t, "a call on act_1", err, th)
			if sent(fake) != n {
				t.Fatal("a call on the paused ad account was sent")
			}
			if _, _, err := client.Find(ctx, tokenA, "campaign", "adboost-7", s2); err != nil || sent(fake) != n+1 {
				t.Fatalf("a call on act_2 = %v", err)
			}
			if _, err := client.Me(ctx, tokenA); err != nil {
				t.Fatalf("Me = %v", err)
			}
		})
	}
}

// TestUsageHeaderInBatchEntry: the usage headers of a batch entry pause its
// own ad account only.
func TestUsageHeaderInBatchEntry(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.SetAccountUsage("act_1", 92.5, 600)
	var p pauses
	c, _, release, blocker := held(t, base, Options{OnThrottle: p.add})
	var err1, err2 error
	before := time.Now()
	done := []<-chan struct{}{
		enqueue(t, 1, func(ctx context.Context) { _, _, err1 = c.Find(ctx, tokenA, "campaign", "x", s1) }),
		enqueue(t, 1, func(ctx context.Context) { _, _, err2 = c.Find(ctx, tokenA, "campaign", "x", s2) }),
	}
	release()
	for _, d := range done {
		await(t, d, "the callers")
	}
	after := time.Now()
	if err := <-blocker; err != nil || err1 != nil || err2 != nil {
		t.Fatalf("calls = %v, %v, %v", err, err1, err2)
	}
	if reqs := fake.Requests(); len(reqs) != 2 || len(parseBatchBody(t, reqs[1]).Batch) != 2 {
		t.Fatalf("requests = %+v, want the held one and one batch", reqs)
	}
	th := expectPause(t, p.get(), ScopeAdAccount, "1", 600*time.Second, before, after)
	_, _, err := c.Find(context.Background(), tokenA, "campaign", "x", s1)
	expectThrottled(t, "a call on act_1", err, th)
	_, errs := c.CreateMany(context.Background(), tokenA, "campaign", []map[string]any{{"name": "a"}, {"name": "b"}}, s1)
	for _, err := range errs {
		expectThrottled(t, "a create on act_1", err, th)
	}
	if _, _, err := c.Find(context.Background(), tokenA, "campaign", "x", s2); err != nil {
		t.Fatalf("a call on act_2 = %v", err)
	}
	if n := sent(fake); n != 4 {
		t.Fatalf("%d calls, want 4 (none on the paused account)", n)
	}
}

// TestRegainPausesAdAccount: an ad-account rate limit (80004) with
// estimated_time_to_regain_access 5 pauses that ad account 5 minutes; calls
// on another ad account still go out.
func TestRegainPausesAdAccount(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.ThrottleAccount("act_1", 80004, 5)
			var p pauses
			c := newClient(t, base, Options{OnThrottle: p.add, Batch: batch})
			ctx := context.Background()
			before := time.Now()
			_, _, err := c.Find(ctx, tokenA, "ad", "adboost-7-1", s1)
			after := time.Now()
			var e *Error
			if !errors.As(err, &e) || e.Code != 80004 || e.Subcode != 2446079 || !Temporary(err) || !errors.Is(err, ErrUnavailable) {
				t.Fatalf("the throttled call = %v", err)
			}
			th := expectPause(t, p.get(), ScopeAdAccount, "1", 5*time.Minute, before, after)
			n := sent(fake)
			_, _, err = c.Find(ctx, tokenA, "ad", "adboost-7-1", s1)
			expectThrottled(t, "Find on act_1", err, th)
			_, errs := c.FindMany(ctx, tokenA, "ad", []string{"a", "b"}, s1)
			for _, err := range errs {
				expectThrottled(t, "FindMany on act_1", err, th)
			}
			_, _, err = c.AdInsights(ctx, tokenA, "120200000000000001", "offsite_conversion.fb_pixel_purchase", Scope{User: "1", AdAccount: "1"})
			expectThrottled(t, "AdInsights of act_1 (written without act_)", err, th)
			if sent(fake) != n {
				t.Fatal("a call on the paused ad account was sent")
			}
			if _, _, err := c.Find(ctx, tokenA, "ad", "adboost-7-1", s2); err != nil {
				t.Fatalf("Find on act_2 = %v", err)
			}
			if _, _, err := c.Find(ctx, tokenB, "ad", "adboost-7-1", s3); err != nil {
				t.Fatalf("Find on act_3 = %v", err)
			}
			if sent(fake) != n+2 {
				t.Fatalf("%d calls on other accounts, want 2", sent(fake)-n)
			}
			if len(p.get()) != 1 {
				t.Fatalf("pauses %+v", p.get())
			}
		})
	}
}

// TestBusinessUseCaseKeys: X-Business-Use-Case-Usage names the ad account
// with or without act_; either way the regain time is that account's.
func TestBusinessUseCaseKeys(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"act_1", "1"} {
		for _, scoped := range []string{"act_1", "1"} {
			t.Run(key+"_"+scoped, func(t *testing.T) {
				t.Parallel()
				fake, base := startWorld(t)
				fake.FailCalls("GET", "act_1/campaigns", 1, networkafake.Error{Code: 80000, Message: "too many calls",
					Headers: map[string]string{"X-Business-Use-Case-Usage": `{"` + key + `":[{"type":"ads_management","call_count":100,"total_cputime":20,"total_time":20,"estimated_time_to_regain_access":7}],` +
						`"2":[{"type":"ads_management","call_count":10,"total_cputime":1,"total_time":1,"estimated_time_to_regain_access":3}]}`}})
				var p pauses
				c := newClient(t, base, Options{OnThrottle: p.add})
				before := time.Now()
				_, _, err := c.Find(context.Background(), tokenA, "campaign", "x", s1)
				after := time.Now()
				if !Temporary(err) {
					t.Fatalf("Find = %v", err)
				}
				th := expectPause(t, p.get(), ScopeAdAccount, "1", 7*time.Minute, before, after)
				_, _, err = c.Find(context.Background(), tokenA, "campaign", "x", Scope{User: "1", AdAccount: scoped})
				expectThrottled(t, "a call on "+scoped, err, th)
			})
		}
	}
}

// TestCodeScopes: each rate-limit code pauses its scope for at
// least a minute: 4 the application, 17 the user, 32, 80001 and 80002 the
// page, 613, 80000 and 80003–80014 the ad account; calls in the paused
// scope are refused before they are sent, the others go out.
func TestCodeScopes(t *testing.T) {
	t.Parallel()
	type call struct {
		name string
		do   func(c *Client) error
	}
	var (
		meC       = call{"Me of user 3", func(c *Client) error { _, err := c.Me(context.Background(), tokenC); return err }}
		findAct1  = call{"Find on act_1", func(c *Client) error { _, _, err := c.Find(context.Background(), tokenA, "ad", "x", s1); return err }}
		findAct2  = call{"Find on act_2", func(c *Client) error { _, _, err := c.Find(context.Background(), tokenA, "ad", "x", s2); return err }}
		findAct3  = call{"Find on act_3 by user 2", func(c *Client) error { _, _, err := c.Find(context.Background(), tokenB, "ad", "x", s3); return err }}
		followers = func(page string, token string) call {
			return call{"Followers of " + page, func(c *Client) error {
				_, err := c.Followers(context.Background(), token, page, Scope{User: "1", Page: page})
				return err
			}}
		}
		posts11 = call{"Posts of 11", func(c *Client) error {
			_, _, err := c.Posts(context.Background(), page11, "11", time.Now().Add(-time.Hour), 10, Scope{User: "1", Page: "11"})
			return err
		}}
	)
	for _, c := range []struct {
		code       int
		path       string // of the first call, which fails with the code
		first      call
		scope      ScopeKind
		key        string
		stopped    []call
		goesThough []call
	}{
		{4, "act_1/ads", findAct1, ScopeApp, "", []call{meC, findAct2, findAct3, followers("12", page12)}, nil},
		{17, "act_1/ads", findAct1, ScopeUser, "1", []call{findAct2, followers("12", page12)}, []call{meC, findAct3}},
		{32, "11/posts", posts11, ScopePage, "11", []call{followers("11", page11)}, []call{followers("12", page12), findAct1, meC}},
		{80001, "11/posts", posts11, ScopePage, "11", []call{followers("11", page11)}, []call{followers("12", page12), findAct1}},
		{80002, "11/posts", posts11, ScopePage, "11", []call{followers("11", page11)}, []call{followers("12", page12), findAct1}},
		{613, "act_1/ads", findAct1, ScopeAdAccount, "1", []call{findAct1}, []call{findAct2, findAct3, meC, followers("11", page11)}},
		{80000, "act_1/ads", findAct1, ScopeAdAccount, "1", []call{findAct1}, []call{findAct2, findAct3}},
		{80003, "act_1/ads", findAct1, ScopeAdAccount, "1", []call{findAct1}, []call{findAct2, findAct3}},
		{80014, "act_1/ads", findAct1, ScopeAdAccount, "1", []call{findAct1}, []call{findAct2, findAct3}},
	} {
		t.Run(fmt.Sprint(c.code), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("GET", c.path, 1, networkafake.Error{Code: c.code, Message: fmt.Sprintf("(#%d) limit reached", c.code)})
			var p pauses
			client := newClient(t, base, Options{OnThrottle: p.add})
			before := time.Now()
			err := c.first.do(client)
			after := time.Now()
			var e *Error
			if !errors.As(err, &e) || e.Code != c.code || !Temporary(err) || !errors.Is(err, ErrUnavailable) {
				t.Fatalf("%s = %v, want code %d", c.first.name, err, c.code)
			}
			th := expectPause(t, p.get(), c.scope, c.key, MinThrottle, before, after)
			n := sent(fake)
			for _, s := range c.stopped {
				expectThrottled(t, s.name, s.do(client), th)
			}
			if sent(fake) != n {
				t.Fatalf("%d calls in the paused scope were sent", sent(fake)-n)
			}
			for _, g := range c.goesThough {
				if err := g.do(client); err != nil {
					t.Fatalf("%s = %v, want it sent and answered", g.name, err)
				}
			}
			if sent(fake) != n+len(c.goesThough) {
				t.Fatalf("%d calls outside the paused scope were sent, want %d", sent(fake)-n, len(c.goesThough))
			}
		})
	}
}

// TestWaitZeroIsFloor: a wait of 0 (estimated_time_to_regain_access or
// reset_time_duration) is no wait, so the 60 s floor.
func TestWaitZeroIsFloor(t *testing.T) {
	t.Parallel()
	for name, setup := range map[string]func(f *networkafake.Fake){
		"regain 0": func(f *networkafake.Fake) { f.ThrottleAccount("act_1", 80004, 0) },
		"613 with reset 0": func(f *networkafake.Fake) {
			f.FailCalls("GET", "act_1/ads", 1, networkafake.Error{Code: 613, Message: "(#613) Calls to this api have exceeded the rate limit.",
				Headers: map[string]string{"X-Ad-Account-Usage": `{"acc_id_util_pct":100,"reset_time_duration":0}`}})
		},
		"usage reset 0": func(f *networkafake.Fake) { f.SetAccountUsage("act_1", 100, 0) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			setup(fake)
			var p pauses
			c := newClient(t, base, Options{OnThrottle: p.add})
			before := time.Now()
			c.Find(context.Background(), tokenA, "ad", "x", s1)
			after := time.Now()
			th := expectPause(t, p.get(), ScopeAdAccount, "1", MinThrottle, before, after)
			_, _, err := c.Find(context.Background(), tokenA, "ad", "x", s1)
			expectThrottled(t, "a call on act_1", err, th)
		})
	}
}

// TestThrottlesLoad: pauses learnt elsewhere stop calls in their scopes (an
// ad account with or without act_); a later end wins; Load reports nothing
// to OnThrottle.
func TestThrottlesLoad(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	var p pauses
	c := newClient(t, base, Options{OnThrottle: p.add, Batch: true})
	ctx := context.Background()
	hour := time.Now().Add(time.Hour).Round(0)
	c.Throttles().Load([]Throttle{
		{Scope: ScopeAdAccount, Key: "act_1", Until: hour},
		{Scope: ScopeAdAccount, Key: "2", Until: hour},
		{Scope: ScopeUser, Key: "2", Until: hour},
		{Scope: ScopePage, Key: "12", Until: hour},
	})
	_, _, err := c.Find(ctx, tokenA, "ad", "x", s1)
	expectThrottled(t, "act_1", err, Throttle{ScopeAdAccount, "1", hour})
	_, _, err = c.Find(ctx, tokenA, "ad", "x", Scope{AdAccount: "1"})
	expectThrottled(t, "1", err, Throttle{ScopeAdAccount, "1", hour})
	_, _, err = c.Find(ctx, tokenA, "ad", "x", s2)
	expectThrottled(t, "act_2", err, Throttle{ScopeAdAccount, "2", hour})
	_, _, err = c.Find(ctx, tokenB, "ad", "x", s3)
	expectThrottled(t, "user 2", err, Throttle{ScopeUser, "2", hour})
	_, err = c.Followers(ctx, page12, "12", Scope{User: "1", Page: "12"})
	expectThrottled(t, "page 12", err, Throttle{ScopePage, "12", hour})
	_, errs := c.PostReaches(ctx, page12, []string{"12_1", "12_2"}, Scope{Page: "12"})
	for _, err := range errs {
		expectThrottled(t, "reaches of page 12", err, Throttle{ScopePage, "12", hour})
	}
	if n := sent(fake); n != 0 {
		t.Fatalf("%d calls sent in paused scopes", n)
	}
	if f, err := c.Followers(ctx, page11, "11", Scope{User: "1", Page: "11"}); err != nil || f != 1200 {
		t.Fatalf("Followers of page 11 = %d, %v", f, err)
	}

	c.Throttles().Load([]Throttle{{Scope: ScopeAdAccount, Key: "1", Until: hour.Add(-50 * time.Minute)}})
	_, _, err = c.Find(ctx, tokenA, "ad", "x", s1)
	expectThrottled(t, "act_1 after an earlier end", err, Throttle{ScopeAdAccount, "1", hour})
	c.Throttles().Load([]Throttle{{Scope: ScopeAdAccount, Key: "act_1", Until: hour.Add(time.Hour)}})
	_, _, err = c.Find(ctx, tokenA, "ad", "x", s1)
	expectThrottled(t, "act_1 after a later end", err, Throttle{ScopeAdAccount, "1", hour.Add(time.Hour)})

	c.Throttles().Load([]Throttle{{Scope: ScopeApp, Key: "ignored", Until: hour}})
	_, err = c.Me(ctx, tokenA)
	expectThrottled(t, "Me", err, Throttle{ScopeApp, "", hour})
	_, err = c.Followers(ctx, page11, "11", Scope{Page: "11"})
	expectThrottled(t, "Followers", err, Throttle{ScopeApp, "", hour})
	if n := sent(fake); n != 1 || len(p.get()) != 0 {
		t.Fatalf("%d calls, pauses reported %+v", n, p.get())
	}
	if th := c.Throttles().Check(Scope{User: "9"}); th == nil || th.Scope != ScopeApp {
		t.Fatalf("Check = %+v", th)
	}
}

// TestExpiredPauseLetsCallsThrough: a pause whose end has passed stops
// nothing: one loaded with a past end, and one learnt once its time is over.
func TestExpiredPauseLetsCallsThrough(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c := newClient(t, base, Options{})
	ctx := context.Background()
	past := time.Now().Add(-time.Second)
	c.Throttles().Load([]Throttle{{ScopeApp, "", past}, {ScopeAdAccount, "act_1", past}, {ScopeUser, "1", past}, {ScopePage, "11", past}})
	if _, _, err := c.Find(ctx, tokenA, "ad", "x", s1); err != nil {
		t.Fatalf("Find after an expired pause = %v", err)
	}
	if _, err := c.Followers(ctx, page11, "11", Scope{User: "1", Page: "11"}); err != nil {
		t.Fatalf("Followers after an expired pause = %v", err)
	}
	if th := c.Throttles().Check(Scope{User: "1", Page: "11", AdAccount: "1"}); th != nil {
		t.Fatalf("Check = %+v", th)
	}

	fake.ThrottleAccount("act_1", 80004, 5)
	if _, _, err := c.Find(ctx, tokenA, "ad", "x", s1); !Temporary(err) {
		t.Fatalf("Find on a throttled account = %v", err)
	}
	fake.ThrottleAccount("act_1", 0, 0)
	setNow := func(d time.Duration) {
		c.throttles.mu.Lock()
		defer c.throttles.mu.Unlock()
		c.throttles.now = func() time.Time { return time.Now().Add(d) }
	}
	setNow(4*time.Minute + 50*time.Second)
	if _, _, err := c.Find(ctx, tokenA, "ad", "x", s1); !errors.As(err, new(*ThrottledError)) {
		t.Fatalf("Find 4m50s later = %v, want still paused", err)
	}
	n := sent(fake)
	setNow(5*time.Minute + 10*time.Second)
	if _, _, err := c.Find(ctx, tokenA, "ad", "x", s1); err != nil || sent(fake) != n+1 {
		t.Fatalf("Find 5m10s later = %v, want it sent", err)
	}
}
