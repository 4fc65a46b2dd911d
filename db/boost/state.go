package boost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/mailer"
)

// State is a campaign's engine state, answered as `engine.state` on every
// BoostedPage.
type State string

// The engine states of a campaign.
const (
	StateWaiting         State = "waiting"
	StateRunning         State = "running"
	StatePausing         State = "pausing"
	StatePaused          State = "paused"
	StateTokenRefused    State = "token_refused"
	StatePageLost        State = "page_lost"
	StateNoAdAccount     State = "no_ad_account"
	StateNeedsSetup      State = "needs_setup"
	StateRefused         State = "refused"
	StateThrottled       State = "throttled"
	StateSpendCapReached State = "spend_cap_reached"
)

// precedence orders the states a campaign's work may find at once: the
// campaign is in the highest (pausing first, waiting last).
var precedence = map[State]int{
	StatePausing: 11, StateSpendCapReached: 10, StatePaused: 9, StateTokenRefused: 8, StatePageLost: 7,
	StateNoAdAccount: 6, StateNeedsSetup: 5, StateThrottled: 4, StateRefused: 3, StateRunning: 2, StateWaiting: 1,
}

// outcome is the state a campaign's work found, with its message and, for
// a refusal of network_a, what the history keeps of it besides its words
// (code, subcode, fbtrace_id).
type outcome struct {
	state   State
	message string
	details map[string]any
}

// observe keeps the state of higher precedence.
func (o *outcome) observe(state State, message string) {
	o.observeDetails(state, message, nil)
}

// observeDetails keeps the state of higher precedence, with details.
func (o *outcome) observeDetails(state State, message string, details map[string]any) {
	if precedence[state] > precedence[o.state] {
		o.state, o.message, o.details = state, message, details
	}
}

// blocked observes what an error of network_a says of the campaign's state:
// a rate limit or a throttled scope is `throttled` until the time network_a
// gave (until names it when a pause is known: the client's throttles after
// the answer); a refusal that is not about the token (those are the
// caller's) is `refused` with network_a's own words. It answers whether it
// observed one.
func (o *outcome) blocked(err error, until func() (time.Time, bool)) bool {
	var th *networka.ThrottledError
	var api *networka.Error
	switch {
	case errors.As(err, &th):
		o.observe(StateThrottled, throttledMessage(th.Until))
		return true
	case errors.As(err, &api) && rateLimit(api.Code):
		if t, ok := until(); ok {
			o.observeDetails(StateThrottled, throttledMessage(t)+" ("+api.UserText()+")", networka.Details(err))
		} else {
			o.observeDetails(StateThrottled, "network_a's rate limit: "+api.UserText(), networka.Details(err))
		}
		return true
	case networka.Refused(err) && errors.As(err, &api):
		o.observeDetails(StateRefused, api.UserText(), networka.Details(err))
		return true
	}
	return false
}

// throttledMessage is the throttled state's message: when the wait ends.
func throttledMessage(until time.Time) string {
	return "network_a asked adboost to wait until " + until.UTC().Format(time.DateTime) + " UTC"
}

// blocked is outcome.blocked with the time the campaign's calls resume, as
// the client's throttles know it.
func (w *work) blocked(err error) bool {
	return w.out.blocked(err, func() (time.Time, bool) {
		if th := w.e.api.Throttles().Check(w.scope()); th != nil {
			return th.Until, true
		}
		return time.Time{}, false
	})
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
	details, err := json.Marshal(w.out.details)
	if err != nil {
		return err
	}
	var res db.EngineStateSetRow
	err = pgx.BeginFunc(ctx, w.e.pool, func(tx pgx.Tx) (err error) {
		q := db.New(tx)
		if err := q.EngineStateAsyncCommit(ctx); err != nil {
			return err
		}
		res, err = q.EngineStateSet(ctx, db.EngineStateSetParams{
			CampaignID: w.id, UserID: w.c.UserID, State: string(w.out.state), Message: w.out.message, Details: details})
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

// noticeLines tell the user, in the engine's mail, what each state (and
// each post_disapproved notice) means and what to do.
var noticeLines = map[string]string{
	string(StateTokenRefused):    "network_a refused your sign-in: sign in again with network_a so that the campaign goes on",
	string(StatePageLost):        "network_a no longer lets adboost read the page: sign in again with network_a, as an admin of the page",
	string(StateNoAdAccount):     "you have no active network_a ad account: open or re-enable one on network_a",
	string(StateNeedsSetup):      "the campaign lacks what network_a requires: complete it in the dashboard",
	string(StateRefused):         "network_a refused the campaign: see its message, fix it on network_a (payment method, permissions), and adboost tries again",
	string(StateSpendCapReached): "the campaign has spent its cap and is paused: raise the cap to go on",
	string(StatePausing):         "adboost could not pause the campaign on network_a for 10 minutes: pause it on network_a yourself to stop its spending",
	"post_disapproved":           "network_a disapproved a boosted post's ad, which no longer runs: see network_a's reason, then edit the post or boost another",
}

// KindNotice is the kind of the engine's mails about the campaigns that
// need their user.
const KindNotice = "adboost_mail_engine_notice"

// Notice is one line of the engine's mail: a campaign (with its page's
// name) that entered a state needing the user, and network_a's message.
type Notice struct {
	CampaignID int64  `json:"campaign_id"`
	Source     string `json:"source"`
	State      string `json:"state"`
	Message    string `json:"message"`
}

// NoticeArgs is the engine's mail to a user listing the campaigns that
// entered a state needing the user since the last mail.
type NoticeArgs struct {
	To      string   `json:"to"`
	Notices []Notice `json:"notices"`
}

// Kind is the job's kind.
func (NoticeArgs) Kind() string { return KindNotice }

// InsertOpts: a mail job.
func (NoticeArgs) InsertOpts() river.InsertOpts { return mailer.InsertOpts() }

// Mail is the mail: a line per notice, saying what its state asks of the
// user (noticeLines).
func (a NoticeArgs) Mail() mailer.Message {
	var b strings.Builder
	b.WriteString("adboost could not do all of its job for these campaigns:\n")
	for _, n := range a.Notices {
		fmt.Fprintf(&b, "\n- Campaign %d", n.CampaignID)
		if n.Source != "" {
			fmt.Fprintf(&b, " (%s)", n.Source)
		}
		line, ok := noticeLines[n.State]
		if !ok {
			line = n.State
		}
		b.WriteString(": " + line)
		if n.Message != "" {
			b.WriteString("\n  network_a: " + n.Message)
		}
	}
	b.WriteString("\n\nEach campaign's state is shown in the dashboard. This mail is sent once per campaign and state in 24 hours.")
	return mailer.Message{To: a.To, Subject: "adboost: your campaigns need you", Text: b.String()}
}

// SendNotices inserts with jobs, for each user, the job of one mail listing
// the campaigns that entered a state needing the user since the last mail,
// in the transaction that takes the notices (EngineNoticesTake). The cycle
// calls it once. It answers how many mails it enqueued.
func (e *Engine) SendNotices(ctx context.Context, jobs *river.Client[pgx.Tx]) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
		mails, err := db.New(tx).EngineNoticesTake(ctx)
		if err != nil || len(mails) == 0 {
			return err
		}
		params := make([]river.InsertManyParams, len(mails))
		for i, m := range mails {
			args := NoticeArgs{To: m.Recipient}
			if err := json.Unmarshal(m.Notices, &args.Notices); err != nil {
				return err
			}
			params[i] = river.InsertManyParams{Args: args}
		}
		_, err = jobs.InsertManyTx(ctx, tx, params)
		n = len(mails)
		return err
	})
	return n, err
}
