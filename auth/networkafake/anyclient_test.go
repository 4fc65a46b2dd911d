package networkafake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"adboost/auth/networkafake"
)

// sdkCampaignBody is a campaign body that passes network_a's checks.
func sdkCampaignBody(name string) map[string]any {
	return map[string]any{"name": name, "objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE",
		"special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}
}

// sdkAdSetBody is an engagement ad set body of the campaign that passes
// network_a's checks: outside the EU, on network_a alone, promoting page 456.
func sdkAdSetBody(name, campaign string) map[string]any {
	return map[string]any{"name": name, "campaign_id": campaign, "daily_budget": 2000,
		"bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT",
		"destination_type": "ON_POST", "promoted_object": map[string]any{"page_id": "456"},
		"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"US"}},
			"publisher_platforms": []any{"network_a"}, "targeting_automation": map[string]any{"advantage_audience": 0}},
		"status": "ACTIVE"}
}

// sdkAdBody is an ad body of the post in the ad set.
func sdkAdBody(name, adset, post string) map[string]any {
	return map[string]any{"name": name, "adset_id": adset, "creative": map[string]any{"object_story_id": post}, "status": "ACTIVE"}
}

// sendAs sends one request with the Content-Type and the Authorization
// header given ("" for none) and answers its status and body.
func sendAs(t *testing.T, method, rawURL, contentType, authorization, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, rawURL, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, strings.TrimSuffix(string(b), "\n")
}

const (
	form     = "application/x-www-form-urlencoded"
	jsonType = "application/json"
)

// TestTokenPlaces: the token is taken from an Authorization header (Bearer
// or OAuth), the query's access_token, or the body's (a form or a JSON
// object), under a version prefix or none; a body's token is not kept as
// a field of the call.
func TestTokenPlaces(t *testing.T) {
	f, base := world(t)
	root := strings.TrimSuffix(base, "/v25.0")
	const me = `{"id":"5550001","name":"Ana Nováková"}`
	noSuch := `{"error":{"code":100,"error_subcode":33,"fbtrace_id":"AbCdEf0fake","message":"Unsupported post request. Object with ID '999' does not exist, cannot be loaded due to missing permissions, or does not support this operation.","type":"GraphMethodException"}}`
	invalidToken := `{"error":{"code":190,"fbtrace_id":"AbCdEf0fake","message":"Invalid OAuth access token - Cannot parse access token","type":"OAuthException"}}`
	noToken := `{"error":{"code":190,"fbtrace_id":"AbCdEf0fake","message":"An active access token must be used to query information about the current user.","type":"OAuthException"}}`
	f.ClearRequests()
	for _, tc := range []struct {
		name, method, url, contentType, authorization, body string
		status                                              int
		want                                                string
	}{
		{"Bearer header", "GET", root + "/v25.0/me", "", "Bearer " + userToken, "", 200, me},
		{"OAuth header", "GET", root + "/v25.0/me", "", "OAuth " + userToken, "", 200, me},
		{"query", "GET", root + "/v25.0/me?access_token=" + userToken, "", "", "", 200, me},
		{"query, no version", "GET", root + "/me?fields=id&access_token=" + userToken, "", "", "", 200, `{"id":"5550001"}`},
		{"form body", "POST", root + "/v25.0/999", form, "", "status=PAUSED&access_token=" + userToken, 400, noSuch},
		{"JSON body", "POST", root + "/v25.0/999", jsonType, "", `{"status":"PAUSED","access_token":"` + userToken + `"}`, 400, noSuch},
		{"form body without Content-Type", "POST", root + "/v25.0/999", "", "", "access_token=" + userToken + "&status=PAUSED", 400, noSuch},
		{"unknown token in the query", "GET", root + "/v25.0/me?access_token=EAAnobody", "", "", "", 401, invalidToken},
		{"unknown token in a form", "POST", root + "/v25.0/999", form, "", "access_token=EAAnobody", 401, invalidToken},
		{"another scheme", "GET", root + "/v25.0/me", "", "Basic " + userToken, "", 400, noToken},
	} {
		status, got := sendAs(t, tc.method, tc.url, tc.contentType, tc.authorization, tc.body)
		if status != tc.status || got != tc.want {
			t.Errorf("%s: %d %s\nwant %d %s", tc.name, status, got, tc.status, tc.want)
		}
	}
	// The calls, with the token each used; a body keeps everything but its token.
	want := []networkafake.Call{
		{Method: "GET", Path: "/me", Token: userToken},
		{Method: "GET", Path: "/me", Token: userToken},
		{Method: "GET", Path: "/me?access_token=" + userToken, Token: userToken},
		{Method: "GET", Path: "/me?fields=id&access_token=" + userToken, Token: userToken},
		{Method: "POST", Path: "/999", Token: userToken, Body: "status=PAUSED"},
		{Method: "POST", Path: "/999", Token: userToken, Body: `{"status":"PAUSED"}`},
		{Method: "POST", Path: "/999", Token: userToken, Body: "status=PAUSED"},
		{Method: "GET", Path: "/me?access_token=EAAnobody", Token: "EAAnobody"},
		{Method: "POST", Path: "/999", Token: "EAAnobody", Body: ""},
		{Method: "GET", Path: "/me"},
	}
	if got := f.Calls(); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls = %+v\nwant %+v", got, want)
	}
}

