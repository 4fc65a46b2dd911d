package httpapi

import (
	"strings"
	"testing"
)

func TestYAMLToJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"b: 1\na: 2\n", `{"b":1,"a":2}`}, // order kept
		{`v: "1.0"` + "\nw: 1.0\nx: true\ny: 'true'\nz: ~\n", `{"v":"1.0","w":1,"x":true,"y":"true","z":null}`},
		{"d: 2026-01-02\nt: 10:30\n", `{"d":"2026-01-02","t":"10:30"}`},
		{"list: [a, {k: [1, 2]}, null]\n", `{"list":["a",{"k":[1,2]},null]}`},
		{"p: '^\\s*-?[0-9]+$'\n", `{"p":"^\\s*-?[0-9]+$"}`},
		{"a: &x {k: v}\nb: *x\n", `{"a":{"k":"v"},"b":{"k":"v"}}`},
		{"s: |\n  two\n  lines\n", `{"s":"two\nlines\n"}`},
		{`"200": ok` + "\n", `{"200":"ok"}`},
	} {
		got, err := yamlToJSON([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for in, complaint := range map[string]string{
		"a: 1\na: 2\n":         "duplicate key",
		"a: .inf\n":            "no JSON form",
		"? [1]\n: x\n":         "plain keys",
		"a: !!binary aGk=\n":   "unsupported",
		"a: [1\n":              "yaml",
		"a: 1\n---\nb: 2\n":    "", // a second document is ignored by yaml.Unmarshal
		"<<: {a: 1}\nb: 2\n":   "plain keys",
		"a: 1\n\tb: 2\n":       "yaml",
		"k: v\n- item\n":       "yaml",
		"x: !custom value\n":   "unsupported",
		"key with: colon: x\n": "yaml",
	} {
		_, err := yamlToJSON([]byte(in))
		switch {
		case complaint == "" && err != nil:
			t.Errorf("%q: %v", in, err)
		case complaint != "" && (err == nil || !strings.Contains(err.Error(), complaint)):
			t.Errorf("%q: error %v, want one about %q", in, err, complaint)
		}
	}
	if OpenAPIJSON[0] != '{' {
		t.Fatalf("OpenAPIJSON starts with %q", OpenAPIJSON[:10])
	}
}
