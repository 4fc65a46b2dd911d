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
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// held answers a batching client with one request slot, taken by a call
// (Me of tokenB) that its transport holds until release is called: calls
// made meanwhile wait in the queue and go out together afterwards. The
// held call's error comes on the channel.
func held(t *testing.T, base string, opts Options) (c *Client, g *gate, release func(), blocker <-chan error) {
	t.Helper()
	g = newGate()
	opts.Batch, opts.Calls, opts.Transport = true, 1, g
	c = newClient(t, base, opts)
	errc := make(chan error, 1)
	go func() { _, err := c.Me(context.Background(), tokenB); errc <- err }()
	select {
	case <-g.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the held call was not sent")
	}
	var once sync.Once
	release = func() { once.Do(func() { close(g.release) }) }
	t.Cleanup(release)
	return c, g, release, errc
}

// enqueue runs f, which makes n calls at once with the context it is given,
// in a goroutine, and answers once every call is queued; the channel is
// closed when f returns.
func enqueue(t *testing.T, n int, f func(ctx context.Context)) <-chan struct{} {
	t.Helper()
	q := &queuedCtx{Context: context.Background(), queued: make(chan struct{})}
	q.n.Store(int32(1 - n)) // n enqueues ask Done once each; the first wait asks it once more
	done := make(chan struct{})
	go func() { defer close(done); f(q) }()
	await(t, q.queued, "calls to be queued")
	return done
}

// batchBody is a batch request's body as the client sent it.
type batchBody struct {
	Batch []struct {
		Method      string `json:"method"`
		RelativeURL string `json:"relative_url"`
		Body        string `json:"body"`
		AccessToken string `json:"access_token"`
	} `json:"batch"`
}

// parseBatchBody reads a batch request as network_a reads it: POST / with
// a form of exactly two fields, batch (the entries as a JSON array) and
// include_headers=true.
func parseBatchBody(t *testing.T, r networkafake.Request) batchBody {
	t.Helper()
	var b batchBody
	if r.Method != "POST" || r.Path != "/v25.0/" {
		t.Fatalf("request %s %s is no batch", r.Method, r.Path)
	}
	form, err := url.ParseQuery(r.Body)
	if err != nil || len(form) != 2 || len(form["batch"]) != 1 || !reflect.DeepEqual(form["include_headers"], []string{"true"}) {
		t.Fatalf("batch body %s is not the form batch=…&include_headers=true (%v)", r.Body, err)
	}
	d := json.NewDecoder(strings.NewReader(form.Get("batch")))
	d.DisallowUnknownFields()
	if err := d.Decode(&b.Batch); err != nil {
		t.Fatalf("batch entries %s: %v", form.Get("batch"), err)
	}
	return b
}

// TestBatchConcurrentCalls: 120 concurrent callers with three tokens go out
// in batch requests of at most 50 entries (50, 50, 20); an entry carries
// its own token only when it differs from the request's; each caller gets
// the answer for its own token.
func TestBatchConcurrentCalls(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c, _, release, blocker := held(t, base, Options{})
	tokens := []string{tokenA, tokenB, tokenC}
	const n = 120
	ids := make([]int64, n)
	var done []<-chan struct{}
	for i := 0; i < n; i++ {
		done = append(done, enqueue(t, 1, func(ctx context.Context) {
			p, err := c.Me(ctx, tokens[i%3])
			if err != nil {
				t.Errorf("caller %d: %v", i, err)
			}
			ids[i] = p.ID
		}))
	}
	release()
	for _, d := range done {
		await(t, d, "the callers")
	}
	if err := <-blocker; err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if id != int64(i%3+1) {
			t.Fatalf("caller %d with %s got user %d", i, tokens[i%3], id)
		}
	}

	reqs := fake.Requests()
	if len(reqs) != 4 || reqs[0].Method != "GET" {
		t.Fatalf("%d requests, want the held one and 3 batches", len(reqs))
	}
	var sizes []int
	byToken := map[string]int{}
	for _, r := range reqs[1:] {
		b := parseBatchBody(t, r)
		sizes = append(sizes, len(b.Batch))
		bearer := strings.TrimPrefix(r.Authorization, "Bearer ")
		for _, e := range b.Batch {
			if e.Method != "GET" || e.RelativeURL != "me?fields=id%2Cfirst_name%2Clast_name%2Cemail" || e.Body != "" || e.AccessToken == bearer {
				t.Fatalf("entry %+v of a batch sent with %s", e, bearer)
			}
			token := e.AccessToken
			if token == "" {
				token = bearer
			}
			byToken[token]++
		}
	}
	if want := []int{50, 50, 20}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("batch sizes %v, want %v", sizes, want)
	}
	if want := map[string]int{tokenA: 40, tokenB: 40, tokenC: 40}; !reflect.DeepEqual(byToken, want) {
		t.Fatalf("entries by token %v, want %v", byToken, want)
	}
	calls := fake.Calls()
	byToken = map[string]int{}
	for _, cl := range calls[1:] {
		if !cl.Batched || cl.Path != "/me?fields=id%2Cfirst_name%2Clast_name%2Cemail" {
			t.Fatalf("call %+v", cl)
		}
		byToken[cl.Token]++
	}
	if want := map[string]int{tokenA: 40, tokenB: 40, tokenC: 40}; len(calls) != 121 || calls[0].Batched || !reflect.DeepEqual(byToken, want) {
		t.Fatalf("%d calls, by token %v", len(calls), byToken)
	}
	if requests, ncalls := fake.Counts(); requests != 4 || ncalls != 121 {
		t.Fatalf("counts %d requests, %d calls; want 4, 121", requests, ncalls)
	}
}

