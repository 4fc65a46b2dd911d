package networkafake

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SpecialAdCategories are the special_ad_categories a campaign may declare.
var SpecialAdCategories = []string{"HOUSING", "EMPLOYMENT", "FINANCIAL_PRODUCTS_SERVICES",
	"ISSUES_ELECTIONS_POLITICS", "ONLINE_GAMBLING_AND_GAMING"}

// EUCountries are the countries of the European Union: an ad set whose
// targeting reaches one of them needs dsa_beneficiary and dsa_payor.
var EUCountries = []string{"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
	"IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"}

// DefaultMinDailyBudget is the smallest daily budget of an ad account whose
// MinDailyBudget is 0, in the currency's offset unit (1.00 of a currency
// counted in hundredths, 100 of one such as JPY).
const DefaultMinDailyBudget = 100

// maxDSAText is the longest dsa_beneficiary or dsa_payor network_a takes.
const maxDSAText = 512

// checkCampaign answers an error when a campaign create misses what
// network_a requires of a campaign.
func checkCampaign(m map[string]any) *answer {
	if str(m, "objective") == "" {
		a := paramError("The parameter objective is required")
		return &a
	}
	if a := checkObjective(m["objective"]); a != nil {
		return a
	}
	categories, ok := m["special_ad_categories"].([]any)
	if !ok {
		return refusal{SubcodeSpecialCategories, "Special ad categories required",
			"Say which special ad categories your campaign belongs to with special_ad_categories; send an empty list when none applies.",
			blameOf("special_ad_categories")}.ref()
	}
	for i, c := range categories {
		if s, isText := c.(string); !isText || (!slices.Contains(SpecialAdCategories, s) && s != "NONE") {
			a := paramError(fmt.Sprintf("Param special_ad_categories[%d] must be one of {%s, NONE}", i, strings.Join(SpecialAdCategories, ", ")))
			return &a
		}
	}
	if hasCategory(categories) {
		if countries, _ := m["special_ad_category_country"].([]any); len(countries) == 0 {
			return refusal{SubcodeCategoryCountry, "Special Ad Category Country Required",
				"A campaign with a special ad category must name the countries where its ads run in special_ad_category_country.",
				blameOf("special_ad_category_country")}.ref()
		}
	}
	switch m["is_adset_budget_sharing_enabled"].(type) {
	case bool:
	case nil:
		return refusal{SubcodeBudgetSharing, "Budget Sharing Setting Required",
			"Must specify True or False in is_adset_budget_sharing_enabled field",
			blameOf("is_adset_budget_sharing_enabled")}.ref()
	default:
		a := paramError("Param is_adset_budget_sharing_enabled must be a boolean")
		return &a
	}
	return nil
}

// hasCategory tells whether a special_ad_categories list names a category
// (NONE is none).
func hasCategory(categories []any) bool {
	return slices.ContainsFunc(categories, func(c any) bool { return c != "NONE" })
}

// adSetContext is what the rules of an ad set read besides its fields.
type adSetContext struct {
	w        *world
	account  AdAccount
	campaign *Object // nil when unknown
	now      time.Time
}

// adSetRule is a rule network_a holds every ad set to: on a create it is
// checked against the body, on an update that touches one of its fields
// against the ad set as the update would leave it.
type adSetRule struct {
	fields []string // the fields it is about
	check  func(x adSetContext, m map[string]any) *answer
}

func (r adSetRule) touched(update map[string]any) bool {
	return slices.ContainsFunc(r.fields, func(k string) bool { _, ok := update[k]; return ok })
}

// given tells whether m has the field with a value (not null, not "").
func given(m map[string]any, k string) bool {
	v, ok := m[k]
	return ok && v != nil && v != ""
}

// adSetRules are the rules of an ad set, in the order network_a checks
// them.
var adSetRules = []adSetRule{
	{fields: []string{"lifetime_budget", "end_time"}, check: needEndTime},
	{fields: []string{"optimization_goal", "promoted_object"}, check: needPromotedObject},
	{fields: []string{"bid_strategy", "bid_amount"}, check: needBidAmount},
	{fields: []string{"dsa_beneficiary", "dsa_payor"}, check: dsaLength},
	{fields: []string{"targeting"}, check: advantageAudience},
	{fields: []string{"optimization_goal", "destination_type"}, check: thruPlayDestination},
	{fields: []string{"targeting"}, check: categoryTargeting},
	{fields: []string{"targeting"}, check: cityTargeting},
	{fields: []string{"targeting", "dsa_beneficiary", "dsa_payor"}, check: dsaFields},
	{fields: []string{"daily_budget", "lifetime_budget", "start_time", "end_time"}, check: budgetMinimum},
}

// needEndTime: a lifetime budget needs an end_time.
func needEndTime(_ adSetContext, m map[string]any) *answer {
	if given(m, "lifetime_budget") && !given(m, "end_time") {
		a := paramError("end_time is required for an ad set with a lifetime budget")
		return &a
	}
	return nil
}

