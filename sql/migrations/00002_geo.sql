-- Geographic data for audience targeting and billing: ISO 3166 countries and
-- their first-level subdivisions, and GeoNames cities of at least 15,000
-- inhabitants. The rows come from the data sets in db/geodata, loaded by the
-- adboost binary after the migrations (db.GeoLoad).

-- +goose Up
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (its dictionary could change); this wrapper names
-- the dictionary and is IMMUTABLE, so that search keys can be stored and
-- indexed.
-- +goose StatementBegin
CREATE FUNCTION geo_search_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN lower(public.unaccent('public.unaccent'::regdictionary, name));
-- +goose StatementEnd

CREATE TABLE geo_country (
    code       text PRIMARY KEY CHECK (code ~ '^[A-Z]{2}$'),
    name       text NOT NULL CHECK (name <> ''),
    search_key text COLLATE "C" GENERATED ALWAYS AS (geo_search_key(name)) STORED
);

-- Name search is a prefix match on the search key: a range scan of this index.
CREATE INDEX geo_country_search_idx ON geo_country (search_key);

CREATE TABLE geo_region (
    key          text PRIMARY KEY CHECK (key <> '' AND length(key) <= 16),
    country_code text NOT NULL REFERENCES geo_country (code),
    name         text NOT NULL CHECK (name <> ''),
    search_key   text COLLATE "C" GENERATED ALWAYS AS (geo_search_key(name)) STORED
);

CREATE INDEX geo_region_search_idx ON geo_region (search_key);
-- geo-locations-by-code lists a country's regions by name.
CREATE INDEX geo_region_country_idx ON geo_region (country_code, name);

CREATE TABLE geo_city (
    id           bigint PRIMARY KEY CHECK (id > 0), -- the GeoNames id
    country_code text NOT NULL REFERENCES geo_country (code),
    region_key   text REFERENCES geo_region (key),
    region_name  text NOT NULL DEFAULT '',
    name         text NOT NULL CHECK (name <> ''),
    population   bigint NOT NULL CHECK (population >= 0),
    search_key   text COLLATE "C" GENERATED ALWAYS AS (geo_search_key(name)) STORED
);

-- Prefix search, larger places first among equal keys.
CREATE INDEX geo_city_search_idx ON geo_city (search_key, population DESC);
-- geo-locations-by-code lists a country's cities, largest first.
CREATE INDEX geo_city_country_idx ON geo_city (country_code, population DESC);

-- +goose Down
DROP TABLE geo_city;
DROP TABLE geo_region;
DROP TABLE geo_country;
DROP FUNCTION geo_search_key(text);
DROP EXTENSION IF EXISTS unaccent;
