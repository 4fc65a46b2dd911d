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
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/rules"
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
	out       outcome     // the state the work found
	now       time.Time   // when the work began: the clock of its rules
	rules     rules.Rules // the campaign's rules
	capped    bool        // active, but paused by its spend cap
	// capReached is the recorded spend when this work's statistics brought
	// it to the spend cap ("" otherwise): the campaign pauses in this cycle.
	capReached string
	// accountChecked: the work saw the campaign's ad account active.
	accountChecked bool
}

// scope is the rate-limit scope of the campaign's calls with the user's
// token (its ad account's, once it has one).
func (w *work) scope() networka.Scope {
	return networka.Scope{User: strconv.FormatInt(w.c.UserID, 10), AdAccount: w.account}
}

// load reads the campaign and opens the user's token. It answers false when
// there is nothing to work on (no campaign and no network_a object of it),
// no usable user token (none, refused, or past its end: then the state says
// so: a campaign that should stop stays `pausing` with the reason, any
// other is `token_refused`), or a running campaign lacks a permission the
// user did not grant (`token_refused` naming it).
func (w *work) load(ctx context.Context) (bool, error) {
	c, err := w.loadRow(ctx)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	w.c = c
	if err := json.Unmarshal(c.Rules, &w.rules); err != nil {
		// The schema keeps rules in their stored form: this is a bug, and
		// boosting without the campaign's rules could spend what it must not.
		return false, fmt.Errorf("the campaign's rules: %w", err)
	}
	w.log = w.log.With("user", c.UserID)
	if c.AdAccountID != nil {
		w.account = *c.AdAccountID
	}
	why := ""
	switch {
	case c.UserToken != nil && c.TokenExpiresAt.Valid && !w.now.Before(c.TokenExpiresAt.Time):
		// The token ended: no call is made with it, not even a pause's.
		if c.Runs || c.NetworkAStatus == "ACTIVE" {
			w.tokenRefused(tokenEndedMessage(c.TokenExpiresAt.Time), nil)
		} else {
			w.out.observe(StatePaused, "")
		}
		w.log.Debug("engine: campaign not worked on: the user's network_a token ended")
		return false, nil
	case c.TokenInvalid && c.TokenRefusal != "":
		// network_a's refusal, in the words the refusal's work found.
		if c.Runs || c.NetworkAStatus == "ACTIVE" {
			w.tokenRefused(c.TokenRefusal, nil)
		} else {
			w.out.observe(StatePaused, "")
		}
		return false, nil
	case c.TokenInvalid:
		why = "network_a refused the user's token"
	case c.UserToken == nil:
		why = "no network_a token is stored for the user"
	default:
		if w.userToken, err = w.e.cipher.Open(c.UserToken); err != nil {
			why = "the user's stored token does not open with TOKEN_ENCRYPTION_KEY"
		}
	}
	if why == "" {
		return w.permitted(), nil
	}
	switch {
	case !c.Runs && c.NetworkAStatus == "ACTIVE":
		w.out.observe(StatePausing, c.StopReason+": "+why+"; sign in again with network_a to carry out the pause")
	case !c.Runs:
		w.out.observe(StatePaused, "")
	default:
		w.out.observe(StateTokenRefused, why+": sign in again with network_a")
	}
	w.log.Debug("engine: campaign not worked on", "reason", why)
	return false, nil
}

// permitted tells whether the user granted the permissions a running
// campaign needs; one that lacks some is `token_refused` naming them, and
// makes no call. A campaign that should stop is paused whatever they are.
func (w *work) permitted() bool {
	if !w.c.Runs {
		return true
	}
	missing := missingPermissions(w.c.PermissionsMissing, w.c.NetworkBID != 0)
	if len(missing) == 0 {
		return true
	}
	w.out.observe(StateTokenRefused, permissionsMessage(missing))
	w.log.Debug("engine: campaign not worked on: permissions not granted", "missing", missing)
	return false
}

