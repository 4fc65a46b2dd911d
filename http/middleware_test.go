package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestLogRequestsRecoversPanics(t *testing.T) {
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&logs, nil))}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/boom/{id}", func(http.ResponseWriter, *http.Request) { panic("boom") })
	h := s.logRequests(envelopeMuxErrors(mux))

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/boom/7", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	var env map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env["error"] != "internal" || env["message"] != "internal error" {
		t.Fatalf("body %s, want the internal envelope without details", rec.Body)
	}
	line := logs.String()
	for _, want := range []string{`msg=panic panic=boom`, `msg=request method=GET route="GET /v1/boom/{id}" status=500 duration=`} {
		if !strings.Contains(line, want) {
			t.Fatalf("log %q lacks %q", line, want)
		}
	}
}
