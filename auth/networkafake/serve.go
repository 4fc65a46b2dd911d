package networkafake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
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
}

// answer is one answer of the fake, written after the lock is released.
type answer struct {
	status int
	body   any
}

// graphError is network_a's error shape.
func graphError(status int, typ string, code int, message string) answer {
	return answer{status, map[string]any{"error": map[string]any{
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

// ServeHTTP answers the API under any "/vNN.N" prefix or none.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Path: r.URL.RequestURI(),
		Authorization: r.Header.Get("Authorization"), Body: string(body)})
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
		write(w, answer{http.StatusServiceUnavailable, map[string]any{"error": map[string]any{
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
	base := scheme + "://" + r.Host + prefix

	var created *Object
	f.mu.Lock()
	if a, ok := f.scripted(r.Method, path); ok {
		f.mu.Unlock()
		write(w, a)
		return
	}
	a := f.route(r.Method, strings.Split(path, "/"), r.URL.Query(), r.Header.Get("Authorization"), body, base, &created)
	hook := f.afterCreate
	f.mu.Unlock()
	if created != nil && hook != nil {
		hook(*created)
	}
	write(w, a)
}

func write(w http.ResponseWriter, a answer) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // paging URLs keep their "&"
	if err := enc.Encode(a.body); err != nil {
		panic(err)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(a.status)
	w.Write(b.Bytes())
}

// route answers one call, under f.mu. A create stores the new object's copy
// in *created.
func (f *Fake) route(method string, seg []string, q url.Values, authorization string, body []byte, base string, created **Object) answer {
	token, bearer := strings.CutPrefix(authorization, "Bearer ")
	token = strings.TrimSpace(token)
	if !bearer || token == "" {
		return oauthError(http.StatusBadRequest, "An active access token must be used to query information about the current user.")
	}
	if f.expired[token] {
		return oauthError(http.StatusBadRequest, "Error validating access token: Session has expired on Monday, 23-Nov-26 09:00:00 PST.")
	}
	var who caller
	if u, ok := f.users[token]; ok {
		who.user = u
	} else if id, ok := f.pageTokens[token]; ok {
		who.pageID = id
	} else {
		return oauthError(http.StatusUnauthorized, "Invalid OAuth access token - Cannot parse access token")
	}

	switch {
	case method == http.MethodGet && len(seg) == 1 && seg[0] == "me":
		return f.me(who, q)
	case method == http.MethodGet && len(seg) == 2 && seg[0] == "me" && seg[1] == "accounts":
		return f.meAccounts(who, q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[0] == "me" && seg[1] == "adaccounts":
		return f.meAdAccounts(who, q)
	case len(seg) == 2 && strings.HasPrefix(seg[0], "act_") && (seg[1] == "campaigns" || seg[1] == "adsets" || seg[1] == "ads"):
		kind := strings.TrimSuffix(seg[1], "s")
		if !f.hasAccount(who, seg[0]) {
			return noObject(method, seg[0])
		}
		switch method {
		case http.MethodGet:
			return f.listObjects(seg[0], kind, q)
		case http.MethodPost:
			return f.create(seg[0], kind, body, created)
		}
		return noObject(method, seg[0])
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "posts":
		return f.pagePostsAnswer(who, seg[0], q, token, base)
	case method == http.MethodGet && len(seg) == 2 && seg[1] == "insights":
		if _, ok := f.posts[seg[0]]; ok {
			return f.postInsights(who, seg[0], q)
		}
		return f.adInsights(who, seg[0], q)
	case method == http.MethodGet && len(seg) == 1 && seg[0] != "":
		if _, ok := f.byID[seg[0]]; ok {
			return f.getObject(who, seg[0], q)
		}
		return f.page(who, seg[0], q)
	case method == http.MethodPost && len(seg) == 1 && seg[0] != "":
		return f.update(who, seg[0], body)
	}
	if method != http.MethodGet && method != http.MethodPost {
		return noObject(method, strings.Join(seg, "/"))
	}
	return graphError(http.StatusBadRequest, "OAuthException", 2500, "Unknown path components: /"+strings.Join(seg, "/"))
}

// fields are the names of the fields parameter.
func fields(q url.Values) []string {
	var out []string
	for _, s := range strings.Split(q.Get("fields"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// checkFields answers an error unless fields holds every one of need and
// nothing outside allowed.
func checkFields(q url.Values, need, allowed []string) *answer {
	got := fields(q)
	for _, n := range need {
		if !slices.Contains(got, n) {
			a := paramError(fmt.Sprintf("fields must include %s", n))
			return &a
		}
	}
	for _, g := range got {
		if !slices.Contains(allowed, g) && !slices.Contains(need, g) {
			a := paramError(fmt.Sprintf("Tried accessing nonexisting field (%s)", g))
			return &a
		}
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

func (f *Fake) me(who caller, q url.Values) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, []string{"id", "first_name", "last_name", "email"}, nil); a != nil {
		return *a
	}
	u := who.user
	me := map[string]any{"id": u.ID, "first_name": u.FirstName, "last_name": u.LastName}
	if u.Email != "" {
		me["email"] = u.Email
	}
	return answer{http.StatusOK, me}
}

func (f *Fake) meAccounts(who caller, q url.Values, token, base string) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, []string{"id", "name", "picture", "network_b_account"}, []string{"access_token"}); a != nil {
		return *a
	}
	pages := who.user.Pages
	after, _ := strconv.Atoi(q.Get("after"))
	data := []any{}
	for i := max(after, 0); i < after+f.pageSize && i < len(pages); i++ {
		p := pages[i]
		page := map[string]any{"id": p.ID, "name": p.Name,
			"picture": map[string]any{"data": map[string]any{"url": p.Picture, "is_silhouette": false}}}
		if p.B != nil {
			page["network_b_account"] = map[string]any{"id": p.B.ID, "username": p.B.Username, "profile_picture_url": p.B.Picture}
		}
		if p.Token != "" {
			page["access_token"] = p.Token
		}
		data = append(data, page)
	}
	out := map[string]any{"data": data}
	nextAfter := after + f.pageSize
	// Graph APIs put the token in their paging URLs; a client must not
	// follow them blindly.
	next := url.Values{"fields": {q.Get("fields")}, "limit": {strconv.Itoa(f.pageSize)},
		"after": {strconv.Itoa(nextAfter)}, "access_token": {token}}
	switch {
	case f.paging == PagingForeign:
		out["paging"] = map[string]any{"next": f.elsewhere + "/me/accounts?" + next.Encode()}
	case f.paging == PagingEndless:
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + next.Encode()}
	case nextAfter < len(pages):
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + next.Encode(),
			"cursors": map[string]any{"after": strconv.Itoa(nextAfter)}}
	case f.paging == PagingLoop:
		first := url.Values{"fields": {q.Get("fields")}, "access_token": {token}}
		out["paging"] = map[string]any{"next": base + "/me/accounts?" + first.Encode()}
	}
	return answer{http.StatusOK, out}
}

func (f *Fake) meAdAccounts(who caller, q url.Values) answer {
	if a := needUser(who); a != nil {
		return *a
	}
	if a := checkFields(q, nil, []string{"id", "account_status", "currency", "name"}); a != nil {
		return *a
	}
	want := fields(q)
	data := []any{}
	for _, acc := range who.user.AdAccounts {
		d := map[string]any{"id": acc.ID}
		if slices.Contains(want, "account_status") {
			d["account_status"] = acc.Status
		}
		if slices.Contains(want, "currency") {
			d["currency"] = acc.Currency
		}
		if slices.Contains(want, "name") {
			d["name"] = acc.ID
		}
		data = append(data, d)
	}
	return answer{http.StatusOK, map[string]any{"data": data}}
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
		a := graphError(http.StatusBadRequest, "OAuthException", 210, "(#210) A page access token is required to request this resource.")
		return &a
	}
	return nil
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
	return answer{http.StatusOK, out}
}

// GraphTime is how network_a writes a time: "2026-11-20T10:00:00+0000".
const GraphTime = "2006-01-02T15:04:05-0700"

func (f *Fake) pagePostsAnswer(who caller, pageID string, q url.Values, token, base string) answer {
	if a := f.pageAccess(who, http.MethodGet, pageID); a != nil {
		return *a
	}
	if a := checkFields(q, nil, []string{"id", "message", "created_time", "permalink_url", "full_picture"}); a != nil {
		return *a
	}
	limit := 25
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return paramError("limit must be a positive integer")
		}
		limit = min(n, 100)
	}
	after := 0
	if s := q.Get("after"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return paramError("after is not a cursor of this list")
		}
		after = n
	}
	want := fields(q)
	posts := f.pagePosts[pageID]
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
			}
		}
		data = append(data, d)
	}
	out := map[string]any{"data": data}
	if next := after + limit; next < len(posts) {
		v := url.Values{"limit": {strconv.Itoa(limit)}, "after": {strconv.Itoa(next)}, "access_token": {token}}
		if s := q.Get("fields"); s != "" {
			v.Set("fields", s)
		}
		out["paging"] = map[string]any{"next": base + "/" + pageID + "/posts?" + v.Encode(),
			"cursors": map[string]any{"after": strconv.Itoa(next)}}
	}
	return answer{http.StatusOK, out}
}

