package httpapi

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
)

// The HTTP edge: request ids, the headers every answer carries, CORS for the
// browser dashboard, and gzip.

// gzipMinSize is the smallest answer that is gzipped: over 1 KiB. Dynamic
// answers are compressed at gzip's best speed; the catalogue's cached answers
// keep a gzip form made once (writeEncodedJSON).
const gzipMinSize = 1024 + 1

type requestIDKey struct{}

// RequestID answers the id of the request that ctx belongs to ("" outside a
// request).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// saneRequestID is what we keep of a caller's X-Request-Id: short, printable,
// nothing that could forge a log line.
var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._~:/+=@-]{1,128}$`)

// withRequestID answers X-Request-Id (the caller's when sane, else a new one)
// and puts it in the request's context, where the request log finds it.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !saneRequestID.MatchString(id) {
			id = rand.Text()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// What CORS answers allow and expose.
const (
	corsAllowHeaders  = "Authorization, Content-Type"
	corsExposeHeaders = "X-Request-Id, Retry-After, WWW-Authenticate"
	corsMaxAge        = "600"
)

// ParseOrigins reads CORS_ALLOWED_ORIGINS: comma-separated origins such as
// https://dashboard.example.com or http://localhost:3000, or * for any.
func ParseOrigins(list string) ([]string, error) {
	var origins []string
	for o := range strings.SplitSeq(list, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o == "*" {
			origins = append(origins, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.User != nil || strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("%q is not an origin such as https://dashboard.example.com", o)
		}
		origins = append(origins, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return origins, nil
}

// corsAllowed tells whether origin is one of the configured ones.
func (s *Server) corsAllowed(origin string) bool {
	for _, o := range s.cfg.CORSAllowedOrigins {
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	return false
}

// gzipAnswers compresses answers over 1 KiB for callers that accept gzip.
var gzipAnswers = func() func(http.Handler) http.HandlerFunc {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(gzipMinSize), gzhttp.EnableZstd(false), gzhttp.CompressionLevel(gzip.BestSpeed))
	if err != nil {
		panic("httpapi: " + err.Error())
	}
	return wrap
}()

// Compress wraps h in the edge's gzip, as every answer of the API goes out:
// over 1 KiB and to a caller that accepts gzip, at gzip's best speed. The
// benchmark serves answers from memory through it (adboost-bench's
// ceiling), to measure what writing an answer costs without the database.
func Compress(h http.Handler) http.Handler { return gzipAnswers(h) }

// edge sets the headers of every answer, answers CORS preflights for the
// routes of mux, and compresses what next answers.
func (s *Server) edge(mux *http.ServeMux, next http.Handler) http.Handler {
	next = gzipAnswers(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Header.Get("Authorization") != "" || strings.HasPrefix(r.URL.Path, "/v1/user/") {
			h.Set("Cache-Control", "no-store") // credentials or a user's data
		}
		origin := r.Header.Get("Origin")
		allowed := origin != "" && s.corsAllowed(origin)
		if len(s.cfg.CORSAllowedOrigins) > 0 {
			h.Add("Vary", "Origin")
		}
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		}
		if r.Method != http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		// OPTIONS: a preflight (or a plain question) about a route.
		methods, path := routeMethods(mux, r)
		if path != "" {
			r.Pattern = "OPTIONS " + path // for the request log and metrics
		}
		switch {
		case methods == "":
			writeError(w, notFound("no route for %s", r.URL.Path))
		case origin != "" && !allowed:
			writeError(w, newError(http.StatusForbidden, "forbidden", "the origin %s may not call this API", origin))
		default:
			h.Set("Allow", methods+", OPTIONS")
			if allowed {
				h.Set("Access-Control-Allow-Methods", methods)
				h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
				h.Set("Access-Control-Max-Age", corsMaxAge)
			}
			w.WriteHeader(http.StatusNoContent)
		}
	})
}

// routeMethods answers the methods that mux routes for r's path, such as
// "GET, HEAD", and the path of the route's pattern; "" when none does.
func routeMethods(mux *http.ServeMux, r *http.Request) (methods, path string) {
	var list []string
	probe := r.Clone(r.Context())
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" {
			list = append(list, m)
			_, path, _ = strings.Cut(pattern, " ")
		}
	}
	return strings.Join(list, ", "), path
}
