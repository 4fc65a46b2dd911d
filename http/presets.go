package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"

	"adboost/db"
)

// presetFilter is the filter part of the presets/browse and presets/count
// bodies; every field is optional and the filters combine with AND (the
// rules are in sql/queries/preset.sql).
type presetFilter struct {
	Goal             string         `json:"goal"`
	Vertical         string         `json:"vertical"`
	AgencyID         Int            `json:"agency_id"`
	PartnerID        Int            `json:"partner_id"`
	PresetName       string         `json:"preset_name"`
	ExcludedPresetID Int            `json:"excluded_preset_id"`
	Location         locationFilter `json:"location"`
}

// locationFilter is the `location` object: `value` is a country code or a
// city or region key, `type` (country, city, region) narrows it, `label` is
// for display and ignored. null, "" and an empty value are no filter.
type locationFilter struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Type  string `json:"type"`
}

// UnmarshalJSON implements json.Unmarshaler: an object, or null/"" for none.
func (l *locationFilter) UnmarshalJSON(b []byte) error {
	*l = locationFilter{}
	switch t := bytes.TrimSpace(b); {
	case bytes.Equal(t, []byte("null")), bytes.Equal(t, []byte(`""`)):
		return nil
	case len(t) == 0 || t[0] != '{':
		return &json.UnmarshalTypeError{Value: valueDesc(t), Type: reflect.TypeFor[locationFilter]()}
	}
	type plain locationFilter
	return json.Unmarshal(b, (*plain)(l))
}

// params checks the filter and turns it into the queries' parameters.
func (f *presetFilter) params() (db.PresetCountParams, error) {
	var p db.PresetCountParams
	var err error
	if p.Goal, err = optionalText("goal", f.Goal); err != nil {
		return p, err
	}
	if p.Vertical, err = optionalText("vertical", f.Vertical); err != nil {
		return p, err
	}
	if p.PresetName, err = optionalText("preset_name", f.PresetName); err != nil {
		return p, err
	}
	if p.AgencyID, err = optionalID("agency_id", f.AgencyID); err != nil {
		return p, err
	}
	if p.PartnerID, err = optionalID("partner_id", f.PartnerID); err != nil {
		return p, err
	}
	if p.ExcludedPresetID, err = optionalID("excluded_preset_id", f.ExcludedPresetID); err != nil {
		return p, err
	}
	if err := textLimit("location.label", f.Location.Label); err != nil {
		return p, err
	}
	switch f.Location.Type {
	case "", "country", "city", "region":
	default:
		if err := textLimit("location.type", f.Location.Type); err != nil {
			return p, err
		}
		return p, badRequest("location.type must be country, city or region, not %q", f.Location.Type)
	}
	if p.Location, err = optionalText("location.value", f.Location.Value); err != nil {
		return p, err
	}
	if p.Location != nil && f.Location.Type != "" {
		p.LocationType = &f.Location.Type
	}
	return p, nil
}

type presetBrowseRequest struct {
	presetFilter
	paging

	filter db.PresetCountParams
}

func (r *presetBrowseRequest) validate() (err error) {
	if err := r.check(); err != nil {
		return err
	}
	r.filter, err = r.params()
	return err
}

type presetCountRequest struct {
	presetFilter

	filter db.PresetCountParams
}

func (r *presetCountRequest) validate() (err error) {
	r.filter, err = r.params()
	return err
}

// presetBrowse answers one page of the catalogue: its Preset objects from
// the statement made for the request's shape of filters (browse.cards),
// in pieces of JSON that presetCards joins.
func (s *Server) presetBrowse(ctx context.Context, req *presetBrowseRequest) (jsonAnswer, error) {
	f := req.filter
	params := browseQuery{
		Goal: f.Goal, Vertical: f.Vertical, AgencyID: f.AgencyID, PartnerID: f.PartnerID,
		PresetName: f.PresetName, ExcludedPresetID: f.ExcludedPresetID,
		Location: f.Location, LocationType: f.LocationType,
		PageNumber: req.number(), PageSize: min(req.size(), 50),
	}
	b := browse{prepared: s.onePlan(), planned: s.planned(), bytewise: s.titlesBytewise,
		base: s.cfg.PublicBaseURL, fee: s.cfg.ServiceFixedFee}
	cards, err := b.cards(ctx, params)
	if err != nil || len(cards) == 0 {
		return jsonAnswer("[]"), err
	}
	return presetCards(cards, cardRow.pieces)
}

