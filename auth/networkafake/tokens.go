package networkafake

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // network_a writes its times in Pacific time, whatever the host's zoneinfo
)

// SignInTokenLifetime is how long a user's sign-in token lasts: the token
// of a User with an Issued time, and one of IssueToken.
const SignInTokenLifetime = time.Hour

// ExchangedExpiresIn is the expires_in of GET /oauth/access_token's answer:
// an exchanged token ends that many seconds after the exchange (60 days,
// less the minute network_a counts from the sign-in).
const ExchangedExpiresIn = 5183944

// The permissions a user grants to the app (User.Permissions).
const (
	PermissionAdsManagement       = "ads_management"
	PermissionPagesShowList       = "pages_show_list"
	PermissionPagesReadEngagement = "pages_read_engagement"
	PermissionPagesManageAds      = "pages_manage_ads"
	PermissionInstagramBasic      = "instagram_basic"
	PermissionInstagramInsights   = "instagram_manage_insights"
)

// DefaultPermissions are the permissions a user grants unless
// User.Permissions says otherwise, in the order /me/permissions answers
// them (after public_profile).
var DefaultPermissions = []string{PermissionAdsManagement, PermissionPagesShowList, PermissionPagesReadEngagement,
	PermissionPagesManageAds, PermissionInstagramBasic, PermissionInstagramInsights}

// The statuses of a permission in /me/permissions.
const (
	Granted  = "granted"
	Declined = "declined"
	Expired  = "expired"
)

// pacific is the time zone network_a writes a session's end in.
var pacific = func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err) // time/tzdata is embedded
	}
	return loc
}()

// graphSessionTime is how network_a writes a time in an expired session's
// message: "Monday, 23-Nov-26 09:00:00 PST".
const graphSessionTime = "Monday, 02-Jan-06 15:04:05 MST"

// sessionExpired is network_a's answer to a call with a token past its end:
// HTTP 400, code 190, subcode 463.
func sessionExpired(end, now time.Time) answer {
	a := oauthError(http.StatusBadRequest, fmt.Sprintf(
		"Error validating access token: Session has expired on %s. The current time is %s.",
		end.In(pacific).Format(graphSessionTime), now.In(pacific).Format(graphSessionTime)))
	a.body.(map[string]any)["error"].(map[string]any)["error_subcode"] = 463
	return a
}

// invalidToken is network_a's answer to a token it does not know.
func invalidToken() answer {
	return oauthError(http.StatusUnauthorized, "Invalid OAuth access token - Cannot parse access token")
}

// SetApp sets the app network_a knows: GET /oauth/access_token exchanges a
// token only for this client_id and client_secret. Until it is called, no
// app is known and every exchange is refused as an unknown application.
func (f *Fake) SetApp(id, secret string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.appID, f.appSecret = id, secret
}

// IssueToken gives the user of userToken a new sign-in token, newToken,
// issued now by the fake's clock: it ends SignInTokenLifetime later, as a
// new sign-in on network_a gives. The user's other tokens go on. It panics
// when no user has userToken.
func (f *Fake) IssueToken(userToken, newToken string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	owner, ok := f.owner(userToken)
	if !ok {
		panic("networkafake: IssueToken: no user with this token")
	}
	f.aliases[newToken] = owner
	f.ends[newToken] = f.second().Add(SignInTokenLifetime)
	delete(f.longLived, newToken)
}

// TokenEnd answers when the token ends by the fake's clock (a user's, an
// exchanged one, a page's), and false for a token that does not end.
// A token of ExpireToken ends when it was expired, if no earlier end.
func (f *Fake) TokenEnd(token string) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tokenEnd(token)
}

// second is the fake's clock in UTC, to the second: the precision of a
// token's end; under f.mu.
func (f *Fake) second() time.Time {
	return f.clock().UTC().Truncate(time.Second)
}

// owner is the User.Token of the user a user's token (its own, an
// exchanged one, one of IssueToken) belongs to; under f.mu.
func (w *world) owner(token string) (string, bool) {
	if _, ok := w.users[token]; ok {
		return token, true
	}
	if o, ok := w.aliases[token]; ok {
		if _, ok := w.users[o]; ok {
			return o, true
		}
	}
	return "", false
}

