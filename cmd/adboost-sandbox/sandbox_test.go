package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sandbox is the sandbox served in-process, its clock moved by the test.
type sandbox struct {
	t     *testing.T
	base  string
	ticks chan time.Time
	out   *syncBuffer
}

func startSandbox(t *testing.T, t0 time.Time, args ...string) *sandbox {
	t.Helper()
	s, stop := startSandboxStop(t, t0, args...)
	t.Cleanup(stop)
	return s
}

// startSandboxStop starts the sandbox and answers the function that stops it.
func startSandboxStop(t *testing.T, t0 time.Time, args ...string) (*sandbox, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := parseFlags(append([]string{"-post-every", "5s", "-quiet"}, args...), func(string) string { return "" }, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	s := &sandbox{t: t, base: "http://" + ln.Addr().String() + "/v19.0", ticks: make(chan time.Time), out: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ln, t0, s.ticks, s.out) }()
	s.tick(t0) // run has started: its output is written
	return s, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}
}

// tick moves the sandbox's clock to at and waits until the world moved: the
// second send is received only once the first tick is done.
func (s *sandbox) tick(at time.Time) {
	s.ticks <- at
	s.ticks <- at
}

func (s *sandbox) call(method, path, token string, body any) map[string]any {
	s.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, s.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 {
		s.t.Fatalf("%s %s: %d %v (%v)", method, path, resp.StatusCode, m, err)
	}
	return m
}

const gymToken = "EAAsandbox0page0gym"

