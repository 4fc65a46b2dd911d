package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/auth"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

const dashboardOrigin = "http://dashboard.adboost.test:3000"

// withCORS lets the dashboard's origin call the test server.
func withCORS(origins ...string) func(*httpapi.Config) {
	return func(c *httpapi.Config) { c.CORSAllowedOrigins = origins }
}

// raw sends a request as a browser or a proxy would, with the headers given,
// and answers the response with its body as sent (no transparent gunzip). It
// bypasses the document check of (*env).do: OPTIONS is not an operation.
func (e *env) raw(method, path string, header map[string]string, body string) (*http.Response, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, got
}

// TestEdgeHeaders: every answer says nosniff and carries a request id (the
// caller's when sane); Bearer and user answers are not stored by caches.
func TestEdgeHeaders(t *testing.T) {
	e := newEnv(t)
	e.load(usersFixture)
	newID := regexp.MustCompile(`^[A-Z2-7]{26}$`) // crypto/rand.Text

	for _, path := range []string{"/healthz", "/v1/presets/optimization-goals", "/nowhere", "/docs"} {
		resp, _ := e.raw(http.MethodGet, path, nil, "")
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q", path, got)
		}
		if id := resp.Header.Get("X-Request-Id"); !newID.MatchString(id) {
			t.Errorf("GET %s: X-Request-Id %q, want a new random id", path, id)
		}
		if cc := resp.Header.Get("Cache-Control"); cc == "no-store" {
			t.Errorf("GET %s (public): Cache-Control %q", path, cc)
		}
	}
	a, _ := e.raw(http.MethodGet, "/healthz", nil, "")
	b, _ := e.raw(http.MethodGet, "/healthz", nil, "")
	if a.Header.Get("X-Request-Id") == b.Header.Get("X-Request-Id") {
		t.Errorf("two requests got the same id %q", a.Header.Get("X-Request-Id"))
	}

	for sent, want := range map[string]string{
		"req-7f3a9c01":                         "req-7f3a9c01",
		"0b6b4d2e-6a43-4c4f-9a8b-3f2f1d6e8c11": "0b6b4d2e-6a43-4c4f-9a8b-3f2f1d6e8c11",
		"has space":                            "",
		`quote"d`:                              "",
		strings.Repeat("x", 129):               "",
	} {
		resp, _ := e.raw(http.MethodGet, "/healthz", map[string]string{"X-Request-Id": sent}, "")
		got := resp.Header.Get("X-Request-Id")
		if want != "" && got != want || want == "" && !newID.MatchString(got) {
			t.Errorf("X-Request-Id %q answered %q, want %q (or a new id when empty)", sent, got, want)
		}
	}

	// Bearer answers, good token or not, and every /v1/user answer: no-store.
	tok := e.token(100)
	for _, c := range []struct{ method, path, auth string }{
		{"GET", "/v1/user/detail", "Bearer " + tok},
		{"GET", "/v1/user/detail", ""},
		{"GET", "/v1/billing/detail", "Bearer " + tok},
		{"GET", "/v1/presets/available", "Bearer not-a-token"},
		{"POST", "/v1/user/login-password", ""},
	} {
		h := map[string]string{"Content-Type": "application/json"}
		if c.auth != "" {
			h["Authorization"] = c.auth
		}
		body := ""
		if c.method == "POST" {
			body = `{"email": "ana.novak@example.com", "password": "ana-password"}`
		}
		resp, got := e.raw(c.method, c.path, h, body)
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s %s (%d %.80s): Cache-Control %q, want no-store", c.method, c.path, resp.StatusCode, got, cc)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: no nosniff", c.method, c.path)
		}
	}
}

// TestEdgeRequestLog: the request's log line names its id.
func TestEdgeRequestLog(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var logs bytes.Buffer
	tokens, err := auth.NewTokens([]byte(testSecret), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))
	srv := httptest.NewServer(httpapi.New(httpapi.Config{}, dbtest.New(t), tokens, log).Handler())
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "trace-42")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/nowhere", nil)
	resp, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	made := resp.Header.Get("X-Request-Id")
	srv.Close() // the log lines are written when the handlers return
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{
		`msg=request method=GET route="GET /healthz" status=200 duration=`,
		`request_id=trace-42`,
		`route="" status=404 duration=`,
		`request_id=` + made,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestEdgeCORS: the configured origin gets the CORS headers on every answer
// and its preflights answer 204 with the route's methods; another origin gets
// no CORS header and its preflights 403.
func TestEdgeCORS(t *testing.T) {
	e := newEnv(t, withCORS(dashboardOrigin, "https://admin.adboost.test"))
	e.load(usersFixture)
	tok := e.token(100)
	checkCORSSimpleRequests(t, e, tok)
	checkCORSPreflights(t, e)
	resp, body := e.raw(http.MethodOptions, "/v1/nowhere", map[string]string{"Origin": dashboardOrigin, "Access-Control-Request-Method": "GET"}, "")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), `"not_found"`) {
		t.Errorf("preflight of an unknown path: %d %s, want 404", resp.StatusCode, body)
	}

	// Without CORS_ALLOWED_ORIGINS, no origin is allowed.
	t.Run("none configured", func(t *testing.T) {
		none := newEnv(t)
		resp, _ := none.raw(http.MethodOptions, "/v1/presets/browse", map[string]string{"Origin": dashboardOrigin, "Access-Control-Request-Method": "POST"}, "")
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Vary") != "" {
			t.Errorf("preflight without configured origins: %d %q %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), resp.Header.Get("Vary"))
		}
	})
}

