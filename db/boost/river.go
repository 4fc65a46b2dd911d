package boost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"adboost/db"
)

// DefaultInterval is ENGINE_INTERVAL's default: how often `serve` runs a cycle.
const DefaultInterval = 5 * time.Minute

// MinInterval is the shortest interval between cycles: the periodic cycle
// job is unique per interval, and River keeps uniqueness by the second.
const MinInterval = time.Second

// CampaignJobTimeout bounds one campaign's work in a River job (500 posts
// and their reach, the ads, their statistics).
const CampaignJobTimeout = 10 * time.Minute

// CampaignJobMaxAttempts is how many times a campaign's job is tried (with
// River's exponential backoff) before the next cycles take over.
const CampaignJobMaxAttempts = 5

// unfinished are the job states in which a campaign's job counts as its one
// unit of work: a cycle enqueues no second job for a campaign while one is
// waiting, running or waiting for a retry.
var unfinished = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}

// Job kinds.
const (
	KindCycle    = "adboost_engine_cycle"
	KindCampaign = "adboost_engine_campaign"
	KindPause    = "adboost_engine_pause"
)

// PauseRetry is how soon a pause that network_a did not take is tried again.
const PauseRetry = 30 * time.Second

// PauseMaxAttempts is how many times a pause job is tried (an hour of
// retries); the cycles go on trying a campaign that is still `pausing`.
const PauseMaxAttempts = 120

// CycleArgs is the periodic job that starts a cycle: it enqueues one
// CampaignArgs job per due campaign. River enqueues it on its leader only.
type CycleArgs struct{}

// Kind is the job's kind.
func (CycleArgs) Kind() string { return KindCycle }

// CampaignArgs is one campaign's work in one cycle.
type CampaignArgs struct {
	CampaignID int64 `json:"campaign_id"`
}

// Kind is the job's kind.
func (CampaignArgs) Kind() string { return KindCampaign }

// PauseArgs is the pause of a campaign that should not spend: a unit of
// work of its own, outside the cycles.
type PauseArgs struct {
	CampaignID int64 `json:"campaign_id"`
}

// Kind is the job's kind.
func (PauseArgs) Kind() string { return KindPause }

// InsertOpts: pauses are not unique (a pause enqueued while an earlier one
// runs must run too; the campaign's lock serialises them).
func (PauseArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: PauseMaxAttempts}
}

// PauseQueue enqueues pauses. It is an insert-only River client: the API
// enqueues in its own transactions, and whichever engine runs works them.
type PauseQueue struct {
	client *river.Client[pgx.Tx]
}

// NewPauseQueue makes the queue of pauses over the database.
func NewPauseQueue(pool *pgxpool.Pool) (*PauseQueue, error) {
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return &PauseQueue{client: client}, nil
}

// EnqueuePausesTx enqueues the pauses of the campaigns in tx: they exist
// when tx commits, not before.
func (q *PauseQueue) EnqueuePausesTx(ctx context.Context, tx pgx.Tx, campaignIDs []int64) error {
	if len(campaignIDs) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, len(campaignIDs))
	for i, id := range campaignIDs {
		params[i] = river.InsertManyParams{Args: PauseArgs{CampaignID: id}}
	}
	_, err := q.client.InsertManyTx(ctx, tx, params)
	return err
}

// Migrate applies River's own migrations (its job tables), under a session
// lock so that instances starting at once take turns.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	q := db.New(conn)
	if err := q.EngineMigrationLock(ctx); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	defer q.EngineMigrationUnlock(context.WithoutCancel(ctx))
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	return nil
}

// Runner runs the engine on River: a periodic cycle job every interval, and
// one job per due campaign, at most one unfinished per campaign, retried
// with backoff when it fails.
type Runner struct {
	client   *river.Client[pgx.Tx]
	engine   *Engine
	interval time.Duration
	metrics  *metrics
}

// NewRunner makes the River client of the engine (not started): it works
// on the engine's Workers campaigns at once, runs a cycle every interval
// (none when interval is 0) and the pauses whenever they are enqueued. A campaign's work holds a
// database connection only for each statement, never while it waits for
// network_a, so the workers are not bound by the pool.
func NewRunner(pool *pgxpool.Pool, e *Engine, interval time.Duration, log *slog.Logger) (*Runner, error) {
	if interval < 0 || (interval > 0 && interval < MinInterval) {
		return nil, fmt.Errorf("engine: interval %s: want 0 (no cycle) or at least %s", interval, MinInterval)
	}
	r := &Runner{engine: e, interval: interval, metrics: newMetrics()}
	workersBundle := river.NewWorkers()
	river.AddWorker(workersBundle, &cycleWorker{r: r})
	river.AddWorker(workersBundle, &campaignWorker{r: r})
	river.AddWorker(workersBundle, &pauseWorker{r: r})
	addReminderWorker(workersBundle, e)
	var periodic []*river.PeriodicJob
	if interval > 0 {
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
			func() (river.JobArgs, *river.InsertOpts) {
				return CycleArgs{}, &river.InsertOpts{
					MaxAttempts: 1,
					UniqueOpts:  river.UniqueOpts{ByPeriod: interval},
				}
			},
			&river.PeriodicJobOpts{ID: KindCycle, RunOnStart: true}))
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		// River reports its job counts every few seconds at info: only its
		// warnings and errors reach the log.
		Logger: slog.New(minLevel{log.Handler(), slog.LevelWarn}).With("component", "river"),
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: e.Workers()}},
		// Jobs are short and many: fetch the next ones soon after a batch.
		FetchCooldown: 10 * time.Millisecond,
		Workers:       workersBundle,
		PeriodicJobs:  periodic,
	})
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	r.client = client
	r.metrics.client = client
	return r, nil
}

