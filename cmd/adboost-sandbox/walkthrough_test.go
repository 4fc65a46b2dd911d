package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	"adboost/db/jobs"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// stack is the sandbox served beside the real API and the real engine, on
// a database with the demo data.
type stack struct {
	t     *testing.T
	sb    *sandbox
	t0    time.Time
	api   *httptest.Server
	cycle func() error
}

func startStack(t *testing.T) *stack {
	t.Helper()
	ctx := context.Background()
	pool := dbtest.New(t)
	if _, err := pool.Exec(ctx, `INSERT INTO geo_country (code, name) VALUES
		('CZ', 'Czechia'), ('DE', 'Germany'), ('US', 'United States'), ('AT', 'Austria'), ('SK', 'Slovakia'), ('GB', 'United Kingdom')
		ON CONFLICT (code) DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	sb := startSandbox(t, t0)

	cipher, err := auth.NewTokenCipher(base64.StdEncoding.EncodeToString([]byte("walkthrough-key-walkthrough-key!")))
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte("walkthrough-secret-walkthrough-secret"), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	api := httptest.NewServer(httpapi.New(httpapi.Config{NetworkAAPIURL: sb.base, TokenCipher: cipher}, pool, tokens, log).Handler())
	t.Cleanup(api.Close)
	client, err := jobs.InsertOnly(pool)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := boost.New(pool, boost.Config{NetworkAURL: sb.base, Cipher: cipher, Jobs: client}, log)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, sb: sb, t0: t0, api: api, cycle: func() error { return eng.Cycle(ctx) }}
}

// call calls the API and fails unless it answers 200.
func (s *stack) call(method, path, token, body string) []byte {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.api.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		s.t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
	}
	return b
}

func (s *stack) post(path, token, body string) []byte {
	s.t.Helper()
	return s.call("POST", path, token, body)
}

// signUp signs up with a network_a token of the sandbox and answers adboost's token.
func (s *stack) signUp(networkAToken string) string {
	s.t.Helper()
	var user struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal(s.post("/v1/user/signup-sn", "", `{"access-token":"`+networkAToken+`"}`), &user)
	if user.AccessToken == "" {
		s.t.Fatal("sign-up answered no token")
	}
	return user.AccessToken
}

// createGymlife starts a campaign with preset 1 and #gymlife on the page.
func (s *stack) createGymlife(token, pageID string) int64 {
	s.t.Helper()
	var campaign struct{ ID int64 }
	json.Unmarshal(s.post("/v1/boosted-pages/create", token, `{"preset_id":1,"page_id":"`+pageID+`","budget":"20.00","hashtag":"#gymlife",
		"targeting":{"geo_locations":{"countries":["CZ"]},"age_min":18,"age_max":35},"dsa_payor":"Sam Sandbox"}`), &campaign)
	return campaign.ID
}

// TestSandboxWalkthrough is the README's "Sandbox network_a" walk-through
// against the sandbox, the real API and the real engine: sign up with the
// sandbox's token, start a campaign on the gym page with preset 1 and
// #gymlife, and after one engine cycle the page's matching posts are boosted;
// as the sandbox's clock moves, batch-insights grow.
func TestSandboxWalkthrough(t *testing.T) {
	s := startStack(t)
	token := s.signUp(DefaultUserToken)
	campaignID := s.createGymlife(token, "7000001")
	cycle := func() {
		t.Helper()
		if err := s.cycle(); err != nil {
			t.Fatalf("engine cycle: %v", err)
		}
	}
	cycle()

	var posts []struct {
		ID   int64
		Name string
	}
	json.Unmarshal(s.post("/v1/boosted-posts/list", token, `{}`), &posts)
	keyword := regexp.MustCompile(`(?i)(^|[^\pL\pN_])#?(gym|fitness|workout)([^\pL\pN_]|$)`)
	var ids []string
	for _, p := range posts {
		if !strings.Contains(strings.ToLower(p.Name), "#gymlife") || !keyword.MatchString(p.Name) {
			t.Errorf("boosted post %d %q does not meet the campaign's rules", p.ID, p.Name)
		}
		ids = append(ids, strconv.FormatInt(p.ID, 10))
	}
	if len(posts) < 2 {
		t.Fatalf("%d posts boosted after the first cycle, want the seeded matching ones", len(posts))
	}
	history := string(s.call("GET", "/v1/boosted-pages/history/"+strconv.FormatInt(campaignID, 10), token, ""))
	if n := strings.Count(history, `"action":"boosted"`); n != len(posts) {
		t.Fatalf("%d boosted history entries for %d posts: %s", n, len(posts), history)
	}

	spend := func() float64 {
		t.Helper()
		var in struct{ Spend string }
		json.Unmarshal(s.post("/v1/boosted-posts/batch-insights", token, fmt.Sprintf(`{"ids":%q}`, strings.Join(ids, ","))), &in)
		v, err := strconv.ParseFloat(in.Spend, 64)
		if err != nil {
			t.Fatalf("spend %q", in.Spend)
		}
		return v
	}
	s.sb.tick(s.t0.Add(30 * time.Second))
	cycle()
	first := spend()
	s.sb.tick(s.t0.Add(90 * time.Second))
	cycle()
	if second := spend(); !(0 < first && first < second) {
		t.Fatalf("batch-insights spend %.2f, then %.2f: want growth", first, second)
	}
	if bytes.Contains(s.call("GET", "/v1/user/detail", token, ""), []byte(DefaultUserToken)) {
		t.Fatal("user/detail answers the network_a token")
	}
}

// TestSandboxEngineStates: the states the sandbox breaks on purpose, seen
// through the real API and engine: a campaign of the no-payment user is
// refused with network_a's message, and one on the pop-up page runs until
// the page loses its token two minutes after the start, then is page_lost.
func TestSandboxEngineStates(t *testing.T) {
	s := startStack(t)
	engine := func(token string, id int64) (state boost.State, message string) {
		t.Helper()
		var c struct {
			Engine struct{ State, Message string }
		}
		json.Unmarshal(s.call("GET", "/v1/boosted-pages/detail/"+strconv.FormatInt(id, 10), token, ""), &c)
		return boost.State(c.Engine.State), c.Engine.Message
	}
	noPay := s.signUp(DefaultNoPayToken)
	refused := s.createGymlife(noPay, "7000011")
	sam := s.signUp(DefaultUserToken)
	popup := s.createGymlife(sam, LostPageID)

	cycle := func() {
		t.Helper()
		if err := s.cycle(); err != nil {
			t.Logf("engine cycle: %v", err) // a refused campaign may fail the cycle
		}
	}
	cycle()
	if state, msg := engine(noPay, refused); state != boost.StateRefused || !strings.Contains(msg, "no valid payment method") {
		t.Errorf("the no-payment user's campaign: %q %q, want refused with network_a's message", state, msg)
	}
	if state, msg := engine(sam, popup); state != boost.StateRunning {
		t.Errorf("the pop-up page's campaign: %q %q, want running", state, msg)
	}
	s.sb.tick(s.t0.Add(2*time.Minute + time.Second))
	cycle()
	if state, msg := engine(sam, popup); state != boost.StatePageLost {
		t.Errorf("the pop-up page's campaign after the page lost its token: %q %q, want page_lost", state, msg)
	}
	if state, _ := engine(noPay, refused); state != boost.StateRefused {
		t.Errorf("the no-payment user's campaign later: %q, want refused", state)
	}
}

// TestSandboxDemoNetworkB: after login-sn with the demo user's token, the
// demo campaign 1006 (8.00 € a day) is refused as below the demo account's
// minimum, with network_a's words; raised to that minimum, the next engine
// cycle boosts demostudiofit's media in the demo campaigns on it, each in
// the campaign's network_b ad set: the image and the album in 1006
// (#demostudio, network_b only), the video and the album in 1001
// (#spinclass), and not the media that matches neither.
func TestSandboxDemoNetworkB(t *testing.T) {
	s := startStack(t)
	var login struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal(s.post("/v1/user/login-sn", "", `{"access-token":"`+DefaultDemoToken+`"}`), &login)
	if login.AccessToken == "" {
		t.Fatal("login-sn answered no token")
	}
	cycle := func() {
		t.Helper()
		if err := s.cycle(); err != nil {
			t.Logf("engine cycle: %v", err) // a refused demo campaign may fail the cycle
		}
	}
	cycle()
	var c struct {
		Engine struct{ State, Message string }
	}
	json.Unmarshal(s.call("GET", "/v1/boosted-pages/detail/1006", login.AccessToken, ""), &c)
	if want := "Budget is too low: The daily budget of this ad set must be at least €9.00."; boost.State(c.Engine.State) != boost.StateRefused || c.Engine.Message != want {
		t.Errorf("campaign 1006 below the minimum: %q %q, want refused with %q", c.Engine.State, c.Engine.Message, want)
	}
	s.post("/v1/boosted-pages/save/1006", login.AccessToken, fmt.Sprintf(`{"budget":"%d.%02d"}`, DemoMinDailyBudget/100, DemoMinDailyBudget%100))
	cycle()
	status, objects := s.sb.send("GET", "/act_2000/ads?fields=id,name&limit=500", DefaultDemoToken, nil)
	if status != 200 {
		t.Fatalf("the demo ad account's ads: %d %v", status, objects)
	}
	names := map[string]bool{}
	for _, d := range objects["data"].([]any) {
		names[d.(map[string]any)["name"].(string)] = true
	}
	for _, want := range []string{"adboost-1006-b17893000101000001", "adboost-1006-b17893000101000003",
		"adboost-1001-b17893000101000002", "adboost-1001-b17893000101000003"} {
		if !names[want] {
			t.Errorf("no ad %s among %v", want, names)
		}
	}
	for name := range names {
		if strings.HasSuffix(name, "-b17893000101000004") || strings.HasPrefix(name, "adboost-1006-b") && strings.HasSuffix(name, "000002") ||
			strings.HasPrefix(name, "adboost-1001-b") && strings.HasSuffix(name, "000001") {
			t.Errorf("ad %s of a media that does not meet its campaign's rules", name)
		}
	}
	status, sets := s.sb.send("GET", "/act_2000/adsets?fields=id,name,targeting", DefaultDemoToken, nil)
	var bSets []string
	for _, d := range sets["data"].([]any) {
		set := d.(map[string]any)
		if name := set["name"].(string); strings.HasSuffix(name, "-network_b") {
			bSets = append(bSets, name)
			if p := fmt.Sprint(set["targeting"].(map[string]any)["publisher_platforms"]); p != "[network_b]" {
				t.Errorf("ad set %s publishes on %s", name, p)
			}
		}
	}
	if status != 200 || len(bSets) != 2 {
		t.Errorf("network_b ad sets: %d %v", status, bSets)
	}
}
