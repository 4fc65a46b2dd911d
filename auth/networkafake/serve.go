package networkafake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// version is the "/vNN.N" prefix network_a's paths may carry.
var version = regexp.MustCompile(`^/v[0-9]+\.[0-9]+`)

// maxBody is the largest request body the fake reads.
const maxBody = 1 << 20

// caller is who a token belongs to.
type caller struct {
	user   *User  // a user's token
	pageID string // a page's token
	token  string
}

// answer is one answer of the fake, written after the lock is released.
type answer struct {
	status  int
	body    any
	headers map[string]string // besides Content-Type
}

// graphError is network_a's error shape.
func graphError(status int, typ string, code int, message string) answer {
	return answer{status: status, body: map[string]any{"error": map[string]any{
		"message": message, "type": typ, "code": code, "fbtrace_id": "AbCdEf0fake"}}}
}

func oauthError(status int, message string) answer {
	return graphError(status, "OAuthException", 190, message)
}

func paramError(message string) answer {
	return graphError(http.StatusBadRequest, "OAuthException", 100, "(#100) "+message)
}

func noObject(method, id string) answer {
	a := graphError(http.StatusBadRequest, "GraphMethodException", 100, fmt.Sprintf(
		"Unsupported %s request. Object with ID '%s' does not exist, cannot be loaded due to missing permissions, or does not support this operation.",
		strings.ToLower(method), id))
	a.body.(map[string]any)["error"].(map[string]any)["error_subcode"] = 33
	return a
}

// ServeHTTP answers the API under any "/vNN.N" prefix or none: a batch
// (POST to the bare prefix) or one call. The token is the Authorization
// header's, else the access_token parameter of the query, else of the
// body; the body is a form or a JSON object (its Content-Type says which,
// else its first character).
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	f.mu.Lock()
	f.nRequests++
	if f.recording {
		f.requests = append(f.requests, Request{Method: r.Method, Path: f.maskSecrets(r.URL.RequestURI()),
			Authorization: r.Header.Get("Authorization"), Body: f.maskSecrets(string(body))})
	}
	fault, delay := f.fault, f.delay
	f.mu.Unlock()

	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch fault {
	case FaultDown:
		write(w, answer{status: http.StatusServiceUnavailable, body: map[string]any{"error": map[string]any{
			"message": "(#2) Service temporarily unavailable", "type": "OAuthException",
			"code": 2, "is_transient": true, "fbtrace_id": "AbCdEf0fake"}}})
		return
	case FaultError500:
		write(w, graphError(http.StatusInternalServerError, "OAuthException", 2, "An unexpected error has occurred. Please retry your request later."))
		return
	case FaultGarbage:
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html>maintenance</html>")
		return
	case FaultBare401:
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}

	prefix := version.FindString(r.URL.Path)
	path := strings.Trim(strings.TrimPrefix(r.URL.Path, prefix), "/")
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := scheme + "://" + r.Host
	encoding := bodyEncoding(r.Header.Get("Content-Type"), body)
	token, body := requestToken(r, encoding, body)
	if path == "" && r.Method == http.MethodPost {
		write(w, f.batch(token, r.URL.RawQuery, body, encoding, host, prefix))
		return
	}
	write(w, f.call(call{method: r.Method, path: path, query: r.URL.RawQuery, token: token,
		body: body, contentType: encoding, base: host + prefix}))
}

// bearer is the token of an Authorization header ("Bearer TOKEN", or
// "OAuth TOKEN" as Graph takes it too); "" without one.
func bearer(authorization string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || (!strings.EqualFold(scheme, "Bearer") && !strings.EqualFold(scheme, "OAuth")) {
		return ""
	}
	return strings.TrimSpace(token)
}

// write writes the answer as JSON, with its headers.
func write(w http.ResponseWriter, a answer) {
	for k, v := range a.headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(a.status)
	w.Write(encode(a.body))
}

