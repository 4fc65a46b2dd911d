package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth"
	"adboost/auth/networkafake"
)

// apiPrefix is the version prefix of the fake network_a's base URL.
const apiPrefix = "/v25.0"

// maxPosts bounds Config.Posts: the engine reads at most 500 posts of a page
// in a cycle, so more could not all be boosted.
const maxPosts = 500

// Config is one run of the benchmark.
type Config struct {
	Ns       []int         // the numbers of campaigns, one round each
	Posts    int           // qualifying posts on each page
	Delay    time.Duration // how long the fake network_a takes to answer each request
	Adboost  string        // the adboost binary to migrate with and run `engine`
	Server   string        // maintenance connection on which Database is dropped and made again for every N
	Database string        // the benchmark's own database on Server

	// DatabaseURL is a ready database without users, migrated or not, to
	// use as is instead of Database (with one N only): the harness's test
	// gets one from db/dbtest and so never drops or creates databases.
	DatabaseURL string

	Workers, Calls string    // ENGINE_WORKERS and ENGINE_CALLS for the engine; "" leaves the engine's defaults
	ShareB         float64   // the share of campaigns that also name a network_b account
	Progress       io.Writer // a line per step as the run goes; nil: none
}

// check answers an error naming the first setting that cannot work.
func (c Config) check() error {
	switch {
	case len(c.Ns) == 0:
		return errors.New("no N: give at least one number of campaigns")
	case c.Posts < 1 || c.Posts > maxPosts:
		return fmt.Errorf("posts %d: a page has 1 to %d posts", c.Posts, maxPosts)
	case c.Delay < 0:
		return fmt.Errorf("delay %v is negative", c.Delay)
	case c.Adboost == "":
		return errors.New("no adboost binary")
	case c.ShareB < 0 || c.ShareB > 1:
		return fmt.Errorf("share-b %v is not between 0 and 1", c.ShareB)
	case c.DatabaseURL != "" && len(c.Ns) != 1:
		return errors.New("a ready database takes one N only")
	case c.DatabaseURL == "" && (c.Server == "" || c.Database == ""):
		return errors.New("no database: give a server and a database name, or a ready database")
	}
	for _, n := range c.Ns {
		if n < 1 {
			return fmt.Errorf("N %d: at least one campaign", n)
		}
	}
	for name, v := range map[string]string{"workers": c.Workers, "calls": c.Calls} {
		if n, err := strconv.Atoi(v); v != "" && (err != nil || n < 1) {
			return fmt.Errorf("%s %q is not a positive integer", name, v)
		}
	}
	return nil
}

// Result is what one engine cycle of one round cost: a row of the table.
type Result struct {
	N     int    // campaigns
	Cycle string // "first" (every post boosted), "steady" (nothing new) or "steady again"
	Wall  time.Duration
	Exit  int // adboost engine's exit code

	AdsCreated             int // ads the cycle created on network_a
	Campaigns, AdSets, Ads int // network_a's campaigns, ad sets and ads after the cycle
	BoostedPosts           int // rows of boosted_post after the cycle
	Requests, Calls        int64
	PGTime                 time.Duration // pg_stat_database.active_time of the benchmark database
	PeakRSSKiB             int64         // the engine process's maximum resident set size
}

// RequestsPerCampaign is the HTTP requests to network_a per campaign.
func (r Result) RequestsPerCampaign() float64 { return float64(r.Requests) / float64(r.N) }

// CallsPerCampaign is the network_a calls per campaign, a batch counting
// each of its entries.
func (r Result) CallsPerCampaign() float64 { return float64(r.Calls) / float64(r.N) }

// Run runs a round for every N of cfg, writes the table of all cycles to w
// and answers their results. It stops at the first round that fails (an
// engine exit other than 0, or a count that differs from the data set) and
// then answers the results so far, which the table also holds.
func Run(ctx context.Context, cfg Config, w io.Writer) ([]Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	cipher, err := auth.NewTokenCipher(tokenKey)
	if err != nil {
		return nil, err
	}
	var results []Result
	for _, n := range cfg.Ns {
		rs, err := runRound(ctx, cfg, cipher, n)
		results = append(results, rs...)
		if err != nil {
			err = fmt.Errorf("N=%d: %w", n, err)
			printTable(w, results)
			return results, err
		}
	}
	printTable(w, results)
	return results, nil
}

// round is the world of one N: its database, the fake network_a behind its
// counter, and a connection that reads PostgreSQL's statistics.
type round struct {
	cfg    Config
	n      int
	dbURL  string
	dbName string
	stats  *pgx.Conn
	fake   *networkafake.Fake
	apiURL string
}

