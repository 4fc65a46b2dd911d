package boost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	type attempt struct {
		PostID int64           `json:"post_id"`
		Name   string          `json:"name"`
		Post   json.RawMessage `json:"post"`
		row    postRow
	}
	var attempts []attempt
	seen := map[int64]bool{}
	add := func(postID int64, name string, raw json.RawMessage) error {
		a := attempt{PostID: postID, Name: name, Post: raw}
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
			if err := add(p.PostID, p.Name, p.Post); err != nil {
				return err
			}
		}
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
				if err := add(c.postID, "", c.raw); err != nil {
					return err
				}
				room--
			}
		}
	}
	if len(attempts) == 0 {
		return nil
	}
	// The ad set of each network the posts are on: created at the first
	// boost of each.
	adsets := map[string]string{}
	for _, a := range attempts {
		network := a.row.network()
		if _, ok := adsets[network]; ok {
			continue
		}
		adset, err := w.adSet(ctx, network)
		if networka.Refused(err) && w.out.blocked(err) {
			// The campaign is `refused` with network_a's message; the next
			// cycle tries again.
			w.log.Warn("engine: network_a refused the campaign or its ad set", "network", network, "err", err)
			return nil
		}
		if err != nil {
			w.out.blocked(err)
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
		CampaignID: w.id, Posts: arg, InFlightSeconds: w.e.inFlight.Seconds()})
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
	type refusal struct {
		PostID  int64  `json:"post_id"`
		Message string `json:"message"`
	}
	var done []made
	var refused []refusal // the posts' own: not tried again
	var withdrawn []int64 // not the posts' own: candidates again next cycle
	var failed error
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
			creative := map[string]any{"object_story_id": a.row.ID}
			if a.row.network() == networkB {
				creative = map[string]any{
					"source_instagram_media_id": a.row.ID,
					"instagram_user_id":         strconv.FormatInt(a.row.SourceID, 10),
				}
			}
			creates = append(creates, a)
			bodies = append(bodies, map[string]any{
				"name":     a.Name,
				"adset_id": adsets[a.row.network()],
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
			var api *networka.Error
			switch err := errs[i]; {
			case err == nil:
				done = append(done, made{a.PostID, ids[i]})
			case networka.Refused(err) && errors.As(err, &api) && api.Code == 100:
				// Code 100 on an ad's create is about the post itself (gone,
				// not boostable): its candidacy ends.
				w.log.Warn("engine: network_a refused the post's ad; the post is not boosted", "post", a.PostID, "err", err)
				refused = append(refused, refusal{a.PostID, api.Message})
			case networka.Refused(err):
				// Not the post's own (payment method, permissions, disabled
				// account, ad limit): the campaign is `refused` and the post
				// stays a candidate.
				w.out.blocked(err)
				withdrawn = append(withdrawn, a.PostID)
			default:
				w.out.blocked(err)
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

// keepFirst keeps the first error, preferring a refused token (which the
// caller acts on) to any other.
func keepFirst(first, next error) error {
	if first == nil || (networka.TokenRefused(next) && !networka.TokenRefused(first)) {
		return next
	}
	return first
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
	accounts, err := w.e.api.AdAccounts(ctx, w.userToken, networka.Scope{User: strconv.FormatInt(w.c.UserID, 10)})
	if err != nil {
		return "", err
	}
	if w.account != "" {
		if !slices.ContainsFunc(accounts, func(a networka.AdAccount) bool { return a.ID == w.account && a.Status == 1 }) {
			w.out.observe(StateNoAdAccount, "the campaign's ad account "+w.account+" is not active on network_a")
			return "", nil
		}
	}
	isB := network == networkB
	if !isB && w.c.AdsetObjectID != nil {
		return *w.c.AdsetObjectID, nil
	}
	if isB && w.c.AdsetBObjectID != nil {
		return *w.c.AdsetBObjectID, nil
	}
	if w.account == "" {
		currency := ""
		for _, a := range accounts {
			if a.Status == 1 && a.ID != "" {
				w.account, currency = a.ID, a.Currency
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
	}
	name := fmt.Sprintf("adboost-%d", w.id)
	campaign := ""
	if w.c.CampaignObjectID != nil {
		campaign = *w.c.CampaignObjectID
	} else {
		// The campaign's spend_cap is kept in step (its status is pause's
		// and resume's); one found by name gets it at once.
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
		body["special_ad_categories"] = []string{}
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
		campaign = id
		w.c.CampaignObjectID = &id
		if !created {
			if err := w.syncCampaign(ctx); err != nil {
				return "", err
			}
		}
	}
	fields, err := w.q.NetworkACampaignAdSet(ctx, db.NetworkACampaignAdSetParams{CampaignID: w.id, NetworkB: isB})
	if err != nil {
		return "", err
	}
	body := map[string]any{}
	if err := json.Unmarshal(fields.Fields, &body); err != nil {
		return "", err
	}
	kind, adsetName := "adset", name
	if isB {
		kind, adsetName = "adset_b", name+"-network_b"
	}
	body["name"] = adsetName
	body["campaign_id"] = campaign
	body["billing_event"] = "IMPRESSIONS"
	body["status"] = "ACTIVE"
	id, created, err := w.ensure(ctx, kind, adsetName, body)
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
