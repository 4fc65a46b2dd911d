package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth/networkafake"
	"adboost/db"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

// lockTable holds an ACCESS EXCLUSIVE lock on table, from another
// connection, until the test ends.
func lockTable(t *testing.T, url, table string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, "LOCK TABLE "+table+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
}

// waitForLockWait waits until a statement of the database waits for a lock.
func waitForLockWait(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var n int
		if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatal("no statement came to wait for the lock")
}

// A request blocked by a lock answers 503 once DB_STATEMENT_TIMEOUT (here
// 300 ms) has passed, instead of waiting for the lock.
func TestStatementTimeoutAnswers503(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	pool, err := db.OpenWith(context.Background(), url, db.Options{StatementTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	e := newEnvOver(t, pool)
	e.post("/v1/presets/browse", "", map[string]any{}).ok(&[]any{})

	lockTable(t, url, "preset")
	start := time.Now()
	e.post("/v1/presets/browse", "", map[string]any{"goal": "OUTCOME_LEADS"}).fails(http.StatusServiceUnavailable, "unavailable", "time limit")
	if d := time.Since(start); d < 300*time.Millisecond || d > 3*time.Second {
		t.Fatalf("answered after %v, want soon after the 300 ms statement timeout", d)
	}
	// Routes that do not read the locked table are not held up.
	var goals []map[string]any
	e.get("/v1/presets/optimization-goals", "").ok(&goals)
}

// The pool of db.OpenWith: DATABASE_URL's pool_max_conns, else 4 × cores
// with at least 8; the statement timeout on every connection; no parallel
// workers and no JIT unless the URL asks for them.
func TestPoolSettings(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	ctx := context.Background()
	pool, err := db.OpenWith(ctx, url, db.Options{StatementTimeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if got := pool.Config().MaxConns; got != db.DefaultMaxConns() || got < 8 {
		t.Fatalf("MaxConns = %d, want %d (at least 8)", got, db.DefaultMaxConns())
	}
	var timeout string
	if err := pool.QueryRow(ctx, "SHOW statement_timeout").Scan(&timeout); err != nil || timeout != "1500ms" {
		t.Fatalf("statement_timeout = %q, %v; want 1500ms", timeout, err)
	}
	var workers, jit string
	if err := pool.QueryRow(ctx, "SELECT current_setting('max_parallel_workers_per_gather'), current_setting('jit')").
		Scan(&workers, &jit); err != nil || workers != "0" || jit != "off" {
		t.Fatalf("max_parallel_workers_per_gather = %q, jit = %q, %v; want 0 and off", workers, jit, err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	sized, err := db.OpenWith(ctx, url+sep+"pool_max_conns=3&statement_timeout=2s&jit=on", db.Options{StatementTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer sized.Close()
	if got := sized.Config().MaxConns; got != 3 {
		t.Fatalf("MaxConns with pool_max_conns=3: %d", got)
	}
	if err := sized.QueryRow(ctx, "SHOW statement_timeout").Scan(&timeout); err != nil || timeout != "2s" {
		t.Fatalf("statement_timeout of the URL = %q, %v; want 2s", timeout, err)
	}
	if err := sized.QueryRow(ctx, "SHOW jit").Scan(&jit); err != nil || jit != "on" {
		t.Fatalf("jit of the URL = %q, %v; want on", jit, err)
	}
}

// A network_a that answers each page of /me/accounts slowly, but within its
// per-call limit, ends the sign-up at the whole sign-in's deadline (here
// 1 s, where the 90 pages would take 9 s) with 503, and nothing is written.
func TestSignupDeadline(t *testing.T) {
	fake := newFakeNetworkA(t)
	pages := make([]networkafake.Page, 90)
	for i := range pages {
		pages[i] = networkafake.Page{ID: strconv.Itoa(3000 + i), Name: "Page"}
	}
	fake.AddUser(networkafake.User{Token: "EAAslowpager", ID: "5550123", FirstName: "Sam", Email: "sam@example.com", Pages: pages})
	fake.SetAccountsPageSize(1)
	fake.SetDelay(100 * time.Millisecond)
	e := newEnv(t, fake.config, func(cfg *httpapi.Config) {
		cfg.SignInTimeout = time.Second
		cfg.NetworkATimeout = 5 * time.Second // each page is well within its own limit
	})
	before := e.rowCounts()

	start := time.Now()
	e.post("/v1/user/signup-sn", "", map[string]string{"access-token": "EAAslowpager"}).
		fails(http.StatusServiceUnavailable, "unavailable", "took longer")
	d := time.Since(start)
	if d < time.Second || d > 3*time.Second {
		t.Fatalf("sign-up answered after %v, want at its 1 s deadline", d)
	}
	if n := len(fake.Requests()); n < 2 || n > 11 {
		t.Fatalf("network_a saw %d requests; want the few (page after page) that fit in the deadline", n)
	}
	if after := e.rowCounts(); after != before {
		t.Fatalf("rows %v after a sign-up cut short, before %v", after, before)
	}
	// login-sn of the same slow network: the same deadline.
	e.load(`{"users": [{"id": 300, "email": "sam@example.com", "snid": 5550123}]}`)
	start = time.Now()
	e.post("/v1/user/login-sn", "", map[string]string{"access-token": "EAAslowpager"}).
		fails(http.StatusServiceUnavailable, "unavailable", "took longer")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("login-sn answered after %v", d)
	}
}

// Shutdown with a request blocked on a lock (and no statement timeout) ends
// within its grace: the request is cancelled and answers 503.
func TestShutdownCancelsWhatStillRuns(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	pool := dbtest.NewPool(t, url)
	e := newEnvOver(t, pool)
	lockTable(t, url, "campaign_objective")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e.api.Handler(), ErrorLog: slog.NewLogLogger(slog.DiscardHandler, slog.LevelError)}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	const grace = 2 * time.Second
	served := make(chan error, 1)
	go func() { served <- httpapi.Serve(ctx, srv, ln, grace) }()

	type answer struct {
		status int
		body   []byte
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/v1/presets/optimization-goals")
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		answered <- answer{status: resp.StatusCode, body: body}
	}()
	waitForLockWait(t, pool)

	start := time.Now()
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v (the running request was cut off, not cancelled)", err)
		}
	case <-time.After(3 * grace):
		t.Fatal("Serve did not end within its grace")
	}
	if d := time.Since(start); d > grace+200*time.Millisecond {
		t.Fatalf("shutdown took %v, grace %v", d, grace)
	}
	a := <-answered
	var env struct{ Error string }
	if a.err != nil || a.status != http.StatusServiceUnavailable || json.Unmarshal(a.body, &env) != nil || env.Error != "unavailable" {
		t.Fatalf("the running request answered %d %s (%v), want 503 unavailable", a.status, a.body, a.err)
	}
	// The cancelled statement gives its connection back (pgxpool closes a
	// connection cut short in the background).
	for deadline := time.Now().Add(5 * time.Second); pool.Stat().AcquiredConns() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still acquired", pool.Stat().AcquiredConns())
		}
	}
}

// Text filters and search fields: 255 characters pass, 256 are a 400 that
// names the field (characters, not bytes, are counted).
func TestTextFilterLimits(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	tok := e.token(100)
	ok255 := strings.Repeat("é", 255)
	long := strings.Repeat("a", 256)
	for _, tc := range []struct {
		path, token string
		body        func(v string) any
		field       string
		typeField   bool // an enum: 255 characters are a 400 too, for not being a value
	}{
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"goal": v} }, "goal", false},
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"vertical": v} }, "vertical", false},
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"preset_name": v} }, "preset_name", false},
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"location": map[string]any{"value": v}} }, "location.value", false},
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"location": map[string]any{"value": "CZ", "label": v}} }, "location.label", false},
		{"/v1/presets/browse", "", func(v string) any { return map[string]any{"location": map[string]any{"value": "CZ", "type": v}} }, "location.type", true},
		{"/v1/presets/count", "", func(v string) any { return map[string]any{"goal": v} }, "goal", false},
		{"/v1/presets/count", "", func(v string) any { return map[string]any{"vertical": v} }, "vertical", false},
		{"/v1/presets/count", "", func(v string) any { return map[string]any{"preset_name": v} }, "preset_name", false},
		{"/v1/presets/count", "", func(v string) any { return map[string]any{"location": map[string]any{"value": v, "label": "x"}} }, "location.value", false},
		{"/v1/presets/count", "", func(v string) any { return map[string]any{"location": map[string]any{"value": "CZ", "label": v}} }, "location.label", false},
		{"/v1/agencies/list", tok, func(v string) any { return map[string]any{"search": v} }, "search", false},
		{"/v1/boosted-pages/geo-locations", "", func(v string) any { return map[string]any{"query": v} }, "query", false},
	} {
		t.Run(tc.path+" "+tc.field, func(t *testing.T) {
			e := e.in(t)
			e.post(tc.path, tc.token, tc.body(long)).fails(http.StatusBadRequest, "bad_request", tc.field, "255")
			r := e.post(tc.path, tc.token, tc.body(ok255))
			if tc.typeField {
				r.fails(http.StatusBadRequest, "bad_request", tc.field, "country")
				return
			}
			if r.status != http.StatusOK {
				t.Fatalf("255 characters: status %d, body %s", r.status, r.body)
			}
		})
	}
	// The megabyte filter of the report: refused before any query.
	e.post("/v1/presets/browse", "", map[string]any{"vertical": strings.Repeat("x", 1<<20-100)}).
		fails(http.StatusBadRequest, "bad_request", "vertical")
}

