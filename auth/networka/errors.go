package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable is wrapped by every failure that says nothing about the
// call itself, only that network_a would not or could not answer it now:
// network_a down or slow (a time-out), an answer of 5xx or 429, one that is
// not its protocol (not JSON, too large, a paging link to another host), an
// error answer that network_a marks as passing (Error.Temporary), and a call
// not sent because its scope is throttled (*ThrottledError). The same call
// may be made again later. The wrapped errors never carry a token.
var ErrUnavailable = errors.New("network_a is unavailable")

// errNotSent is wrapped by the failures of calls that never left adboost
// (the client closed, a pause asked for, the batch refused as a whole).
var errNotSent = errors.New("the call was not sent")

// ErrToken is returned for an access token that cannot be one (empty, too
// long, or with characters no bearer token has); such a token is never sent.
var ErrToken = errors.New("not a network_a access token")

// Kind is what an error answer of network_a means for the caller.
type Kind int

const (
	// KindTemporary: a rate limit or a passing failure; the same call is made
	// again later (the error also wraps ErrUnavailable).
	KindTemporary Kind = iota + 1
	// KindToken: the access token is invalid or expired (OAuth code 190);
	// its owner has to sign in again.
	KindToken
	// KindGone: the object the call is about does not exist (any more) or is
	// no longer the caller's (code 100, subcode 33).
	KindGone
	// KindRefused: network_a refused the call for another reason (a
	// parameter it does not take, a permission, a payment method, a
	// disabled account); the same call would be refused again.
	KindRefused
)

func (k Kind) String() string {
	switch k {
	case KindTemporary:
		return "temporary"
	case KindToken:
		return "token refused"
	case KindGone:
		return "gone"
	case KindRefused:
		return "refused"
	}
	return "unknown"
}

// Error is network_a's error answer to a call, `{"error": {"message",
// "type", "code", "error_subcode", "is_transient"}}`, with the
// HTTP status and the call's method and path (never its query, which may be
// long, nor a token).
type Error struct {
	Status    int    // the HTTP status of the answer (of the batch entry)
	Type      string // e.g. OAuthException
	Code      int    // e.g. 190: invalid or expired token
	Subcode   int    // error_subcode; 0 when absent
	Transient bool   // is_transient
	Message   string // network_a's own message, for logs and for users
	Call      string // "GET /456/posts"
}

func (e *Error) Error() string {
	s := fmt.Sprintf("network_a answered %d: %s code %d", e.Status, e.Type, e.Code)
	if e.Subcode != 0 {
		s += fmt.Sprintf(" (subcode %d)", e.Subcode)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Call != "" {
		s = e.Call + ": " + s
	}
	return s
}

// Kind tells what the answer means (see the Kind constants). Graph answers
// its rate limits and passing failures with HTTP 400 (or 403) and code 1
// (unknown error), 2 (service temporarily unavailable), 4 (application
// request limit), 17 (user request limit), 32 (page request limit), 341
// (application limit), 613 (calls per hour exceeded), 80000 to 80014
// (business use case rate limits), or with is_transient true.
func (e *Error) Kind() Kind {
	switch {
	case e.Transient, e.Status >= 500:
		return KindTemporary
	case e.Code == 1, e.Code == 2, e.Code == 4, e.Code == 17, e.Code == 32, e.Code == 341, e.Code == 613:
		return KindTemporary
	case e.Code >= 80000 && e.Code <= 80014:
		return KindTemporary
	case e.Code == 190:
		return KindToken
	case e.Code == 100 && e.Subcode == 33:
		return KindGone
	}
	return KindRefused
}

// Temporary tells whether the answer says only that network_a would not do
// the call now.
func (e *Error) Temporary() bool { return e.Kind() == KindTemporary }

// Unwrap makes a temporary answer match ErrUnavailable.
func (e *Error) Unwrap() error {
	if e.Temporary() {
		return ErrUnavailable
	}
	return nil
}

// ThrottledError is a call that was not sent because network_a asked for a
// pause in one of its scopes (Throttles): the same call is made again after
// Until. It wraps ErrUnavailable.
type ThrottledError struct {
	Scope ScopeKind
	Key   string
	Until time.Time
}

func (e *ThrottledError) Error() string {
	what := string(e.Scope)
	if e.Key != "" {
		what += " " + e.Key
	}
	return fmt.Sprintf("not sent: network_a asked for a pause of the %s's calls until %s", what, e.Until.UTC().Format(time.RFC3339))
}

// Unwrap makes a throttled call match ErrUnavailable (and tells it was not
// sent).
func (e *ThrottledError) Unwrap() []error { return []error{ErrUnavailable, errNotSent} }

// KindOf answers what err means: the Kind of network_a's answer in it;
// KindTemporary for any other failure of the exchange (ErrUnavailable, a
// throttled scope, the caller's deadline passed); 0 for nil or an error that
// is not network_a's (ErrToken included: no call was made).
func KindOf(err error) Kind {
	var api *Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &api):
		return api.Kind()
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return KindTemporary
	}
	return 0
}

// Settled tells whether a failed call's fate is known: network_a answered
// it, or it never left adboost. A call that is not settled (a time-out, a
// connection lost, the caller gone while it was on its way) may still have
// been carried out.
func Settled(err error) bool {
	var api *Error
	return errors.As(err, &api) || errors.Is(err, errNotSent) || errors.Is(err, ErrToken)
}

// TokenRefused tells whether err is network_a refusing the access token.
func TokenRefused(err error) bool { return KindOf(err) == KindToken }

// Gone tells whether err is network_a answering that the object is gone.
func Gone(err error) bool { return KindOf(err) == KindGone }

// Refused tells whether err is a final refusal of the call, neither about
// the token nor passing (KindRefused or KindGone).
func Refused(err error) bool { k := KindOf(err); return k == KindRefused || k == KindGone }

// Temporary tells whether the call may succeed later (KindTemporary).
func Temporary(err error) bool { return KindOf(err) == KindTemporary }

// parseError reads network_a's error object out of an answer; nil when the
// answer holds none.
func parseError(status int, answer []byte, call string) *Error {
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
	return &Error{Status: status, Type: e.Error.Type, Code: e.Error.Code, Subcode: e.Error.Subcode,
		Transient: e.Error.Transient, Message: clean(e.Error.Message), Call: call}
}
