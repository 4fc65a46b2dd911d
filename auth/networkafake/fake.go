// Package networkafake is network_a in memory: the Graph-style API of
// social sign-in (/me, /me/accounts, /me/permissions, the exchange of a
// token for a long-lived one) and of the boosting engine (pages, posts, post
// insights, the network_b accounts linked to pages and their media, ad
// accounts, the Marketing API's campaigns, ad sets, ads and their insights,
// the city search, batches, usage headers), with the errors of a real one.
// It is the one implementation of network_a's behaviour in the repository:
// the http and engine tests drive it through HTTP, and cmd/adboost-sandbox
// serves it.
//
// A Fake is an http.Handler and safe for concurrent use. It answers any
// correct client as network_a does, Meta's own SDKs as adboost: under any
// "/vNN.N" path prefix or none ("/v25.0/me"), with the token in an
// Authorization header ("Bearer TOKEN") or as the access_token parameter of
// the query or of the body, and a body that is a form
// (application/x-www-form-urlencoded) or a JSON object. Tokens are checked as
// network_a checks them: a user's token on /me, /me/accounts,
// /me/permissions and the ad-account calls, a page's token (the
// access_token of /me/accounts) on the calls about the page and its posts,
// and about the network_b account linked to the page and its media. A read
// answers the fields it asks for that the node has, its id always, and
// leaves out the others; without fields it answers network_a's defaults
// (id and name of a user; id, name and access_token of a page in
// /me/accounts; id and account_id of an ad account; id of a campaign, ad
// set or ad). Only a fields parameter whose brackets do not balance is
// refused.
//
// Tokens end by the fake's clock (SetNow). A user's sign-in token ends
// SignInTokenLifetime (an hour) after it was issued: User.Issued, or
// IssueToken's time; a User without Issued has a token that does not end.
// GET (or POST) /oauth/access_token?grant_type=fb_exchange_token&client_id=ID&client_secret=SECRET&fb_exchange_token=TOKEN
// exchanges a user's token that has not ended for a new long-lived one of
// the same user, {"access_token","token_type":"bearer","expires_in":5183944},
// which ends ExchangedExpiresIn seconds later; only the app of SetApp may
// exchange (another client_id: code 101, "Error validating application.
// Invalid application ID."; another client_secret: code 1, "Error
// validating client secret."). A page token ends with the user's token it
// was last read with in /me/accounts, and does not end when that token is
// long-lived or does not end itself. Past its end (or after ExpireToken) a
// token is refused on every call with 400, code 190, subcode 463, "Error
// validating access token: Session has expired on Monday, 23-Nov-26
// 09:00:00 PST. The current time is …" (the times in Pacific time);
// TokenEnd tells when a token ends. The value of client_secret, and the
// app's secret wherever it appears, is "***" in what the fake records.
//
// GET /me/permissions answers the user's permissions,
// {"data":[{"permission","status"}]}: public_profile, the
// DefaultPermissions (granted unless User.Permissions says declined or
// expired), then any other the user answered. A user who has not granted
// ads_management is refused every call about ad accounts (/me/adaccounts,
// /act_X/…, the calls about its campaigns, ad sets and ads) with 403, code
// 200, "(#200) Ad account owner has NOT grant ads_management or ads_read
// permission"; the posts of a page whose user has not granted
// pages_read_engagement are refused with 403, code 10, "(#10) This
// endpoint requires the 'pages_read_engagement' permission …". The other
// permissions refuse nothing.
//
// A batch is POST / with the form fields batch (the entries as a JSON array
// text), include_headers (the entries' headers unless it is false) and
// access_token, or the same as a JSON object. An entry is
// {"method","relative_url","body","access_token","name"}: its body is a
// form text, and an entry whose body is JSON text is refused on its own
// (400, code 100, "Invalid parameter"). Each entry is answered as the same
// call alone, in order, except that network_a carries out at most one ad
// set create (POST /act_X/adsets) per campaign_id in one batch request,
// whatever it answers: it answers null for the later ones, which are not
// carried out (no call is recorded for them).
//
// The calls it answers:
//   - GET /me, /me/accounts (paged, see SetAccountsPageSize),
//     /me/adaccounts (paged by limit and after: id, name, account_status,
//     currency, timezone_name, disable_reason, min_daily_budget and the
//     DSA defaults), /me/permissions; GET and POST /oauth/access_token;
//   - GET /{page_id}, /{page_id}/posts (newest first, paged, with since),
//     /{post_id}/insights?metric=post_total_media_view_unique (the retired
//     post_impressions_unique, like any other metric, is refused: code 100,
//     "(#100) The value must be a valid insights metric");
//   - GET /{network_b_id} (followers_count), /{network_b_id}/media (newest
//     first, paged, with since), /{media_id}/insights?metric=reach;
//   - GET /search?type=adgeolocation&location_types=["city"]&q=NAME&country_code=CC:
//     the cities of AddCity whose name starts with, then holds, NAME;
//   - GET and POST /act_X/campaigns|adsets|ads (lists, with filtering on the
//     name, and creates), GET and POST /{object_id} (fields, effective_status;
//     updates), GET /{ad_id}/insights, GET /{campaign_id}/insights?level=ad
//     and GET /{campaign_id}/ads (paged, with ad_review_feedback and
//     issues_info when asked);
//   - POST / with a batch: up to 50 of the calls above in one request.
//
// A create or an update takes a form (application/x-www-form-urlencoded;
// objects, arrays and booleans as their compact JSON text) or a JSON
// object; a batch entry's body is a form. Insights are kept per ad and day
// (SetAdInsights, SetAdInsightsDay, in the ad account's time zone, by the
// clock of SetNow): a read sums date_preset=maximum's whole life, a
// time_range's days, or without either the 30 days before today; with
// time_increment=1 it answers a row per ad and day. Conversions are
// reported as offsite_conversion.fb_pixel_<event> (the ad set's
// promoted_object.custom_event_type in lower case, purchase without one) or
// offsite_conversion.custom.<id>, and again under the grouped types
// offsite_conversion and omni_<event>.
//
// Every error is Graph's error object: message, type, code, and when they
// apply error_subcode, error_user_title, error_user_msg, is_transient,
// error_data (a JSON text naming the field at fault) and fbtrace_id. A
// create is refused with HTTP 400 and code 100 when:
//   - a campaign's objective is not one of OUTCOME_ENGAGEMENT,
//     OUTCOME_TRAFFIC, OUTCOME_AWARENESS, OUTCOME_SALES,
//     OUTCOME_APP_PROMOTION, OUTCOME_LEADS (the old names such as
//     POST_ENGAGEMENT are refused, in an update too); it has no
//     is_adset_budget_sharing_enabled (SubcodeBudgetSharing, "Must specify
//     True or False in is_adset_budget_sharing_enabled field"), no
//     special_ad_categories list (SubcodeSpecialCategories), or a category
//     without special_ad_category_country (SubcodeCategoryCountry);
//   - an ad set has lifetime_budget and no end_time; optimization_goal
//     OFFSITE_CONVERSIONS or APP_INSTALLS and no promoted_object; bid_strategy
//     COST_CAP or LOWEST_COST_WITH_BID_CAP and no bid_amount; a dsa_beneficiary
//     or dsa_payor longer than 512 characters; no
//     targeting.targeting_automation.advantage_audience
//     (SubcodeAdvantageAudience), or 1 there with an age_max below 65
//     (SubcodeAdvantageAge); optimization_goal THRUPLAY with a
//     destination_type other than ON_VIDEO (SubcodeGoalUnavailable); in a
//     campaign with a special ad category, an age_min above 18, an age_max
//     below 65, genders, or a city radius under 15 miles or 25 km
//     (SubcodeCategoryTargeting); a city key AddCity did not add
//     (SubcodeUnknownCity) or a radius outside 10–50 miles or 17–80 km
//     (SubcodeCityRadius); targeting that reaches a country of the EU
//     (EUCountries; its countries and its cities' countries) without
//     dsa_beneficiary (SubcodeNoBeneficiary) or dsa_payor (SubcodeNoPayor),
//     unless the ad account has a default for it; a daily budget below the
//     ad account's MinDailyBudget (DefaultMinDailyBudget when 0), or a
//     lifetime budget below it times the started days of its flight
//     (SubcodeBudgetTooLow, "Budget is too low", the minimum in the
//     account's currency);
//   - an ad's creative is not one existing post of a page the ad account's
//     users manage (SubcodePostUnavailable for an unknown, deleted or
//     foreign post) or one existing media (SubcodePostNotAvailable) of the
//     network_b account it names in instagram_user_id, with the page that
//     account is linked to as object_id (either missing:
//     SubcodeNoInstagramAccount); a post of another page than the ad set's
//     promoted_object.page_id (SubcodePageMismatch); network_b media in an
//     ad set whose targeting.publisher_platforms leaves out "network_b"; a
//     network_a post in an ad set whose publisher_platforms is network_b
//     alone; a post in an ad set that may run on network_b (its
//     publisher_platforms name it, or are absent) without the page's
//     network_b account as instagram_user_id (SubcodeNoInstagramAccount,
//     "Instagram Account Is Missing"); an ad in an ad set of an
//     OUTCOME_ENGAGEMENT campaign without promoted_object.page_id
//     (SubcodeNoPageID);
//   - any create or update names instagram_actor_id, at any depth ("Param
//     instagram_actor_id must be a valid Instagram account id").
//
// An update of an ad set is refused alike when it would leave the ad set
// breaking one of its rules (an update that touches none of a rule's fields,
// a pause say, passes that rule). A create that passes these checks in an
// ad account without a payment method (SetPaymentMethod) answers code 200.
// The subcodes of refusals about the post itself are PostSubcodes.
//
// The world is set up with AddUser, UpdateUser, IssueToken, AddPost, DeletePost,
// AddMedia, DeleteMedia, AddCity, SetFollowers (of a page or a network_b
// account), SetOrganicReach, SetMediaReach, SetMediaCounts, SetAdInsights,
// SetAdInsightsDay, SetAdReview, SetAdReviewFeedback, SetObjectStatus and
// SetPaymentMethod, read back with Posts, MediaOf, Objects, TokenEnd and State, and
// saved and restored whole with State and SetState; SetNow sets its clock,
// SetApp the app that may exchange tokens.
// Switches make it fail the ways a network does: for every request
// SetDown, SetFault and SetDelay (a batch is one request); for chosen calls
// FailCalls (any error object), ExpireToken, ThrottleAccount;
// SetAccountUsage adds network_a's usage header; SetAccountsPaging breaks
// /me/accounts' paging. It records what it receives: Requests (HTTP
// requests), Calls (plain requests and batch entries), Counts (both, as
// counters that SetRecording(false) keeps while the lists are not kept).
package networkafake

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
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
	// Issued is when Token was issued, by the fake's clock: it ends
	// SignInTokenLifetime later, and the page tokens read with it end with
	// it. Zero: Token does not end (nor do the page tokens read with it).
	Issued time.Time `json:",omitzero"`
	// Permissions are the statuses (Granted, Declined, Expired) of the
	// permissions the user has answered, by name; each of
	// DefaultPermissions it does not name is granted.
	Permissions map[string]string `json:",omitempty"`
}

