package networka

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
)

// Form is the body of a create or an update: its fields by name. network_a
// reads bodies as forms (application/x-www-form-urlencoded), and a batch
// entry's body is a form text; Encode turns a Form into one.
type Form map[string]any

// Encode is the form text of f as network_a's own SDKs write it: keys in
// order, strings (of any string type) and numbers as they are, and any
// other value (an object, an array, a boolean, json.RawMessage) as its
// compact JSON text, each value URL-encoded. A nil value leaves its field
// out.
func (f Form) Encode() (string, error) {
	v := url.Values{}
	for k, x := range f {
		if x == nil {
			continue
		}
		s, err := formValue(x)
		if err != nil {
			return "", fmt.Errorf("form field %s: %w", k, err)
		}
		v.Set(k, s)
	}
	return v.Encode(), nil
}

// formValue is one field's value as form text.
func formValue(x any) (string, error) {
	switch x := x.(type) {
	case string:
		return x, nil
	case int:
		return strconv.Itoa(x), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case json.Number:
		return x.String(), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	// A value of a named string type (a status, a goal) is text too: its
	// JSON text would carry quotes.
	if v := reflect.ValueOf(x); v.Kind() == reflect.String {
		return v.String(), nil
	}
	// encoding/json writes compact JSON, json.RawMessage included.
	b, err := json.Marshal(x)
	return string(b), err
}
