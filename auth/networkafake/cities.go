package networkafake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// City is a city network_a knows, by its own key: what
// /search?type=adgeolocation answers, and the keys an ad set's
// targeting.geo_locations.cities may name.
type City struct {
	Key         string `json:"key"` // network_a's key, e.g. "2420605"
	Name        string `json:"name"`
	CountryCode string `json:"country_code"` // ISO 3166-1 alpha-2, e.g. "CZ"
	CountryName string `json:"country_name"`
	Region      string `json:"region"`
	RegionID    string `json:"region_id"`
}

// AddCity adds the city to network_a's cities, or replaces the one with its
// key.
func (f *Fake) AddCity(c City) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addCity(c)
}

// addCity adds or replaces the city, keeping the cities in the order they
// were first added.
func (w *world) addCity(c City) {
	if i := slices.IndexFunc(w.cities, func(x City) bool { return x.Key == c.Key }); i >= 0 {
		w.cities[i] = c
	} else {
		w.cities = append(w.cities, c)
	}
	w.cityByKey[c.Key] = c
}

// search answers GET /search?type=adgeolocation&q=NAME with optional
// location_types (a JSON list; without "city" nothing matches) and
// country_code: the cities whose name starts with q, then those whose name
// holds it, case-insensitively, in the order they were added, at most
// limit (25 unless given).
func (f *Fake) search(q url.Values) answer {
	if q.Get("type") != "adgeolocation" {
		return paramError("Param type must be adgeolocation in this fake")
	}
	if s := q.Get("location_types"); s != "" {
		var types []string
		if json.Unmarshal([]byte(s), &types) != nil {
			return paramError(`Param location_types must be a JSON list such as ["city"]`)
		}
		if !slices.Contains(types, "city") {
			return answer{status: http.StatusOK, body: map[string]any{"data": []any{}}}
		}
	}
	name := strings.ToLower(strings.TrimSpace(q.Get("q")))
	if name == "" {
		return paramError("The parameter q is required")
	}
	_, limit, bad := window(q, 1000)
	if bad != nil {
		return *bad
	}
	country := strings.ToUpper(q.Get("country_code"))
	var starts, holds []any
	for _, c := range f.cities {
		if country != "" && c.CountryCode != country {
			continue
		}
		n := strings.ToLower(c.Name)
		entry := map[string]any{"key": c.Key, "name": c.Name, "type": "city", "country_code": c.CountryCode,
			"country_name": c.CountryName, "region": c.Region, "region_id": c.RegionID}
		switch {
		case strings.HasPrefix(n, name):
			starts = append(starts, entry)
		case strings.Contains(n, name):
			holds = append(holds, entry)
		}
	}
	data := append(append([]any{}, starts...), holds...)
	return answer{status: http.StatusOK, body: map[string]any{"data": data[:min(limit, len(data))]}}
}
