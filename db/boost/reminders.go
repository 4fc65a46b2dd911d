package boost

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"adboost/db"
	"adboost/db/mailer"
)

// KindReminder is the kind of the reminder mails.
const KindReminder = "adboost_mail_network_a_reminder"

// ReminderArgs is the mail that reminds a user that the stored network_a
// token ends at ExpiresAt: 7 days before, or, LastDay, 1 day before.
type ReminderArgs struct {
	UserID    int64     `json:"user_id"`
	ExpiresAt time.Time `json:"expires_at"`
	LastDay   bool      `json:"last_day"`
}

// Kind is the job's kind.
func (ReminderArgs) Kind() string { return KindReminder }

// InsertOpts: a mail job; a reminder is enqueued once (UserRemindersTake
// marks it in the transaction that inserts its job).
func (ReminderArgs) InsertOpts() river.InsertOpts { return mailer.InsertOpts() }

// SendReminders finds the reminders due by the engine's clock (a token
// ending within 7 days, then within a day; each once per end) and inserts
// with jobs one mail job per user and reminder, in the transaction that
// marks them sent: any number of engines may look at once, each reminder is
// enqueued once. It answers how many it enqueued. The cycles and `serve`'s
// start call it.
func (e *Engine) SendReminders(ctx context.Context, jobs *river.Client[pgx.Tx]) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		due, err := db.New(tx).UserRemindersTake(ctx, e.now())
		if err != nil || len(due) == 0 {
			return err
		}
		params := make([]river.InsertManyParams, len(due))
		for i, d := range due {
			params[i] = river.InsertManyParams{Args: ReminderArgs{UserID: d.ID, ExpiresAt: d.ExpiresAt.UTC(), LastDay: d.LastDay}}
		}
		_, err = jobs.InsertManyTx(ctx, tx, params)
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
func (e *Engine) remind(ctx context.Context, jobs *river.Client[pgx.Tx]) {
	if _, err := e.SendReminders(ctx, jobs); err != nil {
		e.log.ErrorContext(ctx, "engine: the reminders of network_a connections that end", "err", err)
	}
}

// ReminderMail is a reminder's mail, to the user's address, unless the
// user's token has been renewed since (its end moved): mailer.ErrNoMail.
func ReminderMail(ctx context.Context, q *db.Queries, a ReminderArgs) (mailer.Message, error) {
	to, err := q.UserReminderRecipient(ctx, db.UserReminderRecipientParams{ID: a.UserID, ExpiresAt: a.ExpiresAt})
	if errors.Is(err, pgx.ErrNoRows) {
		return mailer.Message{}, mailer.ErrNoMail
	}
	if err != nil {
		return mailer.Message{}, err
	}
	day := a.ExpiresAt.UTC().Format(time.DateOnly)
	when := "in 7 days"
	if a.LastDay {
		when = "within a day"
	}
	body := fmt.Sprintf(`%s

your connection to network_a ends on %s (at %s UTC), %s.

From then on adboost cannot boost your new posts, keep your campaigns in
step or read their results: your campaigns wait until you reconnect.

To renew it, sign in to adboost with network_a again ("Continue with
network_a", the login-sn sign-in) and grant the permissions it asks for.
The new connection lasts about 60 days.

adboost
`, mailer.Greeting(to.FirstName), day, a.ExpiresAt.UTC().Format("15:04"), when)
	return mailer.Message{To: to.Email, Subject: "adboost: your network_a connection ends on " + day, Text: body}, nil
}

// AddMailWorkers adds the workers of the engine's mails (the reminders and
// the notices), sent by s. They need no engine: every process that sends
// mails sends them, whether or not it runs the engine.
func AddMailWorkers(workers *river.Workers, s *mailer.Sender, pool *pgxpool.Pool) {
	q := db.New(pool)
	river.AddWorker(workers, mailer.NewWorker(s, func(ctx context.Context, a ReminderArgs) (mailer.Message, error) {
		return ReminderMail(ctx, q, a)
	}))
	river.AddWorker(workers, mailer.NewWorker(s, func(_ context.Context, a NoticeArgs) (mailer.Message, error) {
		return a.Mail(), nil
	}))
}
