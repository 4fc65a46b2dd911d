// Package rules reads a campaign's rules: the conditions beyond the hashtag
// and the preset's keywords that a post must meet to be boosted, when boosts
// happen, and the budgets of each boost. The interface (boosted-pages/save
// and create) and the import (a preset's default rules, a campaign's rules)
// read them with Parse; the engine reads the stored form back into Rules
// with encoding/json, and asks Conditions.Qualifies whether a post meets
// them, with the campaign's hashtag and its preset's keywords and reach.
//
// A rules object, as a client sends it (every rule optional; null, and ""
// for a number, turn a rule off; any other key is refused):
//
//	min_reactions, min_comments, min_shares   integer ≥ 0
//	min_engagement_rate                       percent, 0..1000, at most two decimals
//	post_age_min_hours, post_age_max_hours    integer ≥ 0, min ≤ max ≤ the oldest post the service boosts
//	content_types                             a non-empty set of photo, video, link, text
//	exclude_keywords                          at most 50 words or phrases ([] = off)
//	hours                                     {"days", "from", "to", "timezone"}
//	post_budget, post_days                    money > 0 and 1..90 days, both or neither
//	max_posts_per_day                         integer 1..1000
//	spend_cap                                 money > 0
//
// Integers are JSON numbers or their string form ("3"); money and the
// engagement rate are JSON numbers or decimal strings ("25.5").
//
// The stored form (campaign.rules, boosting_condition.rules, where the
// schema's campaign_rules_valid checks it again) has the set rules only,
// integers as JSON numbers without a fraction, the engagement rate as a JSON number with two
// decimals, money as a string with two decimals ("25.00").
package rules

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	// The time zones of hours.timezone are checked against the IANA
	// database built into the binary when the system has none.
	_ "time/tzdata"
)

// DefaultPostMaxAge is how old a post may be and still be boosted when
// ENGINE_POST_MAX_AGE is not set: post_age_max_hours may not go beyond it.
const DefaultPostMaxAge = 168 * time.Hour

// Limits are the bounds of a rules object that come from the service's
// settings.
type Limits struct {
	// PostMaxAge is ENGINE_POST_MAX_AGE: post_age_min_hours and
	// post_age_max_hours are at most its whole hours. 0 = DefaultPostMaxAge.
	PostMaxAge time.Duration
}

// maxAgeHours answers the largest post age, in whole hours, a rule may name.
func (l Limits) maxAgeHours() int64 {
	if l.PostMaxAge <= 0 {
		return int64(DefaultPostMaxAge / time.Hour)
	}
	return int64(l.PostMaxAge / time.Hour)
}

// Rules is a rules object in its stored form; nil (or empty) is a rule
// that is off.
type Rules struct {
	MinReactions *int64 `json:"min_reactions,omitempty"`
	MinComments  *int64 `json:"min_comments,omitempty"`
	MinShares    *int64 `json:"min_shares,omitempty"`
	// MinEngagementRate is a percentage with two decimals ("2.50"), a JSON
	// number.
	MinEngagementRate *json.Number `json:"min_engagement_rate,omitempty"`
	PostAgeMinHours   *int64       `json:"post_age_min_hours,omitempty"`
	PostAgeMaxHours   *int64       `json:"post_age_max_hours,omitempty"`
	ContentTypes      []string     `json:"content_types,omitempty"`
	ExcludeKeywords   []string     `json:"exclude_keywords,omitempty"`
	Hours             *Hours       `json:"hours,omitempty"`
	// PostBudget and SpendCap are money in the ad account's main unit, with
	// two decimals ("25.00").
	PostBudget     *string `json:"post_budget,omitempty"`
	PostDays       *int64  `json:"post_days,omitempty"`
	MaxPostsPerDay *int64  `json:"max_posts_per_day,omitempty"`
	SpendCap       *string `json:"spend_cap,omitempty"`
}

