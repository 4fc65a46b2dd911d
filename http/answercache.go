package httpapi

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/sync/singleflight"
)

// encodedJSON is an answer already encoded as JSON: the endpoint writes it
// as it is (see serveEndpoint).
type encodedJSON struct{ *encoded }

// encoded is the JSON of an answer and, made the first time a caller that
// accepts gzip asks for it, its gzip form: a cached answer is compressed
// once, not once a request (compressing a 1 MB presets/available answer
// cost more than everything else the request does).
type encoded struct {
	json   []byte
	gzOnce sync.Once
	gz     []byte
}

func newEncoded(body []byte) encodedJSON { return encodedJSON{&encoded{json: body}} }

// gzipped answers the gzip form of the JSON and its closing newline, as
// writeEncodedJSON writes them.
func (e *encoded) gzipped() []byte {
	e.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression) // a valid level: no error
		_, _ = zw.Write(e.json)
		_, _ = zw.Write([]byte{'\n'})
		_ = zw.Close()
		e.gz = b.Bytes()
	})
	return e.gz
}

// answerCacheBytes bounds the memory that cached answers take (a page of
// presets/available is about 1 MB, a browse page about 50 kB).
const answerCacheBytes = 16 << 20

// answerCache keeps encoded answers of the catalogue's reads (presets/browse,
// count, available) made at one catalogue version (00052_catalogue_version),
// least recently used out first. Every change of the catalogue moves the
// version on in the same transaction; a request reads the version first and
// is served from here only when its version is the one the entries were made
// at, so an answer is never staler than what the database would answer (and
// every instance behind a load balancer follows the same version). Reading
// the version before the data also means that an entry is never older than
// the version it is kept under.
type answerCache struct {
	mu      sync.Mutex
	version int64
	max     int
	bytes   int
	lru     list.List // of *cachedAnswer, most recent first
	entries map[string]*list.Element
	// making lets concurrent requests for an answer that is not kept yet
	// wait for one of them to make it, rather than all making it at once.
	making singleflight.Group
}

type cachedAnswer struct {
	key  string
	body encodedJSON
}

func newAnswerCache(maxBytes int) *answerCache {
	return &answerCache{max: maxBytes, entries: map[string]*list.Element{}}
}

// at moves the cache to version v: entries of another version are dropped.
// It answers false when v is older than the cache's version (a request that
// read the version before another one read a newer): such a request neither
// reads nor stores.
func (c *answerCache) at(v int64) bool {
	switch {
	case v < c.version:
		return false
	case v > c.version:
		c.version, c.bytes = v, 0
		c.lru.Init()
		clear(c.entries)
	}
	return true
}

func (c *answerCache) get(v int64, key string) (encodedJSON, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at(v) {
		return encodedJSON{}, false
	}
	e, ok := c.entries[key]
	if !ok {
		return encodedJSON{}, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cachedAnswer).body, true
}

func (c *answerCache) put(v int64, key string, body encodedJSON) {
	if len(body.json) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at(v) {
		return
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	c.entries[key] = c.lru.PushFront(&cachedAnswer{key: key, body: body})
	c.bytes += len(key) + len(body.json)
	for c.bytes > c.max {
		last := c.lru.Back()
		a := last.Value.(*cachedAnswer)
		c.lru.Remove(last)
		delete(c.entries, a.key)
		c.bytes -= len(a.key) + len(a.body.json)
	}
}

// cached answers from the cache under key at the catalogue's current
// version, or makes the answer with build, encodes it and keeps it.
func cached[T any](ctx context.Context, s *Server, key string, build func() (T, error)) (encodedJSON, error) {
	v, err := s.q.CatalogueVersion(ctx)
	if err != nil {
		return encodedJSON{}, err
	}
	return cachedAt(ctx, s, v, key, build)
}

// cachedForUser is cached for an answer about the signed-in user's
// campaigns: it is kept under the catalogue's version and, in its key, the
// user's campaign version (00053_user_campaign_version), read together.
func cachedForUser[T any](ctx context.Context, s *Server, key string, build func() (T, error)) (encodedJSON, error) {
	uid := userID(ctx)
	v, err := s.q.UserCampaignVersion(ctx, uid)
	if err != nil {
		return encodedJSON{}, err
	}
	return cachedAt(ctx, s, v.Catalogue, "user "+strconv.FormatInt(uid, 10)+"@"+strconv.FormatInt(v.Campaigns, 10)+" "+key, build)
}

func cachedAt[T any](ctx context.Context, s *Server, v int64, key string, build func() (T, error)) (encodedJSON, error) {
	if body, ok := s.answers.get(v, key); ok {
		return body, nil
	}
	produce := func() (any, error) {
		answer, err := build()
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(answer)
		if err != nil {
			return nil, err
		}
		body := newEncoded(raw)
		s.answers.put(v, key, body)
		return body, nil
	}
	body, err, shared := s.answers.making.Do(strconv.FormatInt(v, 10)+" "+key, produce)
	// The answer was made on the context of the request that asked first: if
	// that request went away, its cancellation is not this request's failure,
	// so a waiter whose own context is alive makes the answer itself.
	if err != nil && shared && ctx.Err() == nil &&
		(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		body, err = produce()
	}
	if err != nil {
		return encodedJSON{}, err
	}
	return body.(encodedJSON), nil
}

// cacheKey makes a key of a route and its normalized parameters.
func cacheKey(route string, params any) string {
	b, err := json.Marshal(params)
	if err != nil {
		panic(err) // plain structs of strings and numbers
	}
	return route + " " + string(b)
}
