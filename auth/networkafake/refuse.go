package networkafake

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// The error_subcodes of network_a's refusals of creates and updates, all
// with code 100. Those marked "the fake's own" are subcodes network_a does
// not document: a client must not tell refusals apart by them.
const (
	SubcodeBudgetSharing      = 4834011 // a campaign without is_adset_budget_sharing_enabled
	SubcodeSpecialCategories  = 1885833 // a campaign without special_ad_categories (the fake's own)
	SubcodeCategoryCountry    = 2446173 // a category without special_ad_category_country (the fake's own)
	SubcodeAdvantageAudience  = 1870227 // an ad set without targeting_automation.advantage_audience
	SubcodeAdvantageAge       = 1870188 // advantage_audience 1 with age_max below 65 (the fake's own)
	SubcodeGoalUnavailable    = 2490408 // THRUPLAY with a destination_type other than ON_VIDEO
	SubcodeCategoryTargeting  = 1870189 // a special category's campaign with narrowed targeting (the fake's own)
	SubcodeCityRadius         = 1815946 // a city radius outside 10–50 miles / 17–80 km (the fake's own)
	SubcodeUnknownCity        = 1815947 // a city key network_a does not know (the fake's own)
	SubcodeNoBeneficiary      = 3858081 // an ad set reaching the EU without dsa_beneficiary
	SubcodeNoPayor            = 3858079 // an ad set reaching the EU without dsa_payor
	SubcodeBudgetTooLow       = 1885272 // a budget below the ad account's minimum
	SubcodeNoPageID           = 1885154 // an ad in an engagement ad set without promoted_object.page_id
	SubcodeNoInstagramAccount = 1772103 // an ad that may run on network_b without instagram_user_id

	// The refusals of an ad create that are about the post itself.
	SubcodeCannotPromote       = 1487472 // the post cannot be promoted
	SubcodePostUnavailable     = 1885557 // the post is deleted, unpublished or not the page's
	SubcodePostTypeUnavailable = 2446289 // the post's type cannot be boosted
	SubcodePostNotAvailable    = 2490155 // the post (or network_b media) is not available
	SubcodePageMismatch        = 1885029 // the post is not of the ad set's page
	SubcodeDevelopmentApp      = 1885183 // the post was made by an app in development mode
)

// PostSubcodes are the error_subcodes of the refusals of an ad create that
// are about the post itself, not the campaign.
var PostSubcodes = []int{SubcodeCannotPromote, SubcodePostUnavailable, SubcodePostTypeUnavailable,
	SubcodePostNotAvailable, SubcodePageMismatch, SubcodeDevelopmentApp}

// fbtraceID is the fbtrace_id of every error the fake writes.
const fbtraceID = "AbCdEf0fake"

// refusal is network_a's refusal of a create or an update that names what
// the user must change: HTTP 400, OAuthException code 100, "Invalid
// parameter", a subcode, and a title and a text for the user.
type refusal struct {
	subcode    int
	title, msg string
	// blame is the path of the field at fault (error_data's
	// blame_field_specs), e.g. {"targeting", "age_max"}; nil for none.
	blame []string
}

// answer is the refusal as network_a writes it.
func (r refusal) answer() answer {
	e := map[string]any{"message": "Invalid parameter", "type": "OAuthException", "code": 100,
		"error_subcode": r.subcode, "is_transient": false, "error_user_title": r.title, "error_user_msg": r.msg,
		"fbtrace_id": fbtraceID}
	if r.blame != nil {
		e["error_data"] = mustJSON(map[string]any{"blame_field_specs": [][]string{r.blame}})
	}
	return answer{status: http.StatusBadRequest, body: map[string]any{"error": e}}
}

// ref is the refusal's answer, for checks that answer *answer.
func (r refusal) ref() *answer {
	a := r.answer()
	return &a
}

// blameOf is a field's path as error_data names it: "targeting.age_max" is
// {"targeting", "age_max"}.
func blameOf(field string) []string { return strings.Split(field, ".") }

// errorBody is the error object of a scripted Error (FailCalls).
func (e Error) errorBody() map[string]any {
	typ := e.Type
	if typ == "" {
		typ = "OAuthException"
	}
	body := map[string]any{"message": e.Message, "type": typ, "code": e.Code, "fbtrace_id": fbtraceID}
	if e.Subcode != 0 {
		body["error_subcode"] = e.Subcode
	}
	if e.Transient {
		body["is_transient"] = true
	}
	if e.UserTitle != "" {
		body["error_user_title"] = e.UserTitle
	}
	if e.UserMsg != "" {
		body["error_user_msg"] = e.UserMsg
	}
	if e.Data != "" {
		body["error_data"] = e.Data
	}
	return body
}

// offsetOne are the currencies whose offset unit is the main unit; every
// other currency's is a hundredth.
var offsetOne = []string{"CLP", "COP", "CRC", "HUF", "IDR", "ISK", "JPY", "KRW", "PYG", "TWD", "VND"}

// currencySigns are the signs network_a writes before an amount of these
// currencies; others are written "12.34 CZK".
var currencySigns = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}

// money writes an amount in the currency's offset unit as network_a shows
// it to a user: "€1.00", "$12.50", "¥100", "25.00 CZK".
func money(amount int64, currency string) string {
	var n string
	if slices.Contains(offsetOne, currency) {
		n = fmt.Sprint(amount)
	} else {
		n = fmt.Sprintf("%d.%02d", amount/100, amount%100)
	}
	if sign, ok := currencySigns[currency]; ok {
		return sign + n
	}
	return n + " " + currency
}
