-- The statistics of a user's boosted posts by day (boosted-pages/stats).

-- name: BoostedPageStats :many
-- boosted-pages/stats: every day from @date_from to @date_to (at most 366)
-- of the user's posts, for each currency with statistics in the range: one
-- row per currency and date (zeros where nothing was recorded), then the
-- currency's totals, a row whose day is NULL (GROUPING SETS), ordered by
-- currency and day; spend with two decimals, rounded half up. The handler
-- encodes the rows as they come (a JSON object built per day by
-- jsonb_build_object cost more than the rest of the statement). The posts are
-- selected as boosted-posts/list selects them: optionally those of one
-- source (@source_id), boosted in one campaign (@boosted_page_id), or one
-- post (@boosted_post_id), together. Each selection reads the sums made
-- for it, a few hundred rows a currency for a year whatever the number of
-- posts: no filter the user's (boosted_user_day), the source alone the
-- source's (boosted_source_day), the campaign alone the campaign's
-- (boosted_campaign_day); a post, or a campaign and a source, the posts'
-- own days (boosted_post_day). Each branch is an index range whatever the
-- parameters, so that the one plan kept for the statement is good for
-- all. reach is the sum of each ad's daily reach.
WITH scoped AS (
    SELECT u.currency, u.day, u.impressions, u.reach, u.clicks, u.engagement, u.spend, u.conversions
    FROM boosted_user_day AS u
    WHERE sqlc.narg(source_id)::bigint IS NULL AND sqlc.narg(boosted_page_id)::bigint IS NULL
      AND sqlc.narg(boosted_post_id)::bigint IS NULL
      AND u.user_id = @user_id AND u.day BETWEEN @date_from::date AND @date_to::date
    UNION ALL
    SELECT s.currency, s.day, s.impressions, s.reach, s.clicks, s.engagement, s.spend, s.conversions
    FROM boosted_source_day AS s
    WHERE sqlc.narg(boosted_page_id)::bigint IS NULL AND sqlc.narg(boosted_post_id)::bigint IS NULL
      AND s.user_id = @user_id AND s.source_id = sqlc.narg(source_id)::bigint
      AND s.day BETWEEN @date_from::date AND @date_to::date
    UNION ALL
    SELECT c.currency, c.day, c.impressions, c.reach, c.clicks, c.engagement, c.spend, c.conversions
    FROM boosted_campaign_day AS c
    WHERE sqlc.narg(source_id)::bigint IS NULL AND sqlc.narg(boosted_post_id)::bigint IS NULL
      AND c.user_id = @user_id AND c.campaign_id = sqlc.narg(boosted_page_id)::bigint
      AND c.day BETWEEN @date_from::date AND @date_to::date
    UNION ALL
    SELECT d.currency, d.day, d.impressions, d.reach, d.clicks, d.engagement, d.spend, d.conversions
    FROM (
        -- The posts to read: the one asked for, else the campaign's (then
        -- with a source, or the campaign's sums would have answered).
        SELECT sqlc.narg(boosted_post_id)::bigint AS post_id
        WHERE sqlc.narg(boosted_post_id)::bigint IS NOT NULL
        UNION ALL
        SELECT l.post_id
        FROM boosted_post_campaign AS l
        WHERE sqlc.narg(boosted_post_id)::bigint IS NULL AND sqlc.narg(source_id)::bigint IS NOT NULL
          AND l.campaign_id = sqlc.narg(boosted_page_id)::bigint
    ) AS chosen
    JOIN boosted_post AS p ON p.user_id = @user_id AND p.id = chosen.post_id
    JOIN boosted_post_day AS d ON d.user_id = p.user_id AND d.post_id = p.id
    WHERE (sqlc.narg(source_id)::bigint IS NULL OR p.source_id = sqlc.narg(source_id))
      AND (sqlc.narg(boosted_page_id)::bigint IS NULL OR EXISTS (
               SELECT 1
               FROM boosted_post_campaign AS l
               WHERE l.campaign_id = sqlc.narg(boosted_page_id) AND l.post_id = p.id))
      AND d.day BETWEEN @date_from::date AND @date_to::date
),
summed AS (
    -- The days of the scope, and a zero day for every date of the range in
    -- each currency that has one: every date is present once summed.
    SELECT s.currency, s.day, s.impressions, s.reach, s.clicks, s.engagement, s.spend, s.conversions
    FROM scoped AS s
    UNION ALL
    SELECT c.currency, g.day::date, 0, 0, 0, 0, 0, 0
    FROM (SELECT DISTINCT s.currency FROM scoped AS s) AS c
    CROSS JOIN generate_series(@date_from::date, @date_to::date, interval '1 day') AS g (day)
)
SELECT
    m.currency::text AS currency,
    m.day AS day,
    sum(m.impressions)::bigint AS impressions,
    sum(m.reach)::bigint AS reach,
    sum(m.clicks)::bigint AS clicks,
    sum(m.engagement)::bigint AS engagement,
    round(sum(m.spend), 2)::text AS spend,
    sum(m.conversions)::bigint AS conversions
