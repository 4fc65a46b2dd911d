-- The visible presets of each pair of objective and vertical list in title
-- order: presets/browse with a vertical (and perhaps a goal) and no other
-- filter reads the first entries of each pair whose list contains the
-- vertical (the pairs come from preset_tally, PresetBrowseVertical) and
-- merges them, where it walked the whole title order checking each
-- preset's list (a common vertical) or read every preset of a rare one from
-- the trigram index and sorted them.

-- +goose Up
CREATE INDEX preset_visible_objective_vertical_idx ON preset (campaign_objective, vertical, title, id)
    WHERE active AND NOT private;

-- +goose Down
DROP INDEX preset_visible_objective_vertical_idx;
