package networkafake_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// entry is one answer of a batch.
type entry struct {
	Code    int `json:"code"`
	Headers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
	Body string `json:"body"`
}

// jsonHeader is the only header of an entry without usage headers.
const jsonHeader = `[{Content-Type application/json; charset=UTF-8}]`

// headers are an entry's headers as one comparable text.
func (e entry) headers() string { return fmt.Sprint(e.Headers) }

// send sends one request and answers its status, headers and body.
func send(t *testing.T, method, rawURL, token, body string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, rawURL, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, strings.TrimSuffix(string(raw), "\n")
}

// batch sends a batch of entries (method, relative_url, body, access_token
// as maps) with the token and answers the entries' answers; it fails
// unless the batch answers 200.
func batch(t *testing.T, base, token string, entries ...map[string]any) []entry {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"batch": entries})
	status, _, body := send(t, "POST", base, token, string(b))
	if status != http.StatusOK {
		t.Fatalf("batch = %d %s", status, body)
	}
	var out []entry
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("batch answered %s: %v", body, err)
	}
	if len(out) != len(entries) {
		t.Fatalf("%d answers to %d entries: %s", len(out), len(entries), body)
	}
	return out
}

// get is a GET entry of a batch.
func get(relativeURL string) map[string]any {
	return map[string]any{"method": "GET", "relative_url": relativeURL}
}

// post is a POST entry of a batch, with body as its form text.
func post(relativeURL string, body map[string]any) map[string]any {
	return map[string]any{"method": "POST", "relative_url": relativeURL, "body": formText(body)}
}

// formText is body as network_a's form: strings as they are, numbers,
// booleans, objects and arrays as their compact JSON text, each value
// URL-encoded.
func formText(body map[string]any) string {
	v := url.Values{}
	for k, x := range body {
		if s, ok := x.(string); ok {
			v.Set(k, s)
			continue
		}
		b, _ := json.Marshal(x)
		v.Set(k, string(b))
	}
	return v.Encode()
}

// alone sends each entry alone to base (the versioned base of a twin fake,
// in the state the batch met), in order, with the entry's token or the
// given one, and answers each call's status and body: what each entry of
// the batch must answer.
func alone(t *testing.T, base, token string, entries ...map[string]any) []entry {
	t.Helper()
	root := base[:strings.LastIndex(base, "/v")]
	out := make([]entry, len(entries))
	for i, e := range entries {
		rel := strings.TrimPrefix(e["relative_url"].(string), "/")
		u := base + "/" + rel
		if regexp.MustCompile(`^v[0-9]+\.[0-9]+/`).MatchString(rel) {
			u = root + "/" + rel
		}
		tok := token
		if s, ok := e["access_token"].(string); ok {
			tok = s
		}
		body, _ := e["body"].(string)
		out[i].Code, _, out[i].Body = send(t, e["method"].(string), u, tok, body)
	}
	return out
}

// withToken gives the entry its own access token.
func withToken(e map[string]any, token string) map[string]any {
	e["access_token"] = token
	return e
}

// expiredAt is when the tests' expired token ended: 09:00 in Pacific time.
var expiredAt = time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC)

