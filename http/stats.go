package httpapi

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"adboost/db"
)

// Statistics by day: the signed-in user's posts only.

// statsDays are the most dates one stats answer holds (to − from ≤ 365).
const statsDays = 366

// statsDefaultDays are the dates of a range given no `from`: the last 30
// days, `to` included.
const statsDefaultDays = 30

// statsRequest is the body of boosted-pages/stats: a range of dates (the
// last 30 days ending today UTC by default) and the filters of
// boosted-posts/list, plus one post.
type statsRequest struct {
	From          string `json:"from"`
	To            string `json:"to"`
	BoostedPageID Int    `json:"boosted_page_id"`
	SourceID      Int    `json:"source_id"`
	BoostedPostID Int    `json:"boosted_post_id"`

	from, to time.Time
}

func (r *statsRequest) validate() error {
	var err error
	if r.to, err = statsDate("to", r.To, time.Now().UTC().Truncate(24*time.Hour)); err != nil {
		return err
	}
	if r.from, err = statsDate("from", r.From, r.to.AddDate(0, 0, 1-statsDefaultDays)); err != nil {
		return err
	}
	switch {
	case r.from.After(r.to):
		return badRequest("from (%s) must not be after to (%s)", r.from.Format(time.DateOnly), r.to.Format(time.DateOnly))
	case r.to.Sub(r.from) > (statsDays-1)*24*time.Hour:
		return badRequest("the range from %s to %s holds more than %d dates", r.from.Format(time.DateOnly), r.to.Format(time.DateOnly), statsDays)
	}
	for _, f := range []struct {
		name string
		v    Int
	}{{"boosted_page_id", r.BoostedPageID}, {"source_id", r.SourceID}, {"boosted_post_id", r.BoostedPostID}} {
		if f.v.Set && f.v.V <= 0 {
			return badRequest("%s must be a positive integer", f.name)
		}
	}
	return nil
}

// statsDate reads a date YYYY-MM-DD of the range (the years 1970 to 9999),
// or answers def when it is not given.
func statsDate(name, s string, def time.Time) (time.Time, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil || d.Year() < 1970 {
		return time.Time{}, badRequest("%s must be a date YYYY-MM-DD from 1970 on, not %q", name, cut(s, 40))
	}
	return d, nil
}

// statsAnswer is the answer of boosted-pages/stats.
type statsAnswer struct {
	From       string          `json:"from"`
	To         string          `json:"to"`
	Currencies []statsCurrency `json:"currencies"`
}

// statsCurrency is one currency's days and their totals.
type statsCurrency struct {
	Currency string       `json:"currency"`
	Days     []statsDay   `json:"days"`
	Totals   statsFigures `json:"totals"`
}

// statsDay is the figures of one date.
type statsDay struct {
	Date string `json:"date"`
	statsFigures
}

// statsFigures are a day's figures or their totals: counts as integer
// strings, spend with two decimals (as the database rounded it).
type statsFigures struct {
	Impressions int64  `json:"impressions,string"`
	Reach       int64  `json:"reach,string"`
	Clicks      int64  `json:"clicks,string"`
	Engagement  int64  `json:"engagement,string"`
	Spend       string `json:"spend"`
	Conversions int64  `json:"conversions,string"`
}

// boostedPageStats: POST /v1/boosted-pages/stats, every day of the range
// per currency, summed by the database in one query whose rows come per
// currency, its dates in order and then its totals (a row without a date).
func (s *Server) boostedPageStats(ctx context.Context, req *statsRequest) (statsAnswer, error) {
	rows, err := s.q.BoostedPageStats(ctx, db.BoostedPageStatsParams{
		UserID: userID(ctx), SourceID: req.SourceID.Ptr(), BoostedPageID: req.BoostedPageID.Ptr(), BoostedPostID: req.BoostedPostID.Ptr(),
		DateFrom: pgtype.Date{Time: req.from, Valid: true}, DateTo: pgtype.Date{Time: req.to, Valid: true},
	})
	if err != nil {
		return statsAnswer{}, err
	}
	out := statsAnswer{From: req.from.Format(time.DateOnly), To: req.to.Format(time.DateOnly), Currencies: []statsCurrency{}}
	days := make([]statsDay, 0, len(rows))
	for _, r := range rows {
		f := statsFigures{Impressions: r.Impressions, Reach: r.Reach, Clicks: r.Clicks, Engagement: r.Engagement, Spend: r.Spend, Conversions: r.Conversions}
		if r.Day.Valid {
			days = append(days, statsDay{Date: r.Day.Time.Format(time.DateOnly), statsFigures: f})
			continue
		}
		out.Currencies = append(out.Currencies, statsCurrency{Currency: r.Currency, Days: days, Totals: f})
		days = days[len(days):len(days):cap(days)]
	}
	return out, nil
}
