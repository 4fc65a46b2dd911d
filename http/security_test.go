package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"

	httpapi "adboost/http"
)

// The scenario of a stolen access token: the token alone changes neither the
// password nor the e-mail; with the password, a change ends every earlier
// token and tells the old address.
func TestStolenTokenCannotTakeOverTheAccount(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	stolen := e.token(100)
	mails := func() int { return len(e.queuedMails()) }
	hash := func() string { return scalar[string](e, "SELECT password_hash FROM app_user WHERE id = 100") }
	before := hash()

	// Without, or with a wrong, current_password: 401, nothing written.
	for _, body := range []map[string]string{
		{"password": "thief-password"},
		{"password": "thief-password", "current_password": ""},
		{"password": "thief-password", "current_password": "guessed-password"},
		{"email": "thief@evil.example"},
		{"email": "thief@evil.example", "current_password": "guessed-password"},
		{"email": "thief@evil.example", "password": "thief-password", "phone_number": "+1 555 0100"},
	} {
		e.post("/v1/user/save", stolen, body).fails(http.StatusUnauthorized, "invalid_credentials", "current_password")
	}
	if hash() != before || mails() != 0 || scalar[int64](e, "SELECT count(*) FROM email_change") != 0 ||
		scalar[string](e, "SELECT phone_number FROM app_user WHERE id = 100") != "+420111222333" {
		t.Fatal("a refused save wrote something")
	}
	// The token still works, and the own address in another case is no
	// change of e-mail: no password needed for it or for the phone.
	e.post("/v1/user/save", stolen, map[string]string{"email": "ana.novak@EXAMPLE.com", "phone_number": "+420 1"}).object()

	// The e-mail with the right password: the new address gets its link,
	// the old one a notice, queued together.
	got := e.post("/v1/user/save", stolen, map[string]string{"email": "ana.new@example.com", "current_password": "ana-password"}).object()
	if got["message"] != "A verification e-mail has been sent to ana.new@example.com." {
		t.Fatalf("save = %v", got)
	}
	old := e.mailsTo("Ana.Novak@Example.com")
	if len(old) != 1 {
		t.Fatalf("%d notices to the old address, want 1", len(old))
	}
	subject, body := old[0].Subject, old[0].Text
	if subject != "Your adboost e-mail address is being changed" || !bytes.Contains([]byte(body), []byte("ana.new@example.com")) ||
		bytes.Contains([]byte(body), []byte("verify-email")) {
		t.Fatalf("notice %q:\n%s", subject, body)
	}
	if n := len(e.mailsTo("ana.new@example.com")); n != 1 {
		t.Fatalf("%d mails to the new address, want 1", n)
	}

	// The password with the right current one: every earlier token ends,
	// and so does the pending e-mail change; a token issued afterwards, in
	// the same second, works.
	got = e.post("/v1/user/save", stolen, map[string]string{"password": "ana-new-password", "current_password": "ana-password"}).object()
	if got["message"] != "Your profile has been saved. Your password has changed: sign in again with it." {
		t.Fatalf("save = %v", got)
	}
	if hash() == before {
		t.Fatal("the password did not change")
	}
	e.get("/v1/user/detail", stolen).fails(http.StatusUnauthorized, "unauthorized", "password change")
	e.post("/v1/user/save", stolen, map[string]string{"phone_number": "+420 2"}).fails(http.StatusUnauthorized, "unauthorized")
	if n := scalar[int64](e, "SELECT count(*) FROM email_change WHERE user_id = 100"); n != 0 {
		t.Fatal("the pending e-mail change survived the password change")
	}
	e.post("/v1/user/login-password", "", map[string]string{"email": "ana.novak@example.com", "password": "ana-password"}).
		fails(http.StatusUnauthorized, "invalid_credentials")
	fresh := e.post("/v1/user/login-password", "", map[string]string{"email": "ana.novak@example.com", "password": "ana-new-password"}).object()
	if d := e.get("/v1/user/detail", fresh["access_token"].(string)).object(); d["email"] != "Ana.Novak@Example.com" {
		t.Fatalf("detail with the new token = %v", d)
	}
	if d := e.get("/v1/user/detail", e.token(100)).object(); d["email"] != "Ana.Novak@Example.com" {
		t.Fatalf("detail with a token of the new generation = %v", d)
	}
	// Bob's tokens are untouched.
	e.get("/v1/user/detail", e.token(101)).object()
}