// browseQuery is one presets/browse request as the handler checked it:
// its filters (nil when not given) and its page. browse.cards sends it to
// the statement made for its shape of filters.
type browseQuery struct {
	Goal, Vertical, PresetName, Location, LocationType *string
	AgencyID, PartnerID, ExcludedPresetID              *int64
	PageNumber, PageSize                               int32
	// PrefixEnd is the end of PresetName's range of the title order where
	// titles sort by code point (titlePrefixEnd), else nil.
	PrefixEnd *string
}

// cardRow is a row of the statements that answer Preset objects
// (preset_card_json in sql/queries/preset.sql): the pieces of one object.
// The rows sqlc makes for them have these fields, and convert to it.
type cardRow struct {
	Body, Image, Price, OriginalPrice, Agency json.RawMessage
}

// cardRows are the rows of the statements that answer Preset objects.
type cardRows interface {
	db.PresetCardsRow | db.PresetBrowseTitleRow | db.PresetBrowseDeepRow | db.PresetBrowseGoalRow |
		db.PresetBrowseAgencyRow | db.PresetBrowseLocationRow | db.PresetBrowseLocationDeepRow |
		db.PresetBrowsePrefixRow | db.PresetBrowseVerticalSlugRow | db.PresetBrowseVerticalRow
}

// asCards answers the rows of a statement that answers Preset objects, and
// its error, as cardRow values.
func asCards[R cardRows](rows []R, err error) ([]cardRow, error) {
	cards := make([]cardRow, len(rows))
	for i, r := range rows {
		cards[i] = cardRow(r)
	}
	return cards, err
}

// pieces answers the row as presetCards joins it (no number of purchases:
// presets/browse has none).
func (r cardRow) pieces() cardPieces {
	return cardPieces{body: r.Body, image: r.Image, price: r.Price, originalPrice: r.OriginalPrice, agency: r.Agency}
}

// cardPieces are the pieces of one Preset object as PresetCards and
// PresetAvailable answer them, each a JSON value that PostgreSQL wrote: the
// stored card (an object of the fields that depend on the catalogue alone,
// preset_card.body), the absolute image (or null), the prices with the
// fixed fee (strings), the agency object, and presets/available's number
// of purchases.
type cardPieces struct {
	body, image, price, originalPrice, agency json.RawMessage
	purchases                                 *int32
}

