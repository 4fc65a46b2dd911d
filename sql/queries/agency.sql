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
-- Makes @service_ids the agency's services: drops the others, adds the new.
WITH dropped AS (
    DELETE FROM agency_service
    WHERE agency_id = @agency_id
      AND service_id <> ALL (@service_ids::bigint[])
)
INSERT INTO agency_service (agency_id, service_id)
SELECT @agency_id, s.service_id
FROM unnest(@service_ids::bigint[]) AS s (service_id)
ON CONFLICT DO NOTHING;

-- name: AgencyIndustriesReplace :batchexec
-- Makes @industry_ids the agency's industries: drops the others, adds the new.
WITH dropped AS (
    DELETE FROM agency_industry
    WHERE agency_id = @agency_id
      AND industry_id <> ALL (@industry_ids::bigint[])
)
INSERT INTO agency_industry (agency_id, industry_id)
SELECT @agency_id, i.industry_id
FROM unnest(@industry_ids::bigint[]) AS i (industry_id)
ON CONFLICT DO NOTHING;

-- name: AgencyListAll :many
-- One page of the agency directory without filters: the listed agencies
-- by username then id from agency_username_idx, as AgencyList answers
-- them. No optional filter, so one plan serves every request as a prepared
-- statement (AgencyList is planned at each request, for its filters).
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

-- name: AgencyList :many
-- One page of the agency directory (agencies/list) with filters: the
-- listed agencies passing every given filter, by username then id. A filter given
-- as NULL passes everything (the request is planned for its own values, see
-- perRequestPlans in http/catalogue.go; without filters, AgencyListAll):
--   search: a case-insensitive, literal substring of username, description
--     or locations (agency_matches);
--   service, industry: the agency offers that service / works for that
--     industry.
-- Three ways to the page, of which the planner keeps the one whose
-- condition on the filters given holds (the others fold to nothing):
--   neither a service nor an industry: the listed agencies in username
--     order (agency_username_idx), each checked against the search, up to
--     the end of the page;
--   a service: its agencies (agency_service_service_idx), each checked
--     against the industry and the search, then sorted: a service has a
--     fraction of the directory, where the username order would read every
--     agency before the page, or all of them when few match;
--   an industry without a service: its agencies
--     (agency_industry_industry_idx), likewise.
-- Paging as PresetBrowse. The Agency objects of the page's rows
-- are read ready from agency_object (00050_catalogue_derived.sql).
WITH page AS (
    (SELECT a.id, a.username
     FROM agency AS a
     WHERE sqlc.narg(service_id)::bigint IS NULL AND sqlc.narg(industry_id)::bigint IS NULL
       AND a.listed
       AND agency_matches(a.search_text, sqlc.narg(search)::text)
     ORDER BY a.username, a.id
     LIMIT least(sqlc.arg(page_size)::int, 50)
     OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50))
    UNION ALL
    (SELECT a.id, a.username
     FROM agency_service AS x
     JOIN agency AS a ON a.id = x.agency_id
     WHERE x.service_id = sqlc.narg(service_id)::bigint
       AND a.listed
       AND (sqlc.narg(industry_id)::bigint IS NULL
            OR EXISTS (SELECT 1 FROM agency_industry AS y
                       WHERE y.industry_id = sqlc.narg(industry_id)::bigint AND y.agency_id = a.id))
       AND agency_matches(a.search_text, sqlc.narg(search)::text)
     ORDER BY a.username, a.id
     LIMIT least(sqlc.arg(page_size)::int, 50)
     OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50))
    UNION ALL
    (SELECT a.id, a.username
     FROM agency_industry AS y
     JOIN agency AS a ON a.id = y.agency_id
     WHERE sqlc.narg(service_id)::bigint IS NULL
       AND y.industry_id = sqlc.narg(industry_id)::bigint
       AND a.listed
       AND agency_matches(a.search_text, sqlc.narg(search)::text)
     ORDER BY a.username, a.id
     LIMIT least(sqlc.arg(page_size)::int, 50)
     OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50))
)
SELECT o.object AS agency
FROM page
JOIN agency_object AS o ON o.agency_id = page.id
ORDER BY page.username, page.id;

-- name: AgencyDetail :one
-- The Agency object of one listed agency (agencies/detail/{id}); no row
-- (unknown, or a user's own unlisted agency): 404. Read ready from
-- agency_object.
SELECT o.object AS agency
FROM agency_object AS o
JOIN agency AS a ON a.id = o.agency_id
WHERE o.agency_id = @id
  AND a.listed;
