package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	httpapi "adboost/http"
)

func TestNewLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log, err := newLogger(&buf, "json", "warn")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("hidden")
	log.Warn("shown", "n", 1)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["msg"] != "shown" || line["level"] != "WARN" || line["n"] != float64(1) {
		t.Fatalf("LOG_FORMAT=json LOG_LEVEL=warn wrote %q (%v)", buf.String(), err)
	}
	buf.Reset()
	log, _ = newLogger(&buf, "", "")
	log.Debug("hidden")
	log.Info("shown")
	if got := buf.String(); !strings.Contains(got, "level=INFO msg=shown") || strings.Contains(got, "hidden") {
		t.Fatalf("the default (text, info) wrote %q", got)
	}
	buf.Reset()
	log, _ = newLogger(&buf, "TEXT", "debug")
	log.Debug("shown")
	if !strings.Contains(buf.String(), "level=DEBUG msg=shown") {
		t.Fatalf("LOG_LEVEL=debug wrote %q", buf.String())
	}
	for _, bad := range [][2]string{{"xml", ""}, {"", "verbose"}, {"", "info+2"}} {
		if _, err := newLogger(io.Discard, bad[0], bad[1]); err == nil {
			t.Errorf("LOG_FORMAT=%q LOG_LEVEL=%q accepted", bad[0], bad[1])
		}
	}
}

// TestRepeatLimiter: ten thousand identical errors write one line, then one
// line with their count when the window has passed; different errors and
// info lines are not held back.
func TestRepeatLimiter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	h := newRepeatLimiter(slog.NewTextHandler(&buf, nil), 10*time.Second)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h.state.now = func() time.Time { return clock }
	log := slog.New(h).With("component", "api")
	outage := errors.New("failed to connect to `host=127.0.0.1`: connection refused")
	for range 10000 {
		log.Error("database unreachable", "err", outage)
	}
	log.Error("database unreachable", "err", errors.New("another error"))
	log.Error("request failed", "err", outage)
	log.Info("request", "status", 503)
	log.Info("request", "status", 503)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 || strings.Count(buf.String(), "connection refused") != 2 {
		t.Fatalf("wrote %d lines, want 5 (one per distinct error, both info lines):\n%s", len(lines), buf.String())
	}
	buf.Reset()
	clock = clock.Add(9 * time.Second)
	log.Error("database unreachable", "err", outage)
	if buf.Len() != 0 {
		t.Fatalf("within the window: %q", buf.String())
	}
	clock = clock.Add(2 * time.Second)
	log.Info("request", "status", 200) // any record lets the summary out
	got := buf.String()
	if !strings.Contains(got, `level=ERROR msg="database unreachable" component=api err="failed to connect to `+"`host=127.0.0.1`"+`: connection refused" repeated=10000 within=10s`) ||
		strings.Contains(got, "another error") || !strings.Contains(got, "msg=request component=api status=200") {
		t.Fatalf("after the window:\n%s", got)
	}
	buf.Reset()
	log.Error("database unreachable", "err", outage)
	if strings.Count(buf.String(), "\n") != 1 || strings.Contains(buf.String(), "repeated=") {
		t.Fatalf("the first repeat after the window is written again: %q", buf.String())
	}
}

// TestOutageLogs: while the database is down, a burst of requests answers 503
// and logs one line a request and a single "database unreachable" error.
func TestOutageLogs(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var buf bytes.Buffer
	log, err := newLogger(syncWriter{&mu, &buf}, "json", "info")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), "postgres://postgres@"+freeAddr(t)+"/adboost?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tokens, _ := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	srv := httptest.NewServer(httpapi.New(httpapi.Config{}, pool, tokens, log).Handler())
	defer srv.Close()
	const n = 200
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range n / 8 {
				resp, err := http.Post(srv.URL+"/v1/presets/count", "application/json", strings.NewReader(`{}`))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("status %d, want 503", resp.StatusCode)
				}
			}
		})
	}
	wg.Wait()
	srv.Close()
	mu.Lock()
	defer mu.Unlock()
	var requests, errorLines int
	for line := range strings.Lines(buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		switch {
		case rec["msg"] == "request" && rec["status"] == float64(503):
			requests++
		case rec["level"] == "ERROR":
			errorLines++
			if rec["request_id"] == nil {
				t.Errorf("the error line has no request_id: %s", line)
			}
		}
	}
	if requests != n || errorLines != 1 {
		t.Fatalf("%d request lines (want %d), %d error lines (want 1):\n%.3000s", requests, n, errorLines, buf.String())
	}
}

type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