// TestReadFields: a read answers the fields asked for that the node has,
// leaves out the others, answers network_a's defaults without fields, and
// refuses only a fields parameter it cannot read.
func TestReadFields(t *testing.T) {
	f, base := world(t)
	f.AddUser(networkafake.User{Token: "EAAeu0user", ID: "5550002", FirstName: "Eva", LastName: "Muster",
		AdAccounts: []networkafake.AdAccount{
			{ID: "act_7", Status: 1, Currency: "EUR", Name: "Eva's ads", TimezoneName: "Europe/Prague", MinDailyBudget: 150,
				DefaultDSABeneficiary: "Eva Muster s.r.o.", DefaultDSAPayor: "Eva Muster", DisableReason: 0},
			{ID: "act_8", Status: 2, Currency: "JPY", DisableReason: 3},
		}})
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, sdkCampaignBody("adboost-7"))["id"].(string)
	syntax := func(at, fields string) string {
		return `{"error":{"code":2500,"fbtrace_id":"AbCdEf0fake","message":"Syntax error \"` + at + `: ` + fields + `","type":"OAuthException"}}`
	}
	const adAccountFields = "id,name,account_status,currency,timezone_name,disable_reason,default_dsa_beneficiary,default_dsa_payor,min_daily_budget"
	for _, tc := range []struct{ path, token, want string }{
		{"/me", userToken, `{"id":"5550001","name":"Ana Nováková"}`},
		{"/me?fields=email,birthday,picture{url},first_name", userToken, `{"email":"ana@network-a.example","first_name":"Ana","id":"5550001"}`},
		{"/me?fields=email", "EAAeu0user", `{"id":"5550002"}`},
		{"/me?fields=id,name}", userToken, syntax(`Expected end of string instead of \"}\".\" at character 7`, "id,name}")},
		{"/me?fields=picture{url", userToken, syntax(`Expected \"}\" instead of end of string.\" at character 11`, "picture{url")},
		{"/me/accounts", userToken, `{"data":[{"access_token":"EAApage0token","id":"456","name":"Gym"},{"access_token":"EAAother0page","id":"457","name":"Cafe"}]}`},
		{"/me/accounts?fields=name,picture{url},followers_count,category,network_b_account", userToken,
			`{"data":[{"followers_count":1200,"id":"456","name":"Gym","network_b_account":{"id":"789","profile_picture_url":"https://img.example/789.png","username":"gym.b"},"picture":{"data":{"is_silhouette":false,"url":"https://img.example/456.png"}}},` +
				`{"followers_count":10,"id":"457","name":"Cafe","picture":{"data":{"is_silhouette":false,"url":""}}}]}`},
		{"/me/accounts?fields=id", userToken, `{"data":[{"id":"456"},{"id":"457"}]}`},
		{"/me/adaccounts", userToken, `{"data":[{"account_id":"2","id":"act_2"},{"account_id":"1","id":"act_1"}]}`},
		{"/me/adaccounts?fields=" + adAccountFields, "EAAeu0user",
			`{"data":[{"account_status":1,"currency":"EUR","default_dsa_beneficiary":"Eva Muster s.r.o.","default_dsa_payor":"Eva Muster","disable_reason":0,"id":"act_7","min_daily_budget":150,"name":"Eva's ads","timezone_name":"Europe/Prague"},` +
				`{"account_status":2,"currency":"JPY","disable_reason":3,"id":"act_8","min_daily_budget":100,"name":"act_8","timezone_name":"UTC"}]}`},
		{"/me/adaccounts?fields=currency,amount_spent", userToken, `{"data":[{"currency":"EUR","id":"act_2"},{"currency":"USD","id":"act_1"}]}`},
		{"/" + camp, userToken, `{"id":"` + camp + `"}`},
		{"/" + camp + "?fields=name,account_id,objective,configured_status,bid_strategy,created_time", userToken,
			`{"account_id":"1","configured_status":"ACTIVE","id":"` + camp + `","name":"adboost-7","objective":"OUTCOME_ENGAGEMENT"}`},
		{"/act_1/campaigns", userToken, `{"data":[{"id":"` + camp + `"}]}`},
		{"/act_1/campaigns?fields=name,status,daily_budget", userToken, `{"data":[{"id":"` + camp + `","name":"adboost-7","status":"ACTIVE"}]}`},
		{"/act_1/campaigns?fields=name{x", userToken, syntax(`Expected \"}\" instead of end of string.\" at character 6`, "name{x")},
	} {
		status, got := sendAs(t, "GET", base+tc.path, "", "Bearer "+tc.token, "")
		wantStatus := 200
		if strings.Contains(tc.want, `"error"`) {
			wantStatus = 400
		}
		if status != wantStatus || got != tc.want {
			t.Errorf("GET %s: %d %s\nwant %d %s", tc.path, status, got, wantStatus, tc.want)
		}
	}
	// Paging of /me/accounts keeps the fields asked for, or none.
	f.SetAccountsPageSize(1)
	for _, tc := range []struct{ query, next string }{
		{"", "/me/accounts?access_token=" + userToken + "&after=1&limit=1"},
		{"?fields=id", "/me/accounts?access_token=" + userToken + "&after=1&fields=id&limit=1"},
	} {
		page := mustOK(t, "GET", base+"/me/accounts"+tc.query, userToken, nil)
		if next := page["paging"].(map[string]any)["next"]; next != base+tc.next {
			t.Errorf("/me/accounts%s: paging.next = %v, want %s", tc.query, next, base+tc.next)
		}
	}
}

