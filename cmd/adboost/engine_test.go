package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/auth/networkafake"
	"adboost/db/dataset"
	"adboost/db/dbtest"
)

var engineKey = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))

// engineWorld is a migrated database with Ana's campaign 7 (#gym) on page
// 456, her sealed network_a tokens, and a fake network_a with one matching
// post; it answers the environment of the binary.
func engineWorld(t *testing.T) (*networkafake.Fake, map[string]string) {
	t.Helper()
	fake, fakeURL := networkafake.Start(t)
	fake.AddPost("456", networkafake.Post{ID: "456_1", Message: "#gym today", Created: time.Now().Add(-time.Hour)})
	_, env := seedEngineWorld(t, fake, fakeURL)
	return fake, env
}

// seedEngineWorld makes the database of engineWorld (Ana, her page 456,
// campaigns 7 #gym and 9 #nothing, her sealed tokens), adds Ana to fake, and
// answers the database and the environment of the binary with fakeURL as
// network_a.
func seedEngineWorld(t *testing.T, fake *networkafake.Fake, fakeURL string) (*pgxpool.Pool, map[string]string) {
	t.Helper()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	pool := dbtest.NewPool(t, url)
	fake.AddUser(networkafake.User{
		Token: "ana-token", ID: "5001", FirstName: "Ana", Email: "ana@example.com",
		Pages:      []networkafake.Page{{ID: "456", Name: "Gym", Token: "page-token", Followers: 10}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_1", Status: 1, Currency: "EUR"}},
	})
	err := dataset.Load(ctx, pool, strings.NewReader(`{
  "users": [{"id": 100, "email": "ana@example.com"}],
  "sources": [{"id": 456, "user_id": 100, "platform": "network_a", "name": "Gym"}],
  "boosted_pages": [
    {"id": 7, "user_id": 100, "page_id": 456, "campaign_budget_value": "20.00", "hashtag": "#gym"},
    {"id": 9, "user_id": 100, "page_id": 456, "campaign_budget_value": "5.00", "hashtag": "#nothing"}
  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	cipher, err := auth.NewTokenCipher(engineKey)
	if err != nil {
		t.Fatal(err)
	}
	user, _ := cipher.Seal("ana-token")
	page, _ := cipher.Seal("page-token")
	if _, err := pool.Exec(ctx, `UPDATE app_user SET network_a_token = $1 WHERE id = 100`, user); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE source SET access_token = $1 WHERE id = 456`, page); err != nil {
		t.Fatal(err)
	}
	return pool, map[string]string{
		"DATABASE_URL": url, "NETWORK_A_API_URL": fakeURL, "TOKEN_ENCRYPTION_KEY": engineKey,
	}
}

func adNames(f *networkafake.Fake) []string {
	var names []string
	for _, o := range f.Objects("ad") {
		names = append(names, o.Name)
	}
	slices.Sort(names)
	return names
}

// runBinary runs this test binary as `adboost args...` and answers its exit
// code and standard error.
func runBinary(t *testing.T, env map[string]string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ADBOOST_TEST_RUN_MAIN=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// `adboost engine`: exit 1 naming the campaigns that failed while network_a
// is down, then 0 once every campaign was processed.
func TestEngineCommandExitCodes(t *testing.T) {
	t.Parallel()
	fake, env := engineWorld(t)
	fake.SetDown(true)
	code, stderr := runBinary(t, env, "engine")
	if code != 1 || !strings.Contains(stderr, "campaign 7:") || !strings.Contains(stderr, "campaign 9:") ||
		!strings.Contains(stderr, "2 campaign(s) failed") {
		t.Fatalf("engine with network_a down: exit %d\n%s", code, stderr)
	}
	if got := adNames(fake); len(got) != 0 {
		t.Fatalf("ads while down: %v", got)
	}
	fake.SetDown(false)
	code, stderr = runBinary(t, env, "engine")
	if code != 0 {
		t.Fatalf("engine: exit %d\n%s", code, stderr)
	}
	if got := adNames(fake); !slices.Equal(got, []string{"adboost-7-1"}) {
		t.Fatalf("ads %v", got)
	}
	if strings.Contains(stderr, "ana-token") || strings.Contains(stderr, "page-token") {
		t.Error("a token in the log")
	}
	// Without the key, the engine cannot read the tokens.
	delete(env, "TOKEN_ENCRYPTION_KEY")
	if code, stderr := runBinary(t, env, "engine"); code != 1 || !strings.Contains(stderr, "TOKEN_ENCRYPTION_KEY") {
		t.Fatalf("engine without a key: exit %d\n%s", code, stderr)
	}
	if code, _ := runBinary(t, env, "engine", "now"); code == 0 {
		t.Fatalf("engine with an argument: exit %d", code)
	}
}

// Three `serve` processes on one database run the engine every second:
// the post is boosted once.
func TestServeRunsEngineOnce(t *testing.T) {
	t.Parallel()
	fake, env := engineWorld(t)
	env["ENGINE_INTERVAL"] = "1s"
	env["ADBOOST_ENV"] = "dev"
	// A small pool: the engine's workers must leave the API connections.
	sep := "?"
	if strings.Contains(env["DATABASE_URL"], "?") {
		sep = "&"
	}
	env["DATABASE_URL"] += sep + "pool_max_conns=4"
	// More campaigns than connections, worked on at once.
	if _, err := dbtest.NewPool(t, env["DATABASE_URL"]).Exec(context.Background(), `INSERT INTO campaign
		(id, user_id, page_id, campaign_budget_value, hashtag) SELECT g, 100, 456, 1, '#other' FROM generate_series(20, 29) AS g`); err != nil {
		t.Fatal(err)
	}
	var bases []string
	for range 3 {
		vars := map[string]string{}
		for k, v := range env {
			vars[k] = v
		}
		bases = append(bases, startServe(t, vars))
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(fake.Objects("ad")) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	// A second post while the engines keep running.
	fake.AddPost("456", networkafake.Post{ID: "456_2", Message: "#GYM again", Created: time.Now()})
	for len(fake.Objects("ad")) < 2 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(2500 * time.Millisecond) // two more cycles
	client := &http.Client{Timeout: 3 * time.Second}
	for _, base := range bases {
		resp, err := client.Get(base + "/readyz")
		if err != nil {
			t.Fatalf("the API while the engine runs: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("readyz while the engine runs: %d", resp.StatusCode)
		}
	}
	// serve's /metrics carries the engine's collectors, and the instances
	// did jobs (which instance did which is River's choice).
	done := regexp.MustCompile(`(?m)^adboost_engine_jobs_total\{result="done"\} ([0-9]+)$`)
	jobs := 0
	for _, base := range bases {
		resp, err := client.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		scrape, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := done.FindSubmatch(scrape)
		if m == nil || !strings.Contains(string(scrape), "adboost_engine_oldest_pending_seconds ") {
			t.Fatalf("/metrics lacks the engine's jobs done and oldest pending work:\n%s", scrape)
		}
		n, _ := strconv.Atoi(string(m[1]))
		jobs += n
	}
	if jobs == 0 {
		t.Fatal("no instance reports a campaign job done")
	}
	if got := adNames(fake); !slices.Equal(got, []string{"adboost-7-1", "adboost-7-2"}) {
		t.Fatalf("ads %v", got)
	}
	var names []string
	for _, o := range append(fake.Objects("campaign"), fake.Objects("adset")...) {
		names = append(names, o.Kind+":"+o.Name)
	}
	if !slices.Equal(names, []string{"campaign:adboost-7", "adset:adboost-7"}) {
		t.Fatalf("campaigns and ad sets %v", names)
	}
}

func TestEngineConfiguration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TOKEN_ENCRYPTION_KEY": "short"}, "TOKEN_ENCRYPTION_KEY"},
		{map[string]string{"ENGINE_INTERVAL": "often"}, "ENGINE_INTERVAL"},
		{map[string]string{"ENGINE_INTERVAL": "-1m"}, "ENGINE_INTERVAL"},
		{map[string]string{"ENGINE_INTERVAL": "500ms"}, "ENGINE_INTERVAL"},
		{map[string]string{"ENGINE_POST_MAX_AGE": "0"}, "ENGINE_POST_MAX_AGE"},
	} {
		_, err := loadConfig(envOf(c.env), quiet())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.env, err)
		}
	}
	cfg, err := loadConfig(envOf(map[string]string{"ENGINE_INTERVAL": "0", "TOKEN_ENCRYPTION_KEY": engineKey}), quiet())
	if err != nil || cfg.engineInterval != 0 || cfg.enginePostMaxAge != 168*time.Hour || cfg.tokenCipher == nil {
		t.Errorf("ENGINE_INTERVAL=0: %+v %v", cfg, err)
	}
	cfg, err = loadConfig(envOf(nil), quiet())
	if err != nil || cfg.engineInterval != 5*time.Minute || cfg.tokenCipher != nil {
		t.Errorf("defaults: %v %v %v", cfg.engineInterval, cfg.tokenCipher, err)
	}
}

// `adboost import` seals a source's access_token with TOKEN_ENCRYPTION_KEY.
func TestImportSealsPageTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	file := `{"users": [{"id": 100, "email": "ana@example.com"}],
	  "sources": [{"id": 456, "user_id": 100, "platform": "network_a", "access_token": "imported-page-token"}]}`
	env := map[string]string{"DATABASE_URL": url, "TOKEN_ENCRYPTION_KEY": engineKey}
	if err := run(ctx, []string{"import", "-"}, envOf(env), strings.NewReader(file), io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	var sealed []byte
	if err := dbtest.NewPool(t, url).QueryRow(ctx, `SELECT access_token FROM source WHERE id = 456`).Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	cipher, _ := auth.NewTokenCipher(engineKey)
	if got, err := cipher.Open(sealed); err != nil || got != "imported-page-token" {
		t.Fatalf("stored token opens to %q, %v", got, err)
	}
}

// serve ends within its 15 s grace even while the engine's jobs hang on a
// network_a that does not answer.
func TestServeShutdownWithBusyEngine(t *testing.T) {
	t.Parallel()
	fake, env := engineWorld(t)
	env["ENGINE_INTERVAL"] = "1s"
	env["ADBOOST_ENV"] = "dev"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env["HTTP_ADDR"] = l.Addr().String()
	l.Close()
	fake.SetDelay(time.Minute) // every network_a call hangs until its caller gives up
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(env), nil, io.Discard, quiet()) }()
	for deadline := time.Now().Add(20 * time.Second); len(fake.Requests()) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the engine never called network_a")
		}
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve ended with %v", err)
		}
		t.Logf("serve ended %v after the signal", time.Since(start))
	case <-time.After(16 * time.Second):
		t.Fatal("serve did not end within its 15 s grace")
	}
}
