// Package networkafake is network_a in memory: the Graph-style API of
// CONTRACT §6 (social sign-in: /me, /me/accounts) and §14 (pages, posts, post
// insights, ad accounts, the Marketing API's campaigns, ad sets, ads and
// their insights), with the OAuth errors of a real one. It is the one
// implementation of network_a's behaviour in the repository: the http and
// engine tests drive it through HTTP, and cmd/adboost-sandbox serves it.
//
// A Fake is an http.Handler and safe for concurrent use. It answers under
// any "/vNN.N" path prefix or none. Tokens are checked as network_a checks
// them: a user's token on /me, /me/accounts and the ad-account calls, a
// page's token (the access_token of /me/accounts) on the calls about the page
// and its posts. Switches make it fail the ways a network does (SetDown,
// SetDelay, SetFault, SetAccountsPaging), and it records every request.
package networkafake

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// User is a network_a user, known by the access token.
type User struct {
	Token, ID, FirstName, LastName, Email string
	Pages                                 []Page
	AdAccounts                            []AdAccount
}

// Page is a page the user manages, with its own access token (answered in
// /me/accounts) and the network_b account linked to it, if any.
type Page struct {
	ID, Name, Picture, Token string // Token: the page's access_token in /me/accounts
	Followers                int
	B                        *AccountB
}

// AccountB is a network_b account linked to a page.
type AccountB struct{ ID, Username, Picture string }

// AdAccount is an ad account of the user (/me/adaccounts).
type AdAccount struct {
	ID       string // "act_1"
	Status   int    // account_status; 1 = active
	Currency string
}

// Post is a post of a page.
type Post struct {
	ID                          string // as network_a gives it: "<page id>_<post id>"; empty: one is made
	Message, Permalink, Picture string
	Created                     time.Time // zero: now
	OrganicReach                int       // answered by /{post_id}/insights?metric=post_impressions_unique
}

// Object is a Marketing-API object created through the API.
type Object struct {
	Kind                        string // "campaign", "adset", "ad"
	ID, AccountID, Name, Status string
	Fields                      map[string]any   // the create body, with later updates merged in; numbers are json.Number
	Updates                     []map[string]any // every POST /{id} body, in order
}

// Insights are an ad's results, answered by GET /{ad_id}/insights.
type Insights struct {
	Impressions, Reach, Clicks, Engagement, Conversions int
	Spend                                               string // "12.34"
}

// Request is a request the fake received.
type Request struct {
	Method        string
	Path          string // with the query, as received
	Authorization string
	Body          string
}

// Fault is a way for every call to fail (SetFault).
type Fault int

const (
	// FaultNone: the fake answers normally.
	FaultNone Fault = iota
	// FaultDown: every call answers 503 with a transient Graph error (SetDown).
	FaultDown
	// FaultError500: every call answers 500 with Graph's "unexpected error" (code 2).
	FaultError500
	// FaultGarbage: every call answers 200 with an HTML maintenance page.
	FaultGarbage
	// FaultBare401: every call answers 401 with a plain-text body, not the OAuth shape.
	FaultBare401
)

// Paging is how /me/accounts links its pages (SetAccountsPaging).
type Paging int

const (
	// PagingNormal: paging.next on every page but the last.
	PagingNormal Paging = iota
	// PagingLoop: the last page's paging.next leads back to the first.
	PagingLoop
	// PagingEndless: every page has a paging.next, past the end too.
	PagingEndless
	// PagingForeign: paging.next points at another base URL.
	PagingForeign
)

// DefaultAccountsPageSize is how many pages one answer of /me/accounts holds
// unless SetAccountsPageSize says otherwise: small, so that every client
// meets paging.
const DefaultAccountsPageSize = 3

// Fake is network_a in memory. The zero value is not usable: call New.
type Fake struct {
	mu sync.Mutex

	users      map[string]*User    // by user token
	pageTokens map[string]string   // page token → page id
	pages      map[string]*Page    // by id: the latest description of the page
	accounts   map[string][]string // ad account id → tokens of the users who have it
	expired    map[string]bool
	posts      map[string]*Post   // by id
	pagePosts  map[string][]*Post // page id → posts, newest first
	postSeq    int

	objects  []*Object          // in creation order
	byID     map[string]*Object // by id
	objSeq   int
	insights map[string]Insights // by ad id

	fault       Fault
	delay       time.Duration
	pageSize    int
	paging      Paging
	elsewhere   string
	afterCreate func(Object)
	failures    map[string]*failure // by method + " " + path (FailCalls)
	requests    []Request
}