// tokenEnd is when the token ends, if it does; under f.mu.
func (w *world) tokenEnd(token string) (time.Time, bool) {
	var end time.Time
	if u, ok := w.users[token]; ok && !u.Issued.IsZero() {
		end = u.Issued.Add(SignInTokenLifetime)
	} else if e, ok := w.ends[token]; ok {
		end = e
	}
	if at, ok := w.expired[token]; ok && (end.IsZero() || at.Before(end)) {
		end = at
	}
	return end, !end.IsZero()
}

// ended answers network_a's refusal of a token past its end, or nil;
// under f.mu.
func (f *Fake) ended(token string) *answer {
	now := f.clock()
	end, ok := f.tokenEnd(token)
	_, expired := f.expired[token]
	if !expired && (!ok || now.Before(end)) {
		return nil
	}
	if end.IsZero() {
		end = now
	}
	a := sessionExpired(end, now)
	return &a
}

// readPageToken gives the page token a user's token reads in /me/accounts
// the reader's end: none for a long-lived token or one without an end,
// else the reader's; under f.mu.
func (f *Fake) readPageToken(reader string, p Page) {
	if p.Token == "" {
		return
	}
	if end, ends := f.tokenEnd(reader); ends && !f.longLived[reader] {
		f.ends[p.Token] = end
	} else {
		delete(f.ends, p.Token)
	}
}

// exchange answers GET /oauth/access_token?grant_type=fb_exchange_token:
// a new long-lived token for the user of fb_exchange_token, ending
// ExchangedExpiresIn seconds later; under f.mu.
func (f *Fake) exchange(q url.Values) answer {
	switch {
	case q.Get("client_id") == "":
		return graphError(http.StatusBadRequest, "OAuthException", 101, "Missing client_id parameter.")
	case f.appID == "" || q.Get("client_id") != f.appID:
		return graphError(http.StatusBadRequest, "OAuthException", 101, "Error validating application. Invalid application ID.")
	case q.Get("client_secret") == "" || q.Get("client_secret") != f.appSecret:
		return graphError(http.StatusBadRequest, "OAuthException", 1, "Error validating client secret.")
	case q.Get("grant_type") != "fb_exchange_token":
		return graphError(http.StatusBadRequest, "OAuthException", 1, "Unsupported grant_type: this call takes grant_type=fb_exchange_token.")
	case q.Get("fb_exchange_token") == "":
		return graphError(http.StatusBadRequest, "OAuthException", 1, "fb_exchange_token parameter not specified")
	}
	token := q.Get("fb_exchange_token")
	if a := f.ended(token); a != nil {
		return *a
	}
	owner, ok := f.owner(token)
	if !ok {
		return invalidToken()
	}
	f.tokenSeq++
	long := fmt.Sprintf("EAAlong0%s0%d", f.users[owner].ID, f.tokenSeq)
	f.aliases[long] = owner
	f.ends[long] = f.second().Add(ExchangedExpiresIn * time.Second)
	f.longLived[long] = true
	return answer{status: http.StatusOK, body: map[string]any{
		"access_token": long, "token_type": "bearer", "expires_in": ExchangedExpiresIn}}
}

// permission is the status of the user's permission: Granted for one of
// DefaultPermissions the user's Permissions do not name.
func permission(u *User, name string) string {
	if s, ok := u.Permissions[name]; ok {
		return s
	}
	if slices.Contains(DefaultPermissions, name) {
		return Granted
	}
	return ""
}

// permissionsAnswer answers GET /me/permissions: public_profile, the
// DefaultPermissions and the other permissions the user's Permissions name
// (sorted), each with its status.
func permissionsAnswer(who caller) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	row := func(name, status string) any { return map[string]any{"permission": name, "status": status} }
	data := []any{row("public_profile", Granted)}
	for _, p := range DefaultPermissions {
		data = append(data, row(p, permission(who.user, p)))
	}
	others := []string{}
	for p := range who.user.Permissions {
		if !slices.Contains(DefaultPermissions, p) && p != "public_profile" {
			others = append(others, p)
		}
	}
	sort.Strings(others)
	for _, p := range others {
		data = append(data, row(p, who.user.Permissions[p]))
	}
	return answer{status: http.StatusOK, body: map[string]any{"data": data}}
}

// checkPermissions panics on a permission status that is not Granted,
// Declined or Expired.
func checkPermissions(u User) {
	for name, s := range u.Permissions {
		if s != Granted && s != Declined && s != Expired {
			panic(fmt.Sprintf("networkafake: permission %s: status %q, want granted, declined or expired", name, s))
		}
	}
}

