package httpapi

import (
	"encoding/json"
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
			e := jsonError(err)
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
