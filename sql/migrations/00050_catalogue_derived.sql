-- Derived data of the catalogue (issue 10): shapes of the data that the
-- catalogue's reads need at a million presets, kept exact by PostgreSQL
-- itself, in the same transaction as every change that affects them.
--
--   agency_object          the Agency object of each agency, ready (the
--                          agency_card view, stored): every Preset object
--                          nests one;
--   preset_location        one row per visible preset and location key (a
--                          country code, a city or a region key), with the
--                          preset's title, so that a location filter reads
--                          its page in title order from one index;
--   preset_tally           visible presets per (objective, vertical list);
--   preset_agency_tally    visible presets per agency;
--   preset_location_tally  visible presets per location key and kinds.
--
-- "Visible" is what presets/browse and count list: active AND NOT private.
--
-- How they stay exact (for DBAs): statement-level AFTER triggers (enabled
-- ALWAYS, so also under session_replication_role = replica) with
-- transition tables on every table they derive from (preset; agency,
-- agency_service, agency_industry, service, industry) apply the statement's
-- changes to them in the same transaction: nothing to schedule, nothing
-- stale, and a bulk import pays once per statement rather than once per
-- row. Vertical and objective labels and the rating are not stored: they are
-- read at answer time from their small tables and from the index-only scan of
-- review_preset_user_key. catalogue_derived_rebuild() makes all of it again
-- from the base tables (after a load that disabled the triggers, as the
-- scale benchmark's generator does); a TRUNCATE of preset or agency must be
-- followed by it.
--
-- The tallies are counters: concurrent transactions that change presets of
-- the same objective and vertical list (or agency, or location) wait for each
-- other on that counter row until commit. Catalogue writes are imports, so
-- this is the right trade for counts that cost a lookup; the rows are
-- updated in key order, so two imports never deadlock on them.

-- +goose Up

-- The Agency object of each agency, exactly what agency_card computes.
CREATE TABLE agency_object (
    agency_id bigint PRIMARY KEY REFERENCES agency (id) ON DELETE CASCADE,
    object    jsonb NOT NULL
);

-- agency_object_refresh stores the Agency objects of the given agencies
-- again from agency_card (agencies that no longer exist have no card and
-- their row went with them, ON DELETE CASCADE).
-- +goose StatementBegin
CREATE FUNCTION agency_object_refresh(ids bigint[]) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object
    FROM agency_card AS c
    WHERE c.id = ANY (ids)
    ORDER BY c.id
    ON CONFLICT (agency_id) DO UPDATE SET object = EXCLUDED.object
    WHERE agency_object.object IS DISTINCT FROM EXCLUDED.object;
$$;
-- +goose StatementEnd

-- One trigger function for the tables an Agency object is made of: it
-- collects the agencies that the statement touched (from the transition
-- tables that the trigger declares) and refreshes their objects.
-- +goose StatementBegin
CREATE FUNCTION agency_object_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ids bigint[];
BEGIN
    IF TG_TABLE_NAME = 'agency' THEN
        SELECT array_agg(n.id) INTO ids FROM new_rows AS n;
    ELSIF TG_TABLE_NAME IN ('agency_service', 'agency_industry') THEN
        IF TG_OP = 'INSERT' THEN
            SELECT array_agg(DISTINCT n.agency_id) INTO ids FROM new_rows AS n;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(DISTINCT o.agency_id) INTO ids FROM old_rows AS o;
        ELSE
            SELECT array_agg(DISTINCT x.agency_id) INTO ids
            FROM (SELECT o.agency_id FROM old_rows AS o UNION SELECT n.agency_id FROM new_rows AS n) AS x;
        END IF;
    ELSIF TG_TABLE_NAME = 'service' THEN
        SELECT array_agg(DISTINCT x.agency_id) INTO ids
        FROM agency_service AS x WHERE x.service_id IN (SELECT n.id FROM new_rows AS n);
    ELSIF TG_TABLE_NAME = 'industry' THEN
        SELECT array_agg(DISTINCT x.agency_id) INTO ids
        FROM agency_industry AS x WHERE x.industry_id IN (SELECT n.id FROM new_rows AS n);
    END IF;
    IF ids IS NOT NULL THEN
        PERFORM agency_object_refresh(ids);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER agency_object_insert AFTER INSERT ON agency
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_update AFTER UPDATE ON agency
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_insert AFTER INSERT ON agency_service
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_update AFTER UPDATE ON agency_service
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_delete AFTER DELETE ON agency_service
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_insert AFTER INSERT ON agency_industry
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_update AFTER UPDATE ON agency_industry
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_delete AFTER DELETE ON agency_industry
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
-- A renamed service or industry changes the objects of its agencies (a
-- deleted one cascades to agency_service / agency_industry, above).
CREATE TRIGGER agency_object_update AFTER UPDATE ON service
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
CREATE TRIGGER agency_object_update AFTER UPDATE ON industry
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agency_object_sync();
-- ALWAYS: the derived data stays exact also for loads that run with
-- session_replication_role = replica to skip foreign-key checks. (A logical
-- replication subscriber must therefore not also subscribe to the derived
-- tables: its triggers make them.)
ALTER TABLE agency ENABLE ALWAYS TRIGGER agency_object_insert, ENABLE ALWAYS TRIGGER agency_object_update;
ALTER TABLE agency_service ENABLE ALWAYS TRIGGER agency_object_insert,
    ENABLE ALWAYS TRIGGER agency_object_update, ENABLE ALWAYS TRIGGER agency_object_delete;
ALTER TABLE agency_industry ENABLE ALWAYS TRIGGER agency_object_insert,
    ENABLE ALWAYS TRIGGER agency_object_update, ENABLE ALWAYS TRIGGER agency_object_delete;
ALTER TABLE service ENABLE ALWAYS TRIGGER agency_object_update;
ALTER TABLE industry ENABLE ALWAYS TRIGGER agency_object_update;

-- The location keys of a location document, each with the kinds it is
-- there as (a bit mask: 1 a country code among `countries`, 2 the key of a
-- city, 4 the key of a region). These are exactly the values for which the
-- containment tests of the location filter hold (00011 makes every country
-- a string and every city and region an object with a string key).
-- +goose StatementBegin
CREATE FUNCTION location_keys(doc jsonb) RETURNS TABLE (key text, kinds smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT k.key, bit_or(k.kind)::smallint
    FROM (
        SELECT c.value, 1 FROM jsonb_array_elements_text(coalesce(doc -> 'countries', '[]')) AS c (value)
        UNION ALL
        SELECT c.value ->> 'key', 2 FROM jsonb_array_elements(coalesce(doc -> 'cities', '[]')) AS c (value)
        UNION ALL
        SELECT r.value ->> 'key', 4 FROM jsonb_array_elements(coalesce(doc -> 'regions', '[]')) AS r (value)
    ) AS k (key, kind)
    GROUP BY k.key;
END;
-- +goose StatementEnd

-- The kinds mask of a location filter's type: a country, a city or a region
-- only, or any of them (no type).
CREATE FUNCTION location_kind_mask(location_type text) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE location_type WHEN 'country' THEN 1 WHEN 'city' THEN 2 WHEN 'region' THEN 4 ELSE 7 END;

-- Each visible preset's location keys, with its title: the location filter
-- of presets/browse reads its page from preset_visible_location_idx in title
-- order (one page of index entries for a common country), count reads
-- preset_location_tally, and a combination with other filters probes the
-- primary key (key, preset_id).
CREATE TABLE preset_location (
    key       text NOT NULL,
    preset_id bigint NOT NULL REFERENCES preset (id) ON DELETE CASCADE,
    title     text NOT NULL,
    kinds     smallint NOT NULL CHECK (kinds BETWEEN 1 AND 7),
    PRIMARY KEY (key, preset_id)
);

-- The GIN index on preset.location_json that served the filter by
-- containment is replaced by the title-ordered index of preset_location,
-- under its name. The columns the other filters test ride along (INCLUDE), so
-- that a combination walks this index without visiting the table.
DROP INDEX preset_visible_location_idx;
CREATE INDEX preset_visible_location_idx ON preset_location (key, title, preset_id) INCLUDE (kinds);
-- Keeping preset_location in step finds a preset's rows by the preset.
CREATE INDEX preset_location_preset_idx ON preset_location (preset_id);

-- The counters of the tallies below have no CHECK (presets >= 0): an
-- INSERT ... ON CONFLICT DO UPDATE checks the proposed row, a negative
-- delta, before it finds the conflict. TestCatalogueDerivedExact compares
-- them with their definition.

-- Visible presets per objective and stored vertical list: count without a
-- filter, with `goal`, with `vertical` (a LIKE over the few distinct lists)
-- or both sums a few rows of this table.
CREATE TABLE preset_tally (
    campaign_objective text NOT NULL,
    vertical           text NOT NULL,
    presets            bigint NOT NULL,
    PRIMARY KEY (campaign_objective, vertical)
);

-- Visible presets per agency: count with agency_id / partner_id.
CREATE TABLE preset_agency_tally (
    agency_id bigint PRIMARY KEY,
    presets   bigint NOT NULL
);

-- Visible presets per location key and kinds mask: count with a location
-- sums at most seven rows.
CREATE TABLE preset_location_tally (
    key     text NOT NULL,
    kinds   smallint NOT NULL,
    presets bigint NOT NULL,
    PRIMARY KEY (key, kinds)
);

-- preset_derived_apply takes the rows a statement removed (o: old versions,
-- deleted rows) and added (n: new versions, inserted rows) and applies them
-- to preset_location and the tallies. Only visible rows count. Counters are
-- changed in key order (no deadlock between concurrent imports); a counter
-- that reaches 0 stays as a row of 0.
-- +goose StatementBegin
CREATE FUNCTION preset_derived_apply(o preset[], n preset[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM preset_location AS l
    USING unnest(o) AS x
    WHERE l.preset_id = x.id;

    INSERT INTO preset_location (key, preset_id, title, kinds)
    SELECT k.key, x.id, x.title, k.kinds
    FROM unnest(n) AS x
    CROSS JOIN LATERAL location_keys(x.location_json) AS k
    WHERE x.active AND NOT x.private
    ORDER BY k.key, x.id
    ON CONFLICT (key, preset_id) DO UPDATE SET title = EXCLUDED.title, kinds = EXCLUDED.kinds;

    INSERT INTO preset_tally AS t (campaign_objective, vertical, presets)
    SELECT d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT x.campaign_objective, x.vertical, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.campaign_objective, x.vertical, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.campaign_objective, d.vertical
    ON CONFLICT (campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_agency_tally AS t (agency_id, presets)
    SELECT d.agency_id, sum(d.delta)
    FROM (
        SELECT x.agency_id, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.agency_id, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.agency_id
    HAVING sum(d.delta) <> 0
    ORDER BY d.agency_id
    ON CONFLICT (agency_id) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_location_tally AS t (key, kinds, presets)
    SELECT d.key, d.kinds, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.key, d.kinds
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, d.kinds
    ON CONFLICT (key, kinds) DO UPDATE SET presets = t.presets + EXCLUDED.presets;
$$;
-- +goose StatementEnd

-- The trigger function of preset: the statement's old and new rows, an
-- update restricted to the rows where something the derived data holds
-- changed (visibility, title, location, objective, vertical list, agency),
-- so that e.g. counting a purchase costs nothing here.
-- +goose StatementBegin
CREATE FUNCTION preset_derived_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM preset_derived_apply('{}'::preset[], ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM preset_derived_apply(ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o), '{}'::preset[]);
    ELSE
        PERFORM preset_derived_apply(
            ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o WHERE NOT EXISTS (
                SELECT 1 FROM new_rows AS n
                WHERE n.id = o.id
                  AND (n.active, n.private, n.title, n.location_json, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.location_json, o.campaign_objective, o.vertical, o.agency_id))),
            ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n WHERE NOT EXISTS (
                SELECT 1 FROM old_rows AS o
                WHERE o.id = n.id
                  AND (n.active, n.private, n.title, n.location_json, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.location_json, o.campaign_objective, o.vertical, o.agency_id))));
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER preset_derived_insert AFTER INSERT ON preset
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_derived_sync();
CREATE TRIGGER preset_derived_update AFTER UPDATE ON preset
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_derived_sync();
CREATE TRIGGER preset_derived_delete AFTER DELETE ON preset
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION preset_derived_sync();
-- ALWAYS, as the agency_object triggers above.
ALTER TABLE preset ENABLE ALWAYS TRIGGER preset_derived_insert,
    ENABLE ALWAYS TRIGGER preset_derived_update, ENABLE ALWAYS TRIGGER preset_derived_delete;

-- catalogue_derived_rebuild makes every derived table of this migration
-- again from the base tables. Run by this migration, and after a bulk load
-- that bypassed the triggers.
-- +goose StatementBegin
CREATE FUNCTION catalogue_derived_rebuild() RETURNS void
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

SELECT catalogue_derived_rebuild();
ANALYZE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally;

-- The Preset object nests the stored Agency object (the same value as
-- agency_card's, see above) instead of computing it for every row.
CREATE OR REPLACE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    (
        SELECT coalesce(jsonb_agg(v.label ORDER BY s.n), '[]'::jsonb)
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
    )::jsonb AS vertical,
    p.price,
    p.original_price,
    p.version,
    p.private,
    p.platform,
    p.audience_targeting,
    p.location_json::text AS location_json,
    p.description,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN to_jsonb(coalesce(bc.keywords, '{}'::text[]))
         ELSE '[]'::jsonb END AS hashtags,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN coalesce(to_jsonb(bc.reach), 'null'::jsonb)
         ELSE '[]'::jsonb END AS reach,
    p.allowed_options,
    coalesce((
        SELECT round(avg(r.rating))
        FROM review AS r
        WHERE r.preset_id = p.id
    ), 0)::bigint AS rating,
    ao.object AS agency,
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
JOIN agency_object AS ao ON ao.agency_id = p.agency_id
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;

-- +goose Down
CREATE OR REPLACE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    (
        SELECT coalesce(jsonb_agg(v.label ORDER BY s.n), '[]'::jsonb)
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
    )::jsonb AS vertical,
    p.price,
    p.original_price,
    p.version,
    p.private,
    p.platform,
    p.audience_targeting,
    p.location_json::text AS location_json,
    p.description,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN to_jsonb(coalesce(bc.keywords, '{}'::text[]))
         ELSE '[]'::jsonb END AS hashtags,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN coalesce(to_jsonb(bc.reach), 'null'::jsonb)
         ELSE '[]'::jsonb END AS reach,
    p.allowed_options,
    coalesce((
        SELECT round(avg(r.rating))
        FROM review AS r
        WHERE r.preset_id = p.id
    ), 0)::bigint AS rating,
    ac.object AS agency,
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
JOIN agency_card AS ac ON ac.id = p.agency_id
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;
DROP FUNCTION catalogue_derived_rebuild();
DROP TRIGGER preset_derived_delete ON preset;
DROP TRIGGER preset_derived_update ON preset;
DROP TRIGGER preset_derived_insert ON preset;
DROP FUNCTION preset_derived_sync();
DROP FUNCTION preset_derived_apply(preset[], preset[]);
DROP TABLE preset_location_tally;
DROP TABLE preset_agency_tally;
DROP TABLE preset_tally;
DROP TABLE preset_location;
CREATE INDEX preset_visible_location_idx ON preset USING gin (location_json jsonb_path_ops)
    WHERE active AND NOT private;
DROP FUNCTION location_kind_mask(text);
DROP FUNCTION location_keys(jsonb);
DROP TRIGGER agency_object_update ON industry;
DROP TRIGGER agency_object_update ON service;
DROP TRIGGER agency_object_delete ON agency_industry;
DROP TRIGGER agency_object_update ON agency_industry;
DROP TRIGGER agency_object_insert ON agency_industry;
DROP TRIGGER agency_object_delete ON agency_service;
DROP TRIGGER agency_object_update ON agency_service;
DROP TRIGGER agency_object_insert ON agency_service;
DROP TRIGGER agency_object_update ON agency;
DROP TRIGGER agency_object_insert ON agency;
DROP FUNCTION agency_object_sync();
DROP FUNCTION agency_object_refresh(bigint[]);
DROP TABLE agency_object;
