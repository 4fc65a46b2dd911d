package networka

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AdAccount is one of the user's ad accounts.
type AdAccount struct {
	ID                    string `json:"id"`
	Name                  string `json:"name"`
	Status                int    `json:"account_status"` // 1 active, 9 in grace period: both may boost
	Currency              string `json:"currency"`
	TimezoneName          string `json:"timezone_name"`
	DisableReason         int    `json:"disable_reason"`
	DefaultDSABeneficiary string `json:"default_dsa_beneficiary"`
	DefaultDSAPayor       string `json:"default_dsa_payor"`
}

// Usable tells whether the account may boost: active (1) or in its grace
// period (9).
func (a AdAccount) Usable() bool { return a.Status == 1 || a.Status == 9 }

// adAccountFields are the fields AdAccounts asks.
const adAccountFields = "id,name,account_status,currency,timezone_name,disable_reason,default_dsa_beneficiary,default_dsa_payor"

// Post is a page's post as network_a answers it.
type Post struct {
	ID        string    // "<page id>_<post id>"
	Message   string    //
	Created   time.Time // created_time
	Permalink string    // permalink_url
	Picture   string    // full_picture
	Type      string    // status_type: added_photos, added_video, shared_story, mobile_status_update
	Reactions int64     // reactions.summary.total_count
	Comments  int64     // comments.summary.total_count
	Shares    int64     // shares.count; 0 when absent
}

// Insights are an ad's statistics over its lifetime.
type Insights struct {
	Impressions int64  `json:"impressions"`
	Reach       int64  `json:"reach"`
	Clicks      int64  `json:"clicks"`
	Engagement  int64  `json:"engagement"`  // the post_engagement action
	Conversions int64  `json:"conversions"` // the campaign's conversion action (ConversionAction)
	Spend       string `json:"spend"`       // a decimal in the ad account's currency, as network_a sent it
}

