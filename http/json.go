package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// maxBodyBytes is the largest request body accepted (413 above it).
const maxBodyBytes = 1 << 20

// writeJSON encodes v as the response body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"error":"internal","message":"internal error"}`)
	}
	writeJSONAnswer(w, status, body)
}

// jsonAnswer is the answer of one request that its endpoint wrote as JSON
// itself, from pieces of JSON that PostgreSQL made (presetCards, jsonArray):
// serveEndpoint writes it as it is, with writeJSON's closing newline, and
// the edge gzips it as it does any answer.
type jsonAnswer []byte

// jsonArray answers the JSON array of values, each a JSON value that
// PostgreSQL wrote (a stored object), joined as it is; a NULL is null.
func jsonArray(values []json.RawMessage) jsonAnswer {
	n := 2
	for _, v := range values {
		n += len(v) + 1
	}
	b := append(make([]byte, 0, n), '[')
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

// writeJSONAnswer writes status with body.
func writeJSONAnswer(w http.ResponseWriter, status int, body jsonAnswer) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// writeEncodedJSON writes status with an answer encoded beforehand, exactly
// as writeJSON would have written it; gzipped (the form the answer keeps,
// made once) when the caller accepts gzip and the answer is over 1 KiB, as
// the edge's gzip would have done it (which leaves an encoded answer alone).
func writeEncodedJSON(w http.ResponseWriter, r *http.Request, status int, body encodedJSON) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if len(body.json)+1 >= gzipMinSize && acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		w.WriteHeader(status)
		_, _ = w.Write(body.gzipped())
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(body.json)
	_, _ = w.Write([]byte{'\n'})
}

// acceptsGzip tells whether the request's Accept-Encoding takes gzip (or
// any coding) with a weight above 0.
func acceptsGzip(r *http.Request) bool {
	for _, field := range r.Header.Values("Accept-Encoding") {
		for _, item := range strings.Split(field, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(item), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "*" {
				continue
			}
			if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
				if w, err := strconv.ParseFloat(q, 64); err != nil || w <= 0 {
					continue
				}
			}
			return true
		}
	}
	return false
}

// hasBody tells whether the request carries a body.
func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

// decodeBody reads a JSON object into dst with the API's type tolerance:
// unknown fields are ignored, and the Int and Bool types also take their
// string forms. An absent body leaves dst as it is.
func decodeBody(r *http.Request, dst any) error {
	if !hasBody(r) {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"a request body must be sent with Content-Type: application/json")
	}
	body, err := readBody(r)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return newError(http.StatusRequestEntityTooLarge, "payload_too_large",
				"the request body is larger than %d bytes", tooLarge.Limit)
		}
		return badRequest("the request body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if hasEscapedNUL(body) {
		return badRequest("%s: text must not contain NUL characters (\\u0000)", nulField(body))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(dst); err != nil {
		return jsonError(err, reflect.TypeOf(dst))
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("malformed JSON: unexpected data after the object")
	}
	return nil
}

// readBody reads the whole body: into a buffer of exactly its declared
// length when it declares one (io.ReadAll would grow its buffer to twice
// that), else growing up to the limit of limitBody.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength <= 0 || r.ContentLength > maxBodyBytes {
		return io.ReadAll(r.Body)
	}
	body := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// hasEscapedNUL tells whether a JSON text has a \u0000 escape, a character
// that PostgreSQL text cannot hold. (A raw NUL byte is not valid JSON.)
func hasEscapedNUL(body []byte) bool {
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte(`u0000`))
		if j < 0 {
			return false
		}
		at := i + j
		slashes := 0
		for k := at - 1; k >= 0 && body[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 1 {
			return true
		}
		i = at + 1
	}
}