// failure is a scripted error answer of FailCalls.
type failure struct {
	left int
	err  Error
}

// New answers an empty world.
func New() *Fake {
	return &Fake{
		users:      map[string]*User{},
		pageTokens: map[string]string{},
		pages:      map[string]*Page{},
		accounts:   map[string][]string{},
		expired:    map[string]bool{},
		posts:      map[string]*Post{},
		pagePosts:  map[string][]*Post{},
		byID:       map[string]*Object{},
		insights:   map[string]Insights{},
		pageSize:   DefaultAccountsPageSize,
	}
}

// Start serves a new Fake on a local port until the test ends and answers it
// with the base URL to use as NETWORK_A_API_URL (with a "/v19.0" prefix).
func Start(t testing.TB) (*Fake, string) {
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/v19.0"
}

// AddUser adds the user, or replaces the user with the same token: the
// user's pages (with their tokens and followers) and ad accounts.
func (f *Fake) AddUser(u User) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u.Pages = slices.Clone(u.Pages)
	u.AdAccounts = slices.Clone(u.AdAccounts)
	for i := range u.Pages {
		p := u.Pages[i]
		if p.B != nil {
			b := *p.B
			p.B = &b
			u.Pages[i].B = &b
		}
		f.pages[p.ID] = &p
		if p.Token != "" {
			f.pageTokens[p.Token] = p.ID
		}
	}
	for _, a := range u.AdAccounts {
		if !slices.Contains(f.accounts[a.ID], u.Token) {
			f.accounts[a.ID] = append(f.accounts[a.ID], u.Token)
		}
	}
	f.users[u.Token] = &u
}

// UpdateUser changes the user of the token under the fake's lock (to rename
// pages, move network_b accounts, drop or add pages between two sign-ins).
// Pages and ad accounts are registered again afterwards. It panics when no
// user has the token.
func (f *Fake) UpdateUser(token string, change func(u *User)) {
	f.mu.Lock()
	u, ok := f.users[token]
	if !ok {
		f.mu.Unlock()
		panic("networkafake: UpdateUser: no user with this token")
	}
	c := *u
	c.Pages = slices.Clone(u.Pages)
	for i := range c.Pages { // followers as SetFollowers left them
		if p, ok := f.pages[c.Pages[i].ID]; ok {
			c.Pages[i].Followers = p.Followers
		}
	}
	c.AdAccounts = slices.Clone(u.AdAccounts)
	f.mu.Unlock()
	change(&c)
	f.AddUser(c)
}

// AddPost publishes a post on the page; /{page}/posts lists the page's posts
// newest first by Created. An empty ID gets a fresh "<page id>_<n>", a zero
// Created the current time. A post with the ID of an earlier one replaces it.
func (f *Fake) AddPost(pageID string, p Post) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.ID == "" {
		f.postSeq++
		p.ID = fmt.Sprintf("%s_%d", pageID, 900000+f.postSeq)
	}
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	p.Created = p.Created.UTC().Truncate(time.Second)
	list := slices.DeleteFunc(f.pagePosts[pageID], func(q *Post) bool { return q.ID == p.ID })
	list = append(list, &p)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Created.After(list[j].Created) })
	f.pagePosts[pageID] = list
	f.posts[p.ID] = &p
}

// Posts answers the page's posts, newest first.
func (f *Fake) Posts(pageID string) []Post {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Post, 0, len(f.pagePosts[pageID]))
	for _, p := range f.pagePosts[pageID] {
		out = append(out, *p)
	}
	return out
}

// SetOrganicReach sets a post's organic reach (post_impressions_unique).
func (f *Fake) SetOrganicReach(postID string, reach int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.posts[postID]; ok {
		p.OrganicReach = reach
	}
}

// SetFollowers sets a page's followers_count.
func (f *Fake) SetFollowers(pageID string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.pages[pageID]; ok {
		p.Followers = n
	}
}

// SetAdInsights sets what /{ad_id}/insights answers for the ad; until it is
// set, data is empty (all zero).
func (f *Fake) SetAdInsights(adID string, in Insights) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.insights[adID] = in
}

// Objects answers the objects of a kind ("campaign", "adset", "ad"; "" for
// all), in creation order, as copies.
func (f *Fake) Objects(kind string) []Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []Object{}
	for _, o := range f.objects {
		if kind == "" || o.Kind == kind {
			out = append(out, o.clone())
		}
	}
	return out
}

