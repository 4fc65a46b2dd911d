-- name: AgencyUpsert :batchexec
-- Inserts an agency of an import file, or updates the agency with that id.
INSERT INTO agency (
    id, username, email, description, about, image, website,
    locations, gps, coordinates, employees, listed
) VALUES (
    @id, @username, sqlc.narg(email), @description, @about, @image, @website,
    @locations, @gps, @coordinates, @employees, @listed
)
ON CONFLICT (id) DO UPDATE SET
    username    = EXCLUDED.username,
    email       = EXCLUDED.email,
    description = EXCLUDED.description,
    about       = EXCLUDED.about,
    image       = EXCLUDED.image,
    website     = EXCLUDED.website,
    locations   = EXCLUDED.locations,
    gps         = EXCLUDED.gps,
    coordinates = EXCLUDED.coordinates,
    employees   = EXCLUDED.employees,
    listed      = EXCLUDED.listed;

-- name: AgencyServicesReplace :batchexec
-- Makes @service_ids the agency's services: drops the others, adds the new
-- with the agency's username (the order of agencies/list).
WITH dropped AS (
    DELETE FROM agency_service
    WHERE agency_id = @agency_id
      AND service_id <> ALL (@service_ids::bigint[])
)
INSERT INTO agency_service (agency_id, service_id, agency_username)
SELECT a.id, s.service_id, a.username
FROM agency AS a, unnest(@service_ids::bigint[]) AS s (service_id)
WHERE a.id = @agency_id
ON CONFLICT DO NOTHING;

-- name: AgencyIndustriesReplace :batchexec
-- Makes @industry_ids the agency's industries: drops the others, adds the new
-- with the agency's username (the order of agencies/list).
WITH dropped AS (
    DELETE FROM agency_industry
    WHERE agency_id = @agency_id
      AND industry_id <> ALL (@industry_ids::bigint[])
)
INSERT INTO agency_industry (agency_id, industry_id, agency_username)
SELECT a.id, i.industry_id, a.username
FROM agency AS a, unnest(@industry_ids::bigint[]) AS i (industry_id)
WHERE a.id = @agency_id
ON CONFLICT DO NOTHING;

-- name: AgencyListAll :many
-- One page of the agency directory without filters: the listed agencies
-- by username then id from agency_username_idx, as the other AgencyList
-- statements answer them. No filter, so one plan serves every request as a
-- prepared statement (those with filters are planned at each request).
WITH page AS (
    SELECT a.id, a.username
    FROM agency AS a
    WHERE a.listed
    ORDER BY a.username, a.id
    LIMIT least(sqlc.arg(page_size)::int, 50)
    OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
)
SELECT o.object AS agency
FROM page
JOIN agency_object AS o ON o.agency_id = page.id
ORDER BY page.username, page.id;

-- name: AgencyListSearch :many
-- One page of the agency directory (agencies/list) with a search and
-- neither a service nor an industry: the listed agencies whose username,
-- description or locations hold @search (a case-insensitive, literal
-- substring: agency_matches), by username then id. Planned for its search
-- (perRequestPlans in http/catalogue.go): one that most agencies match is
-- read in username order from agency_username_idx up to the end of the
-- page, a rare one from agency_search_text_idx (trigram) and sorted.
-- Paging as AgencyListAll.
WITH page AS (
    SELECT a.id, a.username
    FROM agency AS a
    WHERE a.listed
      AND agency_matches(a.search_text, @search::text)
    ORDER BY a.username, a.id
    LIMIT least(sqlc.arg(page_size)::int, 50)
    OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
)
SELECT o.object AS agency
FROM page
JOIN agency_object AS o ON o.agency_id = page.id
ORDER BY page.username, page.id;

-- name: AgencyListByService :many
-- One page of the agency directory (agencies/list) with a service: the
-- listed agencies that offer @service_id, by username then id, read in that
-- order from the service's own entries (agency_service_service_idx: service,
-- agency_username, agency_id) up to the end of the page, each checked against
-- the industry (it works for that industry) and the search (agency_matches),
-- a filter given as NULL passing everything. The agency of each entry is
-- looked up by its key in a scalar subquery of the filter: PostgreSQL runs it
-- for each entry of the walk, and neither joins it the other way round nor
-- caches its answers by agency (a Memoize node, which only costs here, as
-- each agency comes once in a service's entries). The walk reads at most the
-- service's entries, where a join from the agencies that the search
-- matches reads every one of them, however many the planner expects.
-- Planned for its values (perRequestPlans in http/catalogue.go). Paging as
-- AgencyListAll.
WITH page AS (
    SELECT x.agency_id, x.agency_username
    FROM agency_service AS x
    WHERE x.service_id = @service_id
      AND (SELECT a.listed AND agency_matches(a.search_text, sqlc.narg(search)::text)
           FROM agency AS a WHERE a.id = x.agency_id)
      AND (sqlc.narg(industry_id)::bigint IS NULL
           OR EXISTS (SELECT 1 FROM agency_industry AS y
                      WHERE y.agency_id = x.agency_id AND y.industry_id = sqlc.narg(industry_id)::bigint))
    ORDER BY x.agency_username, x.agency_id
    LIMIT least(sqlc.arg(page_size)::int, 50)
    OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
)
SELECT o.object AS agency
FROM page
JOIN agency_object AS o ON o.agency_id = page.agency_id
ORDER BY page.agency_username, page.agency_id;

-- name: AgencyListByIndustry :many
-- One page of the agency directory (agencies/list) with an industry and no
-- service: the listed agencies that work for @industry_id, by username then
-- id, read in that order from the industry's own entries
-- (agency_industry_industry_idx) up to the end of the page, each checked
-- against the search (agency_matches; NULL passes everything) by a lookup
-- of its agency, as AgencyListByService does. Planned for its values
-- (perRequestPlans in http/catalogue.go). Paging as AgencyListAll.
WITH page AS (
    SELECT y.agency_id, y.agency_username
    FROM agency_industry AS y
    WHERE y.industry_id = @industry_id
      AND (SELECT a.listed AND agency_matches(a.search_text, sqlc.narg(search)::text)
           FROM agency AS a WHERE a.id = y.agency_id)
    ORDER BY y.agency_username, y.agency_id
    LIMIT least(sqlc.arg(page_size)::int, 50)
    OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
)
SELECT o.object AS agency
FROM page
JOIN agency_object AS o ON o.agency_id = page.agency_id
ORDER BY page.agency_username, page.agency_id;

-- name: AgencyDetail :one
-- The Agency object of one listed agency (agencies/detail/{id}); no row
-- (unknown, or a user's own unlisted agency): 404. Read ready from
-- agency_object.
SELECT o.object AS agency
FROM agency_object AS o
JOIN agency AS a ON a.id = o.agency_id
WHERE o.agency_id = @id
  AND a.listed;

-- name: AgencyObjects :many
-- The Agency objects of the agencies @ids, each once whatever the ids
-- repeat, in no order (presets/available joins them to its cards by id): a
-- primary-key lookup each in agency_object.
SELECT o.agency_id, o.object AS agency
FROM agency_object AS o
WHERE o.agency_id = ANY(@ids::bigint[]);
