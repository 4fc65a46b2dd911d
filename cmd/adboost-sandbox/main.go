// Command adboost-sandbox serves a sandbox network_a on a local port: the
// Graph-style API of sign-in and the boosting engine (auth/networkafake) over a seeded
// world that moves. Pages keep publishing posts (some with the demo data
// set's hashtags and keywords) that gain organic reach, the network_b
// accounts linked to the pages start with recent media (the demo account
// demostudiofit's for the demo campaigns 1001 and 1006), and every ad
// created through the API, of a post or of a media, gains impressions,
// clicks and spend. Point adboost at it
// with NETWORK_A_API_URL=http://127.0.0.1:8090/v25.0; `make run` does.
//
// Some of its world is broken on purpose, so that the engine's states of
// the engine reports can be seen: the no-payment user's ad account has no payment
// method (every create is refused: `refused`), and the sandbox user's page
// LostPageID loses its page token -page-lost-after the start (`page_lost`).
// The declined user signed in without granting DeclinedPermission, which
// boosting needs. The demo user has two ad accounts, in euros in Prague and
// in dollars in New York.
//
// The sandbox's app (-app-id, -app-secret) exchanges a sign-in token for a
// long-lived one, which ends 60 days after the exchange by the sandbox's
// clock; the page tokens read with it do not end. The fixed sign-in tokens
// do not end either, nor do the page tokens read with them.
//
// Usage:
//
//	adboost-sandbox [-addr 127.0.0.1:8090] [-token T] [-demo-token T] [-nopay-token T] [-declined-token T]
//	                [-app-id ID] [-app-secret S] [-post-every 5s] [-tick 1s]
//	                [-page-lost-after 2m] [-seed N] [-state FILE] [-quiet]
//
// Each flag defaults to an environment variable: SANDBOX_ADDR,
// SANDBOX_USER_TOKEN, SANDBOX_DEMO_TOKEN, SANDBOX_NOPAY_TOKEN,
// SANDBOX_DECLINED_TOKEN, SANDBOX_APP_ID, SANDBOX_APP_SECRET,
// SANDBOX_POST_EVERY, SANDBOX_TICK, SANDBOX_PAGE_LOST_AFTER, SANDBOX_SEED,
// SANDBOX_STATE. With -state the world (posts, ads and their insights, the
// lost page token, the exchanged tokens) survives a restart, as network_a's would: adboost's
// database keeps referring to its ads.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"adboost/auth/networka"
)

// config is the sandbox's configuration.
type config struct {
	addr          string
	userToken     string
	demoToken     string
	noPayToken    string
	declinedToken string
	appID         string
	appSecret     string
	postEvery     time.Duration
	tick          time.Duration
	pageLostAfter time.Duration // LostPageID loses its token this long after the start; 0 = never
	seed          uint64
	quietPaths    bool   // no log line per request
	state         string // file the world is kept in across restarts; "" = none
}

// saveEvery is how often the world is saved to the state file (and at exit).
const saveEvery = 30 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "adboost-sandbox:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "adboost-sandbox: %v (is another sandbox running? set -addr or SANDBOX_ADDR)\n", err)
		os.Exit(1)
	}
	ticker := time.NewTicker(cfg.tick)
	defer ticker.Stop()
	if err := run(ctx, cfg, ln, time.Now(), ticker.C, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "adboost-sandbox:", err)
		os.Exit(1)
	}
}

