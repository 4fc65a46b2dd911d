-- name: PresetBrowseWalk :many
-- The ids of one page of the public catalogue (presets/browse) for the
-- shapes of filters that no statement of their own answers (browse.cards
-- and browse.plannedIDs in http/presets.go send each single filter, a
-- vertical with a goal, an agency with a goal, a vertical or a prefix, and
-- a location or a vertical with a prefix to theirs): visible presets
-- (active and not private) passing every given filter, by title then id.
-- Three statements, one for each index that can give the page in title
-- order (planned for each request's values, so that the planner drops the
-- absent filters and serves the given ones from their indexes; each one's
-- plan is small, where one statement for the three planned all of them):
--   PresetBrowseWalk, no location and no title prefix: a title-ordered
--     index of preset (the goal, agency and vertical filters checked on
--     each preset, stopping after the page);
--   PresetBrowsePrefixWalk, a title prefix and no location;
--   PresetBrowseLocationWalk, a location.
-- Their filters, each passing everything when NULL:
--   goal: the objective code, exactly;
--   vertical: a literal substring of the stored slug list (like_escape makes
--     `%`, `_` and `\` ordinary characters);
--   agency_id and partner_id (its alias): the master agency, each if given;
--   preset_name: a case-sensitive, literal prefix of the title;
--   excluded_preset_id: that preset is left out;
--   location: a country code among `countries`, or the key of a city or a
--     region; location_type (country, city, region) narrows it to that kind.
-- Paging: the handler has checked @page_number >= 1 and @page_size >= 1; a
-- limit above 50 acts as 50. They answer the ids of the page only, in
-- order; PresetCards dresses them. (The Preset objects come from a
-- statement of their own so that these, planned for every request, stay
-- cheap to plan: planned together with preset_card, the planning alone
-- took 3.6 ms a request.)
SELECT p.id
FROM preset AS p
WHERE p.active AND NOT p.private
  AND (sqlc.narg(goal)::text IS NULL OR p.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(agency_id)::bigint IS NULL OR p.agency_id = sqlc.narg(agency_id)::bigint)
  AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY p.title, p.id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowsePrefixWalk :many
-- PresetBrowseWalk's page for a title prefix and no location:
-- preset_title_prefix gives the presets that start with the prefix's first
-- one to three characters in title order (00054_title_prefix.sql), by
-- prefix then title (preset_title_prefix_idx) and by prefix, objective,
-- then title (preset_title_prefix_objective_idx, 00202: with a goal, the
-- pair's range); a longer prefix is checked on each entry's title. The
-- walk stops at the end of the page and never reads more than the presets
-- of those three characters, where the title index, walked in title order
-- with the prefix as a filter, would read every title before the first
-- match; the other filters are checked on the entry (00180).
SELECT t.preset_id AS id
FROM preset_title_prefix AS t
WHERE t.prefix = left(@preset_name::text, 3)
  AND t.title LIKE like_escape(@preset_name::text) || '%'
  AND (sqlc.narg(goal)::text IS NULL OR t.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR t.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(agency_id)::bigint IS NULL OR t.agency_id = sqlc.narg(agency_id)::bigint)
  AND (sqlc.narg(partner_id)::bigint IS NULL OR t.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR t.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY t.title, t.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseLocationWalk :many
-- PresetBrowseWalk's page for a location: preset_location holds each
-- visible preset's location keys with the kinds they are there as
-- (location_keys: exactly the values for which the containment test
-- `location_json @> {"countries": [v]}`, `{"cities": [{"key": v}]}`,
-- `{"regions": [{"key": v}]}` holds), with the title, objective, vertical
-- list and agency (00180). preset_visible_location_idx (key, title, id)
-- gives the key's entries in title order, each filter checked on the
-- entry, index-only, so a common country reads about one page of index
-- entries and a deep page skips index entries, not presets; with a prefix
-- the planner may take the prefix's range of
-- preset_location_title_pattern_idx instead, and sort it; with an agency,
-- the pair's range of preset_location_agency_idx (key, agency, title, id),
-- 00195, in title order. Where titles sort by code point
-- (CatalogueTitlesBytewise) the handler gives @prefix_end with a prefix, as
-- PresetBrowseLocationPrefixOrdered takes it: the prefix's titles are the
-- range from it up to @prefix_end of that title order, so an agency's
-- entries in a location are read from the prefix's first, not walked from
-- the pair's first.
SELECT l.preset_id AS id
FROM preset_location AS l
WHERE l.key = @location::text
  AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
  AND (sqlc.narg(preset_name)::text IS NULL
       OR (l.title COLLATE "C") LIKE like_escape(sqlc.narg(preset_name)::text) || '%')
  AND (sqlc.narg(prefix_end)::text IS NULL
       OR (l.title >= sqlc.narg(preset_name)::text AND l.title < sqlc.narg(prefix_end)::text))
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR l.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
  AND (sqlc.narg(goal)::text IS NULL OR l.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR l.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(agency_id)::bigint IS NULL OR l.agency_id = sqlc.narg(agency_id)::bigint)
  AND (sqlc.narg(partner_id)::bigint IS NULL OR l.agency_id = sqlc.narg(partner_id)::bigint)
ORDER BY l.title, l.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- The statements of presets/browse that one prepared statement answers
-- (PresetBrowseTitle to PresetBrowseVertical, below) read the ids of their
-- page in a subquery and join each to its Preset object's pieces
-- (preset_card_json, inlined: a primary-key lookup of preset_card and of
-- agency_object per id), so that a page is one statement and one round
-- trip. The subquery's LIMIT is the largest page, 50, a constant: the
-- generic plan is then made for a page's rows, where a LIMIT parameter
-- would be costed as a tenth of the table and joined by hash to every
-- card. The outer LIMIT cuts the page to its size.

-- name: PresetBrowseTitle :many
-- The Preset objects of one page of presets/browse without filters
-- (excluded_preset_id aside): the visible presets in title order from
-- preset_visible_title_idx, index-only, stopping at the end of the page
-- (the handler sends pages after the first to PresetBrowseDeep).
-- PresetBrowseTitle, PresetBrowseGoal, PresetBrowseAgency,
-- PresetBrowseLocation and PresetBrowsePrefix each serve one filter alone,
-- with the walks' answer (PresetBrowseWalk). Their only optional parameter is the excluded
-- preset, a check of each entry, so one plan serves every request (their
-- generic plans are checked, TestPresetBrowsePlans). They run as prepared
-- statements with their generic plans (serve's pool of db.GenericPlans),
-- parsed and planned once per connection: left to choose, PostgreSQL would
-- plan each execution for its values, as a generic plan with LIMIT and
-- OFFSET as parameters is costed for a tenth of the rows and never looks
-- cheaper, and planning costs as much as reading the page.
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT p.id, p.title
      FROM preset AS p
      WHERE p.active AND NOT p.private
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY p.title, p.id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseGoal :many
-- The Preset objects of one page of presets/browse with a goal alone: that
-- objective's visible presets in title order from
-- preset_visible_objective_idx (objective, title, id).
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT p.id, p.title
      FROM preset AS p
      WHERE p.active AND NOT p.private
        AND p.campaign_objective = @goal::text
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY p.title, p.id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseAgency :many
-- The Preset objects of one page of presets/browse with an agency alone
-- (agency_id, partner_id, or both the same): that agency's presets in title
-- order from preset_agency_idx (agency, title, id), the visible ones kept.
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT p.id, p.title
      FROM preset AS p
      WHERE p.agency_id = @agency_id::bigint
        AND p.active AND NOT p.private
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY p.title, p.id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseLocation :many
-- The Preset objects of one page of presets/browse with a location alone
-- (and its type, if given): the location's entries in preset_location,
-- visible presets only, in title order from preset_visible_location_idx
-- (key, title, id), index-only.
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT l.preset_id AS id, l.title
      FROM preset_location AS l
      WHERE l.key = @location::text
        AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR l.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY l.title, l.preset_id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowsePrefix :many
-- The Preset objects of one page of presets/browse with a title prefix
-- alone: the entries of its first one to three characters in
-- preset_title_prefix, in title order from preset_title_prefix_idx (prefix,
-- title, id), a longer prefix checked on each entry's title as a literal
-- (like_escape).
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT t.preset_id AS id, t.title
      FROM preset_title_prefix AS t
      WHERE t.prefix = left(@preset_name::text, 3)
        AND t.title LIKE like_escape(@preset_name::text) || '%'
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR t.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY t.title, t.preset_id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseVertical :many
-- The Preset objects of one page of presets/browse with a vertical and a
-- goal, or a vertical alone that holds a comma (one without is
-- PresetBrowseVerticalSlug's): the visible presets whose slug list contains
-- the vertical as a literal substring (the walks' test, PresetBrowseWalk). preset_tally
-- names the pairs of objective and slug list that hold visible presets (a
-- few dozen); for each pair whose list contains the vertical (and whose
-- objective is the goal, if given), preset_visible_objective_vertical_idx
-- gives its first presets in title order, as many as the pages up to this
-- one hold, and the page is cut from their merge. A rare vertical reads a
-- few entries per pair, not every preset of its lists; a common one stops
-- at the page. PresetBrowseAgencyVertical reads the same pairs for one
-- agency.
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT x.id, x.title
      FROM preset_tally AS t
      CROSS JOIN LATERAL (
          SELECT p.id, p.title
          FROM preset AS p
          WHERE p.campaign_objective = t.campaign_objective
            AND p.vertical = t.vertical
            AND p.active AND NOT p.private
            AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
          ORDER BY p.title, p.id
          LIMIT sqlc.arg(page_number)::bigint * least(sqlc.arg(page_size)::int, 50)
      ) AS x
      WHERE t.presets > 0
        AND strpos(t.vertical, @vertical::text) > 0
        AND (sqlc.narg(goal)::text IS NULL OR t.campaign_objective = sqlc.narg(goal)::text)
      ORDER BY x.title, x.id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseVerticalSlug :many
-- The Preset objects of one page of presets/browse with a vertical alone
-- that holds no comma: PresetBrowseVertical's answer from preset_vertical
-- (00197). The slugs that contain the vertical are read from the slug lists
-- that hold visible presets (preset_tally, a few dozen); for each, its
-- first presets in title order from preset_vertical_title_idx, as many as
-- the pages up to this one hold; a preset of two such slugs is taken once,
-- and the page is cut from their merge. A vertical names one slug as a
-- rule, so the page is one range of the index.
WITH slug AS (
    SELECT DISTINCT s.slug
    FROM preset_tally AS t
    CROSS JOIN LATERAL unnest(string_to_array(t.vertical, ',')) AS s (slug)
    WHERE t.presets > 0
      AND strpos(s.slug, @vertical::text) > 0
)
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT x.preset_id AS id, x.title
      FROM (SELECT DISTINCT e.preset_id, e.title
            FROM slug
            CROSS JOIN LATERAL (
                SELECT v.preset_id, v.title
                FROM preset_vertical AS v
                WHERE v.slug = slug.slug
                  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR v.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
                ORDER BY v.title, v.preset_id
                LIMIT sqlc.arg(page_number)::bigint * least(sqlc.arg(page_size)::int, 50)
            ) AS e) AS x
      ORDER BY x.title, x.preset_id
      LIMIT 50
      OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseDeep :many
-- The Preset objects of a page after the first of presets/browse without
-- filters (excluded_preset_id aside): the same answer as PresetBrowseWalk,
-- without reading the pages before it. preset_title_bucket (00092) counts
-- the visible presets of each range of the title order, numbered in that
-- order (ordinal, 00193); the page starts preset_visible_title_idx at the
-- bound of the bucket that holds its first row (CTE start) and skips only
-- that bucket's presets before it (about a thousand at most), not every
-- preset of the pages before. The excluded preset, if visible, is taken off
-- the counts from its bucket on. No optional filter: a generic plan serves
-- every request.
WITH excluded AS (
    -- The ordinal of the excluded preset's bucket if it is visible: it is
    -- not among the presets that the buckets from there on count for the
    -- page. Its bucket is the last whose bound is at or before its title
    -- (as preset_title_bucket_of answers), read here from the bucket key
    -- as part of this statement's plan: the function, which PostgreSQL
    -- cannot inline, would be planned again at each execution.
    SELECT b.ordinal
    FROM preset AS x
    CROSS JOIN LATERAL (
        SELECT k.ordinal FROM preset_title_bucket AS k
        WHERE k.lower <= x.title
        ORDER BY k.lower DESC
        LIMIT 1) AS b
    WHERE x.id = sqlc.narg(excluded_preset_id)::bigint AND x.active AND NOT x.private
),
start AS (
    -- The first bucket, in the order of the bounds (its ordinal), through
    -- which more presets are counted than the page's offset, and how many
    -- of the presets from its bound on come before the page. "before" and
    -- "through" count the presets before its bound and through its last,
    -- less the excluded preset when it is among them: before the bound
    -- when its bucket comes earlier, through the bucket when its bucket is
    -- this one or earlier. The buckets are read in order from
    -- preset_title_bucket_ordinal_key, and the walk stops at the page's
    -- bucket: the LIMIT of the highest ordinal passes every bucket, but as
    -- a value the planner does not know it costs the walk for a tenth of
    -- them, so that it does not sort all the buckets instead (a page near
    -- the start needs its first few).
    SELECT b.lower,
           (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50) - b.before AS skip
    FROM (SELECT t.lower, t.ordinal,
                 sum(t.presets) OVER w - t.presets
                 - CASE WHEN (SELECT excluded.ordinal FROM excluded) < t.ordinal THEN 1 ELSE 0 END AS before,
                 sum(t.presets) OVER w
                 - CASE WHEN (SELECT excluded.ordinal FROM excluded) <= t.ordinal THEN 1 ELSE 0 END AS through
          FROM (SELECT k.lower, k.ordinal, k.presets
                FROM preset_title_bucket AS k
                ORDER BY k.ordinal
                LIMIT (SELECT max(m.ordinal) FROM preset_title_bucket AS m)) AS t
          WINDOW w AS (ORDER BY t.ordinal ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS b
    WHERE b.through > (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
    ORDER BY b.ordinal
    LIMIT 1
)
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT p.id, p.title
      FROM preset AS p
      WHERE p.active AND NOT p.private
        AND p.title >= (SELECT start.lower FROM start)
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
             OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY p.title, p.id
      LIMIT 50
      OFFSET (SELECT start.skip FROM start)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseLocationDeep :many
-- The Preset objects of a page after the first of presets/browse with a
-- location alone (and its type, if given): PresetBrowseLocation's answer
-- without reading the pages before it. preset_location_bucket (00196)
-- counts the location's entries in each title bucket of
-- preset_title_bucket, per kinds; the page starts
-- preset_visible_location_idx at the bound of the bucket that holds its
-- first entry (CTE start) and skips only that bucket's entries before it,
-- not every entry of the pages before. The location's buckets are summed in
-- the order of their ordinals, read in that order from the table's key, and
-- the walk stops at the page's bucket. The excluded preset, if it is among
-- the location's entries of that type, is taken off the counts from its
-- bucket on. A page past the last has no bucket and answers nothing. Its
-- optional parameters are the type and the excluded preset, each a check:
-- one plan serves every request.
WITH excluded AS (
    -- The excluded entry's bucket, read as in PresetBrowseDeep.
    SELECT b.ordinal
    FROM preset_location AS x
    CROSS JOIN LATERAL (
        SELECT k.ordinal FROM preset_title_bucket AS k
        WHERE k.lower <= x.title
        ORDER BY k.lower DESC
        LIMIT 1) AS b
    WHERE x.key = @location::text
      AND x.preset_id = sqlc.narg(excluded_preset_id)::bigint
      AND x.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
),
start AS (
    -- The first of the location's buckets through which more entries are
    -- counted than the page's offset, and how many of the entries from
    -- its bound on come before the page ("before" and "through" as in
    -- PresetBrowseDeep).
    SELECT b.ordinal,
           (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50) - b.before AS skip
    FROM (SELECT t.ordinal,
                 sum(t.presets) OVER w - t.presets
                 - CASE WHEN (SELECT excluded.ordinal FROM excluded) < t.ordinal THEN 1 ELSE 0 END AS before,
                 sum(t.presets) OVER w
                 - CASE WHEN (SELECT excluded.ordinal FROM excluded) <= t.ordinal THEN 1 ELSE 0 END AS through
          FROM (SELECT k.ordinal, sum(k.presets) AS presets
                FROM preset_location_bucket AS k
                WHERE k.key = @location::text
                  AND k.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
                GROUP BY k.ordinal) AS t
          WINDOW w AS (ORDER BY t.ordinal ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS b
    WHERE b.through > (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50)
    ORDER BY b.ordinal
    LIMIT 1
)
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM (SELECT l.preset_id AS id, l.title
      FROM preset_location AS l
      WHERE l.key = @location::text
        AND l.title >= (SELECT b.lower FROM preset_title_bucket AS b WHERE b.ordinal = (SELECT start.ordinal FROM start))
        AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
        AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR l.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
      ORDER BY l.title, l.preset_id
      LIMIT 50
      OFFSET (SELECT start.skip FROM start)) AS page
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.title, page.id
LIMIT least(sqlc.arg(page_size)::int, 50);

-- name: PresetAgencyGoalWalk :one
-- Which index presets/browse walks when the filters give an agency
-- (agency_id or partner_id), a goal and a location: both ways read the
-- agency's presets only, the pair's title-ordered index
-- (PresetBrowseAgencyGoal) those of the goal, the location's
-- (PresetBrowseAgencyGoalLocation, preset_location_agency_idx) those in
-- the location; true, the pair's, when the location's presets (its tally)
-- outnumber the goal's (the agency's share of each is taken alike). The
-- handler asks it first, so that each of the two statements holds one way
-- to the page and is planned for that way alone. Sums of a few rows of
-- each tally, read from their keys.
SELECT ((SELECT coalesce(sum(t.presets), 0)
         FROM preset_location_tally AS t
         WHERE t.key = @location::text
           AND t.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0)
        > (SELECT coalesce(sum(t.presets), 0)
           FROM preset_tally AS t
           WHERE t.campaign_objective = @goal::text))::boolean AS pair;

-- name: PresetBrowseAgencyVertical :many
-- The ids of one page of presets/browse when the filters give an agency
-- (@agency_id: agency_id, else partner_id) and a vertical, and neither a
-- goal nor a location (a title prefix and an excluded preset may come too):
-- the same answer as PresetBrowseWalk. The agency's presets in title order
-- (preset_agency_idx) do not hold the vertical, so walking them fetches
-- each preset's row to test it, thousands for a large agency and a rare
-- vertical. As PresetBrowseVertical does for the whole catalogue, this
-- takes the pairs of objective and slug list that hold visible presets
-- (preset_tally, a few dozen rows) whose list contains the vertical (the
-- same literal substring test), and for each pair the agency's first
-- presets in title order, as many as the pages up to this one hold, from
-- one range of preset_visible_agency_objective_vertical_idx (agency,
-- objective, vertical list, title, id), read index-only with the title
-- prefix checked on each entry; the page is cut from their merge. Planned
-- for each request's values (the catalogue pool), so that the absent
-- optional filters fold away.
SELECT x.id
FROM preset_tally AS t
CROSS JOIN LATERAL (
    SELECT p.id, p.title
    FROM preset AS p
    WHERE p.agency_id = @agency_id::bigint
      AND p.campaign_objective = t.campaign_objective
      AND p.vertical = t.vertical
      AND p.active AND NOT p.private
      AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
      AND (sqlc.narg(preset_name)::text IS NULL
           OR left(p.title, char_length(sqlc.narg(preset_name)::text)) = sqlc.narg(preset_name)::text)
      AND (sqlc.narg(excluded_preset_id)::bigint IS NULL OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
    ORDER BY p.title, p.id
    LIMIT sqlc.arg(page_number)::bigint * least(sqlc.arg(page_size)::int, 50)
) AS x
WHERE t.presets > 0
  AND strpos(t.vertical, @vertical::text) > 0
ORDER BY x.title, x.id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::bigint - 1) * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseAgencyGoal :many
-- The ids of one page of presets/browse when the filters give an agency
-- (@agency_id: agency_id, else partner_id) and a goal, and no location or
-- one that PresetAgencyGoalWalk sends to the pair's index: the same answer
-- as the walks (PresetBrowseWalk). Each alone is wide (the largest agency has 64,000
-- visible presets at a million, an objective 160,000) and with the other
-- filters of a request the matches may be a few dozen, so walking the
-- title order, either filter's index or a location's reads tens of
-- thousands of entries before the page is full. The pair's index
-- preset_visible_agency_objective_idx (agency, objective, title, id)
-- INCLUDE (vertical), 00091, holds about 12,000 entries for the largest
-- agency and a common objective: read index-only in title order, the
-- title prefix checked on its entries, the location by its key in
-- preset_location, stopping at the page. With a vertical, the lists that
-- contain it (from preset_tally, a few rows) are a few short ranges of
-- preset_visible_agency_objective_vertical_idx (agency, objective, vertical
-- list, title, id), 00093, read index-only and sorted: about 900 entries
-- for the largest agency, a common objective and a common vertical. The
-- other filters are checks of each entry: the vertical as a literal
-- substring of the lists (strpos, the same test as the walks' LIKE with
-- like_escape) and the title prefix as the title's first characters,
-- neither depending on a pattern made per row nor served by an index that
-- would take the walk's place (a BitmapAnd of the agency's and the
-- vertical's indexes reads both whole). Planned for each request's values
-- (the catalogue pool): the generic plan that PostgreSQL adopts for a
-- prepared statement repeated with the same values reads the pair's index
-- whole for other values (21 ms of CPU a request against 1.4).
SELECT p.id
FROM preset AS p
WHERE p.active AND NOT p.private
  AND p.agency_id = @agency_id::bigint
  AND p.campaign_objective = @goal::text
  AND (sqlc.narg(vertical)::text IS NULL
       OR p.vertical = ANY (ARRAY(SELECT t.vertical
                                  FROM preset_tally AS t
                                  WHERE t.campaign_objective = @goal::text
                                    AND strpos(t.vertical, sqlc.narg(vertical)::text) > 0)))
  AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(preset_name)::text IS NULL
       OR left(p.title, char_length(sqlc.narg(preset_name)::text)) = sqlc.narg(preset_name)::text)
  AND (sqlc.narg(prefix_end)::text IS NULL
       OR (p.title >= sqlc.narg(preset_name)::text AND p.title < sqlc.narg(prefix_end)::text))
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
  AND (sqlc.narg(location)::text IS NULL
       OR EXISTS (SELECT 1
                  FROM preset_location AS l
                  WHERE l.key = sqlc.narg(location)::text
                    AND l.preset_id = p.id
                    AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0))
ORDER BY p.title, p.id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseAgencyGoalLocation :many
-- The ids of one page of presets/browse when the filters give an agency
-- (@agency_id: agency_id, else partner_id), a goal and a location narrower
-- than the goal (PresetAgencyGoalWalk): the agency's entries of the
-- location in title order, one range of preset_location_agency_idx (key,
-- agency, title, id), index-only, the objective, vertical list and title
-- of each entry checked as in PresetBrowseAgencyGoal, stopping at the page.
SELECT l.preset_id
FROM preset_location AS l
WHERE l.key = @location::text
  AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
  AND l.campaign_objective = @goal::text
  AND l.agency_id = @agency_id::bigint
  AND (sqlc.narg(partner_id)::bigint IS NULL OR l.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(vertical)::text IS NULL OR strpos(l.vertical, sqlc.narg(vertical)::text) > 0)
  AND (sqlc.narg(preset_name)::text IS NULL
       OR left(l.title, char_length(sqlc.narg(preset_name)::text)) = sqlc.narg(preset_name)::text)
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR l.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY l.title, l.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetPrefixRange :one
-- Whether presets/browse, when the filters give a location and a title
-- prefix and no agency, reads the location's titles of the prefix as one
-- range and sorts them (PresetBrowseLocationPrefix) rather than walking
-- the location's entries in title order from its first (PresetBrowseLocationWalk),
-- which reads every entry whose title sorts before the prefix's: true
-- when the titles that start with the prefix's first four characters
-- (their tally) are fewer than those before the prefix (the title buckets
-- whose lower bound sorts below it). The location's share of each is
-- taken alike. Sums of the tally's rows of the prefix and of the buckets
-- below it (a few hundred at most), read from their keys.
SELECT ((SELECT coalesce(sum(t.presets), 0)
         FROM preset_prefix_tally AS t
         WHERE t.prefix = left(@preset_name::text, 4))
        < (SELECT coalesce(sum(b.presets), 0)
           FROM preset_title_bucket AS b
           WHERE b.lower < @preset_name::text))::boolean AS prefix_range;

-- name: PresetBrowseLocationPrefix :many
-- The ids of one page of presets/browse when the filters give a location
-- and a title prefix whose titles are fewer than those before it
-- (PresetPrefixRange), and no agency: the same answer as PresetBrowseLocationWalk.
-- The location's entries of the prefix are one range of
-- preset_location_title_pattern_idx (key, title in byte order; a literal
-- prefix is a range of it whatever the collation), read index-only, the
-- kinds, objective, vertical list and excluded preset checked on each; the
-- matches are then sorted by title and id for the page. The range is a
-- materialized CTE so that the planner reads it whole rather than walking
-- the location's title order (preset_visible_location_idx), which a LIMIT
-- makes look cheap but which reads every title before the prefix's; the
-- objective, vertical and excluded preset are checked on its rows, outside
-- it, so that a goal does not lead the planner to the pair's range of
-- preset_location_objective_idx (the goal's titles before the prefix's).
-- Planned for each request's values (the catalogue pool).
WITH matches AS MATERIALIZED (
    SELECT l.preset_id, l.title, l.campaign_objective, l.vertical
    FROM preset_location AS l
    WHERE l.key = @location::text
      AND (l.title COLLATE "C") LIKE like_escape(@preset_name::text) || '%'
      AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
)
SELECT m.preset_id
FROM matches AS m
WHERE (sqlc.narg(goal)::text IS NULL OR m.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR m.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR m.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY m.title, m.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseLocationPrefixOrdered :many
-- The ids of one page of presets/browse when the filters give a location
-- and a title prefix and no agency, in a database whose titles sort by code
-- point (CatalogueTitlesBytewise): the same answer as PresetBrowseLocationWalk. There
-- the titles that start with @preset_name are exactly those from it up to
-- @prefix_end (the prefix with its last character made the next one), one
-- range of the location's title order (preset_visible_location_idx), so
-- the page is read in order from the range's start and the walk stops at
-- its end, with no sort, however many titles the prefix has. The literal
-- prefix is checked on each entry as well, as PresetBrowseLocationPrefix
-- does. Planned for each request's values (the catalogue pool).
SELECT l.preset_id
FROM preset_location AS l
WHERE l.key = @location::text
  AND l.title >= @preset_name::text
  AND l.title < @prefix_end::text
  AND (l.title COLLATE "C") LIKE like_escape(@preset_name::text) || '%'
  AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
  AND (sqlc.narg(goal)::text IS NULL OR l.campaign_objective = sqlc.narg(goal)::text)
  AND (sqlc.narg(vertical)::text IS NULL
       OR l.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR l.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY l.title, l.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetBrowseVerticalPrefixOrdered :many
-- The ids of one page of presets/browse when the filters give a vertical
-- that holds no comma and a title prefix, and nothing else (an excluded
-- preset aside), in a database whose titles sort by code point
-- (CatalogueTitlesBytewise): the same answer as PresetBrowsePrefixWalk. The slugs
-- that contain the vertical are those of PresetBrowseVerticalSlug; in each
-- slug's title order (preset_vertical_title_idx) the titles that start
-- with @preset_name are the range from it up to @prefix_end, read in order
-- up to the page, so the walk reads the prefix's presets of the vertical
-- and no others (PresetBrowsePrefixWalk walks all of the prefix's entries, checking
-- the vertical on each). A preset of two such slugs is taken once. The
-- literal prefix is checked on each entry as well. Planned for each
-- request's values (the catalogue pool).
WITH slug AS (
    SELECT DISTINCT s.slug
    FROM preset_tally AS t
    CROSS JOIN LATERAL unnest(string_to_array(t.vertical, ',')) AS s (slug)
    WHERE t.presets > 0
      AND strpos(s.slug, @vertical::text) > 0
)
SELECT x.preset_id
FROM (SELECT DISTINCT e.preset_id, e.title
      FROM slug
      CROSS JOIN LATERAL (
          SELECT v.preset_id, v.title
          FROM preset_vertical AS v
          WHERE v.slug = slug.slug
            AND v.title >= @preset_name::text
            AND v.title < @prefix_end::text
            AND (v.title COLLATE "C") LIKE like_escape(@preset_name::text) || '%'
            AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
                 OR v.preset_id <> sqlc.narg(excluded_preset_id)::bigint)
          ORDER BY v.title, v.preset_id
          LIMIT sqlc.arg(page_number)::bigint * least(sqlc.arg(page_size)::int, 50)
      ) AS e) AS x
ORDER BY x.title, x.preset_id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: CatalogueTitlesBytewise :one
-- Whether the catalogue's titles (preset_location.title, in the collation
-- its indexes are ordered by) sort by code point: the collation is C or
-- POSIX, or C.UTF-8 of the C library, which orders by code point. Then a
-- literal title prefix is one range of title order.
SELECT coalesce((
    SELECT CASE
        WHEN a.attcollation = 'pg_catalog.default'::regcollation
        THEN (SELECT d.datlocprovider = 'c' AND d.datcollate IN ('C', 'POSIX', 'C.UTF-8', 'C.utf8')
              FROM pg_catalog.pg_database AS d
              WHERE d.datname = current_database())
        ELSE (SELECT c.collprovider = 'c' AND c.collcollate IN ('C', 'POSIX', 'C.UTF-8', 'C.utf8')
              FROM pg_catalog.pg_collation AS c
              WHERE c.oid = a.attcollation)
    END
    FROM pg_catalog.pg_attribute AS a
    WHERE a.attrelid = 'preset_location'::regclass AND a.attname = 'title'), false)::boolean AS bytewise;

-- name: PresetAgencyWalk :one
-- Whether presets/browse, when the filters give an agency (@agency_id:
-- agency_id, else partner_id) with a title prefix and neither a goal nor a
-- location, walks the agency's presets (PresetBrowseAgencyWalk) rather than
-- the prefix's entries (PresetBrowsePrefixWalk): true when the agency's visible
-- presets are fewer than the titles that start with the prefix's first
-- four characters (their tally). A small agency with a common prefix would
-- otherwise walk the prefix's entries to find its few. Sums of a few rows
-- of each tally, read from their keys. (With a location, PresetBrowseLocationWalk
-- reads the agency's range of the location's entries,
-- preset_location_agency_idx.)
SELECT ((SELECT coalesce(sum(t.presets), 0)
         FROM preset_agency_tally AS t
         WHERE t.agency_id = @agency_id::bigint)
        < (SELECT coalesce(sum(t.presets), 0)
           FROM preset_prefix_tally AS t
           WHERE t.prefix = left(@preset_name::text, 4)))::boolean AS agency;

-- name: PresetBrowseAgencyWalk :many
-- The ids of one page of presets/browse when the filters give an agency
-- (@agency_id: agency_id, else partner_id) narrower than the title prefix
-- given with it (PresetAgencyWalk), and neither a goal nor a location: the
-- same answer as PresetBrowsePrefixWalk. The agency's presets in title order from
-- preset_agency_idx (agency, title, id), the visible ones kept, each
-- checked against the vertical (a literal substring, like_escape), the
-- title prefix (the title's first characters) and the excluded preset,
-- stopping at the page. Where titles sort by code point the handler gives
-- @prefix_end (PresetBrowseLocationWalk) and sends every agency with a
-- prefix here: the walk starts at the prefix's first title of the agency
-- and ends with its last, whichever of the two is narrower. Planned for
-- each request's values (the catalogue pool).
SELECT p.id
FROM preset AS p
WHERE p.agency_id = @agency_id::bigint
  AND p.active AND NOT p.private
  AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
  AND (sqlc.narg(vertical)::text IS NULL
       OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
  AND left(p.title, char_length(@preset_name::text)) = @preset_name::text
  AND (sqlc.narg(prefix_end)::text IS NULL
       OR (p.title >= @preset_name::text AND p.title < sqlc.narg(prefix_end)::text))
  AND (sqlc.narg(excluded_preset_id)::bigint IS NULL
       OR p.id <> sqlc.narg(excluded_preset_id)::bigint)
ORDER BY p.title, p.id
LIMIT least(sqlc.arg(page_size)::int, 50)
OFFSET (sqlc.arg(page_number)::int - 1)::bigint * least(sqlc.arg(page_size)::int, 50);

-- name: PresetCards :many
-- The Preset objects of presets/browse for the ids of one page that the
-- statements planned for each request answer (the walks and the others
-- of browse.plannedIDs in http/presets.go), in the order of @ids: the pieces
-- of JSON of preset_card_json that the handler joins into each object.
SELECT card.body::json AS body, card.image::json AS image, card.price::json AS price,
       card.original_price::json AS original_price, card.agency::json AS agency
FROM unnest(@ids::bigint[]) WITH ORDINALITY AS page (id, n)
CROSS JOIN LATERAL preset_card_json(page.id, @public_base_url::text, (@service_fixed_fee::text)::numeric)
    AS card (body, image, price, original_price, agency)
ORDER BY page.n;

-- name: PresetCountPrefix :one
-- presets/count with a title prefix alone (excluded_preset_id aside), as
-- PresetCount answers it: a prefix of up to four characters from its
-- tally (preset_prefix_tally), a longer one from the entries of its first
-- three characters (preset_title_prefix_idx), its title checked as a
-- literal prefix. Its one optional parameter is the excluded preset, so
-- one plan serves every request as a prepared statement; each subquery
-- runs only when its branch is taken.
SELECT (CASE
    WHEN char_length(@preset_name::text) <= 4
    THEN (SELECT coalesce(sum(t.presets), 0)
          FROM preset_prefix_tally AS t
          WHERE t.prefix = @preset_name::text)
    ELSE (SELECT count(*)
          FROM preset_title_prefix AS t
          WHERE t.prefix = left(@preset_name::text, 3)
            AND t.title LIKE like_escape(@preset_name::text) || '%')
    END
    - (SELECT count(*)
       FROM preset AS p
       WHERE p.id = sqlc.narg(excluded_preset_id)::bigint
         AND p.active AND NOT p.private
         AND p.title LIKE like_escape(@preset_name::text) || '%')
)::bigint AS count;

-- name: PresetCount :one
-- How many presets presets/browse lists for the same filters, over all its
-- pages, exactly. The stored tallies (00050_catalogue_derived.sql) answer
-- the common shapes with a lookup, the planner keeping the one branch of the
-- CASE whose condition holds for this request's values:
--   no filter, goal, vertical, or both: preset_tally (a vertical is a LIKE
--     over the few distinct stored slug lists);
--   a title prefix of one to four characters, with a goal and/or a
--     vertical or alone: preset_prefix_tally;
--   agency_id and/or partner_id alone: preset_agency_tally;
--   location, with a goal and/or a vertical or alone:
--     preset_location_tally (the kinds the type allows);
--   an agency (or partner) with a goal, and no location or one whose tally
--     is larger than the goal's (@pair_walk: the handler asks
--     PresetAgencyGoalWalk, as presets/browse does, so that the condition
--     is a value and the planner keeps this branch alone): the
--     presets of the pair from their indexes (00091; with a vertical, its
--     lists from preset_tally as ranges of 00093), the other filters
--     checked as in PresetBrowseAgencyGoal, the location by its key in
--     preset_location;
--   any other combination: the visible presets that the walks' WHERE
--     clause passes, read from the narrowest filter's index: a longer
--     prefix from preset_visible_title_prefix_idx, a location from
--     preset_visible_location_idx, a location with an agency from the
--     pair's range of preset_location_agency_idx (00195), a location with
--     a prefix from preset_location_title_pattern_idx (the prefix as one
--     range of the titles' byte order), each index-only. Where titles sort
--     by code point (CatalogueTitlesBytewise), the handler gives
--     @prefix_end (the prefix with its last character made the next one):
--     the prefix's titles are then the range from it up to @prefix_end of
--     the title order of the index read (the location's, the agency's, the
--     pair's).
-- excluded_preset_id subtracts that preset when it passes every filter.
SELECT (CASE
    WHEN sqlc.narg(location)::text IS NULL AND sqlc.narg(agency_id)::bigint IS NULL
         AND sqlc.narg(partner_id)::bigint IS NULL AND sqlc.narg(preset_name)::text IS NULL
    THEN (SELECT coalesce(sum(t.presets), 0)
          FROM preset_tally AS t
          WHERE (sqlc.narg(goal)::text IS NULL OR t.campaign_objective = sqlc.narg(goal)::text)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR t.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%'))
    WHEN sqlc.narg(location)::text IS NULL AND sqlc.narg(agency_id)::bigint IS NULL
         AND sqlc.narg(partner_id)::bigint IS NULL AND char_length(sqlc.narg(preset_name)::text) <= 4
    THEN (SELECT coalesce(sum(t.presets), 0)
          FROM preset_prefix_tally AS t
          WHERE t.prefix = sqlc.narg(preset_name)::text
            AND (sqlc.narg(goal)::text IS NULL OR t.campaign_objective = sqlc.narg(goal)::text)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR t.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%'))
    WHEN sqlc.narg(location)::text IS NULL AND sqlc.narg(goal)::text IS NULL
         AND sqlc.narg(vertical)::text IS NULL AND sqlc.narg(preset_name)::text IS NULL
    THEN (SELECT coalesce(sum(t.presets), 0)
          FROM preset_agency_tally AS t
          WHERE t.agency_id = coalesce(sqlc.narg(agency_id)::bigint, sqlc.narg(partner_id)::bigint)
            AND (sqlc.narg(partner_id)::bigint IS NULL
                 OR t.agency_id = sqlc.narg(partner_id)::bigint))
    WHEN sqlc.narg(agency_id)::bigint IS NULL AND sqlc.narg(partner_id)::bigint IS NULL
         AND sqlc.narg(preset_name)::text IS NULL
    THEN (SELECT coalesce(sum(t.presets), 0)
          FROM preset_location_tally AS t
          WHERE t.key = sqlc.narg(location)::text
            AND t.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
            AND (sqlc.narg(goal)::text IS NULL OR t.campaign_objective = sqlc.narg(goal)::text)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR t.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%'))
    WHEN coalesce(sqlc.narg(agency_id)::bigint, sqlc.narg(partner_id)::bigint) IS NOT NULL
         AND sqlc.narg(goal)::text IS NOT NULL
         AND (sqlc.narg(location)::text IS NULL OR @pair_walk::boolean)
    THEN (SELECT count(*)
          FROM preset AS p
          WHERE p.active AND NOT p.private
            AND p.agency_id = coalesce(sqlc.narg(agency_id)::bigint, sqlc.narg(partner_id)::bigint)
            AND p.campaign_objective = sqlc.narg(goal)::text
            AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR p.vertical = ANY (ARRAY(SELECT t.vertical
                                            FROM preset_tally AS t
                                            WHERE t.campaign_objective = sqlc.narg(goal)::text
                                              AND strpos(t.vertical, sqlc.narg(vertical)::text) > 0)))
            AND (sqlc.narg(preset_name)::text IS NULL
                 OR left(p.title, char_length(sqlc.narg(preset_name)::text)) = sqlc.narg(preset_name)::text)
            AND (sqlc.narg(prefix_end)::text IS NULL
                 OR (p.title >= sqlc.narg(preset_name)::text AND p.title < sqlc.narg(prefix_end)::text))
            AND (sqlc.narg(location)::text IS NULL
                 OR EXISTS (SELECT 1
                            FROM preset_location AS l
                            WHERE l.key = sqlc.narg(location)::text
                              AND l.preset_id = p.id
                              AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0)))
    WHEN sqlc.narg(location)::text IS NULL
    THEN (SELECT count(*)
          FROM preset AS p
          WHERE p.active AND NOT p.private
            AND (sqlc.narg(goal)::text IS NULL OR p.campaign_objective = sqlc.narg(goal)::text)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
            AND (sqlc.narg(agency_id)::bigint IS NULL OR p.agency_id = sqlc.narg(agency_id)::bigint)
            AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
            AND (sqlc.narg(preset_name)::text IS NULL
                 OR p.title LIKE like_escape(sqlc.narg(preset_name)::text) || '%')
            AND (sqlc.narg(prefix_end)::text IS NULL
                 OR (p.title >= sqlc.narg(preset_name)::text AND p.title < sqlc.narg(prefix_end)::text)))
    ELSE (SELECT count(*)
          FROM preset_location AS l
          WHERE l.key = sqlc.narg(location)::text
            AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0
            AND (sqlc.narg(prefix_end)::text IS NULL
                 OR (l.title >= sqlc.narg(preset_name)::text AND l.title < sqlc.narg(prefix_end)::text))
            AND (sqlc.narg(goal)::text IS NULL OR l.campaign_objective = sqlc.narg(goal)::text)
            AND (sqlc.narg(vertical)::text IS NULL
                 OR l.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
            AND (sqlc.narg(agency_id)::bigint IS NULL OR l.agency_id = sqlc.narg(agency_id)::bigint)
            AND (sqlc.narg(partner_id)::bigint IS NULL OR l.agency_id = sqlc.narg(partner_id)::bigint)
            AND (sqlc.narg(preset_name)::text IS NULL
                 OR (l.title COLLATE "C") LIKE like_escape(sqlc.narg(preset_name)::text) || '%'))
    END
    - (SELECT count(*)
       FROM preset AS p
       WHERE p.id = sqlc.narg(excluded_preset_id)::bigint
         AND p.active AND NOT p.private
         AND (sqlc.narg(goal)::text IS NULL OR p.campaign_objective = sqlc.narg(goal)::text)
         AND (sqlc.narg(vertical)::text IS NULL
              OR p.vertical LIKE '%' || like_escape(sqlc.narg(vertical)::text) || '%')
         AND (sqlc.narg(agency_id)::bigint IS NULL OR p.agency_id = sqlc.narg(agency_id)::bigint)
         AND (sqlc.narg(partner_id)::bigint IS NULL OR p.agency_id = sqlc.narg(partner_id)::bigint)
         AND (sqlc.narg(preset_name)::text IS NULL
              OR p.title LIKE like_escape(sqlc.narg(preset_name)::text) || '%')
         AND (sqlc.narg(location)::text IS NULL
              OR EXISTS (SELECT 1
                         FROM preset_location AS l
                         WHERE l.key = sqlc.narg(location)::text
                           AND l.preset_id = p.id
                           AND l.kinds & location_kind_mask(sqlc.narg(location_type)::text) <> 0)))
)::bigint AS count;

-- name: PresetAvailable :many
-- The presets a user can activate (presets/available): the
-- active presets that are public or published by the user's own agency, by
-- title then id, with their number of purchases; one page of @page_size
-- (an addition: the spec sets no bound, and the catalogue may be large).
-- Each kind is read in title order from its own index (the public ones from
-- preset_visible_title_idx, the agency's own from preset_agency_idx) and
-- stops at the end of the page; the Preset objects are built for the page's
-- rows only, in pieces of JSON as PresetCards answers them, with the number
-- of purchases. The agency is its id: a page of a thousand cards names a
-- few hundred agencies, and their objects are read once each
-- (AgencyObjects), not sent once per card.
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
    c.body,
    coalesce(to_json(absolute_url(c.image, @public_base_url::text)), 'null'::json)::json AS image,
    price_json(c.price, (@service_fixed_fee::text)::numeric) AS price,
    price_json(c.original_price, (@service_fixed_fee::text)::numeric) AS original_price,
    c.agency_id,
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

-- name: PresetTitleBucketRebalanceSkewed :exec
-- After an import: draws the title buckets of PresetBrowseDeep again (1,000
-- visible presets each, preset_title_bucket_rebalance of 00092) when the
-- largest holds more than four times that, as after a large import into a
-- small catalogue. Answers are exact either way; a skewed bucket only makes
-- the deep pages in it slower. Reads the bucket table (about a thousand
-- rows at a million presets); the rebalance reads the visible presets twice
-- and locks preset against writers until the import commits.
SELECT preset_title_bucket_rebalance(1000)
WHERE (SELECT max(b.presets) FROM preset_title_bucket AS b) > 4000;

-- name: PresetCardReorderAfterImport :exec
-- After an import of @presets presets: writes every card again in title
-- order (preset_card_reorder of 00204) when they are at least a tenth of the
-- catalogue's cards, which the import wrote in the order of its file, so
-- that the pages of presets/browse that follow the title order read their
-- cards from a few heap pages. A smaller import leaves the order as it is;
-- its cards lie at the end of the table.
SELECT preset_card_reorder()
WHERE sqlc.arg(presets)::bigint * 10 >= (SELECT count(*) FROM preset_card);
