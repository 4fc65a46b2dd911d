package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// requestMetrics count the requests and time them, by route pattern, method
// and status.
type requestMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

var requestLabels = []string{"route", "method", "status"}

// newRequestMetrics registers the request metrics on reg, or finds the ones
// registered there by an earlier server.
func newRequestMetrics(reg prometheus.Registerer) *requestMetrics {
	return &requestMetrics{
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "adboost_http_requests_total",
			Help: "HTTP requests answered, by route pattern (unmatched: no route), method and status.",
		}, requestLabels)),
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "adboost_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route pattern, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, requestLabels)),
	}
}

func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	var dup prometheus.AlreadyRegisteredError
	if err := reg.Register(c); errors.As(err, &dup) {
		return dup.ExistingCollector.(C)
	} else if err != nil {
		panic("httpapi: " + err.Error())
	}
	return c
}

// knownMethods keep the method label to a few values, whatever clients send.
var knownMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true}

// observe counts one answered request; pattern is the route's ("GET /v1/x").
func (m *requestMetrics) observe(pattern, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	route := "unmatched"
	if _, path, ok := strings.Cut(pattern, " "); ok {
		route = path
	}
	if !knownMethods[method] {
		method = "other"
	}
	if status == 0 {
		status = http.StatusOK
	}
	labels := prometheus.Labels{"route": route, "method": method, "status": strconv.Itoa(status)}
	m.requests.With(labels).Inc()
	m.duration.With(labels).Observe(d.Seconds())
}

// MetricsHandler answers the metrics of reg in Prometheus's text format. A
// collector that fails (say, the database is down) is logged and left out;
// the others are still answered.
func MetricsHandler(reg *prometheus.Registry, log *slog.Logger) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		Registry:      reg, // promhttp_metric_handler_errors_total
	})
}
