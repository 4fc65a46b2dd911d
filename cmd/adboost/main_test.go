package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"adboost/auth"
	"adboost/db/dbtest"
)

func TestMain(m *testing.M) {
	// The tests of exit codes run this test binary as the adboost binary.
	if os.Getenv("ADBOOST_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	auth.PasswordCost = bcrypt.MinCost
	dbtest.Main(m)
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// pendingMigration matches a line of `migrate status` for a migration not
// applied (its status column, not a file name that says "pending").
var pendingMigration = regexp.MustCompile(`(?m)^\S+\.sql\s+pending$`)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestMigrateDownAndUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	getenv := envOf(map[string]string{"DATABASE_URL": url})
	var out bytes.Buffer

	if err := run(ctx, []string{"migrate", "status"}, getenv, nil, &out, quiet()); err != nil {
		t.Fatal(err)
	}
	applied := strings.Count(out.String(), "applied")
	if applied == 0 || pendingMigration.MatchString(out.String()) {
		t.Fatalf("status of a migrated database:\n%s", out.String())
	}
	// Down to nothing, then up again.
	for range applied {
		if err := run(ctx, []string{"migrate", "down"}, getenv, nil, &out, quiet()); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	if err := run(ctx, []string{"migrate", "status"}, getenv, nil, &out, quiet()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "applied") {
		t.Fatalf("status after rolling back every migration:\n%s", out.String())
	}
	if err := run(ctx, []string{"migrate", "up"}, getenv, nil, &out, quiet()); err != nil {
		t.Fatal(err)
	}
	// The schema is usable: the demo loads and its user signs in.
	ensureCountries(t, url) // the demo's billing countries, while the ISO data set is not loaded
	if err := run(ctx, []string{"demo"}, getenv, nil, &out, quiet()); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, map[string]string{"DATABASE_URL": url, "ADBOOST_ENV": "dev"})
	resp, err := http.Post(base+"/v1/user/login-password", "application/json",
		strings.NewReader(`{"email": "demo@adboost.example", "password": "demo-password"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var user struct {
		Email       string `json:"email"`
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&user); err != nil || resp.StatusCode != 200 || user.AccessToken == "" {
		t.Fatalf("demo login: %d %+v %v", resp.StatusCode, user, err)
	}
}

func TestImportCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	getenv := envOf(map[string]string{"DATABASE_URL": url})
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"services": [{"id": 1, "name": "Paid social"}], "users": [{"id": 1, "email": "nope"}]}`), 0o600)
	err := run(ctx, []string{"import", bad}, getenv, nil, io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "users[0].email") {
		t.Fatalf("import of a bad file: %v", err)
	}
	// Standard input, and nothing of the bad file was kept.
	good := strings.NewReader(`{"services": [{"id": 5, "name": "Branding"}]}`)
	if err := run(ctx, []string{"import", "-"}, getenv, good, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	pool := dbtest.NewPool(t, url)
	var names string
	if err := pool.QueryRow(ctx, "SELECT string_agg(name, ',' ORDER BY id) FROM service").Scan(&names); err != nil || names != "Branding" {
		t.Fatalf("services = %q, %v; want only Branding", names, err)
	}
}

// adboost import takes a campaign's special ad categories and DSA
// beneficiary and payor; a bad one names the row and the field, and the file
// is not kept.
func TestImportCampaignNetworkAFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	getenv := envOf(map[string]string{"DATABASE_URL": url})
	file := func(campaign string) io.Reader {
		return strings.NewReader(`{"users": [{"id": 100, "email": "ana@example.com"}],
			"boosted_pages": [{"id": 7, "user_id": 100, "page_id": 456, "campaign_budget_value": "20.00",
				"audience_targeting": {"geo_locations": {"countries": ["DE"]}}, ` + campaign + `}]}`)
	}
	err := run(ctx, []string{"import", "-"}, getenv, file(`"special_ad_categories": ["EMPLOYMENT", "JOBS"]`), io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), `boosted_pages[0].special_ad_categories: entry 1 ("JOBS")`) {
		t.Fatalf("import of a bad category: %v", err)
	}
	err = run(ctx, []string{"import", "-"}, getenv, file(`"dsa_payor": "`+strings.Repeat("x", 513)+`"`), io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "boosted_pages[0].dsa_payor") {
		t.Fatalf("import of a payor too long: %v", err)
	}
	pool := dbtest.NewPool(t, url)
	var n int
	if err := pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM campaign) + (SELECT count(*) FROM app_user)").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows kept of bad files (%v)", n, err)
	}
	good := file(`"special_ad_categories": ["EMPLOYMENT"], "dsa_beneficiary": "Ana's Gym GmbH", "dsa_payor": "Ana Novak"`)
	if err := run(ctx, []string{"import", "-"}, getenv, good, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	var got string
	err = pool.QueryRow(ctx, `SELECT concat_ws(' | ', special_ad_categories::text, dsa_beneficiary, dsa_payor) FROM campaign WHERE id = 7`).Scan(&got)
	if want := "{EMPLOYMENT} | Ana's Gym GmbH | Ana Novak"; err != nil || got != want {
		t.Fatalf("imported campaign: %q, %v; want %q", got, err, want)
	}
}

func TestServeRefusesWithoutSecret(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"serve"}, envOf(map[string]string{"DATABASE_URL": "postgres://127.0.0.1:1/x"}), nil, io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "JWT_SECRET") {
		t.Fatalf("serve without JWT_SECRET: %v", err)
	}
	err = run(context.Background(), []string{"serve"}, envOf(map[string]string{"JWT_SECRET": "short"}), nil, io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "32 bytes") {
		t.Fatalf("serve with a short JWT_SECRET: %v", err)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"frobnicate"}, {"migrate"}, {"migrate", "sideways"}, {"import"}} {
		err := run(context.Background(), args, envOf(nil), nil, io.Discard, quiet())
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// startServe runs `adboost serve` on a free port until the test ends, and
// checks that it shuts down cleanly.
func startServe(t *testing.T, vars map[string]string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	vars["HTTP_ADDR"] = addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(vars), nil, io.Discard, quiet()) }()
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
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base
			}
		}
	}
	t.Fatal("serve did not become ready")
	return ""
}

// TestServeGC: serve collects at serveGCPercent when GOGC is not set, and
// leaves the target the runtime took from GOGC when it is. (Not parallel:
// the target is the process's.)
func TestServeGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	if got := setServeGC(func(string) (string, bool) { return "", false }); got != serveGCPercent {
		t.Errorf("GOGC unset: target %d, want %d", got, serveGCPercent)
	}
	debug.SetGCPercent(150) // as the runtime would have from GOGC=150
	if got := setServeGC(func(string) (string, bool) { return "150", true }); got != 150 {
		t.Errorf("GOGC=150: target %d, want 150 left as it is", got)
	}
}