// The encodings of a call's body: a form (a batch entry's body always is
// one) or a JSON object.
const (
	formBody = "application/x-www-form-urlencoded"
	jsonBody = "application/json"
)

// contentType is the Content-Type of every JSON answer.
const contentType = "application/json; charset=UTF-8"

// encode is v as JSON text, ending with a newline.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // paging URLs keep their "&"
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// call is one call: a plain request or a batch entry.
type call struct {
	method string
	path   string // without the version prefix and the slashes around it
	query  string // as sent
	token  string // "" without one
	body   []byte
	// contentType is how body is encoded: formBody or jsonBody.
	contentType string
	base        string // scheme, host and version prefix, for paging links
	batched     bool
}

// call answers one call and runs the AfterCreate hook for what it created.
func (f *Fake) call(c call) answer {
	f.mu.Lock()
	a, created := f.handle(c)
	hook := f.afterCreate
	f.mu.Unlock()
	if created != nil && hook != nil {
		hook(*created)
	}
	return a
}

// handle records and answers one call, under f.mu: a scripted failure
// first, then the token's refusal, then the ad account's throttle, then the
// call itself; with the account's usage header. A create answers a copy of
// the new object too.
func (f *Fake) handle(c call) (answer, *Object) {
	f.record(c)
	seg := strings.Split(c.path, "/")
	who, denied := f.authorize(c.token)
	account := ""
	if denied == nil {
		account = f.accountOf(who, seg[0])
	}
	var a answer
	var created *Object
	if scripted, ok := f.scripted(c.method, c.path); ok {
		a = scripted
	} else if c.path == "oauth/access_token" && (c.method == http.MethodGet || c.method == http.MethodPost) {
		a = f.exchange(exchangeParams(c))
		account = ""
	} else if denied != nil {
		a = *denied
	} else if refused := f.permissionRefusal(who, seg); refused != nil {
		a = *refused
	} else if t, ok := f.throttles[account]; ok && account != "" {
		a = throttled(account, t)
	} else {
		q, _ := url.ParseQuery(c.query)
		a = f.route(c.method, seg, q, who, c.token, c.body, c.contentType, c.base, &created)
	}
	f.addUsage(&a, account)
	return a, created
}

// authorize answers who holds the token, or network_a's answer to a call
// made with it: past its end (ExpireToken, or its lifetime by the fake's
// clock), 190 with subcode 463.
func (f *Fake) authorize(token string) (caller, *answer) {
	refuse := func(a answer) (caller, *answer) { return caller{}, &a }
	if token == "" {
		return refuse(oauthError(http.StatusBadRequest, "An active access token must be used to query information about the current user."))
	}
	if a := f.ended(token); a != nil {
		return refuse(*a)
	}
	if owner, ok := f.owner(token); ok {
		return caller{user: f.users[owner], token: token}, nil
	}
	if id, ok := f.pageTokens[token]; ok {
		return caller{pageID: id, token: token}, nil
	}
	return refuse(invalidToken())
}

