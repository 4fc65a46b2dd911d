package networkafake

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// formKind is how a form value of a known parameter is read.
type formKind int

const (
	// formByLook: a JSON object or array, or true or false, is decoded;
	// anything else is text.
	formByLook formKind = iota
	// formText: the value as it is.
	formText
	// formJSON: the value is the compact JSON text of an object or an array.
	formJSON
	// formBool: "true" or "false".
	formBool
	// formInteger: an integer (money in the currency's offset unit); a
	// value that is not one stays text, which the checks refuse.
	formInteger
)

// formKinds are the parameters of creates and updates whose form value has
// a known type; a parameter not named here is read by its look
// (formByLook).
var formKinds = map[string]formKind{
	"name": formText, "status": formText, "objective": formText, "campaign_id": formText, "adset_id": formText,
	"bid_strategy": formText, "billing_event": formText, "optimization_goal": formText, "destination_type": formText,
	"end_time": formText, "start_time": formText, "dsa_beneficiary": formText, "dsa_payor": formText,
	"targeting": formJSON, "promoted_object": formJSON, "creative": formJSON,
	"special_ad_categories": formJSON, "special_ad_category_country": formJSON,
	"is_adset_budget_sharing_enabled": formBool,
	"daily_budget":                    formInteger, "lifetime_budget": formInteger, "bid_amount": formInteger, "spend_cap": formInteger,
}

// notFields are parameters of a call that are not fields of the object: the
// token and its proof.
var notFields = []string{"access_token", "appsecret_proof"}

// integerText is an integer as a form writes it.
var integerText = regexp.MustCompile(`^-?[0-9]+$`)

// decodeForm decodes a form body (key=value&…, each value URL-encoded) into
// the map a JSON object body gives: objects, arrays and booleans decoded
// from their JSON text, money as json.Number, other values as strings. A
// parameter given twice keeps its first value. It refuses a text that is not
// a form, and a JSON parameter whose value is not JSON.
func decodeForm(text string) (map[string]any, *answer) {
	values, err := url.ParseQuery(text)
	if err != nil {
		a := paramError("The body is not a form: " + err.Error())
		return nil, &a
	}
	m := make(map[string]any, len(values))
	for k, vs := range values {
		v, ok := formValue(formKinds[k], vs[0])
		if !ok {
			a := paramError("Param " + k + " must be a JSON object or array")
			return nil, &a
		}
		m[k] = v
	}
	for _, k := range notFields {
		delete(m, k)
	}
	return m, nil
}

// formValue is one form value read as its parameter's kind; ok is false for
// a JSON parameter whose value is not JSON.
func formValue(kind formKind, s string) (any, bool) {
	switch kind {
	case formText:
		return s, true
	case formJSON:
		v, err := decodeJSON([]byte(s))
		return v, err == nil
	case formBool:
		if s == "true" || s == "false" {
			return s == "true", true
		}
		return s, true
	case formInteger:
		if integerText.MatchString(s) {
			return json.Number(s), true
		}
		return s, true
	}
	if s == "true" || s == "false" {
		return s == "true", true
	}
	if len(s) > 0 && (s[0] == '{' || s[0] == '[') {
		if v, err := decodeJSON([]byte(s)); err == nil {
			return v, true
		}
	}
	return s, true
}

// decodeJSON decodes one JSON value with its numbers as json.Number; text
// after the value is an error.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errTrailing
	}
	return v, nil
}

// errTrailing is the error of a JSON text with more after its value.
var errTrailing = errors.New("text after the JSON value")

// decodeCallBody decodes a create's or an update's body as contentType says:
// a form, or a JSON object ("" is JSON too).
func decodeCallBody(body []byte, contentType string) (map[string]any, *answer) {
	if contentType == formBody {
		return decodeForm(string(body))
	}
	v, err := decodeJSON(body)
	m, isObject := v.(map[string]any)
	if err != nil || !isObject {
		a := paramError("the body must be a JSON object")
		return nil, &a
	}
	for _, k := range notFields {
		delete(m, k)
	}
	return m, nil
}

// adSetCreateCampaign answers, for a call, the network_a campaign of the ad
// set it creates: ok is true when the call is POST /act_X/adsets and its
// body names a campaign_id. It does not check the body further.
func adSetCreateCampaign(c call) (campaignID string, ok bool) {
	seg := strings.Split(c.path, "/")
	if c.method != "POST" || len(seg) != 2 || seg[1] != "adsets" || !strings.HasPrefix(seg[0], "act_") {
		return "", false
	}
	m, bad := decodeCallBody(c.body, c.contentType)
	if bad != nil {
		return "", false
	}
	id := str(m, "campaign_id")
	return id, id != ""
}
