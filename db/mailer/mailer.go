// Package mailer sends adboost's mails as River jobs: one job kind per
// mail, whose arguments say what the mail is about, inserted in the
// transaction of the write that causes the mail (a rolled back write leaves
// no mail), in the queue Queue that every `serve` works. A kind's Worker
// renders the mail from its job and sends it with the Sender, adboost's one
// SMTP client; a failed send is tried again after a backoff doubling from
// 30 s up to 1 h, MaxAttempts times (about five days), so that a mail
// outlives an SMTP outage.
//
// The kinds of this package are the mails of an e-mail change (the link to
// the new address, the notice to the current one) and the mails that
// migration 00140 moved out of the table mail_outbox; boost has the
// engine's notices and the reminders of network_a connections that end,
// report the weekly report. Delivery is at least once: a process that dies after the server
// accepted a mail, before River recorded its job done, sends it again.
package mailer

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"adboost/db"
)

// Queue is the River queue of the mail jobs.
const Queue = "mail"

// MaxAttempts is how many times a mail is tried: after the first hours of
// the backoff, one attempt an hour for about five days.
const MaxAttempts = 120

// InsertOpts are the insert options of a mail job: the mail queue and
// MaxAttempts.
func InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: MaxAttempts}
}

// ErrNoMail is what a render answers for a mail that is no longer wanted
// (the user turned it off, the reason for it went): the job ends without
// sending anything.
var ErrNoMail = errors.New("mailer: no mail to send")

// Render makes the mail of a job from its arguments.
type Render[T river.JobArgs] func(ctx context.Context, args T) (Message, error)

// Worker is the River worker of one kind of mail: it renders the job's mail
// and sends it.
type Worker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	sender *Sender
	render Render[T]
}

// NewWorker answers the worker of the mails that render makes, sent by s.
func NewWorker[T river.JobArgs](s *Sender, render Render[T]) *Worker[T] {
	return &Worker[T]{sender: s, render: render}
}

// Work renders the mail and sends it. Once the server took it, the job is
// completed in a transaction that also forgets, in its arguments, what may
// carry a single-use link (MailJobSent): nobody needs it any more, and
// River keeps finished jobs for a day.
func (w *Worker[T]) Work(ctx context.Context, job *river.Job[T]) error {
	m, err := w.render(ctx, job.Args)
	if errors.Is(err, ErrNoMail) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := w.sender.Send(ctx, job.ID, m); err != nil {
		w.sender.log.Warn("mail not delivered; tried again later", "job", job.ID, "kind", job.Kind,
			"attempt", job.Attempt, "max_attempts", job.MaxAttempts, "err", err)
		return err
	}
	// The mail went: what follows is recorded even when ctx ends meanwhile,
	// and a failure of it does not send the mail again.
	done, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err = pgx.BeginFunc(done, w.sender.pool, func(tx pgx.Tx) error {
		if err := db.New(tx).MailJobSent(done, job.ID); err != nil {
			return err
		}
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](done, tx, job)
		return err
	})
	if err != nil {
		w.sender.log.Warn("mail sent; its job keeps its arguments", "job", job.ID, "err", err)
	}
	return nil
}

// NextRetry is the Sender's backoff after the job's attempt.
func (w *Worker[T]) NextRetry(job *river.Job[T]) time.Time {
	return time.Now().Add(w.sender.Backoff(job.Attempt))
}