// Start starts working jobs; Stop ends them and closes the engine.
func (r *Runner) Start(ctx context.Context) error { return r.client.Start(ctx) }

// Stop waits for the jobs being worked until ctx ends, then cancels them
// (and waits 2 s more at most).
func (r *Runner) Stop(ctx context.Context) error {
	defer r.engine.Close()
	err := r.client.Stop(ctx)
	if ctx.Err() != nil {
		cancelCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		return r.client.StopAndCancel(cancelCtx)
	}
	return err
}

// Client is the River client (tests insert jobs and subscribe with it).
func (r *Runner) Client() *river.Client[pgx.Tx] { return r.client }

// enqueueChunk is how many jobs one insert carries.
const enqueueChunk = 5000

// EnqueueCycle enqueues one job per due campaign of the current cycle (what
// the periodic job does), except for a campaign whose job of an earlier
// cycle is still unfinished (a cycle that overran its interval). It answers
// how many jobs it inserted.
func (r *Runner) EnqueueCycle(ctx context.Context) (int, error) {
	ids, err := r.engine.Due(ctx)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	inserted := 0
	for chunk := range slices.Chunk(ids, enqueueChunk) {
		params := make([]river.InsertManyParams, len(chunk))
		for i, id := range chunk {
			params[i] = river.InsertManyParams{
				Args: CampaignArgs{CampaignID: id},
				InsertOpts: &river.InsertOpts{
					MaxAttempts: CampaignJobMaxAttempts,
					UniqueOpts:  river.UniqueOpts{ByArgs: true, ByState: unfinished},
				},
			}
		}
		res, err := r.client.InsertMany(ctx, params)
		if err != nil {
			return inserted, err
		}
		for _, x := range res {
			if !x.UniqueSkippedAsDuplicate {
				inserted++
			}
		}
	}
	return inserted, nil
}

type cycleWorker struct {
	river.WorkerDefaults[CycleArgs]
	r *Runner
}

// Work enqueues the reminders due, sends the mails about what the previous
// cycle found, then enqueues this cycle's campaigns.
func (w *cycleWorker) Work(ctx context.Context, job *river.Job[CycleArgs]) error {
	w.r.engine.remind(ctx)
	if _, err := w.r.engine.SendNotices(ctx); err != nil {
		w.r.engine.log.Error("engine: the mails of the last cycle", "err", err)
	}
	_, err := w.r.EnqueueCycle(ctx)
	return err
}

type campaignWorker struct {
	river.WorkerDefaults[CampaignArgs]
	r *Runner
}

func (w *campaignWorker) Timeout(*river.Job[CampaignArgs]) time.Duration { return CampaignJobTimeout }

func (w *campaignWorker) Work(ctx context.Context, job *river.Job[CampaignArgs]) error {
	err := w.r.engine.Campaign(ctx, job.Args.CampaignID)
	if errors.Is(err, ErrLocked) {
		return nil // another engine does this campaign's work now
	}
	w.r.metrics.done(err)
	if err != nil {
		w.r.engine.log.Warn("engine: campaign job failed; River retries it with backoff",
			"campaign", job.Args.CampaignID, "attempt", job.Attempt, "max_attempts", job.MaxAttempts, "err", err)
	}
	return err
}

type pauseWorker struct {
	river.WorkerDefaults[PauseArgs]
	r *Runner
}

func (w *pauseWorker) Timeout(*river.Job[PauseArgs]) time.Duration { return time.Minute }

// NextRetry tries a pause that network_a did not take again soon: the
// campaign may be spending.
func (w *pauseWorker) NextRetry(*river.Job[PauseArgs]) time.Time { return time.Now().Add(PauseRetry) }

func (w *pauseWorker) Work(ctx context.Context, job *river.Job[PauseArgs]) error {
	err := w.r.engine.Pause(ctx, job.Args.CampaignID)
	if errors.Is(err, ErrLocked) {
		// The campaign's work pauses it too; look again shortly.
		return river.JobSnooze(5 * time.Second)
	}
	if err != nil {
		w.r.engine.log.Warn("engine: pause failed; tried again soon",
			"campaign", job.Args.CampaignID, "attempt", job.Attempt, "err", err)
	}
	if w.r.interval == 0 {
		// No cycle sends the mails: the pauses do.
		if _, merr := w.r.engine.SendNotices(ctx); merr != nil {
			w.r.engine.log.Error("engine: the mails of a pause", "err", merr)
		}
	}
	return err
}

// pendingStates are the states of a job that still has to run.
var pendingStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable, rivertype.JobStateScheduled}

// minLevel passes on the records of at least its level.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.level && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.level}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.level}
}
