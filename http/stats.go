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

// statsRow is one row of the stats statements (they answer the same
// columns): a currency's date, or its totals when Day is not valid.
type statsRow = db.StatsOfUserRow

// boostedPageStats: POST /v1/boosted-pages/stats, every day of the range
// per currency, summed by the database in one statement chosen by the
// filters (sql/queries/stats.sql).
func (s *Server) boostedPageStats(ctx context.Context, req *statsRequest) (statsAnswer, error) {
	rows, err := s.statsRows(ctx, req)
	if err != nil {
		return statsAnswer{}, err
	}
	return statsFill(req.from, req.to, rows), nil
}

// statsRows runs the statement of the request's selection: a post (or a
// campaign and a source) from the posts' own days, else the sums of the
// campaign, the source or the user.
func (s *Server) statsRows(ctx context.Context, req *statsRequest) ([]statsRow, error) {
	uid, from, to := userID(ctx), pgtype.Date{Time: req.from, Valid: true}, pgtype.Date{Time: req.to, Valid: true}
	switch {
	case req.BoostedPostID.Set || (req.BoostedPageID.Set && req.SourceID.Set):
		return asStatsRows(s.q.StatsOfPosts(ctx, db.StatsOfPostsParams{UserID: uid, BoostedPostID: req.BoostedPostID.Ptr(),
			BoostedPageID: req.BoostedPageID.Ptr(), SourceID: req.SourceID.Ptr(), DateFrom: from, DateTo: to}))
	case req.BoostedPageID.Set:
		return asStatsRows(s.q.StatsOfCampaign(ctx, db.StatsOfCampaignParams{UserID: uid, BoostedPageID: req.BoostedPageID.V, DateFrom: from, DateTo: to}))
	case req.SourceID.Set:
		return asStatsRows(s.q.StatsOfSource(ctx, db.StatsOfSourceParams{UserID: uid, SourceID: req.SourceID.V, DateFrom: from, DateTo: to}))
	}
	return s.q.StatsOfUser(ctx, db.StatsOfUserParams{UserID: uid, DateFrom: from, DateTo: to})
}

// asStatsRows takes the rows of any of the stats statements as statsRows
// (their columns are the same).
func asStatsRows[R db.StatsOfPostsRow | db.StatsOfCampaignRow | db.StatsOfSourceRow](rows []R, err error) ([]statsRow, error) {
	out := make([]statsRow, len(rows))
	for i, r := range rows {
		out[i] = statsRow(r)
	}
	return out, err
}

// statsFill makes the answer of the rows, which come per currency, its
// dates in order and then its totals: every date from from to to, zeros
// where the currency has no row for it.
func statsFill(from, to time.Time, rows []statsRow) statsAnswer {
	out := statsAnswer{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Currencies: []statsCurrency{}}
	dates := int(to.Sub(from)/(24*time.Hour)) + 1
	var cur *statsCurrency
	for _, r := range rows {
		if cur == nil {
			cur = &statsCurrency{Currency: r.Currency, Days: make([]statsDay, 0, dates)}
		}
		f := statsFigures{Impressions: r.Impressions, Reach: r.Reach, Clicks: r.Clicks, Engagement: r.Engagement, Spend: r.Spend, Conversions: r.Conversions}
		if !r.Day.Valid {
			cur.zeros(from, dates)
			cur.Totals = f
			out.Currencies = append(out.Currencies, *cur)
			cur = nil
			continue
		}
		cur.zeros(from, int(r.Day.Time.Sub(from)/(24*time.Hour)))
		cur.Days = append(cur.Days, statsDay{Date: r.Day.Time.Format(time.DateOnly), statsFigures: f})
	}
	return out
}

// zeros appends a zero day for each date after the last one held, up to
// (not including) the n-th date of the range that starts at from.
func (c *statsCurrency) zeros(from time.Time, n int) {
	for d := len(c.Days); d < n; d++ {
		c.Days = append(c.Days, statsDay{Date: from.AddDate(0, 0, d).Format(time.DateOnly), statsFigures: statsFigures{Spend: "0.00"}})
	}
}
