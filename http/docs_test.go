package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestDocsFiles: the page and its files are served from the binary, with
// their types, and the page refers to nothing but its own origin.
func TestDocsFiles(t *testing.T) {
	e := newEnv(t)

	page := e.get("/docs", "")
	if page.status != http.StatusOK || page.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /docs: %d %q", page.status, page.header.Get("Content-Type"))
	}
	csp := page.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self' https://dev-api.adboost.example"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	// Every src and href of the page is a path of this server (or data:).
	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(string(page.body), -1)
	if len(refs) < 4 {
		t.Fatalf("the page refers to %d files; want the style sheet, both scripts and the documents", len(refs))
	}
	for _, ref := range refs {
		if u := html.UnescapeString(ref[1]); !(strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")) && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page refers to %q, which is not on this server", u)
		}
	}

	for name, ctype := range map[string]string{
		"docs.js":              "text/javascript; charset=utf-8",
		"swagger-ui-bundle.js": "text/javascript; charset=utf-8",
		"swagger-ui.css":       "text/css; charset=utf-8",
	} {
		want, err := os.ReadFile("docs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		r := e.get("/docs/"+name, "")
		if r.status != http.StatusOK || r.header.Get("Content-Type") != ctype || !bytes.Equal(r.body, want) {
			t.Errorf("GET /docs/%s: %d %q, %d bytes; want 200 %q and http/docs/%s (%d bytes)",
				name, r.status, r.header.Get("Content-Type"), len(r.body), ctype, name, len(want))
		}
		if etag := r.header.Get("ETag"); etag == "" || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET /docs/%s: ETag %q, X-Content-Type-Options %q", name, etag, r.header.Get("X-Content-Type-Options"))
		} else {
			req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/docs/"+name, nil)
			req.Header.Set("If-None-Match", etag)
			resp, err := e.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotModified {
				t.Errorf("GET /docs/%s with If-None-Match: %d, want 304", name, resp.StatusCode)
			}
		}
	}
	// The vendored Swagger UI is the version the Makefile pins.
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	pin := regexp.MustCompile(`(?m)^SWAGGER_UI_VERSION\s*:=\s*(\S+)$`).FindSubmatch(makefile)
	bundle, _ := os.ReadFile("docs/swagger-ui-bundle.js")
	if pin == nil || !bytes.Contains(bundle, []byte(`PACKAGE_VERSION:"`+string(pin[1])+`"`)) {
		t.Errorf("http/docs/swagger-ui-bundle.js is not the swagger-ui-dist version the Makefile pins (%s): run make docs-assets", pin)
	}

	// Only those: the licence files and index.html itself are not assets.
	for _, name := range []string{"index.html", "swagger-ui-dist.LICENSE", "..%2Fopenapi.go", "swagger-ui.js"} {
		e.get("/docs/"+name, "").fails(http.StatusNotFound, "not_found")
	}
	e.get("/docs/", "").fails(http.StatusNotFound, "not_found")
	e.post("/docs", "", map[string]string{}).fails(http.StatusMethodNotAllowed, "method_not_allowed")
}

// chromiumFlags start Debian's Chromium headless as root on a machine whose
// only network is the loopback; no host but 127.0.0.1 resolves, so the page
// cannot use anything that is not served by the binary.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
}

// chromium answers the browser's path, or skips the test (fails it when
// ADBOOST_REQUIRE_CHROMIUM is set, as CI may).
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "Chromium is not installed (Debian: apt-get install -y chromium; or set CHROMIUM): the /docs page is not checked in a browser"
	if os.Getenv("ADBOOST_REQUIRE_CHROMIUM") != "" {
		t.Fatal(msg + ", and ADBOOST_REQUIRE_CHROMIUM is set")
	}
	t.Skip(msg)
	return ""
}

