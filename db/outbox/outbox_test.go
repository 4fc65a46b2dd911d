package outbox_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
	"adboost/db/dbtest"
	"adboost/db/outbox"
	"adboost/db/outbox/smtptest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// logBuffer is a log that tests can read while senders write it.
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

// queue writes mails into the outbox as handlers do, and answers their ids.
func queue(t *testing.T, pool *pgxpool.Pool, recipients ...string) []int64 {
	t.Helper()
	var ids []int64
	for _, to := range recipients {
		var id int64
		err := pool.QueryRow(context.Background(),
			"INSERT INTO mail_outbox (recipient, subject, body) VALUES ($1, $2, $3) RETURNING id",
			to, "Confirm your address ✓", "Hello,\n\nopen https://api.adboost.test/v1/user/verify-email?token=abc_DEF-123 to confirm "+to+".\n").Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// row is the delivery state of one outbox mail.
type row struct {
	Attempts  int
	Sent      bool
	LastError string
	Body      string
	DueIn     time.Duration // next_attempt_at - now()
}

func state(t *testing.T, pool *pgxpool.Pool, id int64) row {
	t.Helper()
	var r row
	var dueSeconds float64
	err := pool.QueryRow(context.Background(), `
		SELECT attempts, sent_at IS NOT NULL, last_error, body, extract(epoch FROM next_attempt_at - now())::float8
		FROM mail_outbox WHERE id = $1`, id).Scan(&r.Attempts, &r.Sent, &r.LastError, &r.Body, &dueSeconds)
	if err != nil {
		t.Fatal(err)
	}
	r.DueIn = time.Duration(dueSeconds * float64(time.Second))
	return r
}

// waitFor polls cond until it holds, or fails the test after 15 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// decoded reads a received message: its headers and its decoded body.
func decoded(t *testing.T, m smtptest.Message) (*mail.Message, string) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		t.Fatalf("received message: %v\n%s", err, m.Data)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	return msg, string(body)
}

func TestDeliversOverSMTPWithAuth(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "mailer", "s3cret pass")
	ids := queue(t, pool, "ana@example.com", "bob@example.com")
	s, err := outbox.New(pool, outbox.Config{
		SMTPURL: "smtp://mailer:s3cret%20pass@" + smtp.Addr, From: "adboost <no-reply@adboost.example>",
	}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.RunOnce(t.Context())
	if err != nil || n != 2 {
		t.Fatalf("RunOnce = %d, %v; want 2 mails claimed", n, err)
	}
	got := smtp.Messages()
	if len(got) != 2 {
		t.Fatalf("server received %d messages, want 2", len(got))
	}
	for i, to := range []string{"ana@example.com", "bob@example.com"} {
		m := got[i]
		if m.User != "mailer" || m.From != "no-reply@adboost.example" || len(m.To) != 1 || m.To[0] != to {
			t.Fatalf("message %d: user %q, from %q, to %v", i, m.User, m.From, m.To)
		}
		msg, body := decoded(t, m)
		for k, want := range map[string]string{
			"From":         `"adboost" <no-reply@adboost.example>`,
			"To":           "<" + to + ">",
			"Message-Id":   fmt.Sprintf("<outbox-%d@adboost.example>", ids[i]),
			"Content-Type": "text/plain; charset=utf-8",
		} {
			if v := msg.Header.Get(k); v != want {
				t.Errorf("%s = %q, want %q", k, v, want)
			}
		}
		if subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil || subject != "Confirm your address ✓" {
			t.Errorf("Subject = %q (%v)", subject, err)
		}
		want := "Hello,\r\n\r\nopen https://api.adboost.test/v1/user/verify-email?token=abc_DEF-123 to confirm " + to + ".\r\n"
		if body != want {
			t.Errorf("body = %q\nwant %q", body, want)
		}
		st := state(t, pool, ids[i])
		if !st.Sent || st.Attempts != 1 || st.Body != "" || st.LastError != "" {
			t.Errorf("mail %d after delivery: %+v (want sent, 1 attempt, body emptied)", ids[i], st)
		}
	}
	// Nothing is due any more.
	if n, err := s.RunOnce(t.Context()); n != 0 || err != nil {
		t.Fatalf("second RunOnce = %d, %v", n, err)
	}
	if len(smtp.Messages()) != 2 {
		t.Fatal("a sent mail was sent again")
	}
}

func TestQueuedWhileSMTPDownDeliveredWhenBack(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	addr := smtptest.FreeAddr(t) // nothing listens there yet
	ids := queue(t, pool, "ana@example.com")
	sender := func(base time.Duration) *outbox.Sender {
		s, err := outbox.New(pool, outbox.Config{
			SMTPURL: "smtp://" + addr, Poll: 20 * time.Millisecond,
			BackoffBase: base, BackoffMax: 4 * base,
		}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	// One attempt by hand: it fails, and the next is scheduled after the
	// backoff, not at once. The backoff is long enough (1 s) that a loaded
	// machine cannot reach its end between the two RunOnce calls.
	first := sender(time.Second)
	if n, err := first.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	st := state(t, pool, ids[0])
	if st.Sent || st.Attempts != 1 || !strings.Contains(st.LastError, "connect") || st.DueIn <= 0 || st.DueIn > time.Second {
		t.Fatalf("after a failed attempt: %+v; want unsent, 1 attempt, the connection error, due within 1 s", st)
	}
	if n, _ := first.RunOnce(t.Context()); n != 0 {
		t.Fatal("a failed mail was retried before its backoff ended")
	}
	s := sender(100 * time.Millisecond)

	// The loop keeps retrying, with growing waits, while SMTP is down.
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, "three failed attempts", func() bool { return state(t, pool, ids[0]).Attempts >= 3 })
	if st := state(t, pool, ids[0]); st.Sent || st.DueIn <= 200*time.Millisecond-50*time.Millisecond {
		t.Fatalf("after three attempts: %+v; want unsent and a backoff of 200 ms or more", st)
	}

	// SMTP comes back: the mail is delivered, once.
	smtp := smtptest.Start(t, addr, "", "")
	waitFor(t, "delivery", func() bool { return state(t, pool, ids[0]).Sent })
	time.Sleep(200 * time.Millisecond) // a few more rounds of the loop
	got := smtp.Messages()
	if len(got) != 1 || got[0].To[0] != "ana@example.com" {
		t.Fatalf("received %d messages (%v), want the one mail once", len(got), got)
	}
	if st := state(t, pool, ids[0]); st.LastError != "" {
		t.Fatalf("after delivery: %+v", st)
	}
}

func TestSeveralSendersDeliverEachMailOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	smtp.SetDelay(5 * time.Millisecond) // senders overlap
	var recipients []string
	for i := range 40 {
		recipients = append(recipients, fmt.Sprintf("user%02d@example.com", i))
	}
	queue(t, pool, recipients...)

	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 3 {
		// Each sender has a pool of its own, as separate serve instances do.
		own, err := pgxpool.New(ctx, pool.Config().ConnString())
		if err != nil {
			t.Fatal(err)
		}
		defer own.Close()
		s, err := outbox.New(own, outbox.Config{SMTPURL: "smtp://" + smtp.Addr, Batch: 3, Poll: 10 * time.Millisecond}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { s.Run(ctx) })
	}
	waitFor(t, "every mail sent", func() bool {
		var unsent int
		if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL").Scan(&unsent); err != nil {
			t.Fatal(err)
		}
		return unsent == 0
	})
	time.Sleep(100 * time.Millisecond)
	cancel()
	wg.Wait()

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
	if err := pool.QueryRow(t.Context(), "SELECT sum(attempts) FROM mail_outbox").Scan(&attempts); err != nil || attempts != len(recipients) {
		t.Fatalf("%d attempts in all (%v), want one a mail", attempts, err)
	}
}

