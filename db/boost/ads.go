package boost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"adboost/auth/networka"
	"adboost/db"
)

// boost makes the ads of the posts that qualify, and finishes those that an
// earlier cycle began (their ads need only the user's token: they are
// finished even when the page's token is missing or refused). Every attempt
// is recorded before the calls, and only while the campaign still runs; an
// attempt an earlier call may have reached network_a with is looked up by
// name first. The creates and look-ups go out together, oldest post first;
// the ads made are recorded in one statement, even when others failed.
func (w *work) boost(ctx context.Context, candidates []candidate) error {
	if len(candidates) == 0 && w.c.PendingAds == 0 {
		return nil
	}
	r := &adRound{}
	if err := w.collect(ctx, r, candidates); err != nil || len(r.attempts) == 0 {
		return err
	}
	if ok, err := w.adSets(ctx, r); !ok || err != nil {
		return err
	}
	if ok, err := w.begin(ctx, r); !ok || err != nil {
		return err
	}
	if err := w.postAdSets(ctx, r); err != nil {
		return err
	}
	w.lookUp(ctx, r)
	if err := w.create(ctx, r); err != nil {
		return err
	}
	if err := w.recordAds(ctx, r); err != nil {
		return err
	}
	return r.failed
}

// adRound is one boost's ads: the attempts, the ad sets they go into, what
// network_a answered, and the first passing failure (failed).
type adRound struct {
	attempts  []attempt
	seen      map[int64]bool                          // the posts of attempts
	adsets    map[string]string                       // by network; "" holds the network_a campaign
	state     map[int64]db.NetworkAAttemptBeginAdsRow // the attempts begun, by post
	postSets  map[int64]string                        // the posts' own ad sets
	found     map[int64]string                        // looked up: the ad's id, "?" when the look-up failed
	done      []madeAd                                // ads made or found
	refused   []refusal                               // the posts' own refusals: not tried again
	withdrawn []int64                                 // not the posts' own: candidates again next cycle
	failed    error
}

// madeAd is an ad network_a made for a post.
type madeAd struct {
	PostID int64  `json:"post_id"`
	AdID   string `json:"ad_id"`
}

// add adds an attempt of the post (raw: the post as the rules' statement
// answered it), named adName unless name is given.
func (w *work) add(r *adRound, postID int64, name string, raw json.RawMessage, budget *string, ends *time.Time) error {
	a := attempt{PostID: postID, Name: name, Post: raw, Budget: budget, EndsAt: ends}
	if err := json.Unmarshal(raw, &a.row); err != nil {
		return err
	}
	if a.Name == "" {
		a.Name = adName(w.id, postID, a.row)
	}
	r.attempts = append(r.attempts, a)
	r.seen[postID] = true
	return nil
}

