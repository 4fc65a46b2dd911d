package httpapi

import (
	"context"
	"net"
	"net/http"
	"strings"

	"adboost/auth"
	"adboost/db"
)

// userWithToken is the User object with the access token of a sign-in.
type userWithToken struct {
	db.UserProfileRow
	AccessToken string `json:"access_token"`
}

// signedIn answers the User of id with a new access token.
func (s *Server) signedIn(ctx context.Context, id int64) (userWithToken, error) {
	profile, err := s.q.UserProfile(ctx, id)
	if err != nil {
		return userWithToken{}, err
	}
	token, err := s.tokens.Issue(id)
	if err != nil {
		return userWithToken{}, err
	}
	return userWithToken{UserProfileRow: profile, AccessToken: token}, nil
}

type loginPasswordRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`

	clientAddr string
}

func (r *loginPasswordRequest) bind(req *http.Request) error {
	r.clientAddr = req.RemoteAddr
	if host, _, err := net.SplitHostPort(req.RemoteAddr); err == nil {
		r.clientAddr = host
	}
	return nil
}

func (r *loginPasswordRequest) validate() error {
	r.Email = strings.TrimSpace(r.Email)
	switch {
	case r.Email == "":
		return badRequest("email is required")
	case len(r.Email) > 254:
		return badRequest("email is longer than 254 characters")
	case r.Password == "":
		return badRequest("password is required")
	}
	return nil
}

func (s *Server) userLoginPassword(ctx context.Context, req *loginPasswordRequest) (userWithToken, error) {
	window := int32(s.cfg.LoginWindow.Seconds())
	wait, err := s.q.LoginFailureRetryAfter(ctx, db.LoginFailureRetryAfterParams{
		ClientAddr: req.clientAddr, Email: req.Email,
		WindowSeconds: window, MaxFailures: int32(s.cfg.LoginMaxFailures),
	})
	if err != nil {
		return userWithToken{}, err
	}
	if wait > 0 {
		e := newError(http.StatusTooManyRequests, "rate_limited", "too many failed sign-ins; try again in %d seconds", wait)
		e.RetryAfter = int(wait)
		return userWithToken{}, e
	}
	cred, err := s.q.UserCredentialsByEmail(ctx, req.Email)
	var hash *string
	if err == nil {
		hash = cred.PasswordHash
	} else if !isNoRows(err) {
		return userWithToken{}, err
	}
	if auth.CheckPassword(hash, req.Password) != nil {
		if err := s.q.LoginFailureRecord(ctx, db.LoginFailureRecordParams{
			WindowSeconds: window, ClientAddr: req.clientAddr, Email: req.Email,
		}); err != nil {
			return userWithToken{}, err
		}
		return userWithToken{}, newError(http.StatusUnauthorized, "invalid_credentials", "the e-mail or the password is wrong")
	}
	if err := s.q.LoginFailureClear(ctx, req.Email); err != nil {
		return userWithToken{}, err
	}
	return s.signedIn(ctx, cred.ID)
}

func (s *Server) userDetail(ctx context.Context, _ *empty) (db.UserProfileRow, error) {
	user, err := s.q.UserProfile(ctx, userID(ctx))
	if isNoRows(err) {
		return user, unauthorized("the account of this access token no longer exists")
	}
	return user, err
}
