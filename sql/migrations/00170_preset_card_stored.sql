-- Each preset's card made once (table preset_card), not at every read of
-- presets/browse and presets/available: the objective's label, the
-- vertical slugs' labels, the boosting condition's hashtags and reach and
-- the rounded average of the reviews come from four tables and an
-- aggregate, which for a page of 50 presets cost more than the rest of the
-- read. View preset_card_source says what a card is (as view preset_card
-- did, without the agency, which the reads join from agency_object: an
-- agency's change would otherwise rewrite every card of the agency); the
-- table holds its rows.
--
-- Kept by statement triggers in the transaction of the change:
-- preset_card_insert and preset_card_update on preset; preset_card_insert,
-- preset_card_update and preset_card_delete on boosting_condition, review
-- and vertical; preset_card_update on campaign_objective (a new objective
-- has no preset yet, and one in use cannot be deleted). A deleted preset's
-- card goes with it (ON DELETE CASCADE). Each makes the cards of the
-- presets concerned again from the view (preset_card_refresh), after taking
-- their presets' rows in id order: two transactions that change one
-- preset's card (two reviews at once) make it one after the other, the
-- second from what the first committed. catalogue_derived_rebuild() also
-- makes the table again, after a load with the triggers off.

-- +goose Up
DROP VIEW preset_card;

CREATE VIEW preset_card_source AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    to_jsonb(ARRAY(
        SELECT v.label
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
        ORDER BY s.n
    )) AS vertical,
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
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;

CREATE TABLE preset_card (
    id                  bigint PRIMARY KEY REFERENCES preset (id) ON DELETE CASCADE,
    title               text NOT NULL,
    image               text,
    campaign_objective  text NOT NULL,
    vertical            jsonb NOT NULL,
    price               numeric(12,2) NOT NULL,
    original_price      numeric(12,2) NOT NULL,
    version             integer NOT NULL,
    private             boolean NOT NULL,
    platform            text NOT NULL,
    audience_targeting  text NOT NULL,
    location_json       text NOT NULL,
    description         text NOT NULL,
    hashtags            jsonb NOT NULL,
    reach               jsonb NOT NULL,
    allowed_options     text[] NOT NULL,
    rating              bigint NOT NULL,
    number_of_purchases integer NOT NULL,
    active              boolean NOT NULL,
    agency_id           bigint NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION preset_card_refresh(ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM preset AS p WHERE p.id = ANY (ids) ORDER BY p.id FOR NO KEY UPDATE;
    INSERT INTO preset_card AS c
    SELECT s.* FROM preset_card_source AS s WHERE s.id = ANY (ids) ORDER BY s.id
    ON CONFLICT (id) DO UPDATE SET
        title = EXCLUDED.title, image = EXCLUDED.image, campaign_objective = EXCLUDED.campaign_objective,
        vertical = EXCLUDED.vertical, price = EXCLUDED.price, original_price = EXCLUDED.original_price,
        version = EXCLUDED.version, private = EXCLUDED.private, platform = EXCLUDED.platform,
        audience_targeting = EXCLUDED.audience_targeting, location_json = EXCLUDED.location_json,
        description = EXCLUDED.description, hashtags = EXCLUDED.hashtags, reach = EXCLUDED.reach,
        allowed_options = EXCLUDED.allowed_options, rating = EXCLUDED.rating,
        number_of_purchases = EXCLUDED.number_of_purchases, active = EXCLUDED.active,
        agency_id = EXCLUDED.agency_id
    WHERE c IS DISTINCT FROM EXCLUDED;
END
$$;
-- +goose StatementEnd

-- The presets whose cards a statement's rows concern: on preset, the rows'
-- own ids; on boosting_condition and review, their preset_id (before and
-- after); on vertical, the presets whose slug list names a slug of the
-- rows; on campaign_objective, the presets of the rows' codes.
-- +goose StatementBegin
CREATE FUNCTION preset_card_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    ids bigint[] := '{}';
    keys text[] := '{}';
BEGIN
    IF TG_TABLE_NAME = 'preset' THEN
        SELECT array_agg(n.id) INTO ids FROM new_rows AS n;
    ELSIF TG_TABLE_NAME IN ('boosting_condition', 'review') THEN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            ids := ids || ARRAY(SELECT n.preset_id FROM new_rows AS n);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            ids := ids || ARRAY(SELECT o.preset_id FROM old_rows AS o);
        END IF;
    ELSIF TG_TABLE_NAME = 'vertical' THEN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            keys := keys || ARRAY(SELECT n.slug FROM new_rows AS n);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            keys := keys || ARRAY(SELECT o.slug FROM old_rows AS o);
        END IF;
        ids := ARRAY(SELECT p.id FROM preset AS p
                     WHERE ARRAY(SELECT btrim(s) FROM unnest(string_to_array(p.vertical, ',')) AS s) && keys);
    ELSIF TG_TABLE_NAME = 'campaign_objective' THEN
        ids := ARRAY(SELECT p.id FROM preset AS p
                     WHERE p.campaign_objective IN (SELECT o.code FROM old_rows AS o
                                                    UNION SELECT n.code FROM new_rows AS n));
    END IF;
    IF cardinality(ids) > 0 THEN
        PERFORM preset_card_refresh(ARRAY(SELECT DISTINCT unnest(ids)));
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER preset_card_insert AFTER INSERT ON preset
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE preset ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_update AFTER UPDATE ON preset
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE preset ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_insert AFTER INSERT ON boosting_condition
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE boosting_condition ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_update AFTER UPDATE ON boosting_condition
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE boosting_condition ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_delete AFTER DELETE ON boosting_condition
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE boosting_condition ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_insert AFTER INSERT ON review
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE review ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_update AFTER UPDATE ON review
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE review ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_delete AFTER DELETE ON review
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE review ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_insert AFTER INSERT ON vertical
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE vertical ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_update AFTER UPDATE ON vertical
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE vertical ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_delete AFTER DELETE ON vertical
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE vertical ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_update AFTER UPDATE ON campaign_objective
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION preset_card_sync();
ALTER TABLE campaign_objective ENABLE ALWAYS TRIGGER preset_card_update;

INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_title_prefix, preset_card;

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

    INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
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

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

DROP TRIGGER preset_card_update ON campaign_objective;
DROP TRIGGER preset_card_delete ON vertical;
DROP TRIGGER preset_card_update ON vertical;
DROP TRIGGER preset_card_insert ON vertical;
DROP TRIGGER preset_card_delete ON review;
DROP TRIGGER preset_card_update ON review;
DROP TRIGGER preset_card_insert ON review;
DROP TRIGGER preset_card_delete ON boosting_condition;
DROP TRIGGER preset_card_update ON boosting_condition;
DROP TRIGGER preset_card_insert ON boosting_condition;
DROP TRIGGER preset_card_update ON preset;
DROP TRIGGER preset_card_insert ON preset;
DROP FUNCTION preset_card_sync();
DROP FUNCTION preset_card_refresh(bigint[]);
DROP TABLE preset_card;
DROP VIEW preset_card_source;

CREATE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    to_jsonb(ARRAY(
        SELECT v.label
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
        ORDER BY s.n
    )) AS vertical,
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

