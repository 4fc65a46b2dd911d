package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// The public catalogue GETs carry a weak ETag made of the answer and answer
// 304 without a body to a request that names it; a change of the data gives
// another tag and a 200; errors carry no tag; Bearer answers carry none.
func TestCatalogueETag(t *testing.T) {
	e := newEnv(t)
	e.load(agenciesFixture)

	first, body := e.raw("GET", "/v1/agencies/detail/12", nil, "")
	tag := first.Header.Get("ETag")
	if first.StatusCode != http.StatusOK || !strings.HasPrefix(tag, `W/"`) || len(tag) != 28 {
		t.Fatalf("detail 12: %d, ETag %q", first.StatusCode, tag)
	}
	if cc := first.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache", cc)
	}
	if !strings.Contains(string(body), `"username":"cityhive"`) {
		t.Fatalf("detail 12 body %s", body)
	}
	// The same answer twice: the same tag (it is made of the answer).
	if again, _ := e.raw("GET", "/v1/agencies/detail/12", nil, ""); again.Header.Get("ETag") != tag {
		t.Errorf("second tag %q, want %q", again.Header.Get("ETag"), tag)
	}
	// Another agency: another tag.
	if other, _ := e.raw("GET", "/v1/agencies/detail/11", nil, ""); other.Header.Get("ETag") == tag {
		t.Error("agencies 11 and 12 have the same tag")
	}

	// If-None-Match naming the tag (weak or strong form, alone or in a
	// list, or *): 304, no body, the tag again.
	for _, inm := range []string{tag, strings.TrimPrefix(tag, "W/"), `"nope", ` + tag, "*"} {
		resp, got := e.raw("GET", "/v1/agencies/detail/12", map[string]string{"If-None-Match": inm, "Accept-Encoding": "gzip"}, "")
		if resp.StatusCode != http.StatusNotModified || len(got) != 0 || resp.Header.Get("ETag") != tag ||
			resp.Header.Get("Content-Type") != "" {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q, Content-Type %q", inm, resp.StatusCode, len(got), resp.Header.Get("ETag"), resp.Header.Get("Content-Type"))
		}
	}
	// A tag that is not the answer's: the answer.
	if resp, got := e.raw("GET", "/v1/agencies/detail/12", map[string]string{"If-None-Match": `W/"nope"`}, ""); resp.StatusCode != http.StatusOK || len(got) == 0 {
		t.Errorf("a stale tag: %d, %d bytes", resp.StatusCode, len(got))
	}

	// The agency changes: the old tag no longer matches.
	e.exec(`UPDATE agency SET description = 'Leads and more' WHERE id = 12`)
	resp, got := e.raw("GET", "/v1/agencies/detail/12", map[string]string{"If-None-Match": tag}, "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), "Leads and more") || resp.Header.Get("ETag") == tag {
		t.Errorf("after a change: %d, ETag %q, %s", resp.StatusCode, resp.Header.Get("ETag"), got)
	}

	// Errors are not tagged and never 304.
	for path, status := range map[string]int{"/v1/agencies/detail/999": 404, "/v1/agencies/detail/abc": 400} {
		resp, _ := e.raw("GET", path, map[string]string{"If-None-Match": "*"}, "")
		if resp.StatusCode != status || resp.Header.Get("ETag") != "" {
			t.Errorf("%s: %d, ETag %q; want %d untagged", path, resp.StatusCode, resp.Header.Get("ETag"), status)
		}
	}

	// optimization-goals likewise.
	goals, _ := e.raw("GET", "/v1/presets/optimization-goals", nil, "")
	gtag := goals.Header.Get("ETag")
	if goals.StatusCode != http.StatusOK || gtag == "" {
		t.Fatalf("optimization-goals: %d, ETag %q", goals.StatusCode, gtag)
	}
	if resp, _ := e.raw("GET", "/v1/presets/optimization-goals", map[string]string{"If-None-Match": gtag}, ""); resp.StatusCode != http.StatusNotModified {
		t.Errorf("optimization-goals with its tag: %d, want 304", resp.StatusCode)
	}

	// A public GET sent with a token stays no-store, tagged,
	// and keeps edge's Vary for CORS.
	resp, _ = e.raw("GET", "/v1/agencies/detail/12", map[string]string{"Authorization": "Bearer " + e.token(100)}, "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("ETag") == "" {
		t.Errorf("agencies/detail with a token: %d, Cache-Control %q, ETag %q", resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("ETag"))
	}

	// A Bearer answer is no-store and untagged.
	resp, _ = e.raw("GET", "/v1/agencies/services", map[string]string{"Authorization": "Bearer " + e.token(100)}, "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != "" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("agencies/services: %d, ETag %q, Cache-Control %q", resp.StatusCode, resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
	}
}