// A social-only account (no password) sets its first password without
// current_password, but changes its e-mail only once it has one.
func TestFirstPasswordWithoutCurrentPassword(t *testing.T) {
	e := newEnv(t)
	e.load(`{"users": [{"id": 200, "email": "social@example.com", "snid": 77}]}`)
	tok := e.token(200)
	e.post("/v1/user/save", tok, map[string]string{"email": "other@example.com"}).
		fails(http.StatusUnauthorized, "invalid_credentials", "no password")
	e.post("/v1/user/save", tok, map[string]string{"password": "first-password"}).object()
	e.get("/v1/user/detail", tok).fails(http.StatusUnauthorized, "unauthorized")
	tok = e.token(200)
	e.post("/v1/user/save", tok, map[string]string{"password": "second-password"}).
		fails(http.StatusUnauthorized, "invalid_credentials", "current_password")
	e.post("/v1/user/save", tok, map[string]string{"email": "other@example.com", "current_password": "first-password"}).object()
}

// current_password is checked under the login limiter: a thief with a token
// cannot guess it either.
func TestCurrentPasswordIsLimited(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	tok := e.token(100)
	for i := range 10 {
		e.post("/v1/user/save", tok, map[string]string{"password": "thief-password", "current_password": "guess-" + strconv.Itoa(i)}).
			fails(http.StatusUnauthorized, "invalid_credentials")
	}
	r := e.post("/v1/user/save", tok, map[string]string{"password": "thief-password", "current_password": "ana-password"})
	r.fails(http.StatusTooManyRequests, "rate_limited")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	if n := e.api.PasswordChecks(); n != 10 {
		t.Fatalf("%d passwords checked, want 10", n)
	}
}

