-- boosted_campaign_day: the days of the posts boosted in a campaign, summed
-- (each post's day over all its ads, as boosted_post_day holds it, once for
-- every campaign the post is in): what boosted-pages/stats reads for one
-- campaign, the range's rows instead of one per post and day.
--
-- The statements that change what it sums keep it in the same transaction,
-- as they keep boosted_source_day and boosted_user_day (no trigger):
-- * NetworkAAdDaysSync: a post's day moved; every campaign the post is in
--   moves by as much.
-- * NetworkAAttemptAdsDone and BoostedPostCampaignsReplace: a post joins a
--   campaign (its days are added) or leaves it (they are taken away).
-- * PostDaysResum: after an import wrote posts' days, the sums are made
--   again from them.
-- A campaign's rows go with it. Boosted posts are not deleted but with their
-- user, whose rows go too.

-- +goose Up
CREATE TABLE boosted_campaign_day (
    user_id     bigint NOT NULL,
    campaign_id bigint NOT NULL,
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    day         date NOT NULL,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(18, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    PRIMARY KEY (user_id, campaign_id, currency, day),
    FOREIGN KEY (user_id, campaign_id) REFERENCES campaign (user_id, id) ON DELETE CASCADE
);

INSERT INTO boosted_campaign_day (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT l.user_id, l.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM boosted_post_campaign AS l
JOIN boosted_post_day AS d ON d.user_id = l.user_id AND d.post_id = l.post_id
GROUP BY l.user_id, l.campaign_id, d.currency, d.day;

-- +goose Down
DROP TABLE boosted_campaign_day;
