package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth"
)

// echoRequest reads a body, the path's {id}, and has a rule of its own.
type echoRequest struct {
	pathID
	Name string `json:"name"`
}

func (r *echoRequest) validate() error {
	if r.Name == "" {
		return badRequest("name is required")
	}
	return nil
}

type echoAnswer struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// TestMount checks what mount declares and what every endpoint shares: the
// request decoded, bound and validated before the handler, the declared
// success status on both kinds of answer, failures in the envelope, the
// access of the route recorded and enforced.
func TestMount(t *testing.T) {
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{}, nil, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	mux := http.NewServeMux()
	mount(mux, s, public, "POST /echo/{id}", func(_ context.Context, req *echoRequest) (echoAnswer, error) {
		if req.Name == "missing" {
			return echoAnswer{}, pgx.ErrNoRows
		}
		return echoAnswer{ID: req.id, Name: req.Name}, nil
	}, withStatus(http.StatusCreated))
	mount(mux, s, public, "GET /encoded", func(context.Context, *empty) (encodedJSON, error) {
		return newEncoded([]byte(`{"kept":true}`)), nil
	}, withStatus(http.StatusAccepted))
	mount(mux, s, bearer, "GET /mine", func(context.Context, *empty) (bool, error) { return true, nil })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, tc := range []struct {
		name, method, path, body string
		header                   http.Header
		status                   int
		answer                   string
	}{
		{"decoded, bound, validated", "POST", "/echo/7", `{"name":"ana"}`, nil, http.StatusCreated, `{"id":7,"name":"ana"}`},
		{"the request's rule", "POST", "/echo/7", `{}`, nil, http.StatusBadRequest, `{"error":"bad_request","message":"name is required"}`},
		{"the path's id", "POST", "/echo/x", `{"name":"ana"}`, nil, http.StatusBadRequest, `{"error":"bad_request","message":"id must be a positive integer, not \"x\""}`},
		{"malformed JSON", "POST", "/echo/7", `{"name":`, nil, http.StatusBadRequest, ""},
		{"no rows", "POST", "/echo/7", `{"name":"missing"}`, nil, http.StatusNotFound, `{"error":"not_found","message":"not found"}`},
		{"an answer encoded beforehand", "GET", "/encoded", "", nil, http.StatusAccepted, `{"kept":true}`},
		{"no token", "GET", "/mine", "", nil, http.StatusUnauthorized, `{"error":"unauthorized","message":"a valid Bearer access token is required"}`},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var env envelope
		switch {
		case resp.StatusCode != tc.status:
			t.Errorf("%s: status %d, want %d (%s)", tc.name, resp.StatusCode, tc.status, body)
		case tc.answer != "" && strings.TrimSpace(string(body)) != tc.answer:
			t.Errorf("%s: answer %s, want %s", tc.name, body, tc.answer)
		case tc.status >= 400 && (json.Unmarshal(body, &env) != nil || env.Error == "" || env.Message == ""):
			t.Errorf("%s: answer %s is not the error envelope", tc.name, body)
		}
	}

	want := []Route{{Pattern: "POST /echo/{id}"}, {Pattern: "GET /encoded"}, {Pattern: "GET /mine", Bearer: true}}
	if got := s.Routes(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("routes %v, want %v", got, want)
	}
}
