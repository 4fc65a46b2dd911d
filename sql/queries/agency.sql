-- name: AgencyUpsert :batchexec
-- Inserts an agency of an import file, or updates the agency with that id.
INSERT INTO agency (
    id, username, email, description, about, image, website,
    locations, gps, coordinates, employees
) VALUES (
    @id, @username, sqlc.narg(email), @description, @about, @image, @website,
    @locations, @gps, @coordinates, @employees
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
    employees   = EXCLUDED.employees;

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
