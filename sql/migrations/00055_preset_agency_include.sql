-- presets/available (issue 10) reads the active private presets of the
-- user's agency in title order from preset_agency_idx and stops at the end
-- of the page. Without the flags in the index, every entry of the agency
-- (~44,000 for a large agency of the million-preset catalogue) was checked
-- in the table (180 ms); with active and private riding along (INCLUDE), the
-- walk is index-only and stops after the page's rows. The key, and so every
-- other use (the agency filter of browse and count, the foreign key), stays
-- as it was.

-- +goose Up
DROP INDEX preset_agency_idx;
CREATE INDEX preset_agency_idx ON preset (agency_id, title, id) INCLUDE (active, private);

-- +goose Down
DROP INDEX preset_agency_idx;
CREATE INDEX preset_agency_idx ON preset (agency_id, title, id);