// checkCORSSimpleRequests checks the allowed origin may read the answers of
// simple requests and another origin may not.
func checkCORSSimpleRequests(t *testing.T, e *env, tok string) {
	t.Helper()
	// Simple requests: the allowed origin may read the answer, another may not.
	for _, c := range []struct {
		method, path, auth string
		status             int
	}{
		{"GET", "/v1/presets/optimization-goals", "", 200},
		{"GET", "/v1/user/detail", "Bearer " + tok, 200},
		{"GET", "/v1/user/detail", "", 401},
		{"GET", "/nowhere", "", 404},
		{"PUT", "/v1/user/detail", "", 405},
	} {
		for origin, allowed := range map[string]bool{dashboardOrigin: true, "http://evil.test": false, "": false} {
			h := map[string]string{"Authorization": c.auth}
			if origin != "" {
				h["Origin"] = origin
			}
			resp, _ := e.raw(c.method, c.path, h, "")
			if resp.StatusCode != c.status {
				t.Errorf("%s %s from %q: %d, want %d", c.method, c.path, origin, resp.StatusCode, c.status)
			}
			acao := resp.Header.Get("Access-Control-Allow-Origin")
			if allowed && acao != origin || !allowed && acao != "" {
				t.Errorf("%s %s from %q: Access-Control-Allow-Origin %q", c.method, c.path, origin, acao)
			}
			if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Origin") {
				t.Errorf("%s %s from %q: Vary %q lacks Origin", c.method, c.path, origin, resp.Header.Values("Vary"))
			}
			if expose := resp.Header.Get("Access-Control-Expose-Headers"); allowed != strings.Contains(expose, "X-Request-Id") {
				t.Errorf("%s %s from %q: Access-Control-Expose-Headers %q", c.method, c.path, origin, expose)
			}
		}
	}
}

// checkCORSPreflights checks the preflights of routes answer 204 with their
// methods for the allowed origin, and 403 without CORS headers for another.
func checkCORSPreflights(t *testing.T, e *env) {
	t.Helper()
	// Preflights of routes with their methods.
	for path, methods := range map[string]string{
		"/v1/presets/browse":                      "POST",
		"/v1/user/detail":                         "GET, HEAD",
		"/v1/boosted-pages/detail/17":             "GET, HEAD",
		"/v1/boosted-pages/delete-source/17":      "DELETE",
		"/v1/boosted-pages/geo-locations-by-code": "POST",
	} {
		h := map[string]string{"Origin": dashboardOrigin, "Access-Control-Request-Method": strings.Split(methods, ",")[0],
			"Access-Control-Request-Headers": "authorization,content-type"}
		resp, body := e.raw(http.MethodOptions, path, h, "")
		want := map[string]string{
			"Access-Control-Allow-Origin":  dashboardOrigin,
			"Access-Control-Allow-Methods": methods,
			"Access-Control-Allow-Headers": "Authorization, Content-Type",
			"Access-Control-Max-Age":       "600",
			"Allow":                        methods + ", OPTIONS",
		}
		if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
			t.Errorf("preflight %s: %d %q, want 204 and no body", path, resp.StatusCode, body)
		}
		for k, v := range want {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("preflight %s: %s %q, want %q", path, k, got, v)
			}
		}

		// Another origin: 403 forbidden, without CORS headers.
		h["Origin"] = "http://evil.test"
		resp, body = e.raw(http.MethodOptions, path, h, "")
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), `"error":"forbidden"`) {
			t.Errorf("preflight %s from another origin: %d %s, want 403 forbidden", path, resp.StatusCode, body)
		}
		for k := range want {
			if k != "Allow" && resp.Header.Get(k) != "" {
				t.Errorf("preflight %s from another origin: %s %q", path, k, resp.Header.Get(k))
			}
		}
	}
}

func TestParseOrigins(t *testing.T) {
	t.Parallel()
	got, err := httpapi.ParseOrigins(" https://Dash.Example.com , http://localhost:3000/,,")
	if err != nil || strings.Join(got, " ") != "https://dash.example.com http://localhost:3000" {
		t.Errorf("ParseOrigins: %q, %v", got, err)
	}
	for _, bad := range []string{"dash.example.com", "https://x.test/app", "ftp://x.test", "https://u@x.test", "https://x.test?q"} {
		if _, err := httpapi.ParseOrigins(bad); err == nil {
			t.Errorf("ParseOrigins(%q) accepted it", bad)
		}
	}
}