// TestListedObjectsOwnIDs: lists of campaigns, ad sets and ads answer each
// object's own id, also when its create body carried an "id" (Meta's SDKs
// send the ad account's id there).
func TestListedObjectsOwnIDs(t *testing.T) {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_9001", Message: "#gym"})
	withID := func(m map[string]any) map[string]any { return merge(m, map[string]any{"id": "act_1"}) }
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, withID(sdkCampaignBody("c")))["id"].(string)
	adset := mustOK(t, "POST", base+"/act_1/adsets", userToken, withID(sdkAdSetBody("s", camp)))["id"].(string)
	ad := mustOK(t, "POST", base+"/act_1/ads", userToken, withID(sdkAdBody("a", adset, "456_9001")))["id"].(string)
	for path, want := range map[string]string{
		"/act_1/campaigns?fields=id,name":      `{"data":[{"id":"` + camp + `","name":"c"}]}`,
		"/act_1/adsets?fields=id,campaign_id":  `{"data":[{"campaign_id":"` + camp + `","id":"` + adset + `"}]}`,
		"/act_1/ads?fields=id,adset_id,status": `{"data":[{"adset_id":"` + adset + `","id":"` + ad + `","status":"ACTIVE"}]}`,
		"/" + ad + "?fields=id,name":           `{"id":"` + ad + `","name":"a"}`,
		"/" + camp + "/ads?fields=id":          `{"data":[{"id":"` + ad + `"}]}`,
	} {
		if status, got := sendAs(t, "GET", base+path, "", "Bearer "+userToken, ""); status != 200 || got != want {
			t.Errorf("GET %s: %d %s\nwant %s", path, status, got, want)
		}
	}
}

