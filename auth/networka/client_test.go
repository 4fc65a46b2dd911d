package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// The world of these tests: three users with their tokens; user 1 has two
// pages (with their own tokens) and two ad accounts.
const (
	tokenA = "EAAuserA1"
	tokenB = "EAAuserB2"
	tokenC = "EAAuserC3"
	page11 = "EAApage11"
	page12 = "EAApage12"
)

// startWorld serves a fake network_a with the users of these tests and
// answers it with its base URL.
func startWorld(t *testing.T) (*networkafake.Fake, string) {
	t.Helper()
	fake, base := networkafake.Start(t)
	fake.AddUser(networkafake.User{Token: tokenA, ID: "1", FirstName: "Ana", LastName: "Diaz", Email: "ana@example.com",
		Pages: []networkafake.Page{
			{ID: "11", Name: "Gym", Picture: "https://cdn.example/11.jpg", Token: page11, Followers: 1200,
				B: &networkafake.AccountB{ID: "711", Username: "gym_b", Picture: "https://cdn.example/711.jpg"}},
			{ID: "12", Name: "Cafe", Picture: "https://cdn.example/12.jpg", Token: page12, Followers: 300},
		},
		AdAccounts: []networkafake.AdAccount{{ID: "act_1", Status: 1, Currency: "USD"}, {ID: "act_2", Status: 1, Currency: "KWD"}}})
	fake.AddUser(networkafake.User{Token: tokenB, ID: "2", FirstName: "Bo", LastName: "Li",
		AdAccounts: []networkafake.AdAccount{{ID: "act_3", Status: 1, Currency: "JPY"}}})
	fake.AddUser(networkafake.User{Token: tokenC, ID: "3", FirstName: "Cy", LastName: "Ng"})
	return fake, base
}