// Hours is the window of the week in which boosts happen: on Days, from
// From until before To (`HH:MM`, a To before From runs past midnight), in
// the time zone Timezone (an IANA name).
type Hours struct {
	Days     []string `json:"days"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	Timezone string   `json:"timezone"`
}

// JSON answers the stored form of the rules.
func (r Rules) JSON() json.RawMessage {
	b, err := json.Marshal(r)
	if err != nil { // Rules holds nothing json cannot write
		panic(err)
	}
	return b
}

// Error is an invalid rules object: the field, a path inside the object
// such as "hours.timezone" ("" for the object itself), and what is wrong
// with it.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.In("rules") + " " + e.Msg }

// In answers the field's path under prefix, the name of the rules object
// where it stands: In("rules") is "rules.hours.timezone".
func (e *Error) In(prefix string) string {
	if e.Field == "" {
		return prefix
	}
	return prefix + "." + e.Field
}

func fail(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Names are the rules a rules object may have, in the order of the
// documentation.
var Names = []string{
	"min_reactions", "min_comments", "min_shares", "min_engagement_rate",
	"post_age_min_hours", "post_age_max_hours", "content_types", "exclude_keywords",
	"hours", "post_budget", "post_days", "max_posts_per_day", "spend_cap",
}

// ContentTypes are the kinds of post content_types may name.
var ContentTypes = []string{"photo", "video", "link", "text"}

// Weekdays are the days hours.days may name.
var Weekdays = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

const (
	maxCount          = 1<<31 - 1
	maxEngagementRate = 1000
	maxKeywords       = 50
	maxKeywordLength  = 100
	maxPostDays       = 90
	maxPostsPerDay    = 1000
)

// Parse checks a rules object as a client sent it, whole, and answers it in
// its stored form. The first invalid rule is an *Error.
func Parse(raw json.RawMessage, lim Limits) (Rules, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return Rules{}, fail("", "must be an object of rules, such as {\"min_reactions\": 10}")
	}
	var r Rules
	var err error
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if !slices.Contains(Names, k) {
			return Rules{}, fail(k, "is not a known rule (known: %s)", strings.Join(Names, ", "))
		}
		if isNull(v) {
			continue
		}
		switch k {
		case "min_reactions":
			r.MinReactions, err = whole(k, v, 0, maxCount)
		case "min_comments":
			r.MinComments, err = whole(k, v, 0, maxCount)
		case "min_shares":
			r.MinShares, err = whole(k, v, 0, maxCount)
		case "min_engagement_rate":
			r.MinEngagementRate, err = engagementRate(k, v)
		case "post_age_min_hours":
			r.PostAgeMinHours, err = postAge(k, v, lim)
		case "post_age_max_hours":
			r.PostAgeMaxHours, err = postAge(k, v, lim)
		case "content_types":
			r.ContentTypes, err = contentTypes(k, v)
		case "exclude_keywords":
			r.ExcludeKeywords, err = keywords(k, v)
		case "hours":
			r.Hours, err = hours(k, v)
		case "post_budget":
			r.PostBudget, err = money(k, v)
		case "post_days":
			r.PostDays, err = whole(k, v, 1, maxPostDays)
		case "max_posts_per_day":
			r.MaxPostsPerDay, err = whole(k, v, 1, maxPostsPerDay)
		case "spend_cap":
			r.SpendCap, err = money(k, v)
		}
		if err != nil {
			return Rules{}, err
		}
	}
	if lo, hi := r.PostAgeMinHours, r.PostAgeMaxHours; lo != nil && hi != nil && *lo > *hi {
		return Rules{}, fail("post_age_min_hours", "(%d) must not be greater than post_age_max_hours (%d)", *lo, *hi)
	}
	switch {
	case r.PostBudget != nil && r.PostDays == nil:
		return Rules{}, fail("post_days", "is required with post_budget: how many days each boosted post's budget runs (1 to %d)", maxPostDays)
	case r.PostDays != nil && r.PostBudget == nil:
		return Rules{}, fail("post_budget", "is required with post_days: the budget of each boosted post")
	}
	return r, nil
}

func isNull(raw json.RawMessage) bool {
	return strings.TrimSpace(string(raw)) == "null"
}

// scalar answers the text of a JSON number, or of a string (trimmed), and
// whether it was a string; ok is false for any other JSON value.
func scalar(raw json.RawMessage) (text string, ok bool) {
	s := strings.TrimSpace(string(raw))
	if strings.HasPrefix(s, `"`) {
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return strings.TrimSpace(s), true
	}
	if s == "" || !strings.ContainsAny(s[:1], "-0123456789") {
		return "", false
	}
	return s, true
}

// describe names a JSON value for a message: short scalars as they are,
// else their kind.
func describe(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case strings.HasPrefix(s, "{"):
		return "an object"
	case strings.HasPrefix(s, "["):
		return "an array"
	case len(s) > 40:
		return "a longer value"
	}
	return s
}