// rawBatch sends a batch request as given and answers its entries as raw
// JSON (null for an entry network_a did not process); it fails unless the
// batch answers 200.
func rawBatch(t *testing.T, rawURL, contentType, authorization, body string) []json.RawMessage {
	t.Helper()
	status, got := sendAs(t, "POST", rawURL, contentType, authorization, body)
	var out []json.RawMessage
	if err := json.Unmarshal([]byte(got), &out); status != 200 || err != nil {
		t.Fatalf("batch = %d %s", status, got)
	}
	return out
}

// batchForm is a batch request as a form: the entries as JSON text, and
// the other fields given.
func batchForm(entries []map[string]any, other url.Values) string {
	b, _ := json.Marshal(entries)
	v := url.Values{"batch": {string(b)}}
	for k, vs := range other {
		v[k] = vs
	}
	return v.Encode()
}

// TestBatchForms: a batch as a form or a JSON object (its batch an array
// or the array's text), its token in a header, the form or the JSON
// object, include_headers, and each entry's token from its access_token,
// its relative_url or its body.
func TestBatchForms(t *testing.T) {
	f, base := world(t)
	meEntry := get("me?fields=id")
	const meBody = `"{\"id\":\"5550001\"}"`
	bare := `{"code":200,"body":` + meBody + `}`
	withHeaders := `{"code":200,"headers":[{"name":"Content-Type","value":"application/json; charset=UTF-8"}],"body":` + meBody + `}`
	list, _ := json.Marshal([]map[string]any{meEntry})
	for _, tc := range []struct{ name, url, contentType, authorization, body, want string }{
		{"form, token in the form, no headers", base, form, "", batchForm([]map[string]any{meEntry},
			url.Values{"include_headers": {"false"}, "access_token": {userToken}}), bare},
		{"form, token in the form, headers", base, form, "", batchForm([]map[string]any{meEntry},
			url.Values{"include_headers": {"true"}, "access_token": {userToken}}), withHeaders},
		{"form, token in the query, headers by default", base + "?access_token=" + userToken, form, "", batchForm([]map[string]any{meEntry}, nil), withHeaders},
		{"form, Bearer, bare path", strings.TrimSuffix(base, "/v25.0") + "/", form, "Bearer " + userToken,
			batchForm([]map[string]any{meEntry}, url.Values{"include_headers": {"false"}}), bare},
		{"JSON object, batch as text", base, jsonType, "", `{"batch":` + strconvQuote(string(list)) + `,"include_headers":false,"access_token":"` + userToken + `"}`, bare},
		{"JSON object, batch as array", base, jsonType, "Bearer " + userToken, `{"batch":` + string(list) + `,"include_headers":"true"}`, withHeaders},
		{"JSON object, include_headers in the query", base + "?include_headers=false", jsonType, "Bearer " + userToken, `{"batch":` + string(list) + `}`, bare},
		{"all in the query", base + "?" + batchForm([]map[string]any{meEntry}, url.Values{"include_headers": {"false"}, "access_token": {userToken}}), form, "", "", bare},
	} {
		got := rawBatch(t, tc.url, tc.contentType, tc.authorization, tc.body)
		if len(got) != 1 || string(got[0]) != tc.want {
			t.Errorf("%s: %s\nwant [%s]", tc.name, got, tc.want)
		}
	}

	// An entry's own token: its access_token, its relative_url's, its body's.
	f.ClearRequests()
	entries := []map[string]any{
		withToken(get("456?fields=followers_count"), pageToken),
		get("456?fields=followers_count&access_token=" + pageToken),
		{"method": "POST", "relative_url": "999", "body": "status=PAUSED&access_token=" + pageToken},
		get("456?fields=followers_count"),
	}
	got := rawBatch(t, base, form, "", batchForm(entries, url.Values{"access_token": {userToken}, "include_headers": {"false"}}))
	followers := `{"code":200,"body":"{\"followers_count\":1200,\"id\":\"456\"}"}`
	want := []string{followers, followers,
		`{"code":400,"body":"{\"error\":{\"code\":100,\"error_subcode\":33,\"fbtrace_id\":\"AbCdEf0fake\",\"message\":\"Unsupported post request. Object with ID '999' does not exist, cannot be loaded due to missing permissions, or does not support this operation.\",\"type\":\"GraphMethodException\"}}"}`,
		`{"code":400,"body":"{\"error\":{\"code\":210,\"fbtrace_id\":\"AbCdEf0fake\",\"message\":\"(#210) A page access token is required to request this resource.\",\"type\":\"OAuthException\"}}"}`}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("entry %d = %s\nwant %s", i, got[i], want[i])
		}
	}
	calls := f.Calls()
	wantCalls := []networkafake.Call{
		{Method: "GET", Path: "/456?fields=followers_count", Token: pageToken, Batched: true},
		{Method: "GET", Path: "/456?fields=followers_count&access_token=" + pageToken, Token: pageToken, Batched: true},
		{Method: "POST", Path: "/999", Token: pageToken, Body: "status=PAUSED", Batched: true},
		{Method: "GET", Path: "/456?fields=followers_count", Token: userToken, Batched: true},
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Fatalf("calls = %+v\nwant %+v", calls, wantCalls)
	}
}

