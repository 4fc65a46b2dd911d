-- The spend recorded for a campaign's ads, as a running total on its
-- network_a campaign: NetworkAAdInsightSync adds each ad's change as it
-- writes the ad's statistics, so the spend cap's check reads one row however
-- many ads the campaign has boosted. Money once recorded stays in the total
-- when a boosted post is deleted with its statistics.

-- +goose Up
ALTER TABLE network_a_campaign
    ADD COLUMN spend numeric(16, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0);

UPDATE network_a_campaign AS n
SET spend = s.spend
FROM (
    SELECT i.campaign_id, sum(i.spend) AS spend
    FROM network_a_ad_insight AS i
    GROUP BY i.campaign_id
) AS s
WHERE s.campaign_id = n.campaign_id;

-- +goose Down
ALTER TABLE network_a_campaign DROP COLUMN spend;