// needPromotedObject: an optimization_goal of OFFSITE_CONVERSIONS or
// APP_INSTALLS needs a promoted_object.
func needPromotedObject(_ adSetContext, m map[string]any) *answer {
	goal := str(m, "optimization_goal")
	if goal != "OFFSITE_CONVERSIONS" && goal != "APP_INSTALLS" {
		return nil
	}
	if _, ok := m["promoted_object"].(map[string]any); !ok {
		a := paramError("promoted_object is required for an ad set with optimization_goal " + goal)
		return &a
	}
	return nil
}

// needBidAmount: a bid strategy with a cap needs a bid_amount.
func needBidAmount(_ adSetContext, m map[string]any) *answer {
	strategy := str(m, "bid_strategy")
	if (strategy == "COST_CAP" || strategy == "LOWEST_COST_WITH_BID_CAP") && !given(m, "bid_amount") {
		a := paramError("bid_amount is required for an ad set with bid_strategy " + strategy)
		return &a
	}
	return nil
}

// dsaLength: dsa_beneficiary and dsa_payor are texts of at most 512
// characters.
func dsaLength(_ adSetContext, m map[string]any) *answer {
	for _, k := range []string{"dsa_beneficiary", "dsa_payor"} {
		v, ok := m[k]
		if !ok || v == nil {
			continue
		}
		if s, isText := v.(string); !isText || len([]rune(s)) > maxDSAText {
			a := paramError(fmt.Sprintf("Param %s must be a string of at most %d characters", k, maxDSAText))
			return &a
		}
	}
	return nil
}

// targetingOf is the ad set's targeting; nil without one.
func targetingOf(m map[string]any) map[string]any {
	t, _ := m["targeting"].(map[string]any)
	return t
}

// number is a JSON number's value; ok is false for anything else.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// advantageAudience: the targeting says whether Advantage audience is on
// (targeting_automation.advantage_audience, 0 or 1); on, it may not cap the
// age below 65.
func advantageAudience(_ adSetContext, m map[string]any) *answer {
	t := targetingOf(m)
	automation, _ := t["targeting_automation"].(map[string]any)
	v, ok := automation["advantage_audience"]
	if !ok || v == nil {
		return refusal{SubcodeAdvantageAudience, "Advantage Audience Flag Required",
			"To create your ad set, you need to enable or disable the Advantage audience feature. This feature is controlled by the advantage_audience flag within the targeting_automation field.",
			blameOf("targeting.targeting_automation.advantage_audience")}.ref()
	}
	flag, isNumber := number(v)
	if !isNumber || (flag != 0 && flag != 1) {
		a := paramError("Param targeting.targeting_automation.advantage_audience must be 0 or 1")
		return &a
	}
	if ageMax, has := number(t["age_max"]); flag == 1 && has && ageMax < 65 {
		return refusal{SubcodeAdvantageAge, "Maximum Age Too Low for Advantage Audience",
			"With Advantage audience on, the maximum age can't be set below 65. Remove age_max or turn Advantage audience off.",
			blameOf("targeting.age_max")}.ref()
	}
	return nil
}

// thruPlayDestination: the THRUPLAY goal is available only with the
// destination ON_VIDEO.
func thruPlayDestination(_ adSetContext, m map[string]any) *answer {
	if str(m, "optimization_goal") == "THRUPLAY" && str(m, "destination_type") != "ON_VIDEO" {
		return refusal{SubcodeGoalUnavailable, "Performance goal isn't available",
			"The performance goal ThruPlay is available only when people watch your video on it: set destination_type to ON_VIDEO, or choose another performance goal.",
			blameOf("destination_type")}.ref()
	}
	return nil
}

// categoryTargeting: the ad sets of a campaign with a special ad category
// may not narrow age, set genders, or reach a city within less than 15
// miles (25 km).
func categoryTargeting(x adSetContext, m map[string]any) *answer {
	if x.campaign == nil {
		return nil
	}
	categories, _ := x.campaign.Fields["special_ad_categories"].([]any)
	if !hasCategory(categories) {
		return nil
	}
	t := targetingOf(m)
	field := ""
	if n, ok := number(t["age_min"]); ok && n > 18 {
		field = "targeting.age_min"
	} else if n, ok := number(t["age_max"]); ok && n < 65 {
		field = "targeting.age_max"
	} else if g, _ := t["genders"].([]any); len(g) > 0 {
		field = "targeting.genders"
	} else if slices.ContainsFunc(cities(t), underCategoryRadius) {
		field = "targeting.geo_locations.cities"
	}
	if field == "" {
		return nil
	}
	return refusal{SubcodeCategoryTargeting, "Targeting Not Available for Special Ad Category",
		"Ads in a special ad category can't target by age or gender, and a city's radius must be at least 15 miles (25 km). Change " + field + ".",
		blameOf(field)}.ref()
}

