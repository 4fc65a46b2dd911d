package networkafake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// formOf is m as network_a's SDKs write a form: objects, arrays and
// booleans as their compact JSON text, numbers and strings as they are.
func formOf(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		var v string
		switch x := m[k].(type) {
		case string:
			v = x
		case int, float64, json.Number:
			v = fmt.Sprint(x)
		default:
			b, _ := json.Marshal(x)
			v = string(b)
		}
		parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
	}
	return strings.Join(parts, "&")
}

// formWorld is a fake with one user, a page linked to a network_b account
// and a post, and an ad account.
func formWorld() *Fake {
	f := New()
	f.AddUser(User{Token: "EAAu", ID: "1", Pages: []Page{{ID: "456", Name: "Gym", Token: "EAAp", B: &AccountB{ID: "789"}}},
		AdAccounts: []AdAccount{{ID: "act_1", Status: 1, Currency: "EUR"}}})
	f.AddPost("456", Post{ID: "456_1"})
	f.AddCity(City{Key: "2420605", Name: "Brno", CountryCode: "CZ"})
	return f
}

// send is one call to the fake with the body encoded as contentType says.
func send(f *Fake, path, contentType string, body map[string]any) answer {
	var b []byte
	if contentType == formBody {
		b = []byte(formOf(body))
	} else {
		b, _ = json.Marshal(body)
	}
	return f.call(call{method: http.MethodPost, path: path, token: "EAAu", body: b, contentType: contentType})
}