// run is the campaign's state machine: a campaign that should not spend
// (deactivated, ended, deleted with its source) is paused on network_a (and
// its statistics still read for 28 days); one that runs is resumed when
// paused, checked for what network_a requires, its ad set kept in step, its
// new posts, its ads' statistics and their delivery read at once, and the
// posts that qualify boosted. It records the state it found.
func (w *work) run(ctx context.Context) error {
	ok, err := w.load(ctx)
	if !ok || err != nil {
		return err
	}
	if w.c.Runs && w.c.SpendCapReached {
		w.capAt(w.c.Spend)
	}
	if !w.c.Runs {
		if err := w.pause(ctx); err != nil {
			return err
		}
		return w.statistics(ctx)
	}
	if w.c.NetworkAStatus == "PAUSED" {
		stopped, err := w.resume(ctx)
		if err != nil || stopped {
			return err
		}
	}
	if w.c.AdAccountID != nil && w.c.AdAccountCurrency == nil {
		if err := w.learnCurrency(ctx); err != nil {
			return err
		}
	}
	// What runs already is still read when nothing may be sent.
	sends, err := w.ready(ctx)
	if err != nil {
		return err
	}
	r := w.readAll(ctx)
	if w.capReached != "" && w.c.Runs {
		// This cycle's statistics brought the spend to the cap: no boost,
		// and the campaign pauses now.
		w.capAt(w.capReached)
		return w.pause(ctx)
	}
	if r.adsErr == nil && w.c.CampaignObjectID != nil {
		if err := w.delivery(ctx, r.ads, r.reads); err != nil {
			return err
		}
	}
	// A source that could not be read leaves the other's posts boosted.
	postsErr := errors.Join(r.readErrs...)
	if sends {
		if err := w.boost(ctx, oldestFirst(r.reads...)); err != nil {
			return errors.Join(err, postsErr)
		}
	}
	if postsErr != nil {
		return postsErr
	}
	if r.adsErr != nil && !w.blocked(r.adsErr) {
		return r.adsErr
	}
	if r.insightsErr != nil {
		return r.insightsErr
	}
	w.out.observe(StateRunning, "")
	return nil
}

// cycleReads is what a running campaign's work reads at once: its sources'
// new posts, its ads with their delivery and review, and their statistics
// (written as they are read).
type cycleReads struct {
	reads       []sourceRead
	readErrs    []error
	ads         []networka.Ad
	adsErr      error
	insightsErr error
}

// readAll makes the reads of a running campaign at once: one round trip
// for a steady campaign. The ads are read once the campaign has a
// network_a campaign.
func (w *work) readAll(ctx context.Context) cycleReads {
	sources := w.sources()
	r := cycleReads{reads: make([]sourceRead, len(sources)), readErrs: make([]error, len(sources))}
	var wg sync.WaitGroup
	for i, src := range sources {
		wg.Go(func() { r.reads[i], r.readErrs[i] = w.candidates(ctx, src) })
	}
	wg.Go(func() { r.insightsErr = w.statistics(ctx) })
	if w.c.CampaignObjectID != nil {
		wg.Go(func() { r.ads, r.adsErr = w.e.api.Ads(ctx, w.userToken, *w.c.CampaignObjectID, w.scope()) })
	}
	wg.Wait()
	return r
}

// capAt stops a campaign whose recorded spend reached its spend cap: it
// stays active, and is paused on network_a until a save raises or removes
// the cap.
func (w *work) capAt(spend string) {
	w.c.Runs, w.capped, w.c.Spend = false, true, spend
	w.c.StopReason = "its recorded spend " + spend + " reached its spend cap"
}

