// Package boost is the boosting engine: for every
// running campaign it finds the new posts of the campaign's network_a page
// that meet the campaign's rules, boosts each once as an ad on network_a,
// keeps the network_a campaign and ad set in step with the campaign
// (budget, bid, targeting, end date, pause and resume), and reads its ads'
// statistics.
//
// One campaign's work (Engine.Campaign) is the unit: `adboost engine` runs
// it for every campaign of a cycle (Engine.Cycle), `adboost serve` as River
// jobs (Jobs), both with Config.Workers campaigns in flight. A campaign's
// work costs what changed: a steady campaign makes two calls (its posts
// since the oldest age the rules can still boost, and its ads' `level=ad`
// statistics, at once) and a few statements; reach reads and creates go
// out together. All calls go through one network_a client
// (adboost/auth/networka) that batches the calls of every campaign in
// flight, at most Config.Calls requests at a time, and honours network_a's
// rate limits, kept in PostgreSQL for every instance.
//
// A campaign is worked on by one engine at a time: each engine process holds
// the campaigns' locks in one database session of its own (locker), so a
// process that dies releases them at once. Every create call is recorded
// (network_a_attempt, committed) before it is made, so that a call whose
// answer was lost is found by name afterwards instead of being made twice.
//
// What it sends is what network_a takes today: forms; a campaign that
// says its budgets live on its ad sets and names its special ad categories
// (with their countries); ad sets with the Advantage audience flag, the
// destination and page of an engagement goal, cities by network_a's own
// keys (looked up once with /search and kept in network_a_city for every
// campaign; an unknown city is needs_setup), no network_b placement for a
// page without a linked network_b account, and, for targeting that reaches
// the EU, the DSA beneficiary and payor (the campaign's own, else the
// page's name and the billing details' company or full name; needs_setup
// naming the field when one is missing and the ad account has no default);
// post ads with the page's network_b account when their ad set may deliver
// there, media ads with the linked page. A refusal is shown in network_a's
// own words (error_user_title: error_user_msg), its code, subcode and
// trace id kept in the history; an ad create's refusal is the post's own
// (post_refused) only for the subcodes network_a gives about the post, any
// other is the campaign's (refused) and the post stays a candidate. The
// ads' reviews are written to their posts as they change; a disapproved ad
// stops its post with network_a's reason.
//
// Each campaign's work ends in a state (state.go), answered on
// every BoostedPage, with a history entry per change and one mail per user
// and cycle for the states that need the user (a mail job of db/mailer). A
// campaign that should stop spending is paused by a unit of work of its own
// (Engine.Pause), enqueued by the API in the transaction that stops it.
//
// The files: boost.go the engine and its cycle; campaign.go one campaign's
// state machine (pause, resume, the ad set kept in step, delivery); state.go
// the states and their mails; posts.go the posts and the rules; ads.go the
// campaign, ad set and ads made on network_a; insights.go the statistics;
// locker.go and throttle.go what engines share through PostgreSQL; river.go
// the River jobs.
package boost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"golang.org/x/sync/singleflight"

	"adboost/auth"
	"adboost/auth/networka"
	"adboost/db"
)

// DefaultPostMaxAge is ENGINE_POST_MAX_AGE's default: how old a post may be
// and still be boosted.
const DefaultPostMaxAge = 168 * time.Hour

// MaxPosts is how many of a page's newest posts a cycle reads at most.
const MaxPosts = 500

// DefaultWorkers is ENGINE_WORKERS' default: campaigns in flight per process.
const DefaultWorkers = 64

// DefaultCalls is ENGINE_CALLS' default: network_a requests in flight per
// process.
const DefaultCalls = 16

// CallTimeout bounds one request to network_a (a batch is one).
const CallTimeout = 20 * time.Second

