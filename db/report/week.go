package report

import (
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Week is an ISO week, Monday to Sunday, as dates: the days of network_a's
// statistics, which are dates of the ad account's time zone.
type Week struct {
	monday time.Time // 00:00 UTC of the week's Monday
}

// WeekOf answers the week of a date (its year, month and day; the clock and
// zone are ignored).
func WeekOf(t time.Time) Week {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	back := (int(d.Weekday()) + 6) % 7 // days since Monday
	return Week{monday: d.AddDate(0, 0, -back)}
}

// ParseWeek reads an ISO week written YYYY-Www, e.g. 2026-W43.
func ParseWeek(s string) (Week, error) {
	bad := fmt.Errorf("week %q: want YYYY-Www, e.g. 2026-W43", s)
	if len(s) != 8 || s[4] != '-' || s[5] != 'W' || !digits(s[:4]) || !digits(s[6:]) {
		return Week{}, bad
	}
	year, _ := strconv.Atoi(s[:4])
	n, _ := strconv.Atoi(s[6:])
	if year < 1000 {
		return Week{}, bad
	}
	// Week 1 is the week of 4 January.
	w := WeekOf(time.Date(year, time.January, 4, 0, 0, 0, 0, time.UTC))
	w.monday = w.monday.AddDate(0, 0, 7*(n-1))
	if y, got := w.monday.ISOWeek(); n < 1 || y != year || got != n {
		return Week{}, fmt.Errorf("week %q: %d has no week %d", s, year, n)
	}
	return w, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// LastWholeWeek answers the last week that has ended at now in loc: the
// week before the one of now's date there.
func LastWholeWeek(now time.Time, loc *time.Location) Week {
	return WeekOf(now.In(loc)).Add(-1)
}

// Add answers the week n weeks later (earlier when n < 0).
func (w Week) Add(n int) Week { return Week{monday: w.monday.AddDate(0, 0, 7*n)} }

// String is the ISO week, YYYY-Www.
func (w Week) String() string {
	y, n := w.monday.ISOWeek()
	return fmt.Sprintf("%04d-W%02d", y, n)
}

// Monday is the week's first day (00:00 UTC of that date).
func (w Week) Monday() time.Time { return w.monday }

// Day answers the week's day i, 0 (Monday) to 6 (Sunday).
func (w Week) Day(i int) time.Time { return w.monday.AddDate(0, 0, i) }

// Date is the week's Monday as a query parameter.
func (w Week) Date() pgtype.Date { return pgtype.Date{Time: w.monday, Valid: true} }

// IsZero tells a Week that was never set.
func (w Week) IsZero() bool { return w.monday.IsZero() }

// Location answers the time zone named tz (an IANA name), or UTC when tz is
// empty or unknown.
func Location(tz string) *time.Location {
	if tz == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return time.UTC
	}
	return loc
}