// Ad is one of a campaign's ads with its effective_status (ACTIVE, PAUSED,
// CAMPAIGN_PAUSED, ADSET_PAUSED, PENDING_REVIEW, IN_PROCESS, PREAPPROVED,
// PENDING_BILLING_INFO, DISAPPROVED, WITH_ISSUES, DELETED, ARCHIVED) and
// what its review said.
type Ad struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"effective_status"`
	Feedback struct {
		Global map[string]string `json:"global"`
	} `json:"ad_review_feedback"`
	Issues []struct {
		Summary string `json:"error_summary"`
		Message string `json:"error_message"`
	} `json:"issues_info"`
}

// The review statuses of a boosted post's ad.
const (
	ReviewPending     = "pending"
	ReviewApproved    = "approved"
	ReviewDisapproved = "disapproved"
	ReviewWithIssues  = "with_issues"
)

// Review is the ad's review: pending (PENDING_REVIEW, IN_PROCESS),
// disapproved with the global feedback's texts in the order of their keys,
// with_issues with the issues' summaries in their order (texts joined by
// "; "), else approved with no reason.
func (a Ad) Review() (status, reason string) {
	switch a.Status {
	case "PENDING_REVIEW", "IN_PROCESS":
		return ReviewPending, ""
	case "DISAPPROVED":
		texts := make([]string, 0, len(a.Feedback.Global))
		for _, k := range slices.Sorted(maps.Keys(a.Feedback.Global)) {
			texts = append(texts, clean(a.Feedback.Global[k]))
		}
		return ReviewDisapproved, strings.Join(texts, "; ")
	case "WITH_ISSUES":
		texts := make([]string, 0, len(a.Issues))
		for _, i := range a.Issues {
			t := i.Summary
			if t == "" {
				t = i.Message
			}
			texts = append(texts, clean(t))
		}
		return ReviewWithIssues, strings.Join(texts, "; ")
	}
	return ReviewApproved, ""
}

// AdAccounts answers the user's ad accounts (GET /me/adaccounts).
func (c *Client) AdAccounts(ctx context.Context, token string, s Scope) ([]AdAccount, error) {
	var out []AdAccount
	cl := call{method: http.MethodGet, path: "/me/adaccounts", query: url.Values{"fields": {adAccountFields}}, token: token, scope: s}
	err := c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var a AdAccount
		if err := json.Unmarshal(raw, &a); err != nil {
			return false, err
		}
		out = append(out, a)
		return true, nil
	})
	return out, err
}

// Followers answers a page's followers_count (page token).
func (c *Client) Followers(ctx context.Context, token, pageID string, s Scope) (int64, error) {
	var page struct {
		Followers int64 `json:"followers_count"`
	}
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(pageID), query: url.Values{"fields": {"followers_count"}}, token: token, scope: s}
	err := c.do(ctx, cl, &page)
	return page.Followers, err
}

// Posts answers the page's posts created at or after since, newest first,
// at most max (page token): network_a is asked with `since`, and a post
// older than since that it answers all the same ends the list. truncated
// tells that max cut the list: older posts of the window were not read.
func (c *Client) Posts(ctx context.Context, token, pageID string, since time.Time, max int, s Scope) (posts []Post, truncated bool, err error) {
	var out []Post
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(pageID) + "/posts", query: url.Values{
		"fields": {"id,message,created_time,permalink_url,full_picture,status_type," +
			"reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares"},
		"limit": {"100"},
		"since": {strconv.FormatInt(since.Unix(), 10)},
	}, token: token, scope: s}
	err = c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var p struct {
			ID        string `json:"id"`
			Message   string `json:"message"`
			Created   string `json:"created_time"`
			Permalink string `json:"permalink_url"`
			Picture   string `json:"full_picture"`
			Type      string `json:"status_type"`
			Reactions struct {
				Summary struct {
					Total int64 `json:"total_count"`
				} `json:"summary"`
			} `json:"reactions"`
			Comments struct {
				Summary struct {
					Total int64 `json:"total_count"`
				} `json:"summary"`
			} `json:"comments"`
			Shares struct {
				Count int64 `json:"count"`
			} `json:"shares"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return false, err
		}
		created, err := parseTime(p.Created)
		if err != nil {
			return false, fmt.Errorf("post %s: created_time %q", p.ID, p.Created)
		}
		if created.Before(since) || len(out) >= max {
			return false, nil
		}
		out = append(out, Post{ID: p.ID, Message: clean(p.Message), Created: created, Permalink: clean(p.Permalink),
			Picture: clean(p.Picture), Type: clean(p.Type), Reactions: max64(p.Reactions.Summary.Total, 0),
			Comments: max64(p.Comments.Summary.Total, 0), Shares: max64(p.Shares.Count, 0)})
		truncated = len(out) >= max
		return !truncated, nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, truncated, nil
}

// PostReach answers a post's organic reach, post_total_media_view_unique
// (page token; the post id as network_a gave it).
func (c *Client) PostReach(ctx context.Context, token, postID string, s Scope) (int64, error) {
	reach, errs := c.PostReaches(ctx, token, []string{postID}, s)
	return reach[0], errs[0]
}

// reachAnswer is the answer of a post's insights.
type reachAnswer struct {
	Data []struct {
		Name   string `json:"name"`
		Values []struct {
			Value int64 `json:"value"`
		} `json:"values"`
	} `json:"data"`
}

// value is the newest value of the metric.
func (a reachAnswer) value(metric string) int64 {
	for _, d := range a.Data {
		if d.Name == metric && len(d.Values) > 0 {
			return d.Values[len(d.Values)-1].Value
		}
	}
	return 0
}

// Create makes a campaign, ad set or ad (kind) in the ad account of s and
// answers its id (user token).
func (c *Client) Create(ctx context.Context, token, kind string, body map[string]any, s Scope) (string, error) {
	ids, errs := c.CreateMany(ctx, token, kind, []map[string]any{body}, s)
	return ids[0], errs[0]
}

// Find answers the id of the campaign, ad set or ad (kind) of the ad
// account of s named name, if network_a has one (user token).
func (c *Client) Find(ctx context.Context, token, kind, name string, s Scope) (string, bool, error) {
	ids, errs := c.FindMany(ctx, token, kind, []string{name}, s)
	return ids[0], ids[0] != "", errs[0]
}