// dumpDOM loads url in headless Chromium, lets its scripts run for up to
// budget of virtual time, and answers the DOM they left.
func dumpDOM(t *testing.T, browser, url string, budget time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append(append([]string{}, chromiumFlags...),
		"--user-data-dir="+t.TempDir(),
		fmt.Sprintf("--virtual-time-budget=%d", budget.Milliseconds()),
		"--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, browser, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, stderr.Bytes())
	}
	t.Logf("chromium --dump-dom %s: %v", url, time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

// TestDocsPageInChromium renders /docs in headless Chromium and checks that
// the page lists every registered route, with its method and path, and
// offers Authorize for the Bearer token.
func TestDocsPageInChromium(t *testing.T) {
	browser := chromium(t)
	e := newEnv(t)
	doc, err := apiDoc()
	if err != nil {
		t.Fatal(err)
	}
	dom := dumpDOM(t, browser, e.srv.URL+"/docs", 15*time.Second)

	if !strings.Contains(dom, `class="btn authorize`) {
		t.Errorf("the page has no Authorize button")
	}
	if !strings.Contains(dom, "This server") {
		t.Errorf("the page does not offer the server it came from for Try it out")
	}
	blocks := regexp.MustCompile(`<div class="opblock opblock-(\w+)[^"]*" id="operations-[^"]*?-(\w+)">`)
	found := blocks.FindAllStringSubmatchIndex(dom, -1)
	listed := map[string]string{} // operationId → its block's HTML
	for i, m := range found {
		end := len(dom)
		if i+1 < len(found) {
			end = found[i+1][0]
		}
		listed[dom[m[4]:m[5]]] = dom[m[0]:end]
	}
	routes := e.api.Routes()
	for _, r := range routes {
		method, path, _ := strings.Cut(r.Pattern, " ")
		var op *openapi3.Operation
		if item := doc.Paths.Find(path); item != nil {
			op = item.GetOperation(method)
		}
		if op == nil {
			t.Errorf("%s: not in the document", r.Pattern)
			continue
		}
		block, ok := listed[op.OperationID]
		switch {
		case !ok:
			t.Errorf("%s (%s) is not listed on the page", r.Pattern, op.OperationID)
		case !strings.Contains(block, `<span class="opblock-summary-method">`+method+`</span>`),
			!strings.Contains(block, `data-path="`+html.EscapeString(path)+`"`):
			t.Errorf("%s: the page lists %s without its method and path", r.Pattern, op.OperationID)
		}
	}
	if len(listed) != len(routes) {
		t.Errorf("the page lists %d operations, the server has %d routes", len(listed), len(routes))
	}
}

// tryItScript does on /docs what a person does: "Try it out" on
// login-password with the e-mail and password, the access_token of the
// answer pasted under Authorize, then "Try it out" on user/detail. It writes
// what it saw into <pre id="try-result">.
const tryItScript = `
(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  async function waitFor(fn, what) {
    for (let i = 0; i < 300; i++) {
      const v = fn();
      if (v) return v;
      await sleep(50);
    }
    throw new Error("no " + what + " after 15 s");
  }
  function type(el, value) { // as React sees typing
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value").set.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }
  async function tryOut(opId, body) {
    const block = await waitFor(() => $('.opblock[id$="-' + opId + '"]'), "operation " + opId);
    if (!block.classList.contains("is-open")) $(".opblock-summary-control", block).click();
    (await waitFor(() => $(".try-out__btn", block), "Try it out of " + opId)).click();
    if (body !== undefined) type(await waitFor(() => $("textarea.body-param__text", block), "body editor of " + opId), body);
    (await waitFor(() => $(".btn.execute", block), "Execute of " + opId)).click();
    const status = await waitFor(() => $(".live-responses-table .response .response-col_status", block), "response of " + opId);
    const text = await waitFor(() => $(".live-responses-table .response .response-col_description .highlight-code pre", block), "response body of " + opId);
    return { status: status.textContent.trim(), body: JSON.parse(text.textContent) };
  }
  window.addEventListener("load", async function () {
    const out = {};
    try {
      const login = await tryOut("userLoginPassword", JSON.stringify({ email: EMAIL, password: PASSWORD }));
      out.login = login.status;
      $(".auth-wrapper .btn.authorize").click();
      type(await waitFor(() => $(".auth-container input"), "token field"), login.body.access_token);
      (await waitFor(() => $(".auth-container .auth-btn-wrapper .btn.modal-btn.authorize"), "Authorize in the dialog")).click();
      (await waitFor(() => $(".auth-container .btn-done"), "Close of the dialog")).click();
      const detail = await tryOut("userDetail");
      out.detail = detail.status;
      out.email = detail.body.email;
      out.curl = $('.opblock[id$="-userDetail"] .curl-command').textContent;
    } catch (err) {
      out.error = String(err);
    }
    const pre = document.createElement("pre");
    pre.id = "try-result";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  });
})();
`

// TestDocsTryItInChromium: a person can sign in and call a Bearer route from
// the page. The test serves /docs as it is, with the Content-Security-Policy
// of the real page and one more script (tryItScript, from this origin) that
// clicks through Swagger UI.
func TestDocsTryItInChromium(t *testing.T) {
	browser := chromium(t)
	e := newEnv(t)
	e.load(usersFixture)
	api := e.srv.Config.Handler
	mux := http.NewServeMux()
	mux.Handle("/", api)
	mux.HandleFunc("GET /docs-try", func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/docs", nil))
		w.Header().Set("Content-Security-Policy", rec.Header().Get("Content-Security-Policy"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page := strings.Replace(rec.Body.String(), "</body>", `<script src="/docs-try.js"></script></body>`, 1)
		_, _ = w.Write([]byte(page))
	})
	mux.HandleFunc("GET /docs-try.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = fmt.Fprintf(w, "const EMAIL = %q, PASSWORD = %q;\n%s", "ana.novak@example.com", "ana-password", tryItScript)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	dom := dumpDOM(t, browser, srv.URL+"/docs-try", 30*time.Second)
	m := regexp.MustCompile(`<pre id="try-result">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the script left no result; the page:\n%.3000s", dom)
	}
	var got struct{ Login, Detail, Email, Curl, Error string }
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
		t.Fatal(err)
	}
	if got.Error != "" || got.Login != "200" || got.Detail != "200" || got.Email != "Ana.Novak@Example.com" {
		t.Fatalf("try it out: %+v; want sign-in 200, user/detail 200 for Ana", got)
	}
	if !strings.Contains(got.Curl, "Authorization: Bearer ey") || !strings.Contains(got.Curl, srv.URL+"/v1/user/detail") {
		t.Fatalf("the call was not sent to this server with the token: %s", got.Curl)
	}
}
