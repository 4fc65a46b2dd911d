package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"adboost/auth"
)

// CallTimeout bounds one call to network_a.
const CallTimeout = 20 * time.Second

// maxBody is the largest answer of network_a that is read.
const maxBody = 8 << 20

// ErrUnavailable wraps what makes a call worth retrying later: network_a
// down, slow (time-out), answering 5xx, an error answer that network_a marks
// as passing (a rate limit, a transient error: see APIError.Temporary), or
// something that is not its protocol. Nothing is recorded for such a call.
// It is sign-in's auth.ErrNetworkAUnavailable: one network_a, one sentinel.
var ErrUnavailable = auth.ErrNetworkAUnavailable

// APIError is network_a's error answer (CONTRACT §6 shape) to a call, as
// auth.ParseNetworkAError reads it; Code 190: the access token is invalid or
// expired.
type APIError auth.NetworkAError

func (e *APIError) Error() string {
	return fmt.Sprintf("network_a answered %d: %s code %d: %s", e.Status, e.Type, e.Code, e.Message)
}

// Temporary tells whether the answer says nothing about the call itself,
// only that network_a would not do it now: Graph answers its rate limits
// and passing failures with HTTP 400 (or 403) and code 1 (unknown error), 2
// (service temporarily unavailable), 4 (application request limit), 17
// (user request limit), 32 (page request limit), 341 (application limit),
// 613 (calls per hour exceeded), 80000 to 80014 (business use case rate
// limits), or with is_transient true. The same call is made again later.
func (e *APIError) Temporary() bool {
	switch {
	case e.Transient:
		return true
	case e.Code == 1, e.Code == 2, e.Code == 4, e.Code == 17, e.Code == 32, e.Code == 341, e.Code == 613:
		return true
	case e.Code >= 80000 && e.Code <= 80014:
		return true
	}
	return false
}

// tokenRefused tells whether err is network_a refusing the access token
// (OAuth error 190).
func tokenRefused(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Code == 190
}

// refusedByNetworkA tells whether err is network_a refusing a call for
// another reason than the token (an object that does not exist, a parameter
// it does not take): a final answer, retrying the same call would not help.
// A rate limit or a transient error (ErrUnavailable) is not one.
func refusedByNetworkA(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Code != 190 && !errors.Is(err, ErrUnavailable)
}

// objectGone tells whether err is network_a answering that the object the
// call was about does not exist (any more): code 100, subcode 33, "Object
// with ID .. does not exist, cannot be loaded due to missing permissions,
// or does not support this operation".
func objectGone(err error) bool {
	var api *APIError
	return refusedByNetworkA(err) && errors.As(err, &api) && api.Code == 100 && api.Subcode == 33
}

// Client calls network_a's Graph-style and Marketing APIs (CONTRACT §14).
// The access token travels only in the Authorization header, never in a URL
// or an error.
type Client struct {
	base *url.URL
	http *http.Client
}

// NewClient makes a client of the API at baseURL (NETWORK_A_API_URL).
func NewClient(baseURL string) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("NETWORK_A_API_URL %q is not an http(s) URL", baseURL)
	}
	return &Client{base: u, http: &http.Client{Timeout: CallTimeout}}, nil
}

// AdAccount is one of the user's ad accounts.
type AdAccount struct {
	ID       string `json:"id"`
	Status   int    `json:"account_status"`
	Currency string `json:"currency"`
}

// Post is a page's post as network_a answers it.
type Post struct {
	ID        string    `json:"id"` // "<page id>_<post id>"
	Message   string    `json:"message"`
	Created   time.Time `json:"created_time"`
	Permalink string    `json:"permalink_url"`
	Picture   string    `json:"full_picture"`
}

// Insights are an ad's statistics.
type Insights struct {
	Impressions int64  `json:"impressions"`
	Reach       int64  `json:"reach"`
	Clicks      int64  `json:"clicks"`
	Engagement  int64  `json:"engagement"`
	Conversions int64  `json:"conversions"`
	Spend       string `json:"spend"` // a decimal in the ad account's currency, as network_a sent it
}

