package outbox_test

import (
	"bytes"
	"context"
	"io"
	"net/mail"
	"testing"

	"adboost/db/dbtest"
	"adboost/db/outbox"
	"adboost/db/outbox/smtptest"
)

// A mail prepared whole goes out with its own Content-Type and its body as
// it is, beside a plain one; both are emptied once sent.
func TestPreparedMIMEMailIsSentAsItIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	const contentType = "multipart/alternative; boundary=b1"
	body := "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nYour week.\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Your week.</p>\r\n--b1--\r\n"
	var id int64
	if err := pool.QueryRow(ctx, `INSERT INTO mail_outbox (recipient, subject, body, mime_body, mime_type)
		VALUES ('ana@example.com', 'Your week', 'Your week.', $1, $2) RETURNING id`, body, contentType).Scan(&id); err != nil {
		t.Fatal(err)
	}
	queue(t, pool, "bob@example.com")
	s, err := outbox.New(pool, outbox.Config{SMTPURL: "smtp://" + smtp.Addr, From: "adboost <no-reply@adboost.example>"}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RunOnce(t.Context()); err != nil || n != 2 {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	got := smtp.Messages()
	if len(got) != 2 || got[0].To[0] != "ana@example.com" {
		t.Fatalf("received %d messages", len(got))
	}
	msg, err := mail.ReadMessage(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(msg.Body)
	if msg.Header.Get("Content-Type") != contentType || msg.Header.Get("Content-Transfer-Encoding") != "" ||
		msg.Header.Get("Mime-Version") != "1.0" || msg.Header.Get("Subject") != "Your week" || string(raw) != body {
		t.Errorf("prepared mail: headers %v, body %q", msg.Header, raw)
	}
	if m, _ := decoded(t, got[1]); m.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("plain mail: Content-Type %q", m.Header.Get("Content-Type"))
	}
	var left int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM mail_outbox WHERE mime_body IS NOT NULL OR mime_type IS NOT NULL OR body <> ''`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d mails keep a body after sending (%v)", left, err)
	}
	// The outbox takes a prepared body only with its Content-Type.
	if _, err := pool.Exec(ctx, `INSERT INTO mail_outbox (recipient, subject, body, mime_body) VALUES ('a@example.com', 's', '', 'x')`); err == nil {
		t.Error("a prepared body without its Content-Type was taken")
	}
}
