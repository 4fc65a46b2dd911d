package networkafake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// tokenParam is the parameter that carries an access token in a query or a
// body, besides the Authorization header.
const tokenParam = "access_token"

// bodyEncoding is how a request's body is encoded: formBody or jsonBody as
// its Content-Type says; without one of those, jsonBody for a body that is
// a JSON object and formBody for any other.
func bodyEncoding(contentType string, body []byte) string {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	switch mediaType {
	case formBody, jsonBody:
		return mediaType
	}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		return jsonBody
	}
	return formBody
}

// requestToken is the access token of a request, from the Authorization
// header, else the query's access_token, else the body's, and the body
// without its access_token: a token is never stored as a field of what
// the call creates.
func requestToken(r *http.Request, encoding string, body []byte) (string, []byte) {
	token := bearer(r.Header.Get("Authorization"))
	if token == "" {
		token = queryToken(r.URL.RawQuery)
	}
	body, inBody := withoutToken(encoding, body)
	if token == "" {
		token = inBody
	}
	return token, body
}

// queryToken is the access_token parameter of a query; "" without one.
func queryToken(rawQuery string) string {
	q, _ := url.ParseQuery(rawQuery)
	return q.Get(tokenParam)
}

// withoutToken answers the body without its access_token parameter, and
// that token ("" without one). A form keeps its other pairs byte for byte;
// a JSON object is encoded again without the key.
func withoutToken(encoding string, body []byte) ([]byte, string) {
	if encoding == jsonBody {
		return jsonWithoutToken(body)
	}
	if !bytes.Contains(body, []byte(tokenParam)) {
		return body, ""
	}
	var kept [][]byte
	token := ""
	for _, pair := range bytes.Split(body, []byte("&")) {
		k, v, _ := bytes.Cut(pair, []byte("="))
		if key, err := url.QueryUnescape(string(k)); err == nil && key == tokenParam {
			token, _ = url.QueryUnescape(string(v))
			continue
		}
		kept = append(kept, pair)
	}
	return bytes.Join(kept, []byte("&")), token
}

// jsonWithoutToken is withoutToken for a JSON object body; a body that is
// not a JSON object with a string access_token is answered as it is.
func jsonWithoutToken(body []byte) ([]byte, string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return body, ""
	}
	var token string
	if raw, ok := m[tokenParam]; !ok || json.Unmarshal(raw, &token) != nil {
		return body, ""
	}
	delete(m, tokenParam)
	out, err := json.Marshal(m)
	if err != nil {
		return body, ""
	}
	return out, token
}

// fieldSpecs splits a fields parameter at its top-level commas: a spec
// keeps its modifiers and nested fields ("picture{url}",
// "reactions.summary(total_count).limit(0)"). When its brackets do not
// balance it answers no specs and network_a's words for the fault.
func fieldSpecs(s string) (specs []string, syntaxError string) {
	var open []rune
	start := 0
	closing := map[rune]rune{')': '(', '}': '{'}
	for i, c := range s {
		switch c {
		case '(', '{':
			open = append(open, c)
		case ')', '}':
			if len(open) == 0 || open[len(open)-1] != closing[c] {
				return nil, fmt.Sprintf("Expected end of string instead of %q.\" at character %d", string(c), i)
			}
			open = open[:len(open)-1]
		case ',':
			if len(open) == 0 {
				specs = appendSpec(specs, s[start:i])
				start = i + 1
			}
		}
	}
	if len(open) > 0 {
		want := map[rune]string{'(': ")", '{': "}"}[open[len(open)-1]]
		return nil, fmt.Sprintf("Expected %q instead of end of string.\" at character %d", want, len(s))
	}
	return appendSpec(specs, s[start:]), ""
}

// appendSpec appends the spec, trimmed, unless it is empty.
func appendSpec(specs []string, spec string) []string {
	if spec = strings.TrimSpace(spec); spec != "" {
		specs = append(specs, spec)
	}
	return specs
}

// fieldName is the field a spec names, without its modifiers and nested
// fields: "picture" of "picture.type(large)" and of "picture{url}".
func fieldName(spec string) string {
	if i := strings.IndexAny(spec, ".{("); i >= 0 {
		return spec[:i]
	}
	return spec
}

// fieldNames are the names of the fields a call asks for, or defaults when
// it names none (network_a's default fields of the node).
func fieldNames(q url.Values, defaults ...string) []string {
	specs := fields(q)
	if len(specs) == 0 {
		return defaults
	}
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = fieldName(s)
	}
	return names
}

// pageFields is a page of /me/accounts with its id and the fields of want
// it has; under f.mu.
func (f *Fake) pageFields(p Page, want []string) map[string]any {
	page := map[string]any{"id": p.ID}
	followers := p.Followers
	if current, ok := f.pages[p.ID]; ok {
		followers = current.Followers
	}
	for _, k := range want {
		switch k {
		case "name":
			page[k] = p.Name
		case "access_token":
			if p.Token != "" {
				page[k] = p.Token
			}
		case "picture":
			page[k] = map[string]any{"data": map[string]any{"url": p.Picture, "is_silhouette": false}}
		case "network_b_account":
			if p.B != nil {
				page[k] = map[string]any{"id": p.B.ID, "username": p.B.Username, "profile_picture_url": p.B.Picture}
			}
		case "followers_count", "fan_count":
			page[k] = followers
		}
	}
	return page
}

// adAccountFields is an ad account with its id and the fields of want it
// has: a DSA default the account does not have is left out, as network_a
// leaves it out.
func adAccountFields(acc AdAccount, want []string) map[string]any {
	d := map[string]any{"id": acc.ID}
	for _, k := range want {
		switch k {
		case "account_id":
			d[k] = strings.TrimPrefix(acc.ID, "act_")
		case "name":
			d[k] = cmp.Or(acc.Name, acc.ID)
		case "account_status":
			d[k] = acc.Status
		case "currency":
			d[k] = acc.Currency
		case "timezone_name":
			d[k] = cmp.Or(acc.TimezoneName, "UTC")
		case "disable_reason":
			d[k] = acc.DisableReason
		case "min_daily_budget":
			d[k] = cmp.Or(acc.MinDailyBudget, DefaultMinDailyBudget)
		case "default_dsa_beneficiary":
			if acc.DefaultDSABeneficiary != "" {
				d[k] = acc.DefaultDSABeneficiary
			}
		case "default_dsa_payor":
			if acc.DefaultDSAPayor != "" {
				d[k] = acc.DefaultDSAPayor
			}
		}
	}
	return d
}
