package boost

import (
	"context"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"adboost/db"
	"adboost/db/rules"
)

// location is the time zone the campaign's rules count days and hours
// in: hours.timezone, else its ad account's (account; nil before it has
// one), else UTC. A name that is not a canonical IANA one (refused at
// save) is UTC.
func location(r rules.Rules, account *time.Location) *time.Location {
	if r.Hours == nil {
		if account != nil {
			return account
		}
		return time.UTC
	}
	loc, err := rules.Location(r.Hours.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// weekdays are the days of the hours rule, by time.Weekday.
var weekdays = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// inHours tells whether boosts may happen at `at`: always without an hours
// rule; else when the wall clock of its time zone (location) is in [from, to) of one
// of its days, a window whose to comes before its from running past
// midnight into the next day (and belonging to the day it opened).
func inHours(r rules.Rules, account *time.Location, at time.Time) bool {
	h := r.Hours
	if h == nil {
		return true
	}
	from, okFrom := minutes(h.From)
	to, okTo := minutes(h.To)
	if !okFrom || !okTo {
		return false
	}
	local := at.In(location(r, account))
	now := local.Hour()*60 + local.Minute()
	day := weekdays[local.Weekday()]
	before := weekdays[(local.Weekday()+6)%7]
	if from < to {
		return slices.Contains(h.Days, day) && now >= from && now < to
	}
	return (slices.Contains(h.Days, day) && now >= from) || (slices.Contains(h.Days, before) && now < to)
}

// minutes reads "HH:MM" as minutes after midnight.
func minutes(hhmm string) (int, bool) {
	hh, mm, ok := strings.Cut(hhmm, ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	return h*60 + m, ok && err1 == nil && err2 == nil && h >= 0 && h < 24 && m >= 0 && m < 60
}

// dayStart is the start of the calendar day of `at` in the campaign's
// time zone (location).
func dayStart(r rules.Rules, account *time.Location, at time.Time) time.Time {
	local := at.In(location(r, account))
	return time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, local.Location())
}

// room answers how many new posts the campaign may boost now (-1: no
// limit): none outside its hours; at most max_posts_per_day less the
// boosts of the campaign's day so far (in hours.timezone, else its ad
// account's time zone, else UTC), both networks together; and with
// post_budget, as many as the campaign's budget still holds after the
// post budgets of the boosts made today (a daily budget) or ever (a
// lifetime one).
func (w *work) room(ctx context.Context) (int, error) {
	account := zone(w.c.AdAccountTimezone)
	if !inHours(w.rules, account, w.now) {
		w.log.Debug("engine: outside the campaign's hours: no new boost")
		return 0, nil
	}
	room := -1
	today := dayStart(w.rules, account, w.now)
	if w.rules.MaxPostsPerDay != nil {
		made, err := w.q.NetworkAAttemptBoostsSince(ctx, db.NetworkAAttemptBoostsSinceParams{CampaignID: w.id, Since: today})
		if err != nil {
			return 0, err
		}
		room = max(int(*w.rules.MaxPostsPerDay-made.Boosts), 0)
	}
	if w.rules.PostBudget != nil && w.rules.PostDays != nil {
		since := today
		if w.c.BudgetType == "lifetime" {
			since = time.Unix(0, 0)
		}
		made, err := w.q.NetworkAAttemptBoostsSince(ctx, db.NetworkAAttemptBoostsSinceParams{CampaignID: w.id, Since: since})
		if err != nil {
			return 0, err
		}
		fits := budgetFits(w.c.BudgetValue, made.Budgets, *w.rules.PostBudget)
		if room < 0 || fits < room {
			room = fits
		}
		if fits == 0 {
			w.log.Debug("engine: the campaign's budget holds no more post budget", "budget", w.c.BudgetValue, "used", made.Budgets)
		}
	}
	return room, nil
}

// budgetFits answers how many post budgets fit in what the budget leaves
// after used (decimals in the account's main unit); 0 when any is not a
// decimal.
func budgetFits(budget, used, post string) int {
	b, ok1 := new(big.Rat).SetString(budget)
	u, ok2 := new(big.Rat).SetString(used)
	p, ok3 := new(big.Rat).SetString(post)
	if !ok1 || !ok2 || !ok3 || p.Sign() <= 0 {
		return 0
	}
	left := new(big.Rat).Sub(b, u)
	if left.Sign() <= 0 {
		return 0
	}
	n := new(big.Int).Quo(new(big.Rat).Quo(left, p).Num(), new(big.Rat).Quo(left, p).Denom())
	if !n.IsInt64() || n.Int64() > 1<<20 {
		return 1 << 20
	}
	return int(n.Int64())
}