// AdAccounts answers the user's ad accounts (GET /me/adaccounts).
func (c *Client) AdAccounts(ctx context.Context, token string) ([]AdAccount, error) {
	var out []AdAccount
	next := c.endpoint("/me/adaccounts", url.Values{"fields": {"id,account_status,currency"}})
	for pages := 0; next != "" && pages < 20; pages++ {
		var page struct {
			Data   []AdAccount `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := c.call(ctx, http.MethodGet, next, token, nil, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Data...)
		next = c.sameHost(page.Paging.Next)
	}
	return out, nil
}

// Followers answers the page's followers_count.
func (c *Client) Followers(ctx context.Context, token, pageID string) (int64, error) {
	var page struct {
		Followers int64 `json:"followers_count"`
	}
	err := c.call(ctx, http.MethodGet, c.endpoint("/"+url.PathEscape(pageID), url.Values{"fields": {"followers_count"}}), token, nil, &page)
	return page.Followers, err
}

// Posts answers the page's posts, newest first, until one older than since
// or max posts.
func (c *Client) Posts(ctx context.Context, token, pageID string, since time.Time, max int) ([]Post, error) {
	var out []Post
	next := c.endpoint("/"+url.PathEscape(pageID)+"/posts", url.Values{
		"fields": {"id,message,created_time,permalink_url,full_picture"},
		"limit":  {"100"},
	})
	for next != "" {
		var page struct {
			Data []struct {
				Post
				Created string `json:"created_time"`
			} `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := c.call(ctx, http.MethodGet, next, token, nil, &page); err != nil {
			return nil, err
		}
		for _, p := range page.Data {
			created, err := parseTime(p.Created)
			if err != nil {
				return nil, fmt.Errorf("%w: post %s: created_time %q", ErrUnavailable, p.ID, p.Created)
			}
			if created.Before(since) || len(out) >= max {
				return out, nil
			}
			p.Post.Created = created
			out = append(out, p.Post)
		}
		next = c.sameHost(page.Paging.Next)
	}
	return out, nil
}

// PostReach answers a post's organic reach (post_impressions_unique).
func (c *Client) PostReach(ctx context.Context, token, postID string) (int64, error) {
	var answer struct {
		Data []struct {
			Name   string `json:"name"`
			Values []struct {
				Value int64 `json:"value"`
			} `json:"values"`
		} `json:"data"`
	}
	err := c.call(ctx, http.MethodGet, c.endpoint("/"+url.PathEscape(postID)+"/insights",
		url.Values{"metric": {"post_impressions_unique"}}), token, nil, &answer)
	if err != nil {
		return 0, err
	}
	for _, d := range answer.Data {
		if d.Name == "post_impressions_unique" && len(d.Values) > 0 {
			return d.Values[len(d.Values)-1].Value, nil
		}
	}
	return 0, nil
}

// Create makes a campaign, ad set or ad (kind) in the ad account and answers
// its id.
func (c *Client) Create(ctx context.Context, token, account, kind string, body map[string]any) (string, error) {
	var created struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, http.MethodPost, c.endpoint("/"+url.PathEscape(account)+"/"+kind+"s", nil), token, body, &created); err != nil {
		return "", err
	}
	if created.ID == "" {
		return "", fmt.Errorf("%w: create %s answered no id", ErrUnavailable, kind)
	}
	return created.ID, nil
}

// Find answers the id of the ad account's campaign, ad set or ad (kind)
// named name, if network_a has one.
func (c *Client) Find(ctx context.Context, token, account, kind, name string) (string, bool, error) {
	filter, _ := json.Marshal([]map[string]string{{"field": "name", "operator": "EQUAL", "value": name}})
	var found struct {
		Data []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
	}
	err := c.call(ctx, http.MethodGet, c.endpoint("/"+url.PathEscape(account)+"/"+kind+"s", url.Values{
		"fields":    {"id,name,status"},
		"filtering": {string(filter)},
	}), token, nil, &found)
	if err != nil {
		return "", false, err
	}
	for _, o := range found.Data {
		if o.Name == name && o.ID != "" {
			return o.ID, true, nil
		}
	}
	return "", false, nil
}