func TestClaimOfADeadSenderIsRetriedAfterItsLease(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	ids := queue(t, pool, "ana@example.com")
	q := db.New(pool)
	// A sender claims the mail and dies before sending it.
	claimed, err := q.MailOutboxClaim(t.Context(), db.MailOutboxClaimParams{LeaseSeconds: 0.3, Batch: 10})
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v, %v", claimed, err)
	}
	s, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://" + smtp.Addr}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	// While the lease lasts, nobody else takes it.
	if n, err := s.RunOnce(t.Context()); n != 0 || err != nil {
		t.Fatalf("RunOnce during the lease = %d, %v", n, err)
	}
	time.Sleep(400 * time.Millisecond)
	if n, err := s.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce after the lease = %d, %v", n, err)
	}
	if st := state(t, pool, ids[0]); !st.Sent || st.Attempts != 2 || len(smtp.Messages()) != 1 {
		t.Fatalf("after the lease: %+v, %d messages", st, len(smtp.Messages()))
	}
}

func TestStoppedSenderGivesBackItsClaim(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	smtp.SetDelay(300 * time.Millisecond)
	ids := queue(t, pool, "a@example.com", "b@example.com", "c@example.com")
	s, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://" + smtp.Addr}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel) // while the first mail is being sent
	if n, err := s.RunOnce(ctx); n != 3 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	// The mail in flight was finished; the two others are due again at once,
	// their attempt not counted.
	if st := state(t, pool, ids[0]); !st.Sent || len(smtp.Messages()) != 1 {
		t.Fatalf("mail in flight: %+v, %d messages", st, len(smtp.Messages()))
	}
	for _, id := range ids[1:] {
		if st := state(t, pool, id); st.Sent || st.Attempts != 0 || st.DueIn > 0 {
			t.Fatalf("mail %d given back: %+v", id, st)
		}
	}
}

