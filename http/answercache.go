package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/klauspost/compress/gzip"
	"golang.org/x/sync/singleflight"
)

// encodedJSON is an answer already encoded as JSON: the endpoint writes it
// as it is (see serveEndpoint).
type encodedJSON struct{ *encoded }

// encoded is the JSON of an answer and, made the first time a caller that
// accepts gzip asks for it, its gzip form: a cached answer is compressed
// once, not once a request.
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

// Bounds of the answer cache, in two classes of size so that the many small
// answers (a count is a few bytes, and its filters take a source or a post
// each) do not push out the few large ones (the sources of a user with
// 100,000 campaigns on 250 pages and accounts are about 260 kB), nor the
// large ones the small: 8,192 answers of at most 4 kB and 32 of at most
// 1 MB, 64 MB in all at most. A larger answer is not kept.
const (
	smallAnswers, smallAnswerBytes = 8192, 4 << 10
	largeAnswers, largeAnswerBytes = 32, 1 << 20
)

// answerCache keeps the encoded answers about one user's campaigns
// (boosted-pages/sources and count), least recently used out first. The
// filters of those routes take a few values, so a user's dashboard asks
// the same few answers again and again, and each is costly to make for a
// large account (every source's newest campaign as a BoostedPage). An
// answer is kept under the user's campaign version (00053,
// user_campaign_version), which every change of what those answers show
// moves on in the same transaction: the user's campaigns, sources, links of
// posts to campaigns, engine states and the titles of their campaigns'
// presets. A request reads the version before the data, so an answer is
// never older than the version it is kept under, and every instance behind
// a load balancer follows the same versions; answers under an older version
// are never asked for again and age out.
type answerCache struct {
	small, large *lru.Cache[string, encodedJSON]
	// making lets concurrent requests for an answer that is not kept yet
	// wait for one of them to make it, rather than all making it at once.
	making singleflight.Group
}

func newAnswerCache() *answerCache {
	small, err := lru.New[string, encodedJSON](smallAnswers)
	if err != nil {
		panic(err) // a positive constant
	}
	large, err := lru.New[string, encodedJSON](largeAnswers)
	if err != nil {
		panic(err)
	}
	return &answerCache{small: small, large: large}
}

// get answers the answer kept under key.
func (c *answerCache) get(key string) (encodedJSON, bool) {
	if body, ok := c.small.Get(key); ok {
		return body, true
	}
	return c.large.Get(key)
}

// put keeps an answer in the class of its size, or not at all when it is
// larger than both.
func (c *answerCache) put(key string, body encodedJSON) {
	switch n := len(body.json); {
	case n <= smallAnswerBytes:
		c.small.Add(key, body)
	case n <= largeAnswerBytes:
		c.large.Add(key, body)
	}
}

// cachedForUser answers from the cache under key and the signed-in user's
// campaign version, or makes the answer with build, encodes it and keeps it.
func cachedForUser[T any](ctx context.Context, s *Server, key string, build func() (T, error)) (encodedJSON, error) {
	uid := userID(ctx)
	v, err := s.q.UserCampaignVersion(ctx, uid)
	if err != nil {
		return encodedJSON{}, err
	}
	return cachedAt(ctx, s.answers, "user "+strconv.FormatInt(uid, 10)+"@"+strconv.FormatInt(v, 10)+" "+key, build)
}

func cachedAt[T any](ctx context.Context, c *answerCache, key string, build func() (T, error)) (encodedJSON, error) {
	if body, ok := c.get(key); ok {
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
		c.put(key, body)
		return body, nil
	}
	body, err, shared := c.making.Do(key, produce)
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
