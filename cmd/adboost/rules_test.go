package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"adboost/db/boost"
	"adboost/db/dbtest"
	"adboost/db/rules"
)

// ENGINE_POST_MAX_AGE bounds the post ages a campaign's rules may name, in
// `adboost import` and in the API that `serve` answers; unset, the bound is
// the engine's own default.
func TestRulesFollowEnginePostMaxAge(t *testing.T) {
	t.Parallel()
	if rules.DefaultPostMaxAge != boost.DefaultPostMaxAge {
		t.Fatalf("rules.DefaultPostMaxAge %s, boost.DefaultPostMaxAge %s: the rules and the engine disagree",
			rules.DefaultPostMaxAge, boost.DefaultPostMaxAge)
	}
	ctx := context.Background()
	url := dbtest.NewURL(t)
	file := func(hours string) string {
		return `{"users": [{"id": 100, "email": "ana@example.com", "password": "ana-password"}],
		  "boosted_pages": [{"id": 7, "user_id": 100, "page_id": 456, "campaign_budget_value": "10.00",
		                     "rules": {"post_age_max_hours": ` + hours + `}}]}`
	}
	err := run(ctx, []string{"import", "-"}, envOf(map[string]string{"DATABASE_URL": url}), strings.NewReader(file("200")), io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "boosted_pages[0].rules.post_age_max_hours") {
		t.Fatalf("import of post_age_max_hours 200 with the default ENGINE_POST_MAX_AGE: %v", err)
	}
	env := map[string]string{"DATABASE_URL": url, "ENGINE_POST_MAX_AGE": "240h"}
	if err := run(ctx, []string{"import", "-"}, envOf(env), strings.NewReader(file("200")), io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}

	base := startServe(t, map[string]string{"DATABASE_URL": url, "ADBOOST_ENV": "dev", "ENGINE_POST_MAX_AGE": "24h30m", "ENGINE_INTERVAL": "0"})
	call := func(path, token, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	_, user := call("/v1/user/login-password", "", `{"email": "ana@example.com", "password": "ana-password"}`)
	token, _ := user["access_token"].(string)
	if status, v := call("/v1/boosted-pages/save/7", token, `{"rules": {"post_age_max_hours": 25}}`); status != http.StatusBadRequest ||
		!strings.HasPrefix(v["message"].(string), "rules.post_age_max_hours must be at most 24") {
		t.Fatalf("save with post_age_max_hours 25 under ENGINE_POST_MAX_AGE 24h30m: %d %v", status, v)
	}
	if status, v := call("/v1/boosted-pages/save/7", token, `{"rules": {"post_age_max_hours": 24}}`); status != http.StatusOK {
		t.Fatalf("save with post_age_max_hours 24: %d %v", status, v)
	}
}
