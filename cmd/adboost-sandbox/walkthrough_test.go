package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestSandboxWalkthrough is the README's "Sandbox network_a" walk-through
// against the sandbox, the real API and the real engine: sign up with the
// sandbox's token, start a campaign on the gym page with preset 1 and
// #gymlife, and after one engine cycle the page's matching posts are boosted;
// as the sandbox's clock moves, batch-insights grow.
func TestSandboxWalkthrough(t *testing.T) {
	ctx := context.Background()
	pool := dbtest.New(t)
	if _, err := pool.Exec(ctx, `INSERT INTO geo_country (code, name) VALUES
		('CZ', 'Czechia'), ('DE', 'Germany'), ('US', 'United States'), ('AT', 'Austria'), ('SK', 'Slovakia'), ('GB', 'United Kingdom')
		ON CONFLICT (code) DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	sb := startSandbox(t, t0)

	cipher, err := auth.NewTokenCipher(base64.StdEncoding.EncodeToString([]byte("walkthrough-key-walkthrough-key!")))
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte("walkthrough-secret-walkthrough-secret"), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	api := httptest.NewServer(httpapi.New(httpapi.Config{NetworkAAPIURL: sb.base, TokenCipher: cipher}, pool, tokens, log).Handler())
	t.Cleanup(api.Close)
	call := func(method, path, token, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, api.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
		}
		return b
	}
	post := func(path, token, body string) []byte { t.Helper(); return call("POST", path, token, body) }

	var user struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal(post("/v1/user/signup-sn", "", `{"access-token":"`+DefaultUserToken+`"}`), &user)
	var campaign struct{ ID int64 }
	json.Unmarshal(post("/v1/boosted-pages/create", user.AccessToken, `{"preset_id":1,"page_id":"7000001","budget":"20.00","hashtag":"#gymlife",
		"targeting":{"geo_locations":{"countries":["CZ"]},"age_min":18,"age_max":35}}`), &campaign)

	eng, err := boost.New(pool, boost.Config{NetworkAURL: sb.base, Cipher: cipher}, log)
	if err != nil {
		t.Fatal(err)
	}
	cycle := func() {
		t.Helper()
		if err := eng.Cycle(ctx); err != nil {
			t.Fatalf("engine cycle: %v", err)
		}
	}
	cycle()

	var posts []struct {
		ID   int64
		Name string
	}
	json.Unmarshal(post("/v1/boosted-posts/list", user.AccessToken, `{}`), &posts)
	keyword := regexp.MustCompile(`(?i)(^|[^\pL\pN_])#?(gym|fitness|workout)([^\pL\pN_]|$)`)
	var ids []string
	for _, p := range posts {
		if !strings.Contains(strings.ToLower(p.Name), "#gymlife") || !keyword.MatchString(p.Name) {
			t.Errorf("boosted post %d %q does not meet the campaign's rules", p.ID, p.Name)
		}
		ids = append(ids, strconv.FormatInt(p.ID, 10))
	}
	if len(posts) < 2 {
		t.Fatalf("%d posts boosted after the first cycle, want the seeded matching ones", len(posts))
	}
	history := string(call("GET", "/v1/boosted-pages/history/"+strconv.FormatInt(campaign.ID, 10), user.AccessToken, ""))
	if n := strings.Count(history, `"action":"boosted"`); n != len(posts) {
		t.Fatalf("%d boosted history entries for %d posts: %s", n, len(posts), history)
	}

	spend := func() float64 {
		t.Helper()
		var in struct{ Spend string }
		json.Unmarshal(post("/v1/boosted-posts/batch-insights", user.AccessToken, fmt.Sprintf(`{"ids":%q}`, strings.Join(ids, ","))), &in)
		v, err := strconv.ParseFloat(in.Spend, 64)
		if err != nil {
			t.Fatalf("spend %q", in.Spend)
		}
		return v
	}
	sb.tick(t0.Add(30 * time.Second))
	cycle()
	first := spend()
	sb.tick(t0.Add(90 * time.Second))
	cycle()
	if second := spend(); !(0 < first && first < second) {
		t.Fatalf("batch-insights spend %.2f, then %.2f: want growth", first, second)
	}
	if bytes.Contains(call("GET", "/v1/user/detail", user.AccessToken, ""), []byte(DefaultUserToken)) {
		t.Fatal("user/detail answers the network_a token")
	}
}
