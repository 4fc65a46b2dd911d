// Package report makes and sends the weekly report mail: per campaign the
// week's spend, reach, clicks, engagement and conversions against the week
// before, the three posts with the most engagement, and a chart of each
// day's spend and engagement, inline in the HTML part, with a text/plain part
// saying the same. A River periodic job finds the users due (Monday 08:00 in
// their time zone) and enqueues one job per user and week.
package report

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/db"
)

// ErrNoUser is a report of a user who does not exist.
var ErrNoUser = errors.New("report: no such user")

// Composer makes reports from the database.
type Composer struct {
	q       *db.Queries
	baseURL string // the API's public base URL, for the unsubscribe link
	key     Key
}

// NewComposer makes reports with q; links point at baseURL and are signed
// with key.
func NewComposer(q *db.Queries, baseURL string, key Key) *Composer {
	return &Composer{q: q, baseURL: baseURL, key: key}
}

// Campaign is one campaign's figures in a report: the week's and the week
// before's.
type Campaign struct {
	ID         int64
	SourceName string
	Currency   string
	Week, Prev Figures
}

// Figures are a campaign's sums over a week.
type Figures struct {
	Spend                                  string // two decimals
	Reach, Clicks, Engagement, Conversions int64
}

// Post is one of the week's top posts.
type Post struct {
	ID                        int64
	Name, Link                string
	Engagement, Reach, Clicks int64
}

// Mail is a user's report of a week.
type Mail struct {
	UserID    int64
	Week      Week
	To        string
	FirstName string
	// Wanted is false when the user turned the report off.
	Wanted         bool
	Campaigns      []Campaign
	Top            []Post
	UnsubscribeURL string
	Subject        string
	Text, HTML     string
	PNG            []byte
}

// TimeZone answers the user's time zone: that of the ad account of their
// most recent campaign, else UTC.
func (c *Composer) TimeZone(ctx context.Context, userID int64) (*time.Location, error) {
	u, err := c.q.ReportUser(ctx, userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNoUser
	}
	if err != nil {
		return nil, err
	}
	return Location(u.TimeZone), nil
}

// Compose makes the user's report of week, from what the database holds now.
func (c *Composer) Compose(ctx context.Context, userID int64, week Week) (*Mail, error) {
	u, err := c.q.ReportUser(ctx, userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNoUser
	}
	if err != nil {
		return nil, err
	}
	m := &Mail{
		UserID: userID, Week: week, To: u.Email, FirstName: u.FirstName, Wanted: u.WeeklyReport,
		UnsubscribeURL: c.baseURL + "/v1/user/unsubscribe?token=" + c.key.UnsubscribeToken(userID),
		Subject:        "Your boosted posts, week " + week.String(),
	}
	if m.Campaigns, err = c.campaigns(ctx, userID, week); err != nil {
		return nil, err
	}
	if m.Top, err = c.top(ctx, userID, week); err != nil {
		return nil, err
	}
	series, err := c.series(ctx, userID, week)
	if err != nil {
		return nil, err
	}
	if m.PNG, err = ChartPNG(series); err != nil {
		return nil, err
	}
	m.Text = m.text()
	if m.HTML, err = m.html(); err != nil {
		return nil, err
	}
	return m, nil
}

func (c *Composer) campaigns(ctx context.Context, userID int64, week Week) ([]Campaign, error) {
	rows, err := c.q.ReportCampaigns(ctx, db.ReportCampaignsParams{UserID: userID, Monday: week.Date()})
	if err != nil {
		return nil, err
	}
	out := make([]Campaign, len(rows))
	for i, r := range rows {
		out[i] = Campaign{
			ID: r.CampaignID, SourceName: r.SourceName, Currency: r.Currency,
			Week: Figures{Spend: r.Spend, Reach: r.Reach, Clicks: r.Clicks, Engagement: r.Engagement, Conversions: r.Conversions},
			Prev: Figures{Spend: r.PrevSpend, Reach: r.PrevReach, Clicks: r.PrevClicks, Engagement: r.PrevEngagement, Conversions: r.PrevConversions},
		}
	}
	return out, nil
}

func (c *Composer) top(ctx context.Context, userID int64, week Week) ([]Post, error) {
	rows, err := c.q.ReportTopPosts(ctx, db.ReportTopPostsParams{UserID: userID, Monday: week.Date()})
	if err != nil {
		return nil, err
	}
	out := make([]Post, len(rows))
	for i, r := range rows {
		out[i] = Post{ID: r.ID, Name: r.Name, Link: r.Link, Engagement: r.Engagement, Reach: r.Reach, Clicks: r.Clicks}
	}
	return out, nil
}

func (c *Composer) series(ctx context.Context, userID int64, week Week) (Series, error) {
	s := Series{Week: week, Spend: map[string]*[7]float64{}}
	rows, err := c.q.ReportDays(ctx, db.ReportDaysParams{UserID: userID, Monday: week.Date()})
	if err != nil {
		return s, err
	}
	for _, r := range rows {
		i := int(r.Day.Time.Sub(week.Monday()).Hours() / 24)
		if i < 0 || i > 6 {
			continue
		}
		spend, err := strconv.ParseFloat(r.Spend, 64)
		if err != nil {
			return s, fmt.Errorf("report: spend %q: %w", r.Spend, err)
		}
		if s.Spend[r.Currency] == nil {
			s.Spend[r.Currency] = new([7]float64)
		}
		s.Spend[r.Currency][i] += spend
		s.Engagement[i] += float64(r.Engagement)
	}
	return s, nil
}
