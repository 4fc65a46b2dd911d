package boost

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"adboost/auth/networka"
	"adboost/db/rules"
)

// accountStatuses are network_a's ad account statuses (account_status) in
// words; 1 (active) and 9 (in grace period) may boost.
var accountStatuses = map[int]string{
	1:   "active",
	2:   "disabled",
	3:   "unsettled",
	7:   "pending risk review",
	8:   "pending settlement",
	9:   "in grace period",
	100: "pending closure",
	101: "closed",
	201: "any active",
	202: "any closed",
}

// disableReasons are network_a's reasons for disabling an ad account
// (disable_reason) in words; 0 is none.
var disableReasons = map[int]string{
	1:  "ads integrity policy",
	2:  "ads IP review",
	3:  "risky payment",
	4:  "gray account shut down",
	5:  "ads AFC review",
	6:  "business integrity RAR",
	7:  "permanent close",
	8:  "unused reseller account",
	9:  "unused account",
	10: "umbrella ad account",
	11: "business manager integrity policy",
	12: "misrepresented ad account",
	13: "AOAB deshare legal entity",
	14: "CTX thread review",
	15: "compromised ad account",
}

// accountWords describes an ad account's status in words, with the reason
// network_a disabled it when it gave one: "act_1 is disabled (reason: ads
// integrity policy)".
func accountWords(a networka.AdAccount) string {
	status, ok := accountStatuses[a.Status]
	if !ok {
		status = fmt.Sprintf("in status %d", a.Status)
	}
	s := a.ID + " is " + status
	if a.DisableReason != 0 {
		reason, ok := disableReasons[a.DisableReason]
		if !ok {
			reason = fmt.Sprintf("%d", a.DisableReason)
		}
		s += " (reason: " + reason + ")"
	}
	return s
}

// noUsableAccount is the no_ad_account message of a user none of whose ad
// accounts may boost: each account's status in words (the first three).
func noUsableAccount(accounts []networka.AdAccount) string {
	if len(accounts) == 0 {
		return "the user has no network_a ad account: open one on network_a"
	}
	words := make([]string, 0, 3)
	for _, a := range accounts[:min(len(accounts), 3)] {
		words = append(words, accountWords(a))
	}
	more := ""
	if len(accounts) > 3 {
		more = fmt.Sprintf(" and %d more", len(accounts)-3)
	}
	return "the user has no active network_a ad account: " + strings.Join(words, "; ") + more
}

// The permissions boosting needs of the user: every campaign the first
// four, one with a network_b account also the network_b ones.
var (
	neededPermissions         = []string{"ads_management", "pages_show_list", "pages_read_engagement", "pages_manage_ads"}
	neededNetworkBPermissions = []string{"instagram_basic", "instagram_manage_insights"}
)

// missingPermissions answers the permissions the campaign needs (withB: it
// boosts a network_b account's media) among those the user did not grant,
// in the order of neededPermissions.
func missingPermissions(missing []string, withB bool) []string {
	var out []string
	for _, p := range neededPermissions {
		if slices.Contains(missing, p) {
			out = append(out, p)
		}
	}
	if withB {
		for _, p := range neededNetworkBPermissions {
			if slices.Contains(missing, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// permissionsMessage is the token_refused message of a campaign that needs
// permissions the user did not grant.
func permissionsMessage(missing []string) string {
	return "network_a has not granted adboost the permissions " + strings.Join(missing, ", ") +
		": sign in again with network_a and grant them"
}

// tokenEndedMessage is the token_refused message of a user whose token
// ended at end.
func tokenEndedMessage(end time.Time) string {
	return "the connection to network_a ended on " + end.UTC().Format(time.DateOnly) + "; sign in again with network_a"
}

// zone is the campaign's ad account's time zone; nil before it has one (or
// for a name that is not a canonical IANA one).
func zone(name string) *time.Location {
	if name == "" {
		return nil
	}
	loc, err := rules.Location(name)
	if err != nil {
		return nil
	}
	return loc
}
