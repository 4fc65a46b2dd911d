package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// goal is a named string type, as a caller's typed values are.
type goal string

// TestFormEncode: each kind of value as network_a's SDKs write it: text and
// numbers as they are, objects, arrays, booleans and raw JSON as compact
// JSON, a nil value left out, every value URL-encoded.
func TestFormEncode(t *testing.T) {
	t.Parallel()
	f := Form{
		"text":    "a&b=c d+e%f?g#h ü€ 日本",
		"typed":   goal("POST_ENGAGEMENT"),
		"int":     2500,
		"int32":   int32(-7),
		"int64":   int64(9007199254740993),
		"float":   1.5,
		"big":     1e21,
		"number":  json.Number("12345678901234567890"),
		"yes":     true,
		"no":      false,
		"list":    []string{"CZ", "SK"},
		"empty":   []string{},
		"anys":    []any{},
		"object":  map[string]any{"geo_locations": map[string]any{"countries": []string{"CZ"}}, "age_min": 18, "note": "<b>&</b>"},
		"raw":     json.RawMessage("{ \"page_id\" :\n \"11\" }"),
		"nothing": nil,
	}
	text, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := url.ParseQuery(text)
	if err != nil {
		t.Fatalf("%q is not a form: %v", text, err)
	}
	want := url.Values{
		"text":   {"a&b=c d+e%f?g#h ü€ 日本"},
		"typed":  {"POST_ENGAGEMENT"},
		"int":    {"2500"},
		"int32":  {"-7"},
		"int64":  {"9007199254740993"},
		"float":  {"1.5"},
		"big":    {"1000000000000000000000"},
		"number": {"12345678901234567890"},
		"yes":    {"true"},
		"no":     {"false"},
		"list":   {`["CZ","SK"]`},
		"empty":  {`[]`},
		"anys":   {`[]`},
		"object": {`{"age_min":18,"geo_locations":{"countries":["CZ"]},"note":"\u003cb\u003e\u0026\u003c/b\u003e"}`},
		"raw":    {`{"page_id":"11"}`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("form %s\nreads %v\nwant  %v", text, got, want)
	}
	// The text itself: keys in order, each value escaped.
	small, err := Form{"name": "a&b=c ü", "n": 1, "on": true, "l": []string{"x y"}, "s": goal("A")}.Encode()
	if want := "l=%5B%22x+y%22%5D&n=1&name=a%26b%3Dc+%C3%BC&on=true&s=A"; err != nil || small != want {
		t.Fatalf("Encode = %q, %v; want %q", small, err, want)
	}
	if empty, err := (Form{}).Encode(); err != nil || empty != "" {
		t.Fatalf("an empty form = %q, %v", empty, err)
	}
	if _, err := (Form{"bad": map[string]any{"c": make(chan int)}}).Encode(); err == nil || !strings.Contains(err.Error(), "form field bad") {
		t.Fatalf("a value JSON cannot write = %v, want an error naming the field", err)
	}
}

// TestFormBodiesReachNetworkA: a create and an update, alone and as batch
// entries, reach the fake as forms whose fields it reads back as sent:
// objects, lists, booleans and numbers included. A plain call says its
// body is a form; a batch is POST / as a form.
func TestFormBodiesReachNetworkA(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			c := newClient(t, base, Options{Batch: batch, Calls: 1, Linger: 100 * time.Millisecond})
			ctx := context.Background()
			s := Scope{User: "1", AdAccount: "act_1"}
			campaign, err := c.Create(ctx, tokenA, "campaign", campaignBody("adboost-7 & <co> ü"), s)
			if err != nil {
				t.Fatal(err)
			}
			body := adSetBody("adboost-7", campaign)
			body["targeting"] = map[string]any{"geo_locations": map[string]any{"countries": []string{"CL", "PE"}},
				"age_min": 21, "targeting_automation": map[string]any{"advantage_audience": 0}}
			body["promoted_object"] = json.RawMessage(`{"page_id": "11"}`)
			body["optimization_goal"] = goal("POST_ENGAGEMENT")
			ids, errs := c.CreateMany(ctx, tokenA, "adset", []map[string]any{body, adSetBody("adboost-8", "")}, s)
			if errs[0] != nil || ids[0] == "" {
				t.Fatalf("ad set create = %q, %v", ids[0], errs[0])
			}
			var e *Error
			if !errors.As(errs[1], &e) || e.Code != 100 || ids[1] != "" {
				t.Fatalf("ad set create without a campaign = %q, %v; want refused", ids[1], errs[1])
			}
			if err := c.Update(ctx, tokenA, ids[0], map[string]any{"daily_budget": int64(3000), "end_time": "2026-12-31T23:59:59Z"}, s); err != nil {
				t.Fatal(err)
			}

			campaigns, adsets := fake.Objects("campaign"), fake.Objects("adset")
			if len(campaigns) != 1 || campaigns[0].Name != "adboost-7 & <co> ü" ||
				!reflect.DeepEqual(campaigns[0].Fields["special_ad_categories"], []any{}) || campaigns[0].Fields["is_adset_budget_sharing_enabled"] != false {
				t.Fatalf("campaigns %+v", campaigns)
			}
			wantFields := map[string]any{"name": "adboost-7", "campaign_id": campaign, "daily_budget": json.Number("3000"),
				"bid_strategy": "LOWEST_COST_WITHOUT_CAP", "billing_event": "IMPRESSIONS", "optimization_goal": "POST_ENGAGEMENT",
				"destination_type": "ON_POST", "promoted_object": map[string]any{"page_id": "11"},
				"targeting": map[string]any{"geo_locations": map[string]any{"countries": []any{"CL", "PE"}},
					"age_min": json.Number("21"), "targeting_automation": map[string]any{"advantage_audience": json.Number("0")}},
				"status": "ACTIVE", "end_time": "2026-12-31T23:59:59Z"}
			if len(adsets) != 1 || !reflect.DeepEqual(adsets[0].Fields, wantFields) {
				t.Fatalf("ad sets %+v\nwant fields %v", adsets, wantFields)
			}

			expectFormCalls(t, fake, campaign, ids[0], batch)
		})
	}
}

