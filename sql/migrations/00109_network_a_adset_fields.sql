-- What the engine needs to send network_a ad sets it accepts:
-- * network_a_city: network_a's key of each city campaigns target, looked
--   up once (GET /search?type=adgeolocation) for every campaign; a null key
--   is a city network_a does not know.
-- * network_a_campaign.account_dsa_beneficiary / account_dsa_payor: the ad
--   account's own defaults for the EU's transparency fields, as last read;
--   a field the account has a default for is not sent.
-- * app_user.network_a_token_refusal: why network_a refused the user's
--   token, in the words the campaigns' token_refused state shows; set with
--   network_a_token_invalid_at (and cleared by the next sign-in, which
--   clears that).
-- * network_a_targeting_countries: the countries a targeting reaches (its
--   countries and its cities' countries).
-- * network_a_eu: whether one of them is in the EU.
-- * network_a_adset_targeting: a campaign's targeting as network_a takes
--   it (its cities by network_a's keys, the Advantage audience flag always
--   given, network_b left out of the platforms of a page without a linked
--   network_b account).

-- +goose Up
CREATE TABLE network_a_city (
    city_key      text PRIMARY KEY CHECK (city_key ~ '^[1-9][0-9]{0,18}$'),
    network_a_key text CHECK (network_a_key ~ '^[0-9A-Za-z_.:-]{1,64}$'),
    looked_up_at  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE network_a_campaign
    ADD COLUMN account_dsa_beneficiary text CHECK (char_length(account_dsa_beneficiary) BETWEEN 1 AND 512),
    ADD COLUMN account_dsa_payor text CHECK (char_length(account_dsa_payor) BETWEEN 1 AND 512);

ALTER TABLE app_user
    ADD COLUMN network_a_token_refusal text CHECK (char_length(network_a_token_refusal) <= 2000);

-- These functions are PL/pgSQL so that each session plans their
-- statements once: the engine calls them for every ad set it checks, and a
-- SQL function with subqueries is planned again at every call.

-- The country codes a targeting reaches, sorted, each once: its countries
-- and the countries of its cities (the city's own, else the geographic
-- data's).
-- +goose StatementBegin
CREATE FUNCTION network_a_targeting_countries(targeting jsonb) RETURNS text[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
BEGIN
    RETURN ARRAY(
        SELECT DISTINCT t.code
        FROM (
            SELECT x.code
            FROM jsonb_array_elements_text(coalesce(targeting -> 'geo_locations' -> 'countries', '[]')) AS x (code)
            UNION ALL
            SELECT coalesce(city ->> 'country', g.country_code)
            FROM jsonb_array_elements(coalesce(targeting -> 'geo_locations' -> 'cities', '[]')) AS city
            LEFT JOIN geo_city AS g ON g.id = (city ->> 'key')::bigint
        ) AS t
        WHERE t.code IS NOT NULL
        ORDER BY t.code);
END
$$;
-- +goose StatementEnd

-- Whether a targeting reaches a country of the EU, where an ad set must
-- name who benefits from its ads and who pays for them.
-- +goose StatementBegin
CREATE FUNCTION network_a_eu(targeting jsonb) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
BEGIN
    RETURN network_a_targeting_countries(targeting) && ARRAY[
        'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
        'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']::text[];
END
$$;
-- +goose StatementEnd

-- A campaign's targeting as network_a takes it:
-- * each city as {"key": network_a's key, "radius", "distance_unit"} (a
--   city not looked up yet, or unknown, has no key: the engine looks cities
--   up, and stops at unknown ones, before it sends a targeting);
-- * targeting_automation.advantage_audience as the campaign gives it, else 0;
-- * with page_has_b false (the page has no linked network_b account),
--   network_b left out of publisher_platforms (network_a alone when nothing
--   else is left, or none was named) and no network_b_positions.
-- +goose StatementBegin
CREATE FUNCTION network_a_adset_targeting(targeting jsonb, page_has_b boolean) RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
    shaped jsonb := CASE WHEN page_has_b THEN targeting ELSE targeting - 'network_b_positions' END;
BEGIN
    shaped := shaped || jsonb_build_object('targeting_automation', jsonb_build_object('advantage_audience',
        coalesce(targeting -> 'targeting_automation' -> 'advantage_audience', '0'::jsonb)));
    IF targeting -> 'geo_locations' ? 'cities' THEN
        shaped := shaped || jsonb_build_object('geo_locations', (targeting -> 'geo_locations') || jsonb_build_object('cities', (
            SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                       'key', m.network_a_key,
                       'radius', x.city -> 'radius',
                       'distance_unit', x.city -> 'distance_unit')) ORDER BY x.n), '[]'::jsonb)
            FROM jsonb_array_elements(targeting -> 'geo_locations' -> 'cities') WITH ORDINALITY AS x (city, n)
            LEFT JOIN network_a_city AS m ON m.city_key = x.city ->> 'key')));
    END IF;
    IF NOT page_has_b THEN
        shaped := shaped || jsonb_build_object('publisher_platforms', coalesce((
            SELECT jsonb_agg(p.value)
            FROM jsonb_array_elements(targeting -> 'publisher_platforms') AS p
            WHERE p.value <> '"network_b"'), '["network_a"]'::jsonb));
    END IF;
    RETURN shaped;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION network_a_adset_targeting(jsonb, boolean);
DROP FUNCTION network_a_eu(jsonb);
DROP FUNCTION network_a_targeting_countries(jsonb);
ALTER TABLE app_user DROP COLUMN network_a_token_refusal;
ALTER TABLE network_a_campaign DROP COLUMN account_dsa_payor, DROP COLUMN account_dsa_beneficiary;
DROP TABLE network_a_city;