// route answers one call of an authorized caller, under f.mu. A create
// stores the new object's copy in *created.
func (f *Fake) route(method string, seg []string, q url.Values, who caller, token string, body []byte, contentType, base string, created **Object) answer {
	switch {
	case method == http.MethodGet && len(seg) == 1 && seg[0] == "me":
		return f.me(who, q)
	case method == http.MethodGet && len(seg) == 2 && seg[0] == "me" && seg[1] == "accounts":
		return f.meAccounts(who, q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[0] == "me" && seg[1] == "adaccounts":
		return f.meAdAccounts(who, q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[0] == "me" && seg[1] == "permissions":
		return permissionsAnswer(who)
	case method == http.MethodGet && len(seg) == 1 && seg[0] == "search":
		return f.search(q)
	case len(seg) == 2 && strings.HasPrefix(seg[0], "act_") && (seg[1] == "campaigns" || seg[1] == "adsets" || seg[1] == "ads"):
		kind := strings.TrimSuffix(seg[1], "s")
		if !f.hasAccount(who, seg[0]) {
			return noObject(method, seg[0])
		}
		switch method {
		case http.MethodGet:
			return f.listObjects(seg[0], kind, q)
		case http.MethodPost:
			return f.create(seg[0], kind, body, contentType, created)
		}
		return noObject(method, seg[0])
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "posts":
		return f.pagePostsAnswer(who, seg[0], q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "media":
		return f.accountMediaAnswer(who, seg[0], q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "insights":
		if _, ok := f.posts[seg[0]]; ok {
			return f.postInsights(who, seg[0], q)
		}
		if _, ok := f.media[seg[0]]; ok {
			return f.mediaInsights(who, seg[0], q)
		}
		return f.objectInsights(who, seg[0], q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "ads":
		return f.campaignAdsAnswer(who, seg[0], q, token, base)
	case method == http.MethodGet && len(seg) == 1 && seg[0] != "":
		if _, ok := f.byID[seg[0]]; ok {
			return f.getObject(who, seg[0], q)
		}
		if _, isPage := f.pages[seg[0]]; !isPage {
			if _, _, ok := f.accountB(seg[0]); ok {
				return f.accountBAnswer(who, seg[0], q)
			}
		}
		return f.page(who, seg[0], q)
	case method == http.MethodPost && len(seg) == 1 && seg[0] != "":
		return f.update(who, seg[0], body, contentType)
	}
	if method != http.MethodGet && method != http.MethodPost {
		return noObject(method, strings.Join(seg, "/"))
	}
	return graphError(http.StatusBadRequest, "OAuthException", 2500, "Unknown path components: /"+strings.Join(seg, "/"))
}

// fields are the field specs of the fields parameter, split at its
// top-level commas ("picture{url}" stays one spec); none when it is
// missing or does not parse (checkFields refuses that).
func fields(q url.Values) []string {
	specs, _ := fieldSpecs(q.Get("fields"))
	return specs
}

// checkFields answers network_a's refusal of a fields parameter it cannot
// read (its brackets do not balance), or nil. The lists a read passes name
// the fields it answers; any other field is left out of the answer, never
// refused: network_a answers a read that asks fewer or other fields than
// adboost does, and the fake cannot tell a field no node has from the
// many it does not hold.
func checkFields(q url.Values, _, _ []string) *answer {
	if _, bad := fieldSpecs(q.Get("fields")); bad != "" {
		a := graphError(http.StatusBadRequest, "OAuthException", 2500,
			"Syntax error \""+bad+": "+q.Get("fields"))
		return &a
	}
	return nil
}

func needUser(who caller) *answer {
	if who.user == nil {
		a := graphError(http.StatusBadRequest, "OAuthException", 2500, "An active access token must be used to query information about the current user. A page access token cannot be used here.")
		return &a
	}
	return nil
}

// me answers GET /me: the user's id and the fields asked for that the user
// has (name, first_name, last_name, email); id and name without fields.
func (f *Fake) me(who caller, q url.Values) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, nil, nil); a != nil {
		return *a
	}
	u := who.user
	me := map[string]any{"id": u.ID}
	for _, k := range fieldNames(q, "id", "name") {
		switch k {
		case "name":
			me[k] = strings.TrimSpace(u.FirstName + " " + u.LastName)
		case "first_name":
			me[k] = u.FirstName
		case "last_name":
			me[k] = u.LastName
		case "email":
			if u.Email != "" { // network_a leaves out an email it does not have
				me[k] = u.Email
			}
		}
	}
	return answer{status: http.StatusOK, body: me}
}

// meAccounts answers GET /me/accounts: the user's pages, paged, each with
// its id and the fields asked for (name, access_token, picture,
// network_b_account, followers_count, fan_count); id, name and
// access_token without fields, as network_a's default.
func (f *Fake) meAccounts(who caller, q url.Values, token, base string) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, nil, nil); a != nil {
		return *a
	}
	want := fieldNames(q, "id", "name", "access_token")
	pages := who.user.Pages
	after, _ := strconv.Atoi(q.Get("after"))
	data := []any{}
	for i := max(after, 0); i < after+f.pageSize && i < len(pages); i++ {
		data = append(data, f.pageFields(pages[i], want))
		if slices.Contains(want, "access_token") {
			f.readPageToken(token, pages[i])
		}
	}
	out := map[string]any{"data": data}
	nextAfter := after + f.pageSize
	// Graph APIs put the token in their paging URLs; a client must not
	// follow them blindly.
	next := url.Values{"limit": {strconv.Itoa(f.pageSize)}, "after": {strconv.Itoa(nextAfter)}, "access_token": {token}}
	first := url.Values{"access_token": {token}}
	if s := q.Get("fields"); s != "" {
		next.Set("fields", s)
		first.Set("fields", s)
	}
	switch {
	case f.paging == PagingForeign:
		out["paging"] = map[string]any{"next": f.elsewhere + "/me/accounts?" + next.Encode()}
	case f.paging == PagingEndless:
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + next.Encode()}
	case nextAfter < len(pages):
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + next.Encode(),
			"cursors": map[string]any{"after": strconv.Itoa(nextAfter)}}
	case f.paging == PagingLoop:
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + first.Encode()}
	}
	return answer{status: http.StatusOK, body: out}
}

