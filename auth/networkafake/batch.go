package networkafake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// MaxBatch is the most calls one batch request may hold.
const MaxBatch = 50

// batchEntry is one call of a batch request.
type batchEntry struct {
	Method      string `json:"method"`
	RelativeURL string `json:"relative_url"`
	Body        string `json:"body"`         // JSON text, for a POST
	AccessToken string `json:"access_token"` // "": the request's
}

// batchAnswer is the answer to one entry of a batch.
type batchAnswer struct {
	Code    int           `json:"code"`
	Headers []batchHeader `json:"headers"`
	Body    string        `json:"body"` // the answer as JSON text
}

// batchHeader is one header of a batchAnswer.
type batchHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// batch answers POST / with {"batch":[...]}: each entry as the same call
// alone, in order. The request's token must be valid (a user's or a
// page's); an entry without its own access_token uses it. host is the
// request's scheme and host, prefix its version prefix.
func (f *Fake) batch(token string, body []byte, host, prefix string) answer {
	f.mu.Lock()
	a, refused := f.scripted(http.MethodPost, "")
	if !refused {
		if _, denied := f.authorize(token); denied != nil {
			a, refused = *denied, true
		}
	}
	f.mu.Unlock()
	if refused {
		return a
	}
	calls, bad := parseBatch(body, token, host, prefix)
	if bad != nil {
		return *bad
	}
	out := make([]batchAnswer, len(calls))
	for i, c := range calls {
		a := f.call(c)
		headers := []batchHeader{{"Content-Type", contentType}}
		for _, k := range slices.Sorted(maps.Keys(a.headers)) {
			headers = append(headers, batchHeader{k, a.headers[k]})
		}
		out[i] = batchAnswer{Code: a.status, Headers: headers, Body: string(bytes.TrimSuffix(encode(a.body), []byte("\n")))}
	}
	return answer{status: http.StatusOK, body: out}
}

// parseBatch reads a batch request's body into its calls, or answers why
// it is refused.
func parseBatch(body []byte, token, host, prefix string) ([]call, *answer) {
	refuse := func(msg string) ([]call, *answer) { a := paramError(msg); return nil, &a }
	var req struct {
		Batch []batchEntry `json:"batch"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return refuse("The body must be a JSON object {\"batch\":[...]}")
	}
	switch {
	case len(req.Batch) == 0:
		return refuse("The parameter batch is required and holds at least one request")
	case len(req.Batch) > MaxBatch:
		return refuse(fmt.Sprintf("Too many requests in batch message. Maximum batch size is %d", MaxBatch))
	}
	calls := make([]call, len(req.Batch))
	for i, e := range req.Batch {
		u, err := url.Parse("/" + strings.TrimPrefix(e.RelativeURL, "/"))
		if e.Method == "" || e.RelativeURL == "" || err != nil {
			return refuse(fmt.Sprintf("Batch request %d needs a method and a relative_url", i))
		}
		v := version.FindString(u.Path)
		c := call{method: strings.ToUpper(e.Method), path: strings.Trim(strings.TrimPrefix(u.Path, v), "/"),
			query: u.RawQuery, token: token, base: host + prefix, batched: true}
		if v != "" {
			c.base = host + v
		}
		if e.AccessToken != "" {
			c.token = e.AccessToken
		}
		if e.Body != "" {
			c.body = []byte(e.Body)
		}
		calls[i] = c
	}
	return calls, nil
}