// TestBatch: each entry is answered as the same call alone, in order, with
// its own token or the request's; creates run the hook; the batch is one
// request and as many calls as entries.
func TestBatch(t *testing.T) {
	f, base := world(t)
	twin, twinBase := world(t)
	for _, x := range []*networkafake.Fake{f, twin} {
		x.AddPost("456", networkafake.Post{ID: "456_9001", Message: "#gym"})
		x.SetNow(func() time.Time { return expiredAt })
		x.ExpireToken("EAAgone")
	}
	var hooked []string
	answered := false
	f.AfterCreate(func(o networkafake.Object) {
		if answered {
			t.Error("the hook ran after the batch was answered")
		}
		hooked = append(hooked, o.Kind+" "+o.ID+" "+o.Name)
	})
	f.ClearRequests()
	f.ResetCounts()

	campaign := map[string]any{"name": "adboost-7", "objective": "OUTCOME_TRAFFIC", "status": "ACTIVE",
		"special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false}
	filter := url.QueryEscape(`[{"field":"name","operator":"EQUAL","value":"adboost-7"}]`)
	entries := []map[string]any{
		get("me?fields=id,first_name,last_name,email"),
		post("/v25.0/act_1/campaigns", campaign),
		withToken(get("v25.0/456?fields=followers_count"), pageToken),
		get("/456?fields=followers_count"),
		post("act_1/campaigns", map[string]any{"name": "no objective", "special_ad_categories": []any{}}),
		get("act_1/campaigns?fields=id,name,status&filtering=" + filter),
		withToken(get("me?fields=id,first_name,last_name,email"), "EAAgone"),
		post("act_1/campaigns", merge(campaign, map[string]any{"name": "adboost-8"})),
	}
	got := batch(t, base, userToken, entries...)
	answered = true
	checkBatchAnswers(t, got, alone(t, twinBase, userToken, entries...))
	// The hook ran for what the calls alone created, in order.
	var created []string
	for _, o := range twin.Objects("") {
		created = append(created, o.Kind+" "+o.ID+" "+o.Name)
	}
	if !reflect.DeepEqual(hooked, created) {
		t.Fatalf("hook ran for %v, want %v", hooked, created)
	}
	checkBatchRecorded(t, f, campaign, filter)
	checkBatchPagingLink(t, f, base)
}

// checkBatchAnswers checks each batch entry is answered as the same call
// alone, and the reads that do not depend on the creates exactly.
func checkBatchAnswers(t *testing.T, got, want []entry) {
	t.Helper()
	for i, w := range want {
		if got[i].Code != w.Code || got[i].Body != w.Body || got[i].headers() != jsonHeader {
			t.Errorf("entry %d = %d %s %s\nwant %d %s", i, got[i].Code, got[i].Body, got[i].headers(), w.Code, w.Body)
		}
	}
	// The reads that do not depend on the creates, exactly.
	for i, w := range map[int]string{
		0: `{"email":"ana@network-a.example","first_name":"Ana","id":"5550001","last_name":"Nováková"}`,
		2: `{"followers_count":1200,"id":"456"}`,
		3: `{"error":{"code":210,"fbtrace_id":"AbCdEf0fake","message":"(#210) A page access token is required to request this resource.","type":"OAuthException"}}`,
		6: `{"error":{"code":190,"error_subcode":463,"fbtrace_id":"AbCdEf0fake","message":"Error validating access token: Session has expired on Monday, 23-Nov-26 09:00:00 PST. The current time is Monday, 23-Nov-26 09:00:00 PST.","type":"OAuthException"}}`,
	} {
		if got[i].Body != w {
			t.Errorf("entry %d = %s\nwant %s", i, got[i].Body, w)
		}
	}
}

// checkBatchRecorded checks the batch was one request and eight calls, each
// with the token it used.
func checkBatchRecorded(t *testing.T, f *networkafake.Fake, campaign map[string]any, filter string) {
	t.Helper()
	// One request, eight calls, each with the token it used.
	if reqs := f.Requests(); len(reqs) != 1 || reqs[0].Method != "POST" || reqs[0].Path != "/v25.0" || reqs[0].Authorization != "Bearer "+userToken {
		t.Fatalf("requests = %+v", reqs)
	}
	wantCalls := []networkafake.Call{
		{Method: "GET", Path: "/me?fields=id,first_name,last_name,email", Token: userToken, Batched: true},
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: formText(campaign), Batched: true},
		{Method: "GET", Path: "/456?fields=followers_count", Token: pageToken, Batched: true},
		{Method: "GET", Path: "/456?fields=followers_count", Token: userToken, Batched: true},
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: "name=no+objective&special_ad_categories=%5B%5D", Batched: true},
		{Method: "GET", Path: "/act_1/campaigns?fields=id,name,status&filtering=" + filter, Token: userToken, Batched: true},
		{Method: "GET", Path: "/me?fields=id,first_name,last_name,email", Token: "EAAgone", Batched: true},
	}
	calls := f.Calls()
	if len(calls) != 8 || !reflect.DeepEqual(calls[:7], wantCalls) {
		t.Fatalf("calls = %+v\nwant %+v", calls, wantCalls)
	}
	if requests, n := f.Counts(); requests != 1 || n != 8 {
		t.Fatalf("counts = %d requests, %d calls; want 1, 8", requests, n)
	}
}

// checkBatchPagingLink checks a paging link in a batch under no version
// prefix, with a page's token, keeps the entry's own prefix.
func checkBatchPagingLink(t *testing.T, f *networkafake.Fake, base string) {
	t.Helper()
	// Under no version prefix, with a page's token, a paging link keeps the
	// entry's own prefix.
	for i := range 3 {
		f.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_100%d", i), Created: time.Date(2026, 11, 20, i, 0, 0, 0, time.UTC)})
	}
	root := strings.TrimSuffix(base, "/v25.0")
	got := batch(t, root+"/", pageToken, get("v25.0/456/posts?fields=id&limit=1"))
	var posts struct {
		Paging struct{ Next string } `json:"paging"`
	}
	if err := json.Unmarshal([]byte(got[0].Body), &posts); err != nil || got[0].Code != 200 ||
		posts.Paging.Next != root+"/v25.0/456/posts?access_token="+pageToken+"&after=1&fields=id&limit=1" {
		t.Fatalf("posts in a batch = %d %s", got[0].Code, got[0].Body)
	}
}