// ready tells whether the work may send what it makes: nothing is sent
// that network_a would refuse (needs_setup, checked before any call, and
// cities network_a does not know, looked up first), nor money in an
// unknown currency, which could go out 100 times too high. A campaign that
// is ready has its network_a campaign and ad set kept in step.
func (w *work) ready(ctx context.Context) (bool, error) {
	switch {
	case w.c.SetupMissing != "":
		w.out.observe(StateNeedsSetup, w.c.SetupMissing)
		return false, nil
	case w.c.AdAccountID != nil && w.c.AdAccountCurrency == nil:
		w.out.observe(StateRefused, errNoCurrency)
		return false, nil
	}
	if known, err := w.cities(ctx); !known || err != nil {
		return false, err
	}
	if err := w.syncCampaign(ctx); err != nil {
		return false, err
	}
	return true, w.syncAdSet(ctx)
}

// cities looks up network_a's key of the campaign's cities that no
// campaign looked up yet, all at once, and keeps them for every campaign
// (cityKey). It answers whether every city of the campaign has a key: a
// city network_a does not know is needs_setup, naming it.
func (w *work) cities(ctx context.Context) (bool, error) {
	var list []unmappedCity
	if err := json.Unmarshal(w.c.UnmappedCities, &list); err != nil || len(list) == 0 {
		return true, err
	}
	keys := make([]string, len(list))
	errs := make([]error, len(list))
	var wg sync.WaitGroup
	for i, c := range list {
		wg.Go(func() { keys[i], errs[i] = w.cityKey(ctx, c) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		w.blocked(err)
		return false, err
	}
	for i, c := range list {
		if keys[i] == "" {
			w.out.observe(StateNeedsSetup, fmt.Sprintf("targeting.geo_locations.cities: network_a knows no city %s (%s); choose another city", c.Name, c.Country))
			return false, nil
		}
	}
	return true, nil
}

// unmappedCity is a city of the campaign whose network_a key is not known
// yet, as EngineCampaignLoad answers it.
type unmappedCity struct {
	Key     string `json:"key"`
	Name    string `json:"name"`
	Country string `json:"country"`
	Region  string `json:"region"`
}

// cityKey answers network_a's key of a city ("" for a city network_a does
// not know): the engine's own when it found it lately, else one search
// shared by every work that asks at once, kept in network_a_city for every
// campaign and instance (a city network_a does not know is looked up again
// only once its row goes).
func (w *work) cityKey(ctx context.Context, c unmappedCity) (string, error) {
	if key, ok := w.e.cityKeys.Get(c.Key); ok {
		return key, nil
	}
	v, err, _ := w.e.citySearch.Do(c.Key, func() (any, error) {
		q := networka.CityQuery{Name: c.Name, CountryCode: c.Country, Region: c.Region}
		keys, errs := w.e.api.Cities(ctx, w.userToken, []networka.CityQuery{q}, w.scope())
		if errs[0] != nil {
			return "", errs[0]
		}
		arg, err := json.Marshal([]map[string]string{{"key": c.Key, "network_a_key": keys[0]}})
		if err != nil {
			return "", err
		}
		if err := w.q.NetworkACityKeysSet(ctx, arg); err != nil {
			return "", err
		}
		if keys[0] != "" {
			w.e.cityKeys.Add(c.Key, keys[0])
		}
		return keys[0], nil
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// delivery stops the posts whose ads network_a no longer delivers (deleted,
// archived, disapproved, left out of the list) or whose posts or media
// their source no longer has (NetworkAAdsDelivery). A steady campaign,
// whose running ads are all listed and delivering and whose recent posts
// were all read, needs no statement.
func (w *work) delivery(ctx context.Context, ads []networka.Ad, reads []sourceRead) error {
	status := make(map[string]string, len(ads))
	reasons := map[string]string{}
	for _, a := range ads {
		status[a.ID] = a.Status
		if _, reason := a.Review(); reason != "" {
			reasons[a.ID] = reason
		}
	}
	if err := w.reviews(ctx, ads); err != nil {
		return err
	}
	var seen []int64
	var media []string
	postsRead, mediaRead := false, false
	for _, r := range reads {
		if r.src.network == networkB {
			media, mediaRead = r.media, r.read
		} else {
			seen, postsRead = r.seen, r.read
		}
	}
	stopped := slices.ContainsFunc(w.c.RunningAds, func(id string) bool {
		s, listed := status[id]
		return !listed || s == "DELETED" || s == "ARCHIVED" || s == "DISAPPROVED"
	}) || w.c.BoostsEnded || (postsRead && slices.ContainsFunc(w.c.RecentPosts, func(id int64) bool { return !slices.Contains(seen, id) })) ||
		(mediaRead && slices.ContainsFunc(w.c.RecentMedia, func(id string) bool { return !slices.Contains(media, id) }))
	if !stopped {
		return nil
	}
	arg, err := json.Marshal(status)
	if err != nil {
		return err
	}
	why, err := json.Marshal(reasons)
	if err != nil {
		return err
	}
	var res db.NetworkAAdsDeliveryRow
	err = inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
		res, err = q.NetworkAAdsDelivery(ctx, db.NetworkAAdsDeliveryParams{
			CampaignID: w.id, Ads: arg, Reasons: why, Seen: seen, PostsRead: postsRead, SeenMedia: media, MediaRead: mediaRead, Since: w.since(), Now: w.now})
		return err
	})
	if err != nil {
		return err
	}
	if res.Stopped > 0 {
		w.log.Info("engine: network_a stopped delivering ads", "ads", res.Stopped, "posts_stopped", res.PostsStopped)
	}
	return nil
}

// reviews writes the reviews network_a reported of the campaign's running
// ads to their posts, those that differ from what is recorded only (none
// for a steady campaign: no statement).
func (w *work) reviews(ctx context.Context, ads []networka.Ad) error {
	var recorded map[string][2]*string
	if err := json.Unmarshal(w.c.RunningReviews, &recorded); err != nil {
		return err
	}
	type review struct {
		AdID   string `json:"ad_id"`
		Status string `json:"status"`
		Reason string `json:"reason"`
	}
	var changed []review
	for _, a := range ads {
		was, running := recorded[a.ID]
		if !running {
			continue
		}
		status, reason := a.Review()
		if was[0] == nil || *was[0] != status || (was[1] == nil) != (reason == "") || (was[1] != nil && *was[1] != reason) {
			changed = append(changed, review{a.ID, status, reason})
		}
	}
	if len(changed) == 0 {
		return nil
	}
	arg, err := json.Marshal(changed)
	if err != nil {
		return err
	}
	return inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) error {
		return q.NetworkAAdReviewsSet(ctx, db.NetworkAAdReviewsSetParams{CampaignID: w.id, Reviews: arg})
	})
}

// errNoCurrency is the state message of a campaign whose ad account's
// currency network_a did not tell.
const errNoCurrency = "network_a did not tell the ad account's currency: adboost sends no budget until it does"

// loadRow reads the campaign (EngineCampaignLoad) at the work's time.
func (w *work) loadRow(ctx context.Context) (db.EngineCampaignLoadRow, error) {
	return w.q.EngineCampaignLoad(ctx, db.EngineCampaignLoadParams{CampaignID: w.id, Now: w.now, MaxAgeSeconds: w.e.maxAge.Seconds()})
}

// since is the oldest publication time a post may have and still be
// boosted in this cycle: the campaign's post_age_max_hours, else
// ENGINE_POST_MAX_AGE, before the work's time.
func (w *work) since() time.Time {
	return w.c.Since
}

// refused records that network_a refused the user's token (refusal, whose
// subcode says why in the state's message): the user's campaigns wait for
// the next sign-in (a campaign that should stop stays
// `pausing`, the others are `token_refused`). Logged once.
func (w *work) refused(ctx context.Context, refusal error) error {
	reason := networka.TokenReason(refusal)
	w.tokenRefused(reason, networka.Details(refusal))
	_, err := w.q.EngineUserTokenRefused(ctx, db.EngineUserTokenRefusedParams{UserID: w.c.UserID, NetworkAToken: w.c.UserToken, Refusal: reason})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("campaign %d: %w", w.id, err)
	}
	w.log.Warn("engine: network_a refused the user's token (OAuth 190): the user's campaigns wait for the next sign-in")
	return nil
}