// newClient answers a client of base, closed when the test ends.
func newClient(t *testing.T, base string, opts Options) *Client {
	t.Helper()
	c, err := New(base, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// seen is a request one of the tests' own servers received.
type seen struct {
	Method, URI, Authorization, Body string
	ContentType                      string
}

// server is an httptest server of a test's own that records its requests.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

// serve starts a server answering with handle (nil: 200 {}).
func serve(t *testing.T, handle http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, seen{r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), string(body), r.Header.Get("Content-Type")})
		s.mu.Unlock()
		if handle == nil {
			writeJSON(w, http.StatusOK, map[string]any{})
			return
		}
		handle(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// gate is a transport that holds the first request until released, so that
// a test knows a request slot is taken.
type gate struct {
	next    http.RoundTripper
	started chan *http.Request // the first request, once it is held
	release chan struct{}
	n       atomic.Int32
}

func newGate() *gate {
	return &gate{next: http.DefaultTransport.(*http.Transport).Clone(), started: make(chan *http.Request, 1), release: make(chan struct{})}
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.n.Add(1) == 1 {
		g.started <- r
		select {
		case <-g.release:
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	return g.next.RoundTrip(r)
}

// requests answers how many requests reached the transport.
func (g *gate) requests() int { return int(g.n.Load()) }

// queuedCtx is a context that tells when its call is in the batcher's queue:
// a call asks Done once to be queued (the select of enqueue) and once more
// to wait for its answer, which it does only once it is queued.
type queuedCtx struct {
	context.Context
	n      atomic.Int32
	queued chan struct{}
}

func newQueuedCtx(parent context.Context) *queuedCtx {
	return &queuedCtx{Context: parent, queued: make(chan struct{})}
}

func (q *queuedCtx) Done() <-chan struct{} {
	if q.n.Add(1) == 2 {
		close(q.queued)
	}
	return q.Context.Done()
}

// await waits for ch or fails the test after 10 s.
func await(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// campaignBody is a campaign create network_a takes: an engagement
// campaign without special ad categories, its budgets on its ad sets.
func campaignBody(name string) map[string]any {
	return map[string]any{"name": name, "objective": "OUTCOME_ENGAGEMENT", "status": "ACTIVE",
		"special_ad_categories": []string{}, "is_adset_budget_sharing_enabled": false}
}

// formOf reads a recorded form body; a body that is not a form fails the
// test.
func formOf(t *testing.T, body string) url.Values {
	t.Helper()
	f, err := url.ParseQuery(body)
	if err != nil {
		t.Fatalf("body %q is not a form: %v", body, err)
	}
	return f
}

// query answers the query of a recorded path.
func query(t *testing.T, path string) url.Values {
	t.Helper()
	u, err := url.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestTimeoutOnlyPerRequest: Options.Timeout is kept for each request and
// the http.Client has none (a context is the only deadline), and redirects
// are not followed.
func TestTimeoutOnlyPerRequest(t *testing.T) {
	t.Parallel()
	c, err := New("http://127.0.0.1:1", Options{Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c.timeout != 3*time.Second || c.http.Timeout != 0 || c.http.CheckRedirect == nil {
		t.Fatalf("timeout %v, http.Client.Timeout %v, CheckRedirect set %v", c.timeout, c.http.Timeout, c.http.CheckRedirect != nil)
	}
}

// TestTimeoutBoundsEachRequest: a server slower than Options.Timeout answers
// ErrUnavailable after the timeout, plain and batched.
func TestTimeoutBoundsEachRequest(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.SetDelay(time.Minute)
			c := newClient(t, base, Options{Timeout: 300 * time.Millisecond, Batch: batch})
			start := time.Now()
			_, err := c.Me(context.Background(), tokenA)
			took := time.Since(start)
			if !errors.Is(err, ErrUnavailable) || !Temporary(err) {
				t.Fatalf("Me on a slow server = %v, want ErrUnavailable", err)
			}
			if took < 300*time.Millisecond || took > 10*time.Second {
				t.Fatalf("Me on a slow server took %v, want about 300ms", took)
			}
			if got := len(fake.Requests()); got != 1 {
				t.Fatalf("%d requests, want 1", got)
			}
		})
	}
}

// TestContextDeadlineWins: a caller's deadline shorter than Options.Timeout
// ends the call at the caller's deadline, plain and batched.
func TestContextDeadlineWins(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.SetDelay(time.Minute)
			c := newClient(t, base, Options{Timeout: time.Minute, Batch: batch})
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := c.Me(ctx, tokenA)
			took := time.Since(start)
			if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) || KindOf(err) != KindTemporary {
				t.Fatalf("Me past its deadline = %v, want ErrUnavailable and DeadlineExceeded", err)
			}
			if took < 200*time.Millisecond || took > 10*time.Second {
				t.Fatalf("Me took %v, want about 200ms", took)
			}
		})
	}
}

// TestBatchCallerDeadlineIsItsOwn: in a batching client, a caller whose
// deadline passes while its call waits gets its own deadline, is never sent,
// and the other callers' calls go on.
func TestBatchCallerDeadlineIsItsOwn(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	g := newGate()
	c := newClient(t, base, Options{Batch: true, Calls: 1, Transport: g})
	blocker := make(chan error, 1)
	go func() { _, err := c.Me(context.Background(), tokenB); blocker <- err }()
	select {
	case <-g.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first call was not sent")
	}

	short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	qa, qb := newQueuedCtx(short), newQueuedCtx(context.Background())
	errA, errB := make(chan error, 1), make(chan Profile, 1)
	start := time.Now()
	go func() { _, err := c.Me(qa, tokenA); errA <- err }()
	await(t, qa.queued, "the short call to be queued")
	go func() {
		p, err := c.Me(qb, tokenC)
		if err != nil {
			t.Errorf("Me of the patient caller = %v", err)
		}
		errB <- p
	}()
	await(t, qb.queued, "the patient call to be queued")

	err := <-errA
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("the short caller waited %v", took)
	}
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the short caller's call = %v, want its deadline", err)
	}
	close(g.release)
	if err := <-blocker; err != nil {
		t.Fatalf("the first call = %v", err)
	}
	if p := <-errB; p.ID != 3 {
		t.Fatalf("the patient caller got %+v, want user 3", p)
	}
	var tokens []string
	for _, cl := range fake.Calls() {
		tokens = append(tokens, cl.Token)
	}
	if want := []string{tokenB, tokenC}; !reflect.DeepEqual(tokens, want) {
		t.Fatalf("calls made with %v, want %v (the expired caller's never sent)", tokens, want)
	}
}

// TestMaxAnswer: an answer of MaxAnswer bytes is read; one byte more is
// ErrUnavailable, not a truncated JSON text.
func TestMaxAnswer(t *testing.T) {
	t.Parallel()
	for _, size := range []int{MaxAnswer, MaxAnswer + 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			t.Parallel()
			head, tail := `{"id":"7","first_name":"`, `"}`
			name := strings.Repeat("a", size-len(head)-len(tail))
			s := serve(t, func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, head+name+tail)
			})
			c := newClient(t, s.URL, Options{})
			p, err := c.Me(context.Background(), tokenA)
			if size <= MaxAnswer {
				if err != nil || p.ID != 7 || len(p.FirstName) != len(name) {
					t.Fatalf("an answer of MaxAnswer bytes: id %d, %d bytes of name, %v", p.ID, len(p.FirstName), err)
				}
				return
			}
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "more than 8388608 bytes") || strings.Contains(err.Error(), "JSON") {
				t.Fatalf("an answer over MaxAnswer = %v, want ErrUnavailable for its size", err)
			}
		})
	}
}

