package httpapi

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// A request that waits for the answer another request is making gets the
// answer, not a 500, when that other request goes away (its context is
// cancelled) before the answer is made.
func TestCachedAtWaiterOutlivesCancelledMaker(t *testing.T) {
	c := newAnswerCache()
	first, cancel := context.WithCancel(t.Context())
	started, release := make(chan struct{}), make(chan struct{})
	firstErr := make(chan error, 1)
	go func() {
		_, err := cachedAt(first, c, "user 1@1 sources {}", func() (int, error) {
			close(started)
			<-release
			return 0, first.Err() // what pgx answers when its context ends
		})
		firstErr <- err
	}()
	<-started

	type result struct {
		body encodedJSON
		err  error
	}
	second := make(chan result, 1)
	go func() {
		body, err := cachedAt(t.Context(), c, "user 1@1 sources {}", func() (int, error) { return 42, nil })
		second <- result{body, err}
	}()
	time.Sleep(20 * time.Millisecond) // the second request joins the first one's making
	cancel()
	close(release)

	if err := <-firstErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled request answered %v, want context.Canceled", err)
	}
	r := <-second
	if r.err != nil || string(r.body.json) != "42" {
		t.Fatalf("the waiting request answered %v, %v; want 42", r.body, r.err)
	}
	if body, ok := c.get("user 1@1 sources {}"); !ok || string(body.json) != "42" {
		t.Fatalf("the cache holds %v, %v; want the answer made by the waiter", body, ok)
	}
}

// Small answers and large ones are kept apart: more small answers than the
// cache holds push out small ones only, and the other way round; an answer
// larger than both classes is not kept.
func TestAnswerCacheSizeClasses(t *testing.T) {
	c := newAnswerCache()
	large := newEncoded(make([]byte, smallAnswerBytes+1))
	c.put("large 0", large)
	for i := range smallAnswers + 10 {
		c.put(fmt.Sprint("small ", i), newEncoded([]byte("1")))
	}
	if _, ok := c.get("large 0"); !ok {
		t.Error("small answers pushed out a large one")
	}
	if _, ok := c.get("small 0"); ok {
		t.Error("the oldest small answer is still kept beyond the class's bound")
	}
	for i := 1; i <= largeAnswers; i++ {
		c.put(fmt.Sprint("large ", i), large)
	}
	if _, ok := c.get("large 0"); ok {
		t.Error("the oldest large answer is still kept beyond the class's bound")
	}
	if _, ok := c.get(fmt.Sprint("small ", smallAnswers+9)); !ok {
		t.Error("large answers pushed out a small one")
	}
	c.put("huge", newEncoded(make([]byte, largeAnswerBytes+1)))
	if _, ok := c.get("huge"); ok {
		t.Error("an answer over 1 MB is kept")
	}
}
