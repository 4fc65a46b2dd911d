// Package engine is the boosting engine of CONTRACT §14: for every running
// campaign it finds the new posts of the campaign's network_a page that meet
// the campaign's rules, boosts each once as an ad on network_a, keeps the
// network_a campaign and ad set in step with the campaign (budget, bid,
// targeting, end date, pause and resume), and reads each ad's statistics.
//
// One campaign's work (Engine.Campaign) is the unit: `adboost engine` runs
// it for every campaign of a cycle (Engine.Cycle); `adboost serve` runs it as
// River jobs (Runner), one job per campaign per cycle. A session advisory
// lock per campaign keeps two engines from working on one campaign at once,
// and every create call is recorded (network_a_attempt, committed) before it
// is made, so that a call whose answer was lost is found by name afterwards
// instead of being made twice.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/db"
)

// DefaultPostMaxAge is ENGINE_POST_MAX_AGE's default: how old a post may be
// and still be boosted.
const DefaultPostMaxAge = 168 * time.Hour

// MaxPosts is how many of a page's newest posts a cycle reads at most.
const MaxPosts = 500

// Config configures an Engine.
type Config struct {
	NetworkAURL string            // NETWORK_A_API_URL
	Cipher      *auth.TokenCipher // opens the stored tokens (TOKEN_ENCRYPTION_KEY)
	PostMaxAge  time.Duration     // ENGINE_POST_MAX_AGE; 0 = DefaultPostMaxAge
	CallTimeout time.Duration     // bounds each call to network_a; 0 = CallTimeout
}

// Engine does the work of the boosting engine for one campaign at a time.
// It is safe for concurrent use.
type Engine struct {
	pool   *pgxpool.Pool
	api    *Client
	cipher *auth.TokenCipher
	maxAge time.Duration
	log    *slog.Logger
}

// New makes an engine over the database.
func New(pool *pgxpool.Pool, cfg Config, log *slog.Logger) (*Engine, error) {
	if cfg.Cipher == nil {
		return nil, errors.New("engine: TOKEN_ENCRYPTION_KEY is not set")
	}
	api, err := NewClient(cfg.NetworkAURL)
	if err != nil {
		return nil, err
	}
	if cfg.CallTimeout > 0 {
		api.http.Timeout = cfg.CallTimeout
	}
	maxAge := cfg.PostMaxAge
	if maxAge <= 0 {
		maxAge = DefaultPostMaxAge
	}
	return &Engine{pool: pool, api: api, cipher: cfg.Cipher, maxAge: maxAge, log: log}, nil
}

// Due answers the campaigns of one cycle (EngineCampaignDue).
func (e *Engine) Due(ctx context.Context) ([]int64, error) {
	return db.New(e.pool).EngineCampaignDue(ctx)
}

// CycleError names the campaigns whose work failed in a cycle.
type CycleError struct {
	Failed map[int64]error
}

func (e *CycleError) Error() string {
	ids := make([]int64, 0, len(e.Failed))
	for id := range e.Failed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("campaign %d: %v", id, e.Failed[id])
	}
	return fmt.Sprintf("engine: %d campaign(s) failed: %s", len(ids), strings.Join(parts, "; "))
}

// Cycle runs one cycle over every due campaign, one after the other, and
// answers a *CycleError naming those that failed.
func (e *Engine) Cycle(ctx context.Context) error {
	ids, err := e.Due(ctx)
	if err != nil {
		return fmt.Errorf("engine: listing the campaigns: %w", err)
	}
	failed := map[int64]error{}
	for _, id := range ids {
		if err := e.Campaign(ctx, id); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed[id] = err
		}
	}
	if len(failed) > 0 {
		return &CycleError{Failed: failed}
	}
	return nil
}

