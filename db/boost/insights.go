package boost

import (
	"context"
	"encoding/json"

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