// CreateMany makes several objects of a kind in the ad account of s at
// once (one batch when the client batches), in order, and answers each
// one's id or error.
func (c *Client) CreateMany(ctx context.Context, token, kind string, bodies []map[string]any, s Scope) ([]string, []error) {
	calls := make([]call, len(bodies))
	answers := make([]struct {
		ID string `json:"id"`
	}, len(bodies))
	outs := make([]any, len(bodies))
	for i, body := range bodies {
		calls[i] = call{method: http.MethodPost, path: "/" + url.PathEscape(s.AdAccount) + "/" + kind + "s", body: body, token: token, scope: s}
		outs[i] = &answers[i]
	}
	errs := c.doMany(ctx, calls, outs)
	ids := make([]string, len(bodies))
	for i := range bodies {
		if errs[i] == nil && answers[i].ID == "" {
			errs[i] = fmt.Errorf("%w: %s answered no id", ErrUnavailable, calls[i].what())
		}
		ids[i] = answers[i].ID
	}
	return ids, errs
}

// FindMany looks up several objects of a kind of the ad account of s by
// name at once; it answers each one's id, "" when network_a has none.
func (c *Client) FindMany(ctx context.Context, token, kind string, names []string, s Scope) ([]string, []error) {
	calls := make([]call, len(names))
	answers := make([]struct {
		Data []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
	}, len(names))
	outs := make([]any, len(names))
	for i, name := range names {
		filter, _ := json.Marshal([]map[string]string{{"field": "name", "operator": "EQUAL", "value": name}})
		calls[i] = call{method: http.MethodGet, path: "/" + url.PathEscape(s.AdAccount) + "/" + kind + "s", query: url.Values{
			"fields":    {"id,name,status"},
			"filtering": {string(filter)},
		}, token: token, scope: s}
		outs[i] = &answers[i]
	}
	errs := c.doMany(ctx, calls, outs)
	ids := make([]string, len(names))
	for i, name := range names {
		for _, o := range answers[i].Data {
			if errs[i] == nil && o.Name == name && o.ID != "" {
				ids[i] = o.ID
				break
			}
		}
	}
	return ids, errs
}

// PostReaches answers the organic reach of several posts of a page at once
// (page token), in order.
func (c *Client) PostReaches(ctx context.Context, token string, postIDs []string, s Scope) ([]int64, []error) {
	return c.reaches(ctx, token, postIDs, "post_total_media_view_unique", s)
}

// reaches asks the insights metric of each object over its whole life
// (date_preset=maximum) at once, in order.
func (c *Client) reaches(ctx context.Context, token string, ids []string, metric string, s Scope) ([]int64, []error) {
	calls := make([]call, len(ids))
	answers := make([]reachAnswer, len(ids))
	outs := make([]any, len(ids))
	for i, id := range ids {
		calls[i] = call{method: http.MethodGet, path: "/" + url.PathEscape(id) + "/insights",
			query: url.Values{"metric": {metric}, "date_preset": {"maximum"}}, token: token, scope: s}
		outs[i] = &answers[i]
	}
	errs := c.doMany(ctx, calls, outs)
	reach := make([]int64, len(ids))
	for i := range ids {
		reach[i] = answers[i].value(metric)
	}
	return reach, errs
}

// Pause sets a campaign's (or ad set's) status to PAUSED (user token). It is
// sent even while the scope is throttled: a pause saves the user's money,
// and network_a refuses it at no cost when it will not take it yet.
func (c *Client) Pause(ctx context.Context, token, objectID string, s Scope) error {
	cl := call{method: http.MethodPost, path: "/" + url.PathEscape(objectID), body: map[string]any{"status": "PAUSED"},
		token: token, scope: s, urgent: true}
	return c.do(ctx, cl, nil)
}

// Update posts the changed fields of an object (user token).
func (c *Client) Update(ctx context.Context, token, objectID string, body map[string]any, s Scope) error {
	cl := call{method: http.MethodPost, path: "/" + url.PathEscape(objectID), body: body, token: token, scope: s}
	return c.do(ctx, cl, nil)
}

