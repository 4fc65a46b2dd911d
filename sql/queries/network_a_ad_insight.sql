-- The statistics of the engine's ads.

-- name: NetworkAAdInsightSync :one
-- Writes what network_a answered for the campaign's ads (@insights: a JSON
-- array of {"ad_id", "impressions", "reach", "engagement", "clicks",
-- "spend", "conversions"}, the `level=ad` rows of its network_a campaign),
-- in one statement, touching only what changed: each row is matched to its
-- post through the ad's done (or stopped) attempt (an ad adboost did not make, or whose
-- post is not recorded, is ignored); an ad whose statistics differ from the
-- stored ones is written, and only the posts of those ads get their
-- insights set again to the sum over all their ads (this campaign's new
-- rows plus the other campaigns' stored ones); the campaign's recorded
-- spend (network_a_campaign.spend) moves by the changed ads' difference;
-- cap_reached answers whether that move brought it to the campaign's
-- spend_cap (spend: the new total), so that the cycle that records it
-- pauses the campaign.
-- An ad without a row keeps its last statistics. spend is a decimal string
-- in the ad account's currency, kept with three decimals (rounded half up
-- when network_a sends more). Answers how many ads changed. Run it after
-- NetworkACampaignPostsLock in the same transaction: the sums read the other
-- campaigns' rows, which their own work may be writing.
WITH answered AS (
    SELECT a.post_id, p.user_id,
           (x.row ->> 'impressions')::bigint AS impressions, (x.row ->> 'reach')::bigint AS reach,
           (x.row ->> 'engagement')::bigint AS engagement, (x.row ->> 'clicks')::bigint AS clicks,
           round((x.row ->> 'spend')::numeric, 3)::numeric(14, 3) AS spend,
           (x.row ->> 'conversions')::bigint AS conversions,
           coalesce(o.spend, 0) AS old_spend
    FROM jsonb_array_elements(@insights::jsonb) AS x (row)
    JOIN network_a_attempt AS a
      ON a.campaign_id = @campaign_id AND a.kind = 'ad' AND a.state IN ('done', 'stopped')
     AND a.object_id = x.row ->> 'ad_id'
    JOIN network_a_campaign AS n ON n.campaign_id = a.campaign_id
    JOIN boosted_post AS p ON p.id = a.post_id AND p.user_id = n.user_id
    LEFT JOIN network_a_ad_insight AS o ON o.campaign_id = a.campaign_id AND o.post_id = a.post_id
),
changed AS (
    INSERT INTO network_a_ad_insight AS i (
        campaign_id, post_id, impressions, reach, engagement, clicks, spend, conversions
    )
    SELECT @campaign_id, w.post_id, w.impressions, w.reach, w.engagement, w.clicks, w.spend, w.conversions
    FROM answered AS w
    ON CONFLICT (campaign_id, post_id) DO UPDATE SET
        impressions = EXCLUDED.impressions,
        reach       = EXCLUDED.reach,
        engagement  = EXCLUDED.engagement,
        clicks      = EXCLUDED.clicks,
        spend       = EXCLUDED.spend,
        conversions = EXCLUDED.conversions,
        updated_at  = now()
    WHERE (i.impressions, i.reach, i.engagement, i.clicks, i.spend, i.conversions)
          IS DISTINCT FROM
          (EXCLUDED.impressions, EXCLUDED.reach, EXCLUDED.engagement, EXCLUDED.clicks, EXCLUDED.spend, EXCLUDED.conversions)
    RETURNING i.post_id, i.impressions, i.reach, i.engagement, i.clicks, i.spend, i.conversions
),
summed AS (
    INSERT INTO boosted_post_insight AS b (user_id, post_id, impressions, reach, engagement, clicks, spend, conversions)
    SELECT w.user_id, c.post_id,
           c.impressions + coalesce(o.impressions, 0), c.reach + coalesce(o.reach, 0),
           c.engagement + coalesce(o.engagement, 0), c.clicks + coalesce(o.clicks, 0),
           c.spend + coalesce(o.spend, 0), c.conversions + coalesce(o.conversions, 0)
    FROM changed AS c
    JOIN answered AS w ON w.post_id = c.post_id
    LEFT JOIN LATERAL (
        SELECT sum(r.impressions) AS impressions, sum(r.reach) AS reach, sum(r.engagement) AS engagement,
               sum(r.clicks) AS clicks, sum(r.spend) AS spend, sum(r.conversions) AS conversions
        FROM network_a_ad_insight AS r
        WHERE r.post_id = c.post_id
          AND r.campaign_id <> @campaign_id
    ) AS o ON true
    ON CONFLICT (post_id) DO UPDATE SET
        impressions = EXCLUDED.impressions,
        reach       = EXCLUDED.reach,
        engagement  = EXCLUDED.engagement,
        clicks      = EXCLUDED.clicks,
        spend       = EXCLUDED.spend,
        conversions = EXCLUDED.conversions,
        updated_at  = now()
    RETURNING b.post_id
),
total AS (
    UPDATE network_a_campaign AS n
    SET spend = n.spend + d.delta
    FROM (
        SELECT sum(c.spend - w.old_spend) AS delta
        FROM changed AS c
        JOIN answered AS w ON w.post_id = c.post_id
    ) AS d
    WHERE n.campaign_id = @campaign_id
      AND d.delta <> 0
    RETURNING n.campaign_id, n.spend
)
SELECT
    count(s.post_id) AS changed,
    coalesce((SELECT t.spend >= (c.rules ->> 'spend_cap')::numeric
              FROM total AS t
              JOIN campaign AS c ON c.id = t.campaign_id
              WHERE c.rules ? 'spend_cap'), false)::boolean AS cap_reached,
    coalesce((SELECT round(t.spend, 2)::text FROM total AS t), '')::text AS spend
