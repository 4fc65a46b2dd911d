package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// targeting is a validated Targeting object (the `targeting` of
// boosted-pages/save and create): its normalized JSON, as stored and answered
// as `audience_targeting`, and the country codes it names, which the caller
// checks against the service's countries.
type targeting struct {
	json      json.RawMessage
	countries []countryRef
}

// countryRef is a country code of a Targeting object and where it stands.
type countryRef struct {
	code, path string
}

// parseTargeting validates the whole Targeting object of the spec: every key
// known (others are refused), every value of its declared type (ints also in
// their string form), ages 13..65 with age_min ≤ age_max, genders
// among 1 and 2, country codes of two letters, the enum values of the spec for
// location types, platforms, positions and devices, cities with a key, a
// name and, when they name a radius, 10 to 50 miles or 17 to 80 kilometers
// with its distance unit.
// null members count as absent. The answer keeps the given keys, with ints
// as JSON numbers and country codes in capitals.
func parseTargeting(raw json.RawMessage) (*targeting, error) {
	v := &targetingParser{}
	out, err := v.targeting("targeting", raw)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &targeting{json: b, countries: v.countries}, nil
}

type targetingParser struct {
	countries []countryRef
}

// A tMember parses one value at path; a nil answer (with no error) drops it.
type tMember func(path string, raw json.RawMessage) (any, error)

func (v *targetingParser) targeting(path string, raw json.RawMessage) (any, error) {
	interest := tObject(map[string]tMember{
		"id":   tText(1, 64),
		"name": tText(0, 255),
	}, "id")
	out, err := tObject(map[string]tMember{
		"geo_locations": tObject(map[string]tMember{
			"countries":      tArray(v.country),
			"cities":         tArray(v.city),
			"location_types": tArray(tEnum("home", "recent")),
		}),
		"age_min":             tInt(13, 65),
		"age_max":             tInt(13, 65),
		"genders":             tArray(tInt(1, 2)),
		"locales":             tArray(tInt(1, 1<<31-1)),
		"flexible_spec":       tArray(tObject(map[string]tMember{"interests": tArray(interest), "behaviors": tArray(interest)})),
		"exclusions":          tObject(map[string]tMember{"interests": tArray(interest)}),
		"publisher_platforms": tArray(tEnum("network_a", "network_b")),
		"network_a_positions": tArray(tEnum("feed", "video_feeds")),
		"network_b_positions": tArray(tEnum("stream", "story", "reels")),
		"device_platforms":    tArray(tEnum("mobile", "desktop")),
		"targeting_automation": tObject(map[string]tMember{
			"advantage_audience": tInt(0, 1),
		}),
	})(path, raw)
	if err != nil {
		return nil, err
	}
	m := out.(map[string]any)
	if lo, ok := m["age_min"].(int64); ok {
		if hi, ok := m["age_max"].(int64); ok && lo > hi {
			return nil, badRequest("%s.age_min (%d) must not be greater than %s.age_max (%d)", path, lo, path, hi)
		}
	}
	return m, nil
}

// country is an ISO 3166 code, remembered for the check against the
// service's countries.
func (v *targetingParser) country(path string, raw json.RawMessage) (any, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, badRequest("%s must be a country code such as \"CZ\" (a string)", path)
	}
	code := strings.ToUpper(strings.TrimSpace(s))
	if !countryCode.MatchString(code) {
		return nil, badRequest("%s must be a two-letter ISO 3166 country code, not %q", path, s)
	}
	v.countries = append(v.countries, countryRef{code: code, path: path})
	return code, nil
}

var cityKey = regexp.MustCompile(`^[1-9][0-9]{0,18}$`)

// The radius around a city that network_a takes, by distance unit.
var cityRadiusRange = map[string][2]int64{"mile": {10, 50}, "kilometer": {17, 80}}