// strconvQuote is s as a JSON string.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBatchJSONEntryBody: an entry whose body is JSON text (as a string or
// as an object) is refused on its own with network_a's whole error
// object, and carried out no further; the other entries are answered.
func TestBatchJSONEntryBody(t *testing.T) {
	f, base := world(t)
	f.ClearRequests()
	campaign := sdkCampaignBody("adboost-7")
	asText, _ := json.Marshal(campaign)
	entries := []map[string]any{
		{"method": "POST", "relative_url": "act_1/campaigns", "body": string(asText)},
		{"method": "POST", "relative_url": "act_1/campaigns", "body": campaign},
		{"method": "POST", "relative_url": "act_1/campaigns", "body": " [1]"},
		get("me?fields=id"),
	}
	got := rawBatch(t, base, form, "", batchForm(entries, url.Values{"access_token": {userToken}, "include_headers": {"false"}}))
	refusedEntry := `{"code":400,"body":"{\"error\":{\"code\":100,\"error_data\":\"{\\\"blame_field_specs\\\":[[\\\"body\\\"]]}\",` +
		`\"error_user_msg\":\"The body of a batch request is a form text (key=value pairs joined by &), not JSON.\",` +
		`\"error_user_title\":\"Invalid batch request body\",\"fbtrace_id\":\"AbCdEf0fake\",\"is_transient\":false,` +
		`\"message\":\"Invalid parameter\",\"type\":\"OAuthException\"}}"}`
	want := []string{refusedEntry, refusedEntry, refusedEntry, `{"code":200,"body":"{\"id\":\"5550001\"}"}`}
	for i := range want {
		if i >= len(got) || string(got[i]) != want[i] {
			t.Fatalf("entries = %s\nwant %s", got, want)
		}
	}
	if objects := f.Objects(""); len(objects) != 0 {
		t.Fatalf("a JSON body created %+v", objects)
	}
	asObject, _ := json.Marshal(campaign)
	wantCalls := []networkafake.Call{
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: string(asText), Batched: true},
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: string(asObject), Batched: true},
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: " [1]", Batched: true},
		{Method: "GET", Path: "/me?fields=id", Token: userToken, Batched: true},
	}
	if calls := f.Calls(); !reflect.DeepEqual(calls, wantCalls) {
		t.Fatalf("calls = %+v\nwant %+v", calls, wantCalls)
	}
}

