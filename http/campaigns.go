package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/jackc/pgx/v5"
	"reflect"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"adboost/db"
	"adboost/db/rules"
)

// Campaigns ("boosted pages"): every route answers only the signed-in user's
// campaigns; another user's is 404.

// budgetText is a decimal amount of a request: a JSON string ("20.50") or
// a number (20.5). null and "" leave it unset.
type budgetText struct {
	V   string
	Set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *budgetText) UnmarshalJSON(b []byte) error {
	*d = budgetText{}
	s := string(b)
	switch {
	case s == "null":
		return nil
	case strings.HasPrefix(s, `"`):
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	case s == "" || !strings.ContainsAny(s[:1], "-0123456789"):
		return &json.UnmarshalTypeError{Value: valueDesc(b), Type: reflect.TypeFor[string]()}
	}
	*d = budgetText{V: s, Set: true}
	return nil
}

// budgetAmount is a decimal greater than 0 with at most two decimals that
// fits numeric(12, 2).
var budgetAmount = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,2})?$`)

func campaignBudget(d budgetText) error {
	if !budgetAmount.MatchString(d.V) || strings.Trim(d.V, "0.") == "" {
		return badRequest("budget must be a decimal greater than 0 with at most two decimals, such as \"20.00\", not %q", d.V)
	}
	return nil
}

// campaignEndDate checks an end date: YYYY-MM-DD, today (UTC) or later.
func campaignEndDate(s string) (*string, error) {
	if s == "" {
		return nil, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, badRequest("end_date must be a date YYYY-MM-DD, not %q", s)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if d.Format(time.DateOnly) < today {
		return nil, badRequest("end_date %s is in the past (today is %s UTC)", s, today)
	}
	return &s, nil
}

// hashtagPattern is one tag as networks write them: an optional `#`, then
// letters, their combining marks and digits of any script, and `_` (Thai
// and Devanagari tags need the marks, and so does a decomposed "café").
var hashtagPattern = regexp.MustCompile(`^#?[\p{L}\p{M}\p{N}_]+$`)

// campaignHashtag trims the hashtag of a campaign and checks it: empty (no
// hashtag rule of the engine) or one tag. "#", "##", "#a b" or
// "#gym!" could never be matched as a whole tag; "#" alone used to turn the
// rule off, so that every post was boosted.
func campaignHashtag(s *string) error {
	*s = strings.TrimSpace(*s)
	switch {
	case utf8.RuneCountInString(*s) > 255:
		return badRequest("hashtag must be at most 255 characters long")
	case strings.ContainsRune(*s, 0):
		return badRequest("hashtag must not contain NUL characters")
	case *s != "" && !hashtagPattern.MatchString(*s):
		return badRequest("hashtag must be empty or one tag: an optional # then letters, digits or _, not %q", *s)
	}
	return nil
}

// checkCountries answers 400 naming the first country code of t that is not
// one of the service's countries.
func (s *Server) checkCountries(ctx context.Context, q *db.Queries, t *targeting) error {
	if t == nil || len(t.countries) == 0 {
		return nil
	}
	codes := make([]string, len(t.countries))
	for i, c := range t.countries {
		codes[i] = c.code
	}
	unknown, err := q.GeoCountriesUnknown(ctx, codes)
	if err != nil || len(unknown) == 0 {
		return err
	}
	for _, c := range t.countries {
		if c.code == unknown[0] {
			return badRequest("%s: %s is not an ISO 3166 country code", c.path, c.code)
		}
	}
	return badRequest("targeting: unknown country codes %s", strings.Join(unknown, ", "))
}

// campaignRules checks the `rules` of a save or create whole and answers
// their stored form; nil when the request has none (absent, null or "").
// An invalid rule is a 400 naming it, e.g. rules.hours.timezone.
func (s *Server) campaignRules(raw json.RawMessage) (json.RawMessage, error) {
	if absentJSON(raw) {
		return nil, nil
	}
	r, err := rules.Parse(raw, rules.Limits{PostMaxAge: s.cfg.PostMaxAge})
	var re *rules.Error
	if errors.As(err, &re) {
		return nil, badRequest("%s %s", re.In("rules"), re.Msg)
	}
	if err != nil {
		return nil, err
	}
	return r.JSON(), nil
}