// TestBatchSingleCallIsPlain: a call alone goes out as a plain request, a
// GET as a GET, a create as a POST with its form body.
func TestBatchSingleCallIsPlain(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c := newClient(t, base, Options{Batch: true})
	ctx := context.Background()
	if p, err := c.Me(ctx, tokenA); err != nil || p.ID != 1 {
		t.Fatalf("Me = %+v, %v", p, err)
	}
	id, err := c.Create(ctx, tokenA, "campaign", campaignBody("adboost-7"), Scope{AdAccount: "act_1"})
	if err != nil || id == "" {
		t.Fatalf("Create = %q, %v", id, err)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 ||
		reqs[0].Method != "GET" || reqs[0].Path != "/v25.0/me?fields=id%2Cfirst_name%2Clast_name%2Cemail" || reqs[0].Authorization != "Bearer "+tokenA ||
		reqs[1].Method != "POST" || reqs[1].Path != "/v25.0/act_1/campaigns" || reqs[1].Authorization != "Bearer "+tokenA ||
		reqs[1].Body != "is_adset_budget_sharing_enabled=false&name=adboost-7&objective=OUTCOME_ENGAGEMENT&special_ad_categories=%5B%5D&status=ACTIVE" {
		t.Fatalf("requests = %+v", reqs)
	}
	for _, cl := range fake.Calls() {
		if cl.Batched {
			t.Fatalf("call %+v was batched", cl)
		}
	}
}

// TestBatchMixedResults: one batch whose entries succeed, are refused for
// their token, are about a gone object, are rate limited and fail with a
// 500; each caller gets its own entry's result.
func TestBatchMixedResults(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.FailCalls("GET", "11", 1, networkafake.Error{Code: 190, Subcode: 460, Message: "The session has been invalidated"})
	fake.FailCalls("GET", "act_1/ads", 1, networkafake.RateLimited())
	fake.FailCalls("GET", "11_1/insights", 1, networkafake.Error{Status: 500, Code: 1, Message: "An unknown error has occurred."})
	c, _, release, blocker := held(t, base, Options{})

	var (
		me                     Profile
		errMe, errB, errC      error
		errD, errE, errF       error
		followersB, followersF int64
		found                  bool
		reach                  int64
	)
	done := []<-chan struct{}{
		enqueue(t, 1, func(ctx context.Context) { me, errMe = c.Me(ctx, tokenA) }),
		enqueue(t, 1, func(ctx context.Context) { followersB, errB = c.Followers(ctx, page11, "11", Scope{Page: "11"}) }),
		enqueue(t, 1, func(ctx context.Context) {
			errC = c.Update(ctx, tokenA, "999", map[string]any{"status": "PAUSED"}, Scope{User: "1", AdAccount: "act_1"})
		}),
		enqueue(t, 1, func(ctx context.Context) {
			_, found, errD = c.Find(ctx, tokenA, "ad", "adboost-7-5", Scope{User: "1", AdAccount: "act_1"})
		}),
		enqueue(t, 1, func(ctx context.Context) { reach, errE = c.PostReach(ctx, page11, "11_1", Scope{Page: "11"}) }),
		enqueue(t, 1, func(ctx context.Context) { followersF, errF = c.Followers(ctx, page12, "12", Scope{Page: "12"}) }),
	}
	release()
	for _, d := range done {
		await(t, d, "the callers")
	}
	if err := <-blocker; err != nil {
		t.Fatal(err)
	}

	if errMe != nil || me.ID != 1 {
		t.Errorf("success entry: %+v, %v", me, errMe)
	}
	if errF != nil || followersF != 300 {
		t.Errorf("second success entry: %d, %v", followersF, errF)
	}
	var e *Error
	if !errors.As(errB, &e) || *e != (Error{Status: 400, Type: "OAuthException", Code: 190, Subcode: 460, Message: "The session has been invalidated",
		TraceID: "AbCdEf0fake", Call: "GET /11"}) ||
		!TokenRefused(errB) || errors.Is(errB, ErrUnavailable) || followersB != 0 {
		t.Errorf("190 entry: %d, %v", followersB, errB)
	}
	if !errors.As(errC, &e) || e.Code != 100 || e.Subcode != 33 || e.Status != 400 || e.Type != "GraphMethodException" || e.Call != "POST /999" ||
		!Gone(errC) || !Refused(errC) || errors.Is(errC, ErrUnavailable) {
		t.Errorf("100/33 entry: %v", errC)
	}
	if !errors.As(errD, &e) || e.Code != 17 || e.Status != 400 || e.Call != "GET /act_1/ads" || !Temporary(errD) || !errors.Is(errD, ErrUnavailable) || found {
		t.Errorf("rate-limited entry: %v", errD)
	}
	if !errors.As(errE, &e) || *e != (Error{Status: 500, Type: "OAuthException", Code: 1, Message: "An unknown error has occurred.",
		TraceID: "AbCdEf0fake", Call: "GET /11_1/insights"}) ||
		!Temporary(errE) || !errors.Is(errE, ErrUnavailable) || reach != 0 {
		t.Errorf("500 entry: %d, %v", reach, errE)
	}

	expectMixedBatch(t, fake)
}

// expectMixedBatch checks the batch of TestBatchMixedResults: sent with
// the first call's token, each entry as its call alone would be, with its
// own token when it differs.
func expectMixedBatch(t *testing.T, fake *networkafake.Fake) {
	t.Helper()
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the held one and one batch", len(reqs))
	}
	b := parseBatchBody(t, reqs[1])
	if reqs[1].Authorization != "Bearer "+tokenA {
		t.Fatalf("batch sent with %q", reqs[1].Authorization)
	}
	var got []string
	for _, e := range b.Batch {
		got = append(got, fmt.Sprintf("%s %s %s %s", e.Method, e.RelativeURL, e.Body, e.AccessToken))
	}
	want := []string{
		"GET me?fields=id%2Cfirst_name%2Clast_name%2Cemail  ",
		"GET 11?fields=followers_count  " + page11,
		"POST 999 status=PAUSED ",
		"GET act_1/ads?fields=id%2Cname%2Cstatus&filtering=%5B%7B%22field%22%3A%22name%22%2C%22operator%22%3A%22EQUAL%22%2C%22value%22%3A%22adboost-7-5%22%7D%5D  ",
		"GET 11_1/insights?date_preset=maximum&metric=post_total_media_view_unique  " + page11,
		"GET 12?fields=followers_count  " + page12,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var tokens []string
	for _, cl := range fake.Calls()[1:] {
		if !cl.Batched {
			t.Fatalf("call %+v not batched", cl)
		}
		tokens = append(tokens, cl.Token)
	}
	if want := []string{tokenA, page11, tokenA, tokenA, page11, page12}; !reflect.DeepEqual(tokens, want) {
		t.Fatalf("calls made with %v, want %v", tokens, want)
	}
}

// TestBatchRefusedForBearerToken: a batch refused whole because its token
// (the first entry's) expired gives the refusal to that token's calls and
// sends the other calls again, with another token.
func TestBatchRefusedForBearerToken(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.ExpireToken(tokenC)
	c, _, release, blocker := held(t, base, Options{Linger: 200 * time.Millisecond})
	var (
		errC1, errC2, errA, errF error
		me                       Profile
		followers                int64
	)
	done := []<-chan struct{}{
		enqueue(t, 1, func(ctx context.Context) { _, errC1 = c.Me(ctx, tokenC) }),
		enqueue(t, 1, func(ctx context.Context) { me, errA = c.Me(ctx, tokenA) }),
		enqueue(t, 1, func(ctx context.Context) { followers, errF = c.Followers(ctx, page11, "11", Scope{Page: "11"}) }),
		enqueue(t, 1, func(ctx context.Context) { _, errC2 = c.Me(ctx, tokenC) }),
	}
	release()
	for _, d := range done {
		await(t, d, "the callers")
	}
	if err := <-blocker; err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{errC1, errC2} {
		var e *Error
		if !errors.As(err, &e) || e.Code != 190 || !TokenRefused(err) || errors.Is(err, ErrUnavailable) || !strings.HasPrefix(e.Message, "Error validating access token") {
			t.Errorf("a call with the expired bearer token = %v, want its refusal", err)
		}
	}
	if errA != nil || me.ID != 1 || errF != nil || followers != 1200 {
		t.Fatalf("the other calls: Me %+v, %v; Followers %d, %v", me, errA, followers, errF)
	}

	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the held one and two batches: %+v", len(reqs), reqs)
	}
	first, second := parseBatchBody(t, reqs[1]), parseBatchBody(t, reqs[2])
	if reqs[1].Authorization != "Bearer "+tokenC || len(first.Batch) != 4 ||
		first.Batch[0].AccessToken != "" || first.Batch[1].AccessToken != tokenA || first.Batch[2].AccessToken != page11 || first.Batch[3].AccessToken != "" {
		t.Fatalf("first batch sent with %q: %+v", reqs[1].Authorization, first)
	}
	if reqs[2].Authorization != "Bearer "+tokenA || len(second.Batch) != 2 ||
		second.Batch[0].RelativeURL != "me?fields=id%2Cfirst_name%2Clast_name%2Cemail" || second.Batch[0].AccessToken != "" ||
		second.Batch[1].RelativeURL != "11?fields=followers_count" || second.Batch[1].AccessToken != page11 {
		t.Fatalf("second batch sent with %q: %+v", reqs[2].Authorization, second)
	}
	var tokens []string
	for _, cl := range fake.Calls()[1:] {
		tokens = append(tokens, cl.Token)
	}
	if want := []string{tokenA, page11}; !reflect.DeepEqual(tokens, want) {
		t.Fatalf("calls made with %v, want %v (the refused batch makes none)", tokens, want)
	}
}

