// Package networka is the one client of network_a's Graph-style API: the
// social sign-in's /me and /me/accounts and the boosting
// engine's pages, posts and Marketing API. Every call goes
// through one exchange with one set of rules:
//
//   - The access token travels only in the Authorization header (or, in a
//     batch, in the entry that needs it): never in a URL, a log line or an
//     error. A token that cannot be a bearer token is not sent (ErrToken).
//     The exchange for a long-lived token (oauth.go) is the one call whose
//     query carries a token and the app's secret, as network_a's protocol
//     has it: it too names only its method and path in errors and logs.
//   - Redirects are refused: network_a answers directly.
//   - Each call's deadline is its caller's context, bounded by the client's
//     Timeout per request.
//   - Answers are read up to MaxAnswer bytes.
//   - A paging link must lead to the API's own scheme and host (else the
//     list is an error, so a token is never sent elsewhere); an access_token
//     parameter in it is dropped; a list reads at most MaxPages pages.
//   - Every failure is an *Error of one of four kinds (temporary, token
//     refused, gone, refused: KindOf) or wraps ErrUnavailable.
//   - Rate limits: the usage headers and the rate-limit codes pause
//     the scope they are about (the application, a user, a page, an ad
//     account) for the time network_a asks, at least a minute; a call in a
//     paused scope is not sent (*ThrottledError). Pauses are reported to
//     Options.OnThrottle so that the engine keeps them in PostgreSQL, and
//     Throttles().Load takes those other instances learnt.
//   - With Options.Batch, calls made at the same time by any number of
//     goroutines are sent together as batch requests of up to 50 entries
//     (`POST /` with `batch`), at most Options.Calls requests in flight;
//     each entry carries its own token when it differs from the request's,
//     and succeeds or fails on its own.
package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// DefaultTimeout bounds one request to network_a when Options.Timeout is 0.
const DefaultTimeout = 20 * time.Second

// MaxAnswer is the largest answer of network_a that is read.
const MaxAnswer = 8 << 20

// MaxPages is how many pages of one list are read at most.
const MaxPages = 100

// MaxBatch is how many calls one batch request carries at most.
const MaxBatch = 50

// Options configures a Client.
type Options struct {
	// Timeout bounds each HTTP request (a batch is one); 0 = DefaultTimeout.
	Timeout time.Duration
	// Batch sends the calls of concurrent callers together in batch
	// requests. Without it every call is a request of its own.
	Batch bool
	// Calls bounds the requests in flight when batching (ENGINE_CALLS);
	// 0 = 16.
	Calls int
	// Linger is how long a batch that is not full waits for more calls
	// before it is sent; 0 = 20 ms (a round trip of network_a is tens of
	// milliseconds: a batch that waits a little carries the calls of many
	// campaigns).
	Linger time.Duration
	// OnThrottle is told of every pause network_a asks for (called from the
	// goroutine of the call that learnt it; it must not call the client).
	OnThrottle func(Throttle)
	// Transport is the HTTP transport; nil = a clone of
	// http.DefaultTransport with enough idle connections for Calls.
	Transport http.RoundTripper
}

// Client calls network_a. It is safe for concurrent use; Close ends the
// batching of a client made with Options.Batch.
type Client struct {
	base      *url.URL
	http      *http.Client
	timeout   time.Duration
	throttles *Throttles
	onThrottl func(Throttle)
	batch     *batcher
}

// New answers a client of the API at baseURL (NETWORK_A_API_URL: http or
// https, with an optional path prefix such as /v25.0, no query, no user).
func New(baseURL string, opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("network_a API URL %q: want http(s)://host[:port][/path]", baseURL)
	}
	u.RawPath = ""
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Calls <= 0 {
		opts.Calls = 16
	}
	if opts.Linger <= 0 {
		opts.Linger = 20 * time.Millisecond
	}
	transport := opts.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(opts.Calls, 2)
		transport = t
	}
	c := &Client{
		base: u,
		http: &http.Client{
			Transport: transport,
			// A redirect would carry the request, and its token, elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		timeout:   opts.Timeout,
		throttles: newThrottles(),
		onThrottl: opts.OnThrottle,
	}
	if opts.Batch {
		c.batch = newBatcher(c, opts.Calls, opts.Linger)
	}
	return c, nil
}

// Close stops the batching: calls waiting to be sent fail with
// ErrUnavailable. A client without batching needs no Close.
func (c *Client) Close() {
	if c.batch != nil {
		c.batch.close()
	}
}

// Throttles are the client's pauses in force.
func (c *Client) Throttles() *Throttles { return c.throttles }

