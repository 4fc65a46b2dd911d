package httpapi

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"adboost/auth/networka"
)

// The user's network_a ad accounts: listed by GET /v1/ad-accounts, and the
// one a campaign spends through chosen by save and create (ad_account_id).

// adAccountsTTL is how long the ad accounts read of a user are kept: at
// most one network_a read per user per minute.
const adAccountsTTL = time.Minute

// adAccountsUsers bounds how many users' ad accounts are kept at once.
const adAccountsUsers = 10000

// adAccountCache keeps each user's ad accounts as network_a answered them
// for adAccountsTTL; the reads of one user that miss at once share one
// network_a read.
type adAccountCache struct {
	accounts *expirable.LRU[int64, []networka.AdAccount]
	reading  singleflight.Group
}

func newAdAccountCache() *adAccountCache {
	return &adAccountCache{accounts: expirable.NewLRU[int64, []networka.AdAccount](adAccountsUsers, nil, adAccountsTTL)}
}

// adAccount is one ad account of GET /v1/ad-accounts.
type adAccount struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Currency      string `json:"currency"`
	TimezoneName  string `json:"timezone_name"`
	AccountStatus int    `json:"account_status"`
	Usable        bool   `json:"usable"`
}

// adAccountsList: GET /v1/ad-accounts.
func (s *Server) adAccountsList(ctx context.Context, _ *empty) ([]adAccount, error) {
	accounts, err := s.userAdAccounts(ctx, userID(ctx))
	if err != nil {
		return nil, err
	}
	out := make([]adAccount, len(accounts))
	for i, a := range accounts {
		out[i] = adAccount{ID: a.ID, Name: a.Name, Currency: a.Currency, TimezoneName: a.TimezoneName,
			AccountStatus: a.Status, Usable: a.Usable()}
	}
	return out, nil
}

// notConnected is 409 not_connected: the user has no network_a connection
// adboost may use.
func notConnected(format string, args ...any) *Error {
	return newError(http.StatusConflict, "not_connected", format, args...)
}

// userAdAccounts answers the user's ad accounts, read from network_a (GET
// /me/adaccounts with the user's stored token) at most once a minute:
// 409 not_connected when the user has no token adboost may use (none
// stored, ended, or refused by network_a), 503 when network_a cannot be
// reached.
func (s *Server) userAdAccounts(ctx context.Context, uid int64) ([]networka.AdAccount, error) {
	if a, ok := s.adAccounts.accounts.Get(uid); ok {
		return a, nil
	}
	token, err := s.userNetworkAToken(ctx, uid)
	if err != nil {
		return nil, err
	}
	api, err := s.network()
	if err != nil {
		return nil, err
	}
	v, err, _ := s.adAccounts.reading.Do(strconv.FormatInt(uid, 10), func() (any, error) {
		if a, ok := s.adAccounts.accounts.Get(uid); ok {
			return a, nil
		}
		// The read is shared: it is not cancelled with the request that
		// began it, only bounded by the client's own time-out.
		a, err := api.AdAccounts(context.WithoutCancel(ctx), token, networka.Scope{User: strconv.FormatInt(uid, 10)})
		if err != nil {
			return nil, err
		}
		s.adAccounts.accounts.Add(uid, a)
		return a, nil
	})
	switch {
	case err == nil:
		return v.([]networka.AdAccount), nil
	case networka.TokenRefused(err):
		return nil, notConnected("network_a refused your connection: sign in again with network_a")
	case errors.Is(err, networka.ErrUnavailable) && ctx.Err() != nil:
		return nil, err
	}
	s.log.WarnContext(ctx, "network_a did not answer the user's ad accounts", "err", err)
	return nil, unavailable("network_a is unreachable or failing; try again later")
}

// userNetworkAToken answers the user's network_a token, opened: 409
// not_connected when none is stored or it cannot be used any more.
func (s *Server) userNetworkAToken(ctx context.Context, uid int64) (string, error) {
	u, err := s.q.AdAccountsUserToken(ctx, uid)
	if isNoRows(err) {
		return "", unauthorized("the account of this access token no longer exists")
	}
	if err != nil {
		return "", err
	}
	switch {
	case u.NetworkAToken == nil || s.cfg.TokenCipher == nil:
		return "", notConnected("you are not connected to network_a: sign in with network_a first")
	case u.NetworkATokenExpiresAt.Valid && !time.Now().Before(u.NetworkATokenExpiresAt.Time):
		return "", notConnected("the connection to network_a ended on %s; sign in again with network_a",
			u.NetworkATokenExpiresAt.Time.UTC().Format(time.DateOnly))
	case u.TokenInvalid:
		return "", notConnected("network_a refused your connection: sign in again with network_a")
	}
	token, err := s.cfg.TokenCipher.Open(u.NetworkAToken)
	if err != nil {
		s.log.WarnContext(ctx, "a stored network_a token does not open with TOKEN_ENCRYPTION_KEY", "user", uid)
		return "", notConnected("your network_a connection cannot be used: sign in again with network_a")
	}
	return token, nil
}

// adAccountID is the form of an ad account's id.
var adAccountID = regexp.MustCompile(`^act_[0-9]{1,20}$`)

// checkAdAccountID checks the form of a request's ad_account_id ("" when
// absent).
func checkAdAccountID(id string) error {
	if id != "" && !adAccountID.MatchString(id) {
		return badRequest("ad_account_id must be a network_a ad account id such as \"act_1234\", not %q", id)
	}
	return nil
}

// chosenAdAccount answers the user's ad account id as network_a describes
// it: 400 naming ad_account_id when it is not one of the user's accounts
// that may boost (active or in its grace period).
func (s *Server) chosenAdAccount(ctx context.Context, uid int64, id string) (networka.AdAccount, error) {
	accounts, err := s.userAdAccounts(ctx, uid)
	if err != nil {
		return networka.AdAccount{}, err
	}
	for _, a := range accounts {
		if a.ID != id {
			continue
		}
		if !a.Usable() {
			return networka.AdAccount{}, badRequest("ad_account_id %s may not boost: network_a gives it account_status %d (only 1, active, and 9, in grace period, may)",
				id, a.Status)
		}
		return a, nil
	}
	return networka.AdAccount{}, badRequest("ad_account_id %s is not one of your network_a ad accounts", id)
}

// adAccountParams are the ad account columns of a save or create: all nil
// when none is chosen.
type adAccountParams struct {
	ID, Name, Currency, Timezone *string
}

func newAdAccountParams(a networka.AdAccount) adAccountParams {
	return adAccountParams{ID: &a.ID, Name: &a.Name, Currency: &a.Currency, Timezone: &a.TimezoneName}
}
