package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/dbtest"
)

// The catalogue's statements with optional filters are planned for each
// request's values, never kept as prepared statements: a request repeated
// on a connection would make PostgreSQL switch that connection to the
// statement's generic plan (after five executions), which keeps every
// filter as a runtime check and reads the wide index whole for any other
// values (an agency with a goal: 21 ms of CPU a request instead of 1.4).
// Over a pool of one connection, each shape of filters is asked eight
// times; the connection then holds no prepared statement of them.
func TestCatalogueStatementsPlannedPerRequest(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1")
	u.RawQuery = q.Encode()
	pool := dbtest.NewPool(t, u.String())
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{}, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	for _, tc := range []struct{ path, body string }{
		{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "agency_id": 1, "vertical": "fitness", "location": {"value": "US"}}`},
		{"/v1/presets/browse", `{"goal": "OUTCOME_LEADS", "preset_name": "Sp"}`},
		{"/v1/presets/count", `{"goal": "OUTCOME_LEADS", "agency_id": 1}`},
	} {
		for range 8 {
			resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: %d", tc.path, tc.body, resp.StatusCode)
			}
		}
	}
	rows, err := pool.Query(t.Context(), `SELECT statement FROM pg_prepared_statements`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var statement string
		if err := rows.Scan(&statement); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"PresetBrowse :many", "PresetBrowseAgencyGoal :many", "PresetCount :one"} {
			if strings.Contains(statement, "-- name: "+name) {
				t.Errorf("%s is a prepared statement of the connection: a repeated request can give it a generic plan", name)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
