package mailer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"adboost/db"
	"adboost/db/boost"
	"adboost/db/dbtest"
	"adboost/db/mailer"
	"adboost/db/mailer/mailertest"
	"adboost/db/mailer/smtptest"
	"adboost/db/report"
)

// beforeRiverMail is the last migration before 00140 (mail on River).
const beforeRiverMail = 114

// exec runs statements on pool.
func exec(t *testing.T, pool *pgxpool.Pool, sql ...string) {
	t.Helper()
	for _, s := range sql {
		if _, err := pool.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// scalar answers the single value of a query.
func scalar[T any](t *testing.T, pool *pgxpool.Pool, sql string) T {
	t.Helper()
	var v T
	if err := pool.QueryRow(context.Background(), sql).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// The mails waiting in the outbox, the reminders waiting as River jobs and
// the weekly reports waiting in the schema river_report become mail jobs
// when the migration runs, and go out.
func TestMigrationMovesWaitingMailsIntoRiver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.NewPool(t, dbtest.NewEmptyURL(t))
	if err := db.MigrateRiver(ctx, pool); err != nil {
		t.Fatal(err)
	}
	m, err := db.NewMigrator(pool)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.UpTo(ctx, beforeRiverMail); err != nil {
		t.Fatal(err)
	}
	seedWaitingMails(t, ctx, pool)
	if err := db.MigrateUp(ctx, pool); err != nil {
		t.Fatal(err)
	}
	checkWaitingMailsMoved(t, pool)
	checkDueMailsGoOut(t, pool)
}

// seedWaitingMails makes the weekly report's River tables and fills the
// outbox, the reminders and the weekly reports with waiting mails.
func seedWaitingMails(t *testing.T, ctx context.Context, pool *pgxpool.Pool) {
	t.Helper()
	// The weekly report's River tables, as `serve` made them in their schema.
	reports, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Schema: "river_report"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reports.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	exec(t, pool,
		`INSERT INTO app_user (id, email, first_name) VALUES (100, 'ana@example.com', 'Ana')`,
		// Due, waiting for a retry, prepared whole and due, and sent.
		`INSERT INTO mail_outbox (recipient, subject, body, next_attempt_at, attempts, mime_body, mime_type, sent_at) VALUES
		   ('a@example.com', 'Your link', 'Open https://x.test/v1/user/verify-email?token=t1', now() - interval '1 minute', 0, NULL, NULL, NULL),
		   ('b@example.com', 'Retried', 'Later', now() + interval '1 hour', 3, NULL, NULL, NULL),
		   ('c@example.com', 'Your week', 'Your week.', now(), 0, '--b1--' || chr(13) || chr(10), 'multipart/alternative; boundary=b1', NULL),
		   ('d@example.com', 'Sent', '', now() - interval '1 day', 1, NULL, NULL, now())`,
		`INSERT INTO river_job (kind, args, max_attempts, queue) VALUES
		   ('adboost_network_a_reminder', '{"user_id": 100, "expires_at": "2027-03-28T09:30:00Z", "last_day": false}', 10, 'default')`,
		`INSERT INTO river_report.river_job (kind, args, max_attempts) VALUES
		   ('adboost_weekly_report', '{"user_id": 100, "monday": "2026-10-19"}', 5)`,
	)
}

// checkWaitingMailsMoved checks the waiting mails became mail jobs and the
// outbox and the schema river_report are gone.
func checkWaitingMailsMoved(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	prepared := mailertest.Args[mailer.PreparedArgs](t, pool)
	if len(prepared) != 3 || prepared[0].To != "a@example.com" || prepared[1].To != "b@example.com" ||
		prepared[2].MIMEType != "multipart/alternative; boundary=b1" || prepared[2].MIMEBody != "--b1--\r\n" || prepared[0].Body == "" {
		t.Fatalf("the outbox's waiting mails as jobs: %+v", prepared)
	}
	if got := scalar[string](t, pool, `SELECT string_agg(state::text, ',' ORDER BY id) FROM river_job WHERE kind = 'adboost_mail_prepared'`); got != "available,scheduled,available" {
		t.Errorf("the moved mails' states: %s", got)
	}
	reminders := mailertest.Args[boost.ReminderArgs](t, pool)
	if len(reminders) != 1 || reminders[0].UserID != 100 ||
		scalar[string](t, pool, `SELECT queue || ' ' || max_attempts FROM river_job WHERE kind = 'adboost_mail_network_a_reminder'`) != "mail 120" {
		t.Errorf("the waiting reminder: %+v", reminders)
	}
	weekly := mailertest.Args[report.UserArgs](t, pool)
	if len(weekly) != 1 || weekly[0] != (report.UserArgs{UserID: 100, Monday: "2026-10-19"}) ||
		scalar[int64](t, pool, `SELECT count(*) FROM weekly_report_sent WHERE user_id = 100 AND monday = '2026-10-19'`) != 1 {
		t.Errorf("the waiting weekly report: %+v", weekly)
	}
	if scalar[bool](t, pool, `SELECT to_regclass('mail_outbox') IS NOT NULL OR to_regnamespace('river_report') IS NOT NULL`) {
		t.Error("the outbox or the schema river_report is still there")
	}
}

// checkDueMailsGoOut starts the mailer and checks the due mails go out, the
// moved ones under their outbox id, and not the one waiting for its retry.
func checkDueMailsGoOut(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	// The due ones go out, the moved mails under their outbox id.
	smtp := smtptest.Start(t, "", "", "")
	start(t, pool, mailer.Config{SMTPURL: "smtp://" + smtp.Addr, From: "adboost <no-reply@adboost.example>"}, quiet())
	waitFor(t, "the due mails", func() bool { return len(smtp.Messages()) >= 3 })
	sent := map[string]string{}
	for _, msg := range smtp.Messages() {
		h, _ := mailertest.Decode(t, msg)
		sent[msg.To[0]+" "+h.Header.Get("Subject")] = h.Header.Get("Message-Id")
	}
	if !strings.HasPrefix(sent["a@example.com Your link"], "<outbox-") || sent["c@example.com Your week"] == "" ||
		sent["ana@example.com Your boosted posts, week 2026-W43"] == "" || len(sent) != 3 {
		t.Errorf("sent %v", sent)
	}
	for k := range sent {
		if strings.HasPrefix(k, "b@example.com") {
			t.Error("a mail waiting for its retry went at once")
		}
	}
}

// On a fresh database the migration moves nothing and leaves the mail jobs'
// functions; rolled back, it gives the outbox back, and applies again.
func TestMigrationOnAFreshDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.NewPool(t, dbtest.NewEmptyURL(t))
	if err := db.MigrateUp(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if n := mailertest.Count(t, pool); n != 0 {
		t.Errorf("%d mail jobs", n)
	}
	if b, err := db.New(pool).MailJobBacklog(ctx); err != nil || b.Unsent != 0 || b.OldestDueSeconds != 0 {
		t.Errorf("backlog %+v (%v)", b, err)
	}
	if scalar[bool](t, pool, `SELECT to_regclass('mail_outbox') IS NOT NULL OR to_regnamespace('river_report') IS NOT NULL`) {
		t.Error("the outbox or the schema river_report is there")
	}
	m, err := db.NewMigrator(pool)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.DownTo(ctx, beforeRiverMail); err != nil {
		t.Fatal(err)
	}
	if !scalar[bool](t, pool, `SELECT to_regclass('mail_outbox') IS NOT NULL AND to_regnamespace('river_report') IS NOT NULL
		AND to_regprocedure('mail_job_backlog()') IS NULL`) {
		t.Error("rolled back: no outbox, or the mail jobs' functions stay")
	}
	if _, err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
}