// TestBatchRefused: a batch with a bad token, too many entries, none, or a
// body that is not a batch fails whole, and no call is handled.
func TestBatchRefused(t *testing.T) {
	f, base := world(t)
	f.SetNow(func() time.Time { return expiredAt })
	f.ExpireToken("EAAgone")
	f.ResetCounts()
	one := `{"batch":[{"method":"GET","relative_url":"me?fields=id,first_name,last_name,email"}]}`
	var many []map[string]any
	for range networkafake.MaxBatch + 1 {
		many = append(many, get("me?fields=id,first_name,last_name,email"))
	}
	tooMany, _ := json.Marshal(map[string]any{"batch": many})
	for _, tc := range []struct{ name, token, body, want string }{
		{"no token", "", one, `400 {"error":{"code":190,"fbtrace_id":"AbCdEf0fake","message":"An active access token must be used to query information about the current user.","type":"OAuthException"}}`},
		{"expired token", "EAAgone", one, `400 {"error":{"code":190,"error_subcode":463,"fbtrace_id":"AbCdEf0fake","message":"Error validating access token: Session has expired on Monday, 23-Nov-26 09:00:00 PST. The current time is Monday, 23-Nov-26 09:00:00 PST.","type":"OAuthException"}}`},
		{"unknown token", "EAAnobody", one, `401 {"error":{"code":190,"fbtrace_id":"AbCdEf0fake","message":"Invalid OAuth access token - Cannot parse access token","type":"OAuthException"}}`},
		{"51 entries", userToken, string(tooMany), `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) Too many requests in batch message. Maximum batch size is 50","type":"OAuthException"}}`},
		{"no entries", userToken, `{"batch":[]}`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The parameter batch is required and holds at least one request","type":"OAuthException"}}`},
		{"empty form", userToken, `batch=[]`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The parameter batch is required and holds at least one request","type":"OAuthException"}}`},
		{"no batch", userToken, `include_headers=true`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The parameter batch is required and holds at least one request","type":"OAuthException"}}`},
		{"batch not an array", userToken, `batch=%7B%7D`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The parameter batch must be a JSON array of requests","type":"OAuthException"}}`},
		{"not a form", userToken, `batch=%zz`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The body must be a form or a JSON object with the parameter batch","type":"OAuthException"}}`},
		{"JSON not an object", userToken, `{"batch":`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) The body must be a form or a JSON object with the parameter batch","type":"OAuthException"}}`},
		{"entry without method", userToken, `{"batch":[{"relative_url":"me"}]}`, `400 {"error":{"code":100,"fbtrace_id":"AbCdEf0fake","message":"(#100) Batch request 0 needs a method and a relative_url","type":"OAuthException"}}`},
	} {
		status, _, body := send(t, "POST", base, tc.token, tc.body)
		if got := fmt.Sprint(status, " ", body); got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if requests, calls := f.Counts(); requests != 11 || calls != 0 || len(f.Calls()) != 0 {
		t.Fatalf("counts = %d, %d; calls %+v", requests, calls, f.Calls())
	}
	// 50 entries are taken.
	batch(t, base, userToken, many[:networkafake.MaxBatch]...)
}

// TestBatchSwitches: the delay and the faults apply once to the whole
// request; scripted failures and their headers to the entries they match,
// or to the batch as a whole.
func TestBatchSwitches(t *testing.T) {
	f, base := world(t)
	meEntry := get("me?fields=id,first_name,last_name,email")
	var ten []map[string]any
	for range 10 {
		ten = append(ten, meEntry)
	}
	f.SetDelay(150 * time.Millisecond)
	start := time.Now()
	batch(t, base, userToken, ten...)
	if d := time.Since(start); d < 150*time.Millisecond || d >= 10*150*time.Millisecond {
		t.Fatalf("a batch of 10 with a delay of 150 ms answered after %v", d)
	}
	f.SetDelay(0)

	f.ResetCounts()
	f.SetFault(networkafake.FaultError500)
	status, _, body := send(t, "POST", base, userToken, `{"batch":[{"method":"GET","relative_url":"me"}]}`)
	if status != 500 || !strings.Contains(body, `"code":2`) {
		t.Fatalf("a batch under FaultError500 = %d %s", status, body)
	}
	f.SetFault(networkafake.FaultNone)
	if requests, calls := f.Counts(); requests != 1 || calls != 0 {
		t.Fatalf("counts under a fault = %d, %d", requests, calls)
	}

	// The first read is scripted, the second is not.
	usage := `{"1":[{"type":"ads_management","call_count":95,"total_cputime":20,"total_time":20,"estimated_time_to_regain_access":0}]}`
	f.FailCalls("GET", "act_1/campaigns", 1, networkafake.Error{Code: 80004, Subcode: 2446079,
		Message: "(#80004) There have been too many calls to this ad-account.", Headers: map[string]string{"X-Business-Use-Case-Usage": usage}})
	got := batch(t, base, userToken, get("act_1/campaigns?fields=id"), get("v25.0/act_1/campaigns?fields=id"))
	if e := got[0]; e.Code != 400 || e.Body != `{"error":{"code":80004,"error_subcode":2446079,"fbtrace_id":"AbCdEf0fake","message":"(#80004) There have been too many calls to this ad-account.","type":"OAuthException"}}` ||
		e.headers() != `[{Content-Type application/json; charset=UTF-8} {X-Business-Use-Case-Usage `+usage+`}]` {
		t.Fatalf("scripted entry = %+v", e)
	}
	if e := got[1]; e.Code != 200 || e.Body != `{"data":[]}` || e.headers() != jsonHeader {
		t.Fatalf("entry after the script = %+v", e)
	}
	// A plain call carries the scripted headers as HTTP headers.
	f.FailCalls("GET", "me", 1, networkafake.Error{Code: 4, Message: "(#4) Application request limit reached",
		Headers: map[string]string{"X-App-Usage": `{"call_count":100}`}})
	status, header, _ := send(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, "")
	if status != 400 || header.Get("X-App-Usage") != `{"call_count":100}` {
		t.Fatalf("scripted plain call = %d %v", status, header)
	}

	// ("POST", "") scripts the batch request itself.
	f.FailCalls("POST", "", 1, networkafake.RateLimited())
	status, _, body = send(t, "POST", base, userToken, `{"batch":[{"method":"GET","relative_url":"me"}]}`)
	if status != 400 || body != `{"error":{"code":17,"fbtrace_id":"AbCdEf0fake","message":"(#17) User request limit reached","type":"OAuthException"}}` {
		t.Fatalf("scripted batch = %d %s", status, body)
	}
	batch(t, base, userToken, meEntry)
}

// TestCallsAndCounts: plain requests are calls too; TakeCalls, ClearRequests
// and TakeRequests forget them; without recording only the counts go on.
func TestCallsAndCounts(t *testing.T) {
	f, base := world(t)
	mustOK(t, "GET", base+"/456/posts?fields=id&since=1700000000", pageToken, nil)
	mustOK(t, "POST", base+"/act_1/campaigns/", userToken, map[string]any{"name": "n", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})
	call(t, "GET", strings.TrimSuffix(base, "/v25.0")+"/me", "", nil)
	want := []networkafake.Call{
		{Method: "GET", Path: "/456/posts?fields=id&since=1700000000", Token: pageToken},
		{Method: "POST", Path: "/act_1/campaigns", Token: userToken, Body: `{"is_adset_budget_sharing_enabled":false,"name":"n","objective":"OUTCOME_ENGAGEMENT","special_ad_categories":[]}`},
		{Method: "GET", Path: "/me"},
	}
	if got := f.TakeCalls(); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls = %+v\nwant %+v", got, want)
	}
	if got := f.Calls(); len(got) != 0 {
		t.Fatalf("TakeCalls kept %+v", got)
	}
	if requests, calls := f.Counts(); requests != 3 || calls != 3 {
		t.Fatalf("counts = %d, %d", requests, calls)
	}
	mustOK(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, nil)
	f.ClearRequests()
	if len(f.Calls()) != 0 || len(f.Requests()) != 0 {
		t.Fatal("ClearRequests kept calls or requests")
	}
	mustOK(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, nil)
	if seen := f.TakeRequests(); len(seen) != 1 || len(f.Calls()) != 0 {
		t.Fatalf("TakeRequests answered %d requests and kept %d calls", len(seen), len(f.Calls()))
	}

	f.SetRecording(false)
	f.ResetCounts()
	mustOK(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, nil)
	batch(t, base, userToken, get("me?fields=id,first_name,last_name,email"), get("me?fields=id,first_name,last_name,email"))
	if len(f.Requests()) != 0 || len(f.Calls()) != 0 {
		t.Fatal("recorded while recording is off")
	}
	if requests, calls := f.Counts(); requests != 2 || calls != 3 {
		t.Fatalf("counts without recording = %d, %d; want 2, 3", requests, calls)
	}
	f.SetRecording(true)
	mustOK(t, "GET", base+"/me?fields=id,first_name,last_name,email", userToken, nil)
	if len(f.Requests()) != 1 || len(f.Calls()) != 1 {
		t.Fatal("recording on again recorded nothing")
	}
}