// expectFormCalls checks the calls of TestFormBodiesReachNetworkA: the
// campaign, the two ad set creates (the second refused) and the update,
// each with its exact form.
func expectFormCalls(t *testing.T, fake *networkafake.Fake, campaign, adset string, batch bool) {
	t.Helper()
	calls := fake.Calls()
	if len(calls) != 4 {
		t.Fatalf("%d calls, want 4: %+v", len(calls), calls)
	}
	want := []struct {
		path, body string
		batched    bool
	}{
		{"/act_1/campaigns", "is_adset_budget_sharing_enabled=false&name=adboost-7+%26+%3Cco%3E+%C3%BC&objective=OUTCOME_ENGAGEMENT&special_ad_categories=%5B%5D&status=ACTIVE", false},
		{"/act_1/adsets", "bid_strategy=LOWEST_COST_WITHOUT_CAP&billing_event=IMPRESSIONS&campaign_id=" + campaign +
			"&daily_budget=2500&destination_type=ON_POST&name=adboost-7&optimization_goal=POST_ENGAGEMENT" +
			"&promoted_object=%7B%22page_id%22%3A%2211%22%7D&status=ACTIVE" +
			"&targeting=%7B%22age_min%22%3A21%2C%22geo_locations%22%3A%7B%22countries%22%3A%5B%22CL%22%2C%22PE%22%5D%7D%2C%22targeting_automation%22%3A%7B%22advantage_audience%22%3A0%7D%7D", batch},
		{"/act_1/adsets", "", batch},
		{"/" + adset, "daily_budget=3000&end_time=2026-12-31T23%3A59%3A59Z", false},
	}
	for i, w := range want {
		cl := calls[i]
		if i == 2 {
			w.body = cl.Body // the refused create: its form is read below
			if f := formOf(t, cl.Body); f.Get("campaign_id") != "" || f.Get("name") != "adboost-8" {
				t.Errorf("call 2 body %q", cl.Body)
			}
		}
		if cl.Method != "POST" || cl.Path != w.path || cl.Body != w.body || cl.Batched != w.batched || cl.Token != tokenA {
			t.Errorf("call %d = %+v\nwant POST %s %s (batched %v)", i, cl, w.path, w.body, w.batched)
		}
	}
	reqs := fake.Requests()
	if batch {
		if len(reqs) != 3 {
			t.Fatalf("%d requests, want 3", len(reqs))
		}
		b := parseBatchBody(t, reqs[1])
		if len(b.Batch) != 2 || b.Batch[0].Method != "POST" || b.Batch[0].RelativeURL != "act_1/adsets" || b.Batch[0].Body != want[1].body ||
			b.Batch[0].AccessToken != "" {
			t.Fatalf("batch %+v", b)
		}
	}
}