// whole reads an integer from lo to hi: a JSON number or its string form;
// "" is off.
func whole(field string, raw json.RawMessage, lo, hi int64) (*int64, error) {
	s, ok := scalar(raw)
	if ok && s == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if !ok || err != nil {
		return nil, fail(field, "must be an integer from %d to %d, not %s", lo, hi, describe(raw))
	}
	if n < lo || n > hi {
		return nil, fail(field, "must be from %d to %d, not %d", lo, hi, n)
	}
	return &n, nil
}

// postAge reads a post age in hours, at most the oldest post the service
// boosts (ENGINE_POST_MAX_AGE).
func postAge(field string, raw json.RawMessage, lim Limits) (*int64, error) {
	n, err := whole(field, raw, 0, maxCount)
	if err != nil || n == nil {
		return n, err
	}
	if hi := lim.maxAgeHours(); *n > hi {
		return nil, fail(field, "must be at most %d: the service boosts no post older than %d hours", hi, hi)
	}
	return n, nil
}

var (
	// moneyText is an amount with at most two decimals that fits
	// numeric(12, 2), like a campaign's budget.
	moneyText = regexp.MustCompile(`^([0-9]{1,10})(\.([0-9]{1,2}))?$`)
	// rateText is a percentage with at most two decimals.
	rateText = regexp.MustCompile(`^([0-9]{1,4})(\.([0-9]{1,2}))?$`)
)

// twoDecimals writes the parts of a decimal that m (of moneyText or
// rateText) matched with exactly two decimals and no leading zeros.
func twoDecimals(m []string) string {
	units := strings.TrimLeft(m[1], "0")
	if units == "" {
		units = "0"
	}
	return units + "." + (m[3] + "00")[:2]
}

// money reads an amount greater than 0 with at most two decimals: a
// decimal string or a JSON number; "" is off.
func money(field string, raw json.RawMessage) (*string, error) {
	s, ok := scalar(raw)
	if ok && s == "" {
		return nil, nil
	}
	m := moneyText.FindStringSubmatch(s)
	if !ok || m == nil || strings.Trim(s, "0.") == "" {
		return nil, fail(field, "must be an amount greater than 0 with at most two decimals, such as \"25.00\", not %s", describe(raw))
	}
	v := twoDecimals(m)
	return &v, nil
}

// engagementRate reads a percentage from 0 to 1000 with at most two
// decimals: a JSON number or a decimal string; "" is off.
func engagementRate(field string, raw json.RawMessage) (*json.Number, error) {
	s, ok := scalar(raw)
	if ok && s == "" {
		return nil, nil
	}
	m := rateText.FindStringSubmatch(s)
	if !ok || m == nil {
		return nil, fail(field, "must be a percentage from 0 to %d with at most two decimals, such as 2.5, not %s", maxEngagementRate, describe(raw))
	}
	v := json.Number(twoDecimals(m))
	if f, _ := v.Float64(); f > maxEngagementRate {
		return nil, fail(field, "must be a percentage from 0 to %d, not %s", maxEngagementRate, s)
	}
	return &v, nil
}

// jsonArray reads the items of a JSON array; ok is false for any other
// value.
func jsonArray(raw json.RawMessage) (items []json.RawMessage, ok bool) {
	if json.Unmarshal(raw, &items) != nil || items == nil {
		return nil, false
	}
	return items, true
}

// enumSet reads a non-empty array of distinct values of allowed, as sent.
func enumSet(field string, raw json.RawMessage, allowed []string) ([]string, error) {
	items, ok := jsonArray(raw)
	if !ok {
		return nil, fail(field, "must be an array of %s, not %s", strings.Join(allowed, ", "), describe(raw))
	}
	if len(items) == 0 {
		return nil, fail(field, "must name at least one of %s (null turns the rule off)", strings.Join(allowed, ", "))
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		var s string
		if json.Unmarshal(item, &s) != nil || !slices.Contains(allowed, s) {
			return nil, fail(fmt.Sprintf("%s[%d]", field, i), "must be one of %s, not %s", strings.Join(allowed, ", "), describe(item))
		}
		if slices.Contains(out, s) {
			return nil, fail(fmt.Sprintf("%s[%d]", field, i), "repeats %q", s)
		}
		out = append(out, s)
	}
	return out, nil
}

func contentTypes(field string, raw json.RawMessage) ([]string, error) {
	return enumSet(field, raw, ContentTypes)
}