// Update posts the changed fields of an object.
func (c *Client) Update(ctx context.Context, token, objectID string, body map[string]any) error {
	return c.call(ctx, http.MethodPost, c.endpoint("/"+url.PathEscape(objectID), nil), token, body, nil)
}

// AdInsights answers an ad's statistics over its lifetime; no data is all
// zero.
func (c *Client) AdInsights(ctx context.Context, token, adID string) (Insights, error) {
	var answer struct {
		Data []struct {
			Impressions string `json:"impressions"`
			Reach       string `json:"reach"`
			Clicks      string `json:"clicks"`
			Spend       string `json:"spend"`
			Actions     []struct {
				Type  string `json:"action_type"`
				Value string `json:"value"`
			} `json:"actions"`
		} `json:"data"`
	}
	in := Insights{Spend: "0"}
	err := c.call(ctx, http.MethodGet, c.endpoint("/"+url.PathEscape(adID)+"/insights", url.Values{
		"fields":      {"impressions,reach,clicks,spend,actions"},
		"date_preset": {"maximum"},
	}), token, nil, &answer)
	if err != nil || len(answer.Data) == 0 {
		return in, err
	}
	d := answer.Data[0]
	var bad []string
	count := func(field, v string) int64 {
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			bad = append(bad, field)
		}
		return n
	}
	in.Impressions = count("impressions", d.Impressions)
	in.Reach = count("reach", d.Reach)
	in.Clicks = count("clicks", d.Clicks)
	for _, a := range d.Actions {
		switch a.Type {
		case "post_engagement":
			in.Engagement += count("post_engagement", a.Value)
		case "offsite_conversion":
			in.Conversions += count("offsite_conversion", a.Value)
		}
	}
	if d.Spend != "" {
		if !money.MatchString(d.Spend) {
			bad = append(bad, "spend")
		}
		in.Spend = d.Spend
	}
	if len(bad) > 0 {
		return in, fmt.Errorf("%w: insights of ad %s: bad %s", ErrUnavailable, adID, strings.Join(bad, ", "))
	}
	return in, nil
}

// money is a spend as network_a sends it: a non-negative decimal with as
// many decimals as the currency has (three for KWD: "1.234"), or more; the
// database keeps three, rounded half up (NetworkAAdInsightReplace).
var money = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,12})?$`)

// endpoint is the URL of path under the base URL, with the query.
func (c *Client) endpoint(path string, query url.Values) string {
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	u.RawQuery = query.Encode()
	return u.String()
}

// sameHost answers a paging URL when it points at network_a itself (so a
// token is never sent elsewhere), without an access_token parameter
// (auth.NetworkAPageURL), else "": the list ends there.
func (c *Client) sameHost(next string) string {
	u, err := auth.NetworkAPageURL(c.base, next)
	if err != nil || u == nil {
		return ""
	}
	return u.String()
}

// call sends one request (auth.NetworkAExchange) and decodes its JSON answer
// into out (unless nil). 5xx and 429 are ErrUnavailable; another error
// answer is an *APIError, wrapped in ErrUnavailable when it says network_a
// would not do the call now (APIError.Temporary).
func (c *Client) call(ctx context.Context, method, target, token string, body, out any) error {
	status, raw, err := auth.NetworkAExchange(ctx, c.http, method, target, token, body, maxBody)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	what := method + " " + pathOf(target)
	if status >= 500 || status == http.StatusTooManyRequests {
		return fmt.Errorf("%w: %s answered %d", ErrUnavailable, what, status)
	}
	if status >= 300 {
		parsed := auth.ParseNetworkAError(status, raw)
		if parsed == nil {
			return fmt.Errorf("%w: %s answered %d without an error object", ErrUnavailable, what, status)
		}
		apiErr := (*APIError)(parsed)
		if apiErr.Temporary() {
			return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, apiErr)
		}
		return fmt.Errorf("%s: %w", what, apiErr)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrUnavailable, what, err)
	}
	return nil
}

// pathOf is the path of a request's URL, for errors: never the query.
func pathOf(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return "?"
	}
	return u.Path
}

// parseTime reads network_a's times: RFC 3339 or "2006-01-02T15:04:05-0700".
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05-0700", s)
}
