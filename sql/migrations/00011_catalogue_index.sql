-- Indexes of the catalogue: one for each filter of presets/browse and count,
-- one for their title order, one for the rating aggregate, one for the search
-- of agencies/list. Browse and count only ever read visible presets (active
-- and not private), so their indexes are partial on that predicate; the
-- queries repeat it word for word so that the planner can use them.

-- +goose Up
-- Trigram indexes serve LIKE '%...%' (substring) searches.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Title order. The unfiltered browse reads its page straight off this index.
-- The vertical slug list rides along (INCLUDE) so that a browse with a
-- vertical filter, which the planner may also serve by walking this index in
-- order and filtering, checks each entry without visiting the table: at a
-- million presets even a vertical whose presets all sit at the end of the
-- title order then costs one pass over the index (~80 ms), not a read of
-- every row.
CREATE INDEX preset_visible_title_idx ON preset (title, id) INCLUDE (vertical)
    WHERE active AND NOT private;

-- `goal`: the visible presets of one objective, already in title order (with
-- the vertical list for the same reason as above).
CREATE INDEX preset_visible_objective_idx ON preset (campaign_objective, title, id) INCLUDE (vertical)
    WHERE active AND NOT private;

-- A btree entry holds at most about 2.7 kB: with the title (at most 200
-- characters) and the vertical list in the entries above, the list is bounded
-- in bytes rather than in characters (slugs are ASCII anyway). Same name as
-- the check of 00010 that it replaces.
ALTER TABLE preset DROP CONSTRAINT preset_vertical_check;
ALTER TABLE preset ADD CONSTRAINT preset_vertical_check CHECK (octet_length(vertical) <= 1000);

-- `agency_id`/`partner_id`: an agency's presets in title order. Not partial:
-- it also serves presets/available (the private presets of the user's
-- agency) and the foreign key to agency.
CREATE INDEX preset_agency_idx ON preset (agency_id, title, id);

-- `preset_name`: a case-sensitive prefix of the title, LIKE 'prefix%'. A
-- prefix range scan needs byte-wise comparison, which text_pattern_ops gives
-- whatever the database's collation is.
CREATE INDEX preset_visible_title_prefix_idx ON preset (title text_pattern_ops)
    WHERE active AND NOT private;

-- `vertical`: a literal substring of the stored slug list, LIKE '%...%'.
CREATE INDEX preset_visible_vertical_idx ON preset USING gin (vertical gin_trgm_ops)
    WHERE active AND NOT private;

-- `location`: containment (@>) of a country code, a city or a region key.
CREATE INDEX preset_visible_location_idx ON preset USING gin (location_json jsonb_path_ops)
    WHERE active AND NOT private;

-- The location filter looks for strings in `countries` and objects with a
-- string `key` in `cities` and `regions`; other shapes would never match. The
-- object check of 00010 is kept, under the same name.
ALTER TABLE preset DROP CONSTRAINT preset_location_json_check;
ALTER TABLE preset ADD CONSTRAINT preset_location_json_check CHECK (
    jsonb_typeof(location_json) = 'object'
    AND coalesce(jsonb_typeof(location_json -> 'countries'), 'array') = 'array'
    AND coalesce(jsonb_typeof(location_json -> 'cities'), 'array') = 'array'
    AND coalesce(jsonb_typeof(location_json -> 'regions'), 'array') = 'array'
    AND NOT jsonb_path_exists(location_json, '$.countries[*] ? (@.type() != "string")')
    AND NOT jsonb_path_exists(location_json,
        '$.cities[*] ? (@.type() != "object" || !exists(@.key ? (@.type() == "string")))')
    AND NOT jsonb_path_exists(location_json,
        '$.regions[*] ? (@.type() != "object" || !exists(@.key ? (@.type() == "string")))')
);

-- The rating of a preset is the average of its reviews, computed when a page
-- is shown. The unique key of (preset, user) also carries the rating, so the
-- average of a preset is an index-only range scan of its reviews: no heap
-- access, no second index on a ten-million-row table, and nothing to keep in
-- step (a stored aggregate would need triggers on every review write).
ALTER TABLE review
    DROP CONSTRAINT review_preset_user_key,
    ADD CONSTRAINT review_preset_user_key UNIQUE (preset_id, user_id) INCLUDE (rating);

-- agencies/list `search`: a case-insensitive substring of username,
-- description or locations (ILIKE '%...%'), one trigram column each.
CREATE INDEX agency_search_idx ON agency
    USING gin (username gin_trgm_ops, description gin_trgm_ops, locations gin_trgm_ops);

-- +goose Down
DROP INDEX agency_search_idx;
ALTER TABLE review
    DROP CONSTRAINT review_preset_user_key,
    ADD CONSTRAINT review_preset_user_key UNIQUE (preset_id, user_id);
ALTER TABLE preset DROP CONSTRAINT preset_location_json_check;
ALTER TABLE preset ADD CONSTRAINT preset_location_json_check CHECK (jsonb_typeof(location_json) = 'object');
DROP INDEX preset_visible_location_idx;
DROP INDEX preset_visible_vertical_idx;
DROP INDEX preset_visible_title_prefix_idx;
DROP INDEX preset_agency_idx;
DROP INDEX preset_visible_objective_idx;
DROP INDEX preset_visible_title_idx;
ALTER TABLE preset DROP CONSTRAINT preset_vertical_check;
ALTER TABLE preset ADD CONSTRAINT preset_vertical_check CHECK (length(vertical) <= 1000);
DROP EXTENSION IF EXISTS pg_trgm;
