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
    SELECT a.post_id,
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
    INSERT INTO boosted_post_insight AS b (post_id, impressions, reach, engagement, clicks, spend, conversions)
    SELECT c.post_id,
           c.impressions + coalesce(o.impressions, 0), c.reach + coalesce(o.reach, 0),
           c.engagement + coalesce(o.engagement, 0), c.clicks + coalesce(o.clicks, 0),
           c.spend + coalesce(o.spend, 0), c.conversions + coalesce(o.conversions, 0)
    FROM changed AS c
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
