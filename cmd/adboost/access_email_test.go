package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"adboost/db/dbtest"
)

// TestAdvertiserAccessEmail: ADVERTISER_ACCESS_EMAIL reaches access-data
// through `serve` (demo campaign 1006 has no preset, so it answers it),
// and a value that is no e-mail address is refused at start.
func TestAdvertiserAccessEmail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	err := run(ctx, []string{"serve"}, envOf(map[string]string{"ADVERTISER_ACCESS_EMAIL": "not-an-address"}), nil, io.Discard, quiet())
	if err == nil || !strings.Contains(err.Error(), "ADVERTISER_ACCESS_EMAIL") {
		t.Fatalf("serve with a bad ADVERTISER_ACCESS_EMAIL: %v", err)
	}

	url := dbtest.NewURL(t)
	if err := run(ctx, []string{"demo"}, envOf(map[string]string{"DATABASE_URL": url}), nil, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, map[string]string{"DATABASE_URL": url, "ADBOOST_ENV": "dev",
		"ADVERTISER_ACCESS_EMAIL": "access@adboost.example"})
	resp, err := http.Post(base+"/v1/user/login-password", "application/json",
		strings.NewReader(`{"email": "demo@adboost.example", "password": "demo-password"}`))
	if err != nil {
		t.Fatal(err)
	}
	var user struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&user)
	resp.Body.Close()
	if err != nil || user.AccessToken == "" {
		t.Fatalf("demo login: %v", err)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/boosted-pages/access-data/1006", nil)
	req.Header.Set("Authorization", "Bearer "+user.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || got["email"] != "access@adboost.example" {
		t.Fatalf("access-data/1006 = %d %v %v", resp.StatusCode, got, err)
	}
}
