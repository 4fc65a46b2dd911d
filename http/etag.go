package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// revalidated serves a public catalogue GET with a validator: a 200 answer
// carries `ETag` (a weak tag made of the answer's bytes, so it is exact by
// construction and the same on every instance) and `Cache-Control: no-cache`
// (a browser or proxy may keep it but asks again each time; a request that
// carries a token keeps edge's no-store); a request whose
// `If-None-Match` names the answer's tag gets 304 and no body. The tag is
// weak because the same answer goes out gzipped or not (RFC 9110 §8.8.1).
// Every other answer (an error, a 503) goes out untouched and untagged.
func revalidated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &answerRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		// The endpoint's headers join those of the layers outside (edge's
		// Vary: Origin and no-store stay).
		dst := w.Header()
		for k, v := range rec.header {
			if k == "Vary" {
				for _, x := range v {
					dst.Add(k, x)
				}
				continue
			}
			dst[k] = v
		}
		if rec.status != http.StatusOK {
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body.Bytes())
			return
		}
		sum := sha256.Sum256(rec.body.Bytes())
		tag := `W/"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
		dst.Set("ETag", tag)
		if dst.Get("Cache-Control") == "" { // a Bearer request's no-store stays
			dst.Set("Cache-Control", "no-cache")
		}
		if etagMatches(r.Header.Values("If-None-Match"), tag) {
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding"} {
				dst.Del(k)
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(rec.body.Bytes())
	})
}

// etagMatches is If-None-Match's weak comparison (RFC 9110 §13.1.2): `*`, or
// any listed tag whose opaque part is tag's, weak or not.
func etagMatches(fields []string, tag string) bool {
	opaque := strings.TrimPrefix(tag, "W/")
	for _, field := range fields {
		for _, item := range strings.Split(field, ",") {
			item = strings.TrimSpace(item)
			if item == "*" || strings.TrimPrefix(item, "W/") == opaque {
				return true
			}
		}
	}
	return false
}

// answerRecorder keeps an endpoint's status, headers and body so that
// revalidated can tag the answer before any of it is sent. Catalogue
// answers that go through it are small (an agency, the objectives).
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answerRecorder) Header() http.Header { return a.header }

func (a *answerRecorder) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(p)
}