// cities are the targeting's geo_locations.cities entries.
func cities(t map[string]any) []map[string]any {
	geo, _ := t["geo_locations"].(map[string]any)
	list, _ := geo["cities"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, c := range list {
		if c, ok := c.(map[string]any); ok {
			out = append(out, c)
		}
	}
	return out
}

// isKm tells whether a city's radius is in kilometers (distance_unit
// "kilometer"); network_a's default unit is the mile.
func isKm(c map[string]any) bool { return c["distance_unit"] == "kilometer" }

// underCategoryRadius tells whether a city's radius is below what a special
// ad category allows: 15 miles, 25 km.
func underCategoryRadius(c map[string]any) bool {
	r, ok := number(c["radius"])
	if !ok {
		return false
	}
	if isKm(c) {
		return r < 25
	}
	return r < 15
}

// cityTargeting: every city is one network_a knows (AddCity), by its key,
// and its radius is 10–50 miles (17–80 km).
func cityTargeting(x adSetContext, m map[string]any) *answer {
	for i, c := range cities(targetingOf(m)) {
		key := fmt.Sprint(c["key"])
		if _, known := x.w.cityByKey[key]; !known {
			return refusal{SubcodeUnknownCity, "Invalid Location",
				fmt.Sprintf("The city with key %q is not a location you can target. Look cities up with /search?type=adgeolocation.", key),
				blameOf("targeting.geo_locations.cities")}.ref()
		}
		r, has := number(c["radius"])
		if !has {
			continue
		}
		if (isKm(c) && (r < 17 || r > 80)) || (!isKm(c) && (r < 10 || r > 50)) {
			return refusal{SubcodeCityRadius, "Invalid Radius",
				fmt.Sprintf("The radius around a city must be between 10 and 50 miles (17 and 80 kilometers); city %d has %s %s.", i, c["radius"], unitName(c)),
				blameOf("targeting.geo_locations.cities")}.ref()
		}
	}
	return nil
}

// unitName is a city's distance unit as written in a text.
func unitName(c map[string]any) string {
	if isKm(c) {
		return "kilometers"
	}
	return "miles"
}

// reachesEU tells whether the targeting reaches a country of the EU: one of
// its countries, or the country of one of its cities.
func (w *world) reachesEU(t map[string]any) bool {
	geo, _ := t["geo_locations"].(map[string]any)
	countries, _ := geo["countries"].([]any)
	for _, c := range countries {
		if s, ok := c.(string); ok && slices.Contains(EUCountries, s) {
			return true
		}
	}
	return slices.ContainsFunc(cities(t), func(c map[string]any) bool {
		city, ok := w.cityByKey[fmt.Sprint(c["key"])]
		return ok && slices.Contains(EUCountries, city.CountryCode)
	})
}

// dsaFields: an ad set reaching the EU names its beneficiary and payor,
// unless the ad account has a default for them.
func dsaFields(x adSetContext, m map[string]any) *answer {
	if !x.w.reachesEU(targetingOf(m)) {
		return nil
	}
	if !given(m, "dsa_beneficiary") && x.account.DefaultDSABeneficiary == "" {
		return refusal{SubcodeNoBeneficiary, "No beneficiary indicated",
			"Ads that reach people in the European Union must say who benefits from them. Enter the beneficiary in dsa_beneficiary.",
			blameOf("dsa_beneficiary")}.ref()
	}
	if !given(m, "dsa_payor") && x.account.DefaultDSAPayor == "" {
		return refusal{SubcodeNoPayor, "No payer indicated",
			"Ads that reach people in the European Union must say who pays for them. Enter the payer in dsa_payor.",
			blameOf("dsa_payor")}.ref()
	}
	return nil
}

// budgetMinimum: a daily budget is at least the ad account's minimum daily
// budget, a lifetime budget at least that minimum for every day of its
// flight (start_time, else now, to end_time), a started day counted whole.
func budgetMinimum(x adSetContext, m map[string]any) *answer {
	least := int64(x.account.MinDailyBudget)
	if least <= 0 {
		least = DefaultMinDailyBudget
	}
	field, what := "daily_budget", "daily budget"
	if given(m, "lifetime_budget") {
		field, what = "lifetime_budget", "lifetime budget"
		least *= flightDays(x.now, m)
	}
	budget, err := strconv.ParseInt(fmt.Sprint(m[field]), 10, 64)
	if err != nil || budget >= least {
		return nil
	}
	return refusal{SubcodeBudgetTooLow, "Budget is too low",
		fmt.Sprintf("The %s of this ad set must be at least %s.", what, money(least, x.account.Currency)),
		blameOf(field)}.ref()
}

// flightDays is the number of days from the ad set's start_time (else now)
// to its end_time, rounded up, at least 1.
func flightDays(now time.Time, m map[string]any) int64 {
	end, err := time.Parse(time.RFC3339, str(m, "end_time"))
	if err != nil {
		return 1
	}
	start := now
	if s, err := time.Parse(time.RFC3339, str(m, "start_time")); err == nil {
		start = s
	}
	days := int64(math.Ceil(end.Sub(start).Hours() / 24))
	return max(days, 1)
}
