package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"reflect"
	"regexp"
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
	s := &sandbox{t: t, base: "http://" + ln.Addr().String() + "/v25.0", ticks: make(chan time.Time), out: &syncBuffer{}}
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
	status, m := s.send(method, path, token, body)
	if status != 200 {
		s.t.Fatalf("%s %s: %d %v", method, path, status, m)
	}
	return m
}

// send calls the sandbox and answers the status and the decoded answer.
func (s *sandbox) send(method, path, token string, body any) (int, map[string]any) {
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
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		s.t.Fatalf("%s %s: %d, not JSON: %v", method, path, resp.StatusCode, err)
	}
	return resp.StatusCode, m
}

// graphError is the error of an answer as "STATUS CODE SUBCODE MESSAGE".
func graphError(status int, m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	num := func(v any) string {
		if f, ok := v.(float64); ok {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%d %s %s %v", status, num(e["code"]), num(e["error_subcode"]), e["message"])
}

// pageIDs answers the ids of the pages of the user's /me/accounts, every
// page of the list.
func (s *sandbox) pageIDs(token string) []string {
	s.t.Helper()
	var ids []string
	path := "/me/accounts?fields=id,name,picture,network_b_account"
	for range 10 {
		acc := s.call("GET", path, token, nil)
		for _, d := range acc["data"].([]any) {
			p := d.(map[string]any)
			if p["access_token"] == "" || p["network_b_account"] == nil {
				s.t.Fatalf("page without token or network_b account: %v", p)
			}
			ids = append(ids, p["id"].(string))
		}
		paging, _ := acc["paging"].(map[string]any)
		next, _ := paging["next"].(string)
		if next == "" {
			return ids
		}
		path = strings.TrimPrefix(next, s.base)
	}
	s.t.Fatalf("/me/accounts: more than 10 answers")
	return nil
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
	ins := s.call("GET", "/"+postID+"/insights?metric=post_total_media_view_unique", gymToken, nil)
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
	checkSeededWorld(t, s, t0)
	newPost := checkPostsArrive(t, s, t0)
	checkAdInsightsGrow(t, s, t0, newPost)
}

// checkSeededWorld checks the start-up output, the seeded sign-in and the
// seeded posts with their reach.
func checkSeededWorld(t *testing.T, s *sandbox, t0 time.Time) {
	t.Helper()
	out := s.out.String()
	for _, want := range []string{"NETWORK_A_API_URL=" + s.base, DefaultUserToken, DefaultDemoToken, DefaultNoPayToken,
		"page 7000004 (Pop-up Gym) loses its page token at " + t0.Add(2*time.Minute).Local().Format(time.TimeOnly)} {
		if !strings.Contains(out, want) {
			t.Fatalf("start-up output without %q:\n%s", want, out)
		}
	}

	// The seeded sign-in: four pages with tokens and network_b accounts
	// (in two answers of /me/accounts), a disabled ad account before the
	// active one.
	if pages := strings.Join(s.pageIDs(DefaultUserToken), ","); pages != "7000001,7000002,7000003,7000004" {
		t.Fatalf("pages = %v", pages)
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
}

// checkPostsArrive moves the clock and checks posts arrive on the pages in
// turn and a new post's organic reach grows; it returns the gym's new post.
func checkPostsArrive(t *testing.T, s *sandbox, t0 time.Time) string {
	t.Helper()
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
	// pause), the eight pages in turn from the sixth: 1 of them the gym's.
	if n := len(s.gymPosts()); n != 7+1 {
		t.Fatalf("%d gym posts after 90 s, want 8", n)
	}
	return newPost
}

// checkAdInsightsGrow boosts newPost and checks the ad's insights grow with
// the clock, stop while paused and grow again when resumed.
func checkAdInsightsGrow(t *testing.T, s *sandbox, t0 time.Time, newPost string) {
	t.Helper()
	// An ad boosting the new post: its insights grow with the clock.
	camp := s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-1", "objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := s.call("POST", "/act_1000/adsets", DefaultUserToken, map[string]any{
		"name": "adboost-1", "campaign_id": camp, "daily_budget": 2000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT", "destination_type": "ON_POST",
		"promoted_object": map[string]any{"page_id": "7000001"}, "targeting": anywhere(), "status": "ACTIVE"})["id"].(string)
	ad := s.call("POST", "/act_1000/ads", DefaultUserToken, map[string]any{
		"name": "adboost-1-x", "adset_id": adset, "creative": map[string]any{"object_story_id": newPost, "instagram_user_id": "7100001"},
		"status": "ACTIVE"})["id"].(string)
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
	if cfg.noPayToken != DefaultNoPayToken || cfg.pageLostAfter != 2*time.Minute {
		t.Fatalf("cfg = %+v", cfg)
	}
	env = map[string]string{"SANDBOX_NOPAY_TOKEN": "EAAother0nopay", "SANDBOX_PAGE_LOST_AFTER": "0"}
	cfg, err = parseFlags(nil, func(k string) string { return env[k] }, &bytes.Buffer{})
	if err != nil || cfg.noPayToken != "EAAother0nopay" || cfg.pageLostAfter != 0 {
		t.Fatalf("cfg = %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-post-every", "10ms"}, {"-token", "a b"}, {"-token", DefaultDemoToken}, {"extra"}, {"-seed", "-1"},
		{"-nopay-token", DefaultUserToken}, {"-demo-token", DefaultNoPayToken}, {"-nopay-token", "a b"},
		{"-page-lost-after", "-1s"}, {"-page-lost-after", "soon"}} {
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
		"name": "adboost-1", "objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := s.call("POST", "/act_1000/adsets", DefaultUserToken, map[string]any{
		"name": "adboost-1", "campaign_id": camp, "daily_budget": 2000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"billing_event": "IMPRESSIONS", "optimization_goal": "REACH", "targeting": anywhere()})["id"].(string)
	ad := s.call("POST", "/act_1000/ads", DefaultUserToken, map[string]any{
		"name": "adboost-1-x", "adset_id": adset, "creative": map[string]any{"object_story_id": newest, "instagram_user_id": "7100001"}})["id"].(string)
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
		"name": "adboost-2", "objective": "OUTCOME_AWARENESS", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	if next <= ad {
		t.Fatalf("an object after restart got id %s, not after %s", next, ad)
	}

	// Other tokens: the saved world is not theirs, a fresh one starts.
	other := startSandbox(t, t1, "-state", state, "-token", "EAAanother0token")
	if !strings.Contains(other.out.String(), "a fresh sandbox world") {
		t.Fatalf("another user's sandbox restored the saved world:\n%s", other.out.String())
	}
}

// TestSandboxBrokenOnPurpose: the no-payment user's ad account refuses every
// create with code 200 (the engine's state refused), and the pop-up page
// loses its token two minutes after the start (page_lost), also after a
// restart from the state file.
func TestSandboxBrokenOnPurpose(t *testing.T) {
	state := t.TempDir() + "/sandbox.json"
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, stop := startSandboxStop(t, t0, "-state", state)

	// The no-payment user: an active ad account, a page with posts that
	// the demo presets boost.
	if me := s.call("GET", "/me?fields=id,first_name,last_name,email", DefaultNoPayToken, nil); me["id"] != "5550200" || me["first_name"] != "Nico" {
		t.Fatalf("no-payment user = %v", me)
	}
	ads := s.call("GET", "/me/adaccounts?fields=id,account_status,currency", DefaultNoPayToken, nil)["data"].([]any)
	if len(ads) != 1 || ads[0].(map[string]any)["id"] != NoPayAccount || ads[0].(map[string]any)["account_status"] != float64(1) {
		t.Fatalf("ad accounts = %v", ads)
	}
	if pages := s.pageIDs(DefaultNoPayToken); len(pages) != 1 || pages[0] != "7000011" {
		t.Fatalf("pages = %v", pages)
	}
	var gymlife int
	for _, d := range s.call("GET", "/7000011/posts?fields=id,message&limit=100", "EAAsandbox0page0boxing", nil)["data"].([]any) {
		if msg := d.(map[string]any)["message"].(string); strings.Contains(msg, "#gymlife") && strings.Contains(msg, "workout") {
			gymlife++
		}
	}
	if gymlife < 2 {
		t.Fatalf("%d posts with #gymlife and workout on the no-payment user's page", gymlife)
	}
	// Every create is refused for the payment method, with code 200.
	const refused = "400 200 1359188 (#200) The ad account has no valid payment method. Add one in the account's payment settings."
	if got := graphError(s.send("POST", "/act_3000/campaigns", DefaultNoPayToken, map[string]any{
		"name": "adboost-1", "objective": "OUTCOME_TRAFFIC", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})); got != refused {
		t.Fatalf("a campaign in the account without payment method: %s", got)
	}
	// Sam's account creates.
	s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-2", "objective": "OUTCOME_TRAFFIC", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})

	// The pop-up page answers with its token until two minutes after the
	// start, then 190.
	const popupPosts = "/7000004/posts?fields=id,message&limit=100"
	s.tick(t0.Add(119 * time.Second))
	if n := len(s.call("GET", popupPosts, LostPageToken, nil)["data"].([]any)); n < 3 {
		t.Fatalf("%d pop-up posts", n)
	}
	s.tick(t0.Add(121 * time.Second))
	if got := graphError(s.send("GET", popupPosts, LostPageToken, nil)); !strings.HasPrefix(got, "400 190 463 Error validating access token") {
		t.Fatalf("the pop-up page after two minutes: %s", got)
	}
	s.call("GET", "/7000001/posts?fields=id&limit=1", gymToken, nil) // the other pages keep theirs
	if out := s.out.String(); !strings.Contains(out, "sandbox page lost its token") {
		t.Fatalf("no log of the lost token:\n%s", out)
	}
	stop()

	// Restarted from the state file: still lost, still no payment method.
	s = startSandbox(t, t0.Add(time.Hour), "-state", state)
	if out := s.out.String(); !strings.Contains(out, "sandbox world restored") || !strings.Contains(out, "page 7000004 (Pop-up Gym) has lost its page token") {
		t.Fatalf("restart output:\n%s", out)
	}
	if got := graphError(s.send("GET", popupPosts, LostPageToken, nil)); !strings.HasPrefix(got, "400 190 ") {
		t.Fatalf("the pop-up page after a restart: %s", got)
	}
	if got := graphError(s.send("POST", "/act_3000/campaigns", DefaultNoPayToken, map[string]any{
		"name": "adboost-1", "objective": "OUTCOME_TRAFFIC", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})); got != refused {
		t.Fatalf("a campaign in the account without payment method after a restart: %s", got)
	}

	// -page-lost-after 0: the page keeps its token.
	keep := startSandbox(t, t0, "-page-lost-after", "0")
	if !strings.Contains(keep.out.String(), "keeps its page token") {
		t.Fatalf("start-up output:\n%s", keep.out.String())
	}
	keep.tick(t0.Add(time.Hour))
	keep.call("GET", popupPosts, LostPageToken, nil)
}

const demoFitToken = "EAAsandbox0page0demofit"

// mediaFields are the fields the engine reads media with.
const mediaFields = "id,caption,media_type,permalink,media_url,thumbnail_url,timestamp,like_count,comments_count"

// media answers the network_b account's media (at most 100), newest first.
func (s *sandbox) media(accountID, token string) []map[string]any {
	s.t.Helper()
	var out []map[string]any
	for _, d := range s.call("GET", "/"+accountID+"/media?fields="+mediaFields+"&limit=100", token, nil)["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

// mediaReach answers a media's reach (metric=reach).
func (s *sandbox) mediaReach(mediaID, token string) int {
	s.t.Helper()
	ins := s.call("GET", "/"+mediaID+"/insights?metric=reach", token, nil)
	return int(ins["data"].([]any)[0].(map[string]any)["values"].([]any)[0].(map[string]any)["value"].(float64))
}

// hasTag tells whether the caption holds the hashtag as a whole tag,
// case-insensitively, as the engine matches it.
func hasTag(caption, tag string) bool {
	return regexp.MustCompile(`(?i)` + regexp.QuoteMeta(tag) + `([^\pL\pN_]|$)`).MatchString(caption)
}

// TestSandboxMedia: the demo user's network_b account demostudiofit has
// recent media for the demo campaigns on it (1006: #demostudio, network_b
// only; 1001: #spinclass), with followers and reach that pass a reach rule,
// read with its page's token only; Sam's network_b accounts have media too,
// and an ad of one of them runs in a network_b ad set and grows.
func TestSandboxMedia(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s := startSandbox(t, t0)
	checkDemoFitMedia(t, s, t0)
	checkSamsMedia(t, s)
	checkNetworkBAdGrows(t, s, t0)
}

// checkDemoFitMedia checks demostudiofit's followers and recent media for the
// demo campaigns, and that only its page's token reads them.
func checkDemoFitMedia(t *testing.T, s *sandbox, t0 time.Time) {
	t.Helper()
	followers := s.call("GET", "/3000101?fields=followers_count", demoFitToken, nil)
	if followers["followers_count"] != float64(2400) {
		t.Fatalf("demostudiofit = %v", followers)
	}
	media := s.media("3000101", demoFitToken)
	want := []struct{ id, kind, campaigns string }{
		{"17893000101000001", "IMAGE", "1006"},
		{"17893000101000002", "VIDEO", "1001"},
		{"17893000101000003", "CAROUSEL_ALBUM", "1001,1006"},
		{"17893000101000004", "IMAGE", ""},
	}
	if len(media) != len(want) {
		t.Fatalf("%d media of demostudiofit, want %d: %v", len(media), len(want), media)
	}
	var last time.Time
	for i, w := range want {
		m := media[i]
		caption, _ := m["caption"].(string)
		var campaigns []string
		if hasTag(caption, "#spinclass") {
			campaigns = append(campaigns, "1001")
		}
		if hasTag(caption, "#demostudio") {
			campaigns = append(campaigns, "1006")
		}
		created, err := time.Parse("2006-01-02T15:04:05-0700", m["timestamp"].(string))
		if m["id"] != w.id || m["media_type"] != w.kind || strings.Join(campaigns, ",") != w.campaigns || err != nil {
			t.Errorf("media %d = %v (campaigns %v, %v), want %+v", i, m, campaigns, err, w)
		}
		// Recent (well within ENGINE_POST_MAX_AGE), newest first.
		if age := t0.Sub(created); age <= 0 || age > 6*time.Hour || (i > 0 && !created.Before(last)) {
			t.Errorf("media %s created %v, at %v", w.id, created, t0)
		}
		last = created
		_, thumb := m["thumbnail_url"]
		if thumb != (w.kind == "VIDEO") || m["media_url"] == "" || !strings.HasPrefix(m["permalink"].(string), "https://") {
			t.Errorf("media %s: pictures %v", w.id, m)
		}
		// Reach enough for the demo presets' highest reach rule (55 %),
		// and engagement.
		if r := s.mediaReach(w.id, demoFitToken); r*100 < 55*2400 || m["like_count"].(float64) < 1 || m["comments_count"].(float64) < 1 {
			t.Errorf("media %s: reach %d, %v likes, %v comments", w.id, r, m["like_count"], m["comments_count"])
		}
	}
	// Only the linked page's token reads the account.
	for _, token := range []string{DefaultDemoToken, "EAAsandbox0page0democafe"} {
		if got := graphError(s.send("GET", "/3000101/media?fields=id", token, nil)); !strings.HasPrefix(got, "400 210 ") {
			t.Errorf("demostudiofit's media with %s: %s", token, got)
		}
	}
}

// checkSamsMedia checks Sam's network_b accounts have media of the hashtags
// of the sandbox's posts, and followers.
func checkSamsMedia(t *testing.T, s *sandbox) {
	t.Helper()
	// Sam's network_b accounts: media of the hashtags of the sandbox's posts.
	var gymlife int
	for account, token := range map[string]string{"7100001": gymToken, "7100002": "EAAsandbox0page0cafe",
		"7100003": "EAAsandbox0page0travel", "7100004": LostPageToken} {
		media := s.media(account, token)
		if len(media) < 2 {
			t.Errorf("%d media of %s", len(media), account)
		}
		for _, m := range media {
			if caption, _ := m["caption"].(string); hasTag(caption, "#gymlife") && strings.Contains(caption, "workout") {
				gymlife++
			}
		}
		if f := s.call("GET", "/"+account+"?fields=followers_count", token, nil)["followers_count"]; f.(float64) < 100 {
			t.Errorf("%s has %v followers", account, f)
		}
	}
	if gymlife < 2 {
		t.Errorf("%d of Sam's media with #gymlife and workout, want some for preset 1", gymlife)
	}
}

// checkNetworkBAdGrows checks an ad of Sam's media in a network_b ad set gets
// impressions, and a network_a post is refused in that ad set.
func checkNetworkBAdGrows(t *testing.T, s *sandbox, t0 time.Time) {
	t.Helper()
	// An ad of Sam's media, in a network_b ad set: its insights grow.
	gymMedia := s.media("7100001", gymToken)[0]["id"].(string)
	camp := s.call("POST", "/act_1000/campaigns", DefaultUserToken, map[string]any{
		"name": "adboost-1", "objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := s.call("POST", "/act_1000/adsets", DefaultUserToken, map[string]any{
		"name": "adboost-1-network_b", "campaign_id": camp, "daily_budget": 2000, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
		"billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT", "destination_type": "ON_POST",
		"promoted_object": map[string]any{"page_id": "7000001"},
		"targeting":       merge(anywhere(), map[string]any{"publisher_platforms": []any{"network_b"}}), "status": "ACTIVE"})["id"].(string)
	ad := s.call("POST", "/act_1000/ads", DefaultUserToken, map[string]any{"name": "adboost-1-b" + gymMedia, "adset_id": adset,
		"creative": map[string]any{"source_instagram_media_id": gymMedia, "instagram_user_id": "7100001", "object_id": "7000001"},
		"status":   "ACTIVE"})["id"].(string)
	s.tick(t0.Add(10 * time.Second))
	if imp, _ := s.adInsights(ad); imp == 0 {
		t.Fatal("an ad of network_b media has no impressions")
	}
	if got := graphError(s.send("POST", "/act_1000/ads", DefaultUserToken, map[string]any{"name": "x", "adset_id": adset,
		"creative": map[string]any{"object_story_id": s.gymPosts()[0]["id"]}})); !strings.HasPrefix(got, "400 100 ") {
		t.Fatalf("a network_a post in the network_b ad set: %s", got)
	}
}

// TestSandboxMediaState: media survive a restart from the state file, and
// a state file saved before the sandbox had media gets them seeded.
func TestSandboxMediaState(t *testing.T) {
	state := t.TempDir() + "/sandbox.json"
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, stop := startSandboxStop(t, t0, "-state", state)
	before := s.media("3000101", demoFitToken)
	stop()

	t1 := t0.Add(time.Hour)
	s, stop = startSandboxStop(t, t1, "-state", state)
	if !strings.Contains(s.out.String(), "sandbox world restored") {
		t.Fatalf("not restored:\n%s", s.out.String())
	}
	if after := s.media("3000101", demoFitToken); !reflect.DeepEqual(after, before) {
		t.Fatalf("media after a restart:\n%v\nbefore:\n%v", after, before)
	}
	stop()

	// A state file without media, as saved before the sandbox had any.
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	json.Unmarshal(b, &st)
	delete(st, "media")
	delete(st["fake"].(map[string]any), "media")
	b, _ = json.Marshal(st)
	if err := os.WriteFile(state, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t2 := t1.Add(24 * time.Hour)
	s = startSandbox(t, t2, "-state", state)
	if !strings.Contains(s.out.String(), "sandbox world restored") {
		t.Fatalf("not restored:\n%s", s.out.String())
	}
	media := s.media("3000101", demoFitToken)
	if len(media) != 4 || media[0]["id"] != "17893000101000001" {
		t.Fatalf("media of an old state = %v", media)
	}
	if created, _ := time.Parse("2006-01-02T15:04:05-0700", media[0]["timestamp"].(string)); t2.Sub(created) > 4*time.Hour {
		t.Fatalf("media seeded into an old state at %v, restarted at %v", created, t2)
	}
	if f := s.call("GET", "/3000101?fields=followers_count", demoFitToken, nil)["followers_count"]; f != float64(2400) {
		t.Fatalf("followers in an old state = %v", f)
	}
}

// anywhere is a targeting that names no placement, with Advantage audience
// off.
func anywhere() map[string]any {
	return map[string]any{"targeting_automation": map[string]any{"advantage_audience": 0}}
}

// merge is a with the pairs of b.
func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
