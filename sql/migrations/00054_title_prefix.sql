-- The title prefix filter of presets/browse (issue 10), read in title order.
-- `preset_name` is a literal prefix of the title; under a collation other
-- than C, titles that share a prefix are not one range of the title order,
-- so the prefix index of 00011 (byte order) finds them but cannot give them
-- in title order, and walking the title-ordered index reads every title
-- before the first match (at a million presets, ~200 ms for a prefix late in
-- the alphabet). preset_title_prefix holds each visible preset's first one,
-- two and three characters with its title: a prefix of up to three
-- characters (the common, unselective ones) reads exactly its presets in
-- title order from preset_title_prefix_idx. A longer prefix is selective and
-- stays with the prefix index of 00011 and a sort of its few matches.
--
-- Kept exact like the tables of 00050: statement-level triggers (enabled
-- ALWAYS) on preset apply each statement's changed rows in the same
-- transaction; catalogue_derived_rebuild() makes it again with the rest.

-- +goose Up
CREATE TABLE preset_title_prefix (
    prefix    text NOT NULL CHECK (char_length(prefix) BETWEEN 1 AND 3),
    preset_id bigint NOT NULL REFERENCES preset (id) ON DELETE CASCADE,
    title     text NOT NULL,
    PRIMARY KEY (prefix, preset_id)
);
CREATE INDEX preset_title_prefix_idx ON preset_title_prefix (prefix, title, preset_id);
-- Keeping it in step finds a preset's rows by the preset.
CREATE INDEX preset_title_prefix_preset_idx ON preset_title_prefix (preset_id);

-- The statement's removed (o) and added (n) rows, as preset_derived_apply.
-- +goose StatementBegin
CREATE FUNCTION preset_title_prefix_apply(o preset[], n preset[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM preset_title_prefix AS t
    USING unnest(o) AS x
    WHERE t.preset_id = x.id;

    INSERT INTO preset_title_prefix (prefix, preset_id, title)
    SELECT DISTINCT left(x.title, k.k), x.id, x.title
    FROM unnest(n) AS x
    CROSS JOIN generate_series(1, 3) AS k (k)
    WHERE x.active AND NOT x.private
    ON CONFLICT (prefix, preset_id) DO UPDATE SET title = EXCLUDED.title;
$$;
-- +goose StatementEnd

-- An update counts when visibility or the title changed.
-- +goose StatementBegin
CREATE FUNCTION preset_title_prefix_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM preset_title_prefix_apply('{}'::preset[], ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM preset_title_prefix_apply(ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o), '{}'::preset[]);
    ELSE
        PERFORM preset_title_prefix_apply(
            ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o WHERE NOT EXISTS (
                SELECT 1 FROM new_rows AS n
                WHERE n.id = o.id AND (n.active, n.private, n.title) IS NOT DISTINCT FROM (o.active, o.private, o.title))),
            ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n WHERE NOT EXISTS (
                SELECT 1 FROM old_rows AS o
                WHERE o.id = n.id AND (n.active, n.private, n.title) IS NOT DISTINCT FROM (o.active, o.private, o.title))));
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER preset_title_prefix_insert AFTER INSERT ON preset
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_title_prefix_sync();
CREATE TRIGGER preset_title_prefix_update AFTER UPDATE ON preset
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_title_prefix_sync();
CREATE TRIGGER preset_title_prefix_delete AFTER DELETE ON preset
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_title_prefix_sync();
ALTER TABLE preset ENABLE ALWAYS TRIGGER preset_title_prefix_insert,
    ENABLE ALWAYS TRIGGER preset_title_prefix_update, ENABLE ALWAYS TRIGGER preset_title_prefix_delete;

-- catalogue_derived_rebuild also makes preset_title_prefix again.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
LANGUAGE sql AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_title_prefix;

    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object FROM agency_card AS c;

    INSERT INTO preset_location (key, preset_id, title, kinds)
    SELECT k.key, p.id, p.title, k.kinds
    FROM preset AS p
    CROSS JOIN LATERAL location_keys(p.location_json) AS k
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_tally (campaign_objective, vertical, presets)
    SELECT p.campaign_objective, p.vertical, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.campaign_objective, p.vertical;

    INSERT INTO preset_agency_tally (agency_id, presets)
    SELECT p.agency_id, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.agency_id;

    INSERT INTO preset_location_tally (key, kinds, presets)
    SELECT l.key, l.kinds, count(*)
    FROM preset_location AS l
    GROUP BY l.key, l.kinds;

    INSERT INTO preset_title_prefix (prefix, preset_id, title)
    SELECT DISTINCT left(p.title, n.n), p.id, p.title
    FROM preset AS p
    CROSS JOIN generate_series(1, 3) AS n (n)
    WHERE p.active AND NOT p.private;
$$;
-- +goose StatementEnd

INSERT INTO preset_title_prefix (prefix, preset_id, title)
SELECT DISTINCT left(p.title, n.n), p.id, p.title
FROM preset AS p
CROSS JOIN generate_series(1, 3) AS n (n)
WHERE p.active AND NOT p.private;
ANALYZE preset_title_prefix;

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
LANGUAGE sql AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally;

    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object FROM agency_card AS c;

    INSERT INTO preset_location (key, preset_id, title, kinds)
    SELECT k.key, p.id, p.title, k.kinds
    FROM preset AS p
    CROSS JOIN LATERAL location_keys(p.location_json) AS k
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_tally (campaign_objective, vertical, presets)
    SELECT p.campaign_objective, p.vertical, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.campaign_objective, p.vertical;

    INSERT INTO preset_agency_tally (agency_id, presets)
    SELECT p.agency_id, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.agency_id;

    INSERT INTO preset_location_tally (key, kinds, presets)
    SELECT l.key, l.kinds, count(*)
    FROM preset_location AS l
    GROUP BY l.key, l.kinds;
$$;
-- +goose StatementEnd
DROP TRIGGER preset_title_prefix_delete ON preset;
DROP TRIGGER preset_title_prefix_update ON preset;
DROP TRIGGER preset_title_prefix_insert ON preset;
DROP FUNCTION preset_title_prefix_sync();
DROP FUNCTION preset_title_prefix_apply(preset[], preset[]);
DROP TABLE preset_title_prefix;
