-- The statistics of the engine's ads (CONTRACT §14).

-- name: NetworkAAdInsightTargets :many
-- The ads whose statistics a cycle reads for one campaign: every ad of a
-- campaign running on network_a, and those of a campaign paused within the
-- last 28 days. The window is the campaign's (paused_at), not the post's
-- `stopped`: a post shared with a campaign that still runs is never stopped,
-- and its ad in this campaign still has statistics to read. Served by
-- network_a_attempt_key.
SELECT a.post_id, a.object_id::text AS ad_id
FROM network_a_attempt AS a
JOIN network_a_campaign AS n ON n.campaign_id = a.campaign_id
JOIN boosted_post AS p ON p.id = a.post_id AND p.user_id = n.user_id
WHERE a.campaign_id = @campaign_id
  AND a.kind = 'ad'
  AND a.state = 'done'
  AND (n.status = 'ACTIVE' OR n.paused_at > now() - interval '28 days')
ORDER BY a.post_id;

-- name: NetworkAAdInsightReplace :exec
-- Replaces the statistics of the campaign's ads with what network_a answered
-- (@insights: a JSON array of {"post_id", "impressions", "reach",
-- "engagement", "clicks", "spend", "conversions"}), then sets each of those
-- posts' insights to the sum over all its ads. spend is a decimal string in
-- the ad account's currency, kept with three decimals (rounded half up when
-- network_a sends more). Call in one transaction with
-- BoostedPostInsightFromAds.
INSERT INTO network_a_ad_insight AS i (
    campaign_id, post_id, impressions, reach, engagement, clicks, spend, conversions
)
SELECT @campaign_id, x.post_id, x.impressions, x.reach, x.engagement, x.clicks, x.spend, x.conversions
FROM jsonb_to_recordset(@insights::jsonb) AS x (
    post_id bigint, impressions bigint, reach bigint, engagement bigint,
    clicks bigint, spend numeric(14, 3), conversions bigint)
ON CONFLICT (campaign_id, post_id) DO UPDATE SET
    impressions = EXCLUDED.impressions,
    reach       = EXCLUDED.reach,
    engagement  = EXCLUDED.engagement,
    clicks      = EXCLUDED.clicks,
    spend       = EXCLUDED.spend,
    conversions = EXCLUDED.conversions,
    updated_at  = now();