// tokenRefused observes the state of a campaign whose user's token network_a
// refused (reason: why, ending with what to do; details: what the history
// keeps of the refusal): token_refused, or pausing for one that should
// stop.
func (w *work) tokenRefused(reason string, details map[string]any) {
	if w.c.Runs {
		w.out.observeDetails(StateTokenRefused, reason, details)
		return
	}
	w.out.observeDetails(StatePausing, w.c.StopReason+": "+reason+" to carry out the pause", details)
}

// pause pauses the network_a campaign of a campaign that should not spend
// (deactivated, past its end date, or deleted) and stops its posts; the
// campaign is `pausing` until network_a confirmed the pause, then `paused`.
// The pause is recorded only when network_a accepted it, or answered that
// the campaign does not exist any more (deleted there: it runs no more
// either way). Any other answer leaves the campaign recorded as running and
// is an error, tried again: a rate limit or a passing failure, and a
// refusal too, since the campaign may still spend on network_a. A deleted
// campaign whose pause is confirmed is forgotten (its history stays).
func (w *work) pause(ctx context.Context) error {
	if w.c.NetworkAStatus != "ACTIVE" && !w.c.ResumeUnconfirmed {
		w.observePaused()
		return w.forgetDeleted(ctx)
	}
	if w.c.CampaignObjectID != nil {
		err := w.e.api.Pause(ctx, w.userToken, *w.c.CampaignObjectID, w.scope())
		switch {
		case err == nil:
		case networka.Gone(err):
			w.log.Warn("engine: network_a no longer has the campaign: recorded as paused", "err", err)
		case networka.TokenRefused(err):
			// The caller records the refused token and the state it means.
			return fmt.Errorf("pausing the network_a campaign: %w", err)
		default:
			msg := w.c.StopReason + ": the pause is being sent to network_a"
			var api *networka.Error
			if errors.As(err, &api) {
				msg = w.c.StopReason + ": network_a did not take the pause yet: " + api.UserText()
			}
			w.out.observe(StatePausing, msg)
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
	w.observePaused()
	w.log.Info("engine: campaign paused on network_a", "reason", w.c.StopReason, "found", w.c.Found, "posts_stopped", posts)
	return w.forgetDeleted(ctx)
}

// observePaused observes the state of a campaign paused on network_a:
// spend_cap_reached when its spend cap paused it, else paused.
func (w *work) observePaused() {
	if w.capped {
		w.out.observe(StateSpendCapReached, "the campaign's recorded spend ("+w.c.Spend+
			") reached its spend cap: raise or remove the cap to go on")
		return
	}
	w.out.observe(StatePaused, "")
}

// forgetDeleted forgets the engine state of a campaign deleted with its
// source once nothing of it runs on network_a.
func (w *work) forgetDeleted(ctx context.Context) error {
	if w.c.Found {
		return nil
	}
	w.out = outcome{}
	return w.q.EngineStateForget(ctx, w.id)
}

// resume resumes the network_a campaign of a campaign running again. That
// a resumption is on its way is recorded before the call, so that a pause
// is always sent until its answer is recorded; the resumption is recorded
// only when network_a accepted it (any error answer, a campaign network_a
// no longer has included, is tried again in a later cycle), and only while
// the campaign still runs: one stopped meanwhile is paused at once, and
// stopped is true.
func (w *work) resume(ctx context.Context) (stopped bool, err error) {
	if w.c.CampaignObjectID != nil {
		if err := w.q.NetworkACampaignResumeSent(ctx, w.id); err != nil {
			return false, err
		}
		w.c.ResumeUnconfirmed = true
		err := w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, map[string]any{"status": "ACTIVE"}, w.scope())
		if err != nil {
			w.blocked(err)
			return false, fmt.Errorf("resuming the network_a campaign: %w", err)
		}
	}
	var posts int64
	err = inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
		posts, err = q.NetworkACampaignResumed(ctx, w.id)
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		// Stopped while the resumption was on its way: pause it again now.
		w.log.Warn("engine: campaign stopped while it was being resumed: pausing it again")
		w.c.Runs, w.c.StopReason = false, "deactivated"
		return true, w.pause(ctx)
	}
	if err != nil {
		return false, err
	}
	w.c.NetworkAStatus, w.c.ResumeUnconfirmed = "ACTIVE", false
	w.log.Info("engine: campaign resumed on network_a", "posts_started", posts)
	return false, nil
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
			if err := w.q.NetworkACampaignCurrencyLearnt(ctx, db.NetworkACampaignCurrencyLearntParams{CampaignID: w.id, Currency: a.Currency}); err != nil {
				return err
			}
			c := a.Currency
			w.c.AdAccountCurrency = &c
			return nil
		}
	}
	w.log.Debug("engine: the ad account's currency is unknown: money goes out with two decimals", "ad_account", w.account)
	return nil
}

