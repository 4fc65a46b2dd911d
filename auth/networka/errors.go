package networka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// errUnprocessed is wrapped by the failure of a call that network_a left
// unprocessed in every batch it was sent in (MaxUnprocessed): it was not
// carried out.
var errUnprocessed = errors.New("network_a did not process the call")

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
// "type", "code", "error_subcode", "error_user_title", "error_user_msg",
// "is_transient", "error_data", "fbtrace_id"}}`, with the HTTP status and
// the call's method and path (never its query, which may be long, nor a
// token).
type Error struct {
	Status    int    // the HTTP status of the answer (of the batch entry)
	Type      string // e.g. OAuthException
	Code      int    // e.g. 190: invalid or expired token
	Subcode   int    // error_subcode; 0 when absent
	Transient bool   // is_transient
	Message   string // network_a's own message, for logs
	UserTitle string // error_user_title: what network_a says to a user, "" when absent
	UserMsg   string // error_user_msg
	Data      string // error_data, a JSON text such as {"blame_field_specs":[["daily_budget"]]}
	TraceID   string // fbtrace_id, which network_a's support asks for
	Call      string // "GET /456/posts"
}

func (e *Error) Error() string {
	s := fmt.Sprintf("network_a answered %d: %s code %d", e.Status, e.Type, e.Code)
	if e.Subcode != 0 {
		s += fmt.Sprintf(" (subcode %d)", e.Subcode)
	}
	if t := e.UserText(); t != "" {
		s += ": " + t
	}
	if e.Call != "" {
		s = e.Call + ": " + s
	}
	return s
}

// UserText is what a user is shown of the refusal, in network_a's own
// words: "error_user_title: error_user_msg" when network_a gave them (either
// alone when only one), else its message.
func (e *Error) UserText() string {
	switch {
	case e.UserTitle != "" && e.UserMsg != "":
		return e.UserTitle + ": " + e.UserMsg
	case e.UserMsg != "":
		return e.UserMsg
	case e.UserTitle != "":
		return e.UserTitle
	}
	return e.Message
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
	case e.Code == 190, e.Subcode == SubcodeNoPageRole:
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
// it (an unprocessed batch entry included: it was not carried out), or it
// never left adboost. A call that is not settled (a time-out, a connection
// lost, the caller gone while it was on its way) may still have been
// carried out.
func Settled(err error) bool {
	var api *Error
	return errors.As(err, &api) || errors.Is(err, errNotSent) || errors.Is(err, errUnprocessed) || errors.Is(err, ErrToken)
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
			Message   string          `json:"message"`
			Type      string          `json:"type"`
			Code      int             `json:"code"`
			Subcode   int             `json:"error_subcode"`
			Transient bool            `json:"is_transient"`
			UserTitle string          `json:"error_user_title"`
			UserMsg   string          `json:"error_user_msg"`
			Data      json.RawMessage `json:"error_data"`
			TraceID   string          `json:"fbtrace_id"`
		} `json:"error"`
	}
	if json.Unmarshal(answer, &e) != nil || e.Error == nil {
		return nil
	}
	x := e.Error
	return &Error{Status: status, Type: x.Type, Code: x.Code, Subcode: x.Subcode, Transient: x.Transient,
		Message: clean(x.Message), UserTitle: clean(x.UserTitle), UserMsg: clean(x.UserMsg),
		Data: errorData(x.Data), TraceID: clean(x.TraceID), Call: call}
}

// errorData is error_data as text: network_a sends a JSON text (a string),
// sometimes the object itself.
func errorData(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean(s)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return clean(string(raw))
}

// The error subcodes of an ad create that are about the post itself: the
// post cannot be promoted (1487472), is unavailable (deleted, unpublished,
// not the page's: 1885557), is of a type that cannot be (2446289), is not
// available (2490155), belongs to another page (1885029), or was made by an
// app in development mode (1885183). Every other refusal of an ad create
// is about the campaign.
var postSubcodes = []int{1487472, 1885557, 2446289, 2490155, 1885029, 1885183}

// PostRefused tells whether err is network_a refusing an ad create for its
// post (one of postSubcodes): the same post would be refused again
// whatever the campaign.
func PostRefused(err error) bool {
	var api *Error
	return errors.As(err, &api) && api.Kind() == KindRefused && slices.Contains(postSubcodes, api.Subcode)
}

// The subcodes of code 190 (a refused token) that say why.
const (
	SubcodePasswordChanged = 460 // the user changed their password
	SubcodeExpired         = 463 // the token expired
	SubcodeInvalid         = 467 // the token is invalid (the user logged out, or removed the app)
	SubcodeNoPageRole      = 492 // the user has no role on the page any more
)

// TokenReason is, for a refused user token, the sentence that tells the
// user why and what to do; "" when err is not one.
func TokenReason(err error) string {
	var api *Error
	if !errors.As(err, &api) || api.Kind() != KindToken {
		return ""
	}
	switch api.Subcode {
	case SubcodePasswordChanged:
		return "network_a ended the connection because the password of the network_a account changed; sign in again with network_a"
	case SubcodeExpired:
		return "the connection to network_a expired; sign in again with network_a"
	case SubcodeInvalid:
		return "network_a no longer accepts the connection (the user logged out of network_a or removed adboost's access); sign in again with network_a"
	case SubcodeNoPageRole:
		return "the network_a user no longer has a role on the page; ask the page's admin for one, then sign in again with network_a"
	}
	return "network_a refused the connection (" + api.UserText() + "); sign in again with network_a"
}

// Details are what a history entry keeps of network_a's refusal besides
// its words: the code, the subcode and the trace id; nil when err holds no
// error answer.
func Details(err error) map[string]any {
	var api *Error
	if !errors.As(err, &api) {
		return nil
	}
	d := map[string]any{"code": api.Code}
	if api.Subcode != 0 {
		d["subcode"] = api.Subcode
	}
	if api.TraceID != "" {
		d["fbtrace_id"] = api.TraceID
	}
	return d
}

// UserText is what a user is shown of err: network_a's own words when err
// holds its error answer, else err's text.
func UserText(err error) string {
	var api *Error
	if errors.As(err, &api) {
		return api.UserText()
	}
	return err.Error()
}