// TestManyKeepOrder: CreateMany, FindMany and PostReaches answer in the
// order of their inputs, sent in that order, batched or not; more than 50
// go out in several batches.
func TestManyKeepOrder(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			for i, reach := range []int{10, 20, 30} {
				id := fmt.Sprintf("11_%d", i+1)
				fake.AddPost("11", networkafake.Post{ID: id})
				fake.SetOrganicReach(id, reach)
			}
			c := newClient(t, base, Options{Batch: batch, Calls: 1, Linger: 100 * time.Millisecond})
			ctx := context.Background()
			s := Scope{User: "1", AdAccount: "act_1"}
			campaign := campaignBody

			ids, errs := c.CreateMany(ctx, tokenA, "campaign", []map[string]any{campaign("c-1"), campaign("c-2"), campaign("c-3")}, s)
			objects := fake.Objects("campaign")
			if len(objects) != 3 || len(ids) != 3 {
				t.Fatalf("%d campaigns, ids %v, errors %v", len(objects), ids, errs)
			}
			for i, o := range objects {
				if errs[i] != nil || o.Name != fmt.Sprintf("c-%d", i+1) || ids[i] != o.ID {
					t.Fatalf("campaign %d: %s %s, id answered %s, %v", i, o.Name, o.ID, ids[i], errs[i])
				}
			}
			if names, want := sentNames(t, fake), []string{"c-1", "c-2", "c-3"}; !reflect.DeepEqual(names, want) {
				t.Fatalf("creates sent in the order %v", names)
			}

			found, errs := c.FindMany(ctx, tokenA, "campaign", []string{"c-3", "nope", "c-1"}, s)
			if want := []string{ids[2], "", ids[0]}; !reflect.DeepEqual(found, want) || errs[0] != nil || errs[1] != nil || errs[2] != nil {
				t.Fatalf("FindMany = %v, %v; want %v", found, errs, want)
			}
			reaches, errs := c.PostReaches(ctx, page11, []string{"11_3", "11_1", "11_2"}, Scope{Page: "11"})
			if want := []int64{30, 10, 20}; !reflect.DeepEqual(reaches, want) || errs[0] != nil || errs[1] != nil || errs[2] != nil {
				t.Fatalf("PostReaches = %v, %v; want %v", reaches, errs, want)
			}

			var bodies []map[string]any
			for i := 0; i < 60; i++ {
				bodies = append(bodies, campaign(fmt.Sprintf("m-%d", i)))
			}
			fake.ClearRequests()
			ids, errs = c.CreateMany(ctx, tokenA, "campaign", bodies, s)
			byID := map[string]string{}
			for _, o := range fake.Objects("campaign") {
				byID[o.ID] = o.Name
			}
			for i := range bodies {
				if errs[i] != nil || byID[ids[i]] != fmt.Sprintf("m-%d", i) {
					t.Fatalf("create %d answered %s (%s), %v", i, ids[i], byID[ids[i]], errs[i])
				}
			}
			names := sentNames(t, fake)
			for i, n := range names {
				if n != fmt.Sprintf("m-%d", i) {
					t.Fatalf("creates sent in the order %v", names)
				}
			}
			reqs := fake.Requests()
			if !batch {
				if len(reqs) != 60 {
					t.Fatalf("%d requests without batching, want 60", len(reqs))
				}
				return
			}
			var sizes []int
			for _, r := range reqs {
				sizes = append(sizes, len(parseBatchBody(t, r).Batch))
			}
			if want := []int{50, 10}; !reflect.DeepEqual(sizes, want) {
				t.Fatalf("batch sizes %v, want %v", sizes, want)
			}
		})
	}
}

