-- name: CatalogueVersion :one
-- The catalogue's version (00052_catalogue_version.sql): read before an
-- answer of the catalogue is looked up in, or made for, the answer cache.
SELECT v.version
FROM catalogue_version AS v
WHERE v.id;