// collect gathers the round's attempts: those an earlier cycle left
// unfinished, then new boosts, oldest post first, as many as the rules
// leave room for. With post_budget, each new boost gets an ad set of its
// own, ending post_days after the boost.
func (w *work) collect(ctx context.Context, r *adRound, candidates []candidate) error {
	r.seen = map[int64]bool{}
	if w.c.PendingAds > 0 {
		pending, err := w.q.NetworkAAttemptPendingAds(ctx, w.id)
		if err != nil {
			return err
		}
		for _, p := range pending {
			var ends *time.Time
			if p.EndsAt.Valid {
				ends = &p.EndsAt.Time
			}
			var budget *string
			if p.Budget != "" {
				budget = &p.Budget
			}
			if err := w.add(r, p.PostID, p.Name, p.Post, budget, ends); err != nil {
				return err
			}
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	var budget *string
	var ends *time.Time
	if w.rules.PostBudget != nil && w.rules.PostDays != nil {
		t := w.now.Add(time.Duration(*w.rules.PostDays) * 24 * time.Hour).UTC().Truncate(time.Second)
		budget, ends = w.rules.PostBudget, &t
	}
	room, err := w.room(ctx)
	if err != nil {
		return err
	}
	for _, c := range candidates {
		if room == 0 {
			break
		}
		if !r.seen[c.postID] {
			if err := w.add(r, c.postID, "", c.raw, budget, ends); err != nil {
				return err
			}
			room--
		}
	}
	return nil
}

// adSets finds or makes the ad set of each network the posts are on,
// created at the first boost of each; posts with a budget of their own need
// only the network_a campaign here (their ad sets come after their
// attempts). It answers false when the ads cannot be made this cycle (the
// campaign is refused, needs setup or has no ad account: the state says).
func (w *work) adSets(ctx context.Context, r *adRound) (bool, error) {
	r.adsets = map[string]string{}
	for _, a := range r.attempts {
		network := a.row.network()
		if a.Budget != nil {
			network = ""
		}
		if _, ok := r.adsets[network]; ok {
			continue
		}
		var adset string
		var err error
		if network == "" {
			adset, err = w.campaignObject(ctx)
		} else {
			adset, err = w.adSet(ctx, network)
		}
		if networka.Refused(err) && w.blocked(err) {
			// The campaign is `refused` with network_a's words; the next
			// cycle tries again.
			w.log.Warn("engine: network_a refused the campaign or its ad set", "network", network, "err", err)
			return false, nil
		}
		if err != nil {
			w.blocked(err)
			return false, err
		}
		if adset == "" {
			return false, nil
		}
		r.adsets[network] = adset
	}
	return true, nil
}

// begin records the round's attempts (NetworkAAttemptBeginAds) before any
// ad is sent; false when the campaign stopped meanwhile.
func (w *work) begin(ctx context.Context, r *adRound) (bool, error) {
	arg, err := json.Marshal(r.attempts)
	if err != nil {
		return false, err
	}
	begun, err := w.q.NetworkAAttemptBeginAds(ctx, db.NetworkAAttemptBeginAdsParams{
		CampaignID: w.id, Kind: "ad", Posts: arg, InFlightSeconds: w.e.inFlight.Seconds(), BoostedAt: w.now})
	if err != nil {
		return false, err
	}
	if len(begun) == 0 {
		w.log.Info("engine: campaign stopped while its posts were read: no ad made")
		return false, nil
	}
	r.state = make(map[int64]db.NetworkAAttemptBeginAdsRow, len(begun))
	for _, b := range begun {
		r.state[b.PostID] = b
	}
	return true, nil
}

// postAdSets makes the ad sets of their own of the posts with a budget
// whose ad is still to be made; a post left without one waits.
func (w *work) postAdSets(ctx context.Context, r *adRound) error {
	var own []attempt
	for _, a := range r.attempts {
		if b, ok := r.state[a.PostID]; ok && b.State == "pending" && a.Budget != nil {
			own = append(own, a)
		}
	}
	r.postSets = map[int64]string{}
	if len(own) == 0 {
		return nil
	}
	sets, gone, failed, err := w.ownAdSets(ctx, r.adsets[""], own)
	if err != nil {
		return err
	}
	r.postSets, r.failed = sets, failed
	r.withdrawn = append(r.withdrawn, gone...)
	for _, a := range own {
		if r.postSets[a.PostID] == "" {
			delete(r.state, a.PostID) // its ad waits for its ad set
		}
	}
	return nil
}

// lookUp looks up the ads an earlier call may have made; an attempt whose
// create may still be on its way waits for a later cycle.
func (w *work) lookUp(ctx context.Context, r *adRound) {
	var lookups []attempt
	for _, a := range r.attempts {
		b, ok := r.state[a.PostID]
		switch {
		case !ok || b.State != "pending":
		case b.InFlight:
			r.failed = keepFirst(r.failed, fmt.Errorf("%w: the create of ad %s may still be on its way", networka.ErrUnavailable, a.Name))
			delete(r.state, a.PostID)
		case b.Tries > 1:
			lookups = append(lookups, a)
		}
	}
	r.found = map[int64]string{}
	if len(lookups) == 0 {
		return
	}
	names := make([]string, len(lookups))
	for i, a := range lookups {
		names[i] = a.Name
	}
	ids, errs := w.e.api.FindMany(ctx, w.userToken, "ad", names, w.scope())
	for i, a := range lookups {
		switch {
		case errs[i] != nil:
			// Whatever network_a answered to the look-up, it says nothing
			// about the create: try again later, never give the ad up.
			r.failed = keepFirst(r.failed, fmt.Errorf("%w: looking up ad %s: %w", networka.ErrUnavailable, a.Name, errs[i]))
			r.found[a.PostID] = "?"
		case ids[i] != "":
			w.log.Info("engine: found what an interrupted attempt created", "kind", "ad", "name", a.Name, "id", ids[i])
			r.found[a.PostID] = ids[i]
		}
	}
}

// create sends the creates of the ads still to be made, each recorded as
// sent first, and sorts out the answers.
func (w *work) create(ctx context.Context, r *adRound) error {
	var creates []attempt
	var bodies []map[string]any
	for _, a := range r.attempts {
		b, ok := r.state[a.PostID]
		switch {
		case !ok || b.State == "refused":
		case b.State == "done" && b.ObjectID != nil:
		case r.found[a.PostID] == "?":
		case r.found[a.PostID] != "":
			r.done = append(r.done, madeAd{a.PostID, r.found[a.PostID]})
		default:
			adset := r.adsets[a.row.network()]
			if a.Budget != nil {
				adset = r.postSets[a.PostID]
			}
			creates = append(creates, a)
			bodies = append(bodies, map[string]any{"name": a.Name, "adset_id": adset, "creative": w.creative(a.row), "status": "ACTIVE"})
		}
	}
	if len(creates) == 0 {
		return nil
	}
	sent := make([]int64, len(creates))
	for i, a := range creates {
		sent[i] = a.PostID
	}
	if err := w.q.NetworkAAttemptsSent(ctx, db.NetworkAAttemptsSentParams{CampaignID: w.id, Kind: "ad", PostIds: sent}); err != nil {
		return err
	}
	ids, errs := w.e.api.CreateMany(ctx, w.userToken, "ad", bodies, w.scope())
	answered := w.answers(r, creates, ids, errs)
	if len(answered) == 0 {
		return nil
	}
	return w.q.NetworkAAttemptsAnswered(ctx, db.NetworkAAttemptsAnsweredParams{CampaignID: w.id, Kind: "ad", PostIds: answered})
}

// answers sorts out network_a's answers to the ads' creates: made; refused
// for the post's own reason (its candidacy ends); refused for the
// campaign's (payment method, permissions, disabled account, ad limit, a
// parameter: the campaign is `refused` and the post stays a candidate); or
// failed for now. It answers the creates that were answered with a passing
// error or never sent (not on their way).
func (w *work) answers(r *adRound, creates []attempt, ids []string, errs []error) (answered []int64) {
	for i, a := range creates {
		switch err := errs[i]; {
		case err == nil:
			r.done = append(r.done, madeAd{a.PostID, ids[i]})
		case networka.PostRefused(err):
			w.log.Warn("engine: network_a refused the post's ad; the post is not boosted", "post", a.PostID, "err", err)
			r.refused = append(r.refused, newRefusal(a.PostID, err))
		case networka.Refused(err):
			w.blocked(err)
			r.withdrawn = append(r.withdrawn, a.PostID)
		default:
			w.blocked(err)
			r.failed = keepFirst(r.failed, err)
			if networka.Settled(err) {
				answered = append(answered, a.PostID)
			}
		}
	}
	return answered
}

// recordAds records the round's outcome: the ads made (with their posts,
// under the lock of the user's posts), the posts refused for their own
// reason, and the attempts withdrawn.
func (w *work) recordAds(ctx context.Context, r *adRound) error {
	if len(r.done) > 0 {
		arg, err := json.Marshal(r.done)
		if err != nil {
			return err
		}
		var recorded int64
		err = inPostsTx(ctx, w.e.pool, w.c.UserID, func(q *db.Queries) (err error) {
			recorded, err = q.NetworkAAttemptAdsDone(ctx, db.NetworkAAttemptAdsDoneParams{CampaignID: w.id, Ads: arg})
			return err
		})
		if err != nil {
			return err
		}
		w.log.Info("engine: posts boosted", "ads", len(r.done), "recorded", recorded)
	}
	if len(r.refused) > 0 {
		arg, err := json.Marshal(r.refused)
		if err != nil {
			return err
		}
		if err := w.q.NetworkAAttemptAdsRefused(ctx, db.NetworkAAttemptAdsRefusedParams{CampaignID: w.id, Refused: arg}); err != nil {
			return err
		}
	}
	if len(r.withdrawn) > 0 {
		return w.q.NetworkAAttemptAdsWithdrawn(ctx, db.NetworkAAttemptAdsWithdrawnParams{CampaignID: w.id, PostIds: r.withdrawn})
	}
	return nil
}

// refusal is network_a's refusal of a post's ad for the post's own reason,
// as its post_refused history entry keeps it: network_a's words, its code,
// subcode and trace id.
type refusal struct {
	PostID  int64  `json:"post_id"`
	Message string `json:"message"`
	Code    int    `json:"code"`
	Subcode int    `json:"subcode,omitempty"`
	TraceID string `json:"fbtrace_id,omitempty"`
}

func newRefusal(postID int64, err error) refusal {
	r := refusal{PostID: postID, Message: networka.UserText(err)}
	var api *networka.Error
	if errors.As(err, &api) {
		r.Code, r.Subcode, r.TraceID = api.Code, api.Subcode, api.TraceID
	}
	return r
}

// attempt is an ad the engine is about to make: the post's id in adboost,
// the ad's name, the post as the rules' statement answered it, and the
// post's own budget and end (post_budget, post_days) when it gets an ad
// set of its own.
type attempt struct {
	PostID int64           `json:"post_id"`
	Name   string          `json:"name"`
	Post   json.RawMessage `json:"post"`
	Budget *string         `json:"budget"`
	EndsAt *time.Time      `json:"ends_at"`
	row    postRow
}

// ownAdSets answers the ad sets of their own (adboost-<campaign id>-<post
// id>, in the network_a campaign `campaign`) of the posts whose ads are
// about to be made, making those that do not exist yet: each attempt is
// recorded before its create, an attempt begun before is looked up by name
// first, and one whose create may still be on its way waits. A post whose
// ad set network_a refuses for a reason that is not the post's own is
// answered in withdrawn (its ad's attempt goes: the post is a candidate
// again); a passing failure is answered as failed. A post without an ad set
// in the answer waits for a later cycle.
func (w *work) ownAdSets(ctx context.Context, campaign string, posts []attempt) (ids map[int64]string, withdrawn []int64, failed, err error) {
	r := &setRound{posts: posts, names: make([]string, len(posts)), ids: map[int64]string{}}
	for i, a := range posts {
		r.names[i] = fmt.Sprintf("adboost-%d-%d", w.id, a.PostID)
	}
	if err := w.beginSets(ctx, r); err != nil {
		return nil, nil, nil, err
	}
	w.lookUpSets(ctx, r)
	if len(r.creates) > 0 {
		bodies, ok, err := w.setBodies(ctx, r, campaign)
		if !ok || err != nil {
			return nil, nil, nil, err
		}
		if err := w.createSets(ctx, r, bodies); err != nil {
			return nil, nil, nil, err
		}
	}
	var made []map[string]any
	for _, a := range posts {
		if id := r.ids[a.PostID]; id != "" && r.state[a.PostID].State != "done" {
			made = append(made, map[string]any{"post_id": a.PostID, "adset_id": id})
		}
	}
	if len(made) > 0 {
		arg, err := json.Marshal(made)
		if err != nil {
			return nil, nil, nil, err
		}
		if err := w.q.NetworkAAttemptPostAdSetsDone(ctx, db.NetworkAAttemptPostAdSetsDoneParams{CampaignID: w.id, Adsets: arg}); err != nil {
			return nil, nil, nil, err
		}
	}
	return r.ids, r.withdrawn, r.failed, nil
}

// setRound is the posts' own ad sets of one boost: the posts and their ad
// sets' names (by index), the attempts begun, the ids known, the indexes
// of the posts to look up and to create, and what network_a answered.
type setRound struct {
	posts     []attempt
	names     []string
	state     map[int64]db.NetworkAAttemptBeginAdsRow
	ids       map[int64]string
	lookups   []int
	creates   []int
	withdrawn []int64
	failed    error
}

// beginSets records the ad sets' attempts and sorts them: done, on their
// way (they wait), to look up (begun before), or to create.
func (w *work) beginSets(ctx context.Context, r *setRound) error {
	type setAttempt struct {
		PostID int64  `json:"post_id"`
		Name   string `json:"name"`
	}
	sets := make([]setAttempt, len(r.posts))
	for i, a := range r.posts {
		sets[i] = setAttempt{a.PostID, r.names[i]}
	}
	arg, err := json.Marshal(sets)
	if err != nil {
		return err
	}
	begun, err := w.q.NetworkAAttemptBeginAds(ctx, db.NetworkAAttemptBeginAdsParams{
		CampaignID: w.id, Kind: "adset", Posts: arg, InFlightSeconds: w.e.inFlight.Seconds(), BoostedAt: w.now})
	if err != nil {
		return err
	}
	r.state = make(map[int64]db.NetworkAAttemptBeginAdsRow, len(begun))
	for _, b := range begun {
		r.state[b.PostID] = b
	}
	for i, a := range r.posts {
		b, ok := r.state[a.PostID]
		switch {
		case !ok:
		case b.State == "done" && b.ObjectID != nil:
			r.ids[a.PostID] = *b.ObjectID
		case b.InFlight:
			r.failed = keepFirst(r.failed, fmt.Errorf("%w: the create of ad set %s may still be on its way", networka.ErrUnavailable, r.names[i]))
		case b.Tries > 1:
			r.lookups = append(r.lookups, i)
		default:
			r.creates = append(r.creates, i)
		}
	}
	return nil
}

// lookUpSets looks up by name the ad sets an earlier call may have made;
// those network_a does not have are to create.
func (w *work) lookUpSets(ctx context.Context, r *setRound) {
	if len(r.lookups) == 0 {
		return
	}
	names := make([]string, len(r.lookups))
	for j, i := range r.lookups {
		names[j] = r.names[i]
	}
	found, errs := w.e.api.FindMany(ctx, w.userToken, "adset", names, w.scope())
	for j, i := range r.lookups {
		switch {
		case errs[j] != nil:
			r.failed = keepFirst(r.failed, fmt.Errorf("%w: looking up ad set %s: %w", networka.ErrUnavailable, r.names[i], errs[j]))
		case found[j] != "":
			w.log.Info("engine: found what an interrupted attempt created", "kind", "adset", "name", r.names[i], "id", found[j])
			r.ids[r.posts[i].PostID] = found[j]
		default:
			r.creates = append(r.creates, i)
		}
	}
}

// setBodies are the bodies of the ad sets to create, with one statement
// per network, budget and end (the posts of one cycle share them); false
// when an EU ad set lacks its DSA fields (needs_setup: nothing is sent,
// the posts wait for their ad sets).
func (w *work) setBodies(ctx context.Context, r *setRound, campaign string) ([]map[string]any, bool, error) {
	type key struct {
		b      bool
		budget string
		ends   time.Time
	}
	fields := map[key]map[string]any{}
	bodies := make([]map[string]any, len(r.creates))
	for j, i := range r.creates {
		a := r.posts[i]
		k := key{a.row.network() == networkB, *a.Budget, *a.EndsAt}
		if fields[k] == nil {
			f, err := w.q.NetworkACampaignAdSet(ctx, db.NetworkACampaignAdSetParams{CampaignID: w.id, NetworkB: k.b,
				PostBudget: a.Budget, PostEndsAt: pgtype.Timestamptz{Time: k.ends, Valid: true}})
			if err != nil {
				return nil, false, err
			}
			if f.DsaMissing != "" {
				w.out.observe(StateNeedsSetup, f.DsaMissing)
				return nil, false, nil
			}
			m := map[string]any{}
			if err := json.Unmarshal(f.Fields, &m); err != nil {
				return nil, false, err
			}
			fields[k] = m
		}
		body := maps.Clone(fields[k])
		body["name"] = r.names[i]
		body["campaign_id"] = campaign
		body["billing_event"] = "IMPRESSIONS"
		body["status"] = "ACTIVE"
		bodies[j] = body
	}
	return bodies, true, nil
}

// createSets sends the ad sets' creates, recorded as sent first, and sorts
// out the answers (network_a takes one ad set create of a campaign per
// batch request: the client sends the others again).
func (w *work) createSets(ctx context.Context, r *setRound, bodies []map[string]any) error {
	sent := make([]int64, len(r.creates))
	for j, i := range r.creates {
		sent[j] = r.posts[i].PostID
	}
	if err := w.q.NetworkAAttemptsSent(ctx, db.NetworkAAttemptsSentParams{CampaignID: w.id, Kind: "adset", PostIds: sent}); err != nil {
		return err
	}
	created, errs := w.e.api.CreateMany(ctx, w.userToken, "adset", bodies, w.scope())
	var answered []int64
	for j, i := range r.creates {
		post := r.posts[i].PostID
		switch err := errs[j]; {
		case err == nil:
			r.ids[post] = created[j]
		case networka.Refused(err):
			w.blocked(err)
			w.log.Warn("engine: network_a refused a post's ad set", "post", post, "err", err)
			r.withdrawn = append(r.withdrawn, post)
			answered = append(answered, post)
		default:
			w.blocked(err)
			r.failed = keepFirst(r.failed, err)
			if networka.Settled(err) {
				answered = append(answered, post)
			}
		}
	}
	if len(answered) == 0 {
		return nil
	}
	return w.q.NetworkAAttemptsAnswered(ctx, db.NetworkAAttemptsAnsweredParams{CampaignID: w.id, Kind: "adset", PostIds: answered})
}

// keepFirst keeps the first error, preferring a refused token (which the
// caller acts on) to any other.
func keepFirst(first, next error) error {
	if first == nil || (networka.TokenRefused(next) && !networka.TokenRefused(first)) {
		return next
	}
	return first
}

// creative is the creative of a post's ad: a network_a post by its id,
// with the page's network_b account when the ad set may deliver on
// network_b (network_a refuses it without); a network_b media by its id,
// its account and the page the account is linked to.
func (w *work) creative(p postRow) map[string]any {
	if p.network() == networkB {
		return map[string]any{
			"object_id":                 strconv.FormatInt(w.c.NetworkBPageID, 10),
			"instagram_user_id":         strconv.FormatInt(p.SourceID, 10),
			"source_instagram_media_id": p.ID,
		}
	}
	creative := map[string]any{"object_story_id": p.ID}
	if w.c.PostInstagramUserID != "" {
		creative["instagram_user_id"] = w.c.PostInstagramUserID
	}
	return creative
}

// adName is the name of a post's ad in a campaign: adboost-<campaign
// id>-<post id> for a network_a post, adboost-<campaign id>-b<media id>
// for a network_b media.
func adName(campaignID, postID int64, p postRow) string {
	if p.network() == networkB {
		return fmt.Sprintf("adboost-%d-b%s", campaignID, p.ID)
	}
	return fmt.Sprintf("adboost-%d-%d", campaignID, postID)
}

// adSet answers the campaign's ad set for the posts of network (network_a,
// or network_b: an ad set of its own), creating the ad account's campaign
// and the ad set at the first boost; "" when the campaign's ad account may
// not boost (`no_ad_account`, campaignObject).
func (w *work) adSet(ctx context.Context, network string) (string, error) {
	campaign, err := w.campaignObject(ctx)
	if campaign == "" || err != nil {
		return "", err
	}
	isB := network == networkB
	if !isB && w.c.AdsetObjectID != nil {
		return *w.c.AdsetObjectID, nil
	}
	if isB && w.c.AdsetBObjectID != nil {
		return *w.c.AdsetBObjectID, nil
	}
	fields, err := w.q.NetworkACampaignAdSet(ctx, db.NetworkACampaignAdSetParams{CampaignID: w.id, NetworkB: isB})
	if err != nil {
		return "", err
	}
	if fields.DsaMissing != "" {
		w.out.observe(StateNeedsSetup, fields.DsaMissing)
		return "", nil
	}
	body := map[string]any{}
	if err := json.Unmarshal(fields.Fields, &body); err != nil {
		return "", err
	}
	kind, name := "adset", fmt.Sprintf("adboost-%d", w.id)
	if isB {
		kind, name = "adset_b", name+"-network_b"
	}
	body["name"] = name
	body["campaign_id"] = campaign
	body["billing_event"] = "IMPRESSIONS"
	body["status"] = "ACTIVE"
	id, created, err := w.ensure(ctx, kind, name, body)
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
		CampaignID: w.id, Kind: kind, ObjectID: id, AdsetFields: synced,
	}); err != nil {
		return "", err
	}
	if isB {
		w.c.AdsetBObjectID = &id
	} else {
		w.c.AdsetObjectID = &id
	}
	if !created {
		if err := w.syncOne(ctx, id, isB); err != nil {
			return "", err
		}
	}
	return id, nil
}