// TestPagingDropsAccessToken: a list follows paging.next without the
// access_token the link carries; the token goes only in Authorization.
func TestPagingDropsAccessToken(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.SetAccountsPageSize(1)
	c := newClient(t, base, Options{})
	pages, err := c.Accounts(context.Background(), tokenA)
	if err != nil || len(pages) != 2 {
		t.Fatalf("Accounts = %d pages, %v", len(pages), err)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		q := query(t, r.Path)
		if r.Method != "GET" || r.Authorization != "Bearer "+tokenA || q.Has("access_token") || strings.Contains(r.Path, tokenA) ||
			q.Get("fields") != "id,name,picture,access_token,network_b_account" {
			t.Fatalf("request %d = %+v", i, r)
		}
	}
	if q := query(t, reqs[1].Path); q.Get("after") != "1" || q.Get("limit") != "1" || !strings.HasPrefix(reqs[1].Path, "/v25.0/me/accounts?") {
		t.Fatalf("second page asked as %s", reqs[1].Path)
	}
}

// recorder is a transport that records the URL of every request the
// client sends.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	urls []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *recorder) sent() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// TestPagingStaysOnTheAPI: a paging link to another host, scheme, user or
// base path is an error wrapping ErrUnavailable, and nothing is sent there.
func TestPagingStaysOnTheAPI(t *testing.T) {
	t.Parallel()
	elsewhere := serve(t, nil)
	t.Cleanup(func() {
		if reqs := elsewhere.requests(); len(reqs) != 0 {
			t.Errorf("the other host received %+v", reqs)
		}
	})
	for name, link := range map[string]func(api string) string{
		"other host":        func(string) string { return elsewhere.URL + "/v25.0/me/accounts?after=2" },
		"other host, token": func(string) string { return elsewhere.URL + "/v25.0/me/accounts?after=2&access_token=" + tokenA },
		"scheme-relative": func(string) string {
			return "//" + strings.TrimPrefix(elsewhere.URL, "http://") + "/v25.0/me/accounts?after=2"
		},
		"other scheme": func(api string) string {
			return strings.Replace(api, "http://", "https://", 1) + "/v25.0/me/accounts?after=2"
		},
		"user info": func(api string) string {
			return strings.Replace(api, "http://", "http://x@", 1) + "/v25.0/me/accounts?after=2"
		},
		"other base path":  func(api string) string { return api + "/v20.0/me/accounts?after=2" },
		"no base path":     func(api string) string { return api + "/me/accounts?after=2" },
		"base path prefix": func(api string) string { return api + "/v25.01/me/accounts?after=2" },
		"dot segments":     func(api string) string { return api + "/v25.0/../v20.0/me/accounts?after=2" },
		"relative dots":    func(string) string { return "../../v20.0/me/accounts?after=2" },
		"escaped dots":     func(api string) string { return api + "/v25.0/%2e%2e/me/accounts?after=2" },
		"escaped slash":    func(api string) string { return api + "/v25.0/..%2fme/accounts?after=2" },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var api *server
			api = serve(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("after") != "" {
					writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"id": "2", "name": "B"}}})
					return
				}
				writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"id": "1", "name": "A"}},
					"paging": map[string]any{"next": link(api.URL)}})
			})
			rec := &recorder{next: http.DefaultTransport.(*http.Transport).Clone()}
			c := newClient(t, api.URL+"/v25.0", Options{Transport: rec})
			pages, err := c.Accounts(context.Background(), tokenA)
			if !errors.Is(err, ErrUnavailable) || pages != nil {
				t.Errorf("Accounts with paging.next %s = %v, %v; want an error wrapping ErrUnavailable", link(api.URL), pages, err)
			}
			if sent := rec.sent(); len(sent) != 1 {
				t.Errorf("the client sent %d requests, want 1: %v", len(sent), sent)
			}
		})
	}
}

