package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// NetworkATimeout is how long one request to network_a may take.
const NetworkATimeout = 5 * time.Second

// NetworkAMaxPages is how many pages of /me/accounts are followed at most.
const NetworkAMaxPages = 100

// networkAMaxBody is the largest answer of network_a that is read.
const networkAMaxBody = 4 << 20

// ErrNetworkAUnavailable is returned when network_a is down, slow, answers 5xx
// or answers something that is not its protocol. The wrapped error tells
// which, and never carries the access token.
var ErrNetworkAUnavailable = errors.New("network_a is unavailable")

// ErrNetworkAToken is returned for an access token that cannot be one (empty,
// too long, or with characters no bearer token has); it is not sent.
var ErrNetworkAToken = errors.New("not a network_a access token")

// NetworkAError is network_a's error answer, `{"error": {"message", "type",
// "code", "error_subcode", "is_transient"}}` (CONTRACT §6). Sign-in gets it
// for a refused token (status 400 or 401); the engine reads it from any
// error answer (db/engine.APIError).
type NetworkAError struct {
	Status    int    // the HTTP status of the answer
	Type      string // e.g. OAuthException
	Code      int    // e.g. 190: invalid or expired token
	Subcode   int    // error_subcode; 0 when absent
	Transient bool   // is_transient
	Message   string // network_a's own message, for logs
}

func (e *NetworkAError) Error() string {
	return fmt.Sprintf("network_a refused the token: status %d, %s code %d: %s", e.Status, e.Type, e.Code, e.Message)
}

// NetworkAProfile is the network_a user of an access token (GET /me).
type NetworkAProfile struct {
	ID        int64
	FirstName string
	LastName  string
	Email     string // may be empty: not every network_a user shares one
}

// NetworkAPage is a page the user manages on network_a (GET /me/accounts),
// with the network_b account linked to it, if any.
type NetworkAPage struct {
	ID       int64
	Name     string
	Picture  string
	NetworkB *NetworkBAccount
	// Token is the page's own access token (CONTRACT §14), empty when
	// network_a answered none or one that cannot be a bearer token. It is a
	// secret: seal it (TokenCipher) before storing it, never log it.
	Token string
}

// NetworkBAccount is a network_b account linked to a network_a page.
type NetworkBAccount struct {
	ID       int64
	Username string
	Picture  string
}

// NetworkA is a client of network_a's Graph-style API. The access token
// travels only in the Authorization header: never in a URL (a paging URL that
// carries one has it removed) and never in an error.
type NetworkA struct {
	base   *url.URL
	client *http.Client
}

