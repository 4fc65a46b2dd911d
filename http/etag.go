package httpapi

import (
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
// weak because the same answer goes out gzipped or not (RFC 9110).
// Every other answer (an error, a 503) goes out untouched and untagged.
func revalidated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recordedAnswer{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if rec.Code == 0 {
			rec.Code = http.StatusOK
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
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
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

// etagMatches is If-None-Match's weak comparison (RFC 9110): `*`, or
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
