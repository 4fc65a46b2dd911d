package boost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"adboost/db"
	"adboost/db/boost"
	"adboost/db/jobs"
	"adboost/db/mailer"
	"adboost/db/report"
)

// runner is the River client of a process that runs engine e with a cycle
// every interval (none when 0), and sends the mails to the world's SMTP
// server, with the engine's jobs.
type runner struct {
	jobs   *boost.Jobs
	client *jobs.Client
}

func (w *world) newRunner(e *boost.Engine, interval time.Duration) (*runner, error) {
	w.t.Helper()
	engine, err := boost.NewJobs(e, interval)
	if err != nil {
		return nil, err
	}
	sender, err := mailer.New(w.pool, mailer.Config{SMTPURL: "smtp://" + w.smtp.Addr}, w.log)
	if err != nil {
		return nil, err
	}
	client, err := jobs.New(w.pool, jobs.Options{
		Mail:   sender,
		Report: report.NewComposer(db.New(w.pool), "https://api.adboost.test", report.KeyFrom([]byte("secret"))),
		Engine: engine,
		Log:    w.log,
	})
	if err != nil {
		return nil, err
	}
	return &runner{jobs: engine, client: client}, nil
}

func (r *runner) Start(ctx context.Context) error { return r.client.Start(ctx) }

func (r *runner) Stop(ctx context.Context) error { return jobs.Stop(ctx, r.client) }

func (r *runner) EnqueueCycle(ctx context.Context) (int, error) {
	return r.jobs.EnqueueCycle(ctx, r.client)
}

func (r *runner) RegisterMetrics(reg prometheus.Registerer) error {
	return r.jobs.RegisterMetrics(reg, r.client)
}

// The engine on River: the periodic cycle enqueues one job per campaign,
// jobs are unique per campaign and interval, a failed job (network_a down)
// is counted and retried; the collectors report jobs done and failed and
// the oldest pending job.
func TestRunnerMetrics(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.post("1", "#gym", time.Hour, 0)
	runner, err := w.newRunner(w.engine, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	if err := runner.RegisterMetrics(reg); err != nil {
		t.Fatal(err)
	}
	// Before the runner works: the cycle's two campaign jobs wait.
	n, err := runner.EnqueueCycle(ctx)
	if err != nil || n != 2 {
		t.Fatalf("enqueued %d, %v; want 2", n, err)
	}
	if n, err := runner.EnqueueCycle(ctx); err != nil || n != 0 {
		t.Fatalf("enqueued again in the same interval: %d, %v; want 0", n, err)
	}
	time.Sleep(1100 * time.Millisecond)
	if got := gauge(t, reg, "adboost_engine_oldest_pending_seconds"); got < 1 {
		t.Errorf("oldest pending %v s, want ≥ 1", got)
	}
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer runner.Stop(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for len(w.fake.Objects("ad")) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	// The work is over when both campaign jobs are done and nothing is
	// pending. The leader's periodic cycle (run on start) may be inserted
	// after the campaign jobs finish; it only enqueues duplicates and ends.
	for time.Now().Before(deadline) {
		if counter(t, reg, "done") >= 2 && gauge(t, reg, "adboost_engine_oldest_pending_seconds") == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Fatalf("ads %s", got)
	}
	if got := counter(t, reg, "done"); got != 2 {
		t.Errorf("jobs done %v, want 2 (the periodic cycle of an hour runs on start, its jobs are duplicates)", got)
	}
	if got := gauge(t, reg, "adboost_engine_oldest_pending_seconds"); got != 0 {
		t.Errorf("oldest pending %v after the work, want 0", got)
	}
	// network_a down: a new job for campaign 7 fails and waits for its retry.
	w.fake.SetDown(true)
	if _, err := runner.client.Insert(ctx, boost.CampaignArgs{CampaignID: 7}, nil); err != nil {
		t.Fatal(err)
	}
	for counter(t, reg, "failed") < 1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := counter(t, reg, "failed"); got != 1 {
		t.Errorf("jobs failed %v, want 1", got)
	}
	if !strings.Contains(w.logs.String(), "network_a is unavailable") {
		t.Errorf("the failure is not logged:\n%s", w.logs)
	}
}

func counter(t *testing.T, reg *prometheus.Registry, result string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "adboost_engine_jobs_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == result {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no adboost_engine_jobs_total{result=%q}", result)
	return 0
}

// gauge answers the value of the named gauge of reg.
func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}
