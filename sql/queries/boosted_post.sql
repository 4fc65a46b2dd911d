-- Boosted posts, their links to campaigns and their insights. Every query of
-- the interface is scoped to the signed-in user (@user_id).

-- name: BoostedPostList :many
-- boosted-posts/list: page @page (1-based) of the user's posts, 20 a page,
-- newest `created` first, then highest id; optionally only the posts of one
-- source (@source_id) and/or those boosted in one campaign (@boosted_page_id).
-- The text is cut to 100 characters ending in an ellipsis (U+2026); created and stopped are
-- Unix seconds (stopped 0 while the boost runs); review is the review of the
-- post's ad as network_a last reported it, {"status", "reason"} (reason null
-- unless disapproved or with_issues), null for a post without one.
-- The page's ids come first, index-only, from boosted_post_created_idx or,
-- with a source, boosted_post_source_idx (user, [source,] created, id): a
-- deep page skips index entries, not posts. Only the page's 20 posts are
-- read whole. Each of the two ways is started only when its condition on
-- @source_id holds (a one-time check), so one plan serves both as a
-- prepared statement.
WITH page AS (
    (SELECT p.id, p.created
     FROM boosted_post AS p
     WHERE sqlc.narg(source_id)::bigint IS NULL
       AND p.user_id = @user_id
       AND (sqlc.narg(boosted_page_id)::bigint IS NULL
            OR p.id = ANY (ARRAY(
                SELECT l.post_id
                FROM boosted_post_campaign AS l
                WHERE l.campaign_id = sqlc.narg(boosted_page_id))))
     ORDER BY p.created DESC, p.id DESC
     LIMIT 20 OFFSET 20 * (sqlc.arg(page)::bigint - 1))
    UNION ALL
    (SELECT p.id, p.created
     FROM boosted_post AS p
     WHERE p.user_id = @user_id
       AND p.source_id = sqlc.narg(source_id)::bigint
       AND (sqlc.narg(boosted_page_id)::bigint IS NULL
            OR p.id = ANY (ARRAY(
                SELECT l.post_id
                FROM boosted_post_campaign AS l
                WHERE l.campaign_id = sqlc.narg(boosted_page_id))))
     ORDER BY p.created DESC, p.id DESC
     LIMIT 20 OFFSET 20 * (sqlc.arg(page)::bigint - 1))
)
SELECT
    p.id,
    p.active,
    (CASE WHEN char_length(p.name) > 100 THEN rtrim(left(p.name, 99)) || chr(8230) ELSE p.name END)::text AS name,
    p.link,
    p.image,
    floor(extract(epoch FROM p.created))::bigint AS created,
    coalesce(floor(extract(epoch FROM p.stopped))::bigint, 0)::bigint AS stopped,
    (CASE WHEN p.review_status IS NOT NULL
          THEN jsonb_build_object('status', p.review_status, 'reason', p.review_reason) END)::jsonb AS review
FROM page
JOIN boosted_post AS p ON p.id = page.id
ORDER BY page.created DESC, page.id DESC;

-- name: BoostedPostCount :one
-- boosted-posts/count: how many posts BoostedPostList pages through.
SELECT count(*) AS posts
FROM boosted_post AS p
WHERE p.user_id = @user_id
  AND (sqlc.narg(source_id)::bigint IS NULL OR p.source_id = sqlc.narg(source_id))
  AND (sqlc.narg(boosted_page_id)::bigint IS NULL
       OR p.id = ANY (ARRAY(
           SELECT l.post_id
           FROM boosted_post_campaign AS l
           WHERE l.campaign_id = sqlc.narg(boosted_page_id))));