// meAdAccounts answers GET /me/adaccounts: the user's ad accounts, paged
// (limit, 25 unless given, at most 100; after), each with its id and the
// fields asked for that it has; id and account_id without fields, as
// network_a's default.
func (f *Fake) meAdAccounts(who caller, q url.Values, token, base string) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, nil, nil); a != nil {
		return *a
	}
	after, limit, bad := window(q, 100)
	if bad != nil {
		return *bad
	}
	want := fieldNames(q, "id", "account_id")
	accounts := who.user.AdAccounts
	data := []any{}
	for i := after; i < after+limit && i < len(accounts); i++ {
		data = append(data, adAccountFields(accounts[i], want))
	}
	return paged(data, len(accounts), after, limit, q, base+"/me/adaccounts", token)
}

// hasAccount tells whether the caller is a user with the ad account.
func (f *Fake) hasAccount(who caller, accountID string) bool {
	return who.user != nil && slices.ContainsFunc(who.user.AdAccounts, func(a AdAccount) bool { return a.ID == accountID })
}

// pageAccess checks that the caller holds the page's own token.
func (f *Fake) pageAccess(who caller, method, pageID string) *answer {
	if _, ok := f.pages[pageID]; !ok {
		a := noObject(method, pageID)
		return &a
	}
	if who.pageID != pageID {
		a := pageTokenRequired()
		return &a
	}
	return nil
}

// pageTokenRequired is network_a's answer to a read of a page, or of what
// belongs to it, without that page's token.
func pageTokenRequired() answer {
	return graphError(http.StatusBadRequest, "OAuthException", 210, "(#210) A page access token is required to request this resource.")
}

func (f *Fake) page(who caller, pageID string, q url.Values) answer {
	if a := f.pageAccess(who, http.MethodGet, pageID); a != nil {
		return *a
	}
	if a := checkFields(q, nil, []string{"id", "name", "followers_count", "fan_count"}); a != nil {
		return *a
	}
	p := f.pages[pageID]
	out := map[string]any{"id": p.ID}
	for _, k := range fields(q) {
		switch k {
		case "name":
			out["name"] = p.Name
		case "followers_count", "fan_count":
			out[k] = p.Followers
		}
	}
	return answer{status: http.StatusOK, body: out}
}

