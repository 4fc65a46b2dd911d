package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// What network_a requires of a campaign beyond the spec's fields: its
// special ad categories, the rules they and Advantage audience impose on the
// targeting, and the DSA beneficiary and payor.

// adCategory is a special ad category of network_a.
type adCategory string

// adCategories are network_a's special ad categories, in its order.
var adCategories = []adCategory{
	"HOUSING", "EMPLOYMENT", "FINANCIAL_PRODUCTS_SERVICES", "ISSUES_ELECTIONS_POLITICS", "ONLINE_GAMBLING_AND_GAMING",
}

// adCategoryNames is adCategories as a list for messages.
func adCategoryNames() string {
	names := make([]string, len(adCategories))
	for i, c := range adCategories {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// parseAdCategories checks special_ad_categories: an array of distinct
// category names. It answers nil when the member is absent (missing, null or
// ""), and the names as given otherwise ([] for none).
func parseAdCategories(raw json.RawMessage) ([]string, error) {
	if absentJSON(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, badRequest("special_ad_categories must be an array of category names (%s), such as [\"HOUSING\"]", adCategoryNames())
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		var s string
		if json.Unmarshal(item, &s) != nil || !slices.Contains(adCategories, adCategory(s)) {
			return nil, badRequest("special_ad_categories[%d] must be one of %s, not %s", i, adCategoryNames(), valueDesc(item))
		}
		if slices.Contains(out, s) {
			return nil, badRequest("special_ad_categories[%d] repeats %s: each category is named once", i, s)
		}
		out = append(out, s)
	}
	return out, nil
}

// maxDSAText is the longest DSA beneficiary or payor network_a takes.
const maxDSAText = 512

// dsaText is a DSA field of a request (dsa_beneficiary, dsa_payor): absent
// (missing or "") keeps the campaign's value, null clears it, a string sets
// it.
type dsaText struct {
	Set bool    // the request names the field: V is the new value
	V   *string // nil: cleared
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *dsaText) UnmarshalJSON(b []byte) error {
	*t = dsaText{}
	if string(b) == "null" {
		*t = dsaText{Set: true}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &json.UnmarshalTypeError{Value: valueDesc(b), Type: reflect.TypeFor[string]()}
	}
	if s == "" {
		return nil
	}
	*t = dsaText{Set: true, V: &s}
	return nil
}

// check trims the value and checks its length: 1 to 512 characters.
func (t *dsaText) check(field string) error {
	if t.V == nil {
		return nil
	}
	s := strings.TrimSpace(*t.V)
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return badRequest("%s must not be blank: 1 to %d characters, or null to clear it", field, maxDSAText)
	case n > maxDSAText:
		return badRequest("%s must be at most %d characters long, not %d", field, maxDSAText, n)
	}
	t.V = &s
	return nil
}

// targetingLimits is what the rules of special ad categories and of
// Advantage audience read of a Targeting object.
type targetingLimits struct {
	AgeMin       Int             `json:"age_min"`
	AgeMax       Int             `json:"age_max"`
	Genders      json.RawMessage `json:"genders"`
	GeoLocations struct {
		Cities []cityRadius `json:"cities"`
	} `json:"geo_locations"`
	TargetingAutomation struct {
		AdvantageAudience Int `json:"advantage_audience"`
	} `json:"targeting_automation"`
}

type cityRadius struct {
	Radius       Int    `json:"radius"`
	DistanceUnit string `json:"distance_unit"`
}

// Special ad categories keep every adult in reach: no age above 18 as the
// minimum, none below 65 as the maximum, no gender, and a radius of at least
// 15 miles (25 km) around each city.
const (
	categoryAgeMin       = 18
	categoryAgeMax       = 65
	categoryMinMiles     = 15
	categoryMinKilometer = 25
)

// checkTargetingRules checks what network_a refuses of a campaign's
// targeting (the normalized JSON of a Targeting object) with its special ad
// categories: a category forbids narrowing age or gender and a city radius
// below 15 miles (25 km), the city's radius named; Advantage audience forbids
// an age_max below 65. The answer names the targeting's field.
func checkTargetingRules(targetingJSON json.RawMessage, categories []string) error {
	var t targetingLimits
	if err := json.Unmarshal(targetingJSON, &t); err != nil {
		return badRequest("targeting: the campaign's targeting is not a Targeting object (%v); send a whole targeting", err)
	}
	if t.TargetingAutomation.AdvantageAudience.V == 1 && t.AgeMax.Set && t.AgeMax.V < categoryAgeMax {
		return badRequest("targeting.age_max (%d) must be %d with targeting.targeting_automation.advantage_audience 1: Advantage audience may not narrow the age below %d",
			t.AgeMax.V, categoryAgeMax, categoryAgeMax)
	}
	if len(categories) == 0 {
		return nil
	}
	with := "with special_ad_categories " + strings.Join(categories, ", ")
	switch {
	case t.AgeMin.Set && t.AgeMin.V > categoryAgeMin:
		return badRequest("targeting.age_min (%d) must be at most %d %s: the age may not be narrowed", t.AgeMin.V, categoryAgeMin, with)
	case t.AgeMax.Set && t.AgeMax.V < categoryAgeMax:
		return badRequest("targeting.age_max (%d) must be %d %s: the age may not be narrowed", t.AgeMax.V, categoryAgeMax, with)
	case len(t.Genders) > 0 && !isJSONNull(t.Genders) && string(t.Genders) != "[]":
		return badRequest("targeting.genders must not be set %s", with)
	}
	for i, c := range t.GeoLocations.Cities {
		path := fmt.Sprintf("targeting.geo_locations.cities[%d].radius", i)
		switch {
		case !c.Radius.Set:
			return badRequest("%s is required %s: at least %d miles (%d kilometers)", path, with, categoryMinMiles, categoryMinKilometer)
		case c.DistanceUnit == "kilometer" && c.Radius.V < categoryMinKilometer:
			return badRequest("%s (%d kilometers) must be at least %d kilometers %s", path, c.Radius.V, categoryMinKilometer, with)
		case c.DistanceUnit != "kilometer" && c.Radius.V < categoryMinMiles:
			return badRequest("%s (%d miles) must be at least %d miles %s", path, c.Radius.V, categoryMinMiles, with)
		}
	}
	return nil
}
