package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
	"adboost/db/dbtest"
)

// NETWORK_A_APP_ID and NETWORK_A_APP_SECRET go together; no error shows
// the secret.
func TestNetworkAAppSettings(t *testing.T) {
	t.Parallel()
	const secret = "very+secret/value=="
	for _, tc := range []struct {
		id, secret string
		want       networka.App
		err        string
	}{
		{"", "", networka.App{}, ""},
		{"8090000000000001", secret, networka.App{ID: "8090000000000001", Secret: secret}, ""},
		{" 42 ", secret, networka.App{ID: "42", Secret: secret}, ""},
		{"42", "", networka.App{}, "NETWORK_A_APP_ID is set without NETWORK_A_APP_SECRET"},
		{"", secret, networka.App{}, "NETWORK_A_APP_SECRET is set without NETWORK_A_APP_ID"},
		{"app-42", secret, networka.App{}, `NETWORK_A_APP_ID "app-42" is not a network_a app id`},
		{"42", secret + " x", networka.App{}, "NETWORK_A_APP_SECRET is not an app secret"},
		{"42", strings.Repeat("s", 257), networka.App{}, "NETWORK_A_APP_SECRET is not an app secret"},
	} {
		cfg, err := loadConfig(envOf(map[string]string{"NETWORK_A_API_URL": "http://127.0.0.1:1/v25.0", "NETWORK_A_APP_ID": tc.id, "NETWORK_A_APP_SECRET": tc.secret}), quiet())
		switch {
		case tc.err == "" && (err != nil || cfg.networkAApp != tc.want || cfg.networkAURL != "http://127.0.0.1:1/v25.0"):
			t.Errorf("%q/%q: %+v, %v; want %+v", tc.id, tc.secret, cfg.networkAApp, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q/%q: %v; want %q", tc.id, tc.secret, err, tc.err)
		case err != nil && strings.Contains(err.Error(), "secret/value"):
			t.Errorf("%q/%q: the error shows the secret: %v", tc.id, tc.secret, err)
		}
	}
}

// serveLogged runs `adboost serve` in this process on a free port until the
// test ends, its log captured; it answers the base URL and the log.
func serveLogged(t *testing.T, vars map[string]string) (string, *lockedBuffer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	vars["HTTP_ADDR"] = addr
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(vars), nil, io.Discard, log) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve ended with %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("serve did not shut down")
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, logs
			}
		}
	}
	t.Fatalf("serve did not become ready\n%s", logs)
	return "", nil
}

// Without the app, serve warns once at start that connections may end
// within hours; with it, signup-sn stores a long-lived token with its end,
// and the secret is in no log line.
func TestServeNetworkAApp(t *testing.T) {
	t.Parallel()
	const appSecret = "serve+app/secret=="
	fake, fakeURL := networkafake.Start(t)
	fake.SetApp("777", appSecret)
	fake.AddUser(networkafake.User{Token: "EAAserve0user", ID: "5551234", FirstName: "Sia", Email: "sia@example.com", Issued: time.Now(),
		Pages: []networkafake.Page{{ID: "9101", Name: "Sia's", Token: "EAApage9101"}}})
	vars := func() map[string]string {
		return map[string]string{"DATABASE_URL": dbtest.NewURL(t), "JWT_SECRET": "serve-app-test-secret-0123456789abcdef",
			"NETWORK_A_API_URL": fakeURL, "ENGINE_INTERVAL": "0",
			"TOKEN_ENCRYPTION_KEY": base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))}
	}
	const warning = "NETWORK_A_APP_ID and NETWORK_A_APP_SECRET are not set"

	// A user whose connection ends in 3 days is reminded at serve's start
	// (no cycle runs: ENGINE_INTERVAL=0).
	without := vars()
	if err := run(context.Background(), []string{"migrate", "up"}, envOf(without), nil, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), without["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	end := time.Now().UTC().Add(3 * 24 * time.Hour)
	if _, err := pool.Exec(context.Background(), `INSERT INTO app_user (id, email, first_name, network_a_token, network_a_token_expires_at)
		VALUES (100, 'lea@example.com', 'Lea', $1, $2)`, make([]byte, 40), end); err != nil {
		t.Fatal(err)
	}
	_, logs := serveLogged(t, without)
	if n := strings.Count(logs.String(), warning); n != 1 {
		t.Fatalf("the warning was logged %d times:\n%s", n, logs)
	}
	// Without SMTP_URL, serve logs the mails it sends: that one, only.
	want := `to=lea@example.com subject="adboost: your network_a connection ends on ` + end.Format(time.DateOnly) + `"`
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got := logs.String()
		if strings.Count(got, "SMTP_URL is not set: logged") == 1 && strings.Contains(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the mails logged are not the reminder %s\n%s", want, got)
		}
	}

	withApp := vars()
	withApp["NETWORK_A_APP_ID"], withApp["NETWORK_A_APP_SECRET"] = "777", appSecret
	base, logs := serveLogged(t, withApp)
	resp, err := http.Post(base+"/v1/user/signup-sn", "application/json", strings.NewReader(`{"access-token":"EAAserve0user"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var user struct {
		Connection struct {
			NetworkA struct {
				Status    string  `json:"status"`
				ExpiresAt *string `json:"expires_at"`
			} `json:"network_a"`
		} `json:"connection"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&user); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("signup-sn: %d, %v", resp.StatusCode, err)
	}
	longEnd, err := time.Parse(time.DateTime, *user.Connection.NetworkA.ExpiresAt)
	if c := user.Connection.NetworkA; err != nil || c.Status != "ok" || time.Until(longEnd) < 59*24*time.Hour {
		t.Fatalf("connection %+v (%v), want ok, ending in 60 days", c, err)
	}
	if strings.Contains(logs.String(), warning) || strings.Contains(logs.String(), "app/secret") {
		t.Fatalf("the log warns or shows the secret:\n%s", logs)
	}
}
