package report_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"adboost/db"
	"adboost/db/jobs"
	"adboost/db/mailer"
	"adboost/db/mailer/mailertest"
	"adboost/db/mailer/smtptest"
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

// process is the River client of a `serve` over the world's database: it
// sends the mails to smtp and looks for the users due every `every` (never
// when 0).
func process(t *testing.T, w *world, smtp *smtptest.Server, every time.Duration) (*report.Jobs, *jobs.Client) {
	t.Helper()
	sender, err := mailer.New(w.pool, mailer.Config{SMTPURL: "smtp://" + smtp.Addr}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	client, err := jobs.New(w.pool, jobs.Options{Mail: sender, Report: composer(w), ReportEvery: every, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	return report.NewJobs(w.pool, composer(w), quiet()), client
}

// start starts a process's client until the test ends.
func start(t *testing.T, client *jobs.Client) {
	t.Helper()
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = jobs.Stop(context.Background(), client) })
}

// reportJobs counts the report mails queued.
func reportJobs(t *testing.T, w *world) int {
	t.Helper()
	return len(mailertest.Args[report.UserArgs](t, w.pool))
}

// Two instances' River clients look for the users due at once: one job and
// one mail for the user's week, and a job run again queues nothing more.
func TestOnceAWeekWithTwoInstances(t *testing.T) {
	ctx := context.Background()
	w := twoWeeks(t)
	smtp := smtptest.Start(t, "", "", "")
	type instance struct {
		jobs   *report.Jobs
		client *jobs.Client
	}
	var instances []instance
	done := make(chan *river.Event, 4)
	for range 2 {
		j, client := process(t, w, smtp, 0)
		events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
		t.Cleanup(cancel)
		go func() {
			for e := range events {
				done <- e
			}
		}()
		start(t, client)
		instances = append(instances, instance{j, client})
	}
	now := at(t, "2026-10-26T07:30:00Z") // 08:30 in Prague
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, in := range instances {
		wg.Go(func() {
			n, err := in.jobs.EnqueueDue(ctx, in.client, now)
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
	// The week's report is queued once; neither a new look nor a queue of
	// the same week again adds one.
	if n, err := instances[1].jobs.EnqueueDue(ctx, instances[1].client, now.Add(20*time.Minute)); err != nil || n != 0 {
		t.Errorf("a later look inserted %d jobs (%v)", n, err)
	}
	if queued, err := instances[0].jobs.Queue(ctx, instances[0].client, 1, week43(t)); err != nil || queued {
		t.Errorf("sent again: %v, %v", queued, err)
	}
	got := smtp.Messages()
	if len(got) != 1 || reportJobs(t, w) != 1 {
		t.Fatalf("%d mails sent, %d queued; want 1", len(got), reportJobs(t, w))
	}
	msg, _ := mailertest.Decode(t, got[0])
	if got[0].To[0] != "user1@example.com" || msg.Header.Get("Subject") != "Your boosted posts, week 2026-W43" ||
		!strings.HasPrefix(msg.Header.Get("Content-Type"), "multipart/alternative; boundary=") {
		t.Errorf("sent: %v %v", got[0].To, msg.Header)
	}
	if got := dueAt(t, w, "2026-10-26T09:00:00Z"); !equalDue(got, []dueUser{{2, "UTC", "2026-10-19"}}) {
		t.Errorf("due after the report: %v", got)
	}
}

func TestWeeklyReportOffSendsNothing(t *testing.T) {
	ctx := context.Background()
	w := twoWeeks(t)
	w.exec(`UPDATE app_user SET weekly_report = false WHERE id = 1`)
	r, client := process(t, w, smtptest.Start(t, "", "", ""), 0)
	if n, err := r.EnqueueDue(ctx, client, at(t, "2026-10-26T07:30:00Z")); err != nil || n != 0 {
		t.Errorf("enqueued %d (%v)", n, err)
	}
	if queued, err := r.Queue(ctx, client, 1, week43(t)); err != nil || queued {
		t.Errorf("queued %v (%v)", queued, err)
	}
	if n := reportJobs(t, w); n != 0 {
		t.Errorf("%d mails", n)
	}
	// Turned on again, the week's report goes.
	w.exec(`UPDATE app_user SET weekly_report = true WHERE id = 1`)
	if queued, err := r.Queue(ctx, client, 1, week43(t)); err != nil || !queued || reportJobs(t, w) != 1 {
		t.Errorf("queued %v (%v)", queued, err)
	}
	// Turned off before its mail went: nothing is sent.
	w.exec(`UPDATE app_user SET weekly_report = false WHERE id = 1`)
	if _, err := r.Mail(ctx, mailertest.Args[report.UserArgs](t, w.pool)[0]); !errors.Is(err, mailer.ErrNoMail) {
		t.Errorf("the mail of a report turned off: %v", err)
	}
}

// The periodic job runs when the client starts (River's leader) and the
// user's job it enqueues sends the mail.
func TestPeriodicJobQueuesTheReport(t *testing.T) {
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
	smtp := smtptest.Start(t, "", "", "")
	_, client := process(t, w, smtp, time.Hour)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	defer cancel()
	start(t, client)
	for {
		select {
		case e := <-events:
			if e.Kind != river.EventKindJobCompleted {
				t.Fatalf("job %s failed: %v", e.Job.Kind, e.Job.Errors)
			}
			if e.Job.Kind != report.KindUser {
				continue
			}
			got := smtp.Messages()
			if len(got) != 1 {
				t.Fatalf("%d mails sent", len(got))
			}
			if msg, _ := mailertest.Decode(t, got[0]); msg.Header.Get("Subject") != "Your boosted posts, week "+week.String() {
				t.Fatalf("sent: %q", msg.Header.Get("Subject"))
			}
			return
		case <-time.After(60 * time.Second):
			t.Fatal("no report job completed")
		}
	}
}
