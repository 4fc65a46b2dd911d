package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"adboost/auth"
	"adboost/auth/networkafake"
	"adboost/db/dbtest"
)

// lockedBuffer is a buffer written by a process and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServeProcess runs this test binary as `adboost serve` (a process of
// its own) on a free port until the test ends, when it is sent SIGTERM and
// must end cleanly; it answers the base URL and the process's log.
func startServeProcess(t *testing.T, env map[string]string) (string, *lockedBuffer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Env = append(os.Environ(), "ADBOOST_TEST_RUN_MAIN=1", "HTTP_ADDR="+addr)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve ended with %v\n%s", err, logs)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("serve did not shut down\n%s", logs)
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve ended before it was ready: %v\n%s", err, logs)
		default:
		}
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

// fakeCampaignStatus answers the status of network_a's campaign named name
// ("" when there is none).
func fakeCampaignStatus(f *networkafake.Fake, name string) string {
	for _, o := range f.Objects("campaign") {
		if o.Name == name {
			return o.Status
		}
	}
	return ""
}

// While `serve` runs, a campaign deactivated (save
// active=false) or deleted with its source (delete-source) is PAUSED on
// network_a within 60 s, though the next cycle is an hour away: the pause
// is its own job, enqueued in the request's transaction.
func TestServePausesWithinAMinute(t *testing.T) {
	t.Parallel()
	const secret = "pause-serve-test-secret-0123456789abcdef"
	for _, c := range []pauseRequest{
		{"save active false", http.MethodPost, "/v1/boosted-pages/save/7", `{"active": false}`, "true"},
		{"delete-source", http.MethodDelete, "/v1/boosted-pages/delete-source/456", "", `{"success":true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fake, env := engineWorld(t)
			env["ENGINE_INTERVAL"] = "1h"
			env["JWT_SECRET"] = secret
			base, logs := startServeProcess(t, env)

			// The cycle run at start boosts the post.
			for deadline := time.Now().Add(30 * time.Second); fakeCampaignStatus(fake, "adboost-7") != "ACTIVE" || len(adNames(fake)) == 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the first cycle boosted nothing: ads %v\n%s", adNames(fake), logs)
				}
			}

			bearer := userBearer(t, secret, 100)
			checkPausedWithinAMinute(t, fake, base, bearer, c, logs)
			checkAfterServePause(t, env, base, bearer, c.method)
		})
	}
}

// pauseRequest is a request that pauses campaign 7 and its expected answer.
type pauseRequest struct {
	name, method, path, body, answer string
}

// userBearer issues a bearer token of user id signed with secret.
func userBearer(t *testing.T, secret string, id int64) string {
	t.Helper()
	tokens, err := auth.NewTokens([]byte(secret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	bearer, err := tokens.Issue(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	return bearer
}

// checkPausedWithinAMinute sends the pausing request c and checks network_a
// has campaign adboost-7 PAUSED within 60 s.
func checkPausedWithinAMinute(t *testing.T, fake *networkafake.Fake, base, bearer string, c pauseRequest, logs *lockedBuffer) {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, _ := http.NewRequest(c.method, base+c.path, body)
	req.Header.Set("Authorization", "Bearer "+bearer)
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(raw)) != c.answer {
		t.Fatalf("%s %s: %d %s, want 200 %s", c.method, c.path, resp.StatusCode, raw, c.answer)
	}

	for fakeCampaignStatus(fake, "adboost-7") != "PAUSED" {
		if time.Since(start) > 60*time.Second {
			t.Fatalf("network_a's campaign is %s 60 s after %s %s, want PAUSED\n%s",
				fakeCampaignStatus(fake, "adboost-7"), c.method, c.path, logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	elapsed := time.Since(start)
	t.Logf("PAUSED on network_a %v after %s %s", elapsed.Round(time.Millisecond), c.method, c.path)
	if elapsed > 60*time.Second {
		t.Errorf("paused after %v, want within 60 s", elapsed)
	}
}

// checkAfterServePause checks what the API and the database answer after the
// pause: campaign 7 forgotten after delete-source, else inactive and paused.
func checkAfterServePause(t *testing.T, env map[string]string, base, bearer, method string) {
	t.Helper()
	pool := dbtest.NewPool(t, env["DATABASE_URL"])
	var rows string
	waitRows := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			err := pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(campaign_id || ' ' || state, ',' ORDER BY campaign_id), '')
				FROM engine_campaign WHERE campaign_id = 7`).Scan(&rows)
			if err != nil {
				t.Fatal(err)
			}
			if rows == want || time.Now().After(deadline) {
				break
			}
		}
		if rows != want {
			t.Errorf("engine state of 7 after the pause: %q, want %q", rows, want)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/boosted-pages/detail/7", nil)
	req.Header.Set("Authorization", "Bearer "+bearer)
	if method == http.MethodDelete {
		waitRows("") // forgotten once network_a confirmed the pause
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("detail/7 after delete-source: %d, want 404", resp.StatusCode)
		}
		return
	}
	waitRows("7 paused")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Active bool `json:"active"`
		Engine struct {
			State   string `json:"state"`
			Message string `json:"message"`
		} `json:"engine"`
	}
	err = json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if err != nil || page.Active || page.Engine.State != "paused" || page.Engine.Message != "" {
		t.Errorf("detail/7 after the pause: %+v %v, want inactive and paused", page, err)
	}
}

