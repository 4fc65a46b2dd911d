package networka

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// App is adboost's application on network_a (NETWORK_A_APP_ID,
// NETWORK_A_APP_SECRET): with it a sign-in token is exchanged for a
// long-lived one. Secret is a secret: it goes to network_a in the exchange
// only, never into a log, an error or an answer.
type App struct {
	ID     string
	Secret string
}

// String names the app without its secret, so that printing an App (in a
// log line, an error) never shows it.
func (a App) String() string { return "network_a app " + a.ID }

// GoString is String, for %#v.
func (a App) GoString() string { return a.String() }

// Set tells whether both the id and the secret are known.
func (a App) Set() bool { return a.ID != "" && a.Secret != "" }

// ErrAppRefused is wrapped by a failed exchange that network_a refused for
// a reason other than the user's token (the app id or secret it does not
// take): the service's settings are wrong, not the user's token. It also
// wraps ErrUnavailable: the sign-in cannot be done now.
var ErrAppRefused = errors.New("network_a refused the app's id or secret")

// LongLived is the long-lived token an exchange answered.
type LongLived struct {
	// Token is the new user token. It is a secret: seal it before storing
	// it, never log it.
	Token string
	// ExpiresIn is how long it lasts from the exchange; 0 when network_a
	// did not say.
	ExpiresIn time.Duration
}

// Exchange trades a user's sign-in token for a long-lived one:
// `GET /oauth/access_token?grant_type=fb_exchange_token&client_id=..&client_secret=..&fb_exchange_token=..`
// → `{"access_token","token_type","expires_in"}`. It is sent on its own
// (never in a batch) and its errors name only the method and the path: the
// secret and the tokens, which travel in the query, are in none of them.
// A refusal of the token is an *Error of KindToken; a refusal of the app
// (its id, code 101, or its secret, code 1) wraps ErrAppRefused.
func (c *Client) Exchange(ctx context.Context, app App, token string) (LongLived, error) {
	if !app.Set() {
		return LongLived{}, errors.New("network_a: the exchange needs the app's id and secret")
	}
	if err := CheckToken(token); err != nil {
		return LongLived{}, err
	}
	cl := call{method: http.MethodGet, path: "/oauth/access_token", token: token, query: url.Values{
		"grant_type":        {"fb_exchange_token"},
		"client_id":         {app.ID},
		"client_secret":     {app.Secret},
		"fb_exchange_token": {token},
	}}
	a, err := c.send(ctx, cl)
	if err != nil {
		return LongLived{}, c.finish(ctx, cl, a, err, nil)
	}
	// network_a may quote what it refused: the secret never leaves here (the
	// token is redacted by read).
	a.body = bytes.ReplaceAll(a.body, []byte(app.Secret), []byte("[secret]"))
	if q := url.QueryEscape(app.Secret); q != app.Secret {
		a.body = bytes.ReplaceAll(a.body, []byte(q), []byte("[secret]"))
	}
	var out struct {
		AccessToken string          `json:"access_token"`
		TokenType   string          `json:"token_type"`
		ExpiresIn   json.RawMessage `json:"expires_in"`
	}
	if err := c.read(cl, a, &out); err != nil {
		var apiErr *Error
		// Code 1 is the answer to a wrong secret (or grant): not passing,
		// whatever it means elsewhere.
		if errors.As(err, &apiErr) && (apiErr.Kind() == KindRefused ||
			(apiErr.Code == 1 && !apiErr.Transient && apiErr.Status < 500)) {
			return LongLived{}, fmt.Errorf("%w: %w: %s", ErrUnavailable, ErrAppRefused, apiErr.Error())
		}
		return LongLived{}, err
	}
	if CheckToken(out.AccessToken) != nil {
		return LongLived{}, fmt.Errorf("%w: %s answered no usable access_token", ErrUnavailable, cl.what())
	}
	seconds, err := expiresIn(out.ExpiresIn)
	if err != nil {
		return LongLived{}, fmt.Errorf("%w: %s: %v", ErrUnavailable, cl.what(), err)
	}
	return LongLived{Token: out.AccessToken, ExpiresIn: time.Duration(seconds) * time.Second}, nil
}

// maxExpiresIn bounds a token's life as network_a may state it (a year and
// a bit: its long-lived tokens last 60 days).
const maxExpiresIn = 400 * 24 * 3600

// expiresIn reads expires_in: seconds as a JSON number or its string form;
// absent or null is 0 (unknown).
func expiresIn(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var n json.Number
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
		n = json.Number(s)
	} else if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("expires_in %s is not a number", raw)
	}
	v, err := n.Int64()
	if err != nil || v < 0 || v > maxExpiresIn {
		return 0, fmt.Errorf("expires_in %s is not a number of seconds up to %d", raw, maxExpiresIn)
	}
	return v, nil
}

// Needed permissions: what boosting a page's posts needs of the user's
// grants, and what boosting the media of a network_b account needs besides.
var (
	NeededPermissions         = []string{"ads_management", "pages_manage_ads", "pages_read_engagement", "pages_show_list"}
	NeededPermissionsNetworkB = []string{"instagram_basic", "instagram_manage_insights"}
)

// Permissions answers the permissions the user of the token has granted
// (GET /me/permissions: those whose status is "granted"), sorted.
func (c *Client) Permissions(ctx context.Context, token string) ([]string, error) {
	cl := call{method: http.MethodGet, path: "/me/permissions", token: token}
	var granted []string
	err := c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var d struct {
			Permission string `json:"permission"`
			Status     string `json:"status"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return false, err
		}
		if d.Permission == "" {
			return false, errors.New("a permission without a name")
		}
		if d.Status == "granted" {
			granted = append(granted, d.Permission)
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(granted)
	return slices.Compact(granted), nil
}

// Missing answers the permissions of needed that granted lacks, sorted.
func Missing(granted []string, needed ...[]string) []string {
	missing := []string{}
	for _, list := range needed {
		for _, p := range list {
			if !slices.Contains(granted, p) && !slices.Contains(missing, p) {
				missing = append(missing, p)
			}
		}
	}
	slices.Sort(missing)
	return missing
}
