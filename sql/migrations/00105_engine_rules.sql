-- The engine applies a campaign's rules: how many boosts a day, and a
-- budget of each boosted post's own.
--
-- An ad attempt keeps the post's own budget (post_budget, in the ad account's
-- main unit) and the end of its boost (post_days after it) when the rules
-- gave it one: the ad goes into an ad set of its own, an attempt of kind
-- `adset` with the post's id, named adboost-<campaign id>-<post id>. The
-- network_a campaign keeps the fields last sent to it (spend_cap), to find
-- what a `save` changed.

-- +goose Up
ALTER TABLE network_a_attempt
    ADD COLUMN budget numeric(12, 2) CHECK (budget > 0),
    ADD COLUMN ends_at timestamptz,
    ADD CONSTRAINT network_a_attempt_post_budget_check CHECK ((budget IS NULL) = (ends_at IS NULL) AND (budget IS NULL OR kind = 'ad')),
    DROP CONSTRAINT network_a_attempt_kind_post_check,
    ADD CONSTRAINT network_a_attempt_kind_post_check
        CHECK ((kind = 'ad') = (post IS NOT NULL) AND (kind IN ('ad', 'adset') OR post_id = 0) AND (kind <> 'ad' OR post_id > 0));

-- The boosts of a campaign since a time (max_posts_per_day, a daily budget
-- shared by per-post budgets).
CREATE INDEX network_a_attempt_boosts_idx ON network_a_attempt (campaign_id, created_at) WHERE kind = 'ad';

ALTER TABLE network_a_campaign
    ADD COLUMN campaign_synced jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(campaign_synced) = 'object');

-- +goose Down
ALTER TABLE network_a_campaign DROP COLUMN campaign_synced;
DROP INDEX network_a_attempt_boosts_idx;
DELETE FROM network_a_attempt WHERE kind = 'adset' AND post_id > 0;
ALTER TABLE network_a_attempt
    DROP CONSTRAINT network_a_attempt_kind_post_check,
    ADD CONSTRAINT network_a_attempt_kind_post_check CHECK ((kind = 'ad') = (post_id > 0) AND (kind = 'ad') = (post IS NOT NULL)),
    DROP CONSTRAINT network_a_attempt_post_budget_check,
    DROP COLUMN ends_at,
    DROP COLUMN budget;