// Campaign does one campaign's work of a cycle. An error means the work
// should be retried later (network_a down, the database failing); a campaign
// that cannot run (no token, no ad account, token refused) is skipped with
// the reason logged, and answers nil. When another engine is working on the
// campaign right now, Campaign leaves it to that engine.
func (e *Engine) Campaign(ctx context.Context, id int64) (err error) {
	conn, err := e.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	q := db.New(conn)
	locked, err := q.EngineCampaignLock(ctx, id)
	if err != nil {
		conn.Release()
		return err
	}
	if !locked {
		conn.Release()
		e.log.Debug("engine: campaign is being worked on by another engine", "campaign", id)
		return nil
	}
	defer func() {
		// The lock is the session's: release it even when ctx has ended, or
		// close the session (which releases it) when that fails.
		unlockCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if uerr := q.EngineCampaignUnlock(unlockCtx, id); uerr != nil {
			_ = conn.Hijack().Close(unlockCtx)
			return
		}
		conn.Release()
	}()
	// The whole work runs on the connection that holds the lock: one
	// connection per campaign being worked on, never a second one waited for.
	w := &work{e: e, conn: conn, q: q, id: id, log: e.log.With("campaign", id)}
	err = w.run(ctx)
	if err != nil && tokenRefused(err) {
		return w.refused(ctx)
	}
	if err != nil {
		return fmt.Errorf("campaign %d: %w", id, err)
	}
	return nil
}