// Config configures an Engine.
type Config struct {
	NetworkAURL string            // NETWORK_A_API_URL
	Cipher      *auth.TokenCipher // opens the stored tokens (TOKEN_ENCRYPTION_KEY)
	PostMaxAge  time.Duration     // ENGINE_POST_MAX_AGE; 0 = DefaultPostMaxAge
	CallTimeout time.Duration     // bounds each request to network_a; 0 = CallTimeout
	Workers     int               // ENGINE_WORKERS; 0 = DefaultWorkers
	Calls       int               // ENGINE_CALLS; 0 = DefaultCalls
	// Now is the engine's clock (the age of posts, the hours and days of
	// the rules); nil = time.Now.
	Now func() time.Time
	// Jobs is the River client that Cycle inserts its mails' jobs with
	// (reminders, notices): the `engine` command's. Under `serve` the
	// engine's River jobs (Jobs) insert with the client that works them.
	Jobs *river.Client[pgx.Tx]
}

// Engine does the work of the boosting engine. It is safe for concurrent
// use; Close ends it.
type Engine struct {
	pool      *pgxpool.Pool
	api       *networka.Client
	cipher    *auth.TokenCipher
	maxAge    time.Duration
	workers   int
	log       *slog.Logger
	locks     *locker
	throttles *throttleStore
	// inFlight is how long after its create was sent an attempt may still be
	// on its way (a batch outlives its caller up to the call time-out).
	inFlight time.Duration
	now      func() time.Time
	// cityKeys are network_a's keys of the cities this engine found lately
	// (adboost's key → network_a's), and citySearch joins the works that look the same city up at
	// once: one search per city for all the campaigns of a cycle. Every
	// instance keeps the keys in PostgreSQL too (network_a_city).
	cityKeys   *expirable.LRU[string, string]
	citySearch singleflight.Group
	jobs       *river.Client[pgx.Tx] // Config.Jobs
}

// cityKeysKept bounds the cities an engine remembers, and for how long: the
// table network_a_city keeps them for good.
const (
	cityKeysKept = 10_000
	cityKeysFor  = time.Hour
)

