package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	httpapi "adboost/http"
)

func TestConventions(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)

	t.Run("unknown route", func(t *testing.T) {
		e.get("/v1/no/such/route", "").fails(http.StatusNotFound, "not_found", "/v1/no/such/route")
	})
	t.Run("wrong method", func(t *testing.T) {
		r := e.do(request{method: http.MethodDelete, path: "/v1/user/login-password"})
		r.fails(http.StatusMethodNotAllowed, "method_not_allowed", "DELETE")
		if r.header.Get("Allow") != "POST" {
			t.Fatalf("Allow = %q, want POST", r.header.Get("Allow"))
		}
	})
	t.Run("body too large", func(t *testing.T) {
		big := `{"email": "` + strings.Repeat("a", 1<<20) + `", "password": "x"}`
		e.post("/v1/user/login-password", "", big).fails(http.StatusRequestEntityTooLarge, "payload_too_large")
	})
	t.Run("form post", func(t *testing.T) {
		e.do(request{method: http.MethodPost, path: "/v1/user/login-password", body: "email=a&password=b",
			contentType: "application/x-www-form-urlencoded"}).fails(http.StatusUnsupportedMediaType, "unsupported_media_type")
	})
	t.Run("JSON with charset", func(t *testing.T) {
		var user map[string]any
		e.do(request{method: http.MethodPost, path: "/v1/user/login-password", contentType: "application/json; charset=utf-8",
			body: `{"email": "bob@example.com", "password": "bob-password", "unknown": [1, 2]}`}).ok(&user)
	})
	t.Run("malformed JSON", func(t *testing.T) {
		e.post("/v1/user/login-password", "", `{"email": "a@b.c",`).fails(http.StatusBadRequest, "bad_request")
	})
	t.Run("health", func(t *testing.T) {
		var h map[string]string
		e.get("/healthz", "").ok(&h)
		if h["status"] != "ok" {
			t.Fatalf("healthz = %v", h)
		}
		e.get("/readyz", "").ok(&h)
		if h["status"] != "ready" {
			t.Fatalf("readyz = %v", h)
		}
	})
}

func TestReadyzWithoutDatabase(t *testing.T) {
	t.Parallel()
	// A pool that connects lazily to a port where nothing listens.
	pool, err := pgxpool.New(context.Background(), "postgres://postgres@127.0.0.1:1/none?connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tokens, _ := auth.NewTokens([]byte(testSecret), time.Hour)
	srv := httptest.NewServer(httpapi.New(httpapi.Config{}, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil))).Handler())
	defer srv.Close()
	e := &env{t: t, srv: srv}
	var h map[string]string
	e.get("/healthz", "").ok(&h)
	e.get("/readyz", "").fails(http.StatusServiceUnavailable, "unavailable")
	// A request that needs the database answers 503 too, not 500.
	e.post("/v1/user/login-password", "", map[string]string{"email": "a@b.cd", "password": "whatever1"}).
		fails(http.StatusServiceUnavailable, "unavailable")
}
