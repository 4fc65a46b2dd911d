package boost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5"

	"adboost/auth/networka"
	"adboost/db"
)

// work is one campaign's work in one cycle.
type work struct {
	e         *Engine
	q         *db.Queries
	id        int64
	log       *slog.Logger
	c         db.EngineCampaignLoadRow
	userToken string
	account   string
}

// scope is the rate-limit scope of the campaign's calls with the user's
// token (its ad account's, once it has one).
func (w *work) scope() networka.Scope {
	return networka.Scope{User: strconv.FormatInt(w.c.UserID, 10), AdAccount: w.account}
}

// pageScope is the scope of the reads of the campaign's page.
func (w *work) pageScope() networka.Scope {
	return networka.Scope{User: strconv.FormatInt(w.c.UserID, 10), Page: strconv.FormatInt(w.c.PageID, 10)}
}

// run is the campaign's state machine: a campaign that stopped running is
// paused on network_a (and its statistics still read for 28 days); one that
// runs is resumed when paused, its ad set kept in step, its new posts read
// together with its ads' statistics, and the posts that qualify boosted.
func (w *work) run(ctx context.Context) error {
	c, err := w.q.EngineCampaignLoad(ctx, w.id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	w.c = c
	w.log = w.log.With("user", c.UserID)
	if c.TokenInvalid {
		return nil // logged when network_a refused it
	}
	if c.UserToken == nil {
		w.log.Warn("engine: campaign skipped: no network_a token is stored for its user (sign in with network_a)")
		return nil
	}
	if w.userToken, err = w.e.cipher.Open(c.UserToken); err != nil {
		w.log.Warn("engine: campaign skipped: the user's stored token does not open with TOKEN_ENCRYPTION_KEY")
		return nil
	}
	if c.AdAccountID != nil {
		w.account = *c.AdAccountID
	}
	if !c.Runs {
		if err := w.pause(ctx); err != nil {
			return err
		}
		return w.insights(ctx)
	}
	if c.NetworkAStatus == "PAUSED" {
		if err := w.resume(ctx); err != nil {
			return err
		}
	}
	if c.AdAccountID != nil && c.AdAccountCurrency == nil {
		if err := w.learnCurrency(ctx); err != nil {
			return err
		}
	}
	if err := w.syncAdSet(ctx); err != nil {
		return err
	}
	// The page's new posts and the ads' statistics at once: one round trip
	// for a steady campaign.
	var candidates []candidate
	var postsErr, insightsErr error
	var wg sync.WaitGroup
	wg.Go(func() { candidates, postsErr = w.candidates(ctx) })
	wg.Go(func() { insightsErr = w.insights(ctx) })
	wg.Wait()
	if postsErr != nil {
		return postsErr
	}
	if err := w.boost(ctx, candidates); err != nil {
		return err
	}
	return insightsErr
}

// refused records that network_a refused the user's token: the user's
// campaigns are skipped until the next sign-in. Logged once.
func (w *work) refused(ctx context.Context) error {
	_, err := w.q.EngineUserTokenRefused(ctx, db.EngineUserTokenRefusedParams{UserID: w.c.UserID, NetworkAToken: w.c.UserToken})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("campaign %d: %w", w.id, err)
	}
	w.log.Warn("engine: network_a refused the user's token (OAuth 190): the user's campaigns are skipped until the next sign-in")
	return nil
}