// campaignObject answers the campaign's network_a campaign, creating it in
// the ad account at the first boost; "" when the campaign's ad account may
// not boost (`no_ad_account`, with its status in words): the account is
// the one the user chose, else the first usable one, fixed at the first
// boost and checked once a work whenever there is something to create.
func (w *work) campaignObject(ctx context.Context) (string, error) {
	if w.accountChecked && w.c.CampaignObjectID != nil {
		return *w.c.CampaignObjectID, nil
	}
	accounts, err := w.e.api.AdAccounts(ctx, w.userToken, networka.Scope{User: strconv.FormatInt(w.c.UserID, 10)})
	if err != nil {
		return "", err
	}
	if w.account != "" {
		a, ok := w.usableAccount(accounts, w.account, "the campaign's ad account")
		if !ok {
			return "", nil
		}
		if err := w.accountDefaults(ctx, a); err != nil {
			return "", err
		}
	}
	w.accountChecked = true
	if w.c.CampaignObjectID != nil {
		return *w.c.CampaignObjectID, nil
	}
	if w.account == "" {
		if ok, err := w.startAccount(ctx, accounts); !ok || err != nil {
			return "", err
		}
	}
	return w.createCampaign(ctx)
}

// usableAccount finds the ad account id (what: how the state's message
// names it) among the user's accounts; one network_a does not list, or
// whose status may not boost, is `no_ad_account` saying why.
func (w *work) usableAccount(accounts []networka.AdAccount, id, what string) (networka.AdAccount, bool) {
	i := slices.IndexFunc(accounts, func(a networka.AdAccount) bool { return a.ID == id })
	switch {
	case i < 0:
		w.out.observe(StateNoAdAccount, what+" "+id+" is not among the user's network_a ad accounts")
		return networka.AdAccount{}, false
	case !accounts[i].Usable():
		w.out.observe(StateNoAdAccount, what+" may not boost: "+accountWords(accounts[i]))
		return networka.AdAccount{}, false
	}
	return accounts[i], true
}

