package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"

	"adboost/db"
)

func init() {
	register(section{key: "boosted_pages", loadWith: loadBoostedPages})
	register(section{key: "boosted_posts", load: loadBoostedPosts})
}

// boostedPageRow is a campaign of a data file. page_id and
// network_b_id are the networks' ids of the campaign's page and account; 0 or
// absent means none. Absent settings take the defaults of a new campaign;
// absent rules are none (a file's campaign does not take its preset's).
type boostedPageRow struct {
	ID                         int64           `json:"id"`
	UserID                     int64           `json:"user_id"`
	PageID                     *int64          `json:"page_id"`
	NetworkBID                 *int64          `json:"network_b_id"`
	PresetID                   *int64          `json:"preset_id"`
	Active                     *bool           `json:"active"`
	CampaignBudgetType         string          `json:"campaign_budget_type"`
	CampaignBudgetValue        string          `json:"campaign_budget_value"`
	AdsetBudgetSharingEnabled  bool            `json:"adset_budget_sharing_enabled"`
	CampaignBidStrategyEnabled bool            `json:"campaign_bid_strategy_enabled"`
	CampaignBidStrategy        string          `json:"campaign_bid_strategy"`
	CampaignBidAmount          *string         `json:"campaign_bid_amount"`
	Goal                       string          `json:"goal"`
	AudienceTargeting          json.RawMessage `json:"audience_targeting"`
	Hashtag                    string          `json:"hashtag"`
	EndDate                    *string         `json:"end_date"`
	Rules                      json.RawMessage `json:"rules"`
	SpecialAdCategories        []string        `json:"special_ad_categories"`
	DSABeneficiary             *string         `json:"dsa_beneficiary"`
	DSAPayor                   *string         `json:"dsa_payor"`
	// AdAccountID is the network_a ad account ("act_…") the campaign
	// spends through; absent or null keeps the one it has (none for a new
	// campaign: the engine takes the user's first usable one). The engine
	// learns its name, currency and time zone at the first boost.
	AdAccountID *string `json:"ad_account_id"`
}

func loadBoostedPages(ctx context.Context, q *db.Queries, raw json.RawMessage, o Options) error {
	const key = "boosted_pages"
	items, err := rows[boostedPageRow](key, raw)
	if err != nil {
		return err
	}
	params := make([]db.CampaignUpsertParams, len(items))
	ids := make([]int64, len(items))
	err = check(key, items, func(i int, r *boostedPageRow) (err error) {
		params[i], err = r.params(o)
		ids[i] = r.ID
		return err
	})
	if err != nil {
		return err
	}
	b := batchErr{key: key}
	q.CampaignUpsert(ctx, params).Exec(b.record)
	if b.first != nil {
		return b.first
	}
	q.CampaignHistoryImported(ctx, ids).Exec(b.record)
	return b.first
}

