package rules_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"adboost/db/rules"
)

// Every rule set, in the forms a client may send them, comes back in the
// stored form: integers as numbers, the rate with two decimals, money as
// strings with two decimals; decoding the stored form gives the same rules.
func TestParseStoredForm(t *testing.T) {
	in := `{
		"min_reactions": "25", "min_comments": 5, "min_shares": 0, "min_engagement_rate": "2.5",
		"post_age_min_hours": 2, "post_age_max_hours": " 168 ", "content_types": ["video", "photo"],
		"exclude_keywords": [" giveaway ", "#Ad"],
		"hours": {"days": ["fri", "mon"], "from": "22:00", "to": "02:00", "timezone": "America/New_York"},
		"post_budget": 15, "post_days": "7", "max_posts_per_day": 3, "spend_cap": "0500.5"
	}`
	r, err := rules.Parse(json.RawMessage(in), rules.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"min_reactions":25,"min_comments":5,"min_shares":0,"min_engagement_rate":2.50,` +
		`"post_age_min_hours":2,"post_age_max_hours":168,"content_types":["video","photo"],` +
		`"exclude_keywords":["giveaway","#Ad"],` +
		`"hours":{"days":["fri","mon"],"from":"22:00","to":"02:00","timezone":"America/New_York"},` +
		`"post_budget":"15.00","post_days":7,"max_posts_per_day":3,"spend_cap":"500.50"}`
	if got := string(r.JSON()); got != want {
		t.Fatalf("stored form\n  %s\nwant\n  %s", got, want)
	}
	var back rules.Rules
	if err := json.Unmarshal(r.JSON(), &back); err != nil {
		t.Fatal(err)
	}
	if string(back.JSON()) != want {
		t.Fatalf("decoded stored form = %s", back.JSON())
	}

	// Nulls and empty strings turn rules off; [] turns exclude_keywords off.
	r, err = rules.Parse(json.RawMessage(`{"min_reactions": null, "spend_cap": "", "post_days": "",
		"exclude_keywords": [], "hours": null, "min_engagement_rate": "0"}`), rules.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.JSON()); got != `{"min_engagement_rate":0.00}` {
		t.Fatalf("stored form of rules that are off = %s", got)
	}
	if r, err := rules.Parse(json.RawMessage(`{}`), rules.Limits{}); err != nil || string(r.JSON()) != `{}` {
		t.Fatalf("no rules = %s, %v", r.JSON(), err)
	}
}

// The post ages are bounded by ENGINE_POST_MAX_AGE, in whole hours.
func TestParsePostAgeLimit(t *testing.T) {
	for _, tc := range []struct {
		limit time.Duration
		body  string
		ok    bool
	}{
		{0, `{"post_age_max_hours": 168}`, true},
		{0, `{"post_age_max_hours": 169}`, false},
		{0, `{"post_age_min_hours": 169}`, false},
		{72 * time.Hour, `{"post_age_max_hours": 72}`, true},
		{72 * time.Hour, `{"post_age_max_hours": 73}`, false},
		{90*time.Minute + 72*time.Hour, `{"post_age_max_hours": 73}`, true},
		{90*time.Minute + 72*time.Hour, `{"post_age_max_hours": 74}`, false},
		{720 * time.Hour, `{"post_age_max_hours": 500}`, true},
	} {
		_, err := rules.Parse(json.RawMessage(tc.body), rules.Limits{PostMaxAge: tc.limit})
		if (err == nil) != tc.ok {
			t.Errorf("limit %s, %s: error %v, want ok %v", tc.limit, tc.body, err, tc.ok)
		}
		var re *rules.Error
		if err != nil && (!errors.As(err, &re) || !strings.HasPrefix(re.Field, "post_age_")) {
			t.Errorf("limit %s, %s: error %v does not name the field", tc.limit, tc.body, err)
		}
	}
}

// An Error names the field under the prefix its caller gives.
func TestErrorNamesField(t *testing.T) {
	_, err := rules.Parse(json.RawMessage(`{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "Mars/Olympus"}}`), rules.Limits{})
	var re *rules.Error
	if !errors.As(err, &re) || re.Field != "hours.timezone" || re.In("boosting_condition.rules") != "boosting_condition.rules.hours.timezone" {
		t.Fatalf("error = %#v", err)
	}
	if !strings.HasPrefix(err.Error(), "rules.hours.timezone must be an IANA time zone name") {
		t.Fatalf("message = %q", err.Error())
	}
	_, err = rules.Parse(json.RawMessage(`[]`), rules.Limits{})
	if !errors.As(err, &re) || re.Field != "" || re.In("rules") != "rules" {
		t.Fatalf("error of an array = %#v", err)
	}
}

// Only the names of the IANA database as Go embeds it are time zones, as
// its list spells them: the other names time.LoadLocation takes on a host
// with zoneinfo files are refused, naming the field.
func TestTimezoneNames(t *testing.T) {
	for _, name := range []string{"Europe/Prague", "UTC", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "Asia/Kolkata", "GB"} {
		if !rules.IsTimezone(name) {
			t.Errorf("%q refused", name)
		}
		loc, err := rules.Location(name)
		if err != nil || loc.String() != name {
			t.Errorf("Location(%q) = %v, %v", name, loc, err)
		}
		raw := `{"hours": {"days": ["mon"], "from": "09:00", "to": "17:00", "timezone": "` + name + `"}}`
		if r, err := rules.Parse(json.RawMessage(raw), rules.Limits{}); err != nil || r.Hours.Timezone != name {
			t.Errorf("%s: %+v, %v", raw, r.Hours, err)
		}
	}
	for _, name := range []string{"Europe/./Prague", "Europe//Prague", "posix/Europe/Prague", "right/UTC", "localtime",
		"Local", "", "europe/prague", "EUROPE/PRAGUE", "Europe/Prague/", "/Europe/Prague", "./UTC", "../zoneinfo/UTC",
		"Europe/Prague\x00", " UTC", "Mars/Olympus", "posixrules", "zone.tab", "tzdata.zi", "leapseconds"} {
		if rules.IsTimezone(name) {
			t.Errorf("%q accepted", name)
		}
		if loc, err := rules.Location(name); err == nil {
			t.Errorf("Location(%q) = %v", name, loc)
		}
		raw, _ := json.Marshal(map[string]any{"hours": map[string]any{"days": []string{"mon"}, "from": "09:00", "to": "17:00", "timezone": name}})
		_, err := rules.Parse(raw, rules.Limits{})
		var re *rules.Error
		if !errors.As(err, &re) || re.Field != "hours.timezone" {
			t.Errorf("%q: %v, want a refusal of hours.timezone", name, err)
		}
	}
}

// Every name of the list loads, and fits the schema's 64 characters.
func TestEveryTimezoneLoads(t *testing.T) {
	n := 0
	for _, name := range []string{"Africa/Abidjan", "Zulu"} {
		if !rules.IsTimezone(name) {
			t.Fatalf("%q is not in the list: it is not the whole database", name)
		}
	}
	for name := range rules.TimezoneNames() {
		n++
		if len(name) > 64 {
			t.Errorf("%q is longer than 64 characters", name)
		}
		if _, err := time.LoadLocation(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	if n < 400 {
		t.Fatalf("%d names, want the whole database", n)
	}
}