// GraphTime is how network_a writes a time: "2026-11-20T10:00:00+0000".
const GraphTime = "2006-01-02T15:04:05-0700"

func (f *Fake) pagePostsAnswer(who caller, pageID string, q url.Values, token, base string) answer {
	if a := f.pageAccess(who, http.MethodGet, pageID); a != nil {
		return *a
	}
	if a := checkFields(q, nil, []string{"id", "message", "created_time", "permalink_url", "full_picture", "status_type",
		"reactions.summary(total_count).limit(0)", "comments.summary(total_count).limit(0)", "shares"}); a != nil {
		return *a
	}
	after, limit, bad := window(q, 100)
	if bad != nil {
		return *bad
	}
	posts := f.pagePosts[pageID]
	if s := q.Get("since"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return paramError("since must be a UNIX time in seconds")
		}
		since := time.Unix(n, 0)
		posts = posts[:sort.Search(len(posts), func(i int) bool { return posts[i].Created.Before(since) })]
	}
	want := fields(q)
	data := []any{}
	for i := after; i < after+limit && i < len(posts); i++ {
		p := posts[i]
		d := map[string]any{"id": p.ID}
		for _, k := range want {
			switch k {
			case "message":
				if p.Message != "" { // network_a leaves out an empty message
					d["message"] = p.Message
				}
			case "created_time":
				d["created_time"] = p.Created.UTC().Format(GraphTime)
			case "permalink_url":
				d["permalink_url"] = p.Permalink
			case "full_picture":
				if p.Picture != "" {
					d["full_picture"] = p.Picture
				}
			case "status_type":
				if p.StatusType != "" {
					d["status_type"] = p.StatusType
				}
			case "reactions.summary(total_count).limit(0)":
				d["reactions"] = map[string]any{"data": []any{}, "summary": map[string]any{"total_count": p.Reactions}}
			case "comments.summary(total_count).limit(0)":
				d["comments"] = map[string]any{"data": []any{}, "summary": map[string]any{"total_count": p.Comments}}
			case "shares":
				if p.Shares > 0 {
					d["shares"] = map[string]any{"count": p.Shares}
				}
			}
		}
		data = append(data, d)
	}
	return paged(data, len(posts), after, limit, q, base+"/"+pageID+"/posts", token)
}

// window reads a list's limit (25 unless given, at most most) and after
// cursor (an offset in the list).
func window(q url.Values, most int) (after, limit int, bad *answer) {
	limit = 25
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			a := paramError("limit must be a positive integer")
			return 0, 0, &a
		}
		limit = min(n, most)
	}
	if s := q.Get("after"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			a := paramError("after is not a cursor of this list")
			return 0, 0, &a
		}
		after = n
	}
	return after, limit, nil
}

// paged answers one page of a list of total items: {"data":data} with,
// while items remain after it, paging.next (link with the query of this
// page, its limit, the next after cursor and the token, as Graph's links
// carry it) and paging.cursors.after.
func paged(data []any, total, after, limit int, q url.Values, link, token string) answer {
	out := map[string]any{"data": data}
	if next := after + limit; next < total {
		v := maps.Clone(q)
		v.Set("limit", strconv.Itoa(limit))
		v.Set("after", strconv.Itoa(next))
		v.Set("access_token", token)
		out["paging"] = map[string]any{"next": link + "?" + v.Encode(),
			"cursors": map[string]any{"after": strconv.Itoa(next)}}
	}
	return answer{status: http.StatusOK, body: out}
}

// object answers the object of the id when the caller's user has its ad account.
func (f *Fake) object(who caller, method, id string) (*Object, *answer) {
	o, ok := f.byID[id]
	if !ok || !f.hasAccount(who, o.AccountID) {
		a := noObject(method, id)
		return nil, &a
	}
	return o, nil
}