// bearerToken is the syntax of an OAuth 2.0 bearer token (RFC 6750, b64token).
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9\-._~+/]+=*$`)

// CheckToken tells whether token can be an access token at all.
func CheckToken(token string) error {
	if len(token) > 4096 || !bearerToken.MatchString(token) {
		return ErrToken
	}
	return nil
}

// call is one call: a method on a path of the API (without the base path:
// "/act_1/ads"), its query and form body, the token, and its scope.
type call struct {
	method string
	path   string
	query  url.Values
	body   Form
	token  string
	scope  Scope
	urgent bool // sent even while its scope is throttled (Pause)
}

// what names the call in errors and logs: the method and the path, never
// the query.
func (c call) what() string { return c.method + " " + c.path }

// relative is the call's path and query below the base URL.
func (c call) relative() string {
	s := strings.TrimPrefix(c.path, "/")
	if len(c.query) > 0 {
		s += "?" + c.query.Encode()
	}
	return s
}

// answer is a call's answer.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do makes one call, alone or in a batch, and decodes its JSON answer into
// out (unless nil). A paused scope, an error answer, or anything that is
// not network_a's protocol is an error (see the package doc); the pauses
// an answer asks for are recorded.
func (c *Client) do(ctx context.Context, cl call, out any) error {
	if err := c.sendable(cl); err != nil {
		return err
	}
	if c.batch == nil {
		a, err := c.send(ctx, cl)
		return c.finish(ctx, cl, a, err, out)
	}
	p, err := c.batch.enqueue(ctx, cl)
	if err != nil {
		return c.finish(ctx, cl, answer{}, err, out)
	}
	a, err := p.wait()
	return c.finish(ctx, cl, a, err, out)
}

// doMany makes the calls at once: queued together, in order, so that a
// batching client sends them in as few batch requests as it can (a client
// without batching makes them one after the other). It answers each call's
// error; outs[i] receives call i's answer.
func (c *Client) doMany(ctx context.Context, calls []call, outs []any) []error {
	errs := make([]error, len(calls))
	if c.batch == nil {
		for i, cl := range calls {
			errs[i] = c.do(ctx, cl, outs[i])
		}
		return errs
	}
	queued := make([]*pending, len(calls))
	for i, cl := range calls {
		if err := c.sendable(cl); err != nil {
			errs[i] = err
			continue
		}
		p, err := c.batch.enqueue(ctx, cl)
		if err != nil {
			errs[i] = c.finish(ctx, cl, answer{}, err, nil)
			continue
		}
		queued[i] = p
	}
	for i, p := range queued {
		if p != nil {
			a, err := p.wait()
			errs[i] = c.finish(ctx, calls[i], a, err, outs[i])
		}
	}
	return errs
}

// sendable tells why a call is not sent: a token that cannot be one, or a
// pause of its scope (which a pause of a campaign ignores).
func (c *Client) sendable(cl call) error {
	if err := CheckToken(cl.token); err != nil {
		return err
	}
	if th := c.throttles.Check(cl.scope); th != nil && !cl.urgent {
		return fmt.Errorf("%s: %w", cl.what(), th)
	}
	return nil
}

// finish turns the outcome of an exchange into the call's result.
func (c *Client) finish(ctx context.Context, cl call, a answer, err error, out any) error {
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %s: %w", ErrUnavailable, cl.what(), ctx.Err())
		}
		return err
	}
	return c.read(cl, a, out)
}

// read turns an answer into the call's result, recording its pauses.
func (c *Client) read(cl call, a answer, out any) error {
	var apiErr *Error
	if a.status >= 300 {
		apiErr = parseError(a.status, a.body, cl.what())
	}
	if apiErr != nil && cl.token != "" {
		// network_a may quote the token it refused, in any of its texts: it
		// never leaves here.
		for _, text := range []*string{&apiErr.Message, &apiErr.UserTitle, &apiErr.UserMsg, &apiErr.Data} {
			*text = strings.ReplaceAll(*text, cl.token, "[token]")
		}
	}
	for _, th := range learn(time.Now(), cl.scope, a.header, apiErr) {
		if c.throttles.add(th) && c.onThrottl != nil {
			c.onThrottl(th)
		}
	}
	switch {
	case apiErr != nil && apiErr.Temporary():
		return fmt.Errorf("%w: %w", ErrUnavailable, apiErr)
	case apiErr != nil:
		return apiErr
	case a.status >= 500 || a.status == http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s answered %d", ErrUnavailable, cl.what(), a.status)
	case a.status >= 300:
		return fmt.Errorf("%w: %s answered %d without an error object", ErrUnavailable, cl.what(), a.status)
	case out == nil:
		return nil
	}
	if err := json.Unmarshal(a.body, out); err != nil {
		return fmt.Errorf("%w: %s answered malformed JSON: %v", ErrUnavailable, cl.what(), err)
	}
	return nil
}

// send makes one call alone: its body, if any, as a form.
func (c *Client) send(ctx context.Context, cl call) (answer, error) {
	var form string
	if cl.body != nil {
		var err error
		if form, err = cl.body.Encode(); err != nil {
			return answer{}, fmt.Errorf("%w: %s: %v", errNotSent, cl.what(), err)
		}
	}
	return c.exchange(ctx, cl.method, c.endpoint(cl.path, cl.query), cl.token, form)
}

// exchange sends one HTTP request with the token in the Authorization
// header only and form, when not "", as its form body; it answers the
// status, the headers and the answer, read up to MaxAnswer bytes. A
// transport failure, a time-out or a larger answer is an error wrapping
// ErrUnavailable that names the method and the path.
func (c *Client) exchange(ctx context.Context, method, target, token, form string) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var reqBody io.Reader
	if form != "" {
		reqBody = strings.NewReader(form)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reqBody)
	if err != nil {
		return answer{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if form != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	what := method + " " + req.URL.Path
	resp, err := c.http.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the URL carries no token, but its query is noise
		}
		return answer{}, fmt.Errorf("%w: %s: %v", ErrUnavailable, what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return answer{}, fmt.Errorf("%w: %s answered a redirect (%d), which is refused", ErrUnavailable, what, resp.StatusCode)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
	if err != nil {
		return answer{}, fmt.Errorf("%w: %s: reading the answer: %v", ErrUnavailable, what, err)
	}
	if len(raw) > MaxAnswer {
		return answer{}, fmt.Errorf("%w: %s answered more than %d bytes", ErrUnavailable, what, MaxAnswer)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: raw}, nil
}

// endpoint is the URL of an API path under the base URL.
func (c *Client) endpoint(path string, query url.Values) string {
	u := *c.base
	u.Path = c.base.Path + path
	u.RawQuery = query.Encode()
	return u.String()
}

// next turns a paging link into the next call of a list: the same scheme
// and host as the API (else an error wrapping ErrUnavailable: the token
// would go elsewhere), under the API's base path, without access_token;
// ok false when there is none.
func (c *Client) next(cl call, link string) (call, bool, error) {
	if link == "" {
		return call{}, false, nil
	}
	u, err := c.base.Parse(link)
	if err != nil || u.Scheme != c.base.Scheme || u.Host != c.base.Host || u.User != nil {
		return call{}, false, fmt.Errorf("%w: %s: paging.next leads away from the API", ErrUnavailable, cl.what())
	}
	path, ok := strings.CutPrefix(u.Path, c.base.Path)
	if !ok || (path != "" && !strings.HasPrefix(path, "/")) || slices.ContainsFunc(strings.Split(path, "/"), func(seg string) bool {
		return seg == "." || seg == ".."
	}) {
		return call{}, false, fmt.Errorf("%w: %s: paging.next leads away from the API's path", ErrUnavailable, cl.what())
	}
	q := u.Query()
	q.Del("access_token")
	cl.path, cl.query = path, q
	return cl, true, nil
}

// list reads every page of a list call into each, following paging.next up
// to MaxPages pages; a link to a page already read ends the list (network_a
// loops back to the first page); each answers false to stop early.
func (c *Client) list(ctx context.Context, cl call, each func(raw json.RawMessage) (bool, error)) error {
	seen := map[string]bool{}
	for pages := 0; ; pages++ {
		if seen[cl.relative()] {
			return nil
		}
		if pages == MaxPages {
			return fmt.Errorf("%w: %s has more than %d pages", ErrUnavailable, cl.what(), MaxPages)
		}
		seen[cl.relative()] = true
		var page struct {
			Data   []json.RawMessage `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := c.do(ctx, cl, &page); err != nil {
			return err
		}
		for _, d := range page.Data {
			more, err := each(d)
			if err != nil {
				return fmt.Errorf("%w: %s: %v", ErrUnavailable, cl.what(), err)
			}
			if !more {
				return nil
			}
		}
		next, ok, err := c.next(cl, page.Paging.Next)
		if err != nil || !ok {
			return err
		}
		cl = next
	}
}

// clean drops the control characters of a text from network_a (PostgreSQL
// refuses NUL in text, and none belongs in a name or URL).
func clean(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
