-- name: PresetBrowse :many
-- The ids of one page of the public catalogue (presets/browse): visible
-- presets (active and not private) passing every given filter, by title then
-- id. A filter given as NULL passes everything;
-- the handler has each request planned for its own values (perRequestPlans
-- in http/catalogue.go), so the planner drops the absent filters and serves
-- the given ones from their indexes (00011_catalogue_index.sql):
--   goal: the objective code, exactly;
--   vertical: a literal substring of the stored slug list (like_escape makes
--     `%`, `_` and `\` ordinary characters);
--   agency_id and partner_id (its alias): the master agency, each if given;
--   preset_name: a case-sensitive, literal prefix of the title;
--   excluded_preset_id: that preset is left out;
--   location: a country code among `countries`, or the key of a city or a
--     region; location_type (country, city, region) narrows it to that kind.
-- Order: the unfiltered page and the goal, agency, vertical and title prefix
-- filters read a title-ordered index and stop after the page (the vertical
-- list is in those indexes, so even a vertical whose presets come last costs
-- one pass over an index, never a read of the table). A location cannot be
-- checked from a title-ordered index: walking one, PostgreSQL would read
-- every preset before the page's last match, and a location whose presets
-- are all inactive or late in the alphabet meant reading the whole table (at
-- 100,000 presets, 0.7 s to find none). With a location the order is
-- therefore taken from `title || ''` (the same order, which no index
-- provides): the planner finds the matches with the location index and sorts
-- them, which costs what presets/count costs for the same filter.
-- Paging (CONTRACT §9): the handler has checked @page_number >= 1 and
-- @page_size >= 1; a limit above 50 acts as 50. It answers the ids of the
-- page only, in order; PresetCards dresses them. (The Preset objects come
-- from a statement of their own so that this one, planned for every request,
-- stays cheap to plan: planned together with preset_card, the planning alone
-- took 3.6 ms a request.)
SELECT p.id
FROM preset AS p
WHERE p.active AND NOT p.private
  AND (sqlc.narg(goal)::text IS NULL OR p.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(agency_id)::bigint IS NULL OR p.agency_id = sqlc.narg(agency_id)::bigint)
  AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(preset_name)::text IS NULL
       OR p.title LIKE like_escape(sqlc.narg(preset_name)::text) || '%')
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
  AND (sqlc.narg(location)::text IS NULL
       OR (coalesce(sqlc.narg(location_type)::text, 'country') = 'country'
           AND p.location_json @> jsonb_build_object('countries',
                   jsonb_build_array(sqlc.narg(location)::text)))
       OR (coalesce(sqlc.narg(location_type)::text, 'city') = 'city'
           AND p.location_json @> jsonb_build_object('cities',
                   jsonb_build_array(jsonb_build_object('key', sqlc.narg(location)::text))))
       OR (coalesce(sqlc.narg(location_type)::text, 'region') = 'region'
           AND p.location_json @> jsonb_build_object('regions',
                   jsonb_build_array(jsonb_build_object('key', sqlc.narg(location)::text)))))
-- With a location filter the sort key is written so that no index
-- provides the order (see above).
ORDER BY CASE WHEN sqlc.narg(location)::text IS NULL THEN p.title ELSE p.title || '' END, p.id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetCards :many
-- The Preset objects of presets/browse for the ids of one page, in the
-- order of @ids: prices plus the fixed fee, absolute images, the rest from
-- preset_card (a primary-key lookup per id).
SELECT
    c.id,
    c.title,
    -- JSON null without an image, else the absolute URL as a JSON string.
    coalesce(to_jsonb(absolute_url(c.image, @public_base_url::text)), 'null'::jsonb) AS image,
    c.campaign_objective,
    c.vertical,
    round(c.price + (@service_fixed_fee::text)::numeric, 2)::text AS price,
    round(c.original_price + (@service_fixed_fee::text)::numeric, 2)::text AS original_price,
    c.version,
    c.private,
    c.platform,
    c.audience_targeting,
    c.location_json,
    c.description,
    c.hashtags,
    c.reach,
    c.allowed_options,
    c.rating,
    c.agency
FROM unnest(@ids::bigint[]) WITH ORDINALITY AS page (id, n)
JOIN preset_card AS c ON c.id = page.id
ORDER BY page.n;

-- name: PresetCount :one
-- How many presets presets/browse lists for the same filters, over all its
-- pages: the WHERE clause of PresetBrowse's page, word for word.
SELECT count(*)
FROM preset AS p
WHERE p.active AND NOT p.private
  AND (sqlc.narg(goal)::text IS NULL OR p.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(agency_id)::bigint IS NULL OR p.agency_id = sqlc.narg(agency_id)::bigint)
  AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(preset_name)::text IS NULL
       OR p.title LIKE like_escape(sqlc.narg(preset_name)::text) || '%')
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
  AND (sqlc.narg(location)::text IS NULL
       OR (coalesce(sqlc.narg(location_type)::text, 'country') = 'country'
           AND p.location_json @> jsonb_build_object('countries',
                   jsonb_build_array(sqlc.narg(location)::text)))
       OR (coalesce(sqlc.narg(location_type)::text, 'city') = 'city'
           AND p.location_json @> jsonb_build_object('cities',
                   jsonb_build_array(jsonb_build_object('key', sqlc.narg(location)::text))))
       OR (coalesce(sqlc.narg(location_type)::text, 'region') = 'region'
           AND p.location_json @> jsonb_build_object('regions',
                   jsonb_build_array(jsonb_build_object('key', sqlc.narg(location)::text)))));

-- name: PresetAvailable :many
-- The presets a user can activate (presets/available, CONTRACT §5): the
-- active presets that are public or published by the user's own agency, by
-- title then id, with their number of purchases; one page of @page_size
-- (an addition: the spec sets no bound, and the catalogue may be large).
-- Each kind is read in title order from its own index (the public ones from
-- preset_visible_title_idx, the agency's own from preset_agency_idx) and
-- stops at the end of the page; the Preset objects are built for the page's
-- rows only.
WITH owner AS (
    SELECT u.agency_id FROM app_user AS u WHERE u.id = @user_id
),
candidate AS (
    (SELECT p.id, p.title
     FROM preset AS p
     WHERE p.active AND NOT p.private
     ORDER BY p.title, p.id
     LIMIT sqlc.arg(page_number)::bigint * sqlc.arg(page_size)::int)
    UNION ALL
    (SELECT p.id, p.title
     FROM preset AS p
     WHERE p.agency_id = (SELECT owner.agency_id FROM owner)
       AND p.active AND p.private
     ORDER BY p.title, p.id
     LIMIT sqlc.arg(page_number)::bigint * sqlc.arg(page_size)::int)
),
page AS (
    SELECT candidate.id, candidate.title
    FROM candidate
    ORDER BY candidate.title, candidate.id
    LIMIT sqlc.arg(page_size)::int
    OFFSET (sqlc.arg(page_number)::bigint - 1) * sqlc.arg(page_size)::int
)
SELECT
    c.id,
    c.title,
    -- JSON null without an image, else the absolute URL as a JSON string.
    coalesce(to_jsonb(absolute_url(c.image, @public_base_url::text)), 'null'::jsonb) AS image,
    c.campaign_objective,
    c.vertical,
    round(c.price + (@service_fixed_fee::text)::numeric, 2)::text AS price,
    round(c.original_price + (@service_fixed_fee::text)::numeric, 2)::text AS original_price,
    c.version,
    c.private,
    c.platform,
    c.audience_targeting,
    c.location_json,
    c.description,
    c.hashtags,
    c.reach,
    c.allowed_options,
    c.rating,
    c.agency,
    c.number_of_purchases
FROM page
JOIN preset_card AS c ON c.id = page.id
ORDER BY page.title, page.id;

-- name: PresetUpsert :batchexec
-- Inserts a preset of an import file, or updates the preset with that id.
INSERT INTO preset (
    id, agency_id, title, image, active, private, campaign_objective, vertical,
    price, original_price, version, platform, audience_targeting, location_json,
    description, allowed_options, number_of_purchases
) VALUES (
    @id, @agency_id, @title, sqlc.narg(image), @active, @private, @campaign_objective, @vertical,
    (@price::text)::numeric(12, 2), (@original_price::text)::numeric(12, 2), @version, @platform,
    @audience_targeting, @location_json, @description, @allowed_options::text[], @number_of_purchases
)
ON CONFLICT (id) DO UPDATE SET
    agency_id           = EXCLUDED.agency_id,
    title               = EXCLUDED.title,
    image               = EXCLUDED.image,
    active              = EXCLUDED.active,
    private             = EXCLUDED.private,
    campaign_objective  = EXCLUDED.campaign_objective,
    vertical            = EXCLUDED.vertical,
    price               = EXCLUDED.price,
    original_price      = EXCLUDED.original_price,
    version             = EXCLUDED.version,
    platform            = EXCLUDED.platform,
    audience_targeting  = EXCLUDED.audience_targeting,
    location_json       = EXCLUDED.location_json,
    description         = EXCLUDED.description,
    allowed_options     = EXCLUDED.allowed_options,
    number_of_purchases = EXCLUDED.number_of_purchases,
    updated_at          = now();