// city is {key, name, region, country, radius, distance_unit}: key (the
// GeoNames id of geo-locations, as a string) and name required; a radius
// needs its distance unit and is 10 to 50 miles or 17 to 80 kilometers. A
// city without a radius is targeted with network_a's own default radius.
func (v *targetingParser) city(path string, raw json.RawMessage) (any, error) {
	out, err := tObject(map[string]tMember{
		"key": func(path string, raw json.RawMessage) (any, error) {
			var s string
			if json.Unmarshal(raw, &s) != nil || !cityKey.MatchString(s) {
				return nil, badRequest("%s must be the key of a city, as a string of digits (the value of geo-locations)", path)
			}
			return s, nil
		},
		"name":          tText(1, 200),
		"region":        tText(0, 200),
		"country":       v.country,
		"radius":        tInt(math.MinInt64, math.MaxInt64), // its range depends on the unit
		"distance_unit": tEnum("mile", "kilometer"),
	}, "key", "name")(path, raw)
	if err != nil {
		return nil, err
	}
	m := out.(map[string]any)
	r, ok := m["radius"].(int64)
	if !ok {
		return m, nil
	}
	unit, _ := m["distance_unit"].(string)
	if unit == "" {
		return nil, badRequest("%s.distance_unit is required with a radius (mile or kilometer)", path)
	}
	if lim := cityRadiusRange[unit]; r < lim[0] || r > lim[1] {
		return nil, badRequest("%s.radius must be from %d to %d %ss, not %d (or leave it out for network_a's default)",
			path, lim[0], lim[1], unit, r)
	}
	return m, nil
}

// tObject parses a JSON object whose keys are those of fields (any other is
// refused) and which has every required key.
func tObject(fields map[string]tMember, required ...string) tMember {
	return func(path string, raw json.RawMessage) (any, error) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			return nil, badRequest("%s must be an object", path)
		}
		out := make(map[string]any, len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parse, ok := fields[k]
			if !ok {
				return nil, badRequest("%s.%s is not a known field (known: %s)",
					path, k, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
			}
			if isJSONNull(m[k]) {
				continue
			}
			val, err := parse(path+"."+k, m[k])
			if err != nil {
				return nil, err
			}
			if val != nil {
				out[k] = val
			}
		}
		for _, k := range required {
			if _, ok := out[k]; !ok {
				return nil, badRequest("%s.%s is required", path, k)
			}
		}
		return out, nil
	}
}

// tArray parses a JSON array whose every element elem accepts.
func tArray(elem tMember) tMember {
	return func(path string, raw json.RawMessage) (any, error) {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, badRequest("%s must be an array", path)
		}
		out := make([]any, 0, len(items))
		for i, item := range items {
			p := fmt.Sprintf("%s[%d]", path, i)
			val, err := elem(p, item)
			if err != nil {
				return nil, err
			}
			if val == nil {
				return nil, badRequest("%s must not be empty", p)
			}
			out = append(out, val)
		}
		return out, nil
	}
}

// tInt parses an int in lo..hi: a JSON number or its string form; "" is
// absent.
func tInt(lo, hi int64) tMember {
	return func(path string, raw json.RawMessage) (any, error) {
		var n Int
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, badRequest("%s must be an integer", path)
		}
		if !n.Set {
			return nil, nil
		}
		if n.V < lo || n.V > hi {
			return nil, badRequest("%s must be between %d and %d, not %d", path, lo, hi, n.V)
		}
		return n.V, nil
	}
}

// tText parses a string of min..max characters.
func tText(minLen, maxLen int) tMember {
	return func(path string, raw json.RawMessage) (any, error) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, badRequest("%s must be a string", path)
		}
		if strings.ContainsRune(s, 0) {
			return nil, badRequest("%s must not contain NUL characters", path)
		}
		if n := utf8.RuneCountInString(s); n < minLen || n > maxLen {
			if minLen > 0 && n == 0 {
				return nil, badRequest("%s must not be empty", path)
			}
			return nil, badRequest("%s must be at most %d characters long", path, maxLen)
		}
		return s, nil
	}
}

// tEnum parses one of values.
func tEnum(values ...string) tMember {
	return func(path string, raw json.RawMessage) (any, error) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(values, s) {
			return nil, badRequest("%s must be one of %s, not %s", path, strings.Join(values, ", "), valueDesc(raw))
		}
		return s, nil
	}
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}
