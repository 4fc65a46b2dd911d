-- A location's tally read from its index alone.
--
-- The sum of a location's presets (the count of a location, and the choice
-- of PresetBrowseAgencyGoal and PresetCount between a location's walk and
-- an agency's) reads the location's rows of preset_location_tally, a row
-- for each kind, objective and slug list: about a hundred for a common
-- country, spread over as many pages of the table. The primary key
-- carries the count (INCLUDE), so that the sum is an index-only scan of
-- adjacent entries. A count that changes is then not a HOT update; the
-- tally's rows change once per statement that writes presets.

-- +goose Up
ALTER TABLE preset_location_tally
    DROP CONSTRAINT preset_location_tally_pkey,
    ADD CONSTRAINT preset_location_tally_pkey PRIMARY KEY (key, kinds, campaign_objective, vertical) INCLUDE (presets);

-- +goose Down
ALTER TABLE preset_location_tally
    DROP CONSTRAINT preset_location_tally_pkey,
    ADD CONSTRAINT preset_location_tally_pkey PRIMARY KEY (key, kinds, campaign_objective, vertical);
