-- name: VerticalUpsert :batchexec
-- Inserts a vertical of an import file, or relabels the slug.
INSERT INTO vertical (slug, label)
VALUES (@slug, @label)
ON CONFLICT (slug) DO UPDATE SET label = EXCLUDED.label;

-- name: ServiceUpsert :batchexec
-- Inserts a service of an import file, or renames the service with that id.
INSERT INTO service (id, name)
VALUES (@id, @name)
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name;

-- name: IndustryUpsert :batchexec
-- Inserts an industry of an import file, or renames the industry with that id.
INSERT INTO industry (id, name)
VALUES (@id, @name)
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name;

-- name: IdentitySync :exec
-- Moves every identity past the highest id of its table (after an import).
SELECT identity_sync();

-- name: ServiceList :many
-- Every agency service (agencies/services), by name.
SELECT id, name
FROM service
ORDER BY name, id;

-- name: CampaignObjectiveList :many
-- The optimization goals (presets/optimization-goals): every objective code
-- with its label, in the stable order of `position`.
SELECT code AS value, label
FROM campaign_objective
ORDER BY position;
