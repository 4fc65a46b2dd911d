package boost

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"adboost/db"
)

// KindReminder is the kind of the reminder jobs.
const KindReminder = "adboost_network_a_reminder"

// ReminderMaxAttempts is how many times a reminder's job is tried.
const ReminderMaxAttempts = 10

// ReminderArgs is the mail that reminds a user that the stored network_a
// token ends at ExpiresAt: 7 days before, or, LastDay, 1 day before.
type ReminderArgs struct {
	UserID    int64     `json:"user_id"`
	ExpiresAt time.Time `json:"expires_at"`
	LastDay   bool      `json:"last_day"`
}

// Kind is the job's kind.
func (ReminderArgs) Kind() string { return KindReminder }

// InsertOpts: a reminder is enqueued once (UserRemindersTake marks it in the
// transaction that inserts its job), and tried a few times.
func (ReminderArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: ReminderMaxAttempts}
}

// SendReminders finds the reminders due by the engine's clock (a token
// ending within 7 days, then within a day; each once per end) and enqueues
// one job per user and reminder, in the transaction that marks them sent:
// any number of engines may look at once, each reminder is enqueued once.
// The jobs' Work (a Runner's) writes the mails to the outbox. It answers
// how many it enqueued. The cycles and `serve`'s start call it.
func (e *Engine) SendReminders(ctx context.Context) (int, error) {
	queue, err := river.NewClient(riverpgxv5.New(e.pool), &river.Config{})
	if err != nil {
		return 0, fmt.Errorf("engine: reminders: %w", err)
	}
	var n int
	err = pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		due, err := db.New(tx).UserRemindersTake(ctx, e.now())
		if err != nil || len(due) == 0 {
			return err
		}
		params := make([]river.InsertManyParams, len(due))
		for i, d := range due {
			params[i] = river.InsertManyParams{Args: ReminderArgs{UserID: d.ID, ExpiresAt: d.ExpiresAt.UTC(), LastDay: d.LastDay}}
		}
		_, err = queue.InsertManyTx(ctx, tx, params)
		n = len(due)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("engine: reminders: %w", err)
	}
	return n, nil
}

// remind is SendReminders for the cycles: a failure is logged, and the
// next cycle looks again.
func (e *Engine) remind(ctx context.Context) {
	if _, err := e.SendReminders(ctx); err != nil {
		e.log.ErrorContext(ctx, "engine: the reminders of network_a connections that end", "err", err)
	}
}

// reminderWorker writes a reminder's mail to the outbox.
type reminderWorker struct {
	river.WorkerDefaults[ReminderArgs]
	e *Engine
}

// addReminderWorker makes a Runner work the reminder jobs.
func addReminderWorker(workers *river.Workers, e *Engine) {
	river.AddWorker(workers, &reminderWorker{e: e})
}

func (w *reminderWorker) Timeout(*river.Job[ReminderArgs]) time.Duration { return 30 * time.Second }

// Work queues the mail, unless the user's token has been renewed since
// (its end moved), and completes the job in the same transaction: a job
// that is tried again after its mail was queued finds itself done.
func (w *reminderWorker) Work(ctx context.Context, job *river.Job[ReminderArgs]) error {
	subject, body := reminderMail(job.Args)
	return pgx.BeginFunc(ctx, w.e.pool, func(tx pgx.Tx) error {
		_, err := db.New(tx).UserReminderMail(ctx, db.UserReminderMailParams{
			ID: job.Args.UserID, ExpiresAt: job.Args.ExpiresAt, Subject: subject, Body: body,
		})
		if err != nil {
			return err
		}
		_, err = river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		return err
	})
}

// reminderMail is a reminder's subject and body (after the greeting): the
// day the connection ends (UTC) and how to renew it.
func reminderMail(a ReminderArgs) (subject, body string) {
	day := a.ExpiresAt.UTC().Format(time.DateOnly)
	when := "in 7 days"
	if a.LastDay {
		when = "within a day"
	}
	subject = "adboost: your network_a connection ends on " + day
	body = fmt.Sprintf(`your connection to network_a ends on %s (at %s UTC), %s.

From then on adboost cannot boost your new posts, keep your campaigns in
step or read their results: your campaigns wait until you reconnect.

To renew it, sign in to adboost with network_a again ("Continue with
network_a", the login-sn sign-in) and grant the permissions it asks for.
The new connection lasts about 60 days.

adboost
`, day, a.ExpiresAt.UTC().Format("15:04"), when)
	return subject, body
}
