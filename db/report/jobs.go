package report

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"adboost/db"
	"adboost/db/mailer"
)

// Queue is the River queue of the periodic look for the users due, which
// every `serve` works.
const Queue = "report"

// DefaultEvery is how often the periodic job looks for the users due.
const DefaultEvery = 10 * time.Minute

// Job kinds.
const (
	KindDue  = "adboost_weekly_report_due"
	KindUser = "adboost_mail_weekly_report"
)

// DueArgs is the periodic job that enqueues one UserArgs job per user due.
type DueArgs struct{}

// Kind is the job's kind.
func (DueArgs) Kind() string { return KindDue }

// UserArgs is the mail of one user's report of one week (its Monday,
// YYYY-MM-DD).
type UserArgs struct {
	UserID int64  `json:"user_id"`
	Monday string `json:"monday"`
}

// Kind is the job's kind.
func (UserArgs) Kind() string { return KindUser }

// InsertOpts: a mail job, one per user and week whichever instance inserts
// it and whatever state an earlier one is in (the week is marked queued in
// the same transaction besides: ReportMark).
func (UserArgs) InsertOpts() river.InsertOpts {
	opts := mailer.InsertOpts()
	opts.UniqueOpts = river.UniqueOpts{ByArgs: true}
	return opts
}

// Jobs are the weekly report's River jobs: the periodic look for the users
// due, and each user's mail, which the composer makes when it is sent.
type Jobs struct {
	pool     *pgxpool.Pool
	composer *Composer
	log      *slog.Logger
	now      func() time.Time
}

// NewJobs makes the report's jobs over the database.
func NewJobs(pool *pgxpool.Pool, composer *Composer, log *slog.Logger) *Jobs {
	return &Jobs{pool: pool, composer: composer, log: log, now: time.Now}
}

// AddWorkers adds the workers of the report's jobs; s sends the mails.
func (j *Jobs) AddWorkers(workers *river.Workers, s *mailer.Sender) {
	river.AddWorker(workers, &dueWorker{j: j})
	river.AddWorker(workers, mailer.NewWorker(s, j.Mail))
}

// PeriodicJobs is the look for the users due every `every`, from the start
// (none when every is 0). River's leader enqueues it.
func (j *Jobs) PeriodicJobs(every time.Duration) []*river.PeriodicJob {
	if every == 0 {
		return nil
	}
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) {
			return DueArgs{}, &river.InsertOpts{Queue: Queue, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByPeriod: every}}
		},
		&river.PeriodicJobOpts{ID: KindDue, RunOnStart: true})}
}

// EnqueueDue inserts with client the mail jobs of the users due at now
// (what the periodic job does) and answers how many it inserted: a user's
// week queued already, by this instance or another, is not queued again.
func (j *Jobs) EnqueueDue(ctx context.Context, client *river.Client[pgx.Tx], now time.Time) (int, error) {
	due, err := db.New(j.pool).ReportDueUsers(ctx, now)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	users := make([]int64, len(due))
	mondays := make([]pgtype.Date, len(due))
	for i, u := range due {
		users[i], mondays[i] = u.UserID, u.Monday
	}
	return j.queue(ctx, client, users, mondays)
}

// Queue inserts with client the mail job of the user's report of week,
// unless the user turned the report off or it was queued already; it
// answers whether it queued the mail.
func (j *Jobs) Queue(ctx context.Context, client *river.Client[pgx.Tx], userID int64, week Week) (bool, error) {
	n, err := j.queue(ctx, client, []int64{userID}, []pgtype.Date{week.Date()})
	return n == 1, err
}

// queue marks the users' weeks queued and inserts the mail jobs of those it
// marked, in one transaction, and answers how many.
func (j *Jobs) queue(ctx context.Context, client *river.Client[pgx.Tx], users []int64, mondays []pgtype.Date) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, j.pool, func(tx pgx.Tx) error {
		marked, err := db.New(tx).ReportMark(ctx, db.ReportMarkParams{UserIds: users, Mondays: mondays})
		if err != nil || len(marked) == 0 {
			return err
		}
		params := make([]river.InsertManyParams, len(marked))
		for i, m := range marked {
			params[i] = river.InsertManyParams{Args: UserArgs{UserID: m.UserID, Monday: m.Monday.Time.Format(time.DateOnly)}}
		}
		res, err := client.InsertManyTx(ctx, tx, params)
		for _, x := range res {
			if !x.UniqueSkippedAsDuplicate {
				n++
			}
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// Mail composes the user's report of the week: mailer.ErrNoMail when the
// user is gone or turned the report off since it was queued.
func (j *Jobs) Mail(ctx context.Context, a UserArgs) (mailer.Message, error) {
	monday, err := time.Parse(time.DateOnly, a.Monday)
	if err != nil {
		return mailer.Message{}, river.JobCancel(fmt.Errorf("weekly report: monday %q: %w", a.Monday, err))
	}
	m, err := j.composer.Compose(ctx, a.UserID, WeekOf(monday))
	if errors.Is(err, ErrNoUser) || (err == nil && !m.Wanted) {
		return mailer.Message{}, mailer.ErrNoMail
	}
	if err != nil {
		return mailer.Message{}, err
	}
	contentType, body, err := m.MIME()
	if err != nil {
		return mailer.Message{}, err
	}
	return mailer.Message{To: m.To, Subject: m.Subject, Text: m.Text, ContentType: contentType, Body: body}, nil
}

type dueWorker struct {
	river.WorkerDefaults[DueArgs]
	j *Jobs
}

func (w *dueWorker) Work(ctx context.Context, _ *river.Job[DueArgs]) error {
	n, err := w.j.EnqueueDue(ctx, river.ClientFromContext[pgx.Tx](ctx), w.j.now())
	if n > 0 {
		w.j.log.Info("weekly report: users due", "jobs", n)
	}
	return err
}