// Many large bodies at once: the bytes held for bodies never pass the
// budget (here 4 MiB for 200 bodies of 1 MiB), and every request is
// answered: 400 for its too long vertical, or, when it found no room within
// the wait (only on a very slow machine), 503.
func TestBodyMemoryIsBounded(t *testing.T) {
	const budget = 4 << 20
	e := newEnv(t, func(cfg *httpapi.Config) { cfg.BodyMemory = budget; cfg.BodyWait = 20 * time.Second })
	body := []byte(`{"vertical": "` + strings.Repeat("x", 1<<20-20) + `"}`)
	if len(body) > 1<<20 {
		t.Fatal("body over 1 MiB")
	}
	// From 50 client addresses, 4 each: one address may send only a few
	// bodies at once (TestSlowBodiesOfOneAddress).
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 200 {
		client := clientFrom(t, fmt.Sprintf("127.0.0.%d", 10+i%50))
		wg.Go(func() {
			resp, err := client.Post(e.srv.URL+"/v1/presets/count", "application/json", bytes.NewReader(body))
			status := 0
			if err == nil {
				status = resp.StatusCode
				resp.Body.Close()
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[http.StatusBadRequest]+statuses[http.StatusServiceUnavailable] != 200 || statuses[http.StatusBadRequest] < budget>>20 {
		t.Fatalf("answers %v, want 200 × 400 (the vertical is too long) or 503", statuses)
	}
	if peak := e.api.BodyBytesPeak(); peak > budget || peak < 1<<20 {
		t.Fatalf("peak of body bytes held: %d, want at most the budget %d", peak, budget)
	}
}

// A request that finds no room for its body within BodyWait answers 503
// with Retry-After; a body over 1 MiB is 413 at once, by its length.
func TestBodyMemoryFullAnswers503(t *testing.T) {
	e := newEnv(t, func(cfg *httpapi.Config) { cfg.BodyMemory = 1 << 20; cfg.BodyWait = 200 * time.Millisecond })
	// A request that declares 1 MiB and sends it slowly holds the budget.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/presets/count", pr)
	req.ContentLength = 1 << 20
	req.Header.Set("Content-Type", "application/json")
	held := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			held <- 0
			return
		}
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	if _, err := pw.Write([]byte(`{"vertical": "`)); err != nil {
		t.Fatal(err)
	}
	// Until the slow body has its room, nothing else gets in.
	for deadline := time.Now().Add(5 * time.Second); e.api.BodyBytesPeak() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow request never took its room")
		}
	}
	start := time.Now()
	r := e.do(request{method: http.MethodPost, path: "/v1/presets/count", body: map[string]any{"vertical": "fitness"}})
	r.fails(http.StatusServiceUnavailable, "unavailable", "busy")
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After = %q", r.header.Get("Retry-After"))
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 2*time.Second {
		t.Fatalf("refused after %v, want after the 200 ms wait", d)
	}
	// Requests without a body are not held up.
	var goals []map[string]any
	e.get("/v1/presets/optimization-goals", "").ok(&goals)
	// The slow body ends; its room is given back.
	pw.Write([]byte(strings.Repeat("x", 1<<20-len(`{"vertical": "`)-2) + `"}`))
	pw.Close()
	if status := <-held; status != http.StatusBadRequest {
		t.Fatalf("the slow request answered %d, want 400 (its vertical is too long)", status)
	}
	var n int64
	e.post("/v1/presets/count", "", map[string]any{"vertical": "fitness"}).ok(&n)

	// Over 1 MiB by its Content-Length: 413 without reading it.
	big := e.do(request{method: http.MethodPost, path: "/v1/presets/count", body: `{"vertical": "` + strings.Repeat("x", 1<<20) + `"}`})
	big.fails(http.StatusRequestEntityTooLarge, "payload_too_large")
}

// A catalogue write left open (an import is one long transaction) does not
// hold up a sign-up, which inserts a user and an agency: it answers at once.
func TestSignupBesideOpenCatalogueWrite(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	pool, err := db.OpenWith(context.Background(), url, db.Options{StatementTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	e := newEnvOver(t, pool, fake.config)

	// The fixture goes in over a pool of its own, without the serving
	// pool's short statement timeout (a slow machine's import must not fail
	// the test before it starts).
	ctx := context.Background()
	loader, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	err = dataset.Load(ctx, loader, strings.NewReader(accountsFixture))
	loader.Close()
	if err != nil {
		t.Fatalf("load fixture: %v", err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, "INSERT INTO review (id, preset_id, user_id, rating, message) SELECT 990, id, 100, 5, 'open' FROM preset ORDER BY id LIMIT 1"); err != nil {
		t.Fatal(err)
	}

	got := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	if got["email"] != "ana@network-a.example" {
		t.Fatalf("signup-sn beside an open catalogue write = %v", got)
	}
}

// clientFrom is an HTTP client whose connections leave from the loopback
// address from (127.0.0.x).
func clientFrom(t *testing.T, from string) *http.Client {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	transport := &http.Transport{DialContext: dialer.DialContext}
	t.Cleanup(transport.CloseIdleConnections)
	return &http.Client{Transport: transport}
}

// slowBody opens a connection from 127.0.0.1 that posts a body declared as
// 1 MiB to login-password and sends one byte of it; it is closed when the
// test ends, and reads time out after 10 s.
func slowBody(t *testing.T, url string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	head := "POST /v1/user/login-password HTTP/1.1\r\nHost: adboost.test\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(1<<20) + "\r\n\r\n{"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	return conn
}

// 16 connections from one address that each declare 1 MiB to the public
// login-password and send one byte hold 4 body reads (4 MiB of the 16 MiB
// budget): the others answer 429 after a second, and the requests of
// other addresses, and that address's requests without a body, go on at
// once. The reads end with their connections.
func TestSlowBodiesOfOneAddress(t *testing.T) {
	e := newEnv(t) // the default budget: 16 MiB, 5 s of wait
	e.load(usersFixture)
	conns := make([]net.Conn, 16)
	for i := range conns {
		conns[i] = slowBody(t, e.srv.URL)
	}
	// 12 of them are answered 429 once their second of waiting has passed;
	// 4 are being read, answerless (until their connections end).
	type answer struct {
		status int
		header http.Header
		body   string
		err    error
	}
	answers := make(chan answer, len(conns))
	for _, c := range conns {
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers <- answer{status: resp.StatusCode, header: resp.Header, body: string(body)}
		}()
	}
	for range 12 {
		a := <-answers
		var netErr net.Error
		switch {
		case errors.As(a.err, &netErr) && netErr.Timeout():
			t.Fatal("fewer than 12 slow requests were refused within 10 s")
		case a.err != nil:
			t.Fatal(a.err)
		case a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") != "1" || !strings.Contains(a.body, `"error":"rate_limited"`):
			t.Fatalf("a slow request answered %d %s", a.status, a.body)
		}
	}
	if held := e.api.BodyBytesPeak(); held != 4<<20 {
		t.Fatalf("body bytes held at most %d, want 4 MiB", held)
	}
	checkOthersGoOnBesideSlowBodies(t, e)

	// The 4 read are still unanswered. Their connections end: their reads
	// are given back.
	select {
	case a := <-answers:
		t.Fatalf("a 13th slow request answered: %d %s %v", a.status, a.body, a.err)
	default:
	}
	for _, c := range conns {
		c.Close()
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		r := e.post("/v1/user/login-password", "", map[string]string{"email": "bob@example.com", "password": "bob-password"})
		if r.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the address is still refused: %d %s", r.status, r.body)
		}
	}
}

// checkOthersGoOnBesideSlowBodies checks, while the slow bodies hold the
// reads, that another address signs in at once, and the slow address's
// requests without a body go on while one with a body waits its second and
// is refused.
func checkOthersGoOnBesideSlowBodies(t *testing.T, e *env) {
	t.Helper()
	// Another address signs in at once.
	start := time.Now()
	var user map[string]any
	e.do(request{method: http.MethodPost, path: "/v1/user/login-password", from: "127.0.0.2",
		body: map[string]string{"email": "bob@example.com", "password": "bob-password"}}).ok(&user)
	if d := time.Since(start); d > time.Second {
		t.Fatalf("another address's sign-in took %v", d)
	}
	// The slow address's requests without a body go on; with a body they
	// wait their second and are refused.
	var goals []map[string]any
	e.get("/v1/presets/optimization-goals", "").ok(&goals)
	start = time.Now()
	e.post("/v1/user/login-password", "", map[string]string{"email": "bob@example.com", "password": "bob-password"}).
		fails(http.StatusTooManyRequests, "rate_limited", "at once from this address")
	if d := time.Since(start); d < time.Second {
		t.Fatalf("refused after %v, want after a second of waiting", d)
	}
}
