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
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method),
				slog.String("route", r.Pattern),
				slog.Int("status", sw.status),
				slog.Duration("duration", time.Since(start)),
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
		rec := &muxAnswer{header: http.Header{}}
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

// muxAnswer records what the mux's own handler for an unmatched request
// writes: its 404, its 405 with Allow, or the redirect of path cleaning.
type muxAnswer struct {
	header http.Header
	Code   int
	body   bytes.Buffer
}

func (m *muxAnswer) Header() http.Header { return m.header }

func (m *muxAnswer) WriteHeader(code int) {
	if m.Code == 0 {
		m.Code = code
	}
}

func (m *muxAnswer) Write(b []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	return m.body.Write(b)
}

// requireUser lets a request through only with a valid Bearer token, and puts
// the token's user id in its context.
func (s *Server) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			writeError(w, unauthorized("a valid Bearer access token is required"))
			return
		}
		id, err := s.tokens.Verify(strings.TrimSpace(token))
		if err != nil {
			writeError(w, unauthorized("the access token is invalid or expired"))
			return
		}
		next.ServeHTTP(w, r.WithContext(auth.WithUserID(r.Context(), id)))
	})
}