// Page is a page the user manages, with its own access token (answered in
// /me/accounts) and the network_b account linked to it, if any.
type Page struct {
	ID, Name, Picture, Token string // Token: the page's access_token in /me/accounts
	Followers                int
	B                        *AccountB
}

// AccountB is a network_b account linked to a page. Its calls and its
// media's are made with the page's token.
type AccountB struct {
	ID, Username, Picture string
	Followers             int // followers_count of GET /{network_b_id}
}

// AdAccount is an ad account of the user (/me/adaccounts).
type AdAccount struct {
	ID       string // "act_1"
	Status   int    // account_status: AccountActive, AccountDisabled, …
	Currency string
	// Name is the account's name; "" answers the id as its name.
	Name string `json:",omitempty"`
	// TimezoneName is the account's IANA time zone (timezone_name); "" is UTC.
	TimezoneName string `json:",omitempty"`
	// MinDailyBudget is the smallest daily budget the account takes, in the
	// currency's offset unit; 0 is DefaultMinDailyBudget.
	MinDailyBudget int `json:",omitempty"`
	// DefaultDSABeneficiary and DefaultDSAPayor are the account's defaults
	// for the EU's transparency fields; "" when it has none.
	DefaultDSABeneficiary string `json:",omitempty"`
	DefaultDSAPayor       string `json:",omitempty"`
	// DisableReason is the account's disable_reason: ReasonNone (0),
	// ReasonAdsIntegrityPolicy, …
	DisableReason int `json:",omitempty"`
}