// runRound makes the world of n campaigns and measures a first cycle, which
// boosts every post, and a steady one, which has nothing new to do.
func runRound(ctx context.Context, cfg Config, cipher *auth.TokenCipher, n int) ([]Result, error) {
	r := &round{cfg: cfg, n: n, dbURL: cfg.DatabaseURL}
	start := time.Now()
	statsURL := cfg.DatabaseURL
	if r.dbURL == "" {
		var err error
		if r.dbURL, err = freshDatabase(ctx, cfg.Server, cfg.Database); err != nil {
			return nil, err
		}
		statsURL = cfg.Server
	}
	pc, err := pgx.ParseConfig(r.dbURL)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	r.dbName = pc.Database
	if out, err := r.adboost(ctx, "migrate", "up"); err != nil || out.exit != 0 {
		return nil, out.failure("adboost migrate up", err)
	}
	if err := seedDatabase(ctx, r.dbURL, cipher, n, cfg.ShareB); err != nil {
		return nil, err
	}
	r.fake = networkafake.New()
	seedFake(r.fake, n, cfg.Posts, time.Now(), cfg.ShareB)
	r.fake.SetDelay(cfg.Delay)
	// The fake keeps no list of the calls (200,000 creates), only counts.
	r.fake.SetRecording(false)
	srv := httptest.NewServer(r.fake)
	defer srv.Close()
	r.apiURL = srv.URL + apiPrefix
	if r.stats, err = pgx.Connect(ctx, statsURL); err != nil {
		return nil, err
	}
	defer r.stats.Close(context.WithoutCancel(ctx))
	nB := countB(n, cfg.ShareB)
	fmt.Fprintf(cfg.Progress, "N=%d: %d campaigns (%d with a network_b account), %d posts a page and media an account, network_a delay %v: ready in %.1f s\n",
		n, n, nB, cfg.Posts, cfg.Delay, time.Since(start).Seconds())

	var results []Result
	// measure runs a cycle and keeps its row when it was measured, also
	// when the cycle then fails.
	measure := func(name string) (Result, error) {
		res, err := r.cycle(ctx, name)
		if res.N != 0 {
			results = append(results, res)
		}
		return res, err
	}
	first, err := measure("first")
	if err != nil {
		return results, err
	}
	// One ad set per campaign and one more per network_b account; one ad
	// and one boosted post per post and per media.
	sets, want := n+nB, (n+nB)*cfg.Posts
	if first.Campaigns != n || first.AdSets != sets || first.Ads != want || first.BoostedPosts != want {
		return results, fmt.Errorf("first cycle: network_a has %d campaigns, %d ad sets, %d ads and boosted_post %d rows; want %d, %d, %d, %d",
			first.Campaigns, first.AdSets, first.Ads, first.BoostedPosts, n, sets, want, want)
	}
	steady, err := measure("steady")
	if err != nil {
		return results, err
	}
	if steady.AdsCreated != 0 {
		return results, fmt.Errorf("steady cycle: %d new ads, want none", steady.AdsCreated)
	}
	// The first steady cycle records what network_a's review said of every
	// new ad (the fake approves them at once); the next has nothing to write.
	again, err := measure("steady again")
	if err != nil {
		return results, err
	}
	if again.AdsCreated != 0 {
		return results, fmt.Errorf("steady cycle again: %d new ads, want none", again.AdsCreated)
	}
	return results, nil
}

// cycle runs `adboost engine` once and measures it: wall time, exit code,
// peak RSS, network_a's requests and calls, the ads it created and
// PostgreSQL's active time. An exit other than 0 is an error that quotes the
// engine's last lines; a cycle that could not be measured (adboost did not
// run, PostgreSQL did not answer) answers a zero Result.
func (r *round) cycle(ctx context.Context, name string) (Result, error) {
	pgBefore, err := r.activeTime(ctx)
	if err != nil {
		return Result{}, err
	}
	reqBefore, callsBefore := r.fake.Counts()
	_, _, adsBefore := r.objects()

	out, err := r.adboost(ctx, "engine")
	if err != nil {
		return Result{}, out.failure("adboost engine", err)
	}
	pgAfter, err := r.activeTime(ctx)
	if err != nil {
		return Result{}, err
	}
	reqAfter, callsAfter := r.fake.Counts()
	res := Result{
		N: r.n, Cycle: name, Wall: out.wall, Exit: out.exit, PeakRSSKiB: out.maxRSSKiB,
		Requests: int64(reqAfter - reqBefore), Calls: int64(callsAfter - callsBefore), PGTime: pgAfter - pgBefore,
	}
	res.Campaigns, res.AdSets, res.Ads = r.objects()
	res.AdsCreated = res.Ads - adsBefore
	if res.BoostedPosts, err = r.boostedPosts(ctx); err != nil {
		return res, err
	}
	fmt.Fprintf(r.cfg.Progress, "N=%d: %s cycle: %.1f s, exit %d, %d ads created, %d requests, %.1f calls a campaign\n",
		r.n, name, res.Wall.Seconds(), res.Exit, res.AdsCreated, res.Requests, res.CallsPerCampaign())
	if out.exit != 0 {
		return res, out.failure(name+" cycle: adboost engine", nil)
	}
	return res, nil
}