// NewNetworkA returns a client of the API at baseURL (http or https, with an
// optional path prefix such as /v19.0). timeout bounds each request; 0 means
// NetworkATimeout.
func NewNetworkA(baseURL string, timeout time.Duration) (*NetworkA, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.User != nil {
		return nil, fmt.Errorf("network_a API URL %q: want http(s)://host[:port][/path]", baseURL)
	}
	if timeout <= 0 {
		timeout = NetworkATimeout
	}
	return &NetworkA{
		base: u,
		client: &http.Client{
			Timeout: timeout,
			// A redirect would carry the request elsewhere; network_a's API
			// answers directly, so one is an error.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// bearerToken is the syntax of an OAuth 2.0 bearer token (RFC 6750, b64token).
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9\-._~+/]+=*$`)

// CheckNetworkAToken tells whether token can be an access token at all.
func CheckNetworkAToken(token string) error {
	if len(token) > 4096 || !bearerToken.MatchString(token) {
		return ErrNetworkAToken
	}
	return nil
}

// Me answers the network_a user of the token.
func (n *NetworkA) Me(ctx context.Context, token string) (NetworkAProfile, error) {
	u := n.endpoint("/me", url.Values{"fields": {"id,first_name,last_name,email"}})
	var me struct {
		ID        graphID `json:"id"`
		FirstName string  `json:"first_name"`
		LastName  string  `json:"last_name"`
		Email     string  `json:"email"`
	}
	if err := n.get(ctx, u, token, &me); err != nil {
		return NetworkAProfile{}, err
	}
	if me.ID == 0 {
		return NetworkAProfile{}, fmt.Errorf("%w: /me answered no id", ErrNetworkAUnavailable)
	}
	return NetworkAProfile{
		ID:        int64(me.ID),
		FirstName: clean(me.FirstName),
		LastName:  clean(me.LastName),
		Email:     strings.TrimSpace(clean(me.Email)),
	}, nil
}

// Accounts answers every page the user of the token manages, following
// paging.next through all pages of the answer. A next URL already followed
// ends the list (its pages were read); one on another host than the API, or
// more than NetworkAMaxPages pages, is an error.
func (n *NetworkA) Accounts(ctx context.Context, token string) ([]NetworkAPage, error) {
	next := n.endpoint("/me/accounts", url.Values{"fields": {"id,name,picture,network_b_account"}})
	seen := map[string]bool{}
	var pages []NetworkAPage
	for next != nil {
		if seen[next.String()] {
			break
		}
		if len(seen) == NetworkAMaxPages {
			return nil, fmt.Errorf("%w: /me/accounts has more than %d pages", ErrNetworkAUnavailable, NetworkAMaxPages)
		}
		seen[next.String()] = true
		var answer struct {
			Data []struct {
				ID      graphID `json:"id"`
				Name    string  `json:"name"`
				Picture struct {
					Data struct {
						URL string `json:"url"`
					} `json:"data"`
				} `json:"picture"`
				NetworkB *struct {
					ID       graphID `json:"id"`
					Username string  `json:"username"`
					Picture  string  `json:"profile_picture_url"`
				} `json:"network_b_account"`
				AccessToken string `json:"access_token"`
			} `json:"data"`
			Paging struct {
				Next string `json:"next"`
			} `json:"paging"`
		}
		if err := n.get(ctx, next, token, &answer); err != nil {
			return nil, err
		}
		for _, d := range answer.Data {
			if d.ID == 0 {
				return nil, fmt.Errorf("%w: /me/accounts answered a page without id", ErrNetworkAUnavailable)
			}
			p := NetworkAPage{ID: int64(d.ID), Name: clean(d.Name), Picture: clean(d.Picture.Data.URL)}
			if CheckNetworkAToken(d.AccessToken) == nil {
				p.Token = d.AccessToken
			}
			if d.NetworkB != nil && d.NetworkB.ID != 0 {
				p.NetworkB = &NetworkBAccount{ID: int64(d.NetworkB.ID), Username: clean(d.NetworkB.Username), Picture: clean(d.NetworkB.Picture)}
			}
			pages = append(pages, p)
		}
		var err error
		if next, err = n.follow(answer.Paging.Next); err != nil {
			return nil, err
		}
	}
	return pages, nil
}

// endpoint is the URL of an API path under the base URL.
func (n *NetworkA) endpoint(path string, query url.Values) *url.URL {
	u := *n.base
	u.Path = n.base.Path + path
	u.RawPath = ""
	u.RawQuery = query.Encode()
	return &u
}

// follow checks a paging URL (NetworkAPageURL).
func (n *NetworkA) follow(next string) (*url.URL, error) {
	return NetworkAPageURL(n.base, next)
}

// NetworkAPageURL checks a paging URL of an answer of the API at base: nil
// when there is none; the same scheme and host as the API, or the token
// would be sent elsewhere (an error wrapping ErrNetworkAUnavailable); any
// access_token parameter (Graph APIs put one in their paging URLs) removed.
func NetworkAPageURL(base *url.URL, next string) (*url.URL, error) {
	if next == "" {
		return nil, nil
	}
	u, err := base.Parse(next)
	if err != nil || u.Scheme != base.Scheme || u.Host != base.Host || u.User != nil {
		return nil, fmt.Errorf("%w: paging.next leads away from the API", ErrNetworkAUnavailable)
	}
	q := u.Query()
	if q.Has("access_token") {
		q.Del("access_token")
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	return u, nil
}

// get calls one URL with the token and decodes the answer into v. Sign-in
// takes only a 200; a 400 or 401 with network_a's error object is a
// *NetworkAError, anything else ErrNetworkAUnavailable.
func (n *NetworkA) get(ctx context.Context, u *url.URL, token string, v any) error {
	if err := CheckNetworkAToken(token); err != nil {
		return err
	}
	status, body, err := NetworkAExchange(ctx, n.client, http.MethodGet, u.String(), token, nil, networkAMaxBody)
	if err != nil {
		return err
	}
	switch {
	case status == http.StatusOK:
	case status == http.StatusBadRequest || status == http.StatusUnauthorized:
		if e := ParseNetworkAError(status, body); e != nil {
			return e
		}
		return fmt.Errorf("%w: %s answered %d without an OAuth error", ErrNetworkAUnavailable, u.Path, status)
	default:
		return fmt.Errorf("%w: %s answered %d", ErrNetworkAUnavailable, u.Path, status)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %s answered malformed JSON: %v", ErrNetworkAUnavailable, u.Path, err)
	}
	return nil
}

// NetworkAExchange sends one request to network_a with the token in the
// Authorization header only (never in the URL or an error) and body, when
// not nil, as JSON; it answers the status and the answer, read up to max
// bytes. A transport failure, or an answer of more than max bytes, is an
// error wrapping ErrNetworkAUnavailable that names the method and the path.
// What each status means is the caller's (sign-in and the engine differ).
func NetworkAExchange(ctx context.Context, client *http.Client, method, target, token string, body any, max int64) (status int, answer []byte, err error) {
	var reqBody io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		reqBody = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reqBody)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", ErrNetworkAUnavailable, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		// A *url.Error names the method and URL, which carry no token.
		return 0, nil, fmt.Errorf("%w: %v", ErrNetworkAUnavailable, err)
	}
	defer resp.Body.Close()
	answer, err = io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %s %s: reading the answer: %v", ErrNetworkAUnavailable, method, req.URL.Path, err)
	}
	if int64(len(answer)) > max {
		return 0, nil, fmt.Errorf("%w: %s %s answered more than %d bytes", ErrNetworkAUnavailable, method, req.URL.Path, max)
	}
	return resp.StatusCode, answer, nil
}

// ParseNetworkAError reads network_a's error object out of an answer of the
// given status; nil when the answer holds none.
func ParseNetworkAError(status int, answer []byte) *NetworkAError {
	var e struct {
		Error *struct {
			Message   string `json:"message"`
			Type      string `json:"type"`
			Code      int    `json:"code"`
			Subcode   int    `json:"error_subcode"`
			Transient bool   `json:"is_transient"`
		} `json:"error"`
	}
	if json.Unmarshal(answer, &e) != nil || e.Error == nil {
		return nil
	}
	return &NetworkAError{Status: status, Type: e.Error.Type, Code: e.Error.Code,
		Subcode: e.Error.Subcode, Transient: e.Error.Transient, Message: e.Error.Message}
}

// graphID is an id of network_a: a positive integer sent as a string (or,
// tolerated, as a number).
type graphID int64

func (id *graphID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*id = 0
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return fmt.Errorf("id %s is not a positive integer", b)
	}
	*id = graphID(v)
	return nil
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
