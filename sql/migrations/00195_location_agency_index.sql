-- An agency's presets in a location, in title order, from one index.
--
-- presets/browse and presets/count with an agency (agency_id or partner_id)
-- and a location walked either the location's entries in title order
-- (preset_visible_location_idx), checking the agency on each, or the
-- agency's presets (preset_agency_idx), checking the location on each by
-- its key; when the two are of a size (a large agency and a mid-sized
-- country, or a small agency and the United States) either walk read tens
-- of thousands of entries for a few dozen matches. This index holds each
-- location's entries by agency, then title: the pair's visible presets are
-- one range in title order, read index-only with the objective, kinds and
-- vertical list of each entry.

-- +goose Up
CREATE INDEX preset_location_agency_idx ON preset_location (key, agency_id, title, preset_id)
    INCLUDE (kinds, campaign_objective, vertical);

-- +goose Down
DROP INDEX preset_location_agency_idx;
