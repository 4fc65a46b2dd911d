package httpapi

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"adboost/auth"
	"adboost/db"
)

// userWithToken is the User object with the access token of a sign-in.
type userWithToken struct {
	db.UserProfileRow
	AccessToken string `json:"access_token"`
}

// signedIn answers the User of id with a new access token of the user's
// current token generation.
func (s *Server) signedIn(ctx context.Context, id int64) (userWithToken, error) {
	generation, err := s.q.UserTokenGeneration(ctx, id)
	if err != nil {
		return userWithToken{}, err
	}
	return s.signedInAt(ctx, id, generation)
}

// signedInAt answers the User of id with a new access token of the given
// token generation: a password sign-in passes the one it read with the hash
// it checked, so a password change committed meanwhile ends that token too.
func (s *Server) signedInAt(ctx context.Context, id, generation int64) (userWithToken, error) {
	profile, err := s.q.UserProfile(ctx, id)
	if err != nil {
		return userWithToken{}, err
	}
	token, err := s.tokens.Issue(id, generation)
	if err != nil {
		return userWithToken{}, err
	}
	return userWithToken{UserProfileRow: profile, AccessToken: token}, nil
}

type loginPasswordRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
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

// loginBusyWait bounds how long a password sign-in waits for the checks in
// flight of its e-mail or client address to settle when they alone fill the
// limit (see LoginAttemptReserve); then it answers 429 with Retry-After 1.
const loginBusyWait = 5 * time.Second

// reservePasswordCheck reserves one password check for the e-mail from the
// request's client address, or answers 429 when either has used up its
// checks of the window. The reservation is atomic whatever the concurrency
// and the number of instances: both keys are locked (advisory transaction
// locks, e-mail first) before they are counted, so a reservation counts
// every one committed before it. When the limit is reached only by checks
// still in flight (concurrent sign-ins with the right password, an office
// behind one address), it waits for them to settle and asks again: a check
// takes one bcrypt comparison, and a success frees its place.
func (s *Server) reservePasswordCheck(ctx context.Context, email string) (attempt int64, err error) {
	addr := clientAddrOf(ctx)
	params := db.LoginAttemptReserveParams{
		Email: email, ClientAddr: addr,
		WindowSeconds: int32(s.cfg.LoginWindow.Seconds()), MaxAttempts: int32(s.cfg.LoginMaxFailures),
		PendingSeconds: int32((s.cfg.SignInTimeout + 10*time.Second).Seconds()),
	}
	giveUp := time.Now().Add(loginBusyWait)
	for delay := 10 * time.Millisecond; ; delay = min(2*delay, 200*time.Millisecond) {
		var got db.LoginAttemptReserveRow
		err = db.InTx(ctx, s.pool, func(q *db.Queries) error {
			if err := q.LoginAttemptLockEmail(ctx, email); err != nil {
				return err
			}
			if err := q.LoginAttemptLockAddr(ctx, addr); err != nil {
				return err
			}
			got, err = q.LoginAttemptReserve(ctx, params)
			return err
		})
		switch {
		case err != nil:
			return 0, err
		case got.AttemptID != 0:
			return got.AttemptID, nil
		case !got.Busy:
			e := newError(http.StatusTooManyRequests, "rate_limited",
				"too many failed sign-ins; try again in %d seconds", got.RetryAfterSeconds)
			e.RetryAfter = int(max(got.RetryAfterSeconds, 1))
			return 0, e
		case time.Now().Add(delay).After(giveUp):
			e := newError(http.StatusTooManyRequests, "rate_limited",
				"too many sign-ins at once for this e-mail or from this address; try again in a second")
			e.RetryAfter = 1
			return 0, e
		}
		// Jittered, so that the waiters do not all ask again at once.
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(delay/2 + rand.N(delay)):
		}
	}
}

// passwordChecked compares a password with a stored hash (a nil hash never
// matches, in the same time) under a reservation of reservePasswordCheck,
// and settles it: a wrong password makes the reservation a failure; a right
// one forgets it and the e-mail's earlier failures.
func (s *Server) passwordChecked(ctx context.Context, attempt int64, email string, hash *string, password string) (bool, error) {
	s.passwordChecks.Add(1)
	// The reservation is settled even when the caller went away meanwhile:
	// the password was checked. Should settling fail, the reservation counts
	// as a failure once it has been pending for longer than any request may
	// run.
	settle, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if auth.CheckPassword(hash, password) != nil {
		if err := s.q.LoginAttemptFailed(settle, attempt); err != nil {
			s.log.WarnContext(ctx, "login attempts: recording a failure failed", "err", err)
		}
		if err := s.q.LoginAttemptExpire(settle, int32(s.cfg.LoginWindow.Seconds())); err != nil {
			s.log.WarnContext(ctx, "login attempts: clean-up failed", "err", err)
		}
		return false, nil
	}
	return true, s.q.LoginAttemptSucceeded(settle, db.LoginAttemptSucceededParams{AttemptID: attempt, Email: email})
}

// releaseAttempt gives back a reservation whose password was never checked.
func (s *Server) releaseAttempt(ctx context.Context, attempt int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := s.q.LoginAttemptRelease(ctx, attempt); err != nil {
		s.log.WarnContext(ctx, "login attempts: release failed", "err", err)
	}
}

// PasswordChecks answers how many passwords this server has compared with a
// stored hash (sign-ins and current_password checks), for tests and metrics.
func (s *Server) PasswordChecks() int64 { return s.passwordChecks.Load() }

var errInvalidCredentials = newError(http.StatusUnauthorized, "invalid_credentials", "the e-mail or the password is wrong")

func (s *Server) userLoginPassword(ctx context.Context, req *loginPasswordRequest) (userWithToken, error) {
	attempt, err := s.reservePasswordCheck(ctx, req.Email)
	if err != nil {
		return userWithToken{}, err
	}
	cred, err := s.q.UserCredentialsByEmail(ctx, req.Email)
	var hash *string
	if err == nil {
		hash = cred.PasswordHash
	} else if !isNoRows(err) {
		s.releaseAttempt(ctx, attempt)
		return userWithToken{}, err
	}
	ok, err := s.passwordChecked(ctx, attempt, req.Email, hash, req.Password)
	switch {
	case err != nil:
		return userWithToken{}, err
	case !ok:
		return userWithToken{}, errInvalidCredentials
	}
	if s.afterPasswordCheck != nil {
		s.afterPasswordCheck()
	}
	return s.signedInAt(ctx, cred.ID, cred.TokenGeneration)
}

func (s *Server) userDetail(ctx context.Context, _ *empty) (db.UserProfileRow, error) {
	user, err := s.q.UserProfile(ctx, userID(ctx))
	if isNoRows(err) {
		return user, unauthorized("the account of this access token no longer exists")
	}
	return user, err
}