// TestEdgeGzip: answers over 1 KiB are gzipped for callers that accept it;
// smaller ones and callers that do not are answered plain.
func TestEdgeGzip(t *testing.T) {
	e := newEnv(t)
	e.load(catalogueFixture())
	browse := func(accept string) (*http.Response, []byte) {
		return e.raw(http.MethodPost, "/v1/presets/browse",
			map[string]string{"Content-Type": "application/json", "Accept-Encoding": accept}, `{}`)
	}
	plainResp, plain := browse("")
	if plainResp.StatusCode != 200 || plainResp.Header.Get("Content-Encoding") != "" || len(plain) <= 1024 {
		t.Fatalf("browse without gzip: %d %q, %d bytes (the fixture must answer over 1 KiB)",
			plainResp.StatusCode, plainResp.Header.Get("Content-Encoding"), len(plain))
	}
	resp, zipped := browse("gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("browse with gzip: Content-Encoding %q, Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain) || len(zipped) >= len(plain) {
		t.Fatalf("gunzipped %d bytes (%v) from %d, plain %d: want the same answer, smaller", len(unzipped), err, len(zipped), len(plain))
	}
	if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("gzipped answer: Content-Type %q, X-Request-Id %q", resp.Header.Get("Content-Type"), resp.Header.Get("X-Request-Id"))
	}
	// Small answers stay plain; zstd alone is not offered.
	for path, accept := range map[string]string{"/healthz": "gzip", "/v1/presets/optimization-goals": "zstd"} {
		resp, body := e.raw(http.MethodGet, path, map[string]string{"Accept-Encoding": accept}, "")
		if resp.Header.Get("Content-Encoding") != "" || !bytes.HasPrefix(body, []byte("{")) && !bytes.HasPrefix(body, []byte("[")) {
			t.Errorf("GET %s (Accept-Encoding %s): Content-Encoding %q, body %.40q", path, accept, resp.Header.Get("Content-Encoding"), body)
		}
	}
}

// corsScript signs in from another origin (a public POST with a JSON body,
// which needs a preflight) and reads the user with the token (a Bearer GET,
// another preflight), then writes what it saw into <pre id="cors-result">.
const corsScript = `
window.addEventListener("load", async function () {
  const out = {};
  try {
    const login = await fetch(API + "/v1/user/login-password", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "ana.novak@example.com", password: "ana-password" }),
    });
    out.login = login.status;
    out.requestId = login.headers.get("X-Request-Id") || "";
    const token = (await login.json()).access_token;
    const detail = await fetch(API + "/v1/user/detail", { headers: { Authorization: "Bearer " + token } });
    out.detail = detail.status;
    out.email = (await detail.json()).email;
  } catch (err) {
    out.error = String(err);
  }
  const pre = document.createElement("pre");
  pre.id = "cors-result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
`

// TestEdgeCORSInChromium: a page of the dashboard's origin (another port of
// 127.0.0.1) signs in and reads the user in headless Chromium; the same page
// from an origin that is not allowed gets nothing.
func TestEdgeCORSInChromium(t *testing.T) {
	browser := chromium(t)
	page := func() *httptest.Server {
		mux := http.NewServeMux()
		srv := httptest.NewServer(mux)
		mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, `<!doctype html><html><head><script src="/page.js"></script></head><body></body></html>`)
		})
		return srv
	}
	allowedPage, otherPage := page(), page()
	t.Cleanup(allowedPage.Close)
	t.Cleanup(otherPage.Close)
	e := newEnv(t, withCORS(allowedPage.URL))
	e.load(usersFixture)
	for _, p := range []*httptest.Server{allowedPage, otherPage} {
		p.Config.Handler.(*http.ServeMux).HandleFunc("GET /page.js", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			_, _ = io.WriteString(w, "const API = "+strconv.Quote(e.srv.URL)+";\n"+corsScript)
		})
	}

	result := func(url string) (got struct {
		Login, Detail           int
		Email, Error, RequestID string
	}) {
		t.Helper()
		dom := dumpDOM(t, browser, url, 15*time.Second)
		m := regexp.MustCompile(`<pre id="cors-result">(.*?)</pre>`).FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("the script left no result; the page:\n%.3000s", dom)
		}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := result(allowedPage.URL + "/"); got.Error != "" || got.Login != 200 || got.Detail != 200 ||
		got.Email != "Ana.Novak@Example.com" || got.RequestID == "" {
		t.Errorf("from the allowed origin %s: %+v; want sign-in 200 and user/detail 200 for Ana, the request id readable", allowedPage.URL, got)
	}
	if got := result(otherPage.URL + "/"); !strings.Contains(got.Error, "Failed to fetch") || got.Login != 0 {
		t.Errorf("from the origin %s, which is not allowed: %+v; want the browser to refuse (Failed to fetch)", otherPage.URL, got)
	}
}