// TestPagingRelativeLink: a paging link relative to the API is followed.
func TestPagingRelativeLink(t *testing.T) {
	t.Parallel()
	api := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("after") != "" {
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"id": "2", "name": "B"}}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"id": "1", "name": "A"}},
			"paging": map[string]any{"next": "/v25.0/me/accounts?after=2&access_token=" + tokenA}})
	})
	c := newClient(t, api.URL+"/v25.0", Options{})
	pages, err := c.Accounts(context.Background(), tokenA)
	if err != nil || len(pages) != 2 || pages[0].ID != 1 || pages[1].ID != 2 {
		t.Fatalf("Accounts = %+v, %v", pages, err)
	}
	if reqs := api.requests(); len(reqs) != 2 || reqs[1].URI != "/v25.0/me/accounts?after=2" || reqs[1].Authorization != "Bearer "+tokenA {
		t.Fatalf("requests = %+v", reqs)
	}
}

// TestPagingLimits: a list of more than MaxPages pages is an error after
// MaxPages requests; a link back to a page already read ends the list.
func TestPagingLimits(t *testing.T) {
	t.Parallel()
	t.Run("endless", func(t *testing.T) {
		t.Parallel()
		fake, base := startWorld(t)
		fake.SetAccountsPageSize(1)
		fake.SetAccountsPaging(networkafake.PagingEndless, "")
		c := newClient(t, base, Options{})
		pages, err := c.Accounts(context.Background(), tokenA)
		if !errors.Is(err, ErrUnavailable) || pages != nil || !strings.Contains(err.Error(), "more than 100 pages") {
			t.Fatalf("endless Accounts = %v, %v", pages, err)
		}
		if n, _ := fake.Counts(); n != MaxPages {
			t.Fatalf("%d requests, want %d", n, MaxPages)
		}
	})
	t.Run("loop", func(t *testing.T) {
		t.Parallel()
		fake, base := startWorld(t)
		fake.SetAccountsPageSize(1)
		fake.SetAccountsPaging(networkafake.PagingLoop, "")
		c := newClient(t, base, Options{})
		pages, err := c.Accounts(context.Background(), tokenA)
		if err != nil || len(pages) != 2 || pages[0].ID != 11 || pages[1].ID != 12 {
			t.Fatalf("looping Accounts = %+v, %v", pages, err)
		}
		if n, _ := fake.Counts(); n != 2 {
			t.Fatalf("%d requests, want 2 (the loop back is not read)", n)
		}
	})
}

// TestRedirectsRefused: a redirect answer is ErrUnavailable, plain or batch,
// and its target receives nothing.
func TestRedirectsRefused(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			target := serve(t, nil)
			api := serve(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.URL+r.URL.RequestURI(), status)
			})
			plain := newClient(t, api.URL, Options{})
			if _, err := plain.Me(context.Background(), tokenA); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "redirect") {
				t.Fatalf("Me redirected = %v, want ErrUnavailable", err)
			}
			batched := newClient(t, api.URL, Options{Batch: true})
			reaches, errs := batched.PostReaches(context.Background(), page11, []string{"11_1", "11_2"}, Scope{})
			for i, err := range errs {
				if !errors.Is(err, ErrUnavailable) || reaches[i] != 0 {
					t.Fatalf("batch redirected: reach %d, %v", reaches[i], err)
				}
			}
			if reqs := api.requests(); len(reqs) != 2 || reqs[1].Method != "POST" {
				t.Fatalf("the API received %+v, want a GET and a batch POST", reqs)
			}
			if reqs := target.requests(); len(reqs) != 0 {
				t.Fatalf("the redirect target received %+v", reqs)
			}
		})
	}
}

// TestCheckTokenSyntax: what CheckToken takes: RFC 6750's b64token of at
// most 4096 characters.
func TestCheckTokenSyntax(t *testing.T) {
	t.Parallel()
	for token, ok := range map[string]bool{
		"EAAGm0PX4ZCpsBA":         true,
		"a":                       true,
		"abc-._~+/":               true,
		"abc==":                   true,
		"abc=":                    true,
		strings.Repeat("a", 4096): true,
		strings.Repeat("a", 4097): false,
		"":                        false,
		"=":                       false,
		"a=b":                     false,
		"abc\t":                   false,
		" abc":                    false,
		"abc\r\nX-Evil: 1":        false,
		"abc,def":                 false,
		"abc;":                    false,
		"abc%20":                  false,
		"tökén":                   false,
		"Bearer abc":              false,
		"abc\x00":                 false,
	} {
		if err := CheckToken(token); (err == nil) != ok || (err != nil && err != ErrToken) {
			t.Errorf("CheckToken(%.20q) = %v, want ok %v", token, err, ok)
		}
	}
}

