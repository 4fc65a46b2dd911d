package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"log/slog"
	"maps"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/auth"
	"adboost/auth/networkafake"
	"adboost/db"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

// testTokenKey is the TOKEN_ENCRYPTION_KEY of the tests.
var testTokenKey = base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))

func testCipher(t *testing.T) *auth.TokenCipher {
	t.Helper()
	c, err := auth.NewTokenCipher(testTokenKey)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// logBuffer is a server log captured for a test, safe for the server's goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newLoggedEnv is newEnv with the server's log, at debug level, captured.
func newLoggedEnv(t *testing.T, opts ...func(*httpapi.Config)) (*env, *logBuffer) {
	t.Helper()
	t.Parallel()
	pool := dbtest.New(t)
	tokens, err := auth.NewTokens([]byte(testSecret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	cfg := httpapi.Config{ServiceFixedFee: "0.00", PublicBaseURL: "https://api.adboost.test"}
	for _, o := range opts {
		o(&cfg)
	}
	logs := &logBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	api := httpapi.New(cfg, pool, tokens, log)
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &env{t: t, pool: pool, q: db.New(pool), srv: srv, tokens: tokens, api: api}, logs
}

// tokensInDatabase answers "table: text" for each table that holds one of
// the texts anywhere: every column of every table of the schema, read as
// JSON (row_to_json), in clear and as the hex that bytea becomes in JSON.
func tokensInDatabase(e *env, texts ...string) []string {
	e.t.Helper()
	ctx := context.Background()
	rows, err := e.pool.Query(ctx, `
		SELECT format('SELECT %L, array(SELECT DISTINCT x.s FROM %I.%I AS r, unnest($1::text[], $2::text[]) AS x (s, h)
		                                WHERE strpos(row_to_json(r)::text, x.s) > 0 OR strpos(row_to_json(r)::text, x.h) > 0
		                                ORDER BY x.s)',
		              t.table_name, t.table_schema, t.table_name)
		FROM information_schema.tables AS t
		WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
		ORDER BY t.table_name`)
	if err != nil {
		e.t.Fatal(err)
	}
	var queries []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			e.t.Fatal(err)
		}
		queries = append(queries, q)
	}
	if rows.Err() != nil || len(queries) < 10 {
		e.t.Fatalf("%d tables found (%v)", len(queries), rows.Err())
	}
	hexes := make([]string, len(texts))
	for i, text := range texts {
		hexes[i] = hex.EncodeToString([]byte(text))
	}
	var found []string
	for _, q := range queries {
		var table string
		var in []string
		if err := e.pool.QueryRow(ctx, q, texts, hexes).Scan(&table, &in); err != nil {
			e.t.Fatalf("%s: %v", q, err)
		}
		for _, text := range in {
			found = append(found, table+": "+text)
		}
	}
	return found
}

// opened answers the token that a sealed column holds ("" for NULL).
func opened(e *env, c *auth.TokenCipher, sql string, args ...any) string {
	e.t.Helper()
	sealed := scalar[[]byte](e, sql, args...)
	if sealed == nil {
		return ""
	}
	tok, err := c.Open(sealed)
	if err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return tok
}

// secondToken is the user's token at the second sign-in of
// TestNetworkATokensAtRest.
const secondToken = "EAAana0second0token"

// TestNetworkATokensAtRest: sign-up and login-sn store the user's token and
// each page's token sealed (they open back to the token text), replace them
// at the next sign-in and clear the mark of a refused token; no token text is
// in any answer, any column of the database or the server's log.
func TestNetworkATokensAtRest(t *testing.T) {
	fake := newFakeNetworkA(t)
	social := anaSocial()
	social.Pages[1].Token = "" // network_a answers no token for page 1002
	fake.AddUser(social)
	cipher := testCipher(t)
	e, logs := newLoggedEnv(t, fake.config, func(cfg *httpapi.Config) { cfg.TokenCipher = cipher })
	e.load(accountsFixture)

	secrets := []string{anaToken}
	for i := 1001; i <= 1008; i++ {
		secrets = append(secrets, pageToken(i))
	}
	secrets = append(secrets, secondToken, "EAApage1001renewed")
	answers := []string{}
	checkAnswer := func(r *response) {
		t.Helper()
		answers = append(answers, string(r.body))
		for _, s := range secrets {
			if strings.Contains(string(r.body), s) {
				t.Fatalf("an answer holds the token %s: %s", s, r.body)
			}
		}
	}

	r := e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken})
	r.object()
	checkAnswer(r)
	id := scalar[int64](e, "SELECT id FROM app_user WHERE snid = 5550001")
	if got := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id); got != anaToken {
		t.Fatalf("stored user token opens to %q", got)
	}
	want := map[int64]string{1001: pageToken(1001), 1002: "", 1003: pageToken(1003), 1004: pageToken(1004),
		1005: pageToken(1005), 1006: pageToken(1006), 1007: pageToken(1007)}
	if got := storedPageTokens(e, cipher, id); !maps.Equal(got, want) {
		t.Fatalf("page tokens after sign-up = %v\nwant %v", got, want)
	}
	firstSealed := scalar[[]byte](e, "SELECT access_token FROM source WHERE user_id = $1 AND id = 1003", id)
	checkTokensReplacedAtLogin(t, e, fake, cipher, social, id, want, firstSealed, checkAnswer)

	// Answers of the rest of the interface: none holds a token.
	checkAnswer(e.get("/v1/user/detail", e.token(id)))
	checkNoTokenAtRest(t, e, fake, logs, secrets)
	checkTokenSearchFinds(t, e, id)
}

