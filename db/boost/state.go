package boost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth/networka"
	"adboost/db"
)

// The engine states of a campaign, answered in `engine` on
// every BoostedPage.
const (
	StateWaiting         = "waiting"
	StateRunning         = "running"
	StatePausing         = "pausing"
	StatePaused          = "paused"
	StateTokenRefused    = "token_refused"
	StatePageLost        = "page_lost"
	StateNoAdAccount     = "no_ad_account"
	StateNeedsSetup      = "needs_setup"
	StateRefused         = "refused"
	StateThrottled       = "throttled"
	StateSpendCapReached = "spend_cap_reached"
)

// precedence orders the states a campaign's work may find at once: the
// campaign is in the highest (pausing first, waiting last).
var precedence = map[string]int{
	StatePausing: 11, StateSpendCapReached: 10, StatePaused: 9, StateTokenRefused: 8, StatePageLost: 7,
	StateNoAdAccount: 6, StateNeedsSetup: 5, StateThrottled: 4, StateRefused: 3, StateRunning: 2, StateWaiting: 1,
}

// outcome is the state a campaign's work found, with its message.
type outcome struct {
	state, message string
}

// observe keeps the state of higher precedence.
func (o *outcome) observe(state, message string) {
	if precedence[state] > precedence[o.state] {
		o.state, o.message = state, message
	}
}

// blocked observes what an error of network_a says of the campaign's state:
// a rate limit or a throttled scope is `throttled` until the time network_a
// gave; a refusal that is not about the token (those are the caller's) is
// `refused` with network_a's message. It answers whether it observed one.
func (o *outcome) blocked(err error) bool {
	var th *networka.ThrottledError
	var api *networka.Error
	switch {
	case errors.As(err, &th):
		o.observe(StateThrottled, fmt.Sprintf("network_a asked to wait: calls resume after %s UTC",
			th.Until.UTC().Format(time.DateTime)))
		return true
	case errors.As(err, &api) && rateLimit(api.Code):
		o.observe(StateThrottled, "network_a's rate limit: "+api.Message)
		return true
	case networka.Refused(err) && errors.As(err, &api):
		o.observe(StateRefused, api.Message)
		return true
	}
	return false
}

// rateLimit tells whether network_a's error code is a rate limit.
func rateLimit(code int) bool {
	return code == 4 || code == 17 || code == 32 || code == 341 || code == 613 || (code >= 80000 && code <= 80014)
}

// record writes the state the work found (EngineStateSet); nothing when it
// found none (a passing failure of network_a or of the database says
// nothing new about the campaign).
func (w *work) record(ctx context.Context) error {
	if w.out.state == "" || w.c.UserID == 0 {
		return nil
	}
	var res db.EngineStateSetRow
	err := pgx.BeginFunc(ctx, w.e.pool, func(tx pgx.Tx) (err error) {
		q := db.New(tx)
		if err := q.EngineStateAsyncCommit(ctx); err != nil {
			return err
		}
		res, err = q.EngineStateSet(ctx, db.EngineStateSetParams{
			CampaignID: w.id, UserID: w.c.UserID, State: w.out.state, Message: w.out.message})
		return err
	})
	if err != nil {
		return err
	}
	if res.Changed {
		w.log.Info("engine: campaign state", "state", w.out.state, "message", w.out.message)
	}
	return nil
}

// noticeLines tell the user, in the engine's mail, what each state means and
// what to do.
var noticeLines = map[string]string{
	StateTokenRefused:    "network_a refused your sign-in: sign in again with network_a so that the campaign goes on",
	StatePageLost:        "network_a no longer lets adboost read the page: sign in again with network_a, as an admin of the page",
	StateNoAdAccount:     "you have no active network_a ad account: open or re-enable one on network_a",
	StateNeedsSetup:      "the campaign lacks what network_a requires: complete it in the dashboard",
	StateRefused:         "network_a refused the campaign: see its message, fix it on network_a (payment method, permissions), and adboost tries again",
	StateSpendCapReached: "the campaign has spent its cap and is paused: raise the cap to go on",
	StatePausing:         "adboost could not pause the campaign on network_a for 10 minutes: pause it on network_a yourself to stop its spending",
}

// SendNotices sends each user one mail listing the campaigns that entered a
// state needing the user since the last mail (EngineNoticeMail). The cycle
// calls it once.
func (e *Engine) SendNotices(ctx context.Context) (int64, error) {
	arg, err := json.Marshal(noticeLines)
	if err != nil {
		return 0, err
	}
	return db.New(e.pool).EngineNoticeMail(ctx, db.EngineNoticeMailParams{
		Subject: "adboost: your campaigns need you",
		Intro:   "adboost could not do all of its job for these campaigns:",
		Lines:   arg,
		Outro:   "Each campaign's state is shown in the dashboard. This mail is sent once per campaign and state in 24 hours.",
	})
}