FROM summed AS s;

-- name: NetworkAAdDaysSync :one
-- Writes the days network_a answered for the campaign's ads (@days: a JSON
-- array of {"ad_id", "day", "impressions", "reach", "engagement", "clicks",
-- "spend", "conversions"}, the `level=ad`, `time_increment=1` rows of its
-- network_a campaign, day as YYYY-MM-DD), in one statement, touching only
-- what changed: each row is matched to its post through the ad's done (or
-- stopped) attempt (others are ignored, as are all while the ad account's
-- currency is unknown); an ad's day that differs from the stored one is
-- written, and the post's, its source's, its user's and every one of its
-- campaigns' sums of that day and the campaign's currency move by the
-- difference. A day without a row
-- keeps what it has. spend as in NetworkAAdInsightSync. Answers how many
-- days changed. Run it after NetworkACampaignPostsLock in the same
-- transaction: the sums are the user's, which the user's other campaigns'
-- works may be moving.
WITH answered AS (
    SELECT DISTINCT ON (a.post_id, d.day)
           a.post_id, p.user_id, p.source_id, n.currency, d.day,
           (x.row ->> 'impressions')::bigint AS impressions, (x.row ->> 'reach')::bigint AS reach,
           (x.row ->> 'engagement')::bigint AS engagement, (x.row ->> 'clicks')::bigint AS clicks,
           round((x.row ->> 'spend')::numeric, 3)::numeric(14, 3) AS spend,
           (x.row ->> 'conversions')::bigint AS conversions,
           coalesce(o.impressions, 0) AS old_impressions, coalesce(o.reach, 0) AS old_reach,
           coalesce(o.engagement, 0) AS old_engagement, coalesce(o.clicks, 0) AS old_clicks,
           coalesce(o.spend, 0) AS old_spend, coalesce(o.conversions, 0) AS old_conversions
    FROM jsonb_array_elements(@days::jsonb) AS x (row)
    CROSS JOIN LATERAL (SELECT (x.row ->> 'day')::date AS day) AS d
    JOIN network_a_attempt AS a
      ON a.campaign_id = @campaign_id AND a.kind = 'ad' AND a.state IN ('done', 'stopped')
     AND a.object_id = x.row ->> 'ad_id'
    JOIN network_a_campaign AS n ON n.campaign_id = a.campaign_id
    JOIN boosted_post AS p ON p.id = a.post_id AND p.user_id = n.user_id
    LEFT JOIN network_a_ad_day AS o ON o.campaign_id = a.campaign_id AND o.post_id = a.post_id AND o.day = d.day
    WHERE n.currency IS NOT NULL
    ORDER BY a.post_id, d.day
),
changed AS (
    INSERT INTO network_a_ad_day AS i (
        campaign_id, post_id, day, impressions, reach, engagement, clicks, spend, conversions
    )
    SELECT @campaign_id, w.post_id, w.day, w.impressions, w.reach, w.engagement, w.clicks, w.spend, w.conversions
    FROM answered AS w
    ON CONFLICT (campaign_id, post_id, day) DO UPDATE SET
        impressions = EXCLUDED.impressions,
        reach       = EXCLUDED.reach,
        engagement  = EXCLUDED.engagement,
        clicks      = EXCLUDED.clicks,
        spend       = EXCLUDED.spend,
        conversions = EXCLUDED.conversions
    WHERE (i.impressions, i.reach, i.engagement, i.clicks, i.spend, i.conversions)
          IS DISTINCT FROM
          (EXCLUDED.impressions, EXCLUDED.reach, EXCLUDED.engagement, EXCLUDED.clicks, EXCLUDED.spend, EXCLUDED.conversions)
    RETURNING i.post_id, i.day
),
delta AS (
    SELECT w.user_id, w.post_id, w.source_id, w.currency, w.day,
           w.impressions - w.old_impressions AS impressions, w.reach - w.old_reach AS reach,
           w.engagement - w.old_engagement AS engagement, w.clicks - w.old_clicks AS clicks,
           w.spend - w.old_spend AS spend, w.conversions - w.old_conversions AS conversions
    FROM answered AS w
    JOIN changed AS c ON c.post_id = w.post_id AND c.day = w.day
),
posts AS (
    INSERT INTO boosted_post_day AS s (user_id, post_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT d.user_id, d.post_id, d.currency, d.day, d.impressions, d.reach, d.engagement, d.clicks, d.spend, d.conversions
    FROM delta AS d
    ON CONFLICT (user_id, post_id, currency, day) DO UPDATE SET
        impressions = s.impressions + EXCLUDED.impressions,
        reach       = s.reach + EXCLUDED.reach,
        engagement  = s.engagement + EXCLUDED.engagement,
        clicks      = s.clicks + EXCLUDED.clicks,
        spend       = s.spend + EXCLUDED.spend,
        conversions = s.conversions + EXCLUDED.conversions
),
sources AS (
    INSERT INTO boosted_source_day AS s (user_id, source_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT d.user_id, d.source_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM delta AS d
    GROUP BY d.user_id, d.source_id, d.currency, d.day
    ON CONFLICT (user_id, source_id, currency, day) DO UPDATE SET
        impressions = s.impressions + EXCLUDED.impressions,
        reach       = s.reach + EXCLUDED.reach,
        engagement  = s.engagement + EXCLUDED.engagement,
        clicks      = s.clicks + EXCLUDED.clicks,
        spend       = s.spend + EXCLUDED.spend,
        conversions = s.conversions + EXCLUDED.conversions
),
campaigns AS (
    INSERT INTO boosted_campaign_day AS s (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT l.user_id, l.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM delta AS d
    JOIN boosted_post_campaign AS l ON l.post_id = d.post_id AND l.user_id = d.user_id
    GROUP BY l.user_id, l.campaign_id, d.currency, d.day
    ON CONFLICT (user_id, campaign_id, currency, day) DO UPDATE SET
        impressions = s.impressions + EXCLUDED.impressions,
        reach       = s.reach + EXCLUDED.reach,
        engagement  = s.engagement + EXCLUDED.engagement,
        clicks      = s.clicks + EXCLUDED.clicks,
        spend       = s.spend + EXCLUDED.spend,
        conversions = s.conversions + EXCLUDED.conversions
),
users AS (
    INSERT INTO boosted_user_day AS s (user_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT d.user_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM delta AS d
    GROUP BY d.user_id, d.currency, d.day
    ON CONFLICT (user_id, currency, day) DO UPDATE SET
        impressions = s.impressions + EXCLUDED.impressions,
        reach       = s.reach + EXCLUDED.reach,
        engagement  = s.engagement + EXCLUDED.engagement,
        clicks      = s.clicks + EXCLUDED.clicks,
        spend       = s.spend + EXCLUDED.spend,
        conversions = s.conversions + EXCLUDED.conversions
)
SELECT count(*) AS changed FROM changed;

-- name: NetworkACampaignDaysRead :exec
-- The engine read the campaign's days at @read_at: the next read, at most
-- an hour later, covers the last 3 days only.
UPDATE network_a_campaign
SET days_read_at = @read_at::timestamptz
WHERE campaign_id = @campaign_id;
