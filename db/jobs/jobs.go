// Package jobs makes the one River client of a process, which works every
// job of the process: the mails (db/mailer, boost's, report's) in the queue
// "mail", the weekly report's look for the users due in the queue
// "report", and, where the engine runs, the engine's jobs in River's
// default queue. Its periodic jobs (the engine's cycle, the report's look)
// are enqueued by River's leader among the clients of every instance, so
// the instances of one deployment run with the same engine settings.
//
// A process that only inserts jobs (the `engine` command, tests) uses an
// insert-only client (InsertOnly).
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"adboost/db/boost"
	"adboost/db/mailer"
	"adboost/db/report"
)

// Options says what a process's client works.
type Options struct {
	// Mail sends every mail (required): every process that works jobs
	// sends the mails.
	Mail *mailer.Sender
	// Report composes the weekly reports (required), and ReportEvery is how
	// often the leader looks for the users due (0: never).
	Report      *report.Composer
	ReportEvery time.Duration
	// Engine is the engine's jobs; nil: this process runs no engine, and
	// leaves the engine's jobs (the pauses the API inserts) to those that do.
	Engine *boost.Jobs
	Log    *slog.Logger
}

// Client is the process's River client.
type Client = river.Client[pgx.Tx]

// New makes the process's River client (not started): the workers of every
// job kind it works, its queues and its periodic jobs.
func New(pool *pgxpool.Pool, o Options) (*Client, error) {
	workers := river.NewWorkers()
	mailer.AddWorkers(workers, o.Mail)
	boost.AddMailWorkers(workers, o.Mail, pool)
	reports := report.NewJobs(pool, o.Report, o.Log)
	reports.AddWorkers(workers, o.Mail)
	queues := map[string]river.QueueConfig{
		mailer.Queue: {MaxWorkers: 4},
		report.Queue: {MaxWorkers: 1},
	}
	periodic := reports.PeriodicJobs(o.ReportEvery)
	if o.Engine != nil {
		o.Engine.AddWorkers(workers)
		queues[river.QueueDefault] = o.Engine.Queue()
		periodic = append(periodic, o.Engine.PeriodicJobs()...)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		// River reports its job counts every few seconds at info: only its
		// warnings and errors reach the log.
		Logger:       slog.New(minLevel{o.Log.Handler(), slog.LevelWarn}).With("component", "river"),
		Queues:       queues,
		Workers:      workers,
		PeriodicJobs: periodic,
		// Without the engine, the API still inserts the pauses, which the
		// processes that run the engine work.
		SkipUnknownJobCheck: o.Engine == nil,
	})
	if err != nil {
		return nil, fmt.Errorf("river: %w", err)
	}
	return client, nil
}

// InsertOnly makes the River client of a process that works no job: it
// inserts them, for the processes that work them.
func InsertOnly(pool *pgxpool.Pool) (*Client, error) {
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("river: %w", err)
	}
	return client, nil
}

// Stop waits for the jobs being worked until ctx ends, then cancels them
// and waits 2 s more at most: a campaign's work stops between network_a
// calls, nothing half-written, and a mail being sent finishes or is tried
// again later.
func Stop(ctx context.Context, client *Client) error {
	err := client.Stop(ctx)
	if ctx.Err() != nil {
		cancelCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		return client.StopAndCancel(cancelCtx)
	}
	return err
}

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
