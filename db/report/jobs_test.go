package report_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"adboost/db"
	"adboost/db/report"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type dueUser struct {
	User   int64
	Zone   string
	Monday string
}

func dueAt(t *testing.T, w *world, now string) []dueUser {
	t.Helper()
	rows, err := db.New(w.pool).ReportDueUsers(context.Background(), at(t, now))
	if err != nil {
		t.Fatal(err)
	}
	out := []dueUser{}
	for _, r := range rows {
		out = append(out, dueUser{r.UserID, r.TimeZone, r.Monday.Time.Format(time.DateOnly)})
	}
	return out
}

// A user is due from Monday 08:00 in the zone of their latest campaign's ad
// account, whichever side of a daylight-saving change: Europe/Prague is
// UTC+2 on Monday 19 October 2026 and UTC+1 on Monday 26 October.
func TestDueAtEightOnMondayInTheUsersZone(t *testing.T) {
	w := newWorld(t)
	w.user(1, "Dana")
	w.user(2, "Otto")
	w.user(3, "Ida")
	w.campaign(11, 1, "EUR", "Asia/Tokyo")
	w.campaign(12, 1, "EUR", "Europe/Prague") // the latest: its zone counts
	w.campaign(21, 2, "USD", "")              // no zone: UTC
	w.campaign(31, 3, "EUR", "Europe/Prague") // spends nothing
	w.post(101, 1, "a")
	w.post(201, 2, "b")
	w.post(301, 3, "c")
	w.days(
		day{campaign: 11, post: 101, date: "2026-10-12", spend: "1.000"},
		day{campaign: 11, post: 101, date: "2026-10-25", spend: "1.000"},
		day{campaign: 21, post: 201, date: "2026-10-19", spend: "2.000"},
		day{campaign: 31, post: 301, date: "2026-10-20", engagement: 5, spend: "0.000"},
	)
	for _, c := range []struct {
		now  string
		want []dueUser
	}{
		{"2026-10-19T05:59:59Z", []dueUser{}},
		{"2026-10-19T06:00:00Z", []dueUser{{1, "Europe/Prague", "2026-10-12"}}}, // 08:00 CEST
		{"2026-10-26T06:59:59Z", []dueUser{}},                                   // 07:59:59 CET
		{"2026-10-26T07:00:00Z", []dueUser{{1, "Europe/Prague", "2026-10-19"}}}, // 08:00 CET
		{"2026-10-26T08:00:00Z", []dueUser{{1, "Europe/Prague", "2026-10-19"}, {2, "UTC", "2026-10-19"}}},
		{"2026-10-29T12:00:00Z", []dueUser{{1, "Europe/Prague", "2026-10-19"}, {2, "UTC", "2026-10-19"}}}, // later that week
		{"2026-11-02T08:00:00Z", []dueUser{}},                                                             // nothing spent in the week of 26 October
	} {
		if got := dueAt(t, w, c.now); !equalDue(got, c.want) {
			t.Errorf("at %s: %v, want %v", c.now, got, c.want)
		}
	}
	// A zone PostgreSQL does not know counts as UTC; a user who turned the
	// report off is never due.
	w.exec(`UPDATE campaign SET ad_account_timezone = 'Mars/Olympus' WHERE id = 12`)
	if got := dueAt(t, w, "2026-10-26T07:00:00Z"); len(got) != 0 {
		t.Errorf("unknown zone at 07:00 UTC: %v", got)
	}
	if got := dueAt(t, w, "2026-10-26T08:00:00Z"); !equalDue(got, []dueUser{{1, "UTC", "2026-10-19"}, {2, "UTC", "2026-10-19"}}) {
		t.Errorf("unknown zone at 08:00 UTC: %v", got)
	}
	w.exec(`UPDATE app_user SET weekly_report = false WHERE id = 2`)
	if got := dueAt(t, w, "2026-10-26T08:00:00Z"); !equalDue(got, []dueUser{{1, "UTC", "2026-10-19"}}) {
		t.Errorf("weekly_report false: %v", got)
	}
}

