package report_test

import (
	"testing"
	"time"

	"adboost/db/report"
)

func TestParseWeek(t *testing.T) {
	for s, monday := range map[string]string{
		"2026-W01": "2025-12-29", // week 1 holds 4 January
		"2026-W43": "2026-10-19",
		"2026-W53": "2026-12-28", // 2026 has 53 weeks
		"2027-W01": "2027-01-04",
	} {
		w, err := report.ParseWeek(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := w.Monday().Format(time.DateOnly); got != monday || w.String() != s {
			t.Errorf("%s: Monday %s, String %s; want %s", s, got, w.String(), monday)
		}
	}
	for _, bad := range []string{"", "2026-43", "2026-W00", "2027-W53", "2026-W5", "2026W043", "abcd-W01", "2026-W1x"} {
		if _, err := report.ParseWeek(bad); err == nil {
			t.Errorf("ParseWeek(%q) took it", bad)
		}
	}
}

// The last whole week turns over at midnight of Sunday to Monday in the
// user's zone, whatever its offset that night: Europe/Prague leaves summer
// time at 03:00 on Sunday 25 October 2026 (UTC+2 to UTC+1).
func TestLastWholeWeekAcrossDaylightSaving(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ now, want string }{
		{"2026-10-25T22:59:59Z", "2026-W42"}, // Sunday 23:59:59 CET
		{"2026-10-25T23:00:00Z", "2026-W43"}, // Monday 00:00 CET
		{"2026-10-18T21:59:59Z", "2026-W41"}, // Sunday 23:59:59 CEST
		{"2026-10-18T22:00:00Z", "2026-W42"}, // Monday 00:00 CEST
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		if got := report.LastWholeWeek(now, prague).String(); got != c.want {
			t.Errorf("at %s: %s, want %s", c.now, got, c.want)
		}
	}
	if got := report.LastWholeWeek(time.Date(2026, 10, 25, 23, 0, 0, 0, time.UTC), time.UTC).String(); got != "2026-W42" {
		t.Errorf("UTC: %s, want 2026-W42", got)
	}
}

func TestUnsubscribeToken(t *testing.T) {
	key := report.KeyFrom([]byte("secret"))
	tok := key.UnsubscribeToken(42)
	if id, err := key.VerifyUnsubscribe(tok); err != nil || id != 42 {
		t.Fatalf("own token: %d, %v", id, err)
	}
	other := report.KeyFrom([]byte("another secret"))
	forged := other.UnsubscribeToken(42)
	altered := "43" + tok[2:]
	for _, bad := range []string{forged, altered, "42", "42.", "", "x." + tok[3:], "042" + tok[2:], tok + "A", "-42" + tok[2:]} {
		if id, err := key.VerifyUnsubscribe(bad); err == nil {
			t.Errorf("token %q taken for user %d", bad, id)
		}
	}
}

func TestCountAndChange(t *testing.T) {
	for v, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 73711: "73,711", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := report.Count(v); got != want {
			t.Errorf("Count(%d) = %q, want %q", v, got, want)
		}
	}
	for _, c := range []struct {
		cur, prev float64
		want      string
	}{{0, 0, "0%"}, {5, 0, "new"}, {0, 5, "-100.0%"}, {15, 10, "+50.0%"}, {10, 10, "+0.0%"}, {1, 3, "-66.7%"}} {
		if got := report.Change(c.cur, c.prev); got != c.want {
			t.Errorf("Change(%v, %v) = %q, want %q", c.cur, c.prev, got, c.want)
		}
	}
}