// campaignAdsAnswer answers GET /{campaign_id}/ads: the campaign's ads in
// creation order, deleted ones left out, paged.
func (f *Fake) campaignAdsAnswer(who caller, id string, q url.Values, token, base string) answer {
	o, a := f.object(who, http.MethodGet, id)
	if a != nil {
		return *a
	}
	if o.Kind != "campaign" {
		return paramError("ads of this fake are listed per campaign")
	}
	after, limit, bad := window(q, 500)
	if bad != nil {
		return *bad
	}
	want := fields(q)
	data, total := []any{}, 0
	for _, ad := range f.campaignAds[o.ID] {
		if f.effectiveStatus(ad) == "DELETED" {
			continue
		}
		if total >= after && total < after+limit {
			row := f.objectFields(ad, want)
			f.addReview(row, ad.ID, want)
			data = append(data, row)
		}
		total++
	}
	return paged(data, total, after, limit, q, base+"/"+o.ID+"/ads", token)
}

func (f *Fake) getObject(who caller, id string, q url.Values) answer {
	o, a := f.object(who, http.MethodGet, id)
	if a != nil {
		return *a
	}
	if a := checkFields(q, nil, nil); a != nil {
		return *a
	}
	return answer{status: http.StatusOK, body: f.objectFields(o, fields(q))}
}

// objectFields is an object as the API answers it: its own id and the
// fields asked for that it has (want holds field specs; a spec's
// modifiers are not applied). The id is always the object's: a create
// body may carry an "id" of its own (Meta's SDKs send the ad account's
// there), which is not the object's field.
func (w *world) objectFields(o *Object, want []string) map[string]any {
	out := map[string]any{"id": o.ID}
	for _, spec := range want {
		switch k := fieldName(spec); k {
		case "id":
		case "name":
			out[k] = o.Name
		case "status", "configured_status":
			out[k] = o.Status
		case "effective_status":
			out[k] = w.effectiveStatus(o)
		case "account_id":
			out[k] = strings.TrimPrefix(o.AccountID, "act_")
		default:
			if v, ok := o.Fields[k]; ok {
				out[k] = v
			}
		}
	}
	return out
}

func (f *Fake) listObjects(accountID, kind string, q url.Values) answer {
	type filter struct {
		Field    string `json:"field"`
		Operator string `json:"operator"`
		Value    any    `json:"value"`
	}
	if a := checkFields(q, nil, nil); a != nil {
		return *a
	}
	var filters []filter
	if s := q.Get("filtering"); s != "" {
		if err := json.Unmarshal([]byte(s), &filters); err != nil {
			return paramError("Filtering field filtering is not a JSON array of filters")
		}
	}
	candidates := f.byOwner[ownerKey{accountID, kind}]
	for _, fl := range filters {
		if fl.Field != "name" || (fl.Operator != "EQUAL" && fl.Operator != "CONTAIN") {
			return paramError(fmt.Sprintf("Filtering field %s with operation %s is not supported", fl.Field, fl.Operator))
		}
		v, ok := fl.Value.(string)
		if !ok {
			return paramError("Filtering value must be a string")
		}
		if fl.Operator == "EQUAL" {
			candidates = f.byName[nameKey{accountID, kind, v}]
		}
	}
	want := fields(q)
	data := []any{}
	for _, o := range candidates {
		keep := true
		for _, fl := range filters {
			v := fl.Value.(string)
			if (fl.Operator == "EQUAL" && o.Name != v) || (fl.Operator == "CONTAIN" && !strings.Contains(o.Name, v)) {
				keep = false
			}
		}
		if keep {
			data = append(data, f.objectFields(o, want))
		}
	}
	return answer{status: http.StatusOK, body: map[string]any{"data": data}}
}

// statuses are the statuses an object may be given.
var statuses = []string{"ACTIVE", "PAUSED", "ARCHIVED", "DELETED"}