func (f *Fake) postInsights(who caller, postID string, q url.Values) answer {
	pageID, _, _ := strings.Cut(postID, "_")
	if a := f.pageAccess(who, http.MethodGet, pageID); a != nil {
		return *a
	}
	if q.Get("metric") != "post_impressions_unique" {
		return paramError("The value must be a valid insights metric")
	}
	return answer{http.StatusOK, map[string]any{"data": []any{map[string]any{
		"name": "post_impressions_unique", "period": "lifetime", "title": "Lifetime Post Total Reach",
		"values": []any{map[string]any{"value": f.posts[postID].OrganicReach}},
		"id":     postID + "/insights/post_impressions_unique/lifetime",
	}}}}
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

func (f *Fake) adInsights(who caller, adID string, q url.Values) answer {
	o, a := f.object(who, http.MethodGet, adID)
	if a != nil {
		return *a
	}
	if o.Kind != "ad" {
		return paramError("insights of this fake are those of ads")
	}
	if a := checkFields(q, nil, []string{"impressions", "reach", "clicks", "spend", "actions", "ad_id"}); a != nil {
		return *a
	}
	in, ok := f.insights[adID]
	if !ok {
		return answer{http.StatusOK, map[string]any{"data": []any{}}}
	}
	spend := in.Spend
	if spend == "" {
		spend = "0"
	}
	d := map[string]any{"date_start": "2026-01-01", "date_stop": time.Now().UTC().Format(time.DateOnly)}
	for _, k := range fields(q) {
		switch k {
		case "impressions":
			d[k] = strconv.Itoa(in.Impressions)
		case "reach":
			d[k] = strconv.Itoa(in.Reach)
		case "clicks":
			d[k] = strconv.Itoa(in.Clicks)
		case "spend":
			d[k] = spend
		case "ad_id":
			d[k] = adID
		case "actions":
			var actions []any
			if in.Engagement != 0 {
				actions = append(actions, map[string]any{"action_type": "post_engagement", "value": strconv.Itoa(in.Engagement)})
			}
			if in.Conversions != 0 {
				actions = append(actions, map[string]any{"action_type": "offsite_conversion", "value": strconv.Itoa(in.Conversions)})
			}
			if actions != nil { // network_a leaves out actions when there are none
				d[k] = actions
			}
		}
	}
	return answer{http.StatusOK, map[string]any{"data": []any{d}}}
}

func (f *Fake) getObject(who caller, id string, q url.Values) answer {
	o, a := f.object(who, http.MethodGet, id)
	if a != nil {
		return *a
	}
	return answer{http.StatusOK, objectFields(o, fields(q))}
}

// objectFields is an object as the API answers it: its id and the fields
// asked for that it has.
func objectFields(o *Object, want []string) map[string]any {
	out := map[string]any{"id": o.ID}
	for _, k := range want {
		switch k {
		case "name":
			out[k] = o.Name
		case "status", "effective_status":
			out[k] = o.Status
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
	var filters []filter
	if s := q.Get("filtering"); s != "" {
		if err := json.Unmarshal([]byte(s), &filters); err != nil {
			return paramError("Filtering field filtering is not a JSON array of filters")
		}
	}
	for _, fl := range filters {
		if fl.Field != "name" || (fl.Operator != "EQUAL" && fl.Operator != "CONTAIN") {
			return paramError(fmt.Sprintf("Filtering field %s with operation %s is not supported", fl.Field, fl.Operator))
		}
		if _, ok := fl.Value.(string); !ok {
			return paramError("Filtering value must be a string")
		}
	}
	want := fields(q)
	data := []any{}
	for _, o := range f.objects {
		if o.AccountID != accountID || o.Kind != kind {
			continue
		}
		keep := true
		for _, fl := range filters {
			v := fl.Value.(string)
			if (fl.Operator == "EQUAL" && o.Name != v) || (fl.Operator == "CONTAIN" && !strings.Contains(o.Name, v)) {
				keep = false
			}
		}
		if !keep {
			continue
		}
		data = append(data, objectFields(o, want))
	}
	return answer{http.StatusOK, map[string]any{"data": data}}
}

// statuses are the statuses an object may be given.
var statuses = []string{"ACTIVE", "PAUSED", "ARCHIVED", "DELETED"}

// decodeBody decodes a JSON object body.
func decodeBody(body []byte) (map[string]any, *answer) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || m == nil {
		a := paramError("the body must be a JSON object")
		return nil, &a
	}
	return m, nil
}

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
// of the kind (CONTRACT §14).
func (f *Fake) checkCreate(accountID, kind string, m map[string]any) *answer {
	fail := func(msg string) *answer { a := paramError(msg); return &a }
	if str(m, "name") == "" {
		return fail("The parameter name is required")
	}
	if s, ok := m["status"]; ok && !slices.Contains(statuses, fmt.Sprint(s)) {
		return fail("Param status must be one of {ACTIVE, PAUSED, ARCHIVED, DELETED}")
	}
	sameAccount := func(id, kind string) bool {
		o, ok := f.byID[id]
		return ok && o.Kind == kind && o.AccountID == accountID
	}
	switch kind {
	case "campaign":
		if str(m, "objective") == "" {
			return fail("The parameter objective is required")
		}
		if _, ok := m["special_ad_categories"].([]any); !ok {
			return fail("The parameter special_ad_categories is required")
		}
	case "adset":
		if !sameAccount(str(m, "campaign_id"), "campaign") {
			return fail("Param campaign_id must be a campaign of this ad account")
		}
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
	case "ad":
		if !sameAccount(str(m, "adset_id"), "adset") {
			return fail("Param adset_id must be an ad set of this ad account")
		}
		creative, _ := m["creative"].(map[string]any)
		story := str(creative, "object_story_id")
		if _, ok := f.posts[story]; !ok {
			return fail("Param creative.object_story_id must be the id of an existing post")
		}
	}
	return nil
}

func (f *Fake) create(accountID, kind string, body []byte, created **Object) answer {
	m, a := decodeBody(body)
	if a != nil {
		return *a
	}
	if a := f.checkCreate(accountID, kind, m); a != nil {
		return *a
	}
	f.objSeq++
	status := str(m, "status")
	if status == "" {
		status = "ACTIVE"
	}
	o := &Object{Kind: kind, ID: strconv.Itoa(120200000000000000 + f.objSeq), AccountID: accountID,
		Name: str(m, "name"), Status: status, Fields: m}
	f.objects = append(f.objects, o)
	f.byID[o.ID] = o
	c := o.clone()
	*created = &c
	return answer{http.StatusOK, map[string]any{"id": o.ID}}
}

func (f *Fake) update(who caller, id string, body []byte) answer {
	o, a := f.object(who, http.MethodPost, id)
	if a != nil {
		return *a
	}
	m, a := decodeBody(body)
	if a != nil {
		return *a
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
		o.Name = s
	}
	o.Updates = append(o.Updates, m)
	return answer{http.StatusOK, map[string]any{"success": true}}
}