// parseFlags reads the flags, each defaulting to its environment variable.
func parseFlags(args []string, getenv func(string) string, out io.Writer) (config, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("adboost-sandbox", flag.ContinueOnError)
	fs.SetOutput(out)
	var cfg config
	var postEvery, tick, pageLost, seed string
	fs.StringVar(&cfg.addr, "addr", env("SANDBOX_ADDR", "127.0.0.1:8090"), "listen address (SANDBOX_ADDR)")
	fs.StringVar(&cfg.userToken, "token", env("SANDBOX_USER_TOKEN", DefaultUserToken), "the sandbox user's network_a access token (SANDBOX_USER_TOKEN)")
	fs.StringVar(&cfg.demoToken, "demo-token", env("SANDBOX_DEMO_TOKEN", DefaultDemoToken), "the demo user's network_a access token, for login-sn (SANDBOX_DEMO_TOKEN)")
	fs.StringVar(&cfg.noPayToken, "nopay-token", env("SANDBOX_NOPAY_TOKEN", DefaultNoPayToken), "the no-payment user's network_a access token: its ad account has no payment method (SANDBOX_NOPAY_TOKEN)")
	fs.StringVar(&cfg.declinedToken, "declined-token", env("SANDBOX_DECLINED_TOKEN", DefaultDeclinedToken), "the declined user's network_a access token: the user declined "+DeclinedPermission+" (SANDBOX_DECLINED_TOKEN)")
	fs.StringVar(&cfg.appID, "app-id", env("SANDBOX_APP_ID", DefaultAppID), "the id of the app that may exchange tokens: adboost's NETWORK_A_APP_ID (SANDBOX_APP_ID)")
	fs.StringVar(&cfg.appSecret, "app-secret", env("SANDBOX_APP_SECRET", DefaultAppSecret), "the app's secret: adboost's NETWORK_A_APP_SECRET (SANDBOX_APP_SECRET)")
	fs.StringVar(&postEvery, "post-every", env("SANDBOX_POST_EVERY", "5s"), "a new post every this long, pages in turn; 0 = none (SANDBOX_POST_EVERY)")
	fs.StringVar(&tick, "tick", env("SANDBOX_TICK", "1s"), "how often reach and insights grow (SANDBOX_TICK)")
	fs.StringVar(&pageLost, "page-lost-after", env("SANDBOX_PAGE_LOST_AFTER", "2m"), "page "+LostPageID+" loses its page token this long after the start; 0 = never (SANDBOX_PAGE_LOST_AFTER)")
	fs.StringVar(&seed, "seed", env("SANDBOX_SEED", "1"), "seed of the world's randomness (SANDBOX_SEED)")
	fs.BoolVar(&cfg.quietPaths, "quiet", false, "no log line per request")
	fs.StringVar(&cfg.state, "state", env("SANDBOX_STATE", ""), "keep the world in this file across restarts; empty: a fresh world each start (SANDBOX_STATE)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var err error
	if cfg.postEvery, err = time.ParseDuration(postEvery); err != nil || (cfg.postEvery != 0 && cfg.postEvery < time.Second) {
		return cfg, fmt.Errorf("-post-every %q: want a duration of at least 1s, or 0", postEvery)
	}
	if cfg.tick, err = time.ParseDuration(tick); err != nil || cfg.tick < 10*time.Millisecond {
		return cfg, fmt.Errorf("-tick %q: want a duration of at least 10ms", tick)
	}
	if cfg.pageLostAfter, err = time.ParseDuration(pageLost); err != nil || cfg.pageLostAfter < 0 {
		return cfg, fmt.Errorf("-page-lost-after %q: want a duration, or 0 for never", pageLost)
	}
	if cfg.seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return cfg, fmt.Errorf("-seed %q: want a non-negative integer", seed)
	}
	if cfg.appID == "" || cfg.appSecret == "" {
		return cfg, fmt.Errorf("-app-id and -app-secret must not be empty")
	}
	tokens := []struct{ flag, token string }{{"-token", cfg.userToken}, {"-demo-token", cfg.demoToken},
		{"-nopay-token", cfg.noPayToken}, {"-declined-token", cfg.declinedToken}}
	for i, t := range tokens {
		if networka.CheckToken(t.token) != nil {
			return cfg, fmt.Errorf("%s: not a bearer token (letters, digits and -._~+/ only)", t.flag)
		}
		for _, u := range tokens[:i] {
			if u.token == t.token {
				return cfg, fmt.Errorf("%s and %s must differ", u.flag, t.flag)
			}
		}
	}
	return cfg, nil
}

// run serves the sandbox on ln until ctx ends, moving its world (seeded at
// start) at every tick.
func run(ctx context.Context, cfg config, ln net.Listener, start time.Time, ticks <-chan time.Time, out io.Writer) error {
	w := newWorld(start, cfg)
	log := slog.New(slog.NewTextHandler(out, nil))
	if cfg.state != "" {
		restored, err := w.load(cfg.state, start)
		switch {
		case err != nil:
			return fmt.Errorf("state: %w (delete the file to start afresh)", err)
		case restored:
			log.Info("sandbox world restored", "file", cfg.state)
		default:
			log.Info("a fresh sandbox world", "file", cfg.state)
		}
	}
	save := func() {
		if cfg.state == "" {
			return
		}
		if err := w.save(cfg.state); err != nil {
			log.Error("sandbox world not saved", "file", cfg.state, "err", err)
		}
	}
	lastSave := start
	base := "http://" + ln.Addr().String() + "/v25.0"
	fmt.Fprintf(out, `adboost-sandbox: network_a on %s
  NETWORK_A_API_URL=%s
  user token (Sam Sandbox, pages 7000001 Gym, 7000002 Café, 7000003 Getaways, 7000004 Pop-up Gym): %s
  demo user token (Dana Demo of "adboost demo", for login-sn):                                     %s
    (network_b account 3000101 demostudiofit has media for the demo campaigns 1001 #spinclass and 1006 #demostudio)
    (act_2000's minimum daily budget is %s €: the demo campaign 1006 at 8.00 € is refused, "Budget is too low")
    (ad accounts act_2000 "Demo Studio Prague", EUR, Europe/Prague, and act_2001 "Demo Studio New York", USD, America/New_York)
  ads of posts with %q are disapproved by network_a's review, with a reason
  no-payment user token (Nico Nopay, page 7000011 Boxing Club; act_3000 has no payment method):    %s
  declined user token (Dora Declined, page 7000021 Yoga Loft; declined %s):          %s
  %s
  app id %s (NETWORK_A_APP_ID; its secret, NETWORK_A_APP_SECRET, is in the README): exchanged tokens end after 60 days
  a new post every %v; reach and ad insights grow every %v
`, base, base, cfg.userToken, cfg.demoToken, fmt.Sprintf("%d.%02d", DemoMinDailyBudget/100, DemoMinDailyBudget%100), DisapprovedPhrase,
		cfg.noPayToken, DeclinedPermission, cfg.declinedToken, w.lostPageNote(), cfg.appID, cfg.postEvery, cfg.tick)

	var handler http.Handler = w.fake
	if !cfg.quietPaths {
		handler = logRequests(log, w.fake)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	for {
		select {
		case now := <-ticks:
			if w.Tick(now) {
				log.Info("sandbox page lost its token: its calls answer OAuthException 190", "page", LostPageID)
			}
			if now.Sub(lastSave) >= saveEvery {
				save()
				lastSave = now
			}
		case err := <-served:
			save()
			return err
		case <-ctx.Done():
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := srv.Shutdown(shutdown)
			save()
			return err
		}
	}
}

// logRequests logs each call's method, path (never the query: Graph-style
// paging URLs carry tokens) and status.
func logRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		log.Info("network_a", "method", r.Method, "path", r.URL.Path, "status", rec.status)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}
