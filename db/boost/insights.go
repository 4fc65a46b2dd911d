package boost

import (
	"context"
	"encoding/json"
	"time"

	"adboost/auth/networka"
	"adboost/db"
)

// insights reads the statistics of the campaign's ads in one `level=ad`
// read of its network_a campaign (while it runs there, and for 28 days
// after its pause) and writes those that changed (NetworkAAdInsightSync);
// an ad without a row, or with a row adboost cannot read, keeps its last
// statistics while the others are written. A write that brings the
// campaign's recorded spend to its spend_cap sets capReached.
func (w *work) insights(ctx context.Context) error {
	if !w.c.ReadsInsights || w.c.CampaignObjectID == nil {
		return nil
	}
	rows, bad, err := w.e.api.AdInsights(ctx, w.userToken, *w.c.CampaignObjectID, networka.ConversionAction(w.c.PromotedObject), w.scope())
	if len(bad) > 0 {
		// Those ads keep their last statistics; the others are written.
		w.log.Warn("engine: network_a answered statistics adboost cannot read; those ads keep their last ones", "ads", bad)
	}
	if networka.Refused(err) {
		// network_a refuses the statistics (e.g. it no longer has the
		// campaign): the last ones stay.
		w.log.Warn("engine: the campaign's statistics are not available", "err", err)
		return nil
	}
	if err != nil || len(rows) == 0 {
		return err
	}
	type row struct {
		AdID        string `json:"ad_id"`
		Impressions int64  `json:"impressions"`
		Reach       int64  `json:"reach"`
		Clicks      int64  `json:"clicks"`
		Engagement  int64  `json:"engagement"`
		Conversions int64  `json:"conversions"`
		Spend       string `json:"spend"`
	}
	list := make([]row, 0, len(rows))
	for id, in := range rows {
		list = append(list, row{id, in.Impressions, in.Reach, in.Clicks, in.Engagement, in.Conversions, in.Spend})
	}
	arg, err := json.Marshal(list)
	if err != nil {
		return err
	}
	// Under the lock of the user's posts: a post boosted in two campaigns
	// sums both campaigns' rows, and the other campaign's work may be
	// writing its own at the same time.
	var res db.NetworkAAdInsightSyncRow
	err = inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
		res, err = q.NetworkAAdInsightSync(ctx, db.NetworkAAdInsightSyncParams{CampaignID: w.id, Insights: arg})
		return err
	})
	if err != nil {
		return err
	}
	if res.Changed > 0 {
		w.log.Debug("engine: statistics updated", "ads", res.Changed)
	}
	if res.CapReached {
		w.capReached = res.Spend
	}
	return nil
}

// statistics reads and writes the campaign's ads' lifetime statistics,
// then their days when due.
func (w *work) statistics(ctx context.Context) error {
	if err := w.insights(ctx); err != nil {
		return err
	}
	return w.days(ctx)
}

// daysEvery is how often a campaign's days are read again: network_a
// revises its last days for a while.
const daysEvery = time.Hour

// days reads the statistics of the campaign's ads by day when due (never
// read: the whole life; else at most once an hour, the ad account's last 3
// days; a network_a campaign made by the engine starts as read, with no
// day) and writes those that changed (NetworkAAdDaysSync): a day network_a
// answers no row for keeps what it has.
func (w *work) days(ctx context.Context) error {
	if !w.c.ReadsInsights || w.c.CampaignObjectID == nil || w.c.AdAccountCurrency == nil {
		return nil
	}
	since, until := "", ""
	if w.c.DaysReadAt.Valid {
		if w.now.Sub(w.c.DaysReadAt.Time) < daysEvery {
			return nil
		}
		// The last 3 days, from the last read's on when it was longer ago
		// (network_a settles a day within 3; an engine stopped for a while
		// loses none).
		loc := w.accountLocation()
		today, from := w.now.In(loc), w.c.DaysReadAt.Time.In(loc)
		if today.Before(from) {
			from = today
		}
		since, until = from.AddDate(0, 0, -2).Format(time.DateOnly), today.Format(time.DateOnly)
	}
	days, bad, err := w.e.api.AdDays(ctx, w.userToken, *w.c.CampaignObjectID, networka.ConversionAction(w.c.PromotedObject), since, until, w.scope())
	if len(bad) > 0 {
		w.log.Warn("engine: network_a answered days adboost cannot read; those ads keep their last ones", "ads", bad)
	}
	if networka.Refused(err) {
		w.log.Warn("engine: the campaign's days are not available", "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	type row struct {
		AdID        string `json:"ad_id"`
		Day         string `json:"day"`
		Impressions int64  `json:"impressions"`
		Reach       int64  `json:"reach"`
		Clicks      int64  `json:"clicks"`
		Engagement  int64  `json:"engagement"`
		Conversions int64  `json:"conversions"`
		Spend       string `json:"spend"`
	}
	list := make([]row, len(days))
	for i, d := range days {
		list[i] = row{d.AdID, d.Day, d.Impressions, d.Reach, d.Clicks, d.Engagement, d.Conversions, d.Spend}
	}
	arg, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) error {
		if _, err := q.NetworkAAdDaysSync(ctx, db.NetworkAAdDaysSyncParams{CampaignID: w.id, Days: arg}); err != nil {
			return err
		}
		return q.NetworkACampaignDaysRead(ctx, db.NetworkACampaignDaysReadParams{CampaignID: w.id, ReadAt: w.now})
	})
}

// accountLocation is the time zone of the campaign's ad account, in which
// network_a reports its days; UTC while it is not known.
func (w *work) accountLocation() *time.Location {
	if loc := zone(w.c.AdAccountTimezone); loc != nil {
		return loc
	}
	return time.UTC
}