func equalDue(a, b []dueUser) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func outboxCount(t *testing.T, w *world) (n int) {
	t.Helper()
	if err := w.pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two instances' River clients look for the users due at once: one job and
// one mail for the user's week, and a job run again queues nothing more.
func TestOnceAWeekWithTwoInstances(t *testing.T) {
	ctx := context.Background()
	w := twoWeeks(t)
	if err := report.Migrate(ctx, w.pool); err != nil {
		t.Fatal(err)
	}
	var runners []*report.Runner
	done := make(chan *river.Event, 4)
	for range 2 {
		r, err := report.NewRunner(w.pool, composer(w), 0, quiet())
		if err != nil {
			t.Fatal(err)
		}
		events, cancel := r.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		t.Cleanup(cancel)
		go func() {
			for e := range events {
				done <- e
			}
		}()
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Stop(context.Background()) })
		runners = append(runners, r)
	}
	now := at(t, "2026-10-26T07:30:00Z") // 08:30 in Prague
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, r := range runners {
		wg.Go(func() {
			n, err := r.EnqueueDue(ctx, now)
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		})
	}
	wg.Wait()
	if counts[0]+counts[1] != 1 {
		t.Fatalf("jobs inserted %v, want 1 in all", counts)
	}
	select {
	case e := <-done:
		if e.Kind != river.EventKindJobCompleted || e.Job.Kind != report.KindUser {
			t.Fatalf("job %s: %s", e.Job.Kind, e.Kind)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the user's job did not finish")
	}
	// The week's report is queued once; neither a new look nor the job run
	// again adds one.
	if n, err := runners[1].EnqueueDue(ctx, now.Add(20*time.Minute)); err != nil || n != 0 {
		t.Errorf("a later look inserted %d jobs (%v)", n, err)
	}
	if queued, err := runners[0].Send(ctx, 1, week43(t)); err != nil || queued {
		t.Errorf("sent again: %v, %v", queued, err)
	}
	var recipient, subject, mimeType string
	if err := w.pool.QueryRow(ctx, `SELECT recipient, subject, mime_type FROM mail_outbox`).Scan(&recipient, &subject, &mimeType); err != nil {
		t.Fatal(err)
	}
	if n := outboxCount(t, w); n != 1 || recipient != "user1@example.com" || subject != "Your boosted posts, week 2026-W43" {
		t.Errorf("outbox: %d mails, %s %q", n, recipient, subject)
	}
	if got := dueAt(t, w, "2026-10-26T09:00:00Z"); !equalDue(got, []dueUser{{2, "UTC", "2026-10-19"}}) {
		t.Errorf("due after the report: %v", got)
	}
}

func TestWeeklyReportOffSendsNothing(t *testing.T) {
	ctx := context.Background()
	w := twoWeeks(t)
	w.exec(`UPDATE app_user SET weekly_report = false WHERE id = 1`)
	if err := report.Migrate(ctx, w.pool); err != nil {
		t.Fatal(err)
	}
	r, err := report.NewRunner(w.pool, composer(w), 0, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.EnqueueDue(ctx, at(t, "2026-10-26T07:30:00Z")); err != nil || n != 0 {
		t.Errorf("enqueued %d (%v)", n, err)
	}
	if queued, err := r.Send(ctx, 1, week43(t)); err != nil || queued {
		t.Errorf("queued %v (%v)", queued, err)
	}
	if n := outboxCount(t, w); n != 0 {
		t.Errorf("%d mails", n)
	}
	// Turned on again, the week's report goes.
	w.exec(`UPDATE app_user SET weekly_report = true WHERE id = 1`)
	if queued, err := r.Send(ctx, 1, week43(t)); err != nil || !queued || outboxCount(t, w) != 1 {
		t.Errorf("queued %v (%v)", queued, err)
	}
}

// The periodic job runs when the client starts (its leader in the report's
// own schema) and the user's job it enqueues queues the mail.
func TestPeriodicJobQueuesTheReport(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.user(1, "Dana")
	w.campaign(11, 1, "EUR", "")
	w.post(101, 1, "a")
	now := time.Now().UTC()
	week := report.LastWholeWeek(now, time.UTC)
	if now.Weekday() == time.Monday && now.Hour() < 8 {
		week = week.Add(-1) // this week's report is not due before 08:00
	}
	w.days(day{campaign: 11, post: 101, date: week.Day(2).Format(time.DateOnly), engagement: 4, spend: "3.000"})
	if err := report.Migrate(ctx, w.pool); err != nil {
		t.Fatal(err)
	}
	r, err := report.NewRunner(w.pool, composer(w), time.Hour, quiet())
	if err != nil {
		t.Fatal(err)
	}
	events, cancel := r.Client().Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	defer cancel()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Stop(context.Background()) })
	for {
		select {
		case e := <-events:
			if e.Kind != river.EventKindJobCompleted {
				t.Fatalf("job %s failed: %v", e.Job.Kind, e.Job.Errors)
			}
			if e.Job.Kind != report.KindUser {
				continue
			}
			var subject string
			if err := w.pool.QueryRow(ctx, `SELECT subject FROM mail_outbox`).Scan(&subject); err != nil || subject != "Your boosted posts, week "+week.String() {
				t.Fatalf("outbox: %q (%v)", subject, err)
			}
			return
		case <-time.After(60 * time.Second):
			t.Fatal("no report job completed")
		}
	}
}
