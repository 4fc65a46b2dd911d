package httpapi_test

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"adboost/auth"
)

const usersFixture = `{
  "agencies": [{"id": 10, "username": "northwind", "email": "ads@northwind.example"}],
  "users": [
    {"id": 100, "email": "Ana.Novak@Example.com", "password": "ana-password", "snid": 123,
     "first_name": "Ana", "last_name": "Novak", "phone_number": "+420111222333",
     "phone_country": "CZ", "agency_id": 10, "credit_balance": "12.5"},
    {"id": 101, "email": "bob@example.com", "password": "bob-password"}
  ]
}`

// anaUser is the User object of user 100 of usersFixture, as JSON decodes it.
var anaUser = map[string]any{
	"snid": float64(123), "email": "Ana.Novak@Example.com", "first_name": "Ana", "last_name": "Novak",
	"phone_number": "+420111222333", "agency_id": float64(10), "agency_name": "northwind",
	"credit_balance": "12.50", "connection": notConnected, "weekly_report": true,
}

// notConnected is the connection of a user without a stored network_a token.
var notConnected = map[string]any{"network_a": map[string]any{"status": "not_connected", "expires_at": nil, "missing_permissions": []any{}}}

func TestLoginPassword(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)

	got := e.post("/v1/user/login-password", "", map[string]string{
		"email": "ana.novak@example.com", "password": "ana-password"}).object()
	token, _ := got["access_token"].(string)
	delete(got, "access_token")
	if !reflect.DeepEqual(got, anaUser) {
		t.Fatalf("user = %v\nwant %v", got, anaUser)
	}
	id, _, err := e.tokens.Verify(token)
	if err != nil || id != 100 {
		t.Fatalf("access_token verifies to %d, %v; want 100", id, err)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
		t.Fatal(err)
	}
	if claims["sub"] != "100" || claims["iss"] != "adboost" || claims["iat"] == nil || claims["exp"] == nil {
		t.Fatalf("claims = %v", claims)
	}

	// The token works for user/detail, which answers the same user.
	detail := e.get("/v1/user/detail", token).object()
	if !reflect.DeepEqual(detail, anaUser) {
		t.Fatalf("detail = %v\nwant %v", detail, anaUser)
	}

	// A user without social id, agency or balance gets zero values of the
	// declared types.
	bob := e.post("/v1/user/login-password", "", map[string]string{
		"email": "bob@example.com", "password": "bob-password"}).object()
	delete(bob, "access_token")
	want := map[string]any{"snid": float64(0), "email": "bob@example.com", "first_name": "", "last_name": "",
		"phone_number": "", "agency_id": float64(0), "agency_name": "", "credit_balance": "0.00", "connection": notConnected, "weekly_report": true}
	if !reflect.DeepEqual(bob, want) {
		t.Fatalf("bob = %v\nwant %v", bob, want)
	}
}

func TestLoginPasswordFailures(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)

	wrong := e.post("/v1/user/login-password", "", map[string]string{"email": "ana.novak@example.com", "password": "not-her-password"})
	wrong.fails(http.StatusUnauthorized, "invalid_credentials")
	unknown := e.post("/v1/user/login-password", "", map[string]string{"email": "nobody@example.com", "password": "ana-password"})
	unknown.fails(http.StatusUnauthorized, "invalid_credentials")
	if string(wrong.body) != string(unknown.body) {
		t.Fatalf("a wrong password answers %s, an unknown e-mail %s: they must not differ", wrong.body, unknown.body)
	}

	for _, tc := range []struct {
		name string
		body any
		code int
		err  string
		word string
	}{
		{"no e-mail", map[string]string{"password": "x"}, 400, "bad_request", "email"},
		{"no password", map[string]string{"email": "ana.novak@example.com"}, 400, "bad_request", "password"},
		{"e-mail of the wrong type", `{"email": 5, "password": "x"}`, 400, "bad_request", "email"},
		{"array body", `[]`, 400, "bad_request", "object"},
		{"malformed JSON", `{"email": `, 400, "bad_request", "malformed"},
		{"trailing data", `{"email": "a@b.c", "password": "x"} {}`, 400, "bad_request", "malformed"},
		{"NUL in the e-mail", `{"email": "a\u0000b@example.com", "password": "x"}`, 400, "bad_request", "field email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.post("/v1/user/login-password", "", tc.body).fails(tc.code, tc.err, tc.word)
		})
	}
}