// sentNames are the names of the bodies the fake received, in order.
func sentNames(t *testing.T, fake *networkafake.Fake) []string {
	t.Helper()
	var names []string
	for _, cl := range fake.Calls() {
		names = append(names, formOf(t, cl.Body).Get("name"))
	}
	return names
}

// TestBatchFailsWhole: a batch request answered 5xx as a whole gives each
// of its calls that temporary *Error.
func TestBatchFailsWhole(t *testing.T) {
	t.Parallel()
	for fault, status := range map[networkafake.Fault]int{networkafake.FaultError500: 500, networkafake.FaultDown: 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.SetFault(fault)
			c := newClient(t, base, Options{Batch: true})
			reaches, errs := c.PostReaches(context.Background(), page11, []string{"11_1", "11_2"}, Scope{Page: "11"})
			for i, err := range errs {
				var e *Error
				if !errors.As(err, &e) || e.Status != status || e.Code != 2 || !Temporary(err) || !errors.Is(err, ErrUnavailable) || reaches[i] != 0 {
					t.Errorf("call %d = %d, %v", i, reaches[i], err)
				}
			}
			if reqs := fake.Requests(); len(reqs) != 1 || len(parseBatchBody(t, reqs[0]).Batch) != 2 {
				t.Fatalf("requests = %+v", reqs)
			}
		})
	}
}

