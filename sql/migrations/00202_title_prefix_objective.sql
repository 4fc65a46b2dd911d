-- A title prefix with an objective, in title order, from one index.
--
-- presets/browse and presets/count with a title prefix and an objective
-- (and no location) read the prefix's entries of preset_title_prefix in
-- title order (preset_title_prefix_idx) and checked the objective on each:
-- with a vertical as well, about one entry in sixty passes, so page 5 of a
-- common word ("Mode", "Spo") walked close to twenty thousand entries. This
-- index holds each prefix's entries by objective, then title: the pair is
-- one range in title order, read index-only with the vertical list and the
-- agency of each entry.

-- +goose Up
CREATE INDEX preset_title_prefix_objective_idx ON preset_title_prefix (prefix, campaign_objective, title, preset_id)
    INCLUDE (vertical, agency_id);

-- +goose Down
DROP INDEX preset_title_prefix_objective_idx;
