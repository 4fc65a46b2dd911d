package main

import (
	"bytes"
	"context"
	"image/png"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/db/dbtest"
	"adboost/db/report"
)

// reportWorld is a migrated database with user 1 (network_a id 777, Europe/
// Prague) whose campaign has days in week 2026-W43, and its URL.
func reportWorld(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	url := dbtest.NewURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{
		`INSERT INTO app_user (id, email, first_name, snid) VALUES (1, 'dana@example.com', 'Dana', 777)`,
		`INSERT INTO source (user_id, id, name) VALUES (1, 501, 'Dana Fitness')`,
		`INSERT INTO campaign (id, user_id, page_id, campaign_budget_value, ad_account_id, ad_account_currency, ad_account_timezone)
		 VALUES (11, 1, 501, 10, 'act_1', 'EUR', 'Europe/Prague')`,
		`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id, currency) VALUES (11, 1, 'act_1', 'EUR')`,
		`WITH post AS (INSERT INTO boosted_post (id, user_id, source_id, name, link, created) VALUES (101, 1, 501, 'Spin class', '', now()) RETURNING user_id, id)
		 INSERT INTO boosted_post_insight (user_id, post_id) SELECT user_id, id FROM post`,
		`INSERT INTO network_a_ad_day (campaign_id, post_id, day, reach, engagement, clicks, spend)
		 VALUES (11, 101, '2026-10-20', 300, 40, 7, 4.5), (11, 101, '2026-10-13', 100, 20, 2, 1.5)`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return url
}

func TestReportCommandWritesTheMailItsHTMLAndPNG(t *testing.T) {
	t.Parallel()
	url := reportWorld(t)
	out := t.TempDir()
	env := map[string]string{"DATABASE_URL": url, "PUBLIC_BASE_URL": "https://adboost.test", "JWT_SECRET": "s3cret-s3cret-s3cret-s3cret-s3cret"}
	code, stdout, stderr := cli(t, env, "report", "-user", "1", "-week", "2026-W43", "-out", out)
	base := filepath.Join(out, "1-2026-W43")
	if code != 0 || stdout != base+".eml\n"+base+".html\n"+base+".png\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	eml, err := os.ReadFile(base + ".eml")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(eml))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("To") != "<dana@example.com>" || msg.Header.Get("Subject") != "Your boosted posts, week 2026-W43" ||
		!strings.HasPrefix(msg.Header.Get("Content-Type"), "multipart/alternative; boundary=") {
		t.Errorf("eml headers: %v", msg.Header)
	}
	html, _ := os.ReadFile(base + ".html")
	token := report.KeyFrom([]byte(env["JWT_SECRET"])).UnsubscribeToken(1)
	for _, s := range []string{
		`<img src="cid:chart@adboost"`,
		`<td>Spend</td><td align="right">4.50 EUR</td><td align="right">&#43;200.0%</td>`,
		`https://adboost.test/v1/user/unsubscribe?token=` + token,
	} {
		if !strings.Contains(string(html), s) {
			t.Errorf("the HTML lacks %s:\n%s", s, html)
		}
	}
	pngData, _ := os.ReadFile(base + ".png")
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 560 {
		t.Fatalf("the PNG: %v", err)
	}
	// Nothing was sent: no mail job.
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var mails int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE queue = 'mail'`).Scan(&mails); err != nil || mails != 0 {
		t.Errorf("%d mail jobs (%v)", mails, err)
	}
}

// Without -week: the last whole week in the user's zone; -user also takes
// the network_a id; the files go into the current folder by default.
func TestReportCommandDefaults(t *testing.T) {
	url := reportWorld(t)
	dir := t.TempDir()
	t.Chdir(dir)
	prague, _ := time.LoadLocation("Europe/Prague")
	want := report.LastWholeWeek(time.Now(), prague).String()
	code, stdout, stderr := cli(t, map[string]string{"DATABASE_URL": url}, "report", "-user", "777")
	if code != 0 || stdout != "777-"+want+".eml\n777-"+want+".html\n777-"+want+".png\n" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	for _, ext := range []string{".eml", ".html", ".png"} {
		if _, err := os.Stat(filepath.Join(dir, "777-"+want+ext)); err != nil {
			t.Error(err)
		}
	}
}

func TestReportCommandRefusals(t *testing.T) {
	t.Parallel()
	url := reportWorld(t)
	env := map[string]string{"DATABASE_URL": url}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"report"}, 1, `-user takes a user id, got \"\"`},
		{[]string{"report", "-user", "x"}, 1, `-user takes a user id, got \"x\"`},
		{[]string{"report", "-user", "1", "-week", "2026-W54"}, 1, "2026 has no week 54"},
		{[]string{"report", "-user", "99"}, 1, "no user 99"},
		{[]string{"report", "-user", "1", "extra"}, 2, "report takes no arguments"},
		{[]string{"report", "-user", "1", "-out", "/nonexistent/dir"}, 1, "no such file or directory"},
	} {
		code, _, stderr := cli(t, env, c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%v: exit %d, stderr %s; want %d saying %q", c.args, code, stderr, c.code, c.says)
		}
	}
	code, stdout, _ := cli(t, nil, "help", "report")
	if code != 0 || !strings.HasPrefix(stdout, "usage: adboost report [flags]\n") || !strings.Contains(stdout, "-week YYYY-Www") {
		t.Errorf("help report: %d %q", code, stdout)
	}
}
