package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/dbtest"
)

// A password change committed while login-password runs bcrypt ends the
// token that sign-in issues too: the token carries the generation read with
// the hash it checked, not the one after the change.
func TestLoginPasswordRacingPasswordChange(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	hash, err := auth.HashPassword("old-password-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO app_user (id, email, password_hash) VALUES (1, 'ana@example.com', $1)", hash); err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{}, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// The owner changes the password (as user/save does: hash and
	// generation in one statement) while the old password is being checked.
	s.afterPasswordCheck = func() {
		if _, err := pool.Exec(ctx, "UPDATE app_user SET password_hash = $1, token_generation = token_generation + 1 WHERE id = 1", hash); err != nil {
			t.Error(err)
		}
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	resp, err := http.Post(srv.URL+"/v1/user/login-password", "application/json",
		strings.NewReader(`{"email":"ana@example.com","password":"old-password-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login-password: %d %s", resp.StatusCode, body)
	}
	token := strings.Split(strings.Split(string(body), `"access_token":"`)[1], `"`)[0]
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/user/detail", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the token of a sign-in that raced a password change answers %d, want 401", resp.StatusCode)
	}
}