// isMinorUnits tells whether v is a positive JSON integer (money in minor units).
func isMinorUnits(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil && i > 0
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// checkCreate answers an error when the body misses what network_a requires
// of the kind, or holds what it refuses.
func (f *Fake) checkCreate(accountID, kind string, m map[string]any) *answer {
	fail := func(msg string) *answer { a := paramError(msg); return &a }
	if hasKey(m, "instagram_actor_id") {
		return fail("Param instagram_actor_id must be a valid Instagram account id")
	}
	if str(m, "name") == "" {
		return fail("The parameter name is required")
	}
	if s, ok := m["status"]; ok && !slices.Contains(statuses, fmt.Sprint(s)) {
		return fail("Param status must be one of {ACTIVE, PAUSED, ARCHIVED, DELETED}")
	}
	switch kind {
	case "campaign":
		return checkCampaign(m)
	case "adset":
		campaign, ok := f.byID[str(m, "campaign_id")]
		if !ok || campaign.Kind != "campaign" || campaign.AccountID != accountID {
			return fail("Param campaign_id must be a campaign of this ad account")
		}
		if a := checkAdSetShape(m); a != nil {
			return a
		}
		x := f.rulesScope(accountID, campaign)
		for _, r := range adSetRules {
			if a := r.check(x, m); a != nil {
				return a
			}
		}
	case "ad":
		return f.checkAd(accountID, m)
	}
	return nil
}

// checkAdSetShape answers an error when an ad set create lacks a field
// network_a requires or gives one of the wrong type.
func checkAdSetShape(m map[string]any) *answer {
	fail := func(msg string) *answer { a := paramError(msg); return &a }
	daily, hasDaily := m["daily_budget"]
	lifetime, hasLifetime := m["lifetime_budget"]
	switch {
	case hasDaily == hasLifetime:
		return fail("Exactly one of daily_budget and lifetime_budget is required")
	case hasDaily && !isMinorUnits(daily), hasLifetime && !isMinorUnits(lifetime):
		return fail("A budget is a positive integer in the account currency's minor units")
	}
	if b, ok := m["bid_amount"]; ok && !isMinorUnits(b) {
		return fail("Param bid_amount must be a positive integer in minor units")
	}
	for _, k := range []string{"billing_event", "optimization_goal"} {
		if str(m, k) == "" {
			return fail("The parameter " + k + " is required")
		}
	}
	if _, ok := m["targeting"].(map[string]any); !ok {
		return fail("The parameter targeting is required and is an object")
	}
	if s, ok := m["end_time"]; ok {
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(s)); err != nil {
			return fail("Param end_time must be an RFC 3339 time")
		}
	}
	return checkPromotedObject(m)
}

// rulesScope is what the rules of an ad set of the account and campaign
// read besides its fields; under f.mu.
func (f *Fake) rulesScope(accountID string, campaign *Object) adSetContext {
	x := adSetContext{w: &f.world, campaign: campaign, now: f.clock()}
	if acc, ok := f.adAccounts[accountID]; ok {
		x.account = *acc
	}
	return x
}

func (f *Fake) create(accountID, kind string, body []byte, contentType string, created **Object) answer {
	m, a := decodeCallBody(body, contentType)
	if a != nil {
		return *a
	}
	if a := f.checkCreate(accountID, kind, m); a != nil {
		return *a
	}
	if f.noPayment[accountID] {
		return noPaymentMethod()
	}
	f.objSeq++
	status := str(m, "status")
	if status == "" {
		status = "ACTIVE"
	}
	o := &Object{Kind: kind, ID: strconv.Itoa(120200000000000000 + f.objSeq), AccountID: accountID,
		Name: str(m, "name"), Status: status, Fields: m}
	f.addObject(o)
	c := o.clone()
	*created = &c
	return answer{status: http.StatusOK, body: map[string]any{"id": o.ID}}
}