// AdInsights answers the statistics of a network_a campaign's ads that
// delivered, by ad id, from `level=ad` rows (user token); an ad without a
// row is not in the map. A row whose values are not network_a's (a count
// that is no whole number, a spend that is no amount) is left out, its ad
// answered in bad, so that one ad's bad statistics cost the others
// nothing; a row without an ad id is left out too (answered as "").
// Conversions are the actions of type conversion (ConversionAction).
func (c *Client) AdInsights(ctx context.Context, token, campaignID, conversion string, s Scope) (rows map[string]Insights, bad []string, err error) {
	rows = map[string]Insights{}
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(campaignID) + "/insights", query: url.Values{
		"level":       {"ad"},
		"fields":      {"ad_id,impressions,reach,clicks,spend,actions"},
		"date_preset": {"maximum"},
		"limit":       {"500"},
	}, token: token, scope: s}
	err = c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var id struct {
			AdID string `json:"ad_id"`
		}
		if err := json.Unmarshal(raw, &id); err != nil || id.AdID == "" {
			bad = append(bad, "") // a row of no ad: nothing to lay it at
			return true, nil
		}
		var d insightsRow
		if err := json.Unmarshal(raw, &d); err != nil {
			bad = append(bad, id.AdID)
			return true, nil
		}
		in, err := d.insights(conversion)
		if err != nil {
			bad = append(bad, id.AdID)
			return true, nil
		}
		rows[id.AdID] = in
		return true, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, bad, nil
}

// AdDay is an ad's statistics of one day, in the ad account's time zone.
type AdDay struct {
	AdID string
	Day  string // YYYY-MM-DD
	Insights
}

// AdDays answers the statistics of a network_a campaign's ads by day
// (`level=ad`, `time_increment=1`, user token), one entry per ad and day
// network_a reports: over the campaign's whole life when since is "", else
// from since to until (YYYY-MM-DD, the ad account's days). Rows adboost
// cannot read are answered in bad (their ads), as AdInsights does.
func (c *Client) AdDays(ctx context.Context, token, campaignID, conversion, since, until string, s Scope) (days []AdDay, bad []string, err error) {
	q := url.Values{
		"level":          {"ad"},
		"fields":         {"ad_id,impressions,reach,clicks,spend,actions"},
		"time_increment": {"1"},
		"limit":          {"500"},
	}
	if since == "" {
		q.Set("date_preset", "maximum")
	} else {
		window, _ := json.Marshal(map[string]string{"since": since, "until": until})
		q.Set("time_range", string(window))
	}
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(campaignID) + "/insights", query: q, token: token, scope: s}
	err = c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var d struct {
			insightsRow
			Start string `json:"date_start"`
			Stop  string `json:"date_stop"`
		}
		if json.Unmarshal(raw, &d) != nil || d.AdID == "" {
			bad = append(bad, d.AdID)
			return true, nil
		}
		in, err := d.insights(conversion)
		if _, derr := time.Parse(time.DateOnly, d.Start); err != nil || derr != nil || d.Stop != d.Start {
			bad = append(bad, d.AdID)
			return true, nil
		}
		days = append(days, AdDay{AdID: d.AdID, Day: d.Start, Insights: in})
		return true, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return days, bad, nil
}

// Ads answers a network_a campaign's ads with their effective status (user
// token). network_a leaves deleted ads out.
func (c *Client) Ads(ctx context.Context, token, campaignID string, s Scope) ([]Ad, error) {
	var out []Ad
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(campaignID) + "/ads", query: url.Values{
		"fields": {"id,name,effective_status,ad_review_feedback,issues_info"},
		"limit":  {"500"},
	}, token: token, scope: s}
	err := c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var a Ad
		if err := json.Unmarshal(raw, &a); err != nil {
			return false, err
		}
		out = append(out, a)
		return true, nil
	})
	return out, err
}

// insightsRow is one row of an insights answer.
type insightsRow struct {
	AdID        string `json:"ad_id"`
	Impressions string `json:"impressions"`
	Reach       string `json:"reach"`
	Clicks      string `json:"clicks"`
	Spend       string `json:"spend"`
	Actions     []struct {
		Type  string `json:"action_type"`
		Value string `json:"value"`
	} `json:"actions"`
}