// loginStorm sends n password sign-ins at once; email(i), password(i) and
// forwarded(i) give the e-mail, password and X-Forwarded-For of the i-th.
// It answers how many answered each status. (Plain requests: the test
// client's helpers may not fail a test from other goroutines.)
func loginStorm(t *testing.T, e *env, n int, email, password, forwarded func(i int) string) map[int]int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	start := make(chan struct{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	defer client.CloseIdleConnections()
	for i := range n {
		wg.Go(func() {
			body, _ := json.Marshal(map[string]string{"email": email(i), "password": password(i)})
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/user/login-password", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if f := forwarded(i); f != "" {
				req.Header.Set("X-Forwarded-For", f)
			}
			<-start
			status := 0
			if resp, err := client.Do(req); err == nil {
				status = resp.StatusCode
				if status == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
					status = -429 // a 429 without Retry-After
				}
				resp.Body.Close()
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return statuses
}

func wrongPassword(i int) string { return "wrong-password-" + strconv.Itoa(i) }

func trustLoopback(cfg *httpapi.Config) {
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
}

// 100 concurrent wrong passwords for one e-mail, each from another client
// address (behind a trusted proxy): exactly 10 are checked.
func TestLoginLimiterConcurrentOneEmail(t *testing.T) {
	e := newEnv(t, trustLoopback)
	e.load(usersFixture)
	got := loginStorm(t, e, 100,
		func(int) string { return "Ana.Novak@example.com" }, wrongPassword,
		func(i int) string { return fmt.Sprintf("198.51.100.%d", i) })
	if got[http.StatusUnauthorized] != 10 || got[http.StatusTooManyRequests] != 90 {
		t.Fatalf("answers %v, want 10 × 401 and 90 × 429 (with Retry-After)", got)
	}
	if n := e.api.PasswordChecks(); n != 10 {
		t.Fatalf("%d passwords checked, want 10", n)
	}
	if n := scalar[int64](e, "SELECT count(*) FROM login_attempt WHERE email = 'ana.novak@example.com'"); n != 10 {
		t.Fatalf("%d attempts recorded, want 10", n)
	}
	if n := scalar[int64](e, "SELECT count(DISTINCT client_addr) FROM login_attempt"); n != 10 {
		t.Fatalf("attempts from %d addresses, want 10 (X-Forwarded-For of a trusted proxy)", n)
	}
}

// 100 concurrent wrong passwords from one client address, each for another
// e-mail: exactly 10 are checked. X-Forwarded-For from a peer that is not a
// trusted proxy changes nothing.
func TestLoginLimiterConcurrentOneAddress(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	got := loginStorm(t, e, 100,
		func(i int) string { return fmt.Sprintf("user%d@example.com", i) }, wrongPassword,
		func(i int) string { return fmt.Sprintf("203.0.113.%d", i) })
	if got[http.StatusUnauthorized] != 10 || got[http.StatusTooManyRequests] != 90 {
		t.Fatalf("answers %v, want 10 × 401 and 90 × 429 (with Retry-After)", got)
	}
	if n := e.api.PasswordChecks(); n != 10 {
		t.Fatalf("%d passwords checked, want 10", n)
	}
	if addr := scalar[string](e, "SELECT string_agg(DISTINCT client_addr, ',') FROM login_attempt"); addr != "127.0.0.1" {
		t.Fatalf("attempts from %q, want only the peer 127.0.0.1", addr)
	}
}

// A success clears the e-mail's own failures, never those that the client
// address made for it.
func TestLoginSuccessClearsOnlyTheEmailsCount(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	login := func(from, email, password string) *response {
		return e.do(request{method: http.MethodPost, path: "/v1/user/login-password", from: from,
			body: map[string]string{"email": email, "password": password}})
	}
	for range 9 {
		login("127.0.0.60", "bob@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	login("127.0.0.60", "bob@example.com", "bob-password").object()
	// Bob's count starts again: ten more failures from elsewhere are checked.
	for range 10 {
		login("127.0.0.61", "bob@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	login("127.0.0.62", "bob@example.com", "bob-password").fails(http.StatusTooManyRequests, "rate_limited")
	// The address still counts its nine failures: one more, then 429 even
	// for another e-mail with its right password.
	login("127.0.0.60", "nobody@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	login("127.0.0.60", "ana.novak@example.com", "ana-password").fails(http.StatusTooManyRequests, "rate_limited")
	login("127.0.0.63", "ana.novak@example.com", "ana-password").object()
	if n := e.api.PasswordChecks(); n != 9+1+10+1+1 {
		t.Fatalf("%d passwords checked, want 22", n)
	}
}

// Concurrent sign-ins with the right password are never refused: checks
// in flight are not failures. 30 at once for one e-mail, then 32 at once by
// four users from one client address: every one signs in, every password
// is checked once, and nothing is left counted.
func TestLoginLimiterConcurrentRightPasswords(t *testing.T) {
	e := newEnv(t)
	e.load(`{"users": [
	  {"id": 100, "email": "ana@example.com", "password": "ana-password"},
	  {"id": 101, "email": "bob@example.com", "password": "bob-password"},
	  {"id": 102, "email": "cy@example.com", "password": "cy-password"},
	  {"id": 103, "email": "dee@example.com", "password": "dee-password"}]}`)
	got := loginStorm(t, e, 30, func(int) string { return "ana@example.com" }, func(int) string { return "ana-password" },
		func(int) string { return "" })
	if got[http.StatusOK] != 30 {
		t.Fatalf("30 right passwords for one e-mail: %v, want 30 × 200", got)
	}
	users := []string{"ana", "bob", "cy", "dee"}
	got = loginStorm(t, e, 32, func(i int) string { return users[i%4] + "@example.com" },
		func(i int) string { return users[i%4] + "-password" }, func(int) string { return "" })
	if got[http.StatusOK] != 32 {
		t.Fatalf("32 right passwords of four users from one address: %v, want 32 × 200", got)
	}
	if n := e.api.PasswordChecks(); n != 62 {
		t.Fatalf("%d passwords checked, want 62", n)
	}
	if n := scalar[int64](e, "SELECT count(*) FROM login_attempt"); n != 0 {
		t.Fatalf("%d attempts left counted, want 0", n)
	}
}

// Checks in flight and failures, one at a time:
//   - ten checks in flight for an e-mail fill its limit: a sign-in waits for
//     them, then (they never settle) answers 429 with Retry-After 1, not the
//     window's length, and checks no password;
//   - a reservation still pending long after any request's deadline counts
//     as a failure (its process went away): 429 with the window's wait;
//   - a success clears the e-mail's failures but not a check of the e-mail
//     still in flight, which counts if it fails.
func TestLoginLimiterPendingChecks(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	login := func(from, email, password string) *response {
		return e.do(request{method: http.MethodPost, path: "/v1/user/login-password", from: from,
			body: map[string]string{"email": email, "password": password}})
	}
	e.exec(`INSERT INTO login_attempt (client_addr, email, pending)
	        SELECT '127.0.0.70', 'bob@example.com', true FROM generate_series(1, 10)`)
	r := login("127.0.0.71", "bob@example.com", "bob-password")
	r.fails(http.StatusTooManyRequests, "rate_limited", "at once")
	if ra := r.header.Get("Retry-After"); ra != "1" {
		t.Errorf("Retry-After %q while checks are in flight, want 1", ra)
	}
	if n := e.api.PasswordChecks(); n != 0 {
		t.Fatalf("%d passwords checked, want 0", n)
	}

	// The same ten, made 40 s ago: past the sign-in deadline (20 s) and its
	// margin, they are failures.
	e.exec(`UPDATE login_attempt SET attempted_at = now() - interval '40 seconds'`)
	r = login("127.0.0.72", "bob@example.com", "bob-password")
	r.fails(http.StatusTooManyRequests, "rate_limited", "failed sign-ins")
	if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 850 || ra > 861 {
		t.Errorf("Retry-After %q for stale checks, want the window's remaining ~860 s", r.header.Get("Retry-After"))
	}

	// Ana: one failure, then one check in flight, then a success.
	e.exec(`DELETE FROM login_attempt`)
	login("127.0.0.73", "ana.novak@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	e.exec(`INSERT INTO login_attempt (client_addr, email, pending) VALUES ('127.0.0.74', 'ana.novak@example.com', true)`)
	login("127.0.0.75", "ana.novak@example.com", "ana-password").object()
	if got := scalar[string](e, `SELECT string_agg(client_addr || ':' || pending || ':' || email_counts, ',' ORDER BY id)
	                             FROM login_attempt WHERE email = 'ana.novak@example.com'`); got != "127.0.0.73:false:false,127.0.0.74:true:true" {
		t.Errorf("after the success: %s, want the failure cleared and the check in flight still counting", got)
	}
}

// An import that sets a user's password is a password reset: every token
// issued before ends (401); one that leaves the password out keeps them.
func TestImportedPasswordEndsTokens(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	before := e.token(101)
	e.get("/v1/user/detail", before).object()
	e.load(`{"users": [{"id": 101, "email": "bob@example.com", "first_name": "Bob"}]}`)
	e.get("/v1/user/detail", before).object()
	e.load(`{"users": [{"id": 101, "email": "bob@example.com", "password": "bob-new-password"}]}`)
	e.get("/v1/user/detail", before).fails(http.StatusUnauthorized, "unauthorized")
	e.get("/v1/user/detail", e.token(101)).object()
	e.post("/v1/user/login-password", "", map[string]string{"email": "bob@example.com", "password": "bob-new-password"}).object()
}