func TestLoginPasswordSlowDown(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	login := func(from, email, password string) *response {
		return e.do(request{method: http.MethodPost, path: "/v1/user/login-password", from: from,
			body: map[string]string{"email": email, "password": password}})
	}

	// Ten failures for one e-mail from ten addresses: the e-mail is blocked,
	// even with the right password and from a new address.
	for i := range 10 {
		login("127.0.0."+strconv.Itoa(10+i), "ana.novak@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	blocked := login("127.0.0.30", "ANA.NOVAK@example.com", "ana-password")
	blocked.fails(http.StatusTooManyRequests, "rate_limited")
	retry, err := strconv.Atoi(blocked.header.Get("Retry-After"))
	if err != nil || retry < 890 || retry > 900 {
		t.Fatalf("Retry-After = %q, want about 900 seconds", blocked.header.Get("Retry-After"))
	}
	// Another e-mail from those addresses still signs in.
	var bob map[string]any
	login("127.0.0.10", "bob@example.com", "bob-password").ok(&bob)

	// Ten failures from one address for ten e-mails: the address is blocked,
	// for every e-mail.
	for i := range 10 {
		login("127.0.0.40", "user"+strconv.Itoa(i)+"@example.com", "whatever-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	login("127.0.0.40", "bob@example.com", "bob-password").fails(http.StatusTooManyRequests, "rate_limited")
	login("127.0.0.41", "bob@example.com", "bob-password").ok(&bob)

	// Nine failures are not enough, and a success forgets the e-mail's count.
	for range 9 {
		login("127.0.0.50", "bob@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	login("127.0.0.51", "bob@example.com", "bob-password").ok(&bob)
	for range 9 {
		login("127.0.0.52", "bob@example.com", "wrong-password").fails(http.StatusUnauthorized, "invalid_credentials")
	}
	login("127.0.0.53", "bob@example.com", "bob-password").ok(&bob)

	// Failures older than the window do not count.
	if _, err := e.pool.Exec(t.Context(), "UPDATE login_attempt SET attempted_at = attempted_at - interval '16 minutes'"); err != nil {
		t.Fatal(err)
	}
	login("127.0.0.40", "ana.novak@example.com", "ana-password").ok(&bob)
}

func TestBearerTokens(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	sign := func(method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		tok, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	now := time.Now()
	valid := jwt.MapClaims{"sub": "100", "iss": "adboost", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	with := func(k string, v any) jwt.MapClaims {
		c := jwt.MapClaims{}
		for key, val := range valid {
			c[key] = val
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}

	var user map[string]any
	e.get("/v1/user/detail", sign(jwt.SigningMethodHS256, []byte(testSecret), valid)).ok(&user)
	if user["email"] != "Ana.Novak@Example.com" {
		t.Fatalf("detail = %v", user)
	}

	for name, header := range map[string]string{
		"missing":           "",
		"not bearer":        "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
		"empty bearer":      "Bearer ",
		"malformed":         "Bearer not.a.jwt",
		"expired":           "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("exp", now.Add(-time.Minute).Unix())),
		"no expiry":         "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("exp", nil)),
		"wrongly signed":    "Bearer " + sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-123"), valid),
		"alg none":          "Bearer " + sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, valid),
		"HS512":             "Bearer " + sign(jwt.SigningMethodHS512, []byte(testSecret), valid),
		"other issuer":      "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("iss", "someone-else")),
		"no subject":        "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("sub", nil)),
		"non-numeric sub":   "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("sub", "ana")),
		"issued in future":  "Bearer " + sign(jwt.SigningMethodHS256, []byte(testSecret), with("iat", now.Add(time.Hour).Unix())),
		"signature removed": "Bearer " + strings.Join(strings.Split(sign(jwt.SigningMethodHS256, []byte(testSecret), valid), ".")[:2], ".") + ".",
	} {
		t.Run(name, func(t *testing.T) {
			resp := e.do(request{method: http.MethodGet, path: "/v1/user/detail", authorization: header})
			resp.fails(http.StatusUnauthorized, "unauthorized")
			if resp.header.Get("WWW-Authenticate") != "Bearer" {
				t.Fatalf("WWW-Authenticate %q; want Bearer", resp.header.Get("WWW-Authenticate"))
			}
		})
	}
	_ = auth.Issuer
}

// A valid token whose account was deleted since is refused, not a 500.
func TestTokenOfDeletedAccount(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	token := e.token(101)
	if _, err := e.pool.Exec(t.Context(), "DELETE FROM app_user WHERE id = 101"); err != nil {
		t.Fatal(err)
	}
	e.post("/v1/billing/save", token, map[string]string{"full_name": "Bob"}).
		fails(http.StatusUnauthorized, "unauthorized", "no longer exists")
	e.get("/v1/user/detail", token).fails(http.StatusUnauthorized, "unauthorized", "no longer exists")
}

// E-mail addresses with spaces that PostgreSQL's \s knows (and Go's does not)
// are refused as bad input, not left to the schema's CHECK.
func TestEmailWithUnicodeSpace(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	for _, addr := range []string{"a\u2003b@example.com", "ab@exa\u3000mple.com", "a\u00a0b@example.com"} {
		e.post("/v1/user/save", e.token(100), `{"email": "`+addr+`"}`).fails(http.StatusBadRequest, "bad_request", "email")
	}
}
