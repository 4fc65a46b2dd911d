package httpapi_test

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"adboost/db"
	"adboost/db/mailer"
	httpapi "adboost/http"
)

// scrape answers the metric families of GET /metrics.
func (e *env) scrape() map[string]*dto.MetricFamily {
	e.t.Helper()
	r := e.get("/metrics", "")
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		e.t.Fatalf("GET /metrics: %d %q", r.status, r.header.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(r.body))
	if err != nil {
		e.t.Fatalf("GET /metrics is not the text format: %v\n%s", err, r.body)
	}
	return families
}

// metricValue answers the value of the metric of family name whose labels
// are labels (a counter, a gauge, or a histogram's count), and whether it is there.
func metricValue(families map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	f := families[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		if len(m.GetLabel()) != len(labels) {
			continue
		}
		for _, l := range m.GetLabel() {
			if labels[l.GetName()] != l.GetValue() {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

// TestMetrics: /metrics counts the requests by route pattern, method and
// status, times them, and reports the pool and the mail jobs' backlog.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := newEnv(t, func(c *httpapi.Config) { c.Metrics = reg })
	reg.MustRegister(db.NewPoolCollector(e.pool).With("catalogue", e.catalogue).With("one_plan", e.onePlan), mailer.NewCollector(e.pool))
	e.load(usersFixture)
	ctx := context.Background()
	// Three unsent mails: one due for an hour, one due for a minute, one
	// waiting for a retry; and a sent one.
	if _, err := e.pool.Exec(ctx, `
		INSERT INTO river_job (kind, queue, args, max_attempts, state, attempt, scheduled_at, finalized_at) VALUES
		  ('adboost_mail_prepared', 'mail', '{}', 120, 'available', 0, now() - interval '1 hour', NULL),
		  ('adboost_mail_prepared', 'mail', '{}', 120, 'available', 0, now() - interval '1 minute', NULL),
		  ('adboost_mail_prepared', 'mail', '{}', 120, 'retryable', 1, now() + interval '1 hour', NULL),
		  ('adboost_mail_prepared', 'mail', '{}', 120, 'completed', 1, now() - interval '2 hours', now())`); err != nil {
		t.Fatal(err)
	}

	e.get("/healthz", "")
	e.get("/healthz", "")
	e.post("/v1/presets/count", "", map[string]any{})
	e.post("/v1/presets/count", "", map[string]any{"preset_name": "S"})
	e.get("/v1/user/detail", "").fails(http.StatusUnauthorized, "unauthorized")
	e.get("/v1/user/detail", e.token(100)).object()
	e.get("/nowhere", "").fails(http.StatusNotFound, "not_found")
	e.raw(http.MethodOptions, "/v1/presets/browse", map[string]string{"Origin": "http://evil.test"}, "")
	e.raw("BREW", "/v1/presets/browse", nil, "")

	families := e.scrape()
	checkRequestMetrics(t, e, families)
	checkPoolAndMailMetrics(t, e, families)
	// No mail due: 0, not a negative age.
	if _, err := e.pool.Exec(ctx, `UPDATE river_job SET state = 'completed', finalized_at = now() WHERE queue = 'mail' AND scheduled_at <= now()`); err != nil {
		t.Fatal(err)
	}
	if got, ok := metricValue(e.scrape(), "adboost_mail_outbox_oldest_due_seconds", nil); !ok || got != 0 || math.Signbit(got) {
		t.Errorf("adboost_mail_outbox_oldest_due_seconds with nothing due = %v, want 0", got)
	}
}

// checkRequestMetrics checks the requests counted and timed by route
// pattern, method and status, and that a scrape is counted after it answers.
func checkRequestMetrics(t *testing.T, e *env, families map[string]*dto.MetricFamily) {
	t.Helper()
	for _, c := range []struct {
		route, method, status string
		want                  float64
	}{
		{"/healthz", "GET", "200", 2},
		{"/v1/presets/count", "POST", "200", 2},
		{"/v1/user/detail", "GET", "401", 1},
		{"/v1/user/detail", "GET", "200", 1},
		{"unmatched", "GET", "404", 1},
		{"/v1/presets/browse", "OPTIONS", "403", 1},
		{"unmatched", "other", "405", 1},
		{"/metrics", "GET", "200", 0}, // a scrape is counted after it answers
	} {
		labels := map[string]string{"route": c.route, "method": c.method, "status": c.status}
		for _, name := range []string{"adboost_http_requests_total", "adboost_http_request_duration_seconds"} {
			got, ok := metricValue(families, name, labels)
			if got != c.want || !ok && c.want != 0 {
				t.Errorf("%s%v = %v (present %v), want %v", name, labels, got, ok, c.want)
			}
		}
	}
	if got := len(families["adboost_http_requests_total"].GetMetric()); got != 7 {
		t.Errorf("adboost_http_requests_total has %d series, want the 7 above", got)
	}
	// The durations are plausible: all under the largest finite bucket.
	h := families["adboost_http_request_duration_seconds"].GetMetric()[0].GetHistogram()
	if h.GetSampleSum() <= 0 || h.GetSampleSum() > 30 {
		t.Errorf("duration sum %v", h.GetSampleSum())
	}
	second := e.scrape()
	if got, _ := metricValue(second, "adboost_http_requests_total", map[string]string{"route": "/metrics", "method": "GET", "status": "200"}); got != 1 {
		t.Errorf("the first scrape counted %v times, want 1", got)
	}
}

// checkPoolAndMailMetrics checks the pool's metrics and the mail jobs'
// backlog.
func checkPoolAndMailMetrics(t *testing.T, e *env, families map[string]*dto.MetricFamily) {
	t.Helper()
	// The pools: the main one, and the catalogue's two (the test asked for
	// presets/count without a filter, planned for its values, and with a
	// title prefix alone, which one plan serves).
	for pool, p := range map[string]*pgxpool.Pool{"main": e.pool, "catalogue": e.catalogue, "one_plan": e.onePlan} {
		labels := map[string]string{"pool": pool}
		if got, ok := metricValue(families, "adboost_db_pool_max_conns", labels); !ok || got != float64(p.Stat().MaxConns()) {
			t.Errorf("adboost_db_pool_max_conns%v = %v (present %v), want %v", labels, got, ok, p.Stat().MaxConns())
		}
		for _, name := range []string{"adboost_db_pool_total_conns", "adboost_db_pool_acquires_total", "adboost_db_pool_new_conns_total"} {
			if got, ok := metricValue(families, name, labels); !ok || got < 1 {
				t.Errorf("%s%v = %v (present %v), want at least 1", name, labels, got, ok)
			}
		}
	}

	// The mail jobs.
	for name, want := range map[string]float64{"adboost_mail_outbox_unsent": 3, "adboost_mail_outbox_due": 2} {
		if got, ok := metricValue(families, name, nil); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	if got, _ := metricValue(families, "adboost_mail_outbox_oldest_due_seconds", nil); got < 3600 || got > 3660 {
		t.Errorf("adboost_mail_outbox_oldest_due_seconds = %v, want about 3600", got)
	}
}
