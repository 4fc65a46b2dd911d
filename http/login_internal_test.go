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

// user/save writes a new password only over the hash it checked
// current_password against (or over none, for a first password): a password
// set meanwhile by another request is not overwritten; the save answers 409
// and changes nothing.
func TestUserSaveRacingPasswordChange(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	old, err := auth.HashPassword("old-password-1")
	if err != nil {
		t.Fatal(err)
	}
	meanwhile, err := auth.HashPassword("meanwhile-password-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO app_user (id, email, password_hash) VALUES (1, 'ana@example.com', $1), (2, 'sam@example.com', NULL)`, old); err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{}, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var target int64
	s.afterCredentialsCheck = func() {
		if _, err := pool.Exec(ctx, "UPDATE app_user SET password_hash = $1, token_generation = token_generation + 1 WHERE id = $2", meanwhile, target); err != nil {
			t.Error(err)
		}
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	for _, c := range []struct {
		id   int64
		body string
	}{
		{1, `{"password":"new-password-1","current_password":"old-password-1","phone_number":"+420 111"}`},
		{2, `{"password":"first-password-1","phone_number":"+420 111"}`}, // a first password
	} {
		target = c.id
		token, err := tokens.Issue(c.id, 0)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/user/save", strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), "changed while this request ran") {
			t.Errorf("user %d: save racing a password change: %d %s, want 409", c.id, resp.StatusCode, body)
		}
		var hash string
		var phone *string
		if err := pool.QueryRow(ctx, "SELECT password_hash, nullif(phone_number, '') FROM app_user WHERE id = $1", c.id).Scan(&hash, &phone); err != nil {
			t.Fatal(err)
		}
		if hash != meanwhile || phone != nil {
			t.Errorf("user %d: the save overwrote the password set meanwhile (or wrote the phone %v)", c.id, phone)
		}
	}
}
