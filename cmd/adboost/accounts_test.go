package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/db/dbtest"
	"adboost/db/mailer/smtptest"
)

// ensureCountries writes the countries the demo refers to, when the ISO 3166
// data set is not loaded in the test database.
func ensureCountries(t *testing.T, url string) {
	t.Helper()
	pool := dbtest.NewPool(t, url)
	_, err := pool.Exec(context.Background(), `INSERT INTO geo_country (code, name) VALUES
		('CZ', 'Czechia'), ('DE', 'Germany'), ('US', 'United States') ON CONFLICT (code) DO NOTHING`)
	if err != nil {
		t.Fatal(err)
	}
}

// TestServeSendsVerificationMail: `serve` runs the mail sender, which
// delivers the mail of an e-mail change over SMTP; its link verifies the
// address.
func TestServeSendsVerificationMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	getenv := envOf(map[string]string{"DATABASE_URL": url})
	if err := run(ctx, []string{"migrate", "up"}, getenv, nil, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	ensureCountries(t, url)
	if err := run(ctx, []string{"demo"}, getenv, nil, io.Discard, quiet()); err != nil {
		t.Fatal(err)
	}
	smtp := smtptest.Start(t, "", "adboost", "mail-secret")
	base := startServe(t, map[string]string{
		"DATABASE_URL": url, "ADBOOST_ENV": "dev", "PUBLIC_BASE_URL": "https://adboost.test",
		"SMTP_URL": "smtp://adboost:mail-secret@" + smtp.Addr, "MAIL_FROM": "adboost <mailer@adboost.test>",
	})
	call := func(method, path, token, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
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
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %v %v", method, path, resp.StatusCode, v, err)
		}
		return v
	}
	user := call("POST", "/v1/user/login-password", "", `{"email": "demo@adboost.example", "password": "demo-password"}`)
	token := user["access_token"].(string)
	saved := call("POST", "/v1/user/save", token, `{"email": "dana.new@example.com", "current_password": "demo-password"}`)
	if saved["message"] != "A verification e-mail has been sent to dana.new@example.com." {
		t.Fatalf("save = %v", saved)
	}

	// Two mails: the verification to the new address, the notice to the
	// old one (the demo's users, Dana included, may get their weekly
	// reports beside: serve sends the week's reports at its start).
	var got []smtptest.Message
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got = slices.DeleteFunc(smtp.Messages(), func(m smtptest.Message) bool {
			return bytes.Contains(m.Data, []byte("\r\nSubject: Your boosted posts, week "))
		})
	}
	if len(got) == 2 && got[0].To[0] != "dana.new@example.com" {
		got[0], got[1] = got[1], got[0]
	}
	if len(got) != 2 || got[0].To[0] != "dana.new@example.com" || got[0].From != "mailer@adboost.test" || got[0].User != "adboost" ||
		got[1].To[0] != "demo@adboost.example" {
		t.Fatalf("received %+v, want the verification mail to dana.new@example.com and the notice to demo@adboost.example", got)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(msg.Body))
	link := regexp.MustCompile(`https://adboost\.test(/v1/user/verify-email\?token=[A-Za-z0-9_-]{43})\s`).FindSubmatch(body)
	if link == nil {
		t.Fatalf("no verification link in\n%s", body)
	}
	verified := call("GET", string(link[1]), "", "")
	if verified["message"] != "Your e-mail address is now dana.new@example.com." {
		t.Fatalf("verify = %v", verified)
	}
	if detail := call("GET", "/v1/user/detail", token, ""); detail["email"] != "dana.new@example.com" {
		t.Fatalf("detail after verification = %v", detail)
	}
}

func TestAccountsConfiguration(t *testing.T) {
	t.Parallel()
	for name, vars := range map[string]map[string]string{
		"NETWORK_A_API_URL":    {"NETWORK_A_API_URL": "ftp://graph.example"},
		"SMTP_URL":             {"SMTP_URL": "http://mail.example"},
		"MAIL_FROM":            {"MAIL_FROM": "not an address"},
		"DB_STATEMENT_TIMEOUT": {"DB_STATEMENT_TIMEOUT": "soon"},
		"TRUSTED_PROXIES":      {"TRUSTED_PROXIES": "10.0.0.0/8, proxy.example"},
	} {
		vars["JWT_SECRET"] = strings.Repeat("k", 32)
		err := run(context.Background(), []string{"serve"}, envOf(vars), nil, io.Discard, quiet())
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("serve with a bad %s: %v", name, err)
		}
	}
}
