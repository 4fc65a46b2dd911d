package httpapi

import (
	"context"
	"io"
	"net/http"
	"sync"
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

// bodyReadsPerAddr is how many request bodies one client address may be
// sending at once, and bodyAddrWait how long a request beyond them waits for
// one of them to end before it answers 429.
const (
	bodyReadsPerAddr = 4
	bodyAddrWait     = time.Second
)

// bodyBudget bounds the memory that request bodies take at once: a request
// with a body holds as many bytes of the budget as its body declares
// (Content-Length), or the largest body accepted when it declares none, from
// before the body is read until its answer is written, so that its decoded
// values are covered too. Requests that find no room wait up to
// Config.BodyWait, then answer 503 with Retry-After: 1. Without it, 200 concurrent bodies of 1 MiB took 433 MB.
//
// One client address (clientAddress) may be sending only bodyReadsPerAddr
// bodies at once: a client that declares large bodies and sends them a byte
// at a time holds a few MiB of the budget, not all of it, and the other
// clients' requests go on. Its further requests wait up to bodyAddrWait for
// one of its reads to end, then answer 429 with Retry-After: 1. A read ends
// when its body is read whole (or fails), or with the answer.
type bodyBudget struct {
	sem         *semaphore.Weighted
	size        int64
	held, peak  atomic.Int64
	waitTimeout time.Duration

	mu    sync.Mutex
	addrs map[string]*addrReads // the addresses sending bodies now
}

// addrReads are the body reads of one client address: its slots, and how
// many requests hold or wait for one (the entry goes when none does).
type addrReads struct {
	sem   *semaphore.Weighted
	users int
}

func newBodyBudget(size int64, wait time.Duration) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size, waitTimeout: wait, addrs: map[string]*addrReads{}}
}

// acquire reserves a body read of r's client address and the room of r's
// body, and answers the function that gives both back; a request without a
// body reserves nothing.
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
	readDone, err := b.acquireRead(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), b.waitTimeout)
	defer cancel()
	if err := b.sem.Acquire(ctx, n); err != nil {
		readDone()
		e := unavailable("the server is busy reading other requests; try again in a moment")
		e.RetryAfter = 1
		return nil, e
	}
	held := b.held.Add(n)
	for peak := b.peak.Load(); held > peak && !b.peak.CompareAndSwap(peak, held); peak = b.peak.Load() {
	}
	return func() {
		readDone()
		b.held.Add(-n)
		b.sem.Release(n)
	}, nil
}

// acquireRead takes one of the body reads of r's client address, waiting up
// to bodyAddrWait, and makes r.Body give it back once the body is read
// whole or fails; the function it answers gives it back too (once, whichever
// comes first).
func (b *bodyBudget) acquireRead(r *http.Request) (done func(), err error) {
	addr := clientAddrOf(r.Context())
	b.mu.Lock()
	reads := b.addrs[addr]
	if reads == nil {
		reads = &addrReads{sem: semaphore.NewWeighted(bodyReadsPerAddr)}
		b.addrs[addr] = reads
	}
	reads.users++
	b.mu.Unlock()
	leave := func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if reads.users--; reads.users == 0 {
			delete(b.addrs, addr)
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), bodyAddrWait)
	defer cancel()
	if err := reads.sem.Acquire(ctx, 1); err != nil {
		leave()
		e := newError(http.StatusTooManyRequests, "rate_limited",
			"too many requests with a body at once from this address (at most %d); try again in a second", bodyReadsPerAddr)
		e.RetryAfter = 1
		return nil, e
	}
	done = sync.OnceFunc(func() {
		reads.sem.Release(1)
		leave()
	})
	r.Body = &readEnd{ReadCloser: r.Body, left: r.ContentLength, done: done}
	return done, nil
}

// readEnd is a request body that calls done once it has been read whole
// (its declared length, or to the end) or its read fails.
type readEnd struct {
	io.ReadCloser
	left int64 // declared bytes not read yet; negative when undeclared
	done func()
}

func (b *readEnd) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.left >= 0 {
		b.left -= int64(n)
	}
	if err != nil || b.left == 0 {
		b.done()
	}
	return n, err
}

// BodyBytesPeak answers the most body bytes held at once since the server
// started (for tests and metrics).
func (s *Server) BodyBytesPeak() int64 { return s.bodies.peak.Load() }