// storedPageTokens answers the opened token of each of the user's pages
// 1001..1008 that has a source row.
func storedPageTokens(e *env, cipher *auth.TokenCipher, id int64) map[int64]string {
	e.t.Helper()
	out := map[int64]string{}
	for _, p := range []int64{1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008} {
		if n := scalar[int64](e, "SELECT count(*) FROM source WHERE user_id = $1 AND id = $2", id, p); n == 1 {
			out[p] = opened(e, cipher, "SELECT access_token FROM source WHERE user_id = $1 AND id = $2", id, p)
		}
	}
	return out
}

// checkTokensReplacedAtLogin signs the user in again with a new token after
// the engine found the old one refused, and checks the user's and the pages'
// tokens are replaced, sealed afresh, and the refusal mark cleared.
func checkTokensReplacedAtLogin(t *testing.T, e *env, fake *fakeNetworkA, cipher *auth.TokenCipher, social networkafake.User,
	id int64, want map[int64]string, firstSealed []byte, checkAnswer func(*response)) {
	t.Helper()
	// The engine found the token refused; the user signs in again with a new
	// token, and network_a renews page 1001's token, answers one for 1002
	// and none for 1003.
	e.exec("UPDATE app_user SET network_a_token_invalid_at = now() WHERE id = $1", id)
	second := social
	second.Token = secondToken
	second.Pages = append([]networkafake.Page(nil), social.Pages...)
	second.Pages[0].Token = "EAApage1001renewed"
	second.Pages[1].Token = pageToken(1002)
	second.Pages[2].Token = ""
	fake.AddUser(second)
	r := e.post("/v1/user/login-sn", "", map[string]any{"access-token": secondToken})
	r.object()
	checkAnswer(r)
	if got := opened(e, cipher, "SELECT network_a_token FROM app_user WHERE id = $1", id); got != secondToken {
		t.Fatalf("user token after login-sn opens to %q", got)
	}
	if scalar[bool](e, "SELECT network_a_token_invalid_at IS NOT NULL FROM app_user WHERE id = $1", id) {
		t.Fatal("login-sn kept the mark of a refused token")
	}
	want[1001], want[1002], want[1003] = "EAApage1001renewed", pageToken(1002), ""
	if got := storedPageTokens(e, cipher, id); !maps.Equal(got, want) {
		t.Fatalf("page tokens after login-sn = %v\nwant %v", got, want)
	}
	// Sealing twice gives two values (a fresh nonce each time).
	if again := scalar[[]byte](e, "SELECT access_token FROM source WHERE user_id = $1 AND id = 1005", id); bytes.Equal(again, firstSealed) {
		t.Fatal("a token sealed again kept its bytes")
	}
}

// checkNoTokenAtRest logs a refused token and a failing network and checks
// no token text is in the database or the log.
func checkNoTokenAtRest(t *testing.T, e *env, fake *fakeNetworkA, logs *logBuffer, secrets []string) {
	t.Helper()
	// A refused token and a failing network are logged without the token.
	fake.ExpireToken(anaToken)
	e.post("/v1/user/login-sn", "", map[string]any{"access-token": anaToken}).fails(400, "bad_request")
	fake.SetDown(true)
	e.post("/v1/user/login-sn", "", map[string]any{"access-token": secondToken}).fails(503, "unavailable")
	fake.SetDown(false)

	if found := tokensInDatabase(e, secrets...); len(found) != 0 {
		t.Fatalf("token text in the database: %v", found)
	}
	log := logs.String()
	if !strings.Contains(log, "network_a refused") || !strings.Contains(log, "/v1/user/login-sn") {
		t.Fatalf("the log is not captured:\n%s", log)
	}
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Fatalf("the log holds the token %s:\n%s", s, log)
		}
	}
}