// params checks a campaign row and answers its CampaignUpsert parameters.
func (r *boostedPageRow) params(o Options) (db.CampaignUpsertParams, error) {
	if err := requireID(r.ID); err != nil {
		return db.CampaignUpsertParams{}, err
	}
	if r.UserID <= 0 {
		return db.CampaignUpsertParams{}, invalid("user_id", "must be the id of a user")
	}
	pageID, networkBID, presetID := optionalID(r.PageID), optionalID(r.NetworkBID), optionalID(r.PresetID)
	if pageID == nil && networkBID == nil {
		return db.CampaignUpsertParams{}, invalid("page_id", "a campaign needs a page_id, a network_b_id or both")
	}
	for field, id := range map[string]*int64{"page_id": r.PageID, "network_b_id": r.NetworkBID, "preset_id": r.PresetID} {
		if id != nil && *id < 0 {
			return db.CampaignUpsertParams{}, invalid(field, "must be a positive id, or 0 for none")
		}
	}
	if !money.MatchString(r.CampaignBudgetValue) {
		return db.CampaignUpsertParams{}, invalid("campaign_budget_value", "must be a decimal with at most two decimals, as a string")
	}
	bid := "0.00"
	if r.CampaignBidAmount != nil {
		bid = *r.CampaignBidAmount
	}
	if !money.MatchString(bid) {
		return db.CampaignUpsertParams{}, invalid("campaign_bid_amount", "must be a non-negative decimal with at most two decimals, as a string")
	}
	targeting := r.AudienceTargeting
	if t := bytes.TrimSpace(targeting); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		targeting = json.RawMessage(`{}`)
	} else if t[0] != '{' {
		return db.CampaignUpsertParams{}, invalid("audience_targeting", "must be a Targeting object")
	}
	var endDate *string
	if r.EndDate != nil && *r.EndDate != "" {
		if _, err := time.Parse(time.DateOnly, *r.EndDate); err != nil {
			return db.CampaignUpsertParams{}, invalid("end_date", "must be a date YYYY-MM-DD")
		}
		endDate = r.EndDate
	}
	active := true
	if r.Active != nil {
		active = *r.Active
	}
	campaignRules, err := parseRules("rules", r.Rules, o)
	if err != nil {
		return db.CampaignUpsertParams{}, err
	}
	categories, err := adCategories(r.SpecialAdCategories)
	if err != nil {
		return db.CampaignUpsertParams{}, err
	}
	if err := dsaText("dsa_beneficiary", r.DSABeneficiary); err != nil {
		return db.CampaignUpsertParams{}, err
	}
	if err := dsaText("dsa_payor", r.DSAPayor); err != nil {
		return db.CampaignUpsertParams{}, err
	}
	if r.AdAccountID != nil && !adAccountID.MatchString(*r.AdAccountID) {
		return db.CampaignUpsertParams{}, invalid("ad_account_id", "must be a network_a ad account id such as \"act_1234\", or null for none")
	}
	return db.CampaignUpsertParams{
		ID: r.ID, UserID: r.UserID, PageID: pageID, NetworkBID: networkBID, PresetID: presetID,
		Active:                     active,
		CampaignBudgetType:         withDefault(r.CampaignBudgetType, "daily"),
		CampaignBudgetValue:        r.CampaignBudgetValue,
		AdsetBudgetSharingEnabled:  r.AdsetBudgetSharingEnabled,
		CampaignBidStrategyEnabled: r.CampaignBidStrategyEnabled,
		CampaignBidStrategy:        withDefault(r.CampaignBidStrategy, "LOWEST_COST_WITHOUT_CAP"),
		CampaignBidAmount:          bid,
		Goal:                       withDefault(r.Goal, "POST_ENGAGEMENT"),
		AudienceTargeting:          targeting,
		Hashtag:                    r.Hashtag,
		EndDate:                    endDate,
		Rules:                      campaignRules,
		SpecialAdCategories:        categories,
		DsaBeneficiary:             r.DSABeneficiary,
		DsaPayor:                   r.DSAPayor,
		AdAccountID:                r.AdAccountID,
	}, nil
}

// adAccountID is the form of a network_a ad account's id.
var adAccountID = regexp.MustCompile(`^act_[0-9]{1,20}$`)

// dsaText checks a row's DSA beneficiary or payor: absent or null for none,
// else 1 to 512 characters, not blank.
func dsaText(field string, v *string) error {
	if v != nil && (strings.TrimSpace(*v) == "" || utf8.RuneCountInString(*v) > 512) {
		return invalid(field, "must be 1 to 512 characters, not blank, or null for none")
	}
	return nil
}

// specialAdCategories are network_a's special ad categories.
var specialAdCategories = []string{
	"HOUSING", "EMPLOYMENT", "FINANCIAL_PRODUCTS_SERVICES", "ISSUES_ELECTIONS_POLITICS", "ONLINE_GAMBLING_AND_GAMING",
}

// adCategories checks a row's special_ad_categories: distinct names of
// network_a's categories; absent is none.
func adCategories(names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for i, name := range names {
		if !slices.Contains(specialAdCategories, name) {
			return nil, invalid("special_ad_categories", "entry %d (%q) must be one of %s", i, name, strings.Join(specialAdCategories, ", "))
		}
		if slices.Contains(out, name) {
			return nil, invalid("special_ad_categories", "entry %d repeats %s", i, name)
		}
		out = append(out, name)
	}
	return out, nil
}

// boostedPostRow is a boosted post of a data file: created and
// stopped are Unix seconds (stopped 0 = still running). The owner and the
// source (the page or account the post is on) may be given as user_id and
// source_id; without them they are those of the post's first campaign.
type boostedPostRow struct {
	ID             int64        `json:"id"`
	UserID         *int64       `json:"user_id"`
	SourceID       *int64       `json:"source_id"`
	BoostedPageIDs []int64      `json:"boosted_page_ids"`
	Active         *bool        `json:"active"`
	Name           string       `json:"name"`
	Link           string       `json:"link"`
	Image          string       `json:"image"`
	Created        int64        `json:"created"`
	Stopped        int64        `json:"stopped"`
	Insights       *insightsRow `json:"insights"`
}

type insightsRow struct {
	Impressions int64   `json:"impressions"`
	Reach       int64   `json:"reach"`
	Engagement  int64   `json:"engagement"`
	Clicks      int64   `json:"clicks"`
	Spend       *string `json:"spend"`
	Conversions int64   `json:"conversions"`
}

