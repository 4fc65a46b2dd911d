package networkafake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// accountOf answers the ad account a call whose path starts with first is
// about ("act_X" itself, or the id of one of its campaigns, ad sets or ads),
// when the caller is a user who has it; "" otherwise.
func (f *Fake) accountOf(who caller, first string) string {
	account := ""
	if strings.HasPrefix(first, "act_") {
		account = first
	} else if o, ok := f.byID[first]; ok {
		account = o.AccountID
	}
	if account == "" || !f.hasAccount(who, account) {
		return ""
	}
	return account
}

// addUsage adds the account's X-Ad-Account-Usage header (SetAccountUsage) to
// the answer, unless it has one.
func (f *Fake) addUsage(a *answer, account string) {
	u, ok := f.usage[account]
	if !ok || account == "" {
		return
	}
	if _, has := a.headers["X-Ad-Account-Usage"]; has {
		return
	}
	if a.headers == nil {
		a.headers = map[string]string{}
	}
	a.headers["X-Ad-Account-Usage"] = mustJSON(struct {
		Pct   float64 `json:"acc_id_util_pct"`
		Reset int     `json:"reset_time_duration"`
	}{u.Pct, u.ResetSeconds})
}

// throttleSubcode is the error_subcode of an answer to a throttled ad account.
const throttleSubcode = 2446079

// throttled is network_a's answer to a call about a throttled ad account.
func throttled(account string, t Throttle) answer {
	var msg string
	switch t.Code {
	case 4:
		msg = "(#4) Application request limit reached"
	case 17:
		msg = "(#17) User request limit reached"
	case 32:
		msg = "(#32) Page request limit reached"
	case 613:
		msg = "(#613) Calls to this api have exceeded the rate limit."
	default:
		msg = fmt.Sprintf("(#%d) There have been too many calls to this ad-account. Wait a bit and try again.", t.Code)
	}
	a := graphError(http.StatusBadRequest, "OAuthException", t.Code, msg)
	a.body.(map[string]any)["error"].(map[string]any)["error_subcode"] = throttleSubcode
	type usage struct {
		Type        string `json:"type"`
		CallCount   int    `json:"call_count"`
		CPUTime     int    `json:"total_cputime"`
		TotalTime   int    `json:"total_time"`
		RegainAfter int    `json:"estimated_time_to_regain_access"`
	}
	a.headers = map[string]string{"X-Business-Use-Case-Usage": mustJSON(map[string][]usage{
		strings.TrimPrefix(account, "act_"): {{Type: "ads_management", CallCount: 100, CPUTime: 28, TotalTime: 31, RegainAfter: t.Minutes}},
	})}
	return a
}

// mustJSON is v as compact JSON text.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