// syncCampaign sends the network_a campaign the fields that `save` changed
// since network_a last accepted them (its spend_cap).
func (w *work) syncCampaign(ctx context.Context) error {
	if w.c.CampaignObjectID == nil {
		return nil
	}
	fields, err := w.q.NetworkACampaignFields(ctx, w.id)
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
	err = w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, changes, w.scope())
	if networka.Refused(err) {
		// Tried again next cycle; the campaign's state shows the refusal.
		w.blocked(err)
		w.log.Warn("engine: network_a refused the campaign's changes", "fields", slices.Sorted(maps.Keys(changes)), "err", err)
		return nil
	}
	if err != nil {
		w.blocked(err)
		return err
	}
	w.log.Info("engine: network_a campaign updated", "fields", slices.Sorted(maps.Keys(changes)))
	return w.q.NetworkACampaignFieldsSynced(ctx, db.NetworkACampaignFieldsSyncedParams{CampaignID: w.id, Fields: fields.Changes})
}

// syncAdSet sends the campaign's ad sets (the network_a one and the
// network_b one, those that exist) the fields that `save` changed since
// network_a last accepted them.
func (w *work) syncAdSet(ctx context.Context) error {
	if w.c.AdsetObjectID != nil {
		if err := w.syncOne(ctx, *w.c.AdsetObjectID, false); err != nil {
			return err
		}
	}
	if w.c.AdsetBObjectID != nil {
		return w.syncOne(ctx, *w.c.AdsetBObjectID, true)
	}
	return nil
}

// syncOne sends one ad set (adsetID; networkB: the network_b one) the
// fields that changed.
func (w *work) syncOne(ctx context.Context, adsetID string, networkB bool) error {
	fields, err := w.q.NetworkACampaignAdSet(ctx, db.NetworkACampaignAdSetParams{CampaignID: w.id, NetworkB: networkB})
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
	err = w.e.api.Update(ctx, w.userToken, adsetID, changes, w.scope())
	if networka.Refused(err) {
		// Tried again next cycle; the posts are still boosted meanwhile, and
		// the campaign's state shows network_a's refusal.
		w.blocked(err)
		w.log.Warn("engine: network_a refused the ad set's changes", "fields", slices.Sorted(maps.Keys(changes)), "err", err)
		return nil
	}
	if err != nil {
		w.blocked(err)
		return err
	}
	w.log.Info("engine: ad set updated", "ad_set", adsetID, "fields", slices.Sorted(maps.Keys(changes)))
	return w.q.NetworkACampaignAdSetSynced(ctx, db.NetworkACampaignAdSetSyncedParams{CampaignID: w.id, Fields: fields.Changes, NetworkB: networkB})
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