// objects counts the campaigns, ad sets and ads on the fake network_a.
func (r *round) objects() (campaigns, adSets, ads int) {
	for _, o := range r.fake.Objects("") {
		switch o.Kind {
		case "campaign":
			campaigns++
		case "adset":
			adSets++
		case "ad":
			ads++
		}
	}
	return campaigns, adSets, ads
}

// boostedPosts counts the rows of boosted_post, on a connection of its own
// that is closed before the next cycle.
func (r *round) boostedPosts(ctx context.Context) (int, error) {
	conn, err := pgx.Connect(ctx, r.dbURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM boosted_post`).Scan(&n)
	return n, err
}

// settleTimeout bounds how long activeTime waits for the database's other
// sessions to end and their statistics to arrive.
const settleTimeout = 10 * time.Second

// activeTime answers the time PostgreSQL has spent running statements for
// the benchmark database's client sessions (pg_stat_database.active_time).
// A session adds its time as it ends, after its client is gone, so
// activeTime first waits until no other client session is connected to the
// database and the value has stopped moving (at most settleTimeout).
func (r *round) activeTime(ctx context.Context) (time.Duration, error) {
	deadline := time.Now().Add(settleTimeout)
	prev := -1.0
	for {
		if _, err := r.stats.Exec(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
			return 0, err
		}
		var ms float64
		var others int
		err := r.stats.QueryRow(ctx, `SELECT coalesce(d.active_time, 0),
			(SELECT count(*) FROM pg_stat_activity AS a
			 WHERE a.datname = d.datname AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid())
			FROM pg_stat_database AS d WHERE d.datname = $1`, r.dbName).Scan(&ms, &others)
		if err != nil {
			return 0, fmt.Errorf("reading pg_stat_database: %w", err)
		}
		if (others == 0 && ms == prev) || time.Now().After(deadline) {
			return time.Duration(ms * float64(time.Millisecond)), nil
		}
		prev = -1
		if others == 0 {
			prev = ms
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// process is how one adboost process went.
type process struct {
	exit      int
	wall      time.Duration
	maxRSSKiB int64
	output    *tail
}

// failure is the error of a process that could not run (err) or exited
// other than 0, with its last lines of output.
func (o process) failure(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%s exited %d; its last lines:\n%s", what, o.exit, o.output.lastLines(20))
}

// adboost runs the adboost binary with args in the round's environment
// (DATABASE_URL, NETWORK_A_API_URL, TOKEN_ENCRYPTION_KEY, LOG_LEVEL=warn,
// ENGINE_WORKERS and ENGINE_CALLS when set) and answers how it went. The
// error is for a process that could not run; an exit code is not one.
func (r *round) adboost(ctx context.Context, args ...string) (process, error) {
	vars := map[string]string{
		"DATABASE_URL":         r.dbURL,
		"NETWORK_A_API_URL":    r.apiURL,
		"TOKEN_ENCRYPTION_KEY": tokenKey,
		"LOG_LEVEL":            "warn",
	}
	if r.cfg.Workers != "" {
		vars["ENGINE_WORKERS"] = r.cfg.Workers
	}
	if r.cfg.Calls != "" {
		vars["ENGINE_CALLS"] = r.cfg.Calls
	}
	out := process{output: &tail{max: 64 << 10}}
	cmd := exec.CommandContext(ctx, r.cfg.Adboost, args...)
	cmd.Env = childEnv(vars)
	cmd.Stdout, cmd.Stderr = out.output, out.output
	// Interrupted, adboost gets the signal `serve` and `engine` end on.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 20 * time.Second
	start := time.Now()
	err := cmd.Start()
	if err != nil {
		return out, err
	}
	peak := watchPeakRSS(cmd.Process.Pid)
	err = cmd.Wait()
	out.wall = time.Since(start)
	out.maxRSSKiB = peak()
	if cmd.ProcessState == nil {
		return out, err
	}
	out.exit = cmd.ProcessState.ExitCode()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = nil
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return out, err
}

// childEnv is this process's environment with vars set, and without any
// other ENGINE_ variable, so that a setting of the caller's shell does not
// change what is measured.
func childEnv(vars map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ours := vars[k]; ours || strings.HasPrefix(k, "ENGINE_") {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// freshDatabase drops the database name on server (closing its sessions)
// and makes it again, empty; it answers its URL.
func freshDatabase(ctx context.Context, server, name string) (string, error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", fmt.Errorf("server URL: %w", err)
	}
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// watchPeakRSS reads the process's peak resident memory (VmHWM of
// /proc/PID/status, KiB) every 50 ms until the answered function is called,
// which answers the last value read. The rusage of a waited child is no
// measure on Linux: a child started with vfork counts this process's memory
// until it executes the program.
func watchPeakRSS(pid int) func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	read := func() {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				if kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64); err == nil && kib > peak.Load() {
					peak.Store(kib)
				}
			}
		}
	}
	go func() {
		defer close(stopped)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}