// noAdsManagement is network_a's answer to a call about ad accounts with a
// token whose user has not granted ads_management.
func noAdsManagement() answer {
	return graphError(http.StatusForbidden, "OAuthException", 200,
		"(#200) Ad account owner has NOT grant ads_management or ads_read permission")
}

// noReadEngagement is network_a's answer to a read of a page's posts with
// the token of a page whose user has not granted pages_read_engagement.
func noReadEngagement() answer {
	return graphError(http.StatusForbidden, "OAuthException", 10,
		"(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature. "+
			"Refer to https://developers.facebook.com/docs/apps/review/login-permissions#manage-pages and "+
			"https://developers.facebook.com/docs/apps/review/feature#reference-PAGES_ACCESS for details.")
}

// permissionRefusal answers network_a's refusal of a call for a permission
// the token's user has not granted, or nil; under f.mu. A call about ad
// accounts (/me/adaccounts, /act_X/…, a campaign's, ad set's or ad's)
// needs ads_management; a page's posts read needs pages_read_engagement of
// the user whose page token it is.
func (f *Fake) permissionRefusal(who caller, seg []string) *answer {
	if u := who.user; u != nil && permission(u, PermissionAdsManagement) != Granted {
		_, isObject := f.byID[seg[0]]
		if isObject || strings.HasPrefix(seg[0], "act_") || len(seg) == 2 && seg[0] == "me" && seg[1] == "adaccounts" {
			a := noAdsManagement()
			return &a
		}
	}
	if who.pageID != "" && len(seg) == 2 && seg[1] == "posts" && seg[0] == who.pageID {
		if u, ok := f.users[f.pageTokenUser[who.token]]; ok && permission(u, PermissionPagesReadEngagement) != Granted {
			a := noReadEngagement()
			return &a
		}
	}
	return nil
}

// maskedSecret stands for a client_secret in what the fake records.
const maskedSecret = "***"

// maskSecrets is what the fake records of a text it received (a path with
// its query, a body): the value of every client_secret parameter of a
// query or a form is maskedSecret, and so is every occurrence of the app's
// secret, plain or URL-encoded, anywhere (a batch entry's relative_url);
// under f.mu.
func (f *Fake) maskSecrets(text string) string {
	if text == "" {
		return text
	}
	if path, query, ok := strings.Cut(text, "?"); ok && strings.HasPrefix(path, "/") {
		text = path + "?" + maskParam(query)
	} else {
		text = maskParam(text)
	}
	if f.appSecret != "" {
		for _, s := range []string{f.appSecret, url.QueryEscape(f.appSecret), url.QueryEscape(url.QueryEscape(f.appSecret))} {
			text = strings.ReplaceAll(text, s, maskedSecret)
		}
	}
	return text
}

// maskParam masks the client_secret values of a query or form text,
// keeping its other pairs byte for byte.
func maskParam(form string) string {
	pairs := strings.Split(form, "&")
	for i, pair := range pairs {
		k, _, _ := strings.Cut(pair, "=")
		if key, err := url.QueryUnescape(k); err == nil && key == "client_secret" {
			pairs[i] = k + "=" + maskedSecret
		}
	}
	return strings.Join(pairs, "&")
}

// tokenState is the tokens' part of State; under f.mu.
func (w *world) tokenState(s *State) {
	s.Aliases = maps.Clone(w.aliases)
	s.TokenEnds = maps.Clone(w.ends)
	for t := range w.longLived {
		s.LongLived = append(s.LongLived, t)
	}
	sort.Strings(s.LongLived)
	s.TokenSeq = w.tokenSeq
}

// setTokenState restores the tokens' part of State.
func (w *world) setTokenState(s State) {
	maps.Copy(w.aliases, s.Aliases)
	maps.Copy(w.ends, s.TokenEnds)
	for _, t := range s.LongLived {
		w.longLived[t] = true
	}
	w.tokenSeq = s.TokenSeq
}

// exchangeParams are the parameters of a call to /oauth/access_token: its
// query's, and its form body's for a POST.
func exchangeParams(c call) url.Values {
	q, _ := url.ParseQuery(c.query)
	if c.method == http.MethodPost && c.contentType == formBody {
		if form, err := url.ParseQuery(string(c.body)); err == nil {
			for k, v := range form {
				if q.Get(k) == "" {
					q[k] = v
				}
			}
		}
	}
	return q
}