// The values of an ad account's account_status.
const (
	AccountActive            = 1
	AccountDisabled          = 2
	AccountUnsettled         = 3
	AccountPendingRiskReview = 7
	AccountPendingSettlement = 8
	AccountInGracePeriod     = 9
	AccountPendingClosure    = 100
	AccountClosed            = 101
)

// The values of an ad account's disable_reason.
const (
	ReasonNone                           = 0
	ReasonAdsIntegrityPolicy             = 1
	ReasonAdsIPReview                    = 2
	ReasonRiskPayment                    = 3
	ReasonGrayAccountShutDown            = 4
	ReasonAdsAFCReview                   = 5
	ReasonBusinessIntegrityRAR           = 6
	ReasonPermanentClose                 = 7
	ReasonUnusedResellerAccount          = 8
	ReasonUnusedAccount                  = 9
	ReasonUmbrellaAdAccount              = 10
	ReasonBusinessManagerIntegrityPolicy = 11
	ReasonMisrepresentedAdAccount        = 12
	ReasonAOABDeshareLegalEntity         = 13
	ReasonCTXThreadReview                = 14
	ReasonCompromisedAdAccount           = 15
)

// Post is a post of a page.
type Post struct {
	ID                          string // as network_a gives it: "<page id>_<post id>"; empty: one is made
	Message, Permalink, Picture string
	Created                     time.Time // zero: now
	OrganicReach                int       // answered by /{post_id}/insights?metric=post_total_media_view_unique
	// StatusType is the post's status_type ("added_photos", "added_video",
	// "shared_story", "mobile_status_update"); empty: left out of answers.
	StatusType string `json:",omitempty"`
	// Reactions, Comments and Shares are the post's engagement counts,
	// answered as reactions.summary(total_count), comments.summary(total_count)
	// and shares.count (shares left out when 0, as network_a does).
	Reactions int `json:",omitempty"`
	Comments  int `json:",omitempty"`
	Shares    int `json:",omitempty"`
}

