-- The statistics of a user's boosted posts by day (boosted-pages/stats).

-- The four statements of boosted-pages/stats, one for each way of
-- selecting the posts (the handler picks it from the filters given). The
-- posts are selected as boosted-posts/list selects them: those of one
-- source, boosted in one campaign, or one post, together. Each answers the
-- days from @date_from to @date_to (at most 366) that have statistics, one
-- row per currency and date, then each currency's totals, a row whose day
-- is NULL (GROUPING SETS), ordered by currency and day; spend with two
-- decimals, rounded half up. The handler answers zeros for the dates
-- without a row. The three selections without a post read the sums made
-- for them, a few hundred rows a currency for a year whatever the number
-- of posts; each statement is a range of one index. reach is the sum of
-- each ad's daily reach. (Four statements rather than one whose branches
-- each stand behind a condition on the parameters: the executor starts
-- every branch of the plan it keeps, at every request.)

-- name: StatsOfUser :many
-- Every post of the user (no filter): the user's sums (boosted_user_day).
SELECT
    u.currency::text AS currency,
    u.day AS day,
    sum(u.impressions)::bigint AS impressions,
    sum(u.reach)::bigint AS reach,
    sum(u.clicks)::bigint AS clicks,
    sum(u.engagement)::bigint AS engagement,
    round(sum(u.spend), 2)::text AS spend,
    sum(u.conversions)::bigint AS conversions
FROM boosted_user_day AS u
WHERE u.user_id = @user_id AND u.day BETWEEN @date_from::date AND @date_to::date
GROUP BY GROUPING SETS ((u.currency, u.day), (u.currency))
ORDER BY u.currency, u.day NULLS LAST;

-- name: StatsOfSource :many
-- The posts of one source (source_id alone): the source's sums
-- (boosted_source_day).
SELECT
    s.currency::text AS currency,
    s.day AS day,
    sum(s.impressions)::bigint AS impressions,
    sum(s.reach)::bigint AS reach,
    sum(s.clicks)::bigint AS clicks,
    sum(s.engagement)::bigint AS engagement,
    round(sum(s.spend), 2)::text AS spend,
    sum(s.conversions)::bigint AS conversions
FROM boosted_source_day AS s
WHERE s.user_id = @user_id AND s.source_id = @source_id
  AND s.day BETWEEN @date_from::date AND @date_to::date
GROUP BY GROUPING SETS ((s.currency, s.day), (s.currency))
ORDER BY s.currency, s.day NULLS LAST;

-- name: StatsOfCampaign :many
-- The posts boosted in one campaign (boosted_page_id alone): the
-- campaign's sums (boosted_campaign_day).
SELECT
    c.currency::text AS currency,
    c.day AS day,
    sum(c.impressions)::bigint AS impressions,
    sum(c.reach)::bigint AS reach,
    sum(c.clicks)::bigint AS clicks,
    sum(c.engagement)::bigint AS engagement,
    round(sum(c.spend), 2)::text AS spend,
    sum(c.conversions)::bigint AS conversions
FROM boosted_campaign_day AS c
WHERE c.user_id = @user_id AND c.campaign_id = @boosted_page_id
  AND c.day BETWEEN @date_from::date AND @date_to::date
GROUP BY GROUPING SETS ((c.currency, c.day), (c.currency))
ORDER BY c.currency, c.day NULLS LAST;

-- name: StatsOfPosts :many
-- One post (boosted_post_id, with or without the other filters), or the
-- posts of a campaign and a source together: the posts' own days
-- (boosted_post_day), driven by the post id or the campaign's links.
WITH chosen AS (
    SELECT sqlc.narg(boosted_post_id)::bigint AS post_id
    WHERE sqlc.narg(boosted_post_id)::bigint IS NOT NULL
    UNION ALL
    SELECT l.post_id
    FROM boosted_post_campaign AS l
    WHERE sqlc.narg(boosted_post_id)::bigint IS NULL
      AND l.campaign_id = sqlc.narg(boosted_page_id)::bigint
)
SELECT
    d.currency::text AS currency,
    d.day AS day,
    sum(d.impressions)::bigint AS impressions,
    sum(d.reach)::bigint AS reach,
    sum(d.clicks)::bigint AS clicks,
    sum(d.engagement)::bigint AS engagement,
    round(sum(d.spend), 2)::text AS spend,
    sum(d.conversions)::bigint AS conversions
FROM chosen
JOIN boosted_post AS p ON p.user_id = @user_id AND p.id = chosen.post_id
JOIN boosted_post_day AS d ON d.user_id = p.user_id AND d.post_id = p.id
WHERE (sqlc.narg(source_id)::bigint IS NULL OR p.source_id = sqlc.narg(source_id))
  AND (sqlc.narg(boosted_page_id)::bigint IS NULL OR EXISTS (
           SELECT 1
           FROM boosted_post_campaign AS l
           WHERE l.campaign_id = sqlc.narg(boosted_page_id) AND l.post_id = p.id))
  AND d.day BETWEEN @date_from::date AND @date_to::date
GROUP BY GROUPING SETS ((d.currency, d.day), (d.currency))
ORDER BY d.currency, d.day NULLS LAST;

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
