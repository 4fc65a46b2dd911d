package mailer_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"adboost/db"
	"adboost/db/dbtest"
	"adboost/db/jobs"
	"adboost/db/mailer"
	"adboost/db/mailer/mailertest"
	"adboost/db/mailer/smtptest"
	"adboost/db/report"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// logBuffer is a log that tests can read while workers write it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

const link = "https://api.adboost.test/v1/user/verify-email?token=abc_DEF-123"

// verification is the verification mail of a change of Ana's address to.
func verification(to string) mailer.EmailVerificationArgs {
	return mailer.EmailVerificationArgs{
		EmailChange: mailer.EmailChange{FirstName: "Ana", OldEmail: "ana@example.com", NewEmail: to, ValidHours: 24},
		Link:        link,
	}
}

// insert inserts mail jobs as the handlers do, in a transaction of their
// own, and answers their ids.
func insert(t *testing.T, pool *pgxpool.Pool, args ...river.JobArgs) []int64 {
	t.Helper()
	client, err := jobs.InsertOnly(pool)
	if err != nil {
		t.Fatal(err)
	}
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		params[i] = river.InsertManyParams{Args: a}
	}
	var ids []int64
	err = pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) error {
		res, err := client.InsertManyTx(t.Context(), tx, params)
		for _, r := range res {
			ids = append(ids, r.Job.ID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// start starts the River client of a process over pool, whose mails go as
// cfg says, until the test ends.
func start(t *testing.T, pool *pgxpool.Pool, cfg mailer.Config, log *slog.Logger) *jobs.Client {
	t.Helper()
	sender, err := mailer.New(pool, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	client, err := jobs.New(pool, jobs.Options{
		Mail:   sender,
		Report: report.NewComposer(db.New(pool), "https://api.adboost.test", report.KeyFrom([]byte("secret"))),
		Log:    log,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = jobs.Stop(ctx, client)
	})
	return client
}

// job answers a job as it is now.
func job(t *testing.T, pool *pgxpool.Pool, id int64) *rivertype.JobRow {
	t.Helper()
	client, err := jobs.InsertOnly(pool)
	if err != nil {
		t.Fatal(err)
	}
	j, err := client.JobGet(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// waitFor polls cond until it holds, or fails the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// completed waits until the jobs are completed.
func completed(t *testing.T, pool *pgxpool.Pool, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		waitFor(t, fmt.Sprintf("job %d to complete", id), func() bool {
			return job(t, pool, id).State == rivertype.JobStateCompleted
		})
	}
}

// lastError is the error of the job's last failed attempt, and when it
// failed.
func lastError(j *rivertype.JobRow) (string, time.Time) {
	if len(j.Errors) == 0 {
		return "", time.Time{}
	}
	e := j.Errors[len(j.Errors)-1]
	return e.Error, e.At
}

func TestDeliversOverSMTPWithAuth(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "mailer", "s3cret pass")
	prepared := mailer.PreparedArgs{OutboxID: 7, To: "bob@example.com", Subject: "Confirm your address ✓",
		Body: "Hello,\n\nopen " + link + " to confirm bob@example.com.\n"}
	ids := insert(t, pool, verification("ana.new@example.com"), prepared)
	start(t, pool, mailer.Config{SMTPURL: "smtp://mailer:s3cret%20pass@" + smtp.Addr, From: "adboost <no-reply@adboost.example>"}, quiet())
	completed(t, pool, ids...)

	got := smtp.Messages()
	if len(got) != 2 {
		t.Fatalf("server received %d messages, want 2", len(got))
	}
	if got[0].To[0] != "ana.new@example.com" {
		got[0], got[1] = got[1], got[0]
	}
	want := []struct{ to, subject, messageID, body string }{
		{"ana.new@example.com", "Confirm your new e-mail address for adboost", fmt.Sprintf("<mail-%d@adboost.example>", ids[0]),
			verification("ana.new@example.com").Mail().Text},
		{"bob@example.com", "Confirm your address ✓", "<outbox-7@adboost.example>", prepared.Body},
	}
	for i, w := range want {
		m := got[i]
		if m.User != "mailer" || m.From != "no-reply@adboost.example" || len(m.To) != 1 || m.To[0] != w.to {
			t.Fatalf("message %d: user %q, from %q, to %v", i, m.User, m.From, m.To)
		}
		msg, body := mailertest.Decode(t, m)
		for k, v := range map[string]string{
			"From":         `"adboost" <no-reply@adboost.example>`,
			"To":           "<" + w.to + ">",
			"Message-Id":   w.messageID,
			"Content-Type": "text/plain; charset=utf-8",
		} {
			if got := msg.Header.Get(k); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		if subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil || subject != w.subject {
			t.Errorf("Subject = %q (%v)", subject, err)
		}
		if body != strings.ReplaceAll(w.body, "\n", "\r\n") || !strings.Contains(body, link) {
			t.Errorf("body = %q\nwant %q", body, w.body)
		}
		// Sent once, and what carried the link is forgotten.
		j := job(t, pool, ids[i])
		if j.Attempt != 1 || len(j.Errors) != 0 || bytes.Contains(j.EncodedArgs, []byte("token=")) {
			t.Errorf("job %d after delivery: attempt %d, errors %v, args %s", j.ID, j.Attempt, j.Errors, j.EncodedArgs)
		}
	}
	if len(smtp.Messages()) != 2 {
		t.Fatal("a sent mail was sent again")
	}
}

func TestQueuedWhileSMTPDownDeliveredWhenBack(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	addr := smtptest.FreeAddr(t) // nothing listens there yet
	ids := insert(t, pool, verification("ana.new@example.com"))
	const base, most = 100 * time.Millisecond, 400 * time.Millisecond
	start(t, pool, mailer.Config{SMTPURL: "smtp://" + addr, BackoffBase: base, BackoffMax: most}, quiet())

	// The attempts go on while SMTP is down, each after a backoff that
	// doubles up to its cap: 100, 200, 400, 400 ms.
	waitFor(t, "four failed attempts", func() bool { return len(job(t, pool, ids[0]).Errors) >= 4 })
	j := job(t, pool, ids[0])
	if j.State == rivertype.JobStateCompleted || j.MaxAttempts != mailer.MaxAttempts {
		t.Fatalf("after four attempts: %s, max attempts %d", j.State, j.MaxAttempts)
	}
	for i, e := range j.Errors[:4] {
		if !strings.Contains(e.Error, "connect") {
			t.Fatalf("attempt %d: %q, want the connection error", i+1, e.Error)
		}
	}
	for i := 1; i < 4; i++ {
		wait := j.Errors[i].At.Sub(j.Errors[i-1].At)
		want := min(base<<(i-1), most)
		if wait < want {
			t.Errorf("attempt %d came %s after attempt %d, before its backoff of %s", i+1, wait, i, want)
		}
	}

	// SMTP comes back: the mail is delivered, once.
	smtp := smtptest.Start(t, addr, "", "")
	completed(t, pool, ids...)
	got := smtp.Messages()
	if len(got) != 1 || got[0].To[0] != "ana.new@example.com" {
		t.Fatalf("received %d messages (%v), want the one mail once", len(got), got)
	}
}

// The backoff doubles from its base up to its cap, and stays there however
// many attempts failed.
func TestBackoffIsCapped(t *testing.T) {
	t.Parallel()
	s, err := mailer.New(nil, mailer.Config{SMTPURL: "smtp://mail.example"}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	for attempt, want := range map[int]time.Duration{
		1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 7: 32 * time.Minute,
		8: time.Hour, 9: time.Hour, mailer.MaxAttempts: time.Hour, 1 << 20: time.Hour,
	} {
		if got := s.Backoff(attempt); got != want {
			t.Errorf("Backoff(%d) = %s, want %s", attempt, got, want)
		}
	}
	// The attempts span days: a mail outlives a long SMTP outage.
	var total time.Duration
	for a := 1; a < mailer.MaxAttempts; a++ {
		total += s.Backoff(a)
	}
	if total < 4*24*time.Hour {
		t.Errorf("the attempts of a mail span %s, want days", total)
	}
}

func TestSeveralClientsDeliverEachMailOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	smtp.SetDelay(5 * time.Millisecond) // the clients overlap
	var args []river.JobArgs
	var recipients []string
	for i := range 40 {
		to := fmt.Sprintf("user%02d@example.com", i)
		recipients = append(recipients, to)
		args = append(args, verification(to))
	}
	ids := insert(t, pool, args...)
	for range 3 {
		// Each client has a pool of its own, as separate serve instances do.
		own, err := pgxpool.New(context.Background(), pool.Config().ConnString())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(own.Close)
		start(t, own, mailer.Config{SMTPURL: "smtp://" + smtp.Addr}, quiet())
	}
	completed(t, pool, ids...)

	count := map[string]int{}
	for _, m := range smtp.Messages() {
		count[m.To[0]]++
	}
	for _, to := range recipients {
		if count[to] != 1 {
			t.Errorf("%s received %d mails, want 1", to, count[to])
		}
	}
	if len(smtp.Messages()) != len(recipients) {
		t.Fatalf("%d messages for %d mails", len(smtp.Messages()), len(recipients))
	}
	var attempts int
	if err := pool.QueryRow(t.Context(), "SELECT sum(attempt) FROM river_job WHERE queue = 'mail'").Scan(&attempts); err != nil || attempts != len(recipients) {
		t.Fatalf("%d attempts in all (%v), want one a mail", attempts, err)
	}
}

// A stopping process finishes the mails it is sending: each is received
// once and its job done.
func TestStoppedClientFinishesTheMailsItSends(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	smtp.SetDelay(300 * time.Millisecond)
	ids := insert(t, pool, verification("a@example.com"), verification("b@example.com"))
	client := start(t, pool, mailer.Config{SMTPURL: "smtp://" + smtp.Addr}, quiet())
	waitFor(t, "the mails to be sent", func() bool {
		return job(t, pool, ids[0]).State == rivertype.JobStateRunning && job(t, pool, ids[1]).State == rivertype.JobStateRunning
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // less than a delivery
	defer cancel()
	if err := jobs.Stop(ctx, client); err != nil {
		t.Fatalf("stop: %v", err)
	}
	for _, id := range ids {
		if j := job(t, pool, id); j.State != rivertype.JobStateCompleted {
			t.Errorf("job %d after the stop: %s %v", id, j.State, j.Errors)
		}
	}
	if len(smtp.Messages()) != 2 {
		t.Fatalf("%d messages, want the 2 in flight", len(smtp.Messages()))
	}
}

func TestWrongCredentialsAreRetried(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "mailer", "right-password")
	ids := insert(t, pool, verification("ana.new@example.com"))
	start(t, pool, mailer.Config{SMTPURL: "smtp://mailer:wrong-password@" + smtp.Addr}, quiet())
	waitFor(t, "a failed attempt", func() bool { return job(t, pool, ids[0]).State == rivertype.JobStateRetryable })
	j := job(t, pool, ids[0])
	msg, at := lastError(j)
	if due := j.ScheduledAt.Sub(at); !strings.Contains(msg, "535") || due < 29*time.Second || due > 31*time.Second {
		t.Fatalf("after refused credentials: %q, retried %s later; want the 535 answer, retried in 30 s", msg, due)
	}
	if len(smtp.Messages()) != 0 {
		t.Fatal("a mail went through without authentication")
	}
}

func TestWithoutSMTPMailsAreLogged(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ids := insert(t, pool, verification("ana.new@example.com"))
	var log logBuffer
	start(t, pool, mailer.Config{}, slog.New(slog.NewTextHandler(&log, nil)))
	completed(t, pool, ids...)
	out := log.String()
	if !strings.Contains(out, "level=INFO") || !strings.Contains(out, "to=ana.new@example.com") ||
		!strings.Contains(out, "verify-email?token=abc_DEF-123") {
		t.Fatalf("log = %s; want the mail with its link at info level", out)
	}
}

func TestSMTPURL(t *testing.T) {
	t.Parallel()
	for raw, ok := range map[string]bool{
		"smtp://mail.example.com":                  true,
		"smtp://user:pass@mail.example.com:587":    true,
		"smtp://user%40example.com:p%2Fw@[::1]:25": true,
		"smtps://mail.example.com:465":             false,
		"mail.example.com:25":                      false,
		"smtp://":                                  false,
		"smtp://mail.example.com/path":             false,
		"http://mail.example.com":                  false,
	} {
		if err := mailer.CheckSMTPURL(raw); (err == nil) != ok {
			t.Errorf("CheckSMTPURL(%q) = %v, want ok %v", raw, err, ok)
		}
	}
}
