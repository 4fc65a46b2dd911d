package mailer_test

import (
	"bytes"
	"context"
	"io"
	"net/mail"
	"testing"

	"adboost/db/dbtest"
	"adboost/db/mailer"
	"adboost/db/mailer/mailertest"
	"adboost/db/mailer/smtptest"
)

// A mail prepared whole goes out with its own Content-Type and its body as
// it is, beside a plain one; both bodies are forgotten once sent.
func TestPreparedMIMEMailIsSentAsItIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	smtp := smtptest.Start(t, "", "", "")
	const contentType = "multipart/alternative; boundary=b1"
	body := "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nYour week.\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Your week.</p>\r\n--b1--\r\n"
	ids := insert(t, pool,
		mailer.PreparedArgs{OutboxID: 1, To: "ana@example.com", Subject: "Your week", Body: "Your week.", MIMEType: contentType, MIMEBody: body},
		mailer.PreparedArgs{OutboxID: 2, To: "bob@example.com", Subject: "Your link", Body: "Open " + link + "\n"})
	start(t, pool, mailer.Config{SMTPURL: "smtp://" + smtp.Addr, From: "adboost <no-reply@adboost.example>"}, quiet())
	completed(t, pool, ids...)
	got := smtp.Messages()
	if len(got) != 2 {
		t.Fatalf("received %d messages", len(got))
	}
	if got[0].To[0] != "ana@example.com" {
		got[0], got[1] = got[1], got[0]
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
	if m, _ := mailertest.Decode(t, got[1]); m.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("plain mail: Content-Type %q", m.Header.Get("Content-Type"))
	}
	var left int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE args ?| ARRAY['body', 'mime_body']`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d mails keep a body after sending (%v)", left, err)
	}
	// A prepared body is sent only with its Content-Type: without one, the
	// mail is its plain text.
	if m := (mailer.PreparedArgs{To: "a@example.com", Subject: "s", Body: "text", MIMEBody: "x"}).Mail(); m.ContentType != "" || m.Body != nil || m.Text != "text" {
		t.Errorf("a prepared body without its Content-Type: %+v", m)
	}
}
