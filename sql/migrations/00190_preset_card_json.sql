-- Each preset's card stored as the JSON it is answered with. The reads of
-- presets/browse and presets/available sent a card as fifteen columns
-- (jsonb among them), which PostgreSQL wrote out one by one and serve
-- decoded and encoded again, per card and per read. Now preset_card_source
-- makes the part of the Preset object that depends on the catalogue alone
-- as one json value (body: written once, when the card changes, and read
-- as the text it is); the reads add to it what depends on serve's settings
-- (the price and original price with the fixed fee, the absolute image) and
-- the agency object, as JSON that the statement makes, and serve joins
-- these pieces without decoding them.
--
-- body's keys are the Preset object's, less image, price, original_price and
-- agency: id, title, campaign_objective, vertical, version, private,
-- platform, audience_targeting, location_json, description, hashtags,
-- reach, allowed_options, rating. The triggers and preset_card_refresh keep
-- the table as before; json has no equality, so a card is rewritten when
-- the text of its body (or another column) differs.

-- +goose Up
DROP TABLE preset_card;
DROP VIEW preset_card_source;

-- The fields of a card's body, in the order it writes them.
CREATE TYPE preset_card_body AS (
    id                 bigint,
    title              text,
    campaign_objective text,
    vertical           jsonb,
    version            integer,
    private            boolean,
    platform           text,
    audience_targeting text,
    location_json      text,
    description        text,
    hashtags           jsonb,
    reach              jsonb,
    allowed_options    text[],
    rating             bigint
);

CREATE VIEW preset_card_source AS
SELECT
    p.id,
    p.agency_id,
    p.image,
    p.price,
    p.original_price,
    p.number_of_purchases,
    row_to_json(ROW(
        p.id,
        p.title,
        o.label,
        to_jsonb(ARRAY(
            SELECT v.label
            FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
            LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
            ORDER BY s.n
        )),
        p.version,
        p.private,
        p.platform,
        p.audience_targeting,
        p.location_json::text,
        p.description,
        CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
             THEN to_jsonb(coalesce(bc.keywords, '{}'::text[]))
             ELSE '[]'::jsonb END,
        CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
             THEN coalesce(to_jsonb(bc.reach), 'null'::jsonb)
             ELSE '[]'::jsonb END,
        p.allowed_options,
        coalesce((
            SELECT round(avg(r.rating))
            FROM review AS r
            WHERE r.preset_id = p.id
        ), 0)::bigint
    )::preset_card_body) AS body
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;

CREATE TABLE preset_card (
    id                  bigint PRIMARY KEY REFERENCES preset (id) ON DELETE CASCADE,
    agency_id           bigint NOT NULL,
    image               text,
    price               numeric(12,2) NOT NULL,
    original_price      numeric(12,2) NOT NULL,
    number_of_purchases integer NOT NULL,
    -- The reads splice it: a JSON object with at least one key, written
    -- without surrounding space.
    body                json NOT NULL CHECK (body::text LIKE '{"%}')
);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_card_refresh(ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM preset AS p WHERE p.id = ANY (ids) ORDER BY p.id FOR NO KEY UPDATE;
    INSERT INTO preset_card AS c
    SELECT s.* FROM preset_card_source AS s WHERE s.id = ANY (ids) ORDER BY s.id
    ON CONFLICT (id) DO UPDATE SET
        agency_id = EXCLUDED.agency_id, image = EXCLUDED.image, price = EXCLUDED.price,
        original_price = EXCLUDED.original_price, number_of_purchases = EXCLUDED.number_of_purchases,
        body = EXCLUDED.body
    WHERE (c.agency_id, c.image, c.price, c.original_price, c.number_of_purchases, c.body::text)
          IS DISTINCT FROM
          (EXCLUDED.agency_id, EXCLUDED.image, EXCLUDED.price, EXCLUDED.original_price,
           EXCLUDED.number_of_purchases, EXCLUDED.body::text);
END
$$;
-- +goose StatementEnd

INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

-- +goose Down
DROP TABLE preset_card;
DROP VIEW preset_card_source;
DROP TYPE preset_card_body;

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
CREATE OR REPLACE FUNCTION preset_card_refresh(ids bigint[]) RETURNS void
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

INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;
