package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"adboost/db"
)

func init() {
	register(section{key: "presets", loadWith: loadPresets})
	register(section{key: "reviews", load: loadReviews})
}

type presetRow struct {
	ID                int64           `json:"id"`
	AgencyID          int64           `json:"agency_id"`
	Title             string          `json:"title"`
	Image             *string         `json:"image"`
	Active            *bool           `json:"active"`
	Private           bool            `json:"private"`
	CampaignObjective string          `json:"campaign_objective"`
	Vertical          string          `json:"vertical"`
	Price             string          `json:"price"`
	OriginalPrice     *string         `json:"original_price"`
	Version           *int32          `json:"version"`
	Platform          *string         `json:"platform"`
	AudienceTargeting string          `json:"audience_targeting"`
	LocationJSON      json.RawMessage `json:"location_json"`
	Description       string          `json:"description"`
	AllowedOptions    []string        `json:"allowed_options"`
	BoostingCondition *conditionRow   `json:"boosting_condition"`
	NumberOfPurchases int32           `json:"number_of_purchases"`
}

// conditionRow is the boosting condition nested in a preset row; a preset
// without one has none (a stored one is deleted). Rules are the default
// rules of the campaigns made from the preset.
type conditionRow struct {
	Keywords []string        `json:"keywords"`
	Reach    *int32          `json:"reach"`
	Rules    json.RawMessage `json:"rules"`
}

func loadPresets(ctx context.Context, q *db.Queries, raw json.RawMessage, o Options) error {
	items, err := rows[presetRow]("presets", raw)
	if err != nil {
		return err
	}
	presets := make([]db.PresetUpsertParams, len(items))
	conditions := make([]db.BoostingConditionReplaceParams, len(items))
	err = check("presets", items, func(i int, p *presetRow) error {
		if err := requireID(p.ID); err != nil {
			return err
		}
		if p.AgencyID <= 0 {
			return invalid("agency_id", "must be the id of an agency")
		}
		if !money.MatchString(p.Price) {
			return invalid("price", "must be a non-negative decimal with at most two decimals, as a string")
		}
		original := p.Price
		if p.OriginalPrice != nil {
			original = *p.OriginalPrice
		}
		if !money.MatchString(original) {
			return invalid("original_price", "must be a non-negative decimal with at most two decimals, as a string")
		}
		location := json.RawMessage(`{}`)
		if t := bytes.TrimSpace(p.LocationJSON); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
			if t[0] != '{' {
				return invalid("location_json", "must be an object")
			}
			location = t
		}
		if p.Image != nil && *p.Image == "" {
			p.Image = nil
		}
		active, version, platform := true, int32(1), "all"
		if p.Active != nil {
			active = *p.Active
		}
		if p.Version != nil {
			version = *p.Version
		}
		if p.Platform != nil {
			platform = *p.Platform
		}
		presets[i] = db.PresetUpsertParams{
			ID: p.ID, AgencyID: p.AgencyID, Title: p.Title, Image: p.Image, Active: active,
			Private: p.Private, CampaignObjective: p.CampaignObjective, Vertical: p.Vertical,
			Price: p.Price, OriginalPrice: original, Version: version, Platform: platform,
			AudienceTargeting: p.AudienceTargeting, LocationJson: location, Description: p.Description,
			AllowedOptions: orEmpty(p.AllowedOptions), NumberOfPurchases: p.NumberOfPurchases,
		}
		conditions[i] = db.BoostingConditionReplaceParams{PresetID: p.ID, Keywords: []string{}, Rules: json.RawMessage(`{}`)}
		if c := p.BoostingCondition; c != nil {
			if c.Reach == nil {
				return invalid("boosting_condition.reach", "is required (a percentage from 0 to 100)")
			}
			conditions[i].Keywords = orEmpty(c.Keywords)
			conditions[i].Reach = c.Reach
			r, err := parseRules("boosting_condition.rules", c.Rules, o)
			if err != nil {
				return err
			}
			conditions[i].Rules = r
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := batchErr{key: "presets"}
	q.PresetUpsert(ctx, presets).Exec(b.record)
	if b.first != nil {
		return b.first
	}
	q.BoostingConditionReplace(ctx, conditions).Exec(b.record)
	if re, ok := b.first.(*RowError); ok && re.Field != "" {
		re.Field = "boosting_condition." + re.Field
	}
	return b.first
}

type reviewRow struct {
	ID        int64   `json:"id"`
	PresetID  int64   `json:"preset_id"`
	UserID    int64   `json:"user_id"`
	Rating    int16   `json:"rating"`
	Message   string  `json:"message"`
	CreatedAt *string `json:"created_at"`
}

// reviewTime is the format of a review's created_at, in UTC.
const reviewTime = "2006-01-02 15:04:05"

func loadReviews(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[reviewRow]("reviews", raw)
	if err != nil {
		return err
	}
	params := make([]db.ReviewUpsertParams, len(items))
	err = check("reviews", items, func(i int, r *reviewRow) error {
		if err := requireID(r.ID); err != nil {
			return err
		}
		params[i] = db.ReviewUpsertParams{
			ID: r.ID, PresetID: r.PresetID, UserID: r.UserID, Rating: r.Rating, Message: r.Message,
		}
		if r.CreatedAt != nil {
			t, err := time.Parse(reviewTime, *r.CreatedAt)
			if err != nil {
				return invalid("created_at", "must be a UTC time written YYYY-MM-DD HH:MM:SS")
			}
			params[i].CreatedAt = pgtype.Timestamptz{Time: t, Valid: true}
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := batchErr{key: "reviews"}
	q.ReviewUpsert(ctx, params).Exec(b.record)
	return b.first
}
