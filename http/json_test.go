package httpapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestIntAndBoolTolerance(t *testing.T) {
	type req struct {
		N Int  `json:"n"`
		B Bool `json:"b"`
	}
	for _, tc := range []struct {
		in   string
		n    Int
		b    Bool
		fail bool
	}{
		{in: `{"n": 3, "b": true}`, n: Int{3, true}, b: Bool{true, true}},
		{in: `{"n": "3", "b": "true"}`, n: Int{3, true}, b: Bool{true, true}},
		{in: `{"n": " -7 ", "b": "1"}`, n: Int{-7, true}, b: Bool{true, true}},
		{in: `{"n": "", "b": ""}`},
		{in: `{"n": null, "b": null}`},
		{in: `{}`},
		{in: `{"b": 0}`, b: Bool{false, true}},
		{in: `{"b": "false"}`, b: Bool{false, true}},
		{in: `{"n": 1.5}`, fail: true},
		{in: `{"n": "abc"}`, fail: true},
		{in: `{"n": "99999999999999999999"}`, fail: true},
		{in: `{"n": [1]}`, fail: true},
		{in: `{"b": "yes"}`, fail: true},
		{in: `{"b": 2}`, fail: true},
	} {
		var r req
		err := json.Unmarshal([]byte(tc.in), &r)
		if tc.fail {
			if err == nil {
				t.Errorf("%s: decoded to %+v, want an error", tc.in, r)
				continue
			}
			e := jsonError(err, reflect.TypeFor[req]())
			if e.Status != 400 || (e.Message[:8] != "field n:" && e.Message[:8] != "field b:") {
				t.Errorf("%s: error %q does not name the field", tc.in, e.Message)
			}
			continue
		}
		if err != nil || r.N != tc.n || r.B != tc.b {
			t.Errorf("%s: got %+v, %v; want %+v %+v", tc.in, r, err, tc.n, tc.b)
		}
	}
}

func TestEscapedNUL(t *testing.T) {
	for body, want := range map[string]bool{
		`{"a": "x\u0000y"}`:         true,
		`{"a": "\\\u0000"}`:         true,  // an escaped backslash, then NUL
		`{"a": "\\u0000"}`:          false, // a backslash, then the text u0000
		`{"a": "u0000"}`:            false,
		`{"a": "\u00000"}`:          true,
		`{"a": {"b": ["\u0000"]}}`:  true,
		`{"a": "\\\\u0000"}`:        false,
		`{"a\u0000": "key has it"}`: true,
	} {
		if got := hasEscapedNUL([]byte(body)); got != want {
			t.Errorf("hasEscapedNUL(%s) = %v, want %v", body, got, want)
		}
	}
	if f := nulField([]byte(`{"t": {"cities": [{"name": "ok"}, {"name": "a\u0000"}]}}`)); f != "field t.cities[1].name" {
		t.Errorf("nulField = %q", f)
	}
}

// A field promoted from an embedded struct is named as the client sends
// it, without the Go name of the struct ("page", not "paging.page"), at any
// depth; a path through a plain nested field keeps that field's name.
func TestJSONErrorNamesWireField(t *testing.T) {
	type inner struct {
		Value string `json:"value"`
	}
	type filter struct {
		Goal     string `json:"goal"`
		Location *inner `json:"location"`
	}
	type pages struct {
		Page Int `json:"page"`
	}
	type req struct {
		pages
		filter
		Items []inner `json:"items"`
		Named inner   `json:"named"`
	}
	for body, want := range map[string]string{
		`{"page": "x"}`:                "field page: must be an integer",
		`{"goal": 5}`:                  "field goal: must be a string",
		`{"location": {"value": 5}}`:   "field location.value: must be a string",
		`{"items": [{"value": true}]}`: "field items.value: must be a string",
		`{"named": {"value": []}}`:     "field named.value: must be a string",
		`{"location": 3}`:              "field location: must be an object",
	} {
		var r req
		err := json.Unmarshal([]byte(body), &r)
		if err == nil {
			t.Errorf("%s: no error", body)
			continue
		}
		if got := jsonError(err, reflect.TypeFor[*req]()).Message; len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%s: %q, want it to start with %q", body, got, want)
		}
	}
}
