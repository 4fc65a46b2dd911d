// Package mailertest reads, for tests, the mail jobs of a database and the
// mails an SMTP test server received.
package mailertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"adboost/db/mailer"
	"adboost/db/mailer/smtptest"
)

// Args answers the arguments of every job of T's kind, oldest first.
func Args[T river.JobArgs](t testing.TB, pool *pgxpool.Pool) []T {
	t.Helper()
	var kind T
	rows, err := pool.Query(context.Background(), `SELECT args FROM river_job WHERE kind = $1 ORDER BY id`, kind.Kind())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var raw []byte
		var a T
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Mails answers the mails of every job of T's kind, oldest first, as the
// args' Mail renders them.
func Mails[T interface {
	river.JobArgs
	Mail() mailer.Message
}](t testing.TB, pool *pgxpool.Pool) []mailer.Message {
	t.Helper()
	var out []mailer.Message
	for _, a := range Args[T](t, pool) {
		out = append(out, a.Mail())
	}
	return out
}

// Count answers how many mail jobs there are, whatever their state.
func Count(t testing.TB, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE queue = $1`, mailer.Queue).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Decode reads a received message: its headers and its decoded plain-text
// body.
func Decode(t testing.TB, m smtptest.Message) (*mail.Message, string) {
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