// keywords reads at most 50 words or phrases, each trimmed, of 1 to 100
// characters with a letter or a digit, none twice (in any case, with or
// without `#`); [] is off.
func keywords(field string, raw json.RawMessage) ([]string, error) {
	items, ok := jsonArray(raw)
	if !ok {
		return nil, fail(field, "must be an array of words, such as [\"giveaway\", \"#ad\"], not %s", describe(raw))
	}
	if len(items) > maxKeywords {
		return nil, fail(field, "must have at most %d keywords, not %d", maxKeywords, len(items))
	}
	if len(items) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("%s[%d]", field, i)
		var s string
		if json.Unmarshal(item, &s) != nil {
			return nil, fail(path, "must be a string, not %s", describe(item))
		}
		s = strings.TrimSpace(s)
		switch {
		case strings.ContainsRune(s, 0):
			return nil, fail(path, "must not contain NUL characters")
		case s == "":
			return nil, fail(path, "must not be empty")
		case utf8.RuneCountInString(s) > maxKeywordLength:
			return nil, fail(path, "must be at most %d characters long", maxKeywordLength)
		case !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
			return nil, fail(path, "must have a letter or a digit, not %q", s)
		}
		key := strings.ToLower(strings.TrimLeft(s, "#"))
		if seen[key] {
			return nil, fail(path, "repeats %q", s)
		}
		seen[key] = true
		out = append(out, s)
	}
	return out, nil
}

// clock is a time of day, 00:00 to 23:59.
var clock = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// hours reads {"days", "from", "to", "timezone"}, every member required.
func hours(field string, raw json.RawMessage) (*Hours, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fail(field, "must be an object {\"days\", \"from\", \"to\", \"timezone\"}, not %s", describe(raw))
	}
	members := []string{"days", "from", "timezone", "to"}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(members, k) {
			return nil, fail(field+"."+k, "is not a known field (known: %s)", strings.Join(members, ", "))
		}
	}
	for _, k := range []string{"days", "from", "to", "timezone"} {
		if v, ok := m[k]; !ok || isNull(v) {
			return nil, fail(field+"."+k, "is required")
		}
	}
	var h Hours
	var err error
	if h.Days, err = enumSet(field+".days", m["days"], Weekdays); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		name string
		dst  *string
	}{{"from", &h.From}, {"to", &h.To}} {
		var s string
		if json.Unmarshal(m[t.name], &s) != nil || !clock.MatchString(s) {
			return nil, fail(field+"."+t.name, "must be a time HH:MM from 00:00 to 23:59, not %s", describe(m[t.name]))
		}
		*t.dst = s
	}
	if h.From == h.To {
		return nil, fail(field+".to", "must differ from %s.from (%s): the window would be empty", field, h.From)
	}
	var tz string
	if json.Unmarshal(m["timezone"], &tz) != nil {
		return nil, fail(field+".timezone", "must be an IANA time zone name such as \"Europe/Prague\", not %s", describe(m["timezone"]))
	}
	if err := checkTimezone(tz); err != nil {
		return nil, fail(field+".timezone", "must be an IANA time zone name such as \"Europe/Prague\", not %q", tz)
	}
	h.Timezone = tz
	return &h, nil
}

// checkTimezone accepts the names of the IANA time zone database ("UTC"
// included) as its list spells them (IsTimezone).
func checkTimezone(name string) error {
	if !IsTimezone(name) {
		return fmt.Errorf("%q is not a time zone name", name)
	}
	return nil
}

// IsTimezone tells whether name is a name of the IANA time zone database
// as Go embeds it (time/tzdata; timezones.gen.go lists them), spelled as
// the list spells it. time.LoadLocation takes more: any file under the
// host's zoneinfo ("Europe/./Prague", "Europe//Prague",
// "posix/Europe/Prague", "right/UTC"), "Local" and "localtime" (the host's
// own zone), "" (UTC); none of them is a name here, and every name here
// loads on any host, the service image without zoneinfo included.
func IsTimezone(name string) bool {
	_, found := slices.BinarySearch(timezoneNames, name)
	return found
}

// TimezoneNames answers every name IsTimezone accepts, in order.
func TimezoneNames() iter.Seq[string] { return slices.Values(timezoneNames) }

// Location answers the time zone of a name that IsTimezone accepts, and
// an error for any other.
func Location(name string) (*time.Location, error) {
	if !IsTimezone(name) {
		return nil, fmt.Errorf("%q is not an IANA time zone name", name)
	}
	return time.LoadLocation(name)
}