// pause pauses the network_a campaign of a campaign that stopped running
// (deactivated, past its end date, or deleted) and stops its posts. The
// pause is recorded only when network_a accepted it, or answered that the
// campaign does not exist any more (deleted there: it runs no more either
// way). Any other answer leaves the campaign recorded as running and is an
// error: a rate limit or a passing failure is tried again in a later cycle,
// and so is a refusal, which an operator must look at while the campaign
// may still spend on network_a.
func (w *work) pause(ctx context.Context) error {
	if w.c.NetworkAStatus != "ACTIVE" {
		return nil
	}
	if w.c.CampaignObjectID != nil {
		err := w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, map[string]any{"status": "PAUSED"}, w.scope())
		switch {
		case err == nil:
		case networka.Gone(err):
			w.log.Warn("engine: network_a no longer has the campaign: recorded as paused", "err", err)
		default:
			return fmt.Errorf("pausing the network_a campaign: %w", err)
		}
	}
	var posts int64
	err := inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
		posts, err = q.NetworkACampaignPaused(ctx, w.id)
		return err
	})
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	w.c.NetworkAStatus = "PAUSED"
	w.log.Info("engine: campaign paused on network_a", "found", w.c.Found, "posts_stopped", posts)
	return nil
}

// resume resumes the network_a campaign of a campaign running again. The
// resumption is recorded only when network_a accepted it: any error answer
// (a campaign network_a no longer has included: nothing would run) leaves
// the campaign recorded as paused, and is tried again in a later cycle.
func (w *work) resume(ctx context.Context) error {
	if w.c.CampaignObjectID != nil {
		err := w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, map[string]any{"status": "ACTIVE"}, w.scope())
		if err != nil {
			return fmt.Errorf("resuming the network_a campaign: %w", err)
		}
	}
	var posts int64
	err := inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
		posts, err = q.NetworkACampaignResumed(ctx, w.id)
		return err
	})
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	w.c.NetworkAStatus = "ACTIVE"
	w.log.Info("engine: campaign resumed on network_a", "posts_started", posts)
	return nil
}

// learnCurrency asks network_a for the currency of the ad account of a
// campaign started before the engine kept it, so that its money goes out in
// that currency's unit; an account network_a no longer lists, or lists
// without a currency, stays unknown (two decimals) and is asked again next
// cycle.
func (w *work) learnCurrency(ctx context.Context) error {
	accounts, err := w.e.api.AdAccounts(ctx, w.userToken, networka.Scope{User: strconv.FormatInt(w.c.UserID, 10)})
	if err != nil {
		return err
	}
	for _, a := range accounts {
		if a.ID == w.account && a.Currency != "" {
			return w.q.NetworkACampaignCurrencyLearnt(ctx, db.NetworkACampaignCurrencyLearntParams{CampaignID: w.id, Currency: a.Currency})
		}
	}
	w.log.Debug("engine: the ad account's currency is unknown: money goes out with two decimals", "ad_account", w.account)
	return nil
}

// syncAdSet sends the ad set the fields that `save` changed since network_a
// last accepted them.
func (w *work) syncAdSet(ctx context.Context) error {
	if w.c.AdsetObjectID == nil {
		return nil
	}
	fields, err := w.q.NetworkACampaignAdSet(ctx, w.id)
	if err != nil {
		return err
	}
	var changes map[string]any
	if err := json.Unmarshal(fields.Changes, &changes); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	err = w.e.api.Update(ctx, w.userToken, *w.c.AdsetObjectID, changes, w.scope())
	if networka.Refused(err) {
		// Tried again next cycle; the posts are still boosted meanwhile.
		w.log.Warn("engine: network_a refused the ad set's changes", "fields", slices.Sorted(maps.Keys(changes)), "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	w.log.Info("engine: ad set updated", "fields", slices.Sorted(maps.Keys(changes)))
	return w.q.NetworkACampaignAdSetSynced(ctx, db.NetworkACampaignAdSetSyncedParams{CampaignID: w.id, Fields: fields.Changes})
}

// inPostsTx runs fn in a transaction after the lock of the user's boosted
// posts (NetworkACampaignPostsLock): the statements that start or stop
// posts shared between campaigns see each other's changes.
func inPostsTx(ctx context.Context, pool beginner, userID int64, fn func(q *db.Queries) error) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.NetworkACampaignPostsLock(ctx, userID); err != nil {
			return err
		}
		return fn(q)
	})
}

// beginner begins transactions: a pool or one of its connections.
type beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}