// nulField names the field whose text holds a NUL character, as a path such
// as targeting.geo_locations.cities[0].name.
func nulField(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return "the body"
	}
	var walk func(v any, path string) string
	walk = func(v any, path string) string {
		switch v := v.(type) {
		case string:
			if strings.ContainsRune(v, 0) {
				return path
			}
		case map[string]any:
			for k, e := range v {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if strings.ContainsRune(k, 0) {
					return p
				}
				if f := walk(e, p); f != "" {
					return f
				}
			}
		case []any:
			for i, e := range v {
				if f := walk(e, fmt.Sprintf("%s[%d]", path, i)); f != "" {
					return f
				}
			}
		}
		return ""
	}
	if f := walk(v, ""); f != "" {
		return "field " + f
	}
	return "the body"
}

// jsonError explains a decoding failure, naming the field where there is one.
// jsonError maps a decoding error of a request of type req to a 400 that
// names the offending field as the client sent it.
func jsonError(err error, req reflect.Type) *Error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return badRequest("malformed JSON at byte %d: %v", syntax.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("malformed JSON: unexpected end of the body")
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return badRequest("the request body must be a JSON object, not %s", typeErr.Value)
		}
		return badRequest("field %s: must be %s, not %s", wireFieldPath(req, typeErr.Field), typeName(typeErr.Type), typeErr.Value)
	}
	return badRequest("malformed JSON: %v", err)
}

// wireFieldPath answers the field of an UnmarshalTypeError as the client
// sent it. encoding/json names the path from the request type t down, with
// the Go name of each embedded struct the field was promoted through
// ("paging.page" for a page of an embedded paging struct); no client sends
// those, so they are left out ("page").
func wireFieldPath(t reflect.Type, path string) string {
	var out []string
	for _, name := range strings.Split(path, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			out, t = append(out, name), nil
			continue
		}
		next, embedded := reflect.Type(nil), false
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Tag.Get("json") == "" && f.Type.Name() == name {
				next, embedded = f.Type, true
				break
			}
			if jsonName(f) == name {
				next = f.Type
				break
			}
		}
		if !embedded {
			out = append(out, name)
		}
		t = next
	}
	return strings.Join(out, ".")
}

// jsonName answers the name a struct field has in JSON.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func typeName(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[Int](), reflect.TypeFor[int64](), reflect.TypeFor[int](), reflect.TypeFor[int32]():
		return "an integer"
	case reflect.TypeFor[Bool](), reflect.TypeFor[bool]():
		return "a boolean"
	case reflect.TypeFor[string]():
		return "a string"
	}
	switch t.Kind() {
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// Int is an optional integer of a request: a JSON number or its string form
// ("42"). null and "" leave it unset.
type Int struct {
	V   int64
	Set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	*n = Int{}
	s := string(b)
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return &json.UnmarshalTypeError{Value: valueDesc(b), Type: reflect.TypeFor[Int]()}
	}
	*n = Int{V: v, Set: true}
	return nil
}

// Or answers the value, or def when unset.
func (n Int) Or(def int64) int64 {
	if n.Set {
		return n.V
	}
	return def
}

// Ptr answers a pointer to the value, or nil when unset.
func (n Int) Ptr() *int64 {
	if !n.Set {
		return nil
	}
	v := n.V
	return &v
}

// Bool is an optional boolean of a request: true/false, their string forms,
// or "1"/"0" (also as numbers). null and "" leave it unset.
type Bool struct {
	V   bool
	Set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *Bool) UnmarshalJSON(b []byte) error {
	*v = Bool{}
	s := string(b)
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return nil
	case "true", "1":
		*v = Bool{V: true, Set: true}
	case "false", "0":
		*v = Bool{V: false, Set: true}
	default:
		return &json.UnmarshalTypeError{Value: valueDesc(b), Type: reflect.TypeFor[Bool]()}
	}
	return nil
}

// valueDesc describes a JSON value for an error message: its kind and, for
// short scalars, the value itself.
func valueDesc(b []byte) string {
	s := string(b)
	kind := "number"
	switch {
	case strings.HasPrefix(s, `"`):
		kind = "string"
	case strings.HasPrefix(s, "{"):
		return "an object"
	case strings.HasPrefix(s, "["):
		return "an array"
	case s == "true" || s == "false":
		kind = "boolean"
	}
	if len(s) > 40 {
		return kind
	}
	return fmt.Sprintf("%s %s", kind, s)
}