// startAccount fixes the campaign's ad account at its first boost: the one
// the user chose, else the first usable one of the user's (none:
// `no_ad_account`, each account's status in words; without a currency:
// `refused`), unless another engine fixed one first. The campaign keeps
// the account's name, currency and time zone.
func (w *work) startAccount(ctx context.Context, accounts []networka.AdAccount) (bool, error) {
	var chosen networka.AdAccount
	if w.c.ChosenAdAccountID != nil {
		a, ok := w.usableAccount(accounts, *w.c.ChosenAdAccountID, "the ad account chosen for the campaign")
		if !ok {
			return false, nil
		}
		chosen = a
	} else {
		i := slices.IndexFunc(accounts, func(a networka.AdAccount) bool { return a.Usable() && a.ID != "" })
		if i < 0 {
			w.out.observe(StateNoAdAccount, noUsableAccount(accounts))
			w.log.Warn("engine: no ad made: the user has no active network_a ad account")
			return false, nil
		}
		chosen = accounts[i]
	}
	if chosen.Currency == "" {
		w.out.observe(StateRefused, errNoCurrency)
		return false, nil
	}
	if err := w.q.NetworkACampaignStart(ctx, db.NetworkACampaignStartParams{CampaignID: w.id, AdAccountID: chosen.ID,
		Currency: chosen.Currency, Name: chosen.Name, Timezone: chosen.TimezoneName}); err != nil {
		return false, err
	}
	// Another engine may have started it first with another account.
	c, err := w.loadRow(ctx)
	if err != nil {
		return false, err
	}
	w.account = chosen.ID
	if c.AdAccountID != nil {
		w.account = *c.AdAccountID
	}
	w.c.AdAccountTimezone = c.AdAccountTimezone
	if w.account == chosen.ID {
		return true, w.accountDefaults(ctx, chosen)
	}
	return true, nil
}