func TestWrongCredentialsAreRetried(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "mailer", "right-password")
	ids := queue(t, pool, "ana@example.com")
	s, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://mailer:wrong-password@" + smtp.Addr}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	st := state(t, pool, ids[0])
	if st.Sent || !strings.Contains(st.LastError, "535") || st.DueIn < 25*time.Second || st.DueIn > 30*time.Second {
		t.Fatalf("after refused credentials: %+v; want unsent, the 535 answer, retried in 30 s", st)
	}
	if len(smtp.Messages()) != 0 {
		t.Fatal("a mail went through without authentication")
	}
}

func TestWithoutSMTPMailsAreLogged(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ids := queue(t, pool, "ana@example.com")
	var log logBuffer
	s, err := outbox.New(pool, outbox.Config{}, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	out := log.String()
	if !strings.Contains(out, "level=INFO") || !strings.Contains(out, "to=ana@example.com") ||
		!strings.Contains(out, "verify-email?token=abc_DEF-123") {
		t.Fatalf("log = %s; want the mail with its link at info level", out)
	}
	if st := state(t, pool, ids[0]); !st.Sent {
		t.Fatalf("a logged mail is not marked sent: %+v", st)
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
		if err := outbox.CheckSMTPURL(raw); (err == nil) != ok {
			t.Errorf("CheckSMTPURL(%q) = %v, want ok %v", raw, err, ok)
		}
	}
}

// queryRecorder keeps the SQL and arguments of every query of a pool.
type queryRecorder struct {
	mu      sync.Mutex
	queries []pgx.TraceQueryStartData
}

func (r *queryRecorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, data)
	return ctx
}

func (r *queryRecorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestClaimReadsTheDueIndex: with many sent and not yet due mails, the claim
// that every sender makes every few seconds reads only the due ones, from
// mail_outbox_due_idx.
func TestClaimReadsTheDueIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	for _, sql := range []string{
		`INSERT INTO mail_outbox (recipient, subject, body, attempts, sent_at)
		 SELECT 'u' || g || '@example.com', 'Sent', '', 1, now() - interval '1 day' FROM generate_series(1, 100000) AS g`,
		`INSERT INTO mail_outbox (recipient, subject, body, attempts, next_attempt_at)
		 SELECT 'r' || g || '@example.com', 'Retry', 'b', 3, now() + interval '1 hour' FROM generate_series(1, 2000) AS g`,
		`ANALYZE mail_outbox`,
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	queue(t, pool, "a@example.com", "b@example.com", "c@example.com")

	// Run the sender's own claim, and record it.
	cfg := pool.Config()
	rec := &queryRecorder{}
	cfg.ConnConfig.Tracer = rec
	traced, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer traced.Close()
	s, err := outbox.New(traced, outbox.Config{}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RunOnce(ctx); n != 3 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	var claim *pgx.TraceQueryStartData
	for i, q := range rec.queries {
		if strings.HasPrefix(q.SQL, "-- name: MailOutboxClaim") {
			claim = &rec.queries[i]
		}
	}
	if claim == nil {
		t.Fatal("the claim was not recorded")
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx, "EXPLAIN "+claim.SQL, claim.Args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "Index Scan using mail_outbox_due_idx") || strings.Contains(text, "Seq Scan") {
		t.Fatalf("the claim does not read mail_outbox_due_idx:\n%s", text)
	}
}

// selfSigned answers a server certificate for 127.0.0.1 and a pool that
// trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, roots
}

// TestSTARTTLS: a server that offers STARTTLS gets the mail, and the
// password, over TLS only; a certificate that does not verify stops the
// delivery (retried later) before any credential is sent.
func TestSTARTTLS(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	cert, roots := selfSigned(t)
	smtp := smtptest.StartTLS(t, "", "mailer", "secret", &tls.Config{Certificates: []tls.Certificate{cert}})
	ids := queue(t, pool, "ana@example.com", "bob@example.com")

	untrusting, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://mailer:secret@" + smtp.Addr, Batch: 1}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := untrusting.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	if st := state(t, pool, ids[0]); st.Sent || !strings.Contains(st.LastError, "STARTTLS") || len(smtp.Messages()) != 0 {
		t.Fatalf("with an unverified certificate: %+v, %d messages", st, len(smtp.Messages()))
	}

	s, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://mailer:secret@" + smtp.Addr, TLS: &tls.Config{RootCAs: roots}}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RunOnce(t.Context()); n != 1 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	got := smtp.Messages()
	if len(got) != 1 || !got[0].TLS || got[0].User != "mailer" || got[0].To[0] != "bob@example.com" {
		t.Fatalf("received %+v, want bob's mail over TLS, authenticated", got)
	}
}
