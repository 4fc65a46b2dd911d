package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	httpapi "adboost/http"
)

// fakeNetworkA is network_a's Graph-style API (CONTRACT §6) under the path
// prefix /v19.0: access tokens of users with profiles and pages, pages of
// /me/accounts linked by paging.next URLs that carry the token the way Graph
// APIs do (so that a client that follows them blindly would put it in a
// URL), switches to fail, and a record of every request.
type fakeNetworkA struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	users     map[string]*fakeUser // by access token
	pageSize  int
	mode      string        // "": normal; see serve
	delay     time.Duration // for mode "slow"
	elsewhere string        // for mode "foreign": where paging.next points
	seen      []seenRequest
}

type seenRequest struct {
	URL           string // path and query, as received
	Authorization string
}

type fakeUser struct {
	ID, FirstName, LastName, Email string
	Pages                          []fakePage
}

type fakePage struct {
	ID, Name, Picture string
	B                 *fakeAccountB
}

type fakeAccountB struct {
	ID, Username, Picture string
}

// The OAuth errors of the fake: an unknown token is 401, this one 400.
const fakeExpiredToken = "EAAexpired0token"

func newFakeNetworkA(t *testing.T) *fakeNetworkA {
	f := &fakeNetworkA{t: t, users: map[string]*fakeUser{}, pageSize: 3}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// url is the base URL to configure as NETWORK_A_API_URL.
func (f *fakeNetworkA) url() string { return f.srv.URL + "/v19.0" }

// config points a test server at the fake, with a short timeout.
func (f *fakeNetworkA) config(cfg *httpapi.Config) {
	cfg.NetworkAAPIURL = f.url()
	cfg.NetworkATimeout = 300 * time.Millisecond
}

func (f *fakeNetworkA) addUser(token string, u *fakeUser) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users[token] = u
}

// update changes the fake's state under its lock.
func (f *fakeNetworkA) update(fn func(f *fakeNetworkA)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fakeNetworkA) setMode(mode string) { f.update(func(f *fakeNetworkA) { f.mode = mode }) }

// requests answers the requests seen so far and forgets them.
func (f *fakeNetworkA) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := f.seen
	f.seen = nil
	return seen
}

func oauthError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": message, "type": "OAuthException", "code": 190, "fbtrace_id": "AbCdEf"}})
}

func (f *fakeNetworkA) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.seen = append(f.seen, seenRequest{URL: r.URL.RequestURI(), Authorization: r.Header.Get("Authorization")})
	mode, delay, pageSize, elsewhere := f.mode, f.delay, f.pageSize, f.elsewhere
	var user *fakeUser
	token, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if bearer {
		if u, ok := f.users[token]; ok {
			copied := *u
			copied.Pages = append([]fakePage(nil), u.Pages...)
			user = &copied
		}
	}
	f.mu.Unlock()

	switch mode {
	case "error500":
		http.Error(w, `{"error": {"message": "An unexpected error has occurred.", "code": 2}}`, http.StatusInternalServerError)
		return
	case "slow":
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	case "garbage":
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html>maintenance</html>"))
		return
	case "no-oauth-401":
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, "method", http.StatusMethodNotAllowed)
		return
	}
	switch {
	case !bearer || token == "":
		oauthError(w, http.StatusBadRequest, "An active access token must be used to query information about the current user.")
		return
	case token == fakeExpiredToken:
		oauthError(w, http.StatusBadRequest, "Error validating access token: Session has expired.")
		return
	case user == nil:
		oauthError(w, http.StatusUnauthorized, "Invalid OAuth access token - Cannot parse access token")
		return
	}

	q := r.URL.Query()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v19.0/me":
		if q.Get("fields") != "id,first_name,last_name,email" {
			http.Error(w, `{"error": {"message": "fields", "code": 100}}`, http.StatusBadRequest)
			return
		}
		me := map[string]string{"id": user.ID, "first_name": user.FirstName, "last_name": user.LastName}
		if user.Email != "" {
			me["email"] = user.Email
		}
		json.NewEncoder(w).Encode(me)
	case "/v19.0/me/accounts":
		if q.Get("fields") != "id,name,picture,network_b_account" {
			http.Error(w, `{"error": {"message": "fields", "code": 100}}`, http.StatusBadRequest)
			return
		}
		after, _ := strconv.Atoi(q.Get("after"))
		var data []map[string]any
		for i := after; i < after+pageSize && i < len(user.Pages); i++ {
			p := user.Pages[i]
			page := map[string]any{"id": p.ID, "name": p.Name,
				"picture": map[string]any{"data": map[string]any{"url": p.Picture, "is_silhouette": false}}}
			if p.B != nil {
				page["network_b_account"] = map[string]any{"id": p.B.ID, "username": p.B.Username, "profile_picture_url": p.B.Picture}
			}
			data = append(data, page)
		}
		answer := map[string]any{"data": data}
		nextAfter := after + pageSize
		next := url.Values{"fields": {q.Get("fields")}, "limit": {strconv.Itoa(pageSize)},
			"after": {strconv.Itoa(nextAfter)}, "access_token": {token}}
		switch {
		case mode == "foreign":
			answer["paging"] = map[string]any{"next": elsewhere + "/v19.0/me/accounts?" + next.Encode()}
		case mode == "endless":
			answer["paging"] = map[string]any{"next": f.url() + "/me/accounts?" + next.Encode()}
		case nextAfter < len(user.Pages):
			answer["paging"] = map[string]any{"next": f.url() + "/me/accounts?" + next.Encode(),
				"cursors": map[string]any{"after": strconv.Itoa(nextAfter)}}
		case mode == "loop":
			// The last page leads back to the first.
			first := url.Values{"fields": {q.Get("fields")}, "access_token": {token}}
			answer["paging"] = map[string]any{"next": f.url() + "/me/accounts?" + first.Encode()}
		}
		json.NewEncoder(w).Encode(answer)
	default:
		http.Error(w, `{"error": {"message": "Unknown path components", "code": 2500}}`, http.StatusNotFound)
	}
}
