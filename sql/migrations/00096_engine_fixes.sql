-- Fixes of the boosting engine (CONTRACT §14).
--
-- A post boosted in two campaigns was stopped when either of them paused,
-- though the other still ran it on network_a: pausing a campaign now stops
-- only the posts that no other campaign still runs (NetworkACampaignPaused),
-- which looks up a post's ads in every campaign of it. This index serves
-- that lookup: the done ads of a post, with their campaigns.

-- +goose Up
CREATE INDEX network_a_attempt_post_idx ON network_a_attempt (post_id, campaign_id)
    WHERE kind = 'ad' AND state = 'done';

-- +goose Down
DROP INDEX network_a_attempt_post_idx;
