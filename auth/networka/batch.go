package networka

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// batcher sends the calls of concurrent callers together: one goroutine
// takes the queued calls, up to MaxBatch at a time, and sends them as one
// batch request (a lone call as a plain request) when one of the `calls`
// request slots is free. While every slot is taken, calls queue up, so a
// busy client sends full batches; an idle one waits at most linger for a
// batch to fill.
type batcher struct {
	c      *Client
	queue  chan *pending
	slots  chan struct{}
	linger time.Duration
	stop   chan struct{}
	once   sync.Once
	// closed is set, under mu's write lock, once the batcher stops: no call
	// is queued after it (enqueue and requeue hold the read lock while they
	// queue), so none waits for an answer that never comes.
	mu     sync.RWMutex
	closed bool
}

// pending is a call waiting for its answer.
type pending struct {
	ctx  context.Context
	call call
	done chan result // buffered: the sender never waits for the caller
	// unprocessed counts the batches that answered it null; only the
	// batcher's goroutine sending it touches it.
	unprocessed int
}

type result struct {
	a   answer
	err error
}

func newBatcher(c *Client, calls int, linger time.Duration) *batcher {
	b := &batcher{
		c:      c,
		queue:  make(chan *pending, 4*MaxBatch*calls),
		slots:  make(chan struct{}, calls),
		linger: linger,
		stop:   make(chan struct{}),
	}
	go b.run()
	return b
}

var errClosed = fmt.Errorf("%w: %w: the client is closed", ErrUnavailable, errNotSent)

// close stops the batching: queued calls fail, and it waits, up to the
// client's request time-out, for the requests in flight to end (so that a
// caller knows what reached network_a before it lets another process take
// over its work).
func (b *batcher) close() {
	b.once.Do(func() {
		close(b.stop)
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		b.failQueued()
		deadline := time.NewTimer(b.c.timeout)
		defer deadline.Stop()
		for range cap(b.slots) {
			select {
			case b.slots <- struct{}{}:
			case <-deadline.C:
				return
			}
		}
	})
}

// enqueue queues a call; its answer comes on the pending's done channel.
func (b *batcher) enqueue(ctx context.Context, cl call) (*pending, error) {
	p := &pending{ctx: ctx, call: cl, done: make(chan result, 1)}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return nil, errClosed
	}
	select {
	case b.queue <- p:
		return p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.stop:
		return nil, errClosed
	}
}

// wait waits for a queued call's answer or the end of its context.
func (p *pending) wait() (answer, error) {
	select {
	case r := <-p.done:
		return r.a, r.err
	case <-p.ctx.Done():
		return answer{}, p.ctx.Err()
	}
}

// run cuts the queue into batches until the batcher is closed.
func (b *batcher) run() {
	for {
		var first *pending
		select {
		case first = <-b.queue:
		case <-b.stop:
			b.failQueued()
			return
		}
		select {
		case b.slots <- struct{}{}:
		case <-b.stop:
			first.done <- result{err: errClosed}
			b.failQueued()
			return
		}
		batch := b.collect(first)
		if len(batch) == 0 {
			<-b.slots
			continue
		}
		go func() {
			defer func() { <-b.slots }()
			b.send(batch)
		}()
	}
}

// collect answers first and the calls queued after it, up to MaxBatch,
// waiting at most linger for more; calls whose callers have gone are left
// out.
func (b *batcher) collect(first *pending) []*pending {
	batch := make([]*pending, 0, MaxBatch)
	add := func(p *pending) {
		if p.ctx.Err() == nil {
			batch = append(batch, p)
		}
	}
	add(first)
	timer := time.NewTimer(b.linger)
	defer timer.Stop()
	for len(batch) < MaxBatch {
		select {
		case p := <-b.queue:
			add(p)
		case <-timer.C:
			return batch
		case <-b.stop:
			return batch
		}
	}
	return batch
}

func (b *batcher) failQueued() {
	for {
		select {
		case p := <-b.queue:
			p.done <- result{err: errClosed}
		default:
			return
		}
	}
}

// batchEntry is one call in a batch request; its body is a form text.
type batchEntry struct {
	Method      string `json:"method"`
	RelativeURL string `json:"relative_url"`
	Body        string `json:"body,omitempty"`
	AccessToken string `json:"access_token,omitempty"`
}

// batchAnswer is network_a's answer to one entry; null for an entry it did
// not process.
type batchAnswer struct {
	Code    int `json:"code"`
	Headers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
	Body *string `json:"body"`
}