// createCampaign finds or makes the campaign's network_a campaign in its
// ad account.
func (w *work) createCampaign(ctx context.Context) (string, error) {
	// The campaign's special ad categories and spend_cap are kept in step
	// (its status is pause's and resume's); one found by name gets them
	// at once.

	name := fmt.Sprintf("adboost-%d", w.id)
	fields, err := w.q.NetworkACampaignFields(ctx, w.id)
	if err != nil {
		return "", err
	}
	body := map[string]any{}
	if err := json.Unmarshal(fields.Fields, &body); err != nil {
		return "", err
	}
	body["name"] = name
	body["objective"] = w.c.Objective
	body["status"] = "ACTIVE"
	// Budgets live on the ad sets; network_a wants that said.
	body["is_adset_budget_sharing_enabled"] = false
	id, created, err := w.ensure(ctx, "campaign", name, body)
	if err != nil {
		return "", err
	}
	synced := json.RawMessage(`{}`)
	if created {
		synced = fields.Fields
	}
	if err := w.q.NetworkAAttemptObjectDone(ctx, db.NetworkAAttemptObjectDoneParams{
		CampaignID: w.id, Kind: "campaign", ObjectID: id, AdsetFields: synced,
	}); err != nil {
		return "", err
	}
	w.c.CampaignObjectID = &id
	if !created {
		if err := w.syncCampaign(ctx); err != nil {
			return "", err
		}
		return id, nil
	}
	// A campaign made now has no day yet: its days are first read an hour
	// on, the last 3 days being its whole life.
	return id, w.q.NetworkACampaignDaysRead(ctx, db.NetworkACampaignDaysReadParams{CampaignID: w.id, ReadAt: w.now})
}

