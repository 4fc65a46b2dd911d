package networka

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Profile is the network_a user of an access token (GET /me).
type Profile struct {
	ID        int64
	FirstName string
	LastName  string
	Email     string // may be empty: not every network_a user shares one
}

// Page is a page the user manages on network_a (GET /me/accounts), with the
// network_b account linked to it, if any.
type Page struct {
	ID       int64
	Name     string
	Picture  string
	NetworkB *AccountB
	// Token is the page's own access token, empty when
	// network_a answered none or one that cannot be a bearer token. It is a
	// secret: seal it before storing it, never log it.
	Token string
}

// AccountB is a network_b account linked to a network_a page.
type AccountB struct {
	ID       int64
	Username string
	Picture  string
}

// Me answers the network_a user of the token.
func (c *Client) Me(ctx context.Context, token string) (Profile, error) {
	var me struct {
		ID        graphID `json:"id"`
		FirstName string  `json:"first_name"`
		LastName  string  `json:"last_name"`
		Email     string  `json:"email"`
	}
	cl := call{method: http.MethodGet, path: "/me", query: url.Values{"fields": {"id,first_name,last_name,email"}}, token: token}
	if err := c.do(ctx, cl, &me); err != nil {
		return Profile{}, err
	}
	if me.ID == 0 {
		return Profile{}, fmt.Errorf("%w: /me answered no id", ErrUnavailable)
	}
	return Profile{
		ID:        int64(me.ID),
		FirstName: clean(me.FirstName),
		LastName:  clean(me.LastName),
		Email:     strings.TrimSpace(clean(me.Email)),
	}, nil
}

// Accounts answers every page the user of the token manages, with each
// page's token and linked network_b account, through every page of the
// answer (at most MaxPages).
func (c *Client) Accounts(ctx context.Context, token string) ([]Page, error) {
	var pages []Page
	cl := call{method: http.MethodGet, path: "/me/accounts",
		query: url.Values{"fields": {"id,name,picture,access_token,network_b_account"}}, token: token}
	err := c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var d struct {
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
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return false, err
		}
		if d.ID == 0 {
			return false, fmt.Errorf("a page without id")
		}
		p := Page{ID: int64(d.ID), Name: clean(d.Name), Picture: clean(d.Picture.Data.URL)}
		if CheckToken(d.AccessToken) == nil {
			p.Token = d.AccessToken
		}
		if d.NetworkB != nil && d.NetworkB.ID != 0 {
			p.NetworkB = &AccountB{ID: int64(d.NetworkB.ID), Username: clean(d.NetworkB.Username), Picture: clean(d.NetworkB.Picture)}
		}
		pages = append(pages, p)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return pages, nil
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
