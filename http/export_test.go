package httpapi

import (
	"context"
	"encoding/json"

	"adboost/db"
)

// BrowseQuery is a presets/browse request as browse.cards takes it.
type BrowseQuery = browseQuery

// PresetBrowseIDs answers the ids of the Preset objects that browse.cards
// answers for p over the queries prepared and planned, for the plan tests
// of package httpapi_test: the statement each shape of filters goes to, run
// as the handler runs it.
func PresetBrowseIDs(ctx context.Context, prepared, planned *db.Queries, p BrowseQuery, bytewise func(context.Context) (bool, error)) ([]int64, error) {
	b := browse{prepared: prepared, planned: planned, bytewise: bytewise, base: "https://api.adboost.test", fee: "1.00"}
	cards, err := b.cards(ctx, p)
	ids := make([]int64, 0, len(cards))
	for _, c := range cards {
		var card struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(c.Body, &card); err != nil {
			return nil, err
		}
		ids = append(ids, card.ID)
	}
	return ids, err
}