// MaxUnprocessed is how many times a call that network_a left unprocessed
// in a batch (a null entry) is sent again before it fails as unavailable.
const MaxUnprocessed = 2 * MaxBatch

// send sends a batch and hands each call its answer. The request carries
// the first call's token; the others carry theirs in their entries. When
// network_a refuses the request itself for its token, the calls with that
// token get the refusal and the others are queued again, to go with
// another token. A call network_a did not process (a null entry: it
// carries out one ad set create per network_a campaign in a request) is
// queued again, as it was not carried out.
func (b *batcher) send(batch []*pending) {
	if len(batch) == 1 {
		p := batch[0]
		a, err := b.c.send(p.ctx, p.call)
		p.done <- result{a, err}
		return
	}
	bearer := batch[0].call.token
	batch, form := b.encode(batch, bearer)
	if len(batch) == 0 {
		return
	}
	a, err := b.c.exchange(context.Background(), http.MethodPost, b.c.endpoint("/", nil), bearer, form)
	if err != nil {
		for _, p := range batch {
			p.done <- result{err: err}
		}
		return
	}
	if a.status != http.StatusOK {
		b.refusedWhole(batch, bearer, a)
		return
	}
	var answers []*batchAnswer
	if err := json.Unmarshal(a.body, &answers); err != nil || len(answers) != len(batch) {
		err := fmt.Errorf("%w: POST / (batch) answered no list of %d answers", ErrUnavailable, len(batch))
		for _, p := range batch {
			p.done <- result{err: err}
		}
		return
	}
	var again []*pending
	for i, p := range batch {
		e := answers[i]
		if e == nil || e.Body == nil {
			if p.unprocessed++; p.unprocessed > MaxUnprocessed {
				p.done <- result{err: fmt.Errorf("%w: %s: %w in %d batches", ErrUnavailable, p.call.what(), errUnprocessed, p.unprocessed)}
			} else {
				again = append(again, p)
			}
			continue
		}
		h := http.Header{}
		for _, kv := range e.Headers {
			h.Add(kv.Name, kv.Value)
		}
		p.done <- result{a: answer{status: e.Code, header: h, body: []byte(*e.Body)}}
	}
	b.requeue(again)
}

// encode is the batch request's form (batch, include_headers) of the calls
// whose bodies encode; the others get their error at once.
func (b *batcher) encode(batch []*pending, bearer string) ([]*pending, string) {
	entries := make([]batchEntry, 0, len(batch))
	sent := batch[:0]
	for _, p := range batch {
		e := batchEntry{Method: p.call.method, RelativeURL: p.call.relative()}
		if p.call.body != nil {
			body, err := p.call.body.Encode()
			if err != nil {
				p.done <- result{err: fmt.Errorf("%w: %s: %v", errNotSent, p.call.what(), err)}
				continue
			}
			e.Body = body
		}
		if p.call.token != bearer {
			e.AccessToken = p.call.token
		}
		entries = append(entries, e)
		sent = append(sent, p)
	}
	list, _ := json.Marshal(entries) // strings only: it cannot fail
	form := url.Values{"batch": {string(list)}, "include_headers": {"true"}}
	return sent, form.Encode()
}

// refusedWhole hands out an answer to the batch request as a whole. It is
// about its bearer token (or network_a at large), not about the other
// calls: the calls with that token get it as their own; for the others it
// says only that they were not made, and a refused token sends them again
// with another token.
func (b *batcher) refusedWhole(batch []*pending, bearer string, a answer) {
	apiErr := parseError(a.status, a.body, "POST / (batch)")
	notMade := fmt.Errorf("%w: %w: POST / (batch) answered %d", ErrUnavailable, errNotSent, a.status)
	var again []*pending
	for _, p := range batch {
		switch {
		case p.call.token == bearer:
			p.done <- result{a: a}
		case apiErr != nil && apiErr.Kind() == KindToken:
			again = append(again, p)
		default:
			p.done <- result{err: notMade}
		}
	}
	b.requeue(again)
}

// requeue queues calls again, from another goroutine (the queue may be full
// and the batcher's own goroutine is the one that empties it).
func (b *batcher) requeue(ps []*pending) {
	if len(ps) == 0 {
		return
	}
	go func() {
		for _, p := range ps {
			b.requeueOne(p)
		}
	}()
}

// requeueOne queues one call again, or fails it when the batcher is closed.
func (b *batcher) requeueOne(p *pending) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		p.done <- result{err: errClosed}
		return
	}
	select {
	case b.queue <- p:
	case <-p.ctx.Done():
	case <-b.stop:
		p.done <- result{err: errClosed}
	}
}