// accountDefaults keeps the ad account's DSA defaults on the campaign's
// network_a campaign: an ad set does not send a field the account has a
// default for.
func (w *work) accountDefaults(ctx context.Context, a networka.AdAccount) error {
	return w.q.NetworkACampaignAccountDefaults(ctx, db.NetworkACampaignAccountDefaultsParams{
		CampaignID: w.id, Beneficiary: a.DefaultDSABeneficiary, Payor: a.DefaultDSAPayor})
}

// ensure answers the id of the campaign or ad set (kind: campaign, adset,
// or adset_b for the network_b ad set) an attempt makes:
// the one recorded when the attempt is done; else, for an attempt begun
// before, the one network_a has under its name; else a new one, made with
// body (then created is true). The attempt is recorded (committed) before
// the create call.
func (w *work) ensure(ctx context.Context, kind, name string, body map[string]any) (id string, created bool, err error) {
	a, err := w.q.NetworkAAttemptBegin(ctx, db.NetworkAAttemptBeginParams{
		CampaignID: w.id, Kind: kind, PostID: 0, Name: name, Post: nil, InFlightSeconds: w.e.inFlight.Seconds(),
	})
	if err != nil {
		return "", false, err
	}
	if a.State == "done" && a.ObjectID != nil {
		return *a.ObjectID, false, nil
	}
	if a.InFlight {
		return "", false, fmt.Errorf("%w: the create of %s %s may still be on its way", networka.ErrUnavailable, kind, name)
	}
	apiKind := strings.TrimSuffix(kind, "_b") // the network_b ad set is an ad set
	if a.Tries > 1 {
		id, found, err := w.e.api.Find(ctx, w.userToken, apiKind, name, w.scope())
		if err != nil && !networka.TokenRefused(err) && !errors.Is(err, networka.ErrUnavailable) {
			// Whatever network_a answered to the look-up, it says nothing
			// about the create: try again later, never give the object up.
			err = fmt.Errorf("%w: looking up %s %s: %w", networka.ErrUnavailable, kind, name, err)
		}
		if err != nil {
			return "", false, err
		}
		if found {
			w.log.Info("engine: found what an interrupted attempt created", "kind", kind, "name", name, "id", id)
			return id, false, nil
		}
	}
	if err := w.q.NetworkAAttemptsSent(ctx, db.NetworkAAttemptsSentParams{CampaignID: w.id, Kind: kind, PostIds: []int64{0}}); err != nil {
		return "", false, err
	}
	id, err = w.e.api.Create(ctx, w.userToken, apiKind, body, w.scope())
	if err != nil && networka.Settled(err) {
		// Answered, or never sent: nothing of it is on its way.
		if aerr := w.q.NetworkAAttemptsAnswered(ctx, db.NetworkAAttemptsAnsweredParams{CampaignID: w.id, Kind: kind, PostIds: []int64{0}}); aerr != nil {
			return "", false, aerr
		}
	}
	return id, err == nil, err
}