// TestBatchNullEntries: in one batch request network_a carries out the
// first ad set create of each network_a campaign, whatever it answers, and
// answers null for the later ones, which are not carried out (no call, no
// object); every other entry is answered as the call alone. A later
// request carries out the campaign's next ad set create.
func TestBatchNullEntries(t *testing.T) {
	f, base := world(t)
	twin, twinBase := world(t)
	var camps []string
	for _, x := range []struct {
		f    *networkafake.Fake
		base string
	}{{f, base}, {twin, twinBase}} {
		x.f.AddPost("456", networkafake.Post{ID: "456_9001"})
		camps = []string{
			mustOK(t, "POST", x.base+"/act_1/campaigns", userToken, sdkCampaignBody("one"))["id"].(string),
			mustOK(t, "POST", x.base+"/act_1/campaigns", userToken, sdkCampaignBody("two"))["id"].(string),
		}
	}
	f.ClearRequests()
	f.ResetCounts()
	refusedFirst := sdkAdSetBody("", camps[1]) // no name: refused, and still the campaign's one create
	entries := []map[string]any{
		post("act_1/adsets", sdkAdSetBody("a", camps[0])),
		post("v25.0/act_1/adsets", sdkAdSetBody("b", camps[0])),
		get("me?fields=id"),
		post("act_1/adsets", refusedFirst),
		post("act_1/adsets", sdkAdSetBody("c", camps[1])),
		post("act_1/adsets", sdkAdSetBody("d", camps[0])),
		post("act_1/adsets", merge(sdkAdSetBody("e", ""), map[string]any{"campaign_id": nil})),
	}
	processed := []int{0, 2, 3, 6}
	got := rawBatch(t, base, form, "", batchForm(entries, url.Values{"access_token": {userToken}, "include_headers": {"false"}}))
	var sent []map[string]any
	for _, i := range processed {
		sent = append(sent, entries[i])
	}
	want := alone(t, twinBase, userToken, sent...)
	if len(got) != len(entries) {
		t.Fatalf("%d answers to %d entries", len(got), len(entries))
	}
	for i, j := 0, 0; i < len(entries); i++ {
		if j < len(processed) && processed[j] == i {
			var e entry
			if err := json.Unmarshal(got[i], &e); err != nil || e.Code != want[j].Code || e.Body != want[j].Body {
				t.Errorf("entry %d = %s\nwant %d %s", i, got[i], want[j].Code, want[j].Body)
			}
			j++
		} else if string(got[i]) != "null" {
			t.Errorf("entry %d = %s, want null", i, got[i])
		}
	}
	if requests, calls := f.Counts(); requests != 1 || calls != len(processed) || len(f.Calls()) != len(processed) {
		t.Fatalf("counts = %d, %d; calls %+v", requests, calls, f.Calls())
	}
	if objectNames(f) != objectNames(twin) {
		t.Fatalf("objects = %s, want %s", objectNames(f), objectNames(twin))
	}

	// The next request carries out the campaign's next create.
	again := []map[string]any{post("act_1/adsets", sdkAdSetBody("b", camps[0]))}
	got = rawBatch(t, base, form, "", batchForm(again, url.Values{"access_token": {userToken}, "include_headers": {"false"}}))
	want = alone(t, twinBase, userToken, again...)
	var e entry
	if err := json.Unmarshal(got[0], &e); err != nil || e.Code != want[0].Code || e.Body != want[0].Body {
		t.Fatalf("the next request = %s\nwant %d %s", got[0], want[0].Code, want[0].Body)
	}
}

// objectNames are the fake's objects as one comparable text.
func objectNames(f *networkafake.Fake) string {
	var out []string
	for _, o := range f.Objects("") {
		out = append(out, o.Kind+" "+o.ID+" "+o.Name)
	}
	return strings.Join(out, ", ")
}
