package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/db/dbtest"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func getBody(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeMetrics: serve answers /metrics with the request, pool, mail and
// runtime metrics; with METRICS_ADDR (here from the flag), there and not on
// HTTP_ADDR (here the -addr flag's).
func TestServeMetrics(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	base := startServe(t, map[string]string{"DATABASE_URL": url, "ADBOOST_ENV": "dev"})
	getBody(t, base+"/healthz")
	status, body := getBody(t, base+"/metrics")
	for _, want := range []string{
		`adboost_http_requests_total{method="GET",route="/healthz",status="200"} 1`,
		"adboost_db_pool_max_conns ", "adboost_mail_outbox_unsent 0", "go_goroutines ", "process_cpu_seconds_total ",
	} {
		if status != 200 || !strings.Contains(body, want) {
			t.Errorf("GET /metrics: %d, lacks %q", status, want)
		}
	}

	// The flags override HTTP_ADDR and METRICS_ADDR.
	addr, metricsAddr := freeAddr(t), freeAddr(t)
	base = "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", addr, "-metrics-addr", metricsAddr}, envOf(map[string]string{
			"DATABASE_URL": url, "ADBOOST_ENV": "dev", "HTTP_ADDR": "256.0.0.1:1", "METRICS_ADDR": "256.0.0.1:2"}), nil, io.Discard, quiet())
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("serve -addr did not answer")
		}
	}
	getBody(t, base+"/healthz")
	if status, _ := getBody(t, base+"/metrics"); status != http.StatusNotFound {
		t.Errorf("GET /metrics on HTTP_ADDR with METRICS_ADDR set: %d, want 404", status)
	}
	status, body = getBody(t, "http://"+metricsAddr+"/metrics")
	if status != 200 || !strings.Contains(body, `adboost_http_requests_total{method="GET",route="/healthz",status="200"} 1`) ||
		!strings.Contains(body, `route="unmatched",status="404"} 1`) || !strings.Contains(body, "adboost_db_pool_total_conns") {
		t.Errorf("GET /metrics on METRICS_ADDR: %d\n%.3000s", status, body)
	}
}
