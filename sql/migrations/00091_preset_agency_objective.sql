-- The combination of filters of presets/browse and count (issue 10, second
-- round): an agency (agency_id / partner_id) together with a goal. Each
-- alone is wide (the largest agency has 64,000 visible presets at a million,
-- an objective 160,000), and their intersection with the other filters of a
-- request may be a few dozen: walking either in title order, or a location's
-- index, reads tens of thousands of entries before the page is full, and a
-- BitmapAnd of the two reads both and then thousands of heap blocks. This
-- index holds each visible preset under (agency, objective) in title order,
-- with the vertical list (INCLUDE) so that the vertical and title prefix
-- filters are checked on its entries: the pair's presets (about 12,000 for
-- the largest agency and a common objective) are read index-only, in title
-- order, stopping at the page. PresetBrowse and PresetCount take it when a
-- request gives both and no location narrower than the agency and the goal
-- (the tallies of 00050 decide, sql/queries/preset.sql).

-- +goose Up
CREATE INDEX preset_visible_agency_objective_idx ON preset (agency_id, campaign_objective, title, id)
    INCLUDE (vertical)
    WHERE active AND NOT private;

-- +goose Down
DROP INDEX preset_visible_agency_objective_idx;
