-- A location with an objective, in title order, from one index.
--
-- presets/browse with a location and a goal (and no agency) walked the
-- location's entries in title order (preset_visible_location_idx) and
-- checked the objective on each: with a vertical as well, about one entry
-- in sixty passes, so page 5 of a mid-sized country read some sixteen
-- thousand entries. This index holds each location's entries by
-- objective, then title: the pair is one range in title order, read
-- index-only with the kinds, the vertical list and the agency of each
-- entry (and, where titles sort by code point, a title prefix's part of
-- that range).

-- +goose Up
CREATE INDEX preset_location_objective_idx ON preset_location (key, campaign_objective, title, preset_id)
    INCLUDE (kinds, vertical, agency_id);

-- +goose Down
DROP INDEX preset_location_objective_idx;