// New makes an engine over the database.
func New(pool *pgxpool.Pool, cfg Config, log *slog.Logger) (*Engine, error) {
	if cfg.Cipher == nil {
		return nil, errors.New("engine: TOKEN_ENCRYPTION_KEY is not set")
	}
	if cfg.PostMaxAge <= 0 {
		cfg.PostMaxAge = DefaultPostMaxAge
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.Calls <= 0 {
		cfg.Calls = DefaultCalls
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = CallTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	throttles := &throttleStore{pool: pool, log: log}
	api, err := networka.New(cfg.NetworkAURL, networka.Options{
		Timeout:    cfg.CallTimeout,
		Batch:      true,
		Calls:      cfg.Calls,
		OnThrottle: throttles.record,
	})
	if err != nil {
		return nil, err
	}
	throttles.api = api
	return &Engine{pool: pool, api: api, cipher: cfg.Cipher, maxAge: cfg.PostMaxAge, workers: cfg.Workers,
		log: log, locks: newLocker(pool), throttles: throttles, inFlight: cfg.CallTimeout + 30*time.Second, now: cfg.Now,
		cityKeys: expirable.NewLRU[string, string](cityKeysKept, nil, cityKeysFor), jobs: cfg.Jobs}, nil
}

// Close ends the engine's batching and its lock session. Work still under
// way fails.
func (e *Engine) Close() {
	e.api.Close()
	e.locks.close()
}

// Workers is how many campaigns the engine works on at once.
func (e *Engine) Workers() int { return e.workers }

// Due answers the campaigns of one cycle (EngineCampaignDue).
func (e *Engine) Due(ctx context.Context) ([]int64, error) {
	return db.New(e.pool).EngineCampaignDue(ctx)
}

// CycleError names the campaigns whose work failed in a cycle.
type CycleError struct {
	Failed map[int64]error
}

func (e *CycleError) Error() string {
	ids := make([]int64, 0, len(e.Failed))
	for id := range e.Failed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = e.Failed[id].Error() // "campaign N: …" (Campaign)
	}
	return fmt.Sprintf("engine: %d campaign(s) failed: %s", len(ids), strings.Join(parts, "; "))
}

// Cycle enqueues the reminders due (SendReminders), runs one cycle over
// every due campaign, Workers at a time, then enqueues the mails about the
// states that need the users (SendNotices), both with Config.Jobs, and
// answers a *CycleError naming the campaigns it could not process (failed,
// or being worked on by another engine).
func (e *Engine) Cycle(ctx context.Context) error {
	if e.jobs == nil {
		return errors.New("engine: Config.Jobs is not set: a cycle inserts its mails' jobs with it")
	}
	e.remind(ctx, e.jobs) // the reminders of network_a connections that end soon (reminders.go)
	ids, err := e.Due(ctx)
	if err != nil {
		return fmt.Errorf("engine: listing the campaigns: %w", err)
	}
	var mu sync.Mutex
	failed := map[int64]error{}
	work := make(chan int64)
	var wg sync.WaitGroup
	for range min(e.workers, max(len(ids), 1)) {
		wg.Go(func() {
			for id := range work {
				if err := e.Campaign(ctx, id); err != nil {
					mu.Lock()
					failed[id] = err
					mu.Unlock()
				}
			}
		})
	}
feed:
	for _, id := range ids {
		select {
		case work <- id:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if _, err := e.SendNotices(ctx, e.jobs); err != nil {
		return fmt.Errorf("engine: the mails of the cycle: %w", err)
	}
	if len(failed) > 0 {
		return &CycleError{Failed: failed}
	}
	return nil
}

// ErrLocked is a campaign another engine is working on right now.
var ErrLocked = errors.New("another engine is working on the campaign")

// Campaign does one campaign's work of a cycle and records the state it
// found. An error means the work should be retried later (network_a down,
// the database failing) or, ErrLocked, that another engine is working on
// the campaign right now; a campaign that cannot run (no token, no ad
// account, a refusal) answers nil, its state saying why.
func (e *Engine) Campaign(ctx context.Context, id int64) error {
	return e.locked(ctx, id, func(ctx context.Context, w *work) error { return w.run(ctx) })
}

// Pause carries out the pause of a campaign that should not spend
// (deactivated, ended, deleted with its source): its own unit of work,
// enqueued by `save` and `delete-source` in their transaction and by
// login-sn when it unblocks one. A campaign that runs again meanwhile, or
// that has nothing to pause, needs nothing.
func (e *Engine) Pause(ctx context.Context, id int64) error {
	return e.locked(ctx, id, func(ctx context.Context, w *work) error {
		ok, err := w.load(ctx)
		if !ok || err != nil || w.c.Runs {
			return err
		}
		return w.pause(ctx)
	})
}

// locked runs a campaign's work under its lock, then records the state the
// work found.
func (e *Engine) locked(ctx context.Context, id int64, do func(ctx context.Context, w *work) error) error {
	held, locked, err := e.locks.lock(id)
	if err != nil {
		return fmt.Errorf("campaign %d: %w", id, err)
	}
	if !locked {
		e.log.Debug("engine: campaign is being worked on by another engine", "campaign", id)
		return fmt.Errorf("campaign %d: %w", id, ErrLocked)
	}
	defer e.locks.unlock(id)
	// The work ends when the lock session is lost: another engine may take
	// the campaign from then on.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(held, func() { cancel(errLockLost) })
	defer stop()

	e.throttles.refresh(ctx)
	w := &work{e: e, q: db.New(e.pool), id: id, log: e.log.With("campaign", id), now: e.now()}
	err = do(ctx, w)
	if err != nil && networka.TokenRefused(err) {
		err = w.refused(ctx, err)
	}
	if rerr := w.record(ctx); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
			err = fmt.Errorf("%w (%w)", err, cause)
		}
		return fmt.Errorf("campaign %d: %w", id, err)
	}
	return nil
}
