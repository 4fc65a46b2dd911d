package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"adboost/db/report"
	httpapi "adboost/http"
)

// unsubscribeKey is the key of the test servers' unsubscribe links.
var unsubscribeKey = report.KeyFrom([]byte(testSecret))

func withUnsubscribeKey(c *httpapi.Config) { c.UnsubscribeKey = unsubscribeKey }

func (e *env) weeklyReport(userID int64) bool {
	e.t.Helper()
	var on bool
	e.ok(e.pool.QueryRow(e.t.Context(), `SELECT weekly_report FROM app_user WHERE id = $1`, userID).Scan(&on))
	return on
}

func (e *env) ok(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

func TestWeeklyReportOnUserDetailAndSave(t *testing.T) {
	e := newEnv(t, withUnsubscribeKey)
	e.load(usersFixture)
	token := e.token(101)
	detail := func() any { return e.get("/v1/user/detail", token).object()["weekly_report"] }
	if got := detail(); got != true {
		t.Fatalf("a new account's weekly_report = %v, want true", got)
	}
	var r map[string]any
	e.post("/v1/user/save", token, map[string]any{"weekly_report": false}).ok(&r)
	if got := detail(); got != false || r["message"] != "Your profile has been saved." {
		t.Fatalf("after saving false: %v (%v)", got, r)
	}
	// Absent keeps it; the other fields save as before.
	e.post("/v1/user/save", token, map[string]any{"phone_number": "+420 777 888 999"}).ok(&r)
	if got := e.get("/v1/user/detail", token).object(); got["weekly_report"] != false || got["phone_number"] != "+420 777 888 999" {
		t.Fatalf("after saving a phone: %v", got)
	}
	// A refused save changes nothing, weekly_report included.
	e.post("/v1/user/save", token, map[string]any{"weekly_report": true, "phone_country": "XX"}).
		fails(http.StatusBadRequest, "bad_request", "phone_country")
	if got := detail(); got != false {
		t.Fatalf("after a refused save: %v", got)
	}
	e.post("/v1/user/save", token, `{"weekly_report": "yes"}`).fails(http.StatusBadRequest, "bad_request", "weekly_report")
	if got := detail(); got != false {
		t.Fatalf("after a bad weekly_report: %v", got)
	}
	e.post("/v1/user/save", token, map[string]any{"weekly_report": true}).ok(&r)
	if got := detail(); got != true || !e.weeklyReport(101) || !e.weeklyReport(100) {
		t.Fatalf("after saving true: %v", got)
	}
}

func TestUnsubscribeLink(t *testing.T) {
	e := newEnv(t, withUnsubscribeKey)
	e.load(usersFixture)
	page := func(token string, status int, title string) {
		t.Helper()
		path := "/v1/user/unsubscribe"
		if token != "-" {
			path += "?token=" + url.QueryEscape(token)
		}
		r := e.get(path, "")
		if r.status != status || r.header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(string(r.body), "<h1>"+title+"</h1>") {
			t.Fatalf("%s: %d %s %s, want %d with %q", path, r.status, r.header.Get("Content-Type"), r.body, status, title)
		}
	}
	good := unsubscribeKey.UnsubscribeToken(101)
	forged := report.KeyFrom([]byte("another secret")).UnsubscribeToken(101)
	for _, bad := range []string{forged, "100" + good[3:], good[:len(good)-1], good + "x", "101", "", "-", "101.%%%"} {
		page(bad, http.StatusBadRequest, "This link is not valid")
	}
	if !e.weeklyReport(101) || !e.weeklyReport(100) {
		t.Fatal("a refused link turned a report off")
	}
	page(good, http.StatusOK, "You are unsubscribed")
	if e.weeklyReport(101) || !e.weeklyReport(100) {
		t.Fatalf("after the link: user 101 %v, user 100 %v; want false, true", e.weeklyReport(101), e.weeklyReport(100))
	}
	page(good, http.StatusOK, "You are unsubscribed") // again: the same
	if got := e.get("/v1/user/detail", e.token(101)).object()["weekly_report"]; got != false {
		t.Fatalf("user/detail after the link: %v", got)
	}
	e.exec(`DELETE FROM app_user WHERE id = 100`)
	page(unsubscribeKey.UnsubscribeToken(100), http.StatusNotFound, "No such account")
}

// A server without a key refuses every link.
func TestUnsubscribeWithoutKey(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	r := e.get("/v1/user/unsubscribe?token="+unsubscribeKey.UnsubscribeToken(101), "")
	if r.status != http.StatusBadRequest || !e.weeklyReport(101) {
		t.Fatalf("status %d, weekly_report %v", r.status, e.weeklyReport(101))
	}
}
