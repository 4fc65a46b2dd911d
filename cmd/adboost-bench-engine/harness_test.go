package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"adboost/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// buildAdboost builds the adboost binary into the test's temporary directory.
func buildAdboost(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command builds adboost for the harness: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "adboost")
	if out, err := exec.CommandContext(t.Context(), goBin, "build", "-o", bin, "adboost/cmd/adboost").CombinedOutput(); err != nil {
		t.Fatalf("go build adboost: %v\n%s", err, out)
	}
	return bin
}

// TestRun runs the benchmark on 20 campaigns of 20 posts with a fast
// network_a: the first cycle boosts every post (one network_a campaign and ad
// set per campaign, one ad and one boosted post per post), in batches; the
// steady cycles create nothing and cost at most 3 calls a campaign; the
// table has a row per cycle.
func TestRun(t *testing.T) {
	t.Parallel()
	const n, posts = 20, 20
	var table, progress bytes.Buffer
	results, err := Run(t.Context(), Config{
		Ns: []int{n}, Posts: posts, Delay: 5 * time.Millisecond,
		Adboost: buildAdboost(t), DatabaseURL: dbtest.NewURL(t), Progress: &progress,
	}, &table)
	t.Logf("progress:\n%s\ntable:\n%s", progress.String(), table.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("%d results, want a first and two steady cycles", len(results))
	}
	first, steady, again := results[0], results[1], results[2]
	if first.N != n || first.Cycle != "first" || first.Exit != 0 || first.AdsCreated != n*posts ||
		first.Campaigns != n || first.AdSets != n || first.Ads != n*posts || first.BoostedPosts != n*posts {
		t.Errorf("first cycle: %+v; want exit 0, %d ads created, %d campaigns and ad sets, %d boosted posts", first, n*posts, n, n*posts)
	}
	if first.Wall <= 0 || first.PeakRSSKiB <= 0 || first.PGTime <= 0 || first.Requests <= 0 {
		t.Errorf("first cycle: measures missing: %+v", first)
	}
	if first.Requests >= first.Calls {
		t.Errorf("first cycle: %d requests for %d calls; want the calls batched (fewer requests than calls)", first.Requests, first.Calls)
	}
	if steady.N != n || steady.Cycle != "steady" || steady.Exit != 0 || steady.AdsCreated != 0 || steady.Ads != n*posts {
		t.Errorf("steady cycle: %+v; want exit 0 and no new ad", steady)
	}
	if got := steady.CallsPerCampaign(); got > 3 {
		t.Errorf("steady cycle: %.1f network_a calls a campaign (%d in all), want at most 3", got, steady.Calls)
	}
	if again.Cycle != "steady again" || again.Exit != 0 || again.AdsCreated != 0 || again.CallsPerCampaign() > 3 {
		t.Errorf("steady cycle again: %+v; want exit 0, no new ad, at most 3 calls a campaign", again)
	}
	for _, row := range []string{"| 20 | first | ", "| 20 | steady | ", "| 20 | steady again | "} {
		if !strings.Contains(table.String(), row) {
			t.Errorf("the table has no row %q:\n%s", row, table.String())
		}
	}
}

// TestConfigCheck refuses settings that cannot make a run.
func TestConfigCheck(t *testing.T) {
	t.Parallel()
	ok := Config{Ns: []int{10}, Posts: 20, Adboost: "adboost", Server: "postgres://x/postgres", Database: "b"}
	if err := ok.check(); err != nil {
		t.Fatalf("a good config: %v", err)
	}
	for name, change := range map[string]func(c *Config){
		"no N":                   func(c *Config) { c.Ns = nil },
		"N 0":                    func(c *Config) { c.Ns = []int{10, 0} },
		"no posts":               func(c *Config) { c.Posts = 0 },
		"too many posts":         func(c *Config) { c.Posts = maxPosts + 1 },
		"negative delay":         func(c *Config) { c.Delay = -time.Second },
		"share-b over 1":         func(c *Config) { c.ShareB = 1.5 },
		"workers not a number":   func(c *Config) { c.Workers = "many" },
		"calls 0":                func(c *Config) { c.Calls = "0" },
		"ready database, two Ns": func(c *Config) { c.DatabaseURL = "postgres://x/y"; c.Ns = []int{1, 2} },
		"no database":            func(c *Config) { c.Database = "" },
	} {
		c := ok
		change(&c)
		if err := c.check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if got, err := parseNs("20, 100,10000"); err != nil || len(got) != 3 || got[0] != 20 || got[1] != 100 || got[2] != 10000 {
		t.Errorf("parseNs: %v %v", got, err)
	}
	for _, bad := range []string{"", "10,", "-5", "1e3"} {
		if _, err := parseNs(bad); err == nil {
			t.Errorf("parseNs(%q) accepted", bad)
		}
	}
}
