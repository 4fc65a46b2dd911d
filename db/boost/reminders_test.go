package boost_test

import (
	"context"
	"mime"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/db/boost"
	"adboost/db/mailer/mailertest"
)

// reminderMails answers the mails the world's SMTP server received that
// remind of a network_a connection's end, as "recipient|subject" and their
// bodies, in order.
func (w *world) reminderMails() (mails, bodies []string) {
	w.t.Helper()
	mails = []string{}
	for _, m := range w.smtp.Messages() {
		msg, body := mailertest.Decode(w.t, m)
		subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		if err != nil {
			w.t.Fatal(err)
		}
		if strings.HasPrefix(subject, "adboost: your network_a connection") {
			mails = append(mails, m.To[0]+"|"+subject)
			bodies = append(bodies, strings.ReplaceAll(body, "\r\n", "\n"))
		}
	}
	return mails, bodies
}

// awaitReminderMails waits until the world's SMTP server received n
// reminder mails (the runner's jobs send them) and answers them.
func (w *world) awaitReminderMails(n int) []string {
	w.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, _ := w.reminderMails()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("reminder mails %q, want %d\n%s", got, n, w.logs)
		}
	}
}

// withinADay counts the reminder mails received that say the connection
// ends within a day.
func (w *world) withinADay() int {
	w.t.Helper()
	_, bodies := w.reminderMails()
	n := 0
	for _, b := range bodies {
		if strings.Contains(b, "within a day.") {
			n++
		}
	}
	return n
}

// remScalar answers the single value of a query.
func remScalar[T any](w *world, sql string, args ...any) T {
	w.t.Helper()
	var v T
	if err := w.pool.QueryRow(context.Background(), sql, args...).Scan(&v); err != nil {
		w.t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// reminders asks the engine for the reminders due and checks how many it
// enqueued.
func (w *world) reminders(want int) {
	w.t.Helper()
	if n, err := w.engine.SendReminders(context.Background(), w.jobs); err != nil || n != want {
		w.t.Fatalf("reminders enqueued %d, %v; want %d", n, err, want)
	}
}

// The reminders of a token's end go out 7 days and 1 day before it, once
// each, as the engine's clock moves; a renewed token is reminded of again;
// a refused one is not.
func TestRemindersBeforeTheEnd(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	runner, err := w.newRunner(w.engine, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runner.Stop(context.Background()) })
	end := time.Date(2027, 3, 28, 9, 30, 0, 0, time.UTC) // Europe's clocks change that night: the date stays UTC's
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = $1, first_name = 'Ana' WHERE id = 100`, end)
	const mail = "ana@example.com|adboost: your network_a connection ends on 2027-03-28"

	w.setNow(end.Add(-8 * 24 * time.Hour))
	w.reminders(0)
	w.setNow(end.Add(-7*24*time.Hour + time.Minute))
	w.reminders(1)
	w.reminders(0)
	if got := w.awaitReminderMails(1); len(got) != 1 || got[0] != mail {
		t.Fatalf("mails %q", got)
	}
	_, bodies := w.reminderMails()
	body := bodies[0]
	for _, s := range []string{"Hello Ana,", "ends on 2027-03-28 (at 09:30 UTC), in 7 days", "login-sn"} {
		if !strings.Contains(body, s) {
			t.Fatalf("the mail does not say %q:\n%s", s, body)
		}
	}
	w.setNow(end.Add(-2 * 24 * time.Hour))
	w.reminders(0)
	w.setNow(end.Add(-23 * time.Hour))
	w.reminders(1)
	w.reminders(0)
	if got := w.awaitReminderMails(2); len(got) != 2 || got[1] != mail {
		t.Fatalf("mails %q", got)
	}
	if n := w.withinADay(); n != 1 {
		t.Fatalf("%d mails say within a day, want 1", n)
	}
	w.setNow(end.Add(time.Hour))
	w.reminders(0)

	// A renewed token (a new end) is reminded of again; the cycle looks.
	renewed := end.AddDate(0, 0, 60)
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = $1 WHERE id = 100`, renewed)
	w.setNow(renewed.Add(-6 * 24 * time.Hour))
	if err := w.engine.Cycle(ctx); err != nil {
		t.Fatal(err)
	}
	w.reminders(0)
	if got := w.awaitReminderMails(3); len(got) != 3 || got[2] != "ana@example.com|adboost: your network_a connection ends on 2027-05-27" {
		t.Fatalf("mails %q", got)
	}

	// A token found in its last day gets the 1-day reminder only; a refused
	// one none.
	last := renewed.AddDate(0, 0, 60)
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = $1, network_a_token_invalid_at = now() WHERE id = 100`, last)
	w.setNow(last.Add(-3 * time.Hour))
	w.reminders(0)
	w.stExec(`UPDATE app_user SET network_a_token_invalid_at = NULL WHERE id = 100`)
	w.reminders(1)
	w.setNow(last.Add(-2 * time.Hour))
	w.reminders(0)
	w.awaitReminderMails(4)
	if n := w.withinADay(); n != 2 {
		t.Fatalf("%d mails say within a day, want 2", n)
	}
}

// Any number of engines looking at once enqueue each reminder once; a
// job whose token was renewed before it ran sends nothing.
func TestRemindersOnceAcrossEngines(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	end := time.Now().UTC().Add(5 * 24 * time.Hour).Truncate(time.Second)
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = $1 WHERE id = 100`, end)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 8 {
		e := w.newEngine()
		wg.Go(func() {
			n, err := e.SendReminders(ctx, w.jobs)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	if total != 1 {
		t.Fatalf("%d reminders enqueued, want 1", total)
	}
	if n := remScalar[int64](w, `SELECT count(*) FROM river_job WHERE kind = $1`, boost.KindReminder); n != 1 {
		t.Fatalf("%d jobs, want 1", n)
	}

	// The user renews the token before the job runs: no mail.
	w.stExec(`UPDATE app_user SET network_a_token_expires_at = $1 WHERE id = 100`, end.AddDate(0, 0, 60))
	runner, err := w.newRunner(w.engine, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runner.Stop(context.Background()) })
	for deadline := time.Now().Add(20 * time.Second); remScalar[string](w, `SELECT state::text FROM river_job WHERE kind = $1`, boost.KindReminder) != "completed"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the reminder job did not complete\n%s", w.logs)
		}
	}
	if got, _ := w.reminderMails(); len(got) != 0 {
		t.Fatalf("mails %q for a renewed token", got)
	}
}
