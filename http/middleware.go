package httpapi

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"adboost/auth"
)

// statusWriter remembers the status a handler wrote, for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests writes one line a request: method, route pattern, status and
// duration. It also turns a panic into a 500 envelope.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(r.Context(), "panic", "panic", p, "method", r.Method, "path", r.URL.Path)
				if sw.status == 0 {
					writeError(sw, errInternal)
				}
			}
			elapsed := time.Since(start)
			s.metrics.observe(r.Pattern, r.Method, sw.status, elapsed)
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method),
				slog.String("route", r.Pattern),
				slog.Int("status", sw.status),
				slog.Duration("duration", elapsed),
				slog.String("request_id", RequestID(r.Context())),
			)
		}()
		next.ServeHTTP(sw, r)
	})
}

// limitBody caps request bodies at maxBodyBytes.
func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// envelopeMuxErrors gives the mux's own 404 and 405 answers the error
// envelope (with Allow kept on 405).
func envelopeMuxErrors(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		rec := &recordedAnswer{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.Code {
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			writeError(w, newError(http.StatusMethodNotAllowed, "method_not_allowed",
				"%s is not allowed here; allowed: %s", r.Method, rec.header.Get("Allow")))
		case http.StatusNotFound:
			writeError(w, notFound("no route for %s %s", r.Method, r.URL.Path))
		default: // redirects of path cleaning
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.body.Bytes())
		}
	})
}

// recordedAnswer keeps what a handler writes, to be sent on after a look:
// the mux's own answer to an unmatched request (its 404, its 405 with
// Allow, or the redirect of path cleaning), or an answer to tag with an
// ETag (revalidated). The answers it keeps are small.
type recordedAnswer struct {
	header http.Header
	Code   int
	body   bytes.Buffer
}

func (m *recordedAnswer) Header() http.Header { return m.header }

func (m *recordedAnswer) WriteHeader(code int) {
	if m.Code == 0 {
		m.Code = code
	}
}

func (m *recordedAnswer) Write(b []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	return m.body.Write(b)
}

// requireUser lets a request through only with a valid Bearer token of the
// user's current token generation, and puts the token's user id in its
// context.
func (s *Server) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			writeError(w, unauthorized("a valid Bearer access token is required"))
			return
		}
		id, generation, err := s.tokens.Verify(strings.TrimSpace(token))
		if err != nil {
			writeError(w, unauthorized("the access token is invalid or expired"))
			return
		}
		// A password change moves the user's token generation on: every token
		// issued before it is refused from then on.
		current, err := s.q.UserTokenGeneration(r.Context(), id)
		switch {
		case isNoRows(err):
			writeError(w, unauthorized("the account of this access token no longer exists"))
			return
		case err != nil:
			writeError(w, toError(r.Context(), s.log, err))
			return
		case current != generation:
			writeError(w, unauthorized("the access token was ended by a password change; sign in again"))
			return
		}
		next.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), id)))
	})
}