// TestBatchMalformedAnswers: a batch answer that is not a list of one
// answer per entry fails every call with ErrUnavailable; an entry that
// network_a did not process (null, or without a body) is sent again, alone
// here, and gets the answer of that request; an entry that fails fails its
// own call only.
func TestBatchMalformedAnswers(t *testing.T) {
	t.Parallel()
	ok := `{"code":200,"headers":[],"body":"{\"data\":[{\"name\":\"post_total_media_view_unique\",\"values\":[{\"value\":5}]}]}"}`
	gone := `{"code":400,"body":"{\"error\":{\"message\":\"no\",\"type\":\"GraphMethodException\",\"code\":100,\"error_subcode\":33}}"}`
	const again1 = "/11_1/insights?date_preset=maximum&metric=post_total_media_view_unique"
	const again2 = "/11_2/insights?date_preset=maximum&metric=post_total_media_view_unique"
	for name, c := range map[string]struct {
		answer string
		want   []string // per call: "5" (reach 5), "7" (the plain request's), "unavailable", "gone"
		again  string   // the plain request that sends an unprocessed call again; "" for none
	}{
		"one answer for two": {`[` + ok + `]`, []string{"unavailable", "unavailable"}, ""},
		"three for two":      {`[` + ok + `,` + ok + `,` + ok + `]`, []string{"unavailable", "unavailable"}, ""},
		"not JSON":           {`<html>batch</html>`, []string{"unavailable", "unavailable"}, ""},
		"an object":          {`{"data":[]}`, []string{"unavailable", "unavailable"}, ""},
		"null entry":         {`[` + ok + `,null]`, []string{"5", "7"}, again2},
		"null body":          {`[{"code":200,"body":null},` + ok + `]`, []string{"7", "5"}, again1},
		"no body":            {`[` + ok + `,{"code":200}]`, []string{"5", "7"}, again2},
		"entry refused":      {`[` + gone + `,` + ok + `]`, []string{"gone", "5"}, ""},
		"entry not JSON":     {`[{"code":200,"body":"<html>"},` + ok + `]`, []string{"unavailable", "5"}, ""},
		"entry 502":          {`[{"code":502,"body":"Bad Gateway"},` + ok + `]`, []string{"unavailable", "5"}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			api := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if r.Method == "GET" {
					io.WriteString(w, `{"data":[{"name":"post_total_media_view_unique","values":[{"value":7}]}]}`)
					return
				}
				io.WriteString(w, c.answer)
			})
			client := newClient(t, api.URL, Options{Batch: true})
			reaches, errs := client.PostReaches(context.Background(), page11, []string{"11_1", "11_2"}, Scope{})
			for i, want := range c.want {
				var got string
				var e *Error
				switch err := errs[i]; {
				case err == nil:
					got = fmt.Sprint(reaches[i])
				case Gone(err):
					got = "gone"
				case errors.Is(err, ErrUnavailable) && !errors.As(err, &e):
					got = "unavailable"
				default:
					got = err.Error()
				}
				if got != want {
					t.Errorf("call %d = %s, want %s", i, got, want)
				}
			}
			want := []seen{{Method: "POST", URI: "/", Authorization: "Bearer " + page11, ContentType: "application/x-www-form-urlencoded"}}
			if c.again != "" {
				want = append(want, seen{Method: "GET", URI: c.again, Authorization: "Bearer " + page11})
			}
			reqs := api.requests()
			for i := range reqs {
				reqs[i].Body = ""
			}
			if !reflect.DeepEqual(reqs, want) {
				t.Fatalf("requests = %+v, want %+v", reqs, want)
			}
		})
	}
}