// insights reads a row: counts are non-negative integers sent as strings,
// spend a decimal (money); a field that is not is an error. Conversions
// are the actions of type conversion alone: network_a also reports them
// under grouped types (offsite_conversion, omni_purchase, …), which would
// count them twice.
func (d insightsRow) insights(conversion string) (Insights, error) {
	in := Insights{Spend: "0"}
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
		case conversion:
			in.Conversions += count(conversion, a.Value)
		}
	}
	if d.Spend != "" {
		if !money.MatchString(d.Spend) {
			bad = append(bad, "spend")
		}
		in.Spend = d.Spend
	}
	if len(bad) > 0 {
		return in, fmt.Errorf("bad %s", strings.Join(bad, ", "))
	}
	return in, nil
}

// money is a spend as network_a sends it: a non-negative decimal with as
// many decimals as the currency has (three for KWD: "1.234"), or more.
var money = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,12})?$`)

// parseTime reads network_a's times: RFC 3339 or "2006-01-02T15:04:05-0700".
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05-0700", s)
}

// ConversionAction is the insights action type that counts a campaign's
// conversions, from its promoted_object (null or absent: none):
// offsite_conversion.custom.<id> for a custom_conversion_id, else
// offsite_conversion.fb_pixel_<custom_event_type in lower case>, and
// offsite_conversion.fb_pixel_purchase without either.
func ConversionAction(promotedObject json.RawMessage) string {
	var po struct {
		CustomConversionID json.RawMessage `json:"custom_conversion_id"`
		CustomEventType    string          `json:"custom_event_type"`
	}
	_ = json.Unmarshal(promotedObject, &po) // not an object: the default
	var id string
	if json.Unmarshal(po.CustomConversionID, &id) != nil {
		var n json.Number
		if json.Unmarshal(po.CustomConversionID, &n) == nil {
			id = n.String()
		}
	}
	switch {
	case id != "":
		return "offsite_conversion.custom." + id
	case po.CustomEventType != "":
		return "offsite_conversion.fb_pixel_" + strings.ToLower(po.CustomEventType)
	}
	return "offsite_conversion.fb_pixel_purchase"
}

// City is a city as network_a's targeting search answers it.
type City struct {
	Key         string `json:"key"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	CountryCode string `json:"country_code"`
	Region      string `json:"region"`
}

// CityQuery is a city to look up: its name and country, and its region to
// choose among several of that name.
type CityQuery struct {
	Name, CountryCode, Region string
}

// Cities looks up several cities at once (GET
// /search?type=adgeolocation&location_types=["city"]), in order, and
// answers network_a's key of each: the entry whose name and country are
// the city's, and whose region is too when several are; "" when network_a
// knows no such city.
func (c *Client) Cities(ctx context.Context, token string, cities []CityQuery, s Scope) ([]string, []error) {
	calls := make([]call, len(cities))
	answers := make([]struct {
		Data []City `json:"data"`
	}, len(cities))
	outs := make([]any, len(cities))
	for i, q := range cities {
		calls[i] = call{method: http.MethodGet, path: "/search", query: url.Values{
			"type": {"adgeolocation"}, "location_types": {`["city"]`}, "q": {q.Name},
			"country_code": {q.CountryCode}, "limit": {"25"},
		}, token: token, scope: s}
		outs[i] = &answers[i]
	}
	errs := c.doMany(ctx, calls, outs)
	keys := make([]string, len(cities))
	for i, q := range cities {
		if errs[i] == nil {
			keys[i] = q.match(answers[i].Data)
		}
	}
	return keys, errs
}

// match is the key of the entry of data that is the city: same name and
// country (case aside), and same region when several are.
func (q CityQuery) match(data []City) string {
	var same []City
	for _, d := range data {
		if (d.Type == "" || d.Type == "city") && strings.EqualFold(d.Name, q.Name) && strings.EqualFold(d.CountryCode, q.CountryCode) && d.Key != "" {
			same = append(same, d)
		}
	}
	if len(same) == 1 {
		return same[0].Key
	}
	for _, d := range same {
		if q.Region != "" && strings.EqualFold(d.Region, q.Region) {
			return d.Key
		}
	}
	return ""
}
