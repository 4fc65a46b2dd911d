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
	var attempts []attempt
	seen := map[int64]bool{}
	add := func(postID int64, name string, raw json.RawMessage, budget *string, ends *time.Time) error {
		a := attempt{PostID: postID, Name: name, Post: raw, Budget: budget, EndsAt: ends}
		if err := json.Unmarshal(raw, &a.row); err != nil {
			return err
		}
		if a.Name == "" {
			a.Name = adName(w.id, postID, a.row)
		}
		attempts = append(attempts, a)
		seen[postID] = true
		return nil
	}
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
			if err := add(p.PostID, p.Name, p.Post, budget, ends); err != nil {
				return err
			}
		}
	}
	// With post_budget, each new boost gets an ad set of its own, ending
	// post_days after the boost.
	var budget *string
	var ends *time.Time
	if w.rules.PostBudget != nil && w.rules.PostDays != nil {
		t := w.now.Add(time.Duration(*w.rules.PostDays) * 24 * time.Hour).UTC().Truncate(time.Second)
		budget, ends = w.rules.PostBudget, &t
	}
	// New boosts, oldest post first, as many as the rules leave room for.
	if len(candidates) > 0 {
		room, err := w.room(ctx)
		if err != nil {
			return err
		}
		for _, c := range candidates {
			if room == 0 {
				break
			}
			if !seen[c.postID] {
				if err := add(c.postID, "", c.raw, budget, ends); err != nil {
					return err
				}
				room--
			}
		}
	}
	if len(attempts) == 0 {
		return nil
	}
	// The ad set of each network the posts are on, created at the first
	// boost of each; posts with a budget of their own need only the
	// network_a campaign here (their ad sets come after their attempts).
	adsets := map[string]string{}
	for _, a := range attempts {
		network := a.row.network()
		if a.Budget != nil {
			network = ""
		}
		if _, ok := adsets[network]; ok {
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
			// The campaign is `refused` with network_a's message; the next
			// cycle tries again.
			w.log.Warn("engine: network_a refused the campaign or its ad set", "network", network, "err", err)
			return nil
		}
		if err != nil {
			w.blocked(err)
			return err
		}
		if adset == "" {
			return nil
		}
		adsets[network] = adset
	}
	arg, err := json.Marshal(attempts)
	if err != nil {
		return err
	}
	begun, err := w.q.NetworkAAttemptBeginAds(ctx, db.NetworkAAttemptBeginAdsParams{
		CampaignID: w.id, Kind: "ad", Posts: arg, InFlightSeconds: w.e.inFlight.Seconds(), BoostedAt: w.now})
	if err != nil {
		return err
	}
	if len(begun) == 0 {
		w.log.Info("engine: campaign stopped while its posts were read: no ad made")
		return nil
	}
	state := make(map[int64]db.NetworkAAttemptBeginAdsRow, len(begun))
	for _, b := range begun {
		state[b.PostID] = b
	}
	type made struct {
		PostID int64  `json:"post_id"`
		AdID   string `json:"ad_id"`
	}

	var done []made
	var refused []refusal // the posts' own: not tried again
	var withdrawn []int64 // not the posts' own: candidates again next cycle
	var failed error
	// The ad sets of their own of the posts with a budget whose ad is still
	// to be made.
	var own []attempt
	for _, a := range attempts {
		if b, ok := state[a.PostID]; ok && b.State == "pending" && a.Budget != nil {
			own = append(own, a)
		}
	}
	postSets := map[int64]string{}
	if len(own) > 0 {
		var gone []int64
		postSets, gone, failed, err = w.ownAdSets(ctx, adsets[""], own)
		if err != nil {
			return err
		}
		withdrawn = append(withdrawn, gone...)
		for _, a := range own {
			if postSets[a.PostID] == "" {
				delete(state, a.PostID) // its ad waits for its ad set
			}
		}
	}
	// Look-ups of the attempts an earlier call may have completed; an
	// attempt whose create may still be on its way waits for a later cycle.
	var lookups []attempt
	for _, a := range attempts {
		b, ok := state[a.PostID]
		switch {
		case !ok || b.State != "pending":
		case b.InFlight:
			failed = keepFirst(failed, fmt.Errorf("%w: the create of ad %s may still be on its way", networka.ErrUnavailable, a.Name))
			delete(state, a.PostID)
		case b.Tries > 1:
			lookups = append(lookups, a)
		}
	}
	found := map[int64]string{}
	if len(lookups) > 0 {
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
				failed = keepFirst(failed, fmt.Errorf("%w: looking up ad %s: %w", networka.ErrUnavailable, a.Name, errs[i]))
				found[a.PostID] = "?"
			case ids[i] != "":
				w.log.Info("engine: found what an interrupted attempt created", "kind", "ad", "name", a.Name, "id", ids[i])
				found[a.PostID] = ids[i]
			}
		}
	}
	var creates []attempt
	var bodies []map[string]any
	for _, a := range attempts {
		b, ok := state[a.PostID]
		switch {
		case !ok || b.State == "refused":
		case b.State == "done" && b.ObjectID != nil:
		case found[a.PostID] == "?":
		case found[a.PostID] != "":
			done = append(done, made{a.PostID, found[a.PostID]})
		default:
			creative := w.creative(a.row)
			adset := adsets[a.row.network()]
			if a.Budget != nil {
				adset = postSets[a.PostID]
			}
			creates = append(creates, a)
			bodies = append(bodies, map[string]any{
				"name":     a.Name,
				"adset_id": adset,
				"creative": creative,
				"status":   "ACTIVE",
			})
		}
	}
	if len(creates) > 0 {
		sent := make([]int64, len(creates))
		for i, a := range creates {
			sent[i] = a.PostID
		}
		if err := w.q.NetworkAAttemptsSent(ctx, db.NetworkAAttemptsSentParams{CampaignID: w.id, Kind: "ad", PostIds: sent}); err != nil {
			return err
		}
		ids, errs := w.e.api.CreateMany(ctx, w.userToken, "ad", bodies, w.scope())
		var answered []int64 // creates answered with a passing error, or never sent: not on their way
		for i, a := range creates {
			switch err := errs[i]; {
			case err == nil:
				done = append(done, made{a.PostID, ids[i]})
			case networka.PostRefused(err):
				// About the post itself (gone, not boostable): its
				// candidacy ends.
				w.log.Warn("engine: network_a refused the post's ad; the post is not boosted", "post", a.PostID, "err", err)
				refused = append(refused, newRefusal(a.PostID, err))
			case networka.Refused(err):
				// Not the post's own (payment method, permissions, disabled
				// account, ad limit): the campaign is `refused` and the post
				// stays a candidate.
				w.blocked(err)
				withdrawn = append(withdrawn, a.PostID)
			default:
				w.blocked(err)
				failed = keepFirst(failed, err)
				if networka.Settled(err) {
					answered = append(answered, a.PostID)
				}
			}
		}
		if len(answered) > 0 {
			if err := w.q.NetworkAAttemptsAnswered(ctx, db.NetworkAAttemptsAnsweredParams{CampaignID: w.id, Kind: "ad", PostIds: answered}); err != nil {
				return err
			}
		}
	}
	if len(done) > 0 {
		arg, err := json.Marshal(done)
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
		w.log.Info("engine: posts boosted", "ads", len(done), "recorded", recorded)
	}
	if len(refused) > 0 {
		arg, err := json.Marshal(refused)
		if err != nil {
			return err
		}
		if err := w.q.NetworkAAttemptAdsRefused(ctx, db.NetworkAAttemptAdsRefusedParams{CampaignID: w.id, Refused: arg}); err != nil {
			return err
		}
	}
	if len(withdrawn) > 0 {
		if err := w.q.NetworkAAttemptAdsWithdrawn(ctx, db.NetworkAAttemptAdsWithdrawnParams{CampaignID: w.id, PostIds: withdrawn}); err != nil {
			return err
		}
	}
	return failed
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
	type setAttempt struct {
		PostID int64  `json:"post_id"`
		Name   string `json:"name"`
	}
	sets := make([]setAttempt, len(posts))
	for i, a := range posts {
		sets[i] = setAttempt{a.PostID, fmt.Sprintf("adboost-%d-%d", w.id, a.PostID)}
	}
	arg, err := json.Marshal(sets)
	if err != nil {
		return nil, nil, nil, err
	}
	begun, err := w.q.NetworkAAttemptBeginAds(ctx, db.NetworkAAttemptBeginAdsParams{
		CampaignID: w.id, Kind: "adset", Posts: arg, InFlightSeconds: w.e.inFlight.Seconds(), BoostedAt: w.now})
	if err != nil {
		return nil, nil, nil, err
	}
	state := make(map[int64]db.NetworkAAttemptBeginAdsRow, len(begun))
	for _, b := range begun {
		state[b.PostID] = b
	}
	ids = map[int64]string{}
	var lookups, creates []int
	for i, a := range posts {
		b, ok := state[a.PostID]
		switch {
		case !ok:
		case b.State == "done" && b.ObjectID != nil:
			ids[a.PostID] = *b.ObjectID
		case b.InFlight:
			failed = keepFirst(failed, fmt.Errorf("%w: the create of ad set %s may still be on its way", networka.ErrUnavailable, sets[i].Name))
		case b.Tries > 1:
			lookups = append(lookups, i)
		default:
			creates = append(creates, i)
		}
	}
	if len(lookups) > 0 {
		names := make([]string, len(lookups))
		for j, i := range lookups {
			names[j] = sets[i].Name
		}
		found, errs := w.e.api.FindMany(ctx, w.userToken, "adset", names, w.scope())
		for j, i := range lookups {
			switch {
			case errs[j] != nil:
				failed = keepFirst(failed, fmt.Errorf("%w: looking up ad set %s: %w", networka.ErrUnavailable, sets[i].Name, errs[j]))
			case found[j] != "":
				w.log.Info("engine: found what an interrupted attempt created", "kind", "adset", "name", sets[i].Name, "id", found[j])
				ids[posts[i].PostID] = found[j]
			default:
				creates = append(creates, i)
			}
		}
	}
	var made []map[string]any
	if len(creates) > 0 {
		// One statement per network, budget and end: the posts of one
		// cycle share them.
		type key struct {
			b      bool
			budget string
			ends   time.Time
		}
		fields := map[key]map[string]any{}
		bodies := make([]map[string]any, len(creates))
		sent := make([]int64, len(creates))
		for j, i := range creates {
			a := posts[i]
			k := key{a.row.network() == networkB, *a.Budget, *a.EndsAt}
			if fields[k] == nil {
				f, err := w.q.NetworkACampaignAdSet(ctx, db.NetworkACampaignAdSetParams{CampaignID: w.id, NetworkB: k.b,
					PostBudget: a.Budget, PostEndsAt: pgtype.Timestamptz{Time: k.ends, Valid: true}})
				if err != nil {
					return nil, nil, nil, err
				}
				if f.DsaMissing != "" {
					// Nothing is sent: the posts wait for their ad sets.
					w.out.observe(StateNeedsSetup, f.DsaMissing)
					return nil, nil, nil, nil
				}
				m := map[string]any{}
				if err := json.Unmarshal(f.Fields, &m); err != nil {
					return nil, nil, nil, err
				}
				fields[k] = m
			}
			body := maps.Clone(fields[k])
			body["name"] = sets[i].Name
			body["campaign_id"] = campaign
			body["billing_event"] = "IMPRESSIONS"
			body["status"] = "ACTIVE"
			bodies[j], sent[j] = body, a.PostID
		}
		if err := w.q.NetworkAAttemptsSent(ctx, db.NetworkAAttemptsSentParams{CampaignID: w.id, Kind: "adset", PostIds: sent}); err != nil {
			return nil, nil, nil, err
		}
		created, errs := w.e.api.CreateMany(ctx, w.userToken, "adset", bodies, w.scope())
		var answered []int64
		for j, i := range creates {
			switch err := errs[j]; {
			case err == nil:
				ids[posts[i].PostID] = created[j]
			case networka.Refused(err):
				w.blocked(err)
				w.log.Warn("engine: network_a refused a post's ad set", "post", posts[i].PostID, "err", err)
				withdrawn = append(withdrawn, posts[i].PostID)
				answered = append(answered, posts[i].PostID)
			default:
				w.blocked(err)
				failed = keepFirst(failed, err)
				if networka.Settled(err) {
					answered = append(answered, posts[i].PostID)
				}
			}
		}
		if len(answered) > 0 {
			if err := w.q.NetworkAAttemptsAnswered(ctx, db.NetworkAAttemptsAnsweredParams{CampaignID: w.id, Kind: "adset", PostIds: answered}); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	for _, a := range posts {
		if id := ids[a.PostID]; id != "" && state[a.PostID].State != "done" {
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
	return ids, withdrawn, failed, nil
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
// and the ad set at the first boost; "" when the campaign's ad account is
// not active (`no_ad_account`): the account is the first active one at the
// first boost, fixed from then on, and checked whenever there is something
// to create.
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
// the ad account at the first boost; "" when the campaign's ad account is
// not active (`no_ad_account`): the account is the first active one at the
// first boost, fixed from then on, and checked once a work whenever there
// is something to create.
func (w *work) campaignObject(ctx context.Context) (string, error) {
	if w.accountChecked && w.c.CampaignObjectID != nil {
		return *w.c.CampaignObjectID, nil
	}
	accounts, err := w.e.api.AdAccounts(ctx, w.userToken, networka.Scope{User: strconv.FormatInt(w.c.UserID, 10)})
	if err != nil {
		return "", err
	}
	if w.account != "" {
		i := slices.IndexFunc(accounts, func(a networka.AdAccount) bool { return a.ID == w.account && a.Usable() })
		if i < 0 {
			w.out.observe(StateNoAdAccount, "the campaign's ad account "+w.account+" is not active on network_a")
			return "", nil
		}
		if err := w.accountDefaults(ctx, accounts[i]); err != nil {
			return "", err
		}
	}
	w.accountChecked = true
	if w.c.CampaignObjectID != nil {
		return *w.c.CampaignObjectID, nil
	}
	if w.account == "" {
		currency := ""
		var chosen networka.AdAccount
		for _, a := range accounts {
			if a.Usable() && a.ID != "" {
				w.account, currency, chosen = a.ID, a.Currency, a
				break
			}
		}
		if w.account == "" {
			w.out.observe(StateNoAdAccount, "the user has no active network_a ad account")
			w.log.Warn("engine: no ad made: the user has no active network_a ad account")
			return "", nil
		}
		if currency == "" {
			w.out.observe(StateRefused, errNoCurrency)
			w.account = ""
			return "", nil
		}
		if err := w.q.NetworkACampaignStart(ctx, db.NetworkACampaignStartParams{CampaignID: w.id, AdAccountID: w.account, Currency: currency}); err != nil {
			return "", err
		}
		// Another engine may have started it first with another account.
		c, err := w.loadRow(ctx)
		if err != nil {
			return "", err
		}
		if c.AdAccountID != nil {
			w.account = *c.AdAccountID
		}
		if w.account == chosen.ID {
			if err := w.accountDefaults(ctx, chosen); err != nil {
				return "", err
			}
		}
	}
	// The campaign's spend_cap is kept in step (its status is pause's and
	// resume's); one found by name gets it at once.
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
	body["special_ad_categories"] = w.c.SpecialAdCategories
	if len(w.c.SpecialAdCategories) > 0 {
		body["special_ad_category_country"] = w.c.TargetingCountries
	}
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
	}
	return id, nil
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