FROM summed AS m
GROUP BY GROUPING SETS ((m.currency, m.day), (m.currency))
ORDER BY m.currency, m.day NULLS LAST;

-- name: PostDaysImport :execrows
-- adboost import: the days of boosted posts (@days: a JSON array of
-- {"user_id", "post_id", "currency", "day", "impressions", "reach",
-- "clicks", "engagement", "spend", "conversions"}) replace those stored;
-- a row whose post is not the user's is not written. Answers how many were.
-- PostDaysResum then makes the sums of the users' days agree.
INSERT INTO boosted_post_day AS d (user_id, post_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT p.user_id, p.id, x.r ->> 'currency', (x.r ->> 'day')::date,
       (x.r ->> 'impressions')::bigint, (x.r ->> 'reach')::bigint, (x.r ->> 'engagement')::bigint,
       (x.r ->> 'clicks')::bigint, round((x.r ->> 'spend')::numeric, 3), (x.r ->> 'conversions')::bigint
FROM jsonb_array_elements(@days::jsonb) AS x (r)
JOIN boosted_post AS p ON p.user_id = (x.r ->> 'user_id')::bigint AND p.id = (x.r ->> 'post_id')::bigint
ON CONFLICT (user_id, post_id, currency, day) DO UPDATE SET
    impressions = EXCLUDED.impressions,
    reach       = EXCLUDED.reach,
    engagement  = EXCLUDED.engagement,
    clicks      = EXCLUDED.clicks,
    spend       = EXCLUDED.spend,
    conversions = EXCLUDED.conversions;

-- name: PostDaysResum :exec
-- The sums of each source's, each campaign's and each user's days of
-- @user_ids made again from their posts' days (boosted_post_day), after an
-- import wrote those: every sum with a post's day is set to the posts' sum.
WITH campaigns AS (
    INSERT INTO boosted_campaign_day (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT d.user_id, l.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM boosted_post_day AS d
    JOIN boosted_post_campaign AS l ON l.post_id = d.post_id AND l.user_id = d.user_id
    WHERE d.user_id = ANY (@user_ids::bigint[])
    GROUP BY d.user_id, l.campaign_id, d.currency, d.day
    ON CONFLICT (user_id, campaign_id, currency, day) DO UPDATE SET
        impressions = EXCLUDED.impressions, reach = EXCLUDED.reach, engagement = EXCLUDED.engagement,
        clicks = EXCLUDED.clicks, spend = EXCLUDED.spend, conversions = EXCLUDED.conversions
),
sources AS (
    INSERT INTO boosted_source_day (user_id, source_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT d.user_id, p.source_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM boosted_post_day AS d
    JOIN boosted_post AS p ON p.user_id = d.user_id AND p.id = d.post_id
    WHERE d.user_id = ANY (@user_ids::bigint[])
    GROUP BY d.user_id, p.source_id, d.currency, d.day
    ON CONFLICT (user_id, source_id, currency, day) DO UPDATE SET
        impressions = EXCLUDED.impressions, reach = EXCLUDED.reach, engagement = EXCLUDED.engagement,
        clicks = EXCLUDED.clicks, spend = EXCLUDED.spend, conversions = EXCLUDED.conversions
)
INSERT INTO boosted_user_day (user_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT d.user_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM boosted_post_day AS d
WHERE d.user_id = ANY (@user_ids::bigint[])
GROUP BY d.user_id, d.currency, d.day
ON CONFLICT (user_id, currency, day) DO UPDATE SET
    impressions = EXCLUDED.impressions, reach = EXCLUDED.reach, engagement = EXCLUDED.engagement,
    clicks = EXCLUDED.clicks, spend = EXCLUDED.spend, conversions = EXCLUDED.conversions;
