package mailer

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"adboost/db"
)

// Collector reports the backlog of the mail jobs to Prometheus, reading it
// (MailJobBacklog) at each scrape, as adboost_mail_outbox_*: the mails on
// their way out.
type Collector struct {
	q       *db.Queries
	timeout time.Duration
}

// NewCollector answers a collector of the backlog in pool's database.
func NewCollector(pool *pgxpool.Pool) *Collector {
	return &Collector{q: db.New(pool), timeout: 2 * time.Second}
}

var (
	unsentDesc = prometheus.NewDesc("adboost_mail_outbox_unsent",
		"Mails not sent yet, due or waiting for a retry.", nil, nil)
	dueDesc = prometheus.NewDesc("adboost_mail_outbox_due",
		"Mails due to be sent now.", nil, nil)
	oldestDueDesc = prometheus.NewDesc("adboost_mail_outbox_oldest_due_seconds",
		"How long the most overdue mail has been due (0 when none is): grows while the mail jobs cannot keep up or SMTP is down.", nil, nil)
)

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- unsentDesc
	ch <- dueDesc
	ch <- oldestDueDesc
}

// Collect implements prometheus.Collector. When the database does not
// answer, the scrape reports the error for these metrics only.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	b, err := c.q.MailJobBacklog(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(unsentDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(unsentDesc, prometheus.GaugeValue, float64(b.Unsent))
	ch <- prometheus.MustNewConstMetric(dueDesc, prometheus.GaugeValue, float64(b.Due))
	ch <- prometheus.MustNewConstMetric(oldestDueDesc, prometheus.GaugeValue, b.OldestDueSeconds)
}