func loadBoostedPosts(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	const key = "boosted_posts"
	items, err := rows[boostedPostRow](key, raw)
	if err != nil {
		return err
	}
	posts := make([]db.BoostedPostUpsertParams, len(items))
	links := make([]db.BoostedPostCampaignsReplaceParams, len(items))
	var insights []db.BoostedPostInsightUpsertParams
	var insightRow []int // the row index of each insights entry
	err = check(key, items, func(i int, r *boostedPostRow) (err error) {
		if posts[i], err = r.params(); err != nil {
			return err
		}
		links[i] = db.BoostedPostCampaignsReplaceParams{PostID: r.ID, CampaignIds: orEmpty(r.BoostedPageIDs)}
		if r.Insights != nil {
			in, err := r.Insights.params(r.ID)
			if err != nil {
				return err
			}
			insights, insightRow = append(insights, in), append(insightRow, i)
		}
		return nil
	})
	if err != nil {
		return err
	}

	b := batchErr{key: key}
	q.BoostedPostUpsert(ctx, posts).Exec(func(i int, err error) {
		// Without user_id/source_id they come from the first campaign; a
		// null there means that campaign does not exist.
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == pgerrcode.NotNullViolation && posts[i].FirstCampaignID != nil &&
			(pgErr.ColumnName == "user_id" || pgErr.ColumnName == "source_id") {
			err = invalid("boosted_page_ids", "campaign %d does not exist (give user_id and source_id, or the id of an existing campaign)",
				*posts[i].FirstCampaignID)
		}
		b.record(i, err)
	})
	if b.first != nil {
		return b.first
	}
	q.BoostedPostCampaignsReplace(ctx, links).Exec(func(i int, err error) {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == pgerrcode.ForeignKeyViolation {
			err = invalid("boosted_page_ids", "every id must be a campaign of the post's own user: %s", pgErr.Message)
		}
		b.record(i, err)
	})
	if b.first != nil {
		return b.first
	}
	q.BoostedPostInsightUpsert(ctx, insights).Exec(func(i int, err error) { b.record(insightRow[i], err) })
	return b.first
}

// params checks a post row and answers its BoostedPostUpsert parameters.
func (r *boostedPostRow) params() (db.BoostedPostUpsertParams, error) {
	if err := requireID(r.ID); err != nil {
		return db.BoostedPostUpsertParams{}, err
	}
	for _, id := range r.BoostedPageIDs {
		if id <= 0 {
			return db.BoostedPostUpsertParams{}, invalid("boosted_page_ids", "must be ids of campaigns")
		}
	}
	var first *int64
	if len(r.BoostedPageIDs) > 0 {
		first = &r.BoostedPageIDs[0]
	}
	userID, sourceID := optionalID(r.UserID), optionalID(r.SourceID)
	if userID == nil && first == nil {
		return db.BoostedPostUpsertParams{}, invalid("user_id", "is required when boosted_page_ids is empty")
	}
	if sourceID == nil && first == nil {
		return db.BoostedPostUpsertParams{}, invalid("source_id", "is required when boosted_page_ids is empty")
	}
	if r.Created <= 0 {
		return db.BoostedPostUpsertParams{}, invalid("created", "must be a positive Unix time in seconds")
	}
	if r.Stopped < 0 {
		return db.BoostedPostUpsertParams{}, invalid("stopped", "must be a Unix time in seconds, or 0 while the post is boosted")
	}
	active := true
	if r.Active != nil {
		active = *r.Active
	}
	return db.BoostedPostUpsertParams{
		ID: r.ID, UserID: userID, SourceID: sourceID, Active: active,
		Name: r.Name, Link: r.Link, Image: r.Image, Created: r.Created, Stopped: r.Stopped,
		FirstCampaignID: first,
	}, nil
}

// params checks a post's insights and answers their BoostedPostInsightUpsert
// parameters.
func (in *insightsRow) params(postID int64) (db.BoostedPostInsightUpsertParams, error) {
	for _, c := range []struct {
		field string
		v     int64
	}{{"impressions", in.Impressions}, {"reach", in.Reach}, {"engagement", in.Engagement}, {"clicks", in.Clicks}, {"conversions", in.Conversions}} {
		if c.v < 0 {
			return db.BoostedPostInsightUpsertParams{}, invalid("insights."+c.field, "must not be negative")
		}
	}
	spend := "0.00"
	if in.Spend != nil {
		spend = *in.Spend
	}
	if !money.MatchString(spend) {
		return db.BoostedPostInsightUpsertParams{}, invalid("insights.spend", "must be a non-negative decimal with at most two decimals, as a string")
	}
	return db.BoostedPostInsightUpsertParams{
		PostID: postID, Impressions: in.Impressions, Reach: in.Reach, Engagement: in.Engagement,
		Clicks: in.Clicks, Spend: spend, Conversions: in.Conversions,
	}, nil
}

// optionalID answers nil for an absent or 0 id.
func optionalID(id *int64) *int64 {
	if id == nil || *id == 0 {
		return nil
	}
	return id
}

func withDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
