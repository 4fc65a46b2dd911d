package boost

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
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

// PauseJobs are the insert parameters of the pauses of the campaigns: the
// API inserts them in the transaction that stops the campaigns, and
// whichever engine runs works them.
func PauseJobs(campaignIDs []int64) []river.InsertManyParams {
	params := make([]river.InsertManyParams, len(campaignIDs))
	for i, id := range campaignIDs {
		params[i] = river.InsertManyParams{Args: PauseArgs{CampaignID: id}}
	}
	return params
}

// Jobs are the engine's River jobs: a periodic cycle job every interval,
// one job per due campaign, at most one unfinished per campaign, retried
// with backoff when it fails, and the pauses. They run in River's default
// queue, which only the processes that run the engine work; the process's
// one River client (db/jobs) works them.
type Jobs struct {
	engine   *Engine
	interval time.Duration
	metrics  *metrics
}

// NewJobs makes the engine's jobs: they work on the engine's Workers
// campaigns at once, run a cycle every interval (none when interval is 0)
// and the pauses whenever they are enqueued. A campaign's work holds a
// database connection only for each statement, never while it waits for
// network_a, so the workers are not bound by the pool.
func NewJobs(e *Engine, interval time.Duration) (*Jobs, error) {
	if interval < 0 || (interval > 0 && interval < MinInterval) {
		return nil, fmt.Errorf("engine: interval %s: want 0 (no cycle) or at least %s", interval, MinInterval)
	}
	return &Jobs{engine: e, interval: interval, metrics: newMetrics()}, nil
}

// Engine is the engine the jobs run.
func (j *Jobs) Engine() *Engine { return j.engine }

// AddWorkers adds the workers of the engine's jobs.
func (j *Jobs) AddWorkers(workers *river.Workers) {
	river.AddWorker(workers, &cycleWorker{j: j})
	river.AddWorker(workers, &campaignWorker{j: j})
	river.AddWorker(workers, &pauseWorker{j: j})
}

// Queue is the configuration of the queue of the engine's jobs: the
// engine's Workers at once, the next jobs fetched soon after a batch (jobs
// are short and many).
func (j *Jobs) Queue() river.QueueConfig {
	return river.QueueConfig{MaxWorkers: j.engine.Workers(), FetchCooldown: 10 * time.Millisecond}
}

// PeriodicJobs is the cycle every interval, unique per interval, from the
// start (none when the interval is 0). River's leader enqueues it.
func (j *Jobs) PeriodicJobs() []*river.PeriodicJob {
	if j.interval == 0 {
		return nil
	}
	interval := j.interval
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) {
			return CycleArgs{}, &river.InsertOpts{
				MaxAttempts: 1,
				UniqueOpts:  river.UniqueOpts{ByPeriod: interval},
			}
		},
		&river.PeriodicJobOpts{ID: KindCycle, RunOnStart: true})}
}

// enqueueChunk is how many jobs one insert carries.
const enqueueChunk = 5000

// EnqueueCycle enqueues with client one job per due campaign of the current
// cycle (what the periodic job does), except for a campaign whose job of an
// earlier cycle is still unfinished (a cycle that overran its interval). It
// answers how many jobs it inserted.
func (j *Jobs) EnqueueCycle(ctx context.Context, client *river.Client[pgx.Tx]) (int, error) {
	ids, err := j.engine.Due(ctx)
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
		res, err := client.InsertMany(ctx, params)
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
	j *Jobs
}

// Work enqueues the reminders due, the mails about what the previous cycle
// found, then this cycle's campaigns, with the client that works the job.
func (w *cycleWorker) Work(ctx context.Context, job *river.Job[CycleArgs]) error {
	client := river.ClientFromContext[pgx.Tx](ctx)
	w.j.engine.remind(ctx, client)
	if _, err := w.j.engine.SendNotices(ctx, client); err != nil {
		w.j.engine.log.Error("engine: the mails of the last cycle", "err", err)
	}
	_, err := w.j.EnqueueCycle(ctx, client)
	return err
}

type campaignWorker struct {
	river.WorkerDefaults[CampaignArgs]
	j *Jobs
}

func (w *campaignWorker) Timeout(*river.Job[CampaignArgs]) time.Duration { return CampaignJobTimeout }

func (w *campaignWorker) Work(ctx context.Context, job *river.Job[CampaignArgs]) error {
	err := w.j.engine.Campaign(ctx, job.Args.CampaignID)
	if errors.Is(err, ErrLocked) {
		return nil // another engine does this campaign's work now
	}
	w.j.metrics.done(err)
	if err != nil {
		w.j.engine.log.Warn("engine: campaign job failed; River retries it with backoff",
			"campaign", job.Args.CampaignID, "attempt", job.Attempt, "max_attempts", job.MaxAttempts, "err", err)
	}
	return err
}

type pauseWorker struct {
	river.WorkerDefaults[PauseArgs]
	j *Jobs
}

func (w *pauseWorker) Timeout(*river.Job[PauseArgs]) time.Duration { return time.Minute }

// NextRetry tries a pause that network_a did not take again soon: the
// campaign may be spending.
func (w *pauseWorker) NextRetry(*river.Job[PauseArgs]) time.Time { return time.Now().Add(PauseRetry) }

func (w *pauseWorker) Work(ctx context.Context, job *river.Job[PauseArgs]) error {
	err := w.j.engine.Pause(ctx, job.Args.CampaignID)
	if errors.Is(err, ErrLocked) {
		// The campaign's work pauses it too; look again shortly.
		return river.JobSnooze(5 * time.Second)
	}
	if err != nil {
		w.j.engine.log.Warn("engine: pause failed; tried again soon",
			"campaign", job.Args.CampaignID, "attempt", job.Attempt, "err", err)
	}
	if w.j.interval == 0 {
		// No cycle enqueues the mails: the pauses do.
		if _, merr := w.j.engine.SendNotices(ctx, river.ClientFromContext[pgx.Tx](ctx)); merr != nil {
			w.j.engine.log.Error("engine: the mails of a pause", "err", merr)
		}
	}
	return err
}

// pendingStates are the states of a job that still has to run.
var pendingStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable, rivertype.JobStateScheduled}