// ExpireToken makes every later call with the token (a user's or a page's)
// answer 400 with OAuthException code 190, "Session has expired". A token
// no user has can be expired too.
func (f *Fake) ExpireToken(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.expired[token] = true
}

// SetDown makes every call answer 503 (true) or answer normally (false).
func (f *Fake) SetDown(down bool) {
	if down {
		f.SetFault(FaultDown)
	} else {
		f.SetFault(FaultNone)
	}
}

// SetFault makes every call fail the given way; FaultNone ends it.
func (f *Fake) SetFault(fault Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault = fault
}

// SetDelay makes every answer wait d, or until the request's context ends
// (then nothing is answered); 0 ends it.
func (f *Fake) SetDelay(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delay = d
}

// SetAccountsPageSize sets how many pages one answer of /me/accounts holds
// (DefaultAccountsPageSize at first).
func (f *Fake) SetAccountsPageSize(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pageSize = max(n, 1)
}

// SetAccountsPaging sets how /me/accounts links its pages. For
// PagingForeign, paging.next leads to elsewhere (a base URL such as
// "http://127.0.0.1:1/v19.0"); the other modes ignore it.
func (f *Fake) SetAccountsPaging(p Paging, elsewhere string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paging, f.elsewhere = p, strings.TrimRight(elsewhere, "/")
}

// AfterCreate sets a hook that runs after a create (POST /{act}/campaigns,
// adsets, ads) is recorded and BEFORE its answer is written: a test can
// cancel the caller there. nil removes it.
func (f *Fake) AfterCreate(hook func(o Object)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.afterCreate = hook
}

// Error is an error answer of network_a in Graph's shape, scripted with
// FailCalls.
type Error struct {
	Status    int    // HTTP status; 0 is 400, as Graph answers most errors
	Type      string // "" is OAuthException
	Code      int    // error.code
	Subcode   int    // error.error_subcode; 0 leaves it out
	Transient bool   // error.is_transient
	Message   string
}

// RateLimited is Graph's answer to a user over its call rate: HTTP 400,
// OAuthException code 17, "User request limit reached". A client retries it
// later; it says nothing about the call itself.
func RateLimited() Error {
	return Error{Code: 17, Message: "(#17) User request limit reached"}
}

// Transient is Graph's answer to a call that failed for a passing reason
// on network_a's side: HTTP 400, code 2, is_transient true.
func Transient() Error {
	return Error{Code: 2, Transient: true, Message: "(#2) Service temporarily unavailable"}
}

// FailCalls makes the next n calls with the method to path answer e instead
// of what they would answer (they are still recorded in Requests). path is
// the path without the "/vNN.N" prefix, the slashes around it and the query:
// "act_1/ads", "<object id>", "456/posts". A later FailCalls for the same
// method and path replaces the earlier one; n ≤ 0 ends it.
func (f *Fake) FailCalls(method, path string, n int, e Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := method + " " + strings.Trim(path, "/")
	if n <= 0 {
		delete(f.failures, key)
		return
	}
	if f.failures == nil {
		f.failures = map[string]*failure{}
	}
	f.failures[key] = &failure{left: n, err: e}
}

// scripted answers the error FailCalls set for the call, if any, and counts
// it; under f.mu.
func (f *Fake) scripted(method, path string) (answer, bool) {
	key := method + " " + path
	fl, ok := f.failures[key]
	if !ok {
		return answer{}, false
	}
	if fl.left--; fl.left <= 0 {
		delete(f.failures, key)
	}
	e := fl.err
	status, typ := e.Status, e.Type
	if status == 0 {
		status = http.StatusBadRequest
	}
	if typ == "" {
		typ = "OAuthException"
	}
	body := map[string]any{"message": e.Message, "type": typ, "code": e.Code, "fbtrace_id": "AbCdEf0fake"}
	if e.Subcode != 0 {
		body["error_subcode"] = e.Subcode
	}
	if e.Transient {
		body["is_transient"] = true
	}
	return answer{status, map[string]any{"error": body}}, true
}

// Requests answers every request received so far, in order.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

// ClearRequests forgets the requests received so far.
func (f *Fake) ClearRequests() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = nil
}

// TakeRequests answers the requests received so far and forgets them.
func (f *Fake) TakeRequests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := f.requests
	f.requests = nil
	return seen
}

func (o *Object) clone() Object {
	c := *o
	c.Fields = cloneMap(o.Fields)
	c.Updates = make([]map[string]any, len(o.Updates))
	for i, u := range o.Updates {
		c.Updates[i] = cloneMap(u)
	}
	return c
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

var _ http.Handler = (*Fake)(nil)