// Object is a Marketing-API object created through the API.
type Object struct {
	Kind                        string // "campaign", "adset", "ad"
	ID, AccountID, Name, Status string
	Fields                      map[string]any   // the create body, with later updates merged in; numbers are json.Number
	Updates                     []map[string]any // every POST /{id} body, in order
}

// Insights are an ad's results, answered by GET /{ad_id}/insights and by its
// campaign's GET /{campaign_id}/insights?level=ad.
type Insights struct {
	Impressions, Reach, Clicks, Engagement, Conversions int
	Spend                                               string // "12.34"
}

// AccountUsage is an ad account's usage as SetAccountUsage set it: the
// X-Ad-Account-Usage header of every answer about the account.
type AccountUsage struct {
	Pct          float64 `json:"pct"`          // acc_id_util_pct
	ResetSeconds int     `json:"resetSeconds"` // reset_time_duration
}

// Throttle is an ad account's rate limit as ThrottleAccount set it.
type Throttle struct {
	Code    int `json:"code"`    // the error code of every call about the account
	Minutes int `json:"minutes"` // estimated_time_to_regain_access
}

// Fault is a way for every request to fail (SetFault).
type Fault int

const (
	// FaultNone: the fake answers normally.
	FaultNone Fault = iota
	// FaultDown: every request answers 503 with a transient Graph error (SetDown).
	FaultDown
	// FaultError500: every request answers 500 with Graph's "unexpected error" (code 2).
	FaultError500
	// FaultGarbage: every request answers 200 with an HTML maintenance page.
	FaultGarbage
	// FaultBare401: every request answers 401 with a plain-text body, not the OAuth shape.
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
	world

	appID, appSecret string // SetApp

	fault       Fault
	delay       time.Duration
	pageSize    int
	paging      Paging
	elsewhere   string
	afterCreate func(Object)
	now         func() time.Time    // SetNow; nil is the real clock
	failures    map[string]*failure // by method + " " + path (FailCalls)

	recording bool // Requests and Calls are kept
	requests  []Request
	calls     []Call
	nRequests int // since New or ResetCounts
	nCalls    int
}

