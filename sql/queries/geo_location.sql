-- Geographic lookups for audience targeting (GeoLocation objects of the
-- interface: value = ISO code of a country, ISO 3166-2 key of a region,
-- GeoNames id of a city; region = the city's region name, '' otherwise).

-- name: GeoLocationSearch :many
-- boosted-pages/geo-locations: countries, regions and cities whose name
-- starts with @query, ignoring case and accents ("zur" finds Zürich), of
-- @type ('country', 'region', 'city', or '' for all). Exact matches first;
-- then larger places first: a country before a region before a city (they
-- have no population), cities by population; then by name. At most 25.
-- Each kind is a range scan of its search_key index (C collation), with
-- bounds computed from the parameter, so a prepared statement's generic plan
-- uses the index as well.
SELECT hit.value, hit.label, hit.type, hit.region, hit.country_name
FROM (
    (SELECT
        g.code AS value, g.name AS label, 'country'::text AS type, ''::text AS region,
        g.name AS country_name, g.search_key = geo_search_key(@query::text) AS exact,
        1 AS rank, NULL::bigint AS population
     FROM geo_country AS g
     WHERE @type::text IN ('', 'country')
       AND g.search_key >= geo_search_key(@query::text) COLLATE "C"
       AND g.search_key < (geo_search_key(@query::text) || chr(1114111)) COLLATE "C"
     ORDER BY exact DESC, g.name, g.code
     LIMIT 25)
    UNION ALL
    (SELECT
        r.key, r.name, 'region', '', c.name, r.search_key = geo_search_key(@query::text),
        2, NULL
     FROM geo_region AS r
     JOIN geo_country AS c ON c.code = r.country_code
     WHERE @type::text IN ('', 'region')
       AND r.search_key >= geo_search_key(@query::text) COLLATE "C"
       AND r.search_key < (geo_search_key(@query::text) || chr(1114111)) COLLATE "C"
     ORDER BY 6 DESC, r.name, r.key
     LIMIT 25)
    UNION ALL
    (SELECT
        ci.id::text, ci.name, 'city', ci.region_name, c.name, ci.search_key = geo_search_key(@query::text),
        3, ci.population
     FROM geo_city AS ci
     JOIN geo_country AS c ON c.code = ci.country_code
     WHERE @type::text IN ('', 'city')
       AND ci.search_key >= geo_search_key(@query::text) COLLATE "C"
       AND ci.search_key < (geo_search_key(@query::text) || chr(1114111)) COLLATE "C"
     ORDER BY 6 DESC, ci.population DESC, ci.name, ci.id
     LIMIT 25)
) AS hit
ORDER BY hit.exact DESC, hit.rank, hit.population DESC, hit.label, hit.value
LIMIT 25;

-- name: GeoLocationsByCode :many
-- boosted-pages/geo-locations-by-code: the locations of @type ('country',
-- 'region', 'city', or '' for all) in the country with ISO code @country;
-- with @key (not ''), only the location with that key. The country first,
-- then its regions by name, then its cities, largest first.
SELECT hit.value, hit.label, hit.type, hit.region, hit.country_name
FROM (
    SELECT g.code AS value, g.name AS label, 'country'::text AS type, ''::text AS region,
           g.name AS country_name, 1 AS rank, NULL::bigint AS population
    FROM geo_country AS g
    WHERE @type::text IN ('', 'country')
      AND g.code = @country::text
      AND (@key::text = '' OR g.code = @key::text)
    UNION ALL
    SELECT r.key, r.name, 'region', '', c.name, 2, NULL
    FROM geo_region AS r
    JOIN geo_country AS c ON c.code = r.country_code
    WHERE @type::text IN ('', 'region')
      AND r.country_code = @country::text
      AND (@key::text = '' OR r.key = @key::text)
    UNION ALL
    SELECT ci.id::text, ci.name, 'city', ci.region_name, c.name, 3, ci.population
    FROM geo_city AS ci
    JOIN geo_country AS c ON c.code = ci.country_code
    WHERE @type::text IN ('', 'city')
      AND ci.country_code = @country::text
      AND (@key::text = '' OR ci.id::text = @key::text)
) AS hit
ORDER BY hit.rank, hit.population DESC, hit.label, hit.value;

-- name: GeoCountriesUnknown :one
-- The codes among @codes that are not ISO 3166 countries of geo_country.
SELECT coalesce(array_agg(DISTINCT x.code ORDER BY x.code), '{}')::text[] AS unknown
FROM unnest(@codes::text[]) AS x (code)
WHERE NOT EXISTS (SELECT 1 FROM geo_country AS g WHERE g.code = x.code);