// presetCards answers rows as a JSON array of Preset objects: each card's
// body with the other pieces added as its last fields. Nothing is decoded
// or encoded again; a body that is not an object with a field (the table's
// check rules it out) is an error, not a broken answer.
func presetCards[R any](rows []R, pieces func(R) cardPieces) (jsonAnswer, error) {
	b := make([]byte, 0, 1024*len(rows)+2)
	b = append(b, '[')
	for i, r := range rows {
		p := pieces(r)
		if len(p.body) < 3 || p.body[0] != '{' || p.body[len(p.body)-1] != '}' {
			return nil, fmt.Errorf("preset card %d: the stored body is not a JSON object", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p.body[:len(p.body)-1]...)
		b = appendField(b, "image", p.image)
		b = appendField(b, "price", p.price)
		b = appendField(b, "original_price", p.originalPrice)
		b = appendField(b, "agency", p.agency)
		if p.purchases != nil {
			b = strconv.AppendInt(append(b, `,"number_of_purchases":`...), int64(*p.purchases), 10)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendField appends `,"name":value` to an object being written; a value
// PostgreSQL left NULL is JSON null.
func appendField(b []byte, name string, value json.RawMessage) []byte {
	b = append(append(append(b, ',', '"'), name...), '"', ':')
	if len(value) == 0 {
		return append(b, "null"...)
	}
	return append(b, value...)
}

// browse is what presets/browse reads a page with: the queries of the
// pool of generic plans (prepared, Server.onePlan) and of plans made for
// each request's values (planned, Server.planned), how the catalogue's
// titles sort (bytewise), and the settings the Preset objects are written
// with (serve's base URL and fixed fee).
type browse struct {
	prepared, planned *db.Queries
	bytewise          func(context.Context) (bool, error)
	base, fee         string
}

// cards answers the Preset objects of the page from the statement made for
// the request's shape of filters (sql/queries/preset.sql), in the order of
// its switch:
//   - no filter: PresetBrowseTitle, a page after the first from the title
//     buckets (PresetBrowseDeep);
//   - a goal, an agency, a location or a title prefix alone: a prepared
//     statement each, a location's pages after the first from its counts
//     in the title buckets (PresetBrowseLocationDeep);
//   - a vertical alone without a comma: the presets of the slugs that
//     contain it (PresetBrowseVerticalSlug); any other vertical, alone or
//     with a goal: the goal's and lists' pairs (PresetBrowseVertical);
//   - any other shape: the page's ids (plannedIDs), then their objects
//     (PresetCards).
//
// The statements of the first shapes have no optional filter and run with
// one generic plan per connection (prepared); each answers the page's
// objects itself, in one round trip. The excluded preset goes with every
// shape.
func (b browse) cards(ctx context.Context, p browseQuery) ([]cardRow, error) {
	end, err := titlePrefixEnd(ctx, p.PresetName, b.bytewise)
	if err != nil {
		return nil, err
	}
	p.PrefixEnd = end
	agency, oneAgency := p.AgencyID, p.AgencyID == nil || p.PartnerID == nil || *p.AgencyID == *p.PartnerID
	if agency == nil {
		agency = p.PartnerID
	}
	only := func(given bool) bool {
		n := 0
		for _, f := range []bool{p.Goal != nil, p.Vertical != nil, agency != nil, p.PresetName != nil, p.Location != nil} {
			if f {
				n++
			}
		}
		return n == 1 && given
	}
	q, x, page, size, base, fee := b.prepared, p.ExcludedPresetID, p.PageNumber, p.PageSize, b.base, b.fee
	switch {
	case p.Goal == nil && p.Vertical == nil && agency == nil && p.PresetName == nil && p.Location == nil:
		if page > 1 {
			return asCards(q.PresetBrowseDeep(ctx, db.PresetBrowseDeepParams{
				ExcludedPresetID: x, PageNumber: page, PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
			}))
		}
		return asCards(q.PresetBrowseTitle(ctx, db.PresetBrowseTitleParams{
			ExcludedPresetID: x, PageNumber: page, PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(p.Goal != nil):
		return asCards(q.PresetBrowseGoal(ctx, db.PresetBrowseGoalParams{
			Goal: *p.Goal, ExcludedPresetID: x, PageNumber: page, PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(agency != nil) && oneAgency:
		return asCards(q.PresetBrowseAgency(ctx, db.PresetBrowseAgencyParams{
			AgencyID: *agency, ExcludedPresetID: x, PageNumber: page, PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(p.Location != nil) && page > 1:
		return asCards(q.PresetBrowseLocationDeep(ctx, db.PresetBrowseLocationDeepParams{
			Location: *p.Location, LocationType: p.LocationType, ExcludedPresetID: x, PageNumber: page, PageSize: size,
			PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(p.Location != nil):
		return asCards(q.PresetBrowseLocation(ctx, db.PresetBrowseLocationParams{
			Location: *p.Location, LocationType: p.LocationType, ExcludedPresetID: x, PageNumber: page, PageSize: size,
			PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(p.PresetName != nil):
		return asCards(q.PresetBrowsePrefix(ctx, db.PresetBrowsePrefixParams{
			PresetName: *p.PresetName, ExcludedPresetID: x, PageNumber: page, PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case only(p.Vertical != nil) && !strings.Contains(*p.Vertical, ","):
		return asCards(q.PresetBrowseVerticalSlug(ctx, db.PresetBrowseVerticalSlugParams{
			Vertical: *p.Vertical, ExcludedPresetID: x, PageNumber: int64(page), PageSize: size, PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	case p.Vertical != nil && agency == nil && p.PresetName == nil && p.Location == nil:
		return asCards(q.PresetBrowseVertical(ctx, db.PresetBrowseVerticalParams{
			Vertical: *p.Vertical, Goal: p.Goal, ExcludedPresetID: x, PageNumber: int64(page), PageSize: size,
			PublicBaseUrl: base, ServiceFixedFee: fee,
		}))
	}
	ids, err := b.plannedIDs(ctx, p, agency)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return asCards(q.PresetCards(ctx, db.PresetCardsParams{PublicBaseUrl: base, ServiceFixedFee: fee, Ids: ids}))
}

// plannedIDs answers the ids of the page for the shapes of filters that
// browse.cards does not answer in one statement (agency: agency_id, or
// partner_id without it), in the order of its switch:
//   - an agency with a goal: their pair's index, or the agency's entries
//     of a narrower location (agencyGoalIDs);
//   - an agency with a vertical and neither a goal nor a location: the
//     agency's ranges of the lists that contain the vertical
//     (PresetBrowseAgencyVertical);
//   - an agency with a title prefix and no location: its own presets when
//     they are fewer (agencyPrefixIDs);
//   - a location with a title prefix and no agency: the prefix's range of
//     the location's title order where titles sort by code point, else
//     the prefix's range sorted when its titles are fewer than those
//     before it (locationPrefixIDs);
//   - a vertical without a comma with a title prefix, and no goal, agency
//     or location: the prefix's range of each of the vertical's slugs
//     where titles sort by code point (verticalPrefixIDs);
//   - anything else: walkIDs.
//
// Their statements have optional filters and are planned for each
// request's values (planned): as prepared statements, a request repeated
// on a connection would switch them to a generic plan that is slow for
// every other request (TestCatalogueStatementsPlannedPerRequest).
func (b browse) plannedIDs(ctx context.Context, p browseQuery, agency *int64) ([]int64, error) {
	switch {
	case agency != nil && p.Goal != nil:
		return agencyGoalIDs(ctx, b.prepared, b.planned, p, *agency)
	case agency != nil && p.Vertical != nil && p.Location == nil:
		return b.planned.PresetBrowseAgencyVertical(ctx, db.PresetBrowseAgencyVerticalParams{
			AgencyID: *agency, PartnerID: p.PartnerID, Vertical: *p.Vertical, PresetName: p.PresetName,
			ExcludedPresetID: p.ExcludedPresetID, PageNumber: int64(p.PageNumber), PageSize: p.PageSize,
		})
	case agency != nil && p.PresetName != nil && p.Location == nil:
		return agencyPrefixIDs(ctx, b.prepared, b.planned, p, *agency)
	case agency == nil && p.PresetName != nil && p.Location != nil:
		return locationPrefixIDs(ctx, b.prepared, b.planned, p)
	case agency == nil && p.PresetName != nil && p.Vertical != nil && p.Goal == nil && !strings.Contains(*p.Vertical, ","):
		return verticalPrefixIDs(ctx, b.planned, p)
	}
	return walkIDs(ctx, b.planned, p)
}

// walkIDs answers the ids of the page for the shapes of filters that no
// statement of their own answers: from the location's entries, the title
// prefix's or the title index of the visible presets, each walked in title
// order with the other filters checked on each entry
// (PresetBrowseLocationWalk, PresetBrowsePrefixWalk, PresetBrowseWalk).
func walkIDs(ctx context.Context, planned *db.Queries, p browseQuery) ([]int64, error) {
	switch {
	case p.Location != nil:
		return planned.PresetBrowseLocationWalk(ctx, db.PresetBrowseLocationWalkParams{
			Location: *p.Location, LocationType: p.LocationType, PresetName: p.PresetName, PrefixEnd: p.PrefixEnd,
			Goal: p.Goal, Vertical: p.Vertical, AgencyID: p.AgencyID, PartnerID: p.PartnerID,
			ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
		})
	case p.PresetName != nil:
		return planned.PresetBrowsePrefixWalk(ctx, db.PresetBrowsePrefixWalkParams{
			PresetName: *p.PresetName, Goal: p.Goal, Vertical: p.Vertical, AgencyID: p.AgencyID, PartnerID: p.PartnerID,
			ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
		})
	}
	return planned.PresetBrowseWalk(ctx, db.PresetBrowseWalkParams{
		Goal: p.Goal, Vertical: p.Vertical, AgencyID: p.AgencyID, PartnerID: p.PartnerID,
		ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
	})
}

// verticalPrefixIDs answers the ids of the page when the filters give a
// vertical without a comma and a title prefix, and neither a goal, an
// agency nor a location. Where titles sort by code point (p.PrefixEnd
// given), the prefix's titles are one range of each slug's title order,
// read in order up to the page (PresetBrowseVerticalPrefixOrdered);
// elsewhere PresetBrowsePrefixWalk walks the prefix's entries and checks
// the vertical on each.
func verticalPrefixIDs(ctx context.Context, planned *db.Queries, p browseQuery) ([]int64, error) {
	if p.PrefixEnd == nil {
		return walkIDs(ctx, planned, p)
	}
	return planned.PresetBrowseVerticalPrefixOrdered(ctx, db.PresetBrowseVerticalPrefixOrderedParams{
		Vertical: *p.Vertical, PresetName: *p.PresetName, PrefixEnd: *p.PrefixEnd, ExcludedPresetID: p.ExcludedPresetID,
		PageNumber: int64(p.PageNumber), PageSize: p.PageSize,
	})
}

// agencyPrefixIDs answers the ids of the page when the filters give an
// agency (agency, from agency_id or partner_id) with a title prefix, and
// neither a goal nor a location: from the agency's presets
// (PresetBrowseAgencyWalk) where titles sort by code point (p.PrefixEnd
// given: the prefix's range of them) or when they are fewer than the
// prefix's (PresetAgencyWalk), else from PresetBrowsePrefixWalk, which
// walks the prefix's entries. (An agency with a location goes to
// PresetBrowseLocationWalk, which reads the pair's range of
// preset_location_agency_idx.)
func agencyPrefixIDs(ctx context.Context, prepared, planned *db.Queries, p browseQuery, agency int64) ([]int64, error) {
	if p.PrefixEnd == nil {
		narrower, err := prepared.PresetAgencyWalk(ctx, db.PresetAgencyWalkParams{AgencyID: agency, PresetName: *p.PresetName})
		if err != nil {
			return nil, err
		}
		if !narrower {
			return walkIDs(ctx, planned, p)
		}
	}
	return planned.PresetBrowseAgencyWalk(ctx, db.PresetBrowseAgencyWalkParams{
		AgencyID: agency, PartnerID: p.PartnerID, Vertical: p.Vertical, PresetName: *p.PresetName, PrefixEnd: p.PrefixEnd,
		ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
	})
}

// locationPrefixIDs answers the ids of the page when the filters give a
// location and a title prefix, and no agency. Where titles sort by code
// point (p.PrefixEnd given), the prefix's titles are one range of the
// location's title order, read in order up to the page
// (PresetBrowseLocationPrefixOrdered). Elsewhere: from the location's
// titles of the prefix, sorted (PresetBrowseLocationPrefix), when the
// prefix's titles are fewer than those before it (PresetPrefixRange), else
// from PresetBrowseLocationWalk, which walks the location's entries in
// title order.
func locationPrefixIDs(ctx context.Context, prepared, planned *db.Queries, p browseQuery) ([]int64, error) {
	if p.PrefixEnd != nil {
		return planned.PresetBrowseLocationPrefixOrdered(ctx, db.PresetBrowseLocationPrefixOrderedParams{
			Location: *p.Location, PresetName: *p.PresetName, PrefixEnd: *p.PrefixEnd, LocationType: p.LocationType, Goal: p.Goal,
			Vertical: p.Vertical, ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
		})
	}
	sorted, err := prepared.PresetPrefixRange(ctx, *p.PresetName)
	if err != nil {
		return nil, err
	}
	if !sorted {
		return walkIDs(ctx, planned, p)
	}
	return planned.PresetBrowseLocationPrefix(ctx, db.PresetBrowseLocationPrefixParams{
		Location: *p.Location, PresetName: *p.PresetName, LocationType: p.LocationType, Goal: p.Goal,
		Vertical: p.Vertical, ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
	})
}

// titlePrefixEnd answers the end of prefix's range of the title order
// (prefixEnd) when a prefix is given and titles sort by code point
// (bytewise), else nil: there the titles that start with prefix are
// exactly those from it up to the end.
func titlePrefixEnd(ctx context.Context, prefix *string, bytewise func(context.Context) (bool, error)) (*string, error) {
	if prefix == nil {
		return nil, nil
	}
	ordered, err := bytewise(ctx)
	if err != nil || !ordered {
		return nil, err
	}
	if end, ok := prefixEnd(*prefix); ok {
		return &end, nil
	}
	return nil, nil
}

// prefixEnd answers the least string above every string that starts with
// prefix in code point order: prefix with its last character replaced by
// the next one (the surrogates, which no string holds, skipped), after
// dropping trailing characters that have no next one. ok is false when
// every character of prefix is the last one, or prefix is empty.
func prefixEnd(prefix string) (end string, ok bool) {
	runes := []rune(prefix)
	for i := len(runes) - 1; i >= 0; i-- {
		next := runes[i] + 1
		if next == 0xD800 {
			next = 0xE000
		}
		if next <= unicode.MaxRune {
			runes[i] = next
			return string(runes[:i+1]), true
		}
	}
	return "", false
}

// agencyGoalIDs answers the ids of the page when the filters give an
// agency (agency, from agency_id or partner_id) and a goal: from their
// pair's title-ordered index (PresetBrowseAgencyGoal), or, when a location
// is given whose presets are fewer than the goal's (PresetAgencyGoalWalk),
// from the agency's entries of the location (PresetBrowseAgencyGoalLocation).
func agencyGoalIDs(ctx context.Context, prepared, planned *db.Queries, p browseQuery, agency int64) ([]int64, error) {
	if p.Location != nil {
		pair, err := prepared.PresetAgencyGoalWalk(ctx, db.PresetAgencyGoalWalkParams{
			Location: *p.Location, LocationType: p.LocationType, Goal: *p.Goal,
		})
		if err != nil {
			return nil, err
		}
		if !pair {
			return planned.PresetBrowseAgencyGoalLocation(ctx, db.PresetBrowseAgencyGoalLocationParams{
				Location: *p.Location, LocationType: p.LocationType, Goal: *p.Goal, AgencyID: agency,
				PartnerID: p.PartnerID, Vertical: p.Vertical, PresetName: p.PresetName,
				ExcludedPresetID: p.ExcludedPresetID, PageNumber: p.PageNumber, PageSize: p.PageSize,
			})
		}
	}
	return planned.PresetBrowseAgencyGoal(ctx, db.PresetBrowseAgencyGoalParams{
		AgencyID: agency, Goal: *p.Goal, Vertical: p.Vertical, PartnerID: p.PartnerID,
		PresetName: p.PresetName, PrefixEnd: p.PrefixEnd, ExcludedPresetID: p.ExcludedPresetID, Location: p.Location,
		LocationType: p.LocationType, PageNumber: p.PageNumber, PageSize: p.PageSize,
	})
}

// presetCount: a goal that no preset has counts 0 (the goal is a filter, not
// an enum). A title prefix alone is counted by a prepared statement with its
// generic plan (PresetCountPrefix); any other filters by PresetCount,
// planned for them.
// An agency with a goal and a location is counted the way presets/browse
// walks it (PresetAgencyGoalWalk), asked first so that PresetCount's
// choice is a value the planner folds.
func (s *Server) presetCount(ctx context.Context, req *presetCountRequest) (int64, error) {
	f := req.filter
	if f.PresetName != nil && f.Goal == nil && f.Vertical == nil && f.AgencyID == nil && f.PartnerID == nil && f.Location == nil {
		return s.onePlan().PresetCountPrefix(ctx, db.PresetCountPrefixParams{PresetName: *f.PresetName, ExcludedPresetID: f.ExcludedPresetID})
	}
	if (f.AgencyID != nil || f.PartnerID != nil) && f.Goal != nil && f.Location != nil {
		pair, err := s.onePlan().PresetAgencyGoalWalk(ctx, db.PresetAgencyGoalWalkParams{
			Location: *f.Location, LocationType: f.LocationType, Goal: *f.Goal,
		})
		if err != nil {
			return 0, err
		}
		f.PairWalk = pair
	}
	end, err := titlePrefixEnd(ctx, f.PresetName, s.titlesBytewise)
	if err != nil {
		return 0, err
	}
	f.PrefixEnd = end
	return s.planned().PresetCount(ctx, f)
}

// maxAvailable bounds one answer of presets/available (an addition: the spec
// sets none, and a dropdown of a million presets helps nobody).
const maxAvailable = 1000

// presetAvailableRequest pages presets/available with the optional query
// parameters page (≥ 1, default 1) and limit (1..1000, default 1000, larger
// acts as 1000).
type presetAvailableRequest struct {
	page, limit Int
}

func (r *presetAvailableRequest) bind(req *http.Request) error {
	q := req.URL.Query()
	for name, dst := range map[string]*Int{"page": &r.page, "limit": &r.limit} {
		if err := dst.UnmarshalJSON([]byte(strconv.Quote(q.Get(name)))); err != nil {
			return badRequest("%s must be an integer, not %q", name, q.Get(name))
		}
	}
	switch {
	case r.page.Set && (r.page.V < 1 || r.page.V > math.MaxInt32):
		return badRequest("page must be an integer from 1 to %d", math.MaxInt32)
	case r.limit.Set && r.limit.V < 1:
		return badRequest("limit must be an integer from 1 to %d (larger values act as %d)", maxAvailable, maxAvailable)
	}
	return nil
}

func (s *Server) presetAvailable(ctx context.Context, req *presetAvailableRequest) (answer jsonAnswer, err error) {
	params := db.PresetAvailableParams{
		PublicBaseUrl: s.cfg.PublicBaseURL, ServiceFixedFee: s.cfg.ServiceFixedFee, UserID: userID(ctx),
		PageNumber: req.page.Or(1), PageSize: int32(min(req.limit.Or(maxAvailable), maxAvailable)),
	}
	// One snapshot for the cards and their agencies' objects: an agency
	// that a card names is never missing from the second read.
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		q := db.New(tx)
		rows, err := q.PresetAvailable(ctx, params)
		if err != nil || len(rows) == 0 {
			answer = jsonAnswer("[]")
			return err
		}
		agencies, err := agencyObjects(ctx, q, rows)
		if err != nil {
			return err
		}
		answer, err = presetCards(rows, func(r db.PresetAvailableRow) cardPieces {
			return cardPieces{
				body: r.Body, image: r.Image, price: r.Price, originalPrice: r.OriginalPrice, agency: agencies[r.AgencyID],
				purchases: &r.NumberOfPurchases,
			}
		})
		return err
	})
	return answer, err
}

// agencyObjects answers the Agency objects of the agencies that rows name,
// by id, read once each (AgencyObjects). An agency without its object is an
// error, not a card without its agency.
func agencyObjects(ctx context.Context, q *db.Queries, rows []db.PresetAvailableRow) (map[int64]json.RawMessage, error) {
	ids := make([]int64, 0, len(rows))
	seen := make(map[int64]struct{}, len(rows))
	for _, r := range rows {
		if _, ok := seen[r.AgencyID]; !ok {
			seen[r.AgencyID] = struct{}{}
			ids = append(ids, r.AgencyID)
		}
	}
	found, err := q.AgencyObjects(ctx, ids)
	if err != nil {
		return nil, err
	}
	objects := make(map[int64]json.RawMessage, len(found))
	for _, a := range found {
		objects[a.AgencyID] = a.Agency
	}
	if len(objects) != len(ids) {
		return nil, fmt.Errorf("presets/available: %d of the page's %d agencies have no Agency object", len(ids)-len(objects), len(ids))
	}
	return objects, nil
}

func (s *Server) presetOptimizationGoals(ctx context.Context, _ *empty) ([]db.CampaignObjectiveListRow, error) {
	return s.q.CampaignObjectiveList(ctx)
}
