package networkafake_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"adboost/auth/networkafake"
)

// refusal is a Graph error answer as the fake writes it.
func refusal(code, subcode int, message string) string {
	e := map[string]any{"message": message, "type": "OAuthException", "code": code, "fbtrace_id": "AbCdEf0fake"}
	if subcode != 0 {
		e["error_subcode"] = subcode
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	return string(b)
}

// userRefusal is network_a's refusal of a create or an update that names
// what the user must change: 400, code 100, "Invalid parameter", the
// subcode, the user's title and text, and the field at fault (a dotted
// path; "" for none).
func userRefusal(subcode int, title, msg, blame string) string {
	e := map[string]any{"message": "Invalid parameter", "type": "OAuthException", "code": 100, "error_subcode": subcode,
		"is_transient": false, "error_user_title": title, "error_user_msg": msg, "fbtrace_id": "AbCdEf0fake"}
	if blame != "" {
		spec, _ := json.Marshal(map[string]any{"blame_field_specs": [][]string{strings.Split(blame, ".")}})
		e["error_data"] = string(spec)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"error": e})
	return strings.TrimSuffix(b.String(), "\n")
}

// postUnavailable is the refusal of an ad of a post that is deleted,
// unknown, or not of a page the ad account's users manage.
var postUnavailable = userRefusal(networkafake.SubcodePostUnavailable, "Post Unavailable",
	"The post you chose for this ad isn't available: it may have been deleted or unpublished, or it doesn't belong to your page.",
	"creative.object_story_id")

// pageOf is an ad set change that promotes the page.
func pageOf(page string) map[string]any {
	return map[string]any{"promoted_object": map[string]any{"page_id": page}}
}

// invalid is the fake's refusal of a parameter: 400, code 100.
func invalid(message string) string { return refusal(100, 0, "(#100) "+message) }

// noPayment is the fake's refusal of a create in an ad account without a
// payment method.
var noPayment = refusal(200, 1359188, "(#200) The ad account has no valid payment method. Add one in the account's payment settings.")

// sendJSON sends body as JSON and answers the status and the body as text.
func sendJSON(t *testing.T, method, rawURL, token string, body any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	status, _, text := send(t, method, rawURL, token, string(b))
	return status, text
}

// refused fails unless the call answers 400 with exactly want.
func refused(t *testing.T, what, method, rawURL, token string, body any, want string) {
	t.Helper()
	status, got := sendJSON(t, method, rawURL, token, body)
	if status != http.StatusBadRequest || got != want {
		t.Errorf("%s: %d %s\nwant 400 %s", what, status, got, want)
	}
}