// boostedPageDetail: GET /v1/boosted-pages/detail/{id}.
func (s *Server) boostedPageDetail(ctx context.Context, req *pathID) (json.RawMessage, error) {
	return s.q.CampaignBoostedPage(ctx, db.CampaignBoostedPageParams{UserID: userID(ctx), ID: req.id})
}

// absentJSON tells whether a member of a request is absent: missing, null or
// "".
func absentJSON(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null" || t == `""`
}

// campaignSaveRequest is the body of boosted-pages/save. Every field is
// optional: an absent one keeps the campaign's value. `active` is an
// addition: it pauses or resumes the campaign.
type campaignSaveRequest struct {
	pathID
	Budget    budgetText      `json:"budget"`
	Targeting json.RawMessage `json:"targeting"`
	Hashtag   string          `json:"hashtag"`
	EndDate   string          `json:"end_date"`
	Active    Bool            `json:"active"`
	// PromotedObject is an addition: passed to the ad set as is (CONVERSIONS
	// and APP_INSTALLS campaigns need one).
	PromotedObject json.RawMessage `json:"promoted_object"`
	// Rules is an addition: given, they replace the campaign's rules whole
	// ({} turns every rule off); absent, null or "" keeps them.
	Rules json.RawMessage `json:"rules"`
	// SpecialAdCategories is an addition: given ([] for none), they replace
	// the campaign's; absent, null or "" keeps them.
	SpecialAdCategories json.RawMessage `json:"special_ad_categories"`
	// DSABeneficiary and DSAPayor are additions: a string sets, null clears,
	// absent keeps.
	DSABeneficiary dsaText `json:"dsa_beneficiary"`
	DSAPayor       dsaText `json:"dsa_payor"`
	// AdAccountID is an addition: the network_a ad account ("act_…") the
	// campaign spends through, one of the user's that may boost; absent,
	// null or "" keeps the campaign's. It is fixed once the campaign has
	// boosted.
	AdAccountID string `json:"ad_account_id"`

	targeting      *targeting
	endDate        *string
	promotedObject json.RawMessage
	categories     []string // nil: kept
}

func (r *campaignSaveRequest) validate() error {
	if err := r.validateNetworkAFields(); err != nil {
		return err
	}
	if r.Budget.Set {
		if err := campaignBudget(r.Budget); err != nil {
			return err
		}
	}
	if !absentJSON(r.Targeting) {
		t, err := parseTargeting(r.Targeting)
		if err != nil {
			return err
		}
		r.targeting = t
	}
	if err := campaignHashtag(&r.Hashtag); err != nil {
		return err
	}
	d, err := campaignEndDate(strings.TrimSpace(r.EndDate))
	r.endDate = d
	if err != nil {
		return err
	}
	r.promotedObject, err = campaignPromotedObject(r.PromotedObject)
	return err
}

// validateNetworkAFields checks the fields network_a requires of a campaign
// today: the form of its ad account's id, its special ad categories and its
// DSA beneficiary and payor.
func (r *campaignSaveRequest) validateNetworkAFields() (err error) {
	r.AdAccountID = strings.TrimSpace(r.AdAccountID)
	if err := checkAdAccountID(r.AdAccountID); err != nil {
		return err
	}
	if r.categories, err = parseAdCategories(r.SpecialAdCategories); err != nil {
		return err
	}
	if err := r.DSABeneficiary.check("dsa_beneficiary"); err != nil {
		return err
	}
	return r.DSAPayor.check("dsa_payor")
}

// maxPromotedObject bounds the promoted object a campaign keeps.
const maxPromotedObject = 8 << 10