// TestFormContentType: a call with a body says it is a form; a GET sends
// neither a body nor a content type; a batch is POST / as a form.
func TestFormContentType(t *testing.T) {
	t.Parallel()
	api := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			io.WriteString(w, `[{"code":200,"body":"{\"id\":\"1\"}"},{"code":200,"body":"{\"id\":\"2\"}"}]`)
			return
		}
		io.WriteString(w, `{"id":"5","success":true}`)
	})
	plain := newClient(t, api.URL, Options{})
	ctx := context.Background()
	if err := plain.Update(ctx, tokenA, "5", map[string]any{"status": "PAUSED"}, Scope{}); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Followers(ctx, tokenA, "5", Scope{}); err != nil {
		t.Fatal(err)
	}
	batched := newClient(t, api.URL, Options{Batch: true, Linger: 200 * time.Millisecond})
	ids, errs := batched.CreateMany(ctx, tokenA, "campaign", []map[string]any{{"name": "a"}, {"name": "b"}}, Scope{AdAccount: "act_1"})
	if !reflect.DeepEqual(ids, []string{"1", "2"}) || errs[0] != nil || errs[1] != nil {
		t.Fatalf("CreateMany = %v, %v", ids, errs)
	}
	entries := `[{"method":"POST","relative_url":"act_1/campaigns","body":"name=a"},{"method":"POST","relative_url":"act_1/campaigns","body":"name=b"}]`
	want := []seen{
		{Method: "POST", URI: "/5", Authorization: "Bearer " + tokenA, Body: "status=PAUSED", ContentType: "application/x-www-form-urlencoded"},
		{Method: "GET", URI: "/5?fields=followers_count", Authorization: "Bearer " + tokenA},
		{Method: "POST", URI: "/", Authorization: "Bearer " + tokenA, ContentType: "application/x-www-form-urlencoded",
			Body: url.Values{"batch": {entries}, "include_headers": {"true"}}.Encode()},
	}
	if got := api.requests(); !reflect.DeepEqual(got, want) {
		t.Fatalf("requests\n%+v\nwant\n%+v", got, want)
	}
}

// TestFormNotEncodedNotSent: a body JSON cannot write is an error of its
// call alone, settled and never sent, plain or batched; the other calls of
// a batch go on.
func TestFormNotEncodedNotSent(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			c := newClient(t, base, Options{Batch: batch, Linger: 100 * time.Millisecond})
			bad := map[string]any{"name": "bad", "targeting": map[string]any{"x": make(chan int)}}
			ids, errs := c.CreateMany(context.Background(), tokenA, "campaign", []map[string]any{bad, campaignBody("good")}, Scope{User: "1", AdAccount: "act_1"})
			if errs[0] == nil || !Settled(errs[0]) || KindOf(errs[0]) != 0 || ids[0] != "" || !strings.Contains(errs[0].Error(), "form field targeting") {
				t.Fatalf("the body that cannot be written = %q, %v", ids[0], errs[0])
			}
			if errs[1] != nil || ids[1] == "" {
				t.Fatalf("the other create = %q, %v", ids[1], errs[1])
			}
			calls := fake.Calls()
			if len(calls) != 1 || formOf(t, calls[0].Body).Get("name") != "good" {
				t.Fatalf("calls %+v, want only the good create", calls)
			}
		})
	}
}