// failure is a scripted error answer of FailCalls.
type failure struct {
	left int
	err  Error
}

// New answers an empty world that records what it receives.
func New() *Fake {
	return &Fake{world: newWorld(), pageSize: DefaultAccountsPageSize, recording: true}
}

// Start serves a new Fake on a local port until the test ends and answers it
// with the base URL to use as NETWORK_A_API_URL (with a "/v25.0" prefix).
func Start(t testing.TB) (*Fake, string) {
	f := New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/v25.0"
}

// AddUser adds the user, or replaces the user with the same token: the
// user's pages (with their tokens and followers) and ad accounts.
func (f *Fake) AddUser(u User) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.addUser(u)
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
	c := f.userCopy(u)
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
	f.deletePost(p.ID)
	f.placePost(pageID, p)
}

// DeletePost deletes the post, as its page's owner does on network_a: it
// leaves its page's list, its insights answer that it does not exist, and an
// ad for it is refused as for an unknown post. Ads made for it stay. An
// unknown post is left alone.
func (f *Fake) DeletePost(postID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deletePost(postID)
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

// SetOrganicReach sets a post's organic reach (post_total_media_view_unique).
func (f *Fake) SetOrganicReach(postID string, reach int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.posts[postID]; ok {
		p.OrganicReach = reach
	}
}

// SetPostCounts sets a post's reactions, comments and shares.
func (f *Fake) SetPostCounts(postID string, reactions, comments, shares int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.posts[postID]; ok {
		p.Reactions, p.Comments, p.Shares = reactions, comments, shares
	}
}

// SetFollowers sets the followers_count of a page or of a network_b
// account linked to a page. An unknown id is left alone.
func (f *Fake) SetFollowers(id string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p, ok := f.pages[id]; ok {
		p.Followers = n
	} else if b, _, ok := f.accountB(id); ok {
		b.Followers = n
	}
}

// SetObjectStatus sets the status of a campaign, ad set or ad (ACTIVE,
// PAUSED, ARCHIVED or DELETED) as a person does on network_a's own site: no
// update is recorded in the object's Updates. An unknown id is left alone;
// another status panics.
func (f *Fake) SetObjectStatus(id, status string) {
	if !slices.Contains(statuses, status) {
		panic("networkafake: SetObjectStatus: unknown status " + status)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if o, ok := f.byID[id]; ok {
		o.Status = status
		o.Fields["status"] = status
	}
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

// ExpireToken ends the token now by the fake's clock, whatever its end: every
// later call with it (a user's, an exchanged one, a page's) answers 400
// with OAuthException code 190, subcode 463, "Error validating access
// token: Session has expired on …", and a batch sent with it fails whole.
// A token no user has can be expired too.
func (f *Fake) ExpireToken(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.expired[token]; !ok {
		f.expired[token] = f.second()
	}
}

// SetPaymentMethod gives the ad account ("act_1" or "1") a valid payment
// method (ok, as every account has at first) or takes it away: while it has
// none, every create of a campaign, ad set or ad in it that network_a would
// otherwise accept answers 400, OAuthException code 200 with error_subcode
// PaymentSubcode, "(#200) The ad account has no valid payment method. Add
// one in the account's payment settings." Reads, updates and pauses go on.
func (f *Fake) SetPaymentMethod(accountID string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ok {
		delete(f.noPayment, actID(accountID))
	} else {
		f.noPayment[actID(accountID)] = true
	}
}

// SetAccountUsage makes every answer to a call about the ad account ("act_1"
// or "1"), success or error, carry X-Ad-Account-Usage:
// {"acc_id_util_pct":pct,"reset_time_duration":resetSeconds}. A call is
// about the account when its path starts with the account's id or with the
// id of one of its campaigns, ad sets or ads, and its token is a user's who
// has the account. pct < 0 removes the header.
func (f *Fake) SetAccountUsage(accountID string, pct float64, resetSeconds int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pct < 0 {
		delete(f.usage, actID(accountID))
		return
	}
	f.usage[actID(accountID)] = AccountUsage{Pct: pct, ResetSeconds: resetSeconds}
}

// ThrottleAccount makes every call about the ad account ("act_1" or "1"; as
// SetAccountUsage says) answer 400, OAuthException with the code and
// error_subcode 2446079, and the header X-Business-Use-Case-Usage with
// estimated_time_to_regain_access = minutes, until it is called again with
// code 0. Calls about other accounts go on normally.
func (f *Fake) ThrottleAccount(accountID string, code, minutes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if code == 0 {
		delete(f.throttles, actID(accountID))
		return
	}
	f.throttles[actID(accountID)] = Throttle{Code: code, Minutes: minutes}
}

// SetDown makes every request answer 503 (true) or answer normally (false).
func (f *Fake) SetDown(down bool) {
	if down {
		f.SetFault(FaultDown)
	} else {
		f.SetFault(FaultNone)
	}
}

// SetFault makes every HTTP request fail the given way (a batch fails whole,
// none of its entries is handled); FaultNone ends it.
func (f *Fake) SetFault(fault Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault = fault
}

// SetDelay makes every HTTP request wait d before it is handled (a batch
// waits once), or until the request's context ends (then nothing is
// answered); 0 ends it.
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
// "http://127.0.0.1:1/v25.0"); the other modes ignore it.
func (f *Fake) SetAccountsPaging(p Paging, elsewhere string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paging, f.elsewhere = p, strings.TrimRight(elsewhere, "/")
}

// AfterCreate sets a hook that runs after a create (POST /{act}/campaigns,
// adsets, ads; alone or in a batch) is recorded and BEFORE its answer is
// written: a test can cancel the caller there. In a batch it runs once per
// created object, before the next entry is handled. nil removes it.
func (f *Fake) AfterCreate(hook func(o Object)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.afterCreate = hook
}

// Error is an error answer of network_a in Graph's shape, scripted with
// FailCalls: {"error":{"message","type","code","error_subcode",
// "error_user_title","error_user_msg","is_transient","error_data",
// "fbtrace_id"}}, each field left out when it is empty (is_transient when
// false).
type Error struct {
	Status    int               // HTTP status; 0 is 400, as Graph answers most errors
	Type      string            // "" is OAuthException
	Code      int               // error.code
	Subcode   int               // error.error_subcode; 0 leaves it out
	Transient bool              // error.is_transient
	Message   string            // error.message
	UserTitle string            // error.error_user_title
	UserMsg   string            // error.error_user_msg
	Data      string            // error.error_data, a JSON text such as {"blame_field_specs":[["daily_budget"]]}
	Headers   map[string]string // HTTP headers of the answer (in a batch, of the entry)
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
// of what they would answer (they are still recorded in Requests and Calls),
// alone or as batch entries. path is the path without the "/vNN.N" prefix,
// the slashes around it and the query: "act_1/ads", "<object id>",
// "456/posts"; ("POST", "") is the batch request itself, which then fails
// whole. A later FailCalls for the same method and path replaces the earlier
// one; n ≤ 0 ends it.
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
	e.Headers = cloneStrings(e.Headers)
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
	status := fl.err.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	return answer{status: status, body: map[string]any{"error": fl.err.errorBody()}, headers: cloneStrings(fl.err.Headers)}, true
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

// cloneStrings copies m; nil stays nil.
func cloneStrings(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// actID is an ad account id with its "act_" prefix.
func actID(id string) string {
	if strings.HasPrefix(id, "act_") {
		return id
	}
	return "act_" + id
}

var _ http.Handler = (*Fake)(nil)
