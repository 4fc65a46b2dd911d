-- An agency and a goal with a vertical (issue 10, second round): the
-- vertical filter is a substring of the stored slug list, and the lists that
-- contain it are few (preset_tally holds every list of each objective, kept
-- exact by the triggers of 00050). Under (agency, objective, vertical list)
-- the presets of those lists are a few short ranges of this index (about
-- 900 entries for the largest agency, a common objective and a common
-- vertical at a million presets, where the pair's index of 00091 holds
-- 12,000), read index-only and sorted by title; PresetBrowseAgencyGoal
-- takes it when a vertical is given.

-- +goose Up
CREATE INDEX preset_visible_agency_objective_vertical_idx ON preset (agency_id, campaign_objective, vertical, title, id)
    WHERE active AND NOT private;

-- +goose Down
DROP INDEX preset_visible_agency_objective_vertical_idx;