// TestAdSetCreatesOfOneCampaign: network_a carries out one ad set create
// per network_a campaign in a batch request and answers the others null;
// those are sent again until each is carried out: five ad sets of one
// campaign and one of another, made at once, are each made once and
// answered with their own ids.
func TestAdSetCreatesOfOneCampaign(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c := newClient(t, base, Options{Batch: true, Calls: 1, Linger: 200 * time.Millisecond})
	ctx := context.Background()
	s := Scope{User: "1", AdAccount: "act_1"}
	campaigns, errs := c.CreateMany(ctx, tokenA, "campaign", []map[string]any{campaignBody("adboost-1"), campaignBody("adboost-2")}, s)
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	fake.ClearRequests()
	var bodies []map[string]any
	for i := range 5 {
		bodies = append(bodies, adSetBody(fmt.Sprintf("as-%d", i), campaigns[0]))
	}
	bodies = append(bodies, adSetBody("as-other", campaigns[1]))
	ids, errs := c.CreateMany(ctx, tokenA, "adset", bodies, s)

	byID := map[string]networkafake.Object{}
	for _, o := range fake.Objects("adset") {
		byID[o.ID] = o
	}
	if len(byID) != 6 {
		t.Fatalf("%d ad sets made, want 6: %v", len(byID), byID)
	}
	for i, b := range bodies {
		if o := byID[ids[i]]; errs[i] != nil || o.Name != b["name"] || o.Fields["campaign_id"] != b["campaign_id"] {
			t.Errorf("create %d (%s) = %q (%s), %v", i, b["name"], ids[i], o.Name, errs[i])
		}
	}
	// Each round carries out the first ad set of each campaign; the last
	// one left goes alone, as a plain request.
	var sizes []int
	reqs := fake.Requests()
	for _, r := range reqs[:len(reqs)-1] {
		sizes = append(sizes, len(parseBatchBody(t, r).Batch))
	}
	if last := reqs[len(reqs)-1]; last.Method != "POST" || last.Path != "/v25.0/act_1/adsets" || formOf(t, last.Body).Get("name") != "as-4" {
		t.Fatalf("last request %+v, want the fifth ad set alone", last)
	}
	if want := []int{6, 4, 3, 2}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("batch sizes %v, want %v", sizes, want)
	}
	var made []string
	for _, cl := range fake.Calls() {
		made = append(made, formOf(t, cl.Body).Get("name"))
	}
	if want := []string{"as-0", "as-other", "as-1", "as-2", "as-3", "as-4"}; !reflect.DeepEqual(made, want) {
		t.Fatalf("creates carried out in the order %v, want %v", made, want)
	}
}

// TestUnprocessedGivesUp: a call network_a answers null in every batch is
// sent again MaxUnprocessed times, then fails as unavailable and settled
// (it was not carried out).
func TestUnprocessedGivesUp(t *testing.T) {
	t.Parallel()
	var api *server
	api = serve(t, func(w http.ResponseWriter, r *http.Request) {
		reqs := api.requests() // one request at a time: this one is the last
		form, _ := url.ParseQuery(reqs[len(reqs)-1].Body)
		var entries []json.RawMessage
		if r.URL.Path != "/" || json.Unmarshal([]byte(form.Get("batch")), &entries) != nil {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		io.WriteString(w, "["+strings.Repeat("null,", len(entries)-1)+"null]")
	})
	// The unprocessed calls fill every batch: each round is one request.
	c := newClient(t, api.URL, Options{Batch: true, Calls: 1, Linger: time.Minute})
	ids := make([]string, MaxBatch)
	for i := range ids {
		ids[i] = fmt.Sprintf("11_%d", i)
	}
	reaches, errs := c.PostReaches(context.Background(), page11, ids, Scope{})
	for i, err := range errs {
		want := fmt.Sprintf("network_a is unavailable: GET /11_%d/insights: network_a did not process the call in %d batches", i, MaxUnprocessed+1)
		if err == nil || err.Error() != want || !errors.Is(err, ErrUnavailable) || !Temporary(err) || !Settled(err) || reaches[i] != 0 {
			t.Fatalf("call %d = %d, %v; want %q, settled", i, reaches[i], err, want)
		}
	}
	reqs := api.requests()
	if len(reqs) != MaxUnprocessed+1 {
		t.Fatalf("%d requests, want %d", len(reqs), MaxUnprocessed+1)
	}
	for _, r := range reqs {
		if r.Method != "POST" || r.URI != "/" {
			t.Fatalf("request %+v is no batch", r)
		}
	}
}