// A campaign deactivated while network_a refuses
// its user's token stays `pausing` (serve's pause cannot reach network_a);
// the login-sn that stores a working token enqueues the pause, and while
// `serve` runs network_a has the PAUSED within 60 s, though the next cycle
// is an hour away.
func TestServeLoginUnblocksPause(t *testing.T) {
	t.Parallel()
	const secret = "pause-serve-test-secret-0123456789abcdef"
	fake, env := engineWorld(t)
	env["ENGINE_INTERVAL"] = "1h"
	env["JWT_SECRET"] = secret
	pool := dbtest.NewPool(t, env["DATABASE_URL"])
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `UPDATE app_user SET snid = 5001 WHERE id = 100`); err != nil {
		t.Fatal(err)
	}
	base, logs := startServeProcess(t, env)
	for deadline := time.Now().Add(30 * time.Second); len(adNames(fake)) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first cycle boosted nothing\n%s", logs)
		}
	}
	bearer := userBearer(t, secret, 100)
	send := func(method, path, bearer, body string) string {
		t.Helper()
		return sendServe(t, base, method, path, bearer, body)
	}
	state := func() string {
		t.Helper()
		var s string
		err := pool.QueryRow(ctx, `SELECT coalesce((SELECT state || ': ' || message FROM engine_campaign WHERE campaign_id = 7), '')`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	fake.ExpireToken("ana-token")
	send(http.MethodPost, "/v1/boosted-pages/save/7", bearer, `{"active": false}`)
	// The pause job meets the refused token: the campaign stays pausing.
	const want = "pausing: deactivated: the connection to network_a expired; sign in again with network_a to carry out the pause"
	for deadline := time.Now().Add(30 * time.Second); state() != want; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("engine state of 7 %q, want %q\n%s", state(), want, logs)
		}
	}
	time.Sleep(time.Second) // nothing else pauses it meanwhile
	if s := fakeCampaignStatus(fake, "adboost-7"); s != "ACTIVE" {
		t.Fatalf("network_a's campaign %s with the user's token refused, want ACTIVE", s)
	}

	fake.AddUser(networkafake.User{
		Token: "ana-token-2", ID: "5001", FirstName: "Ana", Email: "ana@example.com",
		Pages:      []networkafake.Page{{ID: "456", Name: "Gym", Token: "page-token", Followers: 10}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_1", Status: 1, Currency: "EUR"}},
	})
	start := time.Now()
	send(http.MethodPost, "/v1/user/login-sn", "", `{"access-token": "ana-token-2"}`)
	for fakeCampaignStatus(fake, "adboost-7") != "PAUSED" {
		if time.Since(start) > 60*time.Second {
			t.Fatalf("network_a's campaign %s 60 s after login-sn, want PAUSED\n%s", fakeCampaignStatus(fake, "adboost-7"), logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("PAUSED on network_a %v after login-sn", time.Since(start).Round(time.Millisecond))
	for deadline := time.Now().Add(10 * time.Second); state() != "paused: " && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	if s := state(); s != "paused: " {
		t.Errorf("engine state of 7 after the pause %q, want paused", s)
	}
}

// sendServe sends a JSON request to serve at base, with bearer when not
// empty, and answers the body of its 200 answer.
func sendServe(t *testing.T, base, method, path, bearer, body string) string {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return string(raw)
}