func (s *sandbox) gymPosts() []map[string]any {
	s.t.Helper()
	var out []map[string]any
	for _, d := range s.call("GET", "/7000001/posts?fields=id,message,created_time&limit=100", gymToken, nil)["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

func (s *sandbox) reach(postID string) int {
	s.t.Helper()
	ins := s.call("GET", "/"+postID+"/insights?metric=post_impressions_unique", gymToken, nil)
	return int(ins["data"].([]any)[0].(map[string]any)["values"].([]any)[0].(map[string]any)["value"].(float64))
}

func (s *sandbox) adInsights(adID string) (impressions int, spend float64) {
	s.t.Helper()
	data := s.call("GET", "/"+adID+"/insights?fields=impressions,reach,clicks,spend,actions&date_preset=maximum", DefaultUserToken, nil)["data"].([]any)
	if len(data) == 0 {
		return 0, 0
	}
	d := data[0].(map[string]any)
	impressions, _ = strconv.Atoi(d["impressions"].(string))
	spend, _ = strconv.ParseFloat(d["spend"].(string), 64)
	return impressions, spend
}

// TestSandboxWorld: the seeded world answers the sign-in and engine calls;
// with the clock moved by the test, posts arrive on the pages in turn, their
// organic reach grows, and a running ad's insights grow while a paused one's
// stay put.
func TestSandboxWorld(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s := startSandbox(t, t0)
	if out := s.out.String(); !strings.Contains(out, "NETWORK_A_API_URL="+s.base) || !strings.Contains(out, DefaultUserToken) {
		t.Fatalf("start-up output:\n%s", out)
	}

	// The seeded sign-in: three pages with tokens and network_b accounts,
	// a disabled ad account before the active one.
	acc := s.call("GET", "/me/accounts?fields=id,name,picture,network_b_account", DefaultUserToken, nil)
	var pages []string
	for _, d := range acc["data"].([]any) {
		p := d.(map[string]any)
		if p["access_token"] == "" || p["network_b_account"] == nil {
			t.Fatalf("page without token or network_b account: %v", p)
		}
		pages = append(pages, p["id"].(string))
	}
	if strings.Join(pages, ",") != "7000001,7000002,7000003" || acc["paging"] != nil {
		t.Fatalf("pages = %v (%v)", pages, acc["paging"])
	}
	ads := s.call("GET", "/me/adaccounts?fields=id,account_status,currency", DefaultUserToken, nil)["data"].([]any)
	if len(ads) != 2 || ads[1].(map[string]any)["account_status"] != float64(1) || ads[1].(map[string]any)["id"] != "act_1000" {
		t.Fatalf("ad accounts = %v", ads)
	}
	if me := s.call("GET", "/me?fields=id,first_name,last_name,email", DefaultDemoToken, nil); me["id"] != "1000100" {
		t.Fatalf("demo user = %v", me)
	}

	// Seeded posts of the last hours, with reach already.
	seeded := s.gymPosts()
	if len(seeded) != 6 {
		t.Fatalf("%d seeded gym posts, want 6", len(seeded))
	}
	if r := s.reach(seeded[0]["id"].(string)); r < 100 {
		t.Fatalf("a seeded post of an hour ago has reach %d", r)
	}

	// 25 s: five posts, one per page in turn; the gym page has one new,
	// published at t0+5s, newest first.
	s.tick(t0.Add(25 * time.Second))
	posts := s.gymPosts()
	if len(posts) != 7 || posts[0]["created_time"] != "2026-11-23T10:00:05+0000" {
		t.Fatalf("gym posts after 25 s: %d, newest %v", len(posts), posts[0])
	}
	if n := len(s.call("GET", "/7000003/posts?fields=id&limit=100", "EAAsandbox0page0travel", nil)["data"].([]any)); n != 4+1 {
		t.Fatalf("%d getaway posts, want 5", n)
	}
	newPost := posts[0]["id"].(string)
	early := s.reach(newPost)
	s.tick(t0.Add(90 * time.Second))
	later := s.reach(newPost)
	if !(0 < early && early < later) {
		t.Fatalf("organic reach of a new post: %d then %d, want growth", early, later)
	}
	// 65 s more: 13 posts due, 10 published at once (no backlog after a
	// pause), pages in turn: 2 of them the gym's.
	if n := len(s.gymPosts()); n != 7+2 {
		t.Fatalf("%d gym posts after 90 s, want 9", n)
	}

	// An ad boosting the new post: its insights grow with the clock.
	camp := s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-1", "objective": "POST_ENGAGEMENT", "status": "ACTIVE", "special_ad_categories": []any{}})["id"].(string)
	adset := s.call("POST", "/act_1000/adsets", DefaultUserToken, map[string]any{
		"name": "adboost-1", "campaign_id": camp, "daily_budget": 2000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT", "targeting": map[string]any{}, "status": "ACTIVE"})["id"].(string)
	ad := s.call("POST", "/act_1000/ads", DefaultUserToken, map[string]any{
		"name": "adboost-1-x", "adset_id": adset, "creative": map[string]any{"object_story_id": newPost}, "status": "ACTIVE"})["id"].(string)
	if imp, _ := s.adInsights(ad); imp != 0 {
		t.Fatalf("a new ad has %d impressions", imp)
	}
	s.tick(t0.Add(100 * time.Second))
	imp1, spend1 := s.adInsights(ad)
	s.tick(t0.Add(160 * time.Second))
	imp2, spend2 := s.adInsights(ad)
	if !(0 < imp1 && imp1 < imp2 && spend1 <= spend2 && spend2 > 0) {
		t.Fatalf("insights: %d impressions / %.2f, then %d / %.2f: want growth", imp1, spend1, imp2, spend2)
	}
	// Paused, the ad stops growing; resumed, it grows again.
	s.call("POST", "/"+camp, DefaultUserToken, map[string]any{"status": "PAUSED"})
	s.tick(t0.Add(220 * time.Second))
	if imp3, _ := s.adInsights(ad); imp3 != imp2 {
		t.Fatalf("a paused campaign's ad grew from %d to %d", imp2, imp3)
	}
	s.call("POST", "/"+camp, DefaultUserToken, map[string]any{"status": "ACTIVE"})
	s.tick(t0.Add(230 * time.Second))
	if imp4, _ := s.adInsights(ad); imp4 <= imp2 {
		t.Fatalf("a resumed ad stayed at %d", imp4)
	}
}

func TestSandboxFlags(t *testing.T) {
	env := map[string]string{"SANDBOX_ADDR": "127.0.0.1:9999", "SANDBOX_POST_EVERY": "3s"}
	cfg, err := parseFlags([]string{"-seed", "7"}, func(k string) string { return env[k] }, &bytes.Buffer{})
	if err != nil || cfg.addr != "127.0.0.1:9999" || cfg.postEvery != 3*time.Second || cfg.seed != 7 ||
		cfg.userToken != DefaultUserToken || cfg.tick != time.Second {
		t.Fatalf("cfg = %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-post-every", "10ms"}, {"-token", "a b"}, {"-token", DefaultDemoToken}, {"extra"}, {"-seed", "-1"}} {
		if _, err := parseFlags(args, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// TestSandboxState: with -state the world survives a restart: the posts,
// the ads and their insights are there again, insights go on growing, and new
// posts and objects get new ids.
func TestSandboxState(t *testing.T) {
	state := t.TempDir() + "/sandbox.json"
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, stop := startSandboxStop(t, t0, "-state", state)
	s.tick(t0.Add(10 * time.Second))
	newest := s.gymPosts()[0]["id"].(string)
	camp := s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-1", "objective": "REACH", "special_ad_categories": []any{}})["id"].(string)
	adset := s.call("POST", "/act_1000/adsets", DefaultUserToken, map[string]any{
		"name": "adboost-1", "campaign_id": camp, "daily_budget": 2000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"billing_event": "IMPRESSIONS", "optimization_goal": "REACH", "targeting": map[string]any{}})["id"].(string)
	ad := s.call("POST", "/act_1000/ads", DefaultUserToken, map[string]any{
		"name": "adboost-1-x", "adset_id": adset, "creative": map[string]any{"object_story_id": newest}})["id"].(string)
	s.tick(t0.Add(20 * time.Second))
	before, _ := s.adInsights(ad)
	posts := len(s.gymPosts())
	stop()

	// An hour later: the same world, moving on from where it stopped.
	t1 := t0.Add(time.Hour)
	s = startSandbox(t, t1, "-state", state)
	if !strings.Contains(s.out.String(), "sandbox world restored") {
		t.Fatalf("not restored:\n%s", s.out.String())
	}
	if imp, _ := s.adInsights(ad); imp != before || before == 0 {
		t.Fatalf("the ad's impressions after restart: %d, before %d", imp, before)
	}
	if n := len(s.gymPosts()); n != posts {
		t.Fatalf("%d gym posts after restart, %d before", n, posts)
	}
	s.tick(t1.Add(30 * time.Second))
	if imp, _ := s.adInsights(ad); imp <= before {
		t.Fatalf("the ad stopped growing after restart: %d", imp)
	}
	if got := s.gymPosts()[0]["id"].(string); got <= newest {
		t.Fatalf("a post after restart got id %s, not after %s", got, newest)
	}
	next := s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-2", "objective": "REACH", "special_ad_categories": []any{}})["id"].(string)
	if next <= ad {
		t.Fatalf("an object after restart got id %s, not after %s", next, ad)
	}

	// Other tokens: the saved world is not theirs, a fresh one starts.
	other := startSandbox(t, t1, "-state", state, "-token", "EAAanother0token")
	if !strings.Contains(other.out.String(), "a fresh sandbox world") {
		t.Fatalf("another user's sandbox restored the saved world:\n%s", other.out.String())
	}
}