-- name: BoostedPostInsightsSum :one
-- boosted-posts/batch-insights: the insights of the user's posts among @ids
-- (each counted once; others' and unknown ids add nothing), summed, with the
-- derived figures (0 where the divisor is 0): cpm = spend*1000/impressions,
-- ctr = clicks*100/impressions, cpc = spend/clicks, cpa = spend/conversions,
-- conversion_rate = conversions*100/clicks. Counts as integer strings, money
-- and ratios as strings with two decimals, rounded half up, all in numeric.
-- Every post has its row of counters, with its owner
-- (boosted_post_insight_fkey), so the user's posts among the ids are the
-- user's rows among them: one index-only scan of the owner's range of
-- boosted_post_insight_user_idx over the ids (it includes the counters).
WITH total AS (
    SELECT
        count(*)                            AS posts,
        coalesce(sum(i.impressions), 0)     AS impressions,
        coalesce(sum(i.reach), 0)           AS reach,
        coalesce(sum(i.engagement), 0)      AS engagement,
        coalesce(sum(i.clicks), 0)          AS clicks,
        coalesce(sum(i.spend), 0)::numeric  AS spend,
        coalesce(sum(i.conversions), 0)     AS conversions
    FROM boosted_post_insight AS i
    WHERE i.user_id = @user_id
      AND i.post_id = ANY(@ids::bigint[])
)
SELECT
    t.posts::text                                                                   AS posts,
    t.reach::text                                                                   AS reach,
    t.engagement::text                                                              AS engagement,
    t.clicks::text                                                                  AS clicks,
    round(t.spend, 2)::text                                                         AS spend,
    round(coalesce(t.spend * 1000 / nullif(t.impressions, 0), 0), 2)::text          AS cpm,
    round(coalesce(t.clicks * 100 / nullif(t.impressions, 0), 0), 2)::text          AS ctr,
    round(coalesce(t.spend / nullif(t.clicks, 0), 0), 2)::text                      AS cpc,
    round(coalesce(t.spend / nullif(t.conversions, 0), 0), 2)::text                 AS cpa,
    t.conversions::text                                                             AS conversions,
    round(coalesce(t.conversions * 100 / nullif(t.clicks, 0), 0), 2)::text          AS conversion_rate
FROM total AS t;

-- name: BoostedPostUpsert :batchexec
-- Inserts a post of an import file, or updates the post with that id. Without
-- @user_id / @source_id, the owner and the source are those of the post's
-- first campaign (@first_campaign_id): its page, else its network_b account.
-- created/stopped are Unix seconds; stopped 0 = still running. A new post
-- gets its row of zero counters (boosted_post_insight_fkey); a post that
-- changes owner takes its row along (the row's foreign key cascades).
WITH post AS (
    INSERT INTO boosted_post (id, user_id, source_id, active, name, link, image, created, stopped)
    SELECT
        @id,
        coalesce(sqlc.narg(user_id)::bigint, c.user_id),
        coalesce(sqlc.narg(source_id)::bigint, c.page_id, c.network_b_id),
        @active, @name, @link, @image,
        to_timestamp(@created::bigint),
        CASE WHEN @stopped::bigint > 0 THEN to_timestamp(@stopped::bigint) END
    FROM (VALUES (1)) AS one (x)
    LEFT JOIN campaign AS c ON c.id = sqlc.narg(first_campaign_id)::bigint
    ON CONFLICT (id) DO UPDATE SET
        user_id    = EXCLUDED.user_id,
        source_id  = EXCLUDED.source_id,
        active     = EXCLUDED.active,
        name       = EXCLUDED.name,
        link       = EXCLUDED.link,
        image      = EXCLUDED.image,
        created    = EXCLUDED.created,
        stopped    = EXCLUDED.stopped,
        updated_at = now()
    RETURNING boosted_post.id, boosted_post.user_id
)
INSERT INTO boosted_post_insight (user_id, post_id)
SELECT post.user_id, post.id
FROM post
ON CONFLICT (post_id) DO NOTHING;

-- name: BoostedPostCampaignsReplace :batchexec
-- Makes @campaign_ids the campaigns the post is boosted in: drops the other
-- links, adds the new ones (campaigns of the post's own user only: the foreign
-- keys refuse the others), and moves the campaigns' sums of days
-- (boosted_campaign_day) by the post's days: taken from the campaigns it
-- leaves, added to those it joins.
WITH dropped AS (
    DELETE FROM boosted_post_campaign AS l
    WHERE l.post_id = @post_id
      AND l.campaign_id <> ALL (@campaign_ids::bigint[])
    RETURNING l.user_id, l.campaign_id, l.post_id
),
added AS (
    INSERT INTO boosted_post_campaign AS l (user_id, campaign_id, post_id)
    SELECT p.user_id, x.campaign_id, p.id
    FROM boosted_post AS p
    CROSS JOIN unnest(@campaign_ids::bigint[]) AS x (campaign_id)
    WHERE p.id = @post_id
    ON CONFLICT DO NOTHING
    RETURNING l.user_id, l.campaign_id, l.post_id
),
taken AS (
    -- The campaigns left lose the post's days (rows that remain, at zero
    -- when the post was their only one).
    UPDATE boosted_campaign_day AS s SET
        impressions = s.impressions - g.impressions,
        reach       = s.reach - g.reach,
        engagement  = s.engagement - g.engagement,
        clicks      = s.clicks - g.clicks,
        spend       = s.spend - g.spend,
        conversions = s.conversions - g.conversions
    FROM (
        SELECT r.user_id, r.campaign_id, d.currency, d.day, sum(d.impressions) AS impressions, sum(d.reach) AS reach,
               sum(d.engagement) AS engagement, sum(d.clicks) AS clicks, sum(d.spend) AS spend,
               sum(d.conversions) AS conversions
        FROM dropped AS r
        JOIN boosted_post_day AS d ON d.user_id = r.user_id AND d.post_id = r.post_id
        GROUP BY r.user_id, r.campaign_id, d.currency, d.day
    ) AS g
    WHERE s.user_id = g.user_id AND s.campaign_id = g.campaign_id AND s.currency = g.currency AND s.day = g.day
)
INSERT INTO boosted_campaign_day AS s (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT a.user_id, a.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM added AS a
JOIN boosted_post_day AS d ON d.user_id = a.user_id AND d.post_id = a.post_id
GROUP BY a.user_id, a.campaign_id, d.currency, d.day
ON CONFLICT (user_id, campaign_id, currency, day) DO UPDATE SET
    impressions = s.impressions + EXCLUDED.impressions,
    reach       = s.reach + EXCLUDED.reach,
    engagement  = s.engagement + EXCLUDED.engagement,
    clicks      = s.clicks + EXCLUDED.clicks,
    spend       = s.spend + EXCLUDED.spend,
    conversions = s.conversions + EXCLUDED.conversions;

-- name: BoostedPostInsightUpsert :batchexec
-- Sets the insight counters of a post of an import file (its owner's row;
-- a post that is not recorded has no owner, and the row is refused).
INSERT INTO boosted_post_insight (user_id, post_id, impressions, reach, engagement, clicks, spend, conversions)
VALUES ((SELECT p.user_id FROM boosted_post AS p WHERE p.id = @post_id), @post_id,
        @impressions, @reach, @engagement, @clicks, (@spend::text)::numeric(12, 2), @conversions)
ON CONFLICT (post_id) DO UPDATE SET
    impressions = EXCLUDED.impressions,
    reach       = EXCLUDED.reach,
    engagement  = EXCLUDED.engagement,
    clicks      = EXCLUDED.clicks,
    spend       = EXCLUDED.spend,
    conversions = EXCLUDED.conversions,
    updated_at  = now();