// TestBatchCloseFailsQueued: Close makes the calls waiting for a request
// slot fail with ErrUnavailable at once, without sending them; the call in
// flight ends normally.
func TestBatchCloseFailsQueued(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c, g, release, blocker := held(t, base, Options{})
	var errMe error
	var errs []error
	done := []<-chan struct{}{
		enqueue(t, 1, func(ctx context.Context) { _, errMe = c.Me(ctx, tokenA) }),
		enqueue(t, 3, func(ctx context.Context) {
			_, errs = c.PostReaches(ctx, page11, []string{"11_1", "11_2", "11_3"}, Scope{})
		}),
	}
	// Close fails the queued calls at once, then waits for the one in
	// flight to end.
	closed := make(chan struct{})
	go func() { defer close(closed); c.Close() }()
	for _, d := range done {
		await(t, d, "the queued calls to fail")
	}
	for i, err := range append([]error{errMe}, errs...) {
		if !errors.Is(err, ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("queued call %d after Close = %v, want ErrUnavailable", i, err)
		}
	}
	select {
	case <-closed:
		t.Fatal("Close returned while a request was in flight")
	default:
	}
	release()
	if err := <-blocker; err != nil {
		t.Fatalf("the call in flight = %v", err)
	}
	await(t, closed, "Close to return once the request in flight ended")
	if n := g.requests(); n != 1 {
		t.Fatalf("%d requests sent, want only the one in flight", n)
	}
	if requests, calls := fake.Counts(); requests != 1 || calls != 1 {
		t.Fatalf("the fake got %d requests, %d calls; want 1, 1", requests, calls)
	}
	c.Close() // a second Close is harmless
}

// TestBatchCloseFailsLater: every call made after Close fails with
// ErrUnavailable at once (not when its deadline passes), and nothing is
// sent.
func TestBatchCloseFailsLater(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c := newClient(t, base, Options{Batch: true})
	c.Close()
	const n = 64
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if i%2 == 0 {
				_, errs[i] = c.Me(ctx, tokenA)
			} else {
				_, many := c.PostReaches(ctx, page11, []string{"11_1", "11_2"}, Scope{})
				errs[i] = errors.Join(many...)
			}
		}()
	}
	wg.Wait()
	var stuck []int
	for i, err := range errs {
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("call %d after Close = %v, want ErrUnavailable", i, err)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			stuck = append(stuck, i)
		}
	}
	if len(stuck) > 0 {
		sort.Ints(stuck)
		t.Errorf("%d of %d calls after Close waited for their deadline instead of failing: %v", len(stuck), n, stuck)
	}
	if requests, calls := fake.Counts(); requests != 0 || calls != 0 {
		t.Fatalf("%d requests, %d calls after Close", requests, calls)
	}
}
