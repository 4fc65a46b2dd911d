package networkafake

import (
	"bytes"
	"cmp"
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
	Method      string          `json:"method"`
	RelativeURL string          `json:"relative_url"`
	Body        json.RawMessage `json:"body"`         // a JSON string holding a form text, for a POST
	AccessToken string          `json:"access_token"` // "": the request's
	Name        string          `json:"name"`         // a name for the entry; answered like any other
}

// batchAnswer is the answer to one entry of a batch.
type batchAnswer struct {
	Code    int           `json:"code"`
	Headers []batchHeader `json:"headers,omitempty"` // only with include_headers
	Body    string        `json:"body"`              // the answer as JSON text
}

// batchHeader is one header of a batchAnswer.
type batchHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// batchRequest is a batch request as read from its body.
type batchRequest struct {
	entries        []batchEntry
	includeHeaders bool
}

// batchCall is an entry read into a call. jsonText marks an entry whose
// body is JSON text, which network_a refuses.
type batchCall struct {
	call
	jsonText bool
}

// batch answers POST / with the form fields batch (the entries as JSON
// array text), include_headers and access_token, or the same as a JSON
// object (a field the body does not have may be a parameter of the query):
// each entry as the same call alone, in order. The request's token must be
// valid (a user's or a page's); an entry without its own token uses it. An
// ad set create for a network_a campaign that already had one in the
// request is answered null and not carried out. encoding is the body's;
// host is the request's scheme and host, prefix its version prefix.
func (f *Fake) batch(token, rawQuery string, body []byte, encoding, host, prefix string) answer {
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
	req, bad := readBatch(rawQuery, body, encoding)
	if bad != nil {
		return *bad
	}
	calls, bad := batchCalls(req.entries, token, host, prefix)
	if bad != nil {
		return *bad
	}
	out := make([]any, len(calls))
	adSetCampaigns := map[string]bool{} // campaigns with an ad set create in this request
	for i, c := range calls {
		if campaign, ok := adSetCreateCampaign(c.call); ok && !c.jsonText {
			if adSetCampaigns[campaign] {
				continue // answered null
			}
			adSetCampaigns[campaign] = true
		}
		out[i] = entryAnswer(f.entry(c), req.includeHeaders)
	}
	return answer{status: http.StatusOK, body: out}
}

// entry answers one entry of a batch: a JSON text body is recorded and
// refused, any other entry is answered as the call alone.
func (f *Fake) entry(c batchCall) answer {
	if !c.jsonText {
		return f.call(c.call)
	}
	f.mu.Lock()
	f.record(c.call)
	f.mu.Unlock()
	return jsonEntryBodyRefused()
}

// entryAnswer is an entry's answer in a batch's answer, with its headers
// when the request asked for them.
func entryAnswer(a answer, includeHeaders bool) batchAnswer {
	out := batchAnswer{Code: a.status, Body: string(bytes.TrimSuffix(encode(a.body), []byte("\n")))}
	if includeHeaders {
		out.Headers = []batchHeader{{"Content-Type", contentType}}
		for _, k := range slices.Sorted(maps.Keys(a.headers)) {
			out.Headers = append(out.Headers, batchHeader{k, a.headers[k]})
		}
	}
	return out
}

// jsonEntryBodyRefused is network_a's answer to a batch entry whose body is
// JSON text: the body of an entry is a form.
func jsonEntryBodyRefused() answer {
	return answer{status: http.StatusBadRequest, body: map[string]any{"error": map[string]any{
		"message":          "Invalid parameter",
		"type":             "OAuthException",
		"code":             100,
		"is_transient":     false,
		"error_user_title": "Invalid batch request body",
		"error_user_msg":   "The body of a batch request is a form text (key=value pairs joined by &), not JSON.",
		"error_data":       `{"blame_field_specs":[["body"]]}`,
		"fbtrace_id":       "AbCdEf0fake",
	}}}
}

// readBatch reads a batch request's body, a form or a JSON object, and its
// query for the fields the body does not have, or answers why it is
// refused. include_headers is true unless it is false.
func readBatch(rawQuery string, body []byte, encoding string) (batchRequest, *answer) {
	refuse := func(msg string) (batchRequest, *answer) { a := paramError(msg); return batchRequest{}, &a }
	var list []byte
	include := ""
	if encoding == jsonBody {
		var req struct {
			Batch          json.RawMessage `json:"batch"`
			IncludeHeaders any             `json:"include_headers"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return refuse("The body must be a form or a JSON object with the parameter batch")
		}
		list = req.Batch
		var text string
		if json.Unmarshal(req.Batch, &text) == nil {
			list = []byte(text) // the array as JSON text, as in a form
		}
		if req.IncludeHeaders != nil {
			include = fmt.Sprint(req.IncludeHeaders)
		}
	} else {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return refuse("The body must be a form or a JSON object with the parameter batch")
		}
		list, include = []byte(form.Get("batch")), form.Get("include_headers")
	}
	query, _ := url.ParseQuery(rawQuery)
	if len(bytes.TrimSpace(list)) == 0 {
		list = []byte(query.Get("batch"))
	}
	if include == "" {
		include = query.Get("include_headers")
	}
	var req batchRequest
	if len(bytes.TrimSpace(list)) != 0 && json.Unmarshal(list, &req.entries) != nil {
		return refuse("The parameter batch must be a JSON array of requests")
	}
	switch {
	case len(req.entries) == 0:
		return refuse("The parameter batch is required and holds at least one request")
	case len(req.entries) > MaxBatch:
		return refuse(fmt.Sprintf("Too many requests in batch message. Maximum batch size is %d", MaxBatch))
	}
	req.includeHeaders = include != "false"
	return req, nil
}

// batchCalls reads a batch's entries into calls, or answers why the batch
// is refused. An entry's token is its access_token, else the one of its
// relative_url or of its body, else the request's.
func batchCalls(entries []batchEntry, token, host, prefix string) ([]batchCall, *answer) {
	calls := make([]batchCall, len(entries))
	for i, e := range entries {
		u, err := url.Parse("/" + strings.TrimPrefix(e.RelativeURL, "/"))
		if e.Method == "" || e.RelativeURL == "" || err != nil {
			a := paramError(fmt.Sprintf("Batch request %d needs a method and a relative_url", i))
			return nil, &a
		}
		v := version.FindString(u.Path)
		c := batchCall{call: call{method: strings.ToUpper(e.Method), path: strings.Trim(strings.TrimPrefix(u.Path, v), "/"),
			query: u.RawQuery, contentType: formBody, base: host + prefix, batched: true}}
		if v != "" {
			c.base = host + v
		}
		body, jsonText := entryBody(e.Body)
		bodyToken := ""
		if !jsonText {
			body, bodyToken = withoutToken(formBody, body)
		}
		c.body, c.jsonText = body, jsonText
		c.token = cmp.Or(e.AccessToken, queryToken(u.RawQuery), bodyToken, token)
		calls[i] = c
	}
	return calls, nil
}

// entryBody is the text of an entry's body and whether it is JSON text (a
// JSON object or array, given as such or as a string): network_a reads an
// entry's body as a form only.
func entryBody(raw json.RawMessage) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		return raw, true // an object, an array or another JSON value
	}
	t := strings.TrimSpace(text)
	return []byte(text), strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}
