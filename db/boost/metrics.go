package boost

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
)

// metrics are the engine's Prometheus collectors: campaign jobs done and
// failed, and the age of the oldest engine job still to run.
type metrics struct {
	jobs   *prometheus.CounterVec
	client *river.Client[pgx.Tx]
}

func newMetrics() *metrics {
	return &metrics{jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "adboost_engine_jobs_total",
		Help: "Campaign jobs of the boosting engine worked, by result (done, failed: retried later).",
	}, []string{"result"})}
}

func (m *metrics) done(err error) {
	if err != nil {
		m.jobs.WithLabelValues("failed").Inc()
		return
	}
	m.jobs.WithLabelValues("done").Inc()
}

// RegisterMetrics registers the engine's collectors:
//
//	adboost_engine_jobs_total{result="done"|"failed"}  counter
//	adboost_engine_oldest_pending_seconds              gauge: age of the oldest engine job still to run (0: none)
func (r *Runner) RegisterMetrics(reg prometheus.Registerer) error {
	r.metrics.jobs.WithLabelValues("done")
	r.metrics.jobs.WithLabelValues("failed")
	if err := reg.Register(r.metrics.jobs); err != nil {
		return err
	}
	return reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "adboost_engine_oldest_pending_seconds",
		Help: "Age in seconds of the oldest boosting engine job that is still to run (available, scheduled or awaiting a retry); 0 when none.",
	}, r.metrics.oldestPending))
}

// oldestPending answers the age of the oldest pending engine job; -1 when
// the database does not answer within 2 s.
func (m *metrics) oldestPending() float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := m.client.JobList(ctx, river.NewJobListParams().
		Kinds(KindCycle, KindCampaign, KindPause).
		States(pendingStates...).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).
		First(1))
	if err != nil {
		return -1
	}
	if len(res.Jobs) == 0 {
		return 0
	}
	return time.Since(res.Jobs[0].CreatedAt).Seconds()
}