// TestFormBodies: a create or an update sent as a form makes the same
// object as the same body sent as JSON, and is refused alike.
func TestFormBodies(t *testing.T) {
	campaign := map[string]any{"name": "c", "objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE",
		"special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false, "access_token": "EAAu"}
	adset := func(campaignID string) map[string]any {
		return map[string]any{"name": "s", "campaign_id": campaignID, "daily_budget": 2500, "bid_strategy": "LOWEST_COST_WITHOUT_CAP",
			"billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT", "destination_type": "ON_POST",
			"promoted_object": map[string]any{"page_id": "456"}, "dsa_beneficiary": "Gym", "dsa_payor": "Gym s.r.o.",
			"targeting": map[string]any{"geo_locations": map[string]any{"cities": []any{map[string]any{"key": "2420605", "radius": 20, "distance_unit": "kilometer"}}},
				"age_min": 18, "targeting_automation": map[string]any{"advantage_audience": 0}}}
	}
	ad := func(adsetID string) map[string]any {
		return map[string]any{"name": "a", "adset_id": adsetID, "status": "ACTIVE",
			"creative": map[string]any{"object_story_id": "456_1", "instagram_user_id": "789"}}
	}
	fields := map[string][]map[string]any{}
	for _, ct := range []string{formBody, jsonBody, ""} {
		f := formWorld()
		ids := []string{}
		for _, step := range []struct {
			path string
			body func(prev string) map[string]any
		}{
			{"act_1/campaigns", func(string) map[string]any { return campaign }},
			{"act_1/adsets", adset},
			{"act_1/ads", ad},
		} {
			prev := ""
			if len(ids) > 0 {
				prev = ids[len(ids)-1]
			}
			a := send(f, step.path, ct, step.body(prev))
			if a.status != http.StatusOK {
				t.Fatalf("%q %s: %d %s", ct, step.path, a.status, encode(a.body))
			}
			ids = append(ids, a.body.(map[string]any)["id"].(string))
		}
		if a := send(f, ids[1], ct, map[string]any{"daily_budget": 3000, "status": "PAUSED"}); a.status != http.StatusOK {
			t.Fatalf("%q update: %d %s", ct, a.status, encode(a.body))
		}
		for _, o := range f.Objects("") {
			fields[ct] = append(fields[ct], o.Fields)
		}
	}
	if !reflect.DeepEqual(fields[formBody], fields[jsonBody]) || !reflect.DeepEqual(fields[""], fields[jsonBody]) {
		t.Fatalf("form made %v\nJSON made %v", fields[formBody], fields[jsonBody])
	}
	want := map[string]any{"name": "s", "campaign_id": "120200000000000001", "daily_budget": json.Number("3000"), "status": "PAUSED",
		"bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT",
		"destination_type": "ON_POST", "promoted_object": map[string]any{"page_id": "456"}, "dsa_beneficiary": "Gym", "dsa_payor": "Gym s.r.o.",
		"targeting": map[string]any{"geo_locations": map[string]any{"cities": []any{map[string]any{"key": "2420605", "radius": json.Number("20"), "distance_unit": "kilometer"}}},
			"age_min": json.Number("18"), "targeting_automation": map[string]any{"advantage_audience": json.Number("0")}}}
	if !reflect.DeepEqual(fields[formBody][1], want) {
		t.Fatalf("ad set from a form = %v\nwant %v", fields[formBody][1], want)
	}
	if c := fields[formBody][0]; c["is_adset_budget_sharing_enabled"] != false || c["access_token"] != nil {
		t.Fatalf("campaign from a form = %v", c)
	}
}

// TestFormRefusals: a form's JSON parameter that is not JSON, a form that
// is not one, and the checks of a create, each refused.
func TestFormRefusals(t *testing.T) {
	f := formWorld()
	for name, tc := range map[string]struct {
		path, body, want string
	}{
		"targeting not JSON": {"act_1/adsets", "name=s&targeting=%7Bgeo", `{"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) Param targeting must be a JSON object or array","type":"OAuthException"}}`},
		"not a form":         {"act_1/campaigns", "name=%zz", `{"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The body is not a form: invalid URL escape \"%zz\"","type":"OAuthException"}}`},
		"budget sharing as text": {"act_1/campaigns", "name=c&objective=OUTCOME_ENGAGEMENT&special_ad_categories=%5B%5D&is_adset_budget_sharing_enabled=no",
			`{"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) Param is_adset_budget_sharing_enabled must be a boolean","type":"OAuthException"}}`},
		"without budget sharing": {"act_1/campaigns", "name=c&objective=OUTCOME_ENGAGEMENT&special_ad_categories=%5B%5D",
			`{"error":{"code":100,"error_data":"{\"blame_field_specs\":[[\"is_adset_budget_sharing_enabled\"]]}","error_subcode":4834011,"error_user_msg":"Must specify True or False in is_adset_budget_sharing_enabled field","error_user_title":"Budget Sharing Setting Required","fbtrace_id":"AbCdEf0fake","is_transient":false,"message":"Invalid parameter","type":"OAuthException"}}`},
	} {
		a := f.call(call{method: http.MethodPost, path: tc.path, token: "EAAu", body: []byte(tc.body), contentType: formBody})
		if got := strings.TrimSuffix(string(encode(a.body)), "\n"); a.status != http.StatusBadRequest || got != tc.want {
			t.Errorf("%s: %d %s\nwant %s", name, a.status, got, tc.want)
		}
	}
	// A decimal budget stays text and is refused as the JSON one is.
	m, bad := decodeForm("daily_budget=25.5&bid_amount=40&name=123&extra=true&list=%5B1%5D&odd=%7Bnot")
	if bad != nil || m["daily_budget"] != "25.5" || m["bid_amount"] != json.Number("40") || m["name"] != "123" ||
		m["extra"] != true || !reflect.DeepEqual(m["list"], []any{json.Number("1")}) || m["odd"] != "{not" {
		t.Fatalf("decodeForm = %#v, %v", m, bad)
	}
}

// TestAdSetCreateCampaign: the batch's limit finds the campaign of an ad
// set create, form or JSON, and nothing else.
func TestAdSetCreateCampaign(t *testing.T) {
	for _, tc := range []struct {
		c    call
		want string
		ok   bool
	}{
		{call{method: "POST", path: "act_1/adsets", body: []byte("name=s&campaign_id=120"), contentType: formBody}, "120", true},
		{call{method: "POST", path: "act_1/adsets", body: []byte(`{"campaign_id":"121"}`), contentType: jsonBody}, "121", true},
		{call{method: "POST", path: "act_1/adsets", body: []byte("name=s"), contentType: formBody}, "", false},
		{call{method: "POST", path: "act_1/ads", body: []byte("campaign_id=120"), contentType: formBody}, "", false},
		{call{method: "GET", path: "act_1/adsets", query: "campaign_id=120"}, "", false},
		{call{method: "POST", path: "120", body: []byte("campaign_id=120"), contentType: formBody}, "", false},
	} {
		if id, ok := adSetCreateCampaign(tc.c); id != tc.want || ok != tc.ok {
			t.Errorf("%+v: %q %v", tc.c, id, ok)
		}
	}
}