func (f *Fake) update(who caller, id string, body []byte, contentType string) answer {
	o, a := f.object(who, http.MethodPost, id)
	if a != nil {
		return *a
	}
	m, a := decodeCallBody(body, contentType)
	if a != nil {
		return *a
	}
	if hasKey(m, "instagram_actor_id") {
		return paramError("Param instagram_actor_id must be a valid Instagram account id")
	}
	if s, ok := m["status"]; ok && !slices.Contains(statuses, fmt.Sprint(s)) {
		return paramError("Param status must be one of {ACTIVE, PAUSED, ARCHIVED, DELETED}")
	}
	if o.Kind == "adset" {
		for _, k := range []string{"daily_budget", "lifetime_budget", "bid_amount"} {
			if v, ok := m[k]; ok && !isMinorUnits(v) {
				return paramError("Param " + k + " must be a positive integer in minor units")
			}
		}
		if v, ok := m["targeting"]; ok {
			if _, isObj := v.(map[string]any); !isObj {
				return paramError("Param targeting must be an object")
			}
		}
		if a := checkPromotedObject(m); a != nil {
			return *a
		}
		// The ad set as the update would leave it: a rule is checked when
		// the update touches one of its fields.
		after := cloneMap(o.Fields)
		maps.Copy(after, m)
		_, campaign := f.parents(o)
		x := f.rulesScope(o.AccountID, campaign)
		for _, r := range adSetRules {
			if r.touched(m) {
				if a := r.check(x, after); a != nil {
					return *a
				}
			}
		}
	}
	if o.Kind == "campaign" {
		if v, ok := m["objective"]; ok {
			if a := checkObjective(v); a != nil {
				return *a
			}
		}
	}
	for _, k := range []string{"campaign_id", "adset_id", "creative"} {
		if _, ok := m[k]; ok {
			return paramError("Param " + k + " cannot be changed")
		}
	}
	for k, v := range m {
		o.Fields[k] = v
	}
	if s := str(m, "status"); s != "" {
		o.Status = s
	}
	if s := str(m, "name"); s != "" {
		f.rename(o, s)
	}
	o.Updates = append(o.Updates, m)
	return answer{status: http.StatusOK, body: map[string]any{"success": true}}
}

// objectives are the campaign objectives network_a accepts;
// the old names (POST_ENGAGEMENT, LINK_CLICKS, REACH, CONVERSIONS, ...) are
// refused for new campaigns.
var objectives = []string{"OUTCOME_ENGAGEMENT", "OUTCOME_TRAFFIC", "OUTCOME_AWARENESS", "OUTCOME_SALES", "OUTCOME_APP_PROMOTION", "OUTCOME_LEADS"}

// checkObjective refuses an objective outside objectives.
func checkObjective(v any) *answer {
	if s, ok := v.(string); ok && slices.Contains(objectives, s) {
		return nil
	}
	a := paramError(fmt.Sprintf("Objective %v is invalid. Use one of: %s.", v, strings.Join(objectives, ", ")))
	return &a
}

// checkPromotedObject refuses a promoted_object that is given (not null)
// and is not a JSON object.
func checkPromotedObject(m map[string]any) *answer {
	if v, ok := m["promoted_object"]; ok && v != nil {
		if _, isObj := v.(map[string]any); !isObj {
			a := paramError("Param promoted_object must be a JSON object")
			return &a
		}
	}
	return nil
}

// PaymentSubcode is the error_subcode of network_a's refusal of a create in
// an ad account without a valid payment method (SetPaymentMethod).
const PaymentSubcode = 1359188

// noPaymentMethod is network_a's answer to a create in an ad account without
// a valid payment method: code 200, not 100 (it is not about the post).
func noPaymentMethod() answer {
	a := graphError(http.StatusBadRequest, "OAuthException", 200,
		"(#200) The ad account has no valid payment method. Add one in the account's payment settings.")
	a.body.(map[string]any)["error"].(map[string]any)["error_subcode"] = PaymentSubcode
	return a
}
