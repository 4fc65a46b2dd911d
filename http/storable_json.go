package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// checkStorableJSON checks that a JSON value kept as sent (a free-form
// object such as promoted_object) is one that PostgreSQL's jsonb holds and a
// browser reads back as sent: no \u0000 and no half of a surrogate pair in
// its texts, and every number a finite 64-bit float (1e131072 overflows
// jsonb's numeric; 1e-400 is no float a browser holds). The error names the
// offending member, e.g. promoted_object.a[2].
func checkStorableJSON(path string, raw json.RawMessage) error {
	if msg := badEscape(raw); msg != "" {
		return badRequest("%s: %s", escapePath(path, raw), msg)
	}
	return storableNumbers(path, raw)
}

// escapePath names the member of raw (a valid JSON value) whose text holds
// a bad escape: the value's own path, or that of the object whose key holds
// it.
func escapePath(path string, raw json.RawMessage) string {
	switch firstByte(raw) {
	case '{':
		var m map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if badEscape(m[k]) != "" {
				return escapePath(path+"."+k, m[k])
			}
		}
	case '[':
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items)
		for i, item := range items {
			if badEscape(item) != "" {
				return escapePath(fmt.Sprintf("%s[%d]", path, i), item)
			}
		}
	}
	return path
}

// badEscape answers why a JSON text's escapes cannot be stored, or "". In
// valid JSON a backslash stands only in strings, so the whole text is
// scanned as one.
func badEscape(raw []byte) string {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if i >= len(raw) || raw[i] != 'u' {
			continue
		}
		r, ok := hex4(raw[i+1:])
		switch {
		case !ok:
			continue
		case r == 0:
			return `text must not contain NUL characters (\u0000)`
		case r >= 0xDC00 && r <= 0xDFFF:
			return fmt.Sprintf(`text must be valid Unicode: \u%04x is the second half of a surrogate pair without its first`, r)
		case r >= 0xD800 && r <= 0xDBFF:
			next := raw[i+5:]
			low, ok := rune(0), len(next) >= 2 && next[0] == '\\' && next[1] == 'u'
			if ok {
				low, ok = hex4(next[2:])
			}
			if !ok || low < 0xDC00 || low > 0xDFFF {
				return fmt.Sprintf(`text must be valid Unicode: \u%04x is the first half of a surrogate pair without its second`, r)
			}
			i += 6
		}
		i += 4
	}
	return ""
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// storableNumbers checks every number of raw (a valid JSON value), naming
// the first that is not a finite 64-bit float.
func storableNumbers(path string, raw json.RawMessage) error {
	switch firstByte(raw) {
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return badRequest("%s must be valid JSON", path)
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if err := storableNumbers(path+"."+k, m[k]); err != nil {
				return err
			}
		}
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return badRequest("%s must be valid JSON", path)
		}
		for i, item := range items {
			if err := storableNumbers(fmt.Sprintf("%s[%d]", path, i), item); err != nil {
				return err
			}
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		s := strings.TrimSpace(string(raw))
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || (f == 0 && !zeroDigits(s)) {
			return badRequest("%s: the number %s is beyond what a 64-bit float holds (about ±1.8e308, and no closer to 0 than 5e-324)", path, cut(s, 40))
		}
	}
	return nil
}

// zeroDigits tells whether a JSON number's digits before its exponent are
// all 0: it is 0, not a number too small to hold.
func zeroDigits(num string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(num), "e")
	return strings.Trim(mantissa, "-0.") == ""
}

// firstByte answers the first byte of a JSON text that is not a space.
func firstByte(raw []byte) byte {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return 0
	}
	return s[0]
}
