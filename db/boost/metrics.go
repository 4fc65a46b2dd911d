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
	jobs *prometheus.CounterVec
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

// RegisterMetrics registers the engine's collectors, the jobs' ages read
// with client:
//
//	adboost_engine_jobs_total{result="done"|"failed"}  counter
//	adboost_engine_oldest_pending_seconds              gauge: age of the oldest engine job still to run (0: none)
func (j *Jobs) RegisterMetrics(reg prometheus.Registerer, client *river.Client[pgx.Tx]) error {
	j.metrics.jobs.WithLabelValues("done")
	j.metrics.jobs.WithLabelValues("failed")
	if err := reg.Register(j.metrics.jobs); err != nil {
		return err
	}
	return reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "adboost_engine_oldest_pending_seconds",
		Help: "Age in seconds of the oldest boosting engine job that is still to run (available, scheduled or awaiting a retry); 0 when none.",
	}, func() float64 { return oldestPending(client) }))
}

// oldestPending answers the age of the oldest pending engine job; -1 when
// the database does not answer within 2 s.
func oldestPending(client *river.Client[pgx.Tx]) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := client.JobList(ctx, river.NewJobListParams().
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
