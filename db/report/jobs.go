package report

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"adboost/db"
)

// Schema holds the River tables of the report's jobs, apart from the
// engine's: River elects one leader per schema to run periodic jobs, so the
// report's periodic job runs whether or not the engine runs, and never takes
// the engine's leadership.
const Schema = "river_report"

// DefaultEvery is how often the periodic job looks for the users due.
const DefaultEvery = 10 * time.Minute

// Job kinds.
const (
	KindDue  = "adboost_weekly_report_due"
	KindUser = "adboost_weekly_report"
)

// DueArgs is the periodic job that enqueues one UserArgs job per user due.
type DueArgs struct{}

// Kind is the job's kind.
func (DueArgs) Kind() string { return KindDue }

// UserArgs is one user's report of one week (its Monday, YYYY-MM-DD).
type UserArgs struct {
	UserID int64  `json:"user_id"`
	Monday string `json:"monday"`
}

// Kind is the job's kind.
func (UserArgs) Kind() string { return KindUser }

// InsertOpts: one job per user and week, whichever instance inserts it and
// whatever state an earlier one is in.
func (UserArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Migrate applies River's migrations to Schema (which migration 00114
// makes), under a session lock so that instances starting at once take
// turns.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	q := db.New(conn)
	if err := q.ReportMigrationLock(ctx); err != nil {
		return fmt.Errorf("report jobs' migrations: %w", err)
	}
	defer q.ReportMigrationUnlock(context.WithoutCancel(ctx))
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Schema: Schema})
	if err != nil {
		return fmt.Errorf("report jobs' migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("report jobs' migrations: %w", err)
	}
	return nil
}

// Runner runs the weekly report on River.
type Runner struct {
	client   *river.Client[pgx.Tx]
	q        *db.Queries
	composer *Composer
	log      *slog.Logger
	now      func() time.Time
}

// NewRunner makes the River client of the report (not started): the
// periodic job every `every` (none when 0) and the users' jobs.
func NewRunner(pool *pgxpool.Pool, composer *Composer, every time.Duration, log *slog.Logger) (*Runner, error) {
	r := &Runner{q: db.New(pool), composer: composer, log: log, now: time.Now}
	workers := river.NewWorkers()
	river.AddWorker(workers, &dueWorker{r: r})
	river.AddWorker(workers, &userWorker{r: r})
	var periodic []*river.PeriodicJob
	if every > 0 {
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(every),
			func() (river.JobArgs, *river.InsertOpts) {
				return DueArgs{}, &river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByPeriod: every}}
			},
			&river.PeriodicJobOpts{ID: KindDue, RunOnStart: true}))
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Schema: Schema,
		// River reports its job counts every few seconds at info: only its
		// warnings and errors reach the log.
		Logger:       slog.New(warnings{log.Handler()}).With("component", "river_report"),
		Queues:       map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}},
		Workers:      workers,
		PeriodicJobs: periodic,
	})
	if err != nil {
		return nil, fmt.Errorf("weekly report: %w", err)
	}
	r.client = client
	return r, nil
}

// Start starts working jobs.
func (r *Runner) Start(ctx context.Context) error { return r.client.Start(ctx) }

// Stop waits for the jobs being worked until ctx ends.
func (r *Runner) Stop(ctx context.Context) error { return r.client.Stop(ctx) }

// Client is the River client (tests subscribe with it).
func (r *Runner) Client() *river.Client[pgx.Tx] { return r.client }

// EnqueueDue enqueues one job per user due at now (what the periodic job
// does) and answers how many it inserted: a user's week already enqueued,
// by this instance or another, is not enqueued again.
func (r *Runner) EnqueueDue(ctx context.Context, now time.Time) (int, error) {
	due, err := r.q.ReportDueUsers(ctx, now)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	params := make([]river.InsertManyParams, len(due))
	for i, u := range due {
		params[i] = river.InsertManyParams{Args: UserArgs{UserID: u.UserID, Monday: u.Monday.Time.Format(time.DateOnly)}}
	}
	res, err := r.client.InsertMany(ctx, params)
	if err != nil {
		return 0, err
	}
	inserted := 0
	for _, x := range res {
		if !x.UniqueSkippedAsDuplicate {
			inserted++
		}
	}
	return inserted, nil
}

// Send composes the user's report of week and queues it in the outbox,
// unless the user turned the report off or it was queued already; it
// answers whether it queued the mail.
func (r *Runner) Send(ctx context.Context, userID int64, week Week) (bool, error) {
	m, err := r.composer.Compose(ctx, userID, week)
	if errors.Is(err, ErrNoUser) || (err == nil && !m.Wanted) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	contentType, body, err := m.MIME()
	if err != nil {
		return false, err
	}
	n, err := r.q.ReportQueue(ctx, db.ReportQueueParams{
		UserID: userID, Monday: week.Date(), Recipient: m.To, Subject: m.Subject,
		Body: m.Text, MimeBody: string(body), MimeType: contentType,
	})
	return n == 1, err
}

type dueWorker struct {
	river.WorkerDefaults[DueArgs]
	r *Runner
}

func (w *dueWorker) Work(ctx context.Context, _ *river.Job[DueArgs]) error {
	n, err := w.r.EnqueueDue(ctx, w.r.now())
	if n > 0 {
		w.r.log.Info("weekly report: users due", "jobs", n)
	}
	return err
}

type userWorker struct {
	river.WorkerDefaults[UserArgs]
	r *Runner
}

func (w *userWorker) Timeout(*river.Job[UserArgs]) time.Duration { return time.Minute }

func (w *userWorker) Work(ctx context.Context, job *river.Job[UserArgs]) error {
	monday, err := time.Parse(time.DateOnly, job.Args.Monday)
	if err != nil {
		return river.JobCancel(fmt.Errorf("weekly report: monday %q: %w", job.Args.Monday, err))
	}
	_, err = w.r.Send(ctx, job.Args.UserID, WeekOf(monday))
	return err
}

// warnings passes on the records of level warning and above.
type warnings struct{ slog.Handler }

func (h warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}

func (h warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnings{h.Handler.WithAttrs(attrs)}
}

func (h warnings) WithGroup(name string) slog.Handler { return warnings{h.Handler.WithGroup(name)} }
