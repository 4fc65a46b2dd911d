package mailer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"adboost/db"
	"adboost/db/dbtest"
	"adboost/db/jobs"
	"adboost/db/mailer"
	"adboost/db/mailer/mailertest"
)

// A write rolled back leaves no mail; committed, its mail is queued with it.
func TestRolledBackWriteLeavesNoMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	if _, err := pool.Exec(ctx, `INSERT INTO app_user (id, email, first_name) VALUES (100, 'ana@example.com', 'Ana')`); err != nil {
		t.Fatal(err)
	}
	client, err := jobs.InsertOnly(pool)
	if err != nil {
		t.Fatal(err)
	}
	change := mailer.EmailChange{FirstName: "Ana", OldEmail: "ana@example.com", NewEmail: "ana.new@example.com", ValidHours: 24}
	write := func(tx pgx.Tx) error {
		err := db.New(tx).EmailChangeRequest(ctx, db.EmailChangeRequestParams{
			UserID: 100, NewEmail: change.NewEmail, TokenHash: make([]byte, 32), ValidHours: 24,
		})
		if err != nil {
			return err
		}
		_, err = client.InsertManyTx(ctx, tx, []river.InsertManyParams{
			{Args: mailer.EmailVerificationArgs{EmailChange: change, Link: link}},
			{Args: mailer.EmailChangeNoticeArgs{EmailChange: change}},
		})
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	var pending int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM email_change`).Scan(&pending); err != nil || pending != 0 || mailertest.Count(t, pool) != 0 {
		t.Fatalf("after a rollback: %d pending changes (%v), %d mail jobs", pending, err, mailertest.Count(t, pool))
	}
	if err := pgx.BeginFunc(ctx, pool, write); err != nil {
		t.Fatal(err)
	}
	if n := mailertest.Count(t, pool); n != 2 {
		t.Fatalf("after a commit: %d mail jobs, want 2", n)
	}
}

// TestBacklogReadsTheFetchingIndex: with many sent mails and other jobs,
// the backlog that every scrape of /metrics reads reads only the unsent
// mails, from River's river_job_prioritized_fetching_index.
func TestBacklogReadsTheFetchingIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for _, sql := range []string{
		`INSERT INTO river_job (kind, queue, args, max_attempts, state, attempt, finalized_at)
		 SELECT 'adboost_mail_email_verification', 'mail', '{}', 120, 'completed', 1, now() - interval '1 hour'
		 FROM generate_series(1, 100000)`,
		`INSERT INTO river_job (kind, queue, args, max_attempts, state)
		 SELECT 'adboost_engine_campaign', 'default', '{}', 5, 'available' FROM generate_series(1, 20000)`,
		`ANALYZE river_job`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	insert(t, pool, verification("a@example.com"), verification("b@example.com"))
	b, err := db.New(pool).MailJobBacklog(ctx)
	if err != nil || b.Unsent != 2 || b.Due != 2 {
		t.Fatalf("backlog %+v (%v), want 2 unsent and due", b, err)
	}
	var plan []string
	rows, err := pool.Query(ctx, `EXPLAIN (COSTS OFF) SELECT b.unsent, b.due, b.oldest_due_seconds FROM mail_job_backlog() AS b`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "river_job_prioritized_fetching_index") || strings.Contains(text, "Seq Scan") || strings.Contains(text, "Function Scan") {
		t.Fatalf("the backlog does not read river_job_prioritized_fetching_index:\n%s", text)
	}
}