// checkTokenSearchFinds checks the search finds a token where one is (in text
// and in bytea), so that its silence means something.
func checkTokenSearchFinds(t *testing.T, e *env, id int64) {
	t.Helper()
	// The search finds a token where one is (in text and in bytea), so its
	// silence above means something.
	e.exec("UPDATE agency SET username = 'leak ' || $1 WHERE id = 10", anaToken)
	e.exec("UPDATE source SET access_token = convert_to($1, 'UTF8') || decode(repeat('00', 12), 'hex') WHERE user_id = $2 AND id = 1001", "EAApage1001renewed", id)
	found := tokensInDatabase(e, anaToken, "EAApage1001renewed")
	// (agency_object is the stored Agency object, kept in step with agency.)
	if want := []string{"agency: " + anaToken, "agency_object: " + anaToken, "source: EAApage1001renewed"}; strings.Join(found, ",") != strings.Join(want, ",") {
		t.Fatalf("the search found %v, want %v", found, want)
	}
}

// TestNetworkATokensWithoutKey: without a TokenCipher sign-up and login-sn
// work and store no token.
func TestNetworkATokensWithoutKey(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	e := newEnv(t, fake.config)
	e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	e.post("/v1/user/login-sn", "", map[string]any{"access-token": anaToken}).object()
	if n := scalar[int64](e, `SELECT (SELECT count(*) FROM app_user WHERE network_a_token IS NOT NULL)
		+ (SELECT count(*) FROM source WHERE access_token IS NOT NULL)`); n != 0 {
		t.Fatalf("%d tokens stored without a key", n)
	}
	if n := scalar[int64](e, "SELECT count(*) FROM source"); n != 7 {
		t.Fatalf("%d sources, want 7", n)
	}
}

// TestNetworkATokensKeptWithoutKey: a server without the key (another
// instance, or a restart without TOKEN_ENCRYPTION_KEY) signs the user in
// and refreshes the pages, but keeps the stored tokens as they are.
func TestNetworkATokensKeptWithoutKey(t *testing.T) {
	fake := newFakeNetworkA(t)
	fake.AddUser(anaSocial())
	cipher := testCipher(t)
	e, _ := newLoggedEnv(t, fake.config, func(cfg *httpapi.Config) { cfg.TokenCipher = cipher })
	e.post("/v1/user/signup-sn", "", map[string]any{"access-token": anaToken}).object()
	before := scalar[string](e, `SELECT string_agg(encode(access_token, 'hex'), ',' ORDER BY id) FROM source`) +
		scalar[string](e, `SELECT encode(network_a_token, 'hex') FROM app_user`)

	cfg := httpapi.Config{ServiceFixedFee: "0.00", PublicBaseURL: "https://api.adboost.test"}
	fake.config(&cfg)
	keyless := httptest.NewServer(httpapi.New(cfg, e.pool, e.tokens, slog.New(slog.DiscardHandler)).Handler())
	t.Cleanup(keyless.Close)
	other := *e
	other.srv = keyless
	fake.UpdateUser(anaToken, func(u *networkafake.User) { u.Pages[0].Name, u.Pages[0].Token = "Renamed", "EAAnew0page0token" })
	other.post("/v1/user/login-sn", "", map[string]any{"access-token": anaToken}).object()
	after := scalar[string](e, `SELECT string_agg(encode(access_token, 'hex'), ',' ORDER BY id) FROM source`) +
		scalar[string](e, `SELECT encode(network_a_token, 'hex') FROM app_user`)
	if after != before {
		t.Fatal("a login-sn without the key changed the stored tokens")
	}
	if name := scalar[string](e, "SELECT name FROM source WHERE id = 1001"); name != "Renamed" {
		t.Fatalf("the page was not refreshed: %q", name)
	}
	if got := opened(e, cipher, "SELECT access_token FROM source WHERE id = 1001"); got != pageToken(1001) {
		t.Fatalf("page 1001's token opens to %q", got)
	}
}