// TestBadTokenSendsNothing: every call with a token that cannot be one is
// ErrToken (not a network failure) and sends nothing, plain or batched.
func TestBadTokenSendsNothing(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			c := newClient(t, base, Options{Batch: batch})
			ctx := context.Background()
			s := Scope{User: "1", Page: "11", AdAccount: "act_1"}
			for _, bad := range []string{"", "EAA abc", "EAA\nabc", strings.Repeat("x", 4097)} {
				var errs []error
				_, err := c.Me(ctx, bad)
				errs = append(errs, err)
				_, err = c.Accounts(ctx, bad)
				errs = append(errs, err)
				_, err = c.AdAccounts(ctx, bad, s)
				errs = append(errs, err)
				_, err = c.Followers(ctx, bad, "11", s)
				errs = append(errs, err)
				_, _, err = c.Posts(ctx, bad, "11", time.Now().Add(-time.Hour), 10, s)
				errs = append(errs, err)
				_, err = c.PostReach(ctx, bad, "11_1", s)
				errs = append(errs, err)
				_, err = c.Create(ctx, bad, "campaign", map[string]any{"name": "x"}, s)
				errs = append(errs, err)
				_, _, err = c.Find(ctx, bad, "campaign", "x", s)
				errs = append(errs, err)
				errs = append(errs, c.Update(ctx, bad, "123", map[string]any{"status": "PAUSED"}, s))
				_, _, err = c.AdInsights(ctx, bad, "123", "offsite_conversion.fb_pixel_purchase", s)
				errs = append(errs, err)
				_, err = c.Ads(ctx, bad, "123", s)
				errs = append(errs, err)
				_, many := c.CreateMany(ctx, bad, "ad", []map[string]any{{"name": "a"}, {"name": "b"}}, s)
				errs = append(errs, many...)
				_, many = c.FindMany(ctx, bad, "ad", []string{"a", "b"}, s)
				errs = append(errs, many...)
				_, many = c.PostReaches(ctx, bad, []string{"11_1", "11_2"}, s)
				errs = append(errs, many...)
				if len(errs) != 17 {
					t.Fatalf("%d results", len(errs))
				}
				for i, err := range errs {
					if !errors.Is(err, ErrToken) || errors.Is(err, ErrUnavailable) || KindOf(err) != 0 {
						t.Errorf("call %d with token %.10q = %v, want ErrToken only", i, bad, err)
					}
				}
			}
			if requests, calls := fake.Counts(); requests != 0 || calls != 0 {
				t.Fatalf("%d requests, %d calls sent with bad tokens", requests, calls)
			}
		})
	}
}

