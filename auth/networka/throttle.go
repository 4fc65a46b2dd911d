package networka

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ScopeKind is a scope of network_a's rate limits.
type ScopeKind string

const (
	ScopeApp       ScopeKind = "app"        // every call of the application (code 4)
	ScopeUser      ScopeKind = "user"       // the calls made with one user's token (code 17)
	ScopePage      ScopeKind = "page"       // the reads of one page or network_b account (codes 32, 80001, 80002)
	ScopeAdAccount ScopeKind = "ad_account" // the calls about one ad account (613, 80000, 80003–80014, usage ≥ 90 %)
)

// Scope names whose limits a call counts against, besides the
// application's: the user whose token it carries, the page (or network_b
// account) it reads, the ad account it is about. Empty fields do not apply.
type Scope struct {
	User      string
	Page      string
	AdAccount string // with or without "act_"
}

// Throttle is a pause network_a asked for: no call in the scope until Until.
type Throttle struct {
	Scope ScopeKind
	Key   string // "" for the application; an ad account without "act_"
	Until time.Time
}

// MinThrottle is the shortest pause a throttle asks for.
const MinThrottle = 60 * time.Second

// UsageLimit is the ad account usage (acc_id_util_pct) from which the
// engine makes no more calls on the account until its reset.
const UsageLimit = 90

// Throttles are the pauses in force, shared by every call of a client. A
// pause learnt from an answer is reported to the client's OnThrottle (which
// keeps it in PostgreSQL, so that every instance honours it); Load adds the
// pauses other instances learnt.
type Throttles struct {
	mu    sync.Mutex
	until map[throttleKey]time.Time
	now   func() time.Time
}

type throttleKey struct {
	scope ScopeKind
	key   string
}

func newThrottles() *Throttles {
	return &Throttles{until: map[throttleKey]time.Time{}, now: time.Now}
}

// Load adds pauses (from PostgreSQL) to those in force; a later end wins.
func (t *Throttles) Load(list []Throttle) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, th := range list {
		k := throttleKey{th.Scope, normalKey(th.Scope, th.Key)}
		if th.Until.After(t.until[k]) {
			t.until[k] = th.Until
		}
	}
}

// Check answers the pause in force for a call of the scope, if any: the
// application's, the user's, the page's, then the ad account's.
func (t *Throttles) Check(s Scope) *ThrottledError {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for _, k := range s.keys() {
		until, ok := t.until[k]
		if !ok {
			continue
		}
		if !until.After(now) {
			delete(t.until, k)
			continue
		}
		return &ThrottledError{Scope: k.scope, Key: k.key, Until: until}
	}
	return nil
}

// add records a pause; it answers whether it extends what was in force.
func (t *Throttles) add(th Throttle) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := throttleKey{th.Scope, normalKey(th.Scope, th.Key)}
	if !th.Until.After(t.until[k]) {
		return false
	}
	t.until[k] = th.Until
	return true
}

// keys are the throttle keys that apply to a call of the scope.
func (s Scope) keys() []throttleKey {
	keys := []throttleKey{{ScopeApp, ""}}
	if s.User != "" {
		keys = append(keys, throttleKey{ScopeUser, s.User})
	}
	if s.Page != "" {
		keys = append(keys, throttleKey{ScopePage, s.Page})
	}
	if s.AdAccount != "" {
		keys = append(keys, throttleKey{ScopeAdAccount, normalKey(ScopeAdAccount, s.AdAccount)})
	}
	return keys
}

// normalKey writes an ad account's key without "act_", as the usage header
// names it.
func normalKey(scope ScopeKind, key string) string {
	if scope == ScopeAdAccount {
		return strings.TrimPrefix(key, "act_")
	}
	if scope == ScopeApp {
		return ""
	}
	return key
}

// usage is what an answer's usage headers say.
type usage struct {
	account     string        // the ad account X-Ad-Account-Usage is about ("" when unknown)
	pct         float64       // acc_id_util_pct
	reset       time.Duration // reset_time_duration
	hasPct      bool
	regain      map[string]time.Duration // estimated_time_to_regain_access by ad account (without act_)
	regainFirst time.Duration            // the first one given, for an answer about one account
}

// readUsage reads X-Ad-Account-Usage and X-Business-Use-Case-Usage.
func readUsage(h http.Header) usage {
	var u usage
	if v := h.Get("X-Ad-Account-Usage"); v != "" {
		var a struct {
			Pct   json.Number `json:"acc_id_util_pct"`
			Reset json.Number `json:"reset_time_duration"`
		}
		if json.Unmarshal([]byte(v), &a) == nil {
			if p, err := strconv.ParseFloat(string(a.Pct), 64); err == nil {
				u.pct, u.hasPct = p, true
			}
			if r, err := strconv.ParseFloat(string(a.Reset), 64); err == nil && r > 0 {
				u.reset = time.Duration(r * float64(time.Second))
			}
		}
	}
	if v := h.Get("X-Business-Use-Case-Usage"); v != "" {
		var b map[string][]struct {
			Regain json.Number `json:"estimated_time_to_regain_access"`
		}
		if json.Unmarshal([]byte(v), &b) == nil {
			for account, entries := range b {
				for _, e := range entries {
					m, err := strconv.ParseFloat(string(e.Regain), 64)
					if err != nil || m <= 0 {
						continue
					}
					if u.regain == nil {
						u.regain = map[string]time.Duration{}
					}
					d := time.Duration(m * float64(time.Minute))
					key := normalKey(ScopeAdAccount, account)
					u.regain[key] = max(u.regain[key], d)
					if u.regainFirst == 0 {
						u.regainFirst = d
					}
				}
			}
		}
	}
	return u
}

// learn answers the pauses that a call's answer asks for (by the scope each
// limit is about): an ad account used at UsageLimit % or more, or a
// rate-limit error code, each for the time the headers give (the
// estimated_time_to_regain_access minutes, else reset_time_duration), at
// least MinThrottle.
func learn(now time.Time, s Scope, h http.Header, apiErr *Error) []Throttle {
	u := readUsage(h)
	account := normalKey(ScopeAdAccount, s.AdAccount)
	wait := func(account string) time.Duration {
		d := u.reset
		if r, ok := u.regain[account]; ok {
			d = r
		} else if u.regainFirst > 0 && len(u.regain) == 1 {
			d = u.regainFirst
		}
		return max(d, MinThrottle)
	}
	var out []Throttle
	if u.hasPct && u.pct >= UsageLimit && account != "" {
		out = append(out, Throttle{ScopeAdAccount, account, now.Add(wait(account))})
	}
	if apiErr == nil {
		return out
	}
	code := apiErr.Code
	switch {
	case code == 4:
		out = append(out, Throttle{ScopeApp, "", now.Add(wait(account))})
	case code == 17 && s.User != "":
		out = append(out, Throttle{ScopeUser, s.User, now.Add(wait(account))})
	case (code == 32 || code == 80001 || code == 80002) && s.Page != "":
		out = append(out, Throttle{ScopePage, s.Page, now.Add(wait(account))})
	case code == 613 || code == 80000 || (code >= 80003 && code <= 80014):
		switch {
		case account != "":
			out = append(out, Throttle{ScopeAdAccount, account, now.Add(wait(account))})
		case len(u.regain) > 0:
			for a := range u.regain {
				out = append(out, Throttle{ScopeAdAccount, a, now.Add(wait(a))})
			}
		case s.Page != "":
			out = append(out, Throttle{ScopePage, s.Page, now.Add(wait(""))})
		case s.User != "":
			out = append(out, Throttle{ScopeUser, s.User, now.Add(wait(""))})
		}
	}
	return out
}
