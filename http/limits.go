package httpapi

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// signInDeadline bounds a whole sign-up or sign-in, each network_a call and
// every statement included, by cfg.SignInTimeout (network_a's own limit of
// each call stays). What runs past it is cancelled and answers 503.
func (s *Server) signInDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SignInTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bodyBudget bounds the memory that request bodies take at once: a request
// with a body holds as many bytes of the budget as its body declares
// (Content-Length), or the largest body accepted when it declares none, from
// before the body is read until its answer is written, so that its decoded
// values are covered too. Requests that find no room wait up to
// Config.BodyWait, then answer 503 with Retry-After: 1. Without it, 200 concurrent bodies of 1 MiB took 433 MB.
type bodyBudget struct {
	sem         *semaphore.Weighted
	size        int64
	held, peak  atomic.Int64
	waitTimeout time.Duration
}

func newBodyBudget(size int64, wait time.Duration) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size, waitTimeout: wait}
}

// acquire reserves the room of r's body and answers the function that gives
// it back; a request without a body reserves nothing.
func (b *bodyBudget) acquire(r *http.Request) (release func(), err error) {
	if !hasBody(r) {
		return func() {}, nil
	}
	n := int64(maxBodyBytes)
	switch {
	case r.ContentLength > maxBodyBytes:
		return nil, newError(http.StatusRequestEntityTooLarge, "payload_too_large",
			"the request body is larger than %d bytes", maxBodyBytes)
	case r.ContentLength > 0:
		n = r.ContentLength
	}
	n = min(n, b.size)
	ctx, cancel := context.WithTimeout(r.Context(), b.waitTimeout)
	defer cancel()
	if err := b.sem.Acquire(ctx, n); err != nil {
		e := unavailable("the server is busy reading other requests; try again in a moment")
		e.RetryAfter = 1
		return nil, e
	}
	held := b.held.Add(n)
	for peak := b.peak.Load(); held > peak && !b.peak.CompareAndSwap(peak, held); peak = b.peak.Load() {
	}
	return func() {
		b.held.Add(-n)
		b.sem.Release(n)
	}, nil
}

// BodyBytesPeak answers the most body bytes held at once since the server
// started (for tests and metrics).
func (s *Server) BodyBytesPeak() int64 { return s.bodies.peak.Load() }