// TestErrorKinds: each error answer of network_a is one *Error with its
// fields and Kind; the helpers agree; temporary ones match ErrUnavailable.
func TestErrorKinds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e    networkafake.Error
		kind Kind
	}{
		{networkafake.Error{Code: 1, Message: "An unknown error occurred"}, KindTemporary},
		{networkafake.Error{Code: 2, Message: "Service temporarily unavailable"}, KindTemporary},
		{networkafake.Error{Code: 4, Message: "Application request limit reached"}, KindTemporary},
		{networkafake.Error{Code: 17, Message: "User request limit reached"}, KindTemporary},
		{networkafake.Error{Code: 32, Message: "Page request limit reached"}, KindTemporary},
		{networkafake.Error{Code: 341, Message: "Application limit reached"}, KindTemporary},
		{networkafake.Error{Code: 613, Message: "Calls to this api have exceeded the rate limit."}, KindTemporary},
		{networkafake.Error{Code: 80000, Message: "too many calls"}, KindTemporary},
		{networkafake.Error{Code: 80004, Subcode: 2446079, Message: "too many calls"}, KindTemporary},
		{networkafake.Error{Code: 80014, Message: "too many calls"}, KindTemporary},
		{networkafake.Error{Code: 80015, Message: "not a rate limit"}, KindRefused},
		{networkafake.Error{Code: 100, Transient: true, Message: "Please retry"}, KindTemporary},
		{networkafake.Error{Status: 500, Code: 100, Message: "An unexpected error has occurred"}, KindTemporary},
		{networkafake.Error{Status: 503, Type: "GraphMethodException", Code: 190, Message: "down"}, KindTemporary},
		{networkafake.Error{Code: 190, Subcode: 463, Message: "Session has expired"}, KindToken},
		{networkafake.Error{Status: 401, Code: 190, Message: "Invalid OAuth access token"}, KindToken},
		{networkafake.Error{Type: "GraphMethodException", Code: 100, Subcode: 33, Message: "Object does not exist"}, KindGone},
		{networkafake.Error{Code: 100, Message: "Invalid parameter"}, KindRefused},
		{networkafake.Error{Code: 100, Subcode: 1487390, Message: "Invalid targeting"}, KindRefused},
		{networkafake.Error{Status: 403, Code: 200, Message: "Permissions error"}, KindRefused},
		{networkafake.Error{Code: 10, Message: "Application does not have permission"}, KindRefused},
		{networkafake.Error{Code: 33, Message: "not subcode 33"}, KindRefused},
		{networkafake.Error{Code: 1487, Subcode: 33, Message: "subcode 33 of another code"}, KindRefused},
	} {
		t.Run(fmt.Sprintf("%d_%d_%d_%v", c.e.Status, c.e.Code, c.e.Subcode, c.e.Transient), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("GET", "me", 1, c.e)
			client := newClient(t, base, Options{})
			_, err := client.Me(context.Background(), tokenA)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Me = %v, want an *Error", err)
			}
			status, typ := c.e.Status, c.e.Type
			if status == 0 {
				status = 400
			}
			if typ == "" {
				typ = "OAuthException"
			}
			want := Error{Status: status, Type: typ, Code: c.e.Code, Subcode: c.e.Subcode, Transient: c.e.Transient, Message: c.e.Message,
				TraceID: "AbCdEf0fake", Call: "GET /me"}
			if *e != want {
				t.Fatalf("error = %+v, want %+v", *e, want)
			}
			if e.Kind() != c.kind || KindOf(err) != c.kind || e.Temporary() != (c.kind == KindTemporary) {
				t.Fatalf("kind %v (KindOf %v), want %v", e.Kind(), KindOf(err), c.kind)
			}
			if errors.Is(err, ErrUnavailable) != (c.kind == KindTemporary) {
				t.Fatalf("errors.Is(%v, ErrUnavailable) = %v for a %v error", err, errors.Is(err, ErrUnavailable), c.kind)
			}
			if TokenRefused(err) != (c.kind == KindToken) || Gone(err) != (c.kind == KindGone) ||
				Refused(err) != (c.kind == KindRefused || c.kind == KindGone) || Temporary(err) != (c.kind == KindTemporary) {
				t.Fatalf("helpers: token %v gone %v refused %v temporary %v for %v",
					TokenRefused(err), Gone(err), Refused(err), Temporary(err), c.kind)
			}
			wantText := fmt.Sprintf("GET /me: network_a answered %d: %s code %d", status, typ, c.e.Code)
			if c.e.Subcode != 0 {
				wantText += fmt.Sprintf(" (subcode %d)", c.e.Subcode)
			}
			wantText += ": " + c.e.Message
			if e.Error() != wantText {
				t.Fatalf("text %q, want %q", e.Error(), wantText)
			}
		})
	}
}

// TestKindNames: the names of the kinds.
func TestKindNames(t *testing.T) {
	t.Parallel()
	got := []string{KindTemporary.String(), KindToken.String(), KindGone.String(), KindRefused.String(), Kind(0).String()}
	if want := []string{"temporary", "token refused", "gone", "refused", "unknown"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("kind names %v, want %v", got, want)
	}
}

// TestKindOfOtherFailures: failures that are not network_a's error object
// are KindTemporary when they wrap ErrUnavailable or a deadline, 0 otherwise.
func TestKindOfOtherFailures(t *testing.T) {
	t.Parallel()
	throttled := fmt.Errorf("GET /x: %w", &ThrottledError{Scope: ScopeApp, Until: time.Now().Add(time.Minute)})
	for err, want := range map[error]Kind{
		nil:                                   0,
		ErrToken:                              0,
		errors.New("other"):                   0,
		ErrUnavailable:                        KindTemporary,
		fmt.Errorf("x: %w", ErrUnavailable):   KindTemporary,
		context.DeadlineExceeded:              KindTemporary,
		throttled:                             KindTemporary,
		&Error{Status: 400, Code: 190}:        KindToken,
		fmt.Errorf("x: %w", &Error{Code: 17}): KindTemporary,
	} {
		if got := KindOf(err); got != want {
			t.Errorf("KindOf(%v) = %v, want %v", err, got, want)
		}
	}
	if !errors.Is(throttled, ErrUnavailable) || !Temporary(throttled) || Refused(throttled) {
		t.Fatal("a throttled call is not a temporary ErrUnavailable")
	}
}