// adSetBody is a valid ad set body of the campaign, changed by the pairs of
// change (a nil value removes the field).
func adSetBody(campaign string, change map[string]any) map[string]any {
	m := map[string]any{"name": "adboost-7", "campaign_id": campaign, "daily_budget": 2500,
		"bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT",
		"targeting": noAutomation(), "status": "ACTIVE"}
	for k, v := range change {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

// TestObjectives: a campaign is created only with one of the OUTCOME_
// objectives; the old names are refused, at creation and in an update.
func TestObjectives(t *testing.T) {
	f, base := world(t)
	const valid = "OUTCOME_ENGAGEMENT, OUTCOME_TRAFFIC, OUTCOME_AWARENESS, OUTCOME_SALES, OUTCOME_APP_PROMOTION, OUTCOME_LEADS"
	for _, old := range []string{"POST_ENGAGEMENT", "VIDEO_VIEWS", "LINK_CLICKS", "REACH", "BRAND_AWARENESS", "CONVERSIONS",
		"APP_INSTALLS", "LEAD_GENERATION", "MESSAGES", "outcome_traffic"} {
		refused(t, old, "POST", base+"/act_1/campaigns", userToken,
			map[string]any{"name": "n", "objective": old, "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false},
			invalid("Objective "+old+" is invalid. Use one of: "+valid+"."))
	}
	if n := len(f.Objects("")); n != 0 {
		t.Fatalf("%d objects made by refused creates", n)
	}
	var camp string
	for _, o := range strings.Split(valid, ", ") {
		camp = mustOK(t, "POST", base+"/act_1/campaigns", userToken,
			map[string]any{"name": "c-" + o, "objective": o, "status": "ACTIVE", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	}
	// Updates: an old objective is refused, a status alone passes.
	refused(t, "update to an old objective", "POST", base+"/"+camp, userToken, map[string]any{"objective": "LEAD_GENERATION"},
		invalid("Objective LEAD_GENERATION is invalid. Use one of: "+valid+"."))
	mustOK(t, "POST", base+"/"+camp, userToken, map[string]any{"status": "PAUSED"})
	if c := f.Objects("campaign")[5]; c.Fields["objective"] != "OUTCOME_LEADS" || len(c.Updates) != 1 {
		t.Fatalf("campaign after a refused update = %+v", c)
	}

	// In a batch, an entry is refused as the call alone.
	out := batch(t, base, userToken, post("act_1/campaigns", map[string]any{"name": "b", "objective": "POST_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}))
	if out[0].Code != 400 || out[0].Body != invalid("Objective POST_ENGAGEMENT is invalid. Use one of: "+valid+".") {
		t.Fatalf("batch entry = %+v", out[0])
	}
}

// TestAdSetRules: an ad set with a lifetime budget needs an end_time, one
// optimised for conversions or installs a promoted_object, one with a
// capped bid strategy a bid_amount; at creation, and after an update that
// touches these fields.
func TestAdSetRules(t *testing.T) {
	f, base := world(t)
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-7", "objective": "OUTCOME_SALES", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	checkAdSetCreatesRefused(t, f, base, camp)
	sets := createRuleAbidingAdSets(t, f, base, camp)
	checkAdSetUpdatesRefused(t, f, base, sets)
	checkAdSetUpdatesKeepingRules(t, f, base, sets)
	checkOldAdSetTakesUpdates(t, f, base, camp)
}

// checkAdSetCreatesRefused checks creates breaking an ad set rule are refused
// and make nothing.
func checkAdSetCreatesRefused(t *testing.T, f *networkafake.Fake, base, camp string) {
	t.Helper()
	url := base + "/act_1/adsets"
	for name, tc := range map[string]struct {
		change map[string]any
		want   string
	}{
		"lifetime without end_time": {map[string]any{"daily_budget": nil, "lifetime_budget": 10000},
			invalid("end_time is required for an ad set with a lifetime budget")},
		"lifetime with an empty end_time": {map[string]any{"daily_budget": nil, "lifetime_budget": 10000, "end_time": ""},
			invalid("Param end_time must be an RFC 3339 time")},
		"lifetime with a null end_time": {map[string]any{"daily_budget": nil, "lifetime_budget": 10000, "end_time": json.RawMessage("null")},
			invalid("Param end_time must be an RFC 3339 time")},
		"conversions without promoted_object": {map[string]any{"optimization_goal": "OFFSITE_CONVERSIONS"},
			invalid("promoted_object is required for an ad set with optimization_goal OFFSITE_CONVERSIONS")},
		"installs without promoted_object": {map[string]any{"optimization_goal": "APP_INSTALLS"},
			invalid("promoted_object is required for an ad set with optimization_goal APP_INSTALLS")},
		"installs with a null promoted_object": {map[string]any{"optimization_goal": "APP_INSTALLS", "promoted_object": json.RawMessage("null")},
			invalid("promoted_object is required for an ad set with optimization_goal APP_INSTALLS")},
		"promoted_object not an object": {map[string]any{"optimization_goal": "OFFSITE_CONVERSIONS", "promoted_object": "123"},
			invalid("Param promoted_object must be a JSON object")},
		"cost cap without bid_amount": {map[string]any{"bid_strategy": "COST_CAP"},
			invalid("bid_amount is required for an ad set with bid_strategy COST_CAP")},
		"bid cap without bid_amount": {map[string]any{"bid_strategy": "LOWEST_COST_WITH_BID_CAP"},
			invalid("bid_amount is required for an ad set with bid_strategy LOWEST_COST_WITH_BID_CAP")},
	} {
		refused(t, name, "POST", url, userToken, adSetBody(camp, tc.change), tc.want)
	}
	if n := len(f.Objects("adset")); n != 0 {
		t.Fatalf("%d ad sets made by refused creates", n)
	}
}

// createRuleAbidingAdSets creates six ad sets that give each rule what it asks
// for (which is enough) and returns the fake's ad sets.
func createRuleAbidingAdSets(t *testing.T, f *networkafake.Fake, base, camp string) []networkafake.Object {
	t.Helper()
	url := base + "/act_1/adsets"
	// What the rules ask for is enough.
	for _, change := range []map[string]any{
		{"daily_budget": nil, "lifetime_budget": 10000, "end_time": "2026-12-31T23:59:59Z"},
		{"optimization_goal": "OFFSITE_CONVERSIONS", "promoted_object": map[string]any{"pixel_id": "1", "custom_event_type": "PURCHASE"}},
		{"optimization_goal": "APP_INSTALLS", "promoted_object": map[string]any{"application_id": "2", "object_store_url": "https://apps.example/x"}},
		{"bid_strategy": "COST_CAP", "bid_amount": 45},
		{"bid_strategy": "LOWEST_COST_WITH_BID_CAP", "bid_amount": 45},
		{"optimization_goal": "THRUPLAY", "destination_type": "ON_VIDEO", "bid_strategy": "LOWEST_COST_WITHOUT_CAP"},
	} {
		mustOK(t, "POST", url, userToken, adSetBody(camp, change))
	}
	return f.Objects("adset")
}

// checkAdSetUpdatesRefused checks updates that would leave an ad set breaking
// a rule are refused and change nothing.
func checkAdSetUpdatesRefused(t *testing.T, f *networkafake.Fake, base string, sets []networkafake.Object) {
	t.Helper()
	lifetime, daily := sets[0].ID, sets[5].ID

	// Updates that would leave an ad set breaking a rule are refused, and
	// change nothing.
	for name, tc := range map[string]struct {
		id     string
		update map[string]any
		want   string
	}{
		"lifetime budget without end_time": {daily, map[string]any{"lifetime_budget": 5000},
			invalid("end_time is required for an ad set with a lifetime budget")},
		"end_time removed from a lifetime ad set": {lifetime, map[string]any{"end_time": json.RawMessage("null")},
			invalid("end_time is required for an ad set with a lifetime budget")},
		"end_time emptied": {lifetime, map[string]any{"end_time": ""},
			invalid("end_time is required for an ad set with a lifetime budget")},
		"goal changed to conversions": {daily, map[string]any{"optimization_goal": "OFFSITE_CONVERSIONS"},
			invalid("promoted_object is required for an ad set with optimization_goal OFFSITE_CONVERSIONS")},
		"promoted_object removed": {sets[2].ID, map[string]any{"promoted_object": json.RawMessage("null")},
			invalid("promoted_object is required for an ad set with optimization_goal APP_INSTALLS")},
		"promoted_object not an object": {sets[1].ID, map[string]any{"promoted_object": []any{"1"}},
			invalid("Param promoted_object must be a JSON object")},
		"bid strategy capped without amount": {daily, map[string]any{"bid_strategy": "COST_CAP"},
			invalid("bid_amount is required for an ad set with bid_strategy COST_CAP")},
	} {
		refused(t, name, "POST", base+"/"+tc.id, userToken, tc.update, tc.want)
	}
	for _, o := range f.Objects("adset") {
		if len(o.Updates) != 0 {
			t.Fatalf("a refused update changed %+v", o)
		}
	}
}

// checkAdSetUpdatesKeepingRules checks updates that keep the rules pass.
func checkAdSetUpdatesKeepingRules(t *testing.T, f *networkafake.Fake, base string, sets []networkafake.Object) {
	t.Helper()
	lifetime, daily := sets[0].ID, sets[5].ID
	// Updates that keep the rules pass.
	mustOK(t, "POST", base+"/"+daily, userToken, map[string]any{"bid_strategy": "COST_CAP", "bid_amount": 60})
	mustOK(t, "POST", base+"/"+daily, userToken, map[string]any{"optimization_goal": "APP_INSTALLS", "promoted_object": map[string]any{"application_id": "2"}})
	mustOK(t, "POST", base+"/"+lifetime, userToken, map[string]any{"lifetime_budget": 20000, "end_time": "2027-01-31T23:59:59Z"})
	mustOK(t, "POST", base+"/"+sets[3].ID, userToken, map[string]any{"bid_strategy": "LOWEST_COST_WITHOUT_CAP"})
	if o := f.Objects("adset")[5]; o.Fields["bid_amount"] != json.Number("60") || o.Fields["optimization_goal"] != "APP_INSTALLS" {
		t.Fatalf("ad set after updates = %+v", o.Fields)
	}
}

// checkOldAdSetTakesUpdates checks an ad set made before the rules still takes
// updates that do not touch them, and is refused one that does.
func checkOldAdSetTakesUpdates(t *testing.T, f *networkafake.Fake, base, camp string) {
	t.Helper()
	// An ad set made before these rules (restored from an old state)
	// still takes updates that do not touch them: a pause, a new targeting.
	s := f.State()
	old := s.Objects[1]
	old.ID, old.Name, old.Fields = "120200000000000999", "old", map[string]any{"name": "old", "campaign_id": camp,
		"lifetime_budget": json.Number("10000"), "bid_strategy": "COST_CAP", "optimization_goal": "OFFSITE_CONVERSIONS", "targeting": noAutomation()}
	s.Objects = append(s.Objects, old)
	f.SetState(s)
	mustOK(t, "POST", base+"/"+old.ID, userToken, map[string]any{"status": "PAUSED", "targeting": map[string]any{"age_min": 18,
		"targeting_automation": map[string]any{"advantage_audience": 0}}})
	refused(t, "old ad set's new bid strategy", "POST", base+"/"+old.ID, userToken, map[string]any{"bid_strategy": "LOWEST_COST_WITH_BID_CAP"},
		invalid("bid_amount is required for an ad set with bid_strategy LOWEST_COST_WITH_BID_CAP"))
}

// TestSetPaymentMethod: without a payment method every create in the ad
// account answers code 200 (not 100: it is not about the post), in a batch
// too; reads and updates go on, other accounts too; State keeps it.
func TestSetPaymentMethod(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_9001", Message: "#gym"})
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-7", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(camp, pageOf("456")))["id"].(string)

	f.SetPaymentMethod("1", false) // "1" is act_1
	campaignBody := map[string]any{"name": "adboost-8", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}
	adBody := map[string]any{"name": "adboost-7-9001", "adset_id": adset, "creative": map[string]any{"object_story_id": "456_9001", "instagram_user_id": bAccount}}
	refused(t, "campaign", "POST", base+"/act_1/campaigns", userToken, campaignBody, noPayment)
	refused(t, "ad set", "POST", base+"/act_1/adsets", userToken, adSetBody(camp, map[string]any{"name": "adboost-8"}), noPayment)
	refused(t, "ad", "POST", base+"/act_1/ads", userToken, adBody, noPayment)
	// A body network_a refuses for itself is refused for that first.
	refused(t, "ad of an unknown post", "POST", base+"/act_1/ads", userToken,
		map[string]any{"name": "n", "adset_id": adset, "creative": map[string]any{"object_story_id": "456_1", "instagram_user_id": bAccount}},
		postUnavailable)
	out := batch(t, base, userToken, post("act_1/ads", adBody), get("act_1/campaigns?fields=id,name"))
	if out[0].Code != 400 || out[0].Body != noPayment || out[1].Code != 200 {
		t.Fatalf("batch = %+v", out)
	}
	// Reads, updates and pauses go on; another account creates.
	mustOK(t, "POST", base+"/"+camp, userToken, map[string]any{"status": "PAUSED"})
	mustOK(t, "POST", base+"/"+adset, userToken, map[string]any{"daily_budget": 3000})
	mustOK(t, "POST", base+"/act_2/campaigns", userToken, campaignBody)
	if n := len(f.Objects("")); n != 3 {
		t.Fatalf("%d objects, want the 2 made before and act_2's campaign", n)
	}

	// Saved and restored.
	s := f.State()
	if !reflect.DeepEqual(s.NoPayment, []string{"act_1"}) {
		t.Fatalf("State().NoPayment = %v", s.NoPayment)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"noPaymentMethod":["act_1"]`) {
		t.Fatalf("state JSON: %s", b)
	}
	g, base2 := networkafake.Start(t)
	var restored networkafake.State
	json.Unmarshal(b, &restored)
	g.SetState(restored)
	refused(t, "campaign after restore", "POST", base2+"/act_1/campaigns", userToken, campaignBody, noPayment)

	// A payment method again: creates pass.
	f.SetPaymentMethod("act_1", true)
	mustOK(t, "POST", base+"/act_1/ads", userToken, adBody)
	if s := f.State(); s.NoPayment != nil {
		t.Fatalf("State().NoPayment = %v after SetPaymentMethod(true)", s.NoPayment)
	}
}

// noAutomation is a targeting that only turns Advantage audience off, as
// network_a requires every ad set to say.
func noAutomation() map[string]any {
	return map[string]any{"targeting_automation": map[string]any{"advantage_audience": 0}}
}
