-- name: GeoCountryCount :one
-- How many countries are loaded; 0 means the geographic data is still to load.
SELECT count(*) FROM geo_country;

-- name: GeoCountryCopy :copyfrom
-- Bulk load of ISO 3166-1 countries.
INSERT INTO geo_country (code, name) VALUES (@code, @name);

-- name: GeoRegionCopy :copyfrom
-- Bulk load of ISO 3166-2 first-level subdivisions.
INSERT INTO geo_region (key, country_code, name) VALUES (@key, @country_code, @name);

-- name: GeoCityCopy :copyfrom
-- Bulk load of GeoNames cities.
INSERT INTO geo_city (id, country_code, region_key, region_name, name, population)
VALUES (@id, @country_code, sqlc.narg(region_key), @region_name, @name, @population);

-- name: GeoLoadLock :exec
-- Serializes loaders of the geographic data until the transaction ends.
SELECT pg_advisory_xact_lock(hashtext('adboost geo load'));