// TestFailuresWithoutErrorObject: answers that are not network_a's
// protocol wrap ErrUnavailable and are no *Error.
func TestFailuresWithoutErrorObject(t *testing.T) {
	t.Parallel()
	for name, handle := range map[string]http.HandlerFunc{
		"html 200": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>maintenance</html>") },
		"bare 401": func(w http.ResponseWriter, r *http.Request) { http.Error(w, "Unauthorized", http.StatusUnauthorized) },
		"429":      func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) },
		"502 html": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html>bad gateway</html>")
		},
		"no id": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"first_name":"Ana"}`) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := serve(t, handle)
			c := newClient(t, s.URL, Options{})
			_, err := c.Me(context.Background(), tokenA)
			var e *Error
			if !errors.Is(err, ErrUnavailable) || errors.As(err, &e) || KindOf(err) != KindTemporary {
				t.Fatalf("Me = %v, want ErrUnavailable without an *Error", err)
			}
		})
	}
	t.Run("server down", func(t *testing.T) {
		t.Parallel()
		s := serve(t, nil)
		s.Close()
		c := newClient(t, s.URL, Options{})
		if _, err := c.Me(context.Background(), tokenA); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Me of a closed server = %v", err)
		}
	})
}

// TestTokenNeverInErrorsOrURLs: no error text and no URL network_a saw
// holds the token, whatever the failure.
func TestTokenNeverInErrorsOrURLs(t *testing.T) {
	t.Parallel()
	const secret = "EAAsecretTOKEN0123456789"
	fake, base := startWorld(t)
	fake.AddUser(networkafake.User{Token: secret, ID: "9", FirstName: "S", Pages: []networkafake.Page{
		{ID: "91", Name: "P1", Token: "EAApage91"}, {ID: "92", Name: "P2"}, {ID: "93", Name: "P3"}, {ID: "94", Name: "P4"}}})
	fake.SetAccountsPageSize(1)
	ctx := context.Background()
	var errs []error
	for _, batch := range []bool{false, true} {
		c := newClient(t, base, Options{Batch: batch, Timeout: 300 * time.Millisecond})
		if _, err := c.Accounts(ctx, secret); err != nil {
			t.Fatalf("Accounts = %v", err)
		}
		_, _, err := c.Posts(ctx, secret, "404", time.Now(), 10, Scope{})
		errs = append(errs, err)
		fake.SetDelay(time.Minute)
		_, err = c.Me(ctx, secret)
		errs = append(errs, err)
		fake.SetDelay(0)
		fake.SetAccountsPaging(networkafake.PagingForeign, "http://127.0.0.1:1/v25.0")
		_, err = c.Accounts(ctx, secret)
		errs = append(errs, err)
		fake.SetAccountsPaging(networkafake.PagingNormal, "")
	}
	fake.ExpireToken(secret)
	for _, batch := range []bool{false, true} {
		c := newClient(t, base, Options{Batch: batch})
		_, err := c.Me(ctx, secret)
		errs = append(errs, err)
		_, errs2 := c.PostReaches(ctx, secret, []string{"91_1", "91_2"}, Scope{})
		errs = append(errs, errs2...)
	}
	for i, err := range errs {
		if err == nil || strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v", err), secret) {
			t.Errorf("error %d = %v", i, err)
		}
	}
	for _, r := range fake.Requests() {
		if strings.Contains(r.Path, secret) || query(t, r.Path).Has("access_token") {
			t.Errorf("a URL network_a saw holds the token: %s", r.Path)
		}
	}
}

// TestTokenEchoedNotInError: network_a may quote the token it refuses in its
// message ("Malformed access token EAA…"), or in the words and data meant
// for the user; the error, its user text and its fields still never hold
// it.
func TestTokenEchoedNotInError(t *testing.T) {
	t.Parallel()
	const secret = "EAAsecretTOKEN0123456789"
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("GET", "me", 1, networkafake.Error{Code: 190, Message: "Malformed access token " + secret,
				UserTitle: "Token " + secret, UserMsg: "The token " + secret + " is malformed.", Data: `{"token":"` + secret + `"}`})
			c := newClient(t, base, Options{Batch: batch})
			_, err := c.Me(context.Background(), secret)
			if !TokenRefused(err) {
				t.Fatalf("Me = %v, want the token refused", err)
			}
			var e *Error
			errors.As(err, &e)
			if strings.Contains(err.Error(), secret) || strings.Contains(UserText(err), secret) || strings.Contains(fmt.Sprintf("%+v", *e), secret) {
				t.Fatalf("the error holds the token: %+v", *e)
			}
			if e.UserText() != "Token [token]: The token [token] is malformed." || e.Data != `{"token":"[token]"}` {
				t.Fatalf("user text %q, data %q", e.UserText(), e.Data)
			}
		})
	}
}

// TestSignIn: Me answers the user's profile; Accounts asks for the pages'
// tokens and network_b accounts and answers every page.
func TestSignIn(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	c := newClient(t, base, Options{})
	ctx := context.Background()
	me, err := c.Me(ctx, tokenA)
	if want := (Profile{ID: 1, FirstName: "Ana", LastName: "Diaz", Email: "ana@example.com"}); err != nil || me != want {
		t.Fatalf("Me = %+v, %v; want %+v", me, err, want)
	}
	me, err = c.Me(ctx, tokenC)
	if want := (Profile{ID: 3, FirstName: "Cy", LastName: "Ng"}); err != nil || me != want {
		t.Fatalf("Me without e-mail = %+v, %v; want %+v", me, err, want)
	}
	pages, err := c.Accounts(ctx, tokenA)
	want := []Page{
		{ID: 11, Name: "Gym", Picture: "https://cdn.example/11.jpg", Token: page11,
			NetworkB: &AccountB{ID: 711, Username: "gym_b", Picture: "https://cdn.example/711.jpg"}},
		{ID: 12, Name: "Cafe", Picture: "https://cdn.example/12.jpg", Token: page12},
	}
	if err != nil || !reflect.DeepEqual(pages, want) {
		t.Fatalf("Accounts = %+v, %v; want %+v", pages, err, want)
	}
	pages, err = c.Accounts(ctx, tokenB)
	if err != nil || len(pages) != 0 {
		t.Fatalf("Accounts of a user without pages = %+v, %v", pages, err)
	}
	calls := fake.Calls()
	if len(calls) != 4 {
		t.Fatalf("%d calls, want 4", len(calls))
	}
	for i, want := range []struct{ path, fields, token string }{
		{"/me", "id,first_name,last_name,email", tokenA},
		{"/me", "id,first_name,last_name,email", tokenC},
		{"/me/accounts", "id,name,picture,access_token,network_b_account", tokenA},
		{"/me/accounts", "id,name,picture,access_token,network_b_account", tokenB},
	} {
		cl := calls[i]
		u, _ := url.Parse(cl.Path)
		if cl.Method != "GET" || u.Path != want.path || u.Query().Get("fields") != want.fields || len(u.Query()) != 1 || cl.Token != want.token || cl.Batched {
			t.Errorf("call %d = %+v, want GET %s?fields=%s", i, cl, want.path, want.fields)
		}
	}
	fake.ExpireToken(tokenC)
	if _, err := c.Me(ctx, tokenC); !TokenRefused(err) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("Me with an expired token = %v, want the token refused", err)
	}
	if _, err := c.Accounts(ctx, tokenC); !TokenRefused(err) {
		t.Fatalf("Accounts with an expired token = %v, want the token refused", err)
	}
}

// TestAccountsDropsBadPageTokens: a page token that cannot be a bearer
// token is left out of the page; the page itself stays.
func TestAccountsDropsBadPageTokens(t *testing.T) {
	t.Parallel()
	api := serve(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{
			map[string]any{"id": "1", "name": "A", "access_token": "EAAgood"},
			map[string]any{"id": "2", "name": "B", "access_token": "bad token"},
			map[string]any{"id": "3", "name": "C", "access_token": "EAA\r\nX: y"},
			map[string]any{"id": "4", "name": "D", "access_token": ""},
			map[string]any{"id": "5", "name": "E", "access_token": strings.Repeat("A", 4097)},
			map[string]any{"id": "6", "name": "F"},
		}})
	})
	c := newClient(t, api.URL, Options{})
	pages, err := c.Accounts(context.Background(), tokenA)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pages {
		got = append(got, fmt.Sprintf("%d=%s", p.ID, p.Token))
	}
	if want := []string{"1=EAAgood", "2=", "3=", "4=", "5=", "6="}; !reflect.DeepEqual(got, want) {
		t.Fatalf("page tokens %v, want %v", got, want)
	}
}
