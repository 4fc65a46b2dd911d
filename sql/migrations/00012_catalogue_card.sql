-- The response shapes of the catalogue, defined once: the Agency object and
-- the Preset object of the interface (spec "Preset", "Agency"). The queries in
-- sql/queries/preset.sql and agency.sql select from these views after they
-- have picked their page of ids, so that the per-row work (labels, rating, the
-- nested agency) is done for the rows answered only.

-- +goose Up

-- like_escape makes a text match itself literally in LIKE/ILIKE: `%`, `_`
-- and the escape character `\` become ordinary characters. Inlined and
-- folded to a constant by the planner, so a trigram or prefix index still
-- serves the pattern.
CREATE FUNCTION like_escape(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN replace(replace(replace(s, '\', '\\'), '%', '\%'), '_', '\_');

-- absolute_url makes a stored image path absolute on the public base URL of
-- the deployment: a URL with a scheme stays as it is, `//host/path` takes the
-- scheme of the base, any other text is a path under the base. NULL stays
-- NULL.
CREATE FUNCTION absolute_url(path text, base_url text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN path IS NULL OR path ~ '^[A-Za-z][A-Za-z0-9+.-]*:' THEN path
    WHEN path LIKE '//%' THEN split_part(base_url, ':', 1) || ':' || path
    ELSE rtrim(base_url, '/') || '/' || ltrim(path, '/')
END;

-- The Agency object. `services` and `industries` hold one inner array of the
-- agency's names in name order, or are [] when it has none.
-- `employess` is spelled as the interface spells it. `id` is an addition to
-- the spec's fields: it is what agencies/detail/{id} takes.
CREATE VIEW agency_card AS
SELECT
    a.id,
    jsonb_build_object(
        'id',          a.id,
        'username',    a.username,
        'description', a.description,
        'about',       a.about,
        'image',       a.image,
        'website',     a.website,
        'locations',   a.locations,
        'services', (
            SELECT CASE WHEN count(*) = 0 THEN '[]'::jsonb
                        ELSE jsonb_build_array(jsonb_agg(s.name ORDER BY s.name)) END
            FROM agency_service AS x
            JOIN service AS s ON s.id = x.service_id
            WHERE x.agency_id = a.id
        ),
        'industries', (
            SELECT CASE WHEN count(*) = 0 THEN '[]'::jsonb
                        ELSE jsonb_build_array(jsonb_agg(i.name ORDER BY i.name)) END
            FROM agency_industry AS x
            JOIN industry AS i ON i.id = x.industry_id
            WHERE x.agency_id = a.id
        ),
        'gps',         a.gps,
        'employess',   a.employees,
        'coordinates', a.coordinates
    ) AS object
FROM agency AS a;

-- The Preset object, except what depends on the deployment (the fixed fee
-- added to the prices, the base URL of relative images), which the queries
-- add. Rules:
--   campaign_objective: the label of the stored objective code;
--   vertical: the label of each slug of the stored comma-separated list, in
--     stored order, null for a slug without a label;
--   hashtags: the condition's keywords when allowed_options has
--     advanced_settings, else [];
--   reach: [] without advanced_settings, the condition's reach with it, null
--     when it has it but no condition exists;
--   rating: the average of the reviews rounded half up (numeric round() of a
--     positive value), 0 without reviews; an index-only scan of
--     review_preset_user_key;
--   location_json: the targeting as JSON text.
CREATE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    (
        SELECT coalesce(jsonb_agg(v.label ORDER BY s.n), '[]'::jsonb)
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
    )::jsonb AS vertical,
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
    ac.object AS agency,
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
JOIN agency_card AS ac ON ac.id = p.agency_id
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;

-- +goose Down
DROP VIEW preset_card;
DROP VIEW agency_card;
DROP FUNCTION absolute_url(text, text);
DROP FUNCTION like_escape(text);