// campaignPromotedObject checks the optional promoted_object: a JSON object
// of at most 8 KiB that jsonb and a browser hold as sent, kept and passed to
// the ad set as is; nil when absent.
func campaignPromotedObject(raw json.RawMessage) (json.RawMessage, error) {
	if absentJSON(raw) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, badRequest("promoted_object must be a JSON object, e.g. {\"pixel_id\": \"123\", \"custom_event_type\": \"PURCHASE\"}")
	}
	if len(raw) > maxPromotedObject {
		return nil, badRequest("promoted_object is larger than %d bytes", maxPromotedObject)
	}
	if err := checkStorableJSON("promoted_object", raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// boostedPageSave: POST /v1/boosted-pages/save/{id}. Validates everything
// first, then writes the campaign and its history entries in one statement.
func (s *Server) boostedPageSave(ctx context.Context, req *campaignSaveRequest) (bool, error) {
	campaignRules, err := s.campaignRules(req.Rules)
	if err != nil {
		return false, err
	}
	if err := s.checkCountries(ctx, s.q, req.targeting); err != nil {
		return false, err
	}
	account, err := s.saveAdAccount(ctx, req)
	if err != nil {
		return false, err
	}
	p := req.params(userID(ctx), campaignRules)
	p.AdAccountID, p.AdAccountName, p.AdAccountCurrency, p.AdAccountTimezone = account.ID, account.Name, account.Currency, account.Timezone
	// The campaign, its history and, when it stops, its engine state and
	// its pause on network_a: one transaction.
	err = s.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := req.checkAsSaved(ctx, q); err != nil {
			return err
		}
		saved, err := q.CampaignSave(ctx, p)
		if err != nil {
			return err
		}
		switch {
		case saved.AdAccountFixed:
			return errAdAccountFixed
		case saved.EndDateMissing:
			return badRequest("end_date is required: the campaign has a lifetime budget")
		case saved.EndDatePassed:
			return badRequest("end_date %s has passed (today is %s UTC); set a later end_date to resume the campaign",
				saved.EndDate, time.Now().UTC().Format(time.DateOnly))
		}
		if !saved.ActiveChanged {
			return nil
		}
		state, err := q.EngineStateAfterSave(ctx, db.EngineStateAfterSaveParams{UserID: p.UserID, CampaignID: p.ID})
		if err != nil {
			return err
		}
		if state == "pausing" {
			return s.enqueuePauses(ctx, tx, []int64{p.ID})
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	return true, nil
}

// errAdAccountFixed answers a save that names another ad account than the
// one the campaign's network_a campaign was made in.
var errAdAccountFixed = conflict("ad_account_id: the ad account is fixed once the campaign has boosted")

// saveAdAccount answers the ad account a save chooses, as network_a
// describes it (none when the save names none): 409 when the campaign has
// boosted in another one, 400 when it is not one of the user's accounts
// that may boost, 404 when the user has no such campaign.
func (s *Server) saveAdAccount(ctx context.Context, req *campaignSaveRequest) (adAccountParams, error) {
	if req.AdAccountID == "" {
		return adAccountParams{}, nil
	}
	fixed, err := s.q.CampaignAdAccountFixed(ctx, db.CampaignAdAccountFixedParams{UserID: userID(ctx), ID: req.id})
	switch {
	case isNoRows(err):
		return adAccountParams{}, notFound("boosted page %d not found", req.id)
	case err != nil:
		return adAccountParams{}, err
	case fixed == req.AdAccountID:
		// The account it boosts in: nothing to choose, nothing to ask.
		return adAccountParams{}, nil
	case fixed != "":
		return adAccountParams{}, errAdAccountFixed
	}
	a, err := s.chosenAdAccount(ctx, userID(ctx), req.AdAccountID)
	if err != nil {
		return adAccountParams{}, err
	}
	return newAdAccountParams(a), nil
}

// params answers the CampaignSave parameters of the request: a nil one
// keeps the campaign's value.
func (r *campaignSaveRequest) params(uid int64, campaignRules json.RawMessage) db.CampaignSaveParams {
	p := db.CampaignSaveParams{
		UserID: uid, ID: r.id, EndDate: r.endDate, Rules: campaignRules, PromotedObject: r.promotedObject,
		SpecialAdCategories: r.categories,
		SetDsaBeneficiary:   r.DSABeneficiary.Set, DsaBeneficiary: r.DSABeneficiary.V,
		SetDsaPayor: r.DSAPayor.Set, DsaPayor: r.DSAPayor.V,
	}
	if r.Budget.Set {
		p.Budget = &r.Budget.V
	}
	if r.targeting != nil {
		p.Targeting = r.targeting.json
	}
	if r.Hashtag != "" {
		p.Hashtag = &r.Hashtag
	}
	if r.Active.Set {
		p.Active = &r.Active.V
	}
	return p
}

// checkAsSaved checks the rules that special ad categories and Advantage
// audience impose on the targeting, on the campaign as the save leaves it:
// the stored targeting or categories stand in for those the request keeps.
// A save that changes neither has nothing to check.
func (r *campaignSaveRequest) checkAsSaved(ctx context.Context, q *db.Queries) error {
	if r.targeting == nil && r.categories == nil {
		return nil
	}
	stored, err := q.CampaignSaveBasis(ctx, db.CampaignSaveBasisParams{UserID: userID(ctx), ID: r.id})
	if err != nil {
		return err
	}
	t, categories := stored.AudienceTargeting, stored.SpecialAdCategories
	if r.targeting != nil {
		t = r.targeting.json
	}
	if r.categories != nil {
		categories = r.categories
	}
	return checkTargetingRules(t, categories)
}

// campaignCreateRequest is the body of boosted-pages/create.
type campaignCreateRequest struct {
	PresetID   Int             `json:"preset_id"`
	PageID     Int             `json:"page_id"`
	NetworkBID Int             `json:"network_b_id"`
	Budget     budgetText      `json:"budget"`
	Targeting  json.RawMessage `json:"targeting"`
	Hashtag    string          `json:"hashtag"`
	EndDate    string          `json:"end_date"`
	// PromotedObject is an addition, as on save.
	PromotedObject json.RawMessage `json:"promoted_object"`
	// Rules is an addition: given, they replace the preset's default rules
	// whole ({} = no rules); absent, null or "" takes the preset's defaults.
	Rules json.RawMessage `json:"rules"`
	// SpecialAdCategories, DSABeneficiary and DSAPayor are additions, as on
	// save; absent, the campaign has no category and names neither.
	SpecialAdCategories json.RawMessage `json:"special_ad_categories"`
	DSABeneficiary      dsaText         `json:"dsa_beneficiary"`
	DSAPayor            dsaText         `json:"dsa_payor"`
	// AdAccountID is an addition, as on save; absent, the engine takes the
	// user's first usable account at the first boost.
	AdAccountID string `json:"ad_account_id"`

	targeting      *targeting
	endDate        *string
	promotedObject json.RawMessage
	categories     []string
}

func (r *campaignCreateRequest) validate() error {
	switch {
	case !r.PresetID.Set:
		return badRequest("preset_id is required")
	case r.PresetID.V <= 0:
		return badRequest("preset_id must be a positive integer")
	case r.PageID.Set && r.PageID.V < 0:
		return badRequest("page_id must be a positive integer")
	case r.NetworkBID.Set && r.NetworkBID.V < 0:
		return badRequest("network_b_id must be a positive integer")
	case r.PageID.V == 0 && r.NetworkBID.V == 0:
		return badRequest("page_id or network_b_id is required: the page or account the campaign runs on")
	case !r.Budget.Set:
		return badRequest("budget is required")
	}
	if err := campaignBudget(r.Budget); err != nil {
		return err
	}
	raw := r.Targeting
	if absentJSON(raw) {
		raw = json.RawMessage(`{}`)
	}
	t, err := parseTargeting(raw)
	if err != nil {
		return err
	}
	r.targeting = t
	if err := campaignHashtag(&r.Hashtag); err != nil {
		return err
	}
	if r.endDate, err = campaignEndDate(strings.TrimSpace(r.EndDate)); err != nil {
		return err
	}
	if r.promotedObject, err = campaignPromotedObject(r.PromotedObject); err != nil {
		return err
	}
	return r.validateNetworkAFields()
}

// validateNetworkAFields checks the form of the ad account's id, the
// special ad categories ([] when absent),
// the DSA beneficiary and payor, and the rules the categories and Advantage
// audience impose on the targeting.
func (r *campaignCreateRequest) validateNetworkAFields() (err error) {
	r.AdAccountID = strings.TrimSpace(r.AdAccountID)
	if err := checkAdAccountID(r.AdAccountID); err != nil {
		return err
	}
	if r.categories, err = parseAdCategories(r.SpecialAdCategories); err != nil {
		return err
	}
	if r.categories == nil {
		r.categories = []string{}
	}
	if err := r.DSABeneficiary.check("dsa_beneficiary"); err != nil {
		return err
	}
	if err := r.DSAPayor.check("dsa_payor"); err != nil {
		return err
	}
	return checkTargetingRules(r.targeting.json, r.categories)
}

// boostedPageCreate: POST /v1/boosted-pages/create. Creates the campaign
// with its history entry and answers it, in one transaction.
func (s *Server) boostedPageCreate(ctx context.Context, req *campaignCreateRequest) (json.RawMessage, error) {
	campaignRules, err := s.campaignRules(req.Rules)
	if err != nil {
		return nil, err
	}
	if err := s.checkCountries(ctx, s.q, req.targeting); err != nil {
		return nil, err
	}
	uid := userID(ctx)
	var account adAccountParams
	if req.AdAccountID != "" {
		a, err := s.chosenAdAccount(ctx, uid, req.AdAccountID)
		if err != nil {
			return nil, err
		}
		account = newAdAccountParams(a)
	}
	nonZero := func(n Int) *int64 {
		if n.V == 0 {
			return nil
		}
		return &n.V
	}
	p := db.CampaignCreateParams{
		UserID: uid, PresetID: req.PresetID.V, PageID: nonZero(req.PageID), NetworkBID: nonZero(req.NetworkBID),
		Budget: req.Budget.V, Targeting: req.targeting.json, Hashtag: req.Hashtag, EndDate: req.endDate,
		PromotedObject: req.promotedObject, Rules: campaignRules,
		SpecialAdCategories: req.categories, DsaBeneficiary: req.DSABeneficiary.V, DsaPayor: req.DSAPayor.V,
		AdAccountID: account.ID, AdAccountName: account.Name, AdAccountCurrency: account.Currency, AdAccountTimezone: account.Timezone,
	}
	var page json.RawMessage
	err = db.InTx(ctx, s.pool, func(q *db.Queries) error {
		id, err := q.CampaignCreate(ctx, p)
		if err != nil {
			return err
		}
		page, err = q.CampaignBoostedPage(ctx, db.CampaignBoostedPageParams{UserID: uid, ID: id})
		return err
	})
	if !isNoRows(err) {
		return page, err
	}
	why, err := s.q.CampaignCreateCheck(ctx, db.CampaignCreateCheckParams{
		UserID: uid, PresetID: p.PresetID, PageID: p.PageID, NetworkBID: p.NetworkBID,
	})
	switch {
	case err != nil:
		return nil, err
	case !why.PresetUsable:
		return nil, badRequest("preset_id %d is not a preset you may use (an active preset, public or of your agency)", p.PresetID)
	case !why.PageOwned: // another user's page, or none: existence is not revealed
		return nil, notFound("page_id %d is not one of your network_a pages", *p.PageID)
	case !why.NetworkBOwned:
		return nil, notFound("network_b_id %d is not one of your network_b accounts", *p.NetworkBID)
	}
	return nil, errors.New("boosted-pages/create: nothing created, yet the preset and the sources are usable")
}

// campaignFilter is the status/platform filter of sources and count.
type campaignFilter struct {
	Status   string `json:"status"`
	Platform string `json:"platform"`
}

func (f *campaignFilter) check() error {
	if err := textLimit("status", f.Status); err != nil {
		return err
	}
	if err := textLimit("platform", f.Platform); err != nil {
		return err
	}
	switch f.Status {
	case "":
		f.Status = "all"
	case "all", "active":
	default:
		return badRequest("status must be all or active, not %q", f.Status)
	}
	switch f.Platform {
	case "":
		f.Platform = "all"
	case "all", "network_a", "network_b":
	default:
		return badRequest("platform must be all, network_a or network_b, not %q", f.Platform)
	}
	return nil
}

type campaignSourcesRequest struct {
	campaignFilter
}

func (r *campaignSourcesRequest) validate() error { return r.check() }

// boostedPageSources: POST /v1/boosted-pages/sources, kept per campaign
// version (cachedForUser).
func (s *Server) boostedPageSources(ctx context.Context, req *campaignSourcesRequest) (encodedJSON, error) {
	params := db.CampaignSourcesParams{UserID: userID(ctx), Status: req.Status, Platform: req.Platform}
	return cachedForUser(ctx, s, cacheKey("sources", params), func() ([]json.RawMessage, error) {
		return s.q.CampaignSources(ctx, params)
	})
}

type campaignCountRequest struct {
	campaignFilter
	SourceID      Int `json:"source_id"`
	BoostedPostID Int `json:"boosted_post_id"`
}

func (r *campaignCountRequest) validate() error {
	if r.SourceID.Set && r.SourceID.V <= 0 {
		return badRequest("source_id must be a positive integer")
	}
	if r.BoostedPostID.Set && r.BoostedPostID.V <= 0 {
		return badRequest("boosted_post_id must be a positive integer")
	}
	return r.check()
}

// boostedPageCount: POST /v1/boosted-pages/count, kept per campaign version
// (cachedForUser).
func (s *Server) boostedPageCount(ctx context.Context, req *campaignCountRequest) (encodedJSON, error) {
	params := db.CampaignCountParams{
		UserID: userID(ctx), Status: req.Status, Platform: req.Platform,
		SourceID: req.SourceID.Ptr(), BoostedPostID: req.BoostedPostID.Ptr(),
	}
	return cachedForUser(ctx, s, cacheKey("boosted-pages/count", params), func() (int64, error) {
		return s.q.CampaignCount(ctx, params)
	})
}

// boostedPageSourceDetail: GET /v1/boosted-pages/source-detail/{id}.
func (s *Server) boostedPageSourceDetail(ctx context.Context, req *pathID) (json.RawMessage, error) {
	return s.q.CampaignSourceDetail(ctx, db.CampaignSourceDetailParams{UserID: userID(ctx), SourceID: req.id})
}

type deleteSourceResult struct {
	Success bool `json:"success"`
}

// boostedPageDeleteSource: DELETE /v1/boosted-pages/delete-source/{id}.
// The campaigns go, and the pauses of those that run on network_a are
// enqueued, in one transaction.
func (s *Server) boostedPageDeleteSource(ctx context.Context, req *pathID) (deleteSourceResult, error) {
	var res db.CampaignSourceDeleteRow
	err := s.inTx(ctx, func(tx pgx.Tx, q *db.Queries) (err error) {
		res, err = q.CampaignSourceDelete(ctx, db.CampaignSourceDeleteParams{UserID: userID(ctx), SourceID: req.id})
		if err != nil {
			return err
		}
		return s.enqueuePauses(ctx, tx, res.ToPause)
	})
	if err != nil {
		return deleteSourceResult{}, err
	}
	if res.Deleted == 0 && !res.KnownSource {
		return deleteSourceResult{}, notFound("source %d not found", req.id)
	}
	return deleteSourceResult{Success: true}, nil
}

// boostedPageHistory: GET /v1/boosted-pages/history/{id}.
func (s *Server) boostedPageHistory(ctx context.Context, req *pathID) (json.RawMessage, error) {
	h, err := s.q.CampaignHistoryList(ctx, db.CampaignHistoryListParams{UserID: userID(ctx), CampaignID: req.id})
	if isNoRows(err) {
		return nil, notFound("boosted page %d not found", req.id)
	}
	return h, err
}

type accessData struct {
	Email string `json:"email"`
}

// boostedPageAccessData: GET /v1/boosted-pages/access-data/{id}.
func (s *Server) boostedPageAccessData(ctx context.Context, req *pathID) (accessData, error) {
	email, err := s.q.CampaignAccessEmail(ctx, db.CampaignAccessEmailParams{
		UserID: userID(ctx), ID: req.id, Fallback: s.cfg.AdvertiserAccessEmail,
	})
	return accessData{Email: email}, err
}