// work is one campaign's work in one cycle.
type work struct {
	e         *Engine
	conn      *pgxpool.Conn
	q         *db.Queries
	id        int64
	log       *slog.Logger
	c         db.EngineCampaignLoadRow
	userToken string
	account   string
}

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
	if err := w.boost(ctx); err != nil {
		return err
	}
	return w.insights(ctx)
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
// error: a rate limit or a passing failure (ErrUnavailable) is tried again
// in a later cycle, and so is a refusal, which an operator must look at
// while the campaign may still spend on network_a.
func (w *work) pause(ctx context.Context) error {
	if w.c.NetworkAStatus != "ACTIVE" {
		return nil
	}
	if w.c.CampaignObjectID != nil {
		err := w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, map[string]any{"status": "PAUSED"})
		switch {
		case err == nil:
		case objectGone(err):
			w.log.Warn("engine: network_a no longer has the campaign: recorded as paused", "err", err)
		default:
			return fmt.Errorf("pausing the network_a campaign: %w", err)
		}
	}
	var posts int64
	err := inPostsTx(ctx, w.conn, w.c.UserID, func(q *db.Queries) (err error) {
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
		err := w.e.api.Update(ctx, w.userToken, *w.c.CampaignObjectID, map[string]any{"status": "ACTIVE"})
		if err != nil {
			return fmt.Errorf("resuming the network_a campaign: %w", err)
		}
	}
	var posts int64
	err := inPostsTx(ctx, w.conn, w.c.UserID, func(q *db.Queries) (err error) {
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
// that currency's minor unit; an account network_a no longer lists, or
// lists without a currency, stays unknown (two decimals) and is asked again
// next cycle.
func (w *work) learnCurrency(ctx context.Context) error {
	accounts, err := w.e.api.AdAccounts(ctx, w.userToken)
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
	err = w.e.api.Update(ctx, w.userToken, *w.c.AdsetObjectID, changes)
	if refusedByNetworkA(err) {
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

// boost boosts the posts that qualify and finishes the ads that an earlier
// cycle began (those need only the user's token: they are finished even
// when the page's token is missing or refused).
func (w *work) boost(ctx context.Context) error {
	candidates, err := w.candidates(ctx)
	if err != nil {
		return err
	}
	pending, err := w.q.NetworkAAttemptPendingAds(ctx, w.id)
	if err != nil {
		return err
	}
	if len(candidates) == 0 && len(pending) == 0 {
		return nil
	}
	adset, err := w.adSet(ctx)
	if err != nil || adset == "" {
		return err
	}
	// Ads an earlier cycle began first: each may exist on network_a.
	for _, p := range pending {
		var post Post
		if err := json.Unmarshal(p.Post, &post); err != nil {
			return err
		}
		if err := w.ad(ctx, adset, p.PostID, post, p.Post); err != nil {
			return err
		}
	}
	for _, p := range candidates {
		if err := w.ad(ctx, adset, p.postID, p.post, p.raw); err != nil {
			return err
		}
	}
	return nil
}

// candidates reads the page's new posts with the page's token and answers
// those that qualify (rules 1 to 4). None when the page has no usable token:
// logged every cycle when there is none (the user signs in to store one),
// once when network_a refused it (see pageRefused).
func (w *work) candidates(ctx context.Context) ([]candidate, error) {
	if w.c.PageToken == nil {
		w.log.Warn("engine: campaign's posts not boosted: its page has no network_a token (the user signs in with network_a again to store one)", "page", w.c.PageID)
		return nil, nil
	}
	if w.c.PageTokenRefused {
		return nil, nil // logged when network_a refused it
	}
	pageToken, err := w.e.cipher.Open(w.c.PageToken)
	if err != nil {
		w.log.Warn("engine: campaign's posts not boosted: the page's stored token does not open with TOKEN_ENCRYPTION_KEY", "page", w.c.PageID)
		return nil, nil
	}
	candidates, err := w.pagePosts(ctx, pageToken)
	if tokenRefused(err) {
		// The page's token, not the user's: only this page's boosting stops.
		return nil, w.pageRefused(ctx, err)
	}
	return candidates, err
}

// pageRefused records that network_a refused the page's token: no post of
// the page is boosted until a sign-in stores a new token for it; the
// campaign's pause, ad set changes and statistics (user's token) go on.
// Logged once.
func (w *work) pageRefused(ctx context.Context, refusal error) error {
	_, err := w.q.SourceAccessTokenRefused(ctx, db.SourceAccessTokenRefusedParams{UserID: w.c.UserID, ID: w.c.PageID, AccessToken: w.c.PageToken})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	w.log.Warn("engine: network_a refused the page's token (OAuth 190): the page's posts are not boosted until the user signs in with network_a again; pauses, ad set changes and statistics go on",
		"page", w.c.PageID, "err", refusal)
	return nil
}

// pagePosts reads the page's posts with the page's token and answers those
// that meet rules 1 to 4.
func (w *work) pagePosts(ctx context.Context, pageToken string) ([]candidate, error) {
	pageID := strconv.FormatInt(w.c.PageID, 10)
	since := time.Now().Add(-w.e.maxAge)
	posts, err := w.e.api.Posts(ctx, pageToken, pageID, since, MaxPosts)
	if err != nil {
		return nil, err
	}
	candidates, err := w.qualifying(ctx, posts, since)
	if err != nil {
		return nil, err
	}
	if len(candidates) > 0 && w.c.ReachPercent > 0 {
		followers, err := w.e.api.Followers(ctx, pageToken, pageID)
		if err != nil {
			return nil, err
		}
		kept := candidates[:0]
		for _, p := range candidates {
			reach, err := w.e.api.PostReach(ctx, pageToken, p.post.ID)
			if err != nil {
				return nil, err
			}
			if ReachQualifies(reach, followers, w.c.ReachPercent) {
				kept = append(kept, p)
			}
		}
		candidates = kept
	}
	return candidates, nil
}

// candidate is a post that meets rules 1 to 3.
type candidate struct {
	postID int64
	post   Post
	raw    json.RawMessage
}

// qualifying applies rules 1 to 3 (EngineQualifyingPosts) to the posts.
func (w *work) qualifying(ctx context.Context, posts []Post, since time.Time) ([]candidate, error) {
	type row struct {
		PostID    int64  `json:"post_id"`
		ID        string `json:"id"`
		Message   string `json:"message"`
		Permalink string `json:"permalink_url"`
		Picture   string `json:"full_picture"`
		Created   string `json:"created_time"`
	}
	rows := make([]row, 0, len(posts))
	for _, p := range posts {
		postID, ok := PostID(p.ID)
		if !ok {
			w.log.Warn("engine: post skipped: its id is not <page id>_<post id>", "post", p.ID)
			continue
		}
		rows = append(rows, row{postID, p.ID, p.Message, p.Permalink, p.Picture, p.Created.UTC().Format(time.RFC3339)})
	}
	if len(rows) == 0 {
		return nil, nil
	}
	arg, err := json.Marshal(rows)
	if err != nil {
		return nil, err
	}
	found, err := w.q.EngineQualifyingPosts(ctx, db.EngineQualifyingPostsParams{CampaignID: w.id, Since: since, Posts: arg})
	if err != nil {
		return nil, err
	}
	out := make([]candidate, 0, len(found))
	for _, f := range found {
		var r row
		if err := json.Unmarshal(f.Post, &r); err != nil {
			return nil, err
		}
		created, _ := time.Parse(time.RFC3339, r.Created)
		out = append(out, candidate{f.PostID, Post{ID: r.ID, Message: r.Message, Permalink: r.Permalink, Picture: r.Picture, Created: created}, f.Post})
	}
	return out, nil
}

// adSet answers the campaign's network_a ad set, creating the ad account's
// campaign and ad set at the first boost; "" when the user has no active ad
// account (logged).
func (w *work) adSet(ctx context.Context) (string, error) {
	if w.c.AdsetObjectID != nil {
		return *w.c.AdsetObjectID, nil
	}
	if w.account == "" {
		accounts, err := w.e.api.AdAccounts(ctx, w.userToken)
		if err != nil {
			return "", err
		}
		currency := ""
		for _, a := range accounts {
			if a.Status == 1 && a.ID != "" {
				w.account, currency = a.ID, a.Currency
				break
			}
		}
		if w.account == "" {
			w.log.Warn("engine: campaign skipped: the user has no active network_a ad account")
			return "", nil
		}
		if err := w.q.NetworkACampaignStart(ctx, db.NetworkACampaignStartParams{CampaignID: w.id, AdAccountID: w.account, Currency: currency}); err != nil {
			return "", err
		}
		// Another engine may have started it first with another account.
		c, err := w.q.EngineCampaignLoad(ctx, w.id)
		if err != nil {
			return "", err
		}
		if c.AdAccountID != nil {
			w.account = *c.AdAccountID
		}
	}
	name := fmt.Sprintf("adboost-%d", w.id)
	campaign := ""
	if w.c.CampaignObjectID != nil {
		campaign = *w.c.CampaignObjectID
	} else {
		// The campaign has no fields the engine keeps in step (its status
		// is pause's and resume's): one found by name needs nothing more.
		id, _, err := w.ensure(ctx, "campaign", 0, name, nil, map[string]any{
			"name":                  name,
			"objective":             w.c.Goal,
			"status":                "ACTIVE",
			"special_ad_categories": []string{},
		})
		if err != nil {
			return "", err
		}
		if err := w.q.NetworkAAttemptObjectDone(ctx, db.NetworkAAttemptObjectDoneParams{
			CampaignID: w.id, Kind: "campaign", ObjectID: id, AdsetFields: json.RawMessage(`{}`),
		}); err != nil {
			return "", err
		}
		campaign = id
		w.c.CampaignObjectID = &id
	}
	fields, err := w.q.NetworkACampaignAdSet(ctx, w.id)
	if err != nil {
		return "", err
	}
	body := map[string]any{}
	if err := json.Unmarshal(fields.Fields, &body); err != nil {
		return "", err
	}
	body["name"] = name
	body["campaign_id"] = campaign
	body["billing_event"] = "IMPRESSIONS"
	body["status"] = "ACTIVE"
	id, created, err := w.ensure(ctx, "adset", 0, name, nil, body)
	if err != nil {
		return "", err
	}
	// network_a has the fields sent now only when this call created the ad
	// set. One found by name was made by an earlier attempt, with the
	// fields of then (a save may have changed them since): what it has is
	// unknown ({}), so every field is sent to it, at once.
	synced := json.RawMessage(`{}`)
	if created {
		synced = fields.Fields
	}
	if err := w.q.NetworkAAttemptObjectDone(ctx, db.NetworkAAttemptObjectDoneParams{
		CampaignID: w.id, Kind: "adset", ObjectID: id, AdsetFields: synced,
	}); err != nil {
		return "", err
	}
	w.c.AdsetObjectID = &id
	if !created {
		if err := w.syncAdSet(ctx); err != nil {
			return "", err
		}
	}
	return id, nil
}

// ad boosts one post: its ad is created (or found, when an earlier attempt
// may have created it), then the post, its link to the campaign, the
// `boosted` history entry and the attempt's end are written in one
// statement.
func (w *work) ad(ctx context.Context, adset string, postID int64, post Post, raw json.RawMessage) error {
	name := fmt.Sprintf("adboost-%d-%d", w.id, postID)
	id, _, err := w.ensure(ctx, "ad", postID, name, raw, map[string]any{
		"name":     name,
		"adset_id": adset,
		"creative": map[string]any{"object_story_id": post.ID},
		"status":   "ACTIVE",
	})
	if refusedByNetworkA(err) {
		w.log.Warn("engine: network_a refused the post's ad; the post is not boosted", "post", postID, "err", err)
		return w.q.NetworkAAttemptAdRefused(ctx, db.NetworkAAttemptAdRefusedParams{CampaignID: w.id, PostID: postID})
	}
	if err != nil {
		return err
	}
	var recorded bool
	err = inPostsTx(ctx, w.conn, w.c.UserID, func(q *db.Queries) (err error) {
		recorded, err = q.NetworkAAttemptAdDone(ctx, db.NetworkAAttemptAdDoneParams{CampaignID: w.id, PostID: postID, AdID: id})
		return err
	})
	if err != nil {
		return err
	}
	w.log.Info("engine: post boosted", "post", postID, "ad", id, "recorded", recorded)
	return nil
}

// ensure answers the id of the object an attempt makes: the one recorded
// when the attempt is done; else, for an attempt begun before, the one
// network_a has under its name; else a new one, made with body (then
// created is true). The attempt is recorded (committed) before the create
// call.
func (w *work) ensure(ctx context.Context, kind string, postID int64, name string, post json.RawMessage, body map[string]any) (id string, created bool, err error) {
	a, err := w.q.NetworkAAttemptBegin(ctx, db.NetworkAAttemptBeginParams{
		CampaignID: w.id, Kind: kind, PostID: postID, Name: name, Post: post,
	})
	if err != nil {
		return "", false, err
	}
	if a.State == "done" && a.ObjectID != nil {
		return *a.ObjectID, false, nil
	}
	if a.Tries > 1 {
		id, found, err := w.e.api.Find(ctx, w.userToken, w.account, kind, name)
		if err != nil && !tokenRefused(err) && !errors.Is(err, ErrUnavailable) {
			// Whatever network_a answered to the lookup, it says nothing
			// about the create: try again later, never give the object up.
			err = fmt.Errorf("%w: looking up %s %s: %w", ErrUnavailable, kind, name, err)
		}
		if err != nil {
			return "", false, err
		}
		if found {
			w.log.Info("engine: found what an interrupted attempt created", "kind", kind, "name", name, "id", id)
			return id, false, nil
		}
	}
	id, err = w.e.api.Create(ctx, w.userToken, w.account, kind, body)
	return id, err == nil, err
}

// insights replaces the statistics of the campaign's ads (those of a running
// campaign, and those of posts stopped within 28 days) with network_a's.
func (w *work) insights(ctx context.Context) error {
	targets, err := w.q.NetworkAAdInsightTargets(ctx, w.id)
	if err != nil || len(targets) == 0 {
		return err
	}
	type row struct {
		PostID int64 `json:"post_id"`
		Insights
	}
	rows := make([]row, 0, len(targets))
	postIDs := make([]int64, 0, len(targets))
	for _, t := range targets {
		in, err := w.e.api.AdInsights(ctx, w.userToken, t.AdID)
		if refusedByNetworkA(err) {
			// network_a refuses this ad's statistics (e.g. the ad was
			// deleted there): its last ones stay, the others are read.
			w.log.Warn("engine: ad's statistics not available", "post", t.PostID, "ad", t.AdID, "err", err)
			continue
		}
		if err != nil {
			return err
		}
		rows = append(rows, row{t.PostID, in})
		postIDs = append(postIDs, t.PostID)
	}
	if len(rows) == 0 {
		return nil
	}
	arg, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, w.conn, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.NetworkAAdInsightReplace(ctx, db.NetworkAAdInsightReplaceParams{CampaignID: w.id, Insights: arg}); err != nil {
			return err
		}
		return q.BoostedPostInsightFromAds(ctx, postIDs)
	})
}

// ReachQualifies is rule 4 of CONTRACT §14: a post's organic reach × 100 is
// at least R percent of the page's followers.
func ReachQualifies(reach, followers int64, percent int32) bool {
	return reach*100 >= int64(percent)*followers
}

// PostID answers a post's id in adboost: the part of network_a's id after
// `_`, a positive integer.
func PostID(networkID string) (int64, bool) {
	_, after, found := strings.Cut(networkID, "_")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(after, 10, 64)
	return id, err == nil && id > 0
}

// inPostsTx runs fn in a transaction on conn after the lock of the user's
// boosted posts (NetworkACampaignPostsLock): the statements that start or
// stop posts shared between campaigns see each other's changes.
func inPostsTx(ctx context.Context, conn *pgxpool.Conn, userID int64, fn func(q *db.Queries) error) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.NetworkACampaignPostsLock(ctx, userID); err != nil {
			return err
		}
		return fn(q)
	})
}
