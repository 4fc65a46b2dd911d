package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
)

// maxBatchBody is the largest batch body the counter reads to count its
// entries; a larger one counts as one call (and the fake refuses it anyway).
const maxBatchBody = 8 << 20

// traffic is an http.Handler in front of the fake network_a that counts what
// the engine sends: every HTTP request, and the calls they carry (one for a
// plain request, one per entry for a batch). It counts by itself, so that the
// benchmark depends on nothing but the fake's HTTP behaviour.
type traffic struct {
	next            http.Handler
	prefix          string // the API's path prefix, e.g. "/v19.0": a batch is a POST to it
	requests, calls atomic.Int64
}

// ServeHTTP counts the request and its calls, then hands it to the fake with
// its body intact.
func (t *traffic) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t.requests.Add(1)
	calls := int64(1)
	if r.Method == http.MethodPost && strings.TrimSuffix(r.URL.Path, "/") == strings.TrimSuffix(t.prefix, "/") {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBatchBody))
		if err == nil {
			if n := batchEntries(body); n > 0 {
				calls = int64(n)
			}
		}
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	}
	t.calls.Add(calls)
	t.next.ServeHTTP(w, r)
}

// counts answers the requests and calls seen so far.
func (t *traffic) counts() (requests, calls int64) {
	return t.requests.Load(), t.calls.Load()
}

// batchEntries answers the number of entries of a batch body
// ({"batch":[...]}), or 0 when body is not one.
func batchEntries(body []byte) int {
	var b struct {
		Batch []json.RawMessage `json:"batch"`
	}
	if json.Unmarshal(body, &b) != nil {
		return 0
	}
	return len(b.Batch)
}
