package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/crypto/bcrypt"

	"adboost/auth"
	"adboost/db"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost // tests hash many passwords
	dbtest.Main(m)
}

// testSecret signs the tokens of the test servers.
const testSecret = "test-secret-test-secret-test-secret!"

// env is one test's server over its own database.
type env struct {
	t      *testing.T
	pool   *pgxpool.Pool
	q      *db.Queries
	srv    *httptest.Server
	tokens *auth.Tokens
	api    *httpapi.Server
	// catalogue and onePlan are the server's pools of the catalogue's
	// statements (Config.Catalogue, Config.OnePlan).
	catalogue, onePlan *pgxpool.Pool
}

// newEnv starts the real router over a fresh database. cfg may be changed by
// the options.
func newEnv(t *testing.T, opts ...func(*httpapi.Config)) *env {
	t.Helper()
	t.Parallel()
	return newEnvOver(t, dbtest.New(t), opts...)
}

// newEnvOver is newEnv over a pool the test opened itself.
func newEnvOver(t *testing.T, pool *pgxpool.Pool, opts ...func(*httpapi.Config)) *env {
	t.Helper()
	tokens, err := auth.NewTokens([]byte(testSecret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	catalogue, err := db.CustomPlans(t.Context(), pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(catalogue.Close)
	onePlan, err := db.GenericPlans(t.Context(), pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(onePlan.Close)
	cfg := httpapi.Config{ServiceFixedFee: "0.00", PublicBaseURL: "https://api.adboost.test", Catalogue: catalogue, OnePlan: onePlan}
	for _, o := range opts {
		o(&cfg)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	api := httpapi.New(cfg, pool, tokens, log)
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &env{t: t, pool: pool, q: db.New(pool), srv: srv, tokens: tokens, api: api, catalogue: cfg.Catalogue, onePlan: cfg.OnePlan}
}

// load imports a data file into the test's database.
func (e *env) load(file string) {
	e.t.Helper()
	if err := dataset.Load(context.Background(), e.pool, strings.NewReader(file)); err != nil {
		e.t.Fatalf("load fixture: %v", err)
	}
}

// token answers a valid access token of the user, of the user's current
// token generation (0 for an account that does not exist).
func (e *env) token(userID int64) string {
	e.t.Helper()
	generation, err := e.q.UserTokenGeneration(context.Background(), userID)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		e.t.Fatal(err)
	}
	tok, err := e.tokens.Issue(userID, generation)
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// response is what the server answered.
type response struct {
	t      *testing.T
	status int
	header http.Header
	body   []byte
}

// request describes one call; body is a string sent as is, or a value sent as
// JSON.
type request struct {
	method        string
	path          string
	body          any
	token         string
	authorization string // the Authorization header as is, instead of "Bearer "+token
	contentType   string // default application/json when there is a body
	from          string // client address (127.0.0.x) to send from
}

// do sends the request and answers the response, after checking both
// against the OpenAPI document (conform, in openapi_test.go): every exchange
// of the integration tests is one the document describes.
func (e *env) do(r request) *response {
	e.t.Helper()
	var raw []byte
	switch b := r.body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.t.Fatal(err)
		}
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(r.method, e.srv.URL+r.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		ct := r.contentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.authorization != "" {
		req.Header.Set("Authorization", r.authorization)
	}
	sent := req.Header.Clone()
	client := e.srv.Client()
	if r.from != "" {
		dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(r.from)}}
		client = &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	}
	resp, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := conform(exchange{method: r.method, target: r.path, header: sent, body: raw,
		status: resp.StatusCode, respHeader: resp.Header, respBody: got}); err != nil {
		e.t.Fatalf("%s %s: the exchange does not conform to http/openapi.yaml: %v\nresponse %d: %.2000s",
			r.method, r.path, err, resp.StatusCode, got)
	}
	return &response{t: e.t, status: resp.StatusCode, header: resp.Header, body: got}
}

func (e *env) get(path, token string) *response {
	e.t.Helper()
	return e.do(request{method: http.MethodGet, path: path, token: token})
}

func (e *env) post(path, token string, body any) *response {
	e.t.Helper()
	return e.do(request{method: http.MethodPost, path: path, token: token, body: body})
}

// ok decodes a 200 answer into v.
func (r *response) ok(v any) {
	r.t.Helper()
	if r.status != http.StatusOK {
		r.t.Fatalf("status %d, want 200; body %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		r.t.Fatalf("Content-Type %q, want application/json", ct)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		r.t.Fatalf("decode %s: %v", r.body, err)
	}
}

// fails checks an error answer: its status, its code and that its message
// mentions each of the words.
func (r *response) fails(status int, code string, words ...string) {
	r.t.Helper()
	if r.status != status {
		r.t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	var env struct {
		Error   *string `json:"error"`
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error == nil || env.Message == nil {
		r.t.Fatalf("body %s is not the error envelope", r.body)
	}
	if *env.Error != code {
		r.t.Fatalf("error %q, want %q; body %s", *env.Error, code, r.body)
	}
	for _, w := range words {
		if !strings.Contains(*env.Message, w) {
			r.t.Fatalf("message %q does not mention %q", *env.Message, w)
		}
	}
}

// object decodes a 200 answer into a generic JSON object, to check exact
// field sets and JSON types.
func (r *response) object() map[string]any {
	r.t.Helper()
	var m map[string]any
	r.ok(&m)
	return m
}
