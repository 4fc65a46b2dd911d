-- Fixes of the boosting engine.
--
-- A post boosted in two campaigns was stopped when either of them paused,
-- though the other still ran it on network_a: pausing a campaign now stops
-- only the posts that no other campaign still runs (NetworkACampaignPaused),
-- which looks up a post's ads in every campaign of it. This index serves
-- that lookup: the done ads of a post, with their campaigns.
--
-- A page's token refused by network_a (OAuth error 190 on a call made with
-- it: the page's posts, its followers, a post's reach) marked the user's
-- token as refused (app_user.network_a_token_invalid_at), so every campaign
-- of the user was dropped from the cycle, pauses and statistics included,
-- which need only the user's token. And as sign-ins keep the stale tokens of
-- pages network_a no longer lists, each sign-in cleared the mark and the
-- next cycle set it again. The refusal of a page's token is now the page's:
-- source.access_token_refused_at. The token itself is kept, not cleared, so
-- that the engine tells "refused" (skipped silently, logged once) from
-- "never had one" (logged every cycle, as it asks the user to sign in). The
-- engine then stops boosting that page's posts only; a sign-in that stores a
-- new token for the page (signup-sn, login-sn, an import row with a token)
-- clears the mark, and nothing else does. app_user.network_a_token_invalid_at
-- now stands for the user's own token only.
--
-- An ad's spend comes from network_a in the ad account's currency with as
-- many decimals as that currency has: three for KWD, BHD, JOD, OMR and the
-- like ("1.234"). The engine took two at most, so every cycle failed for
-- such a campaign and no statistics were written. Spend is now kept with
-- three decimals, the most ISO 4217 has (more are rounded half up), in each
-- ad's statistics and in each post's sum of them: batch-insights sums the
-- exact amounts and rounds only its answer to two decimals, so that many
-- posts' spend does not drift by their roundings. The integer part keeps its
-- eleven digits.

-- +goose Up
CREATE INDEX network_a_attempt_post_idx ON network_a_attempt (post_id, campaign_id)
    WHERE kind = 'ad' AND state = 'done';

ALTER TABLE source
    ADD COLUMN access_token_refused_at timestamptz,
    ADD CONSTRAINT source_access_token_refused_check CHECK (access_token_refused_at IS NULL OR access_token IS NOT NULL);

COMMENT ON COLUMN source.access_token_refused_at IS
    'When network_a refused the stored page token (OAuth 190): the engine boosts none of the page''s posts until a new token is stored, which clears it.';

ALTER TABLE network_a_ad_insight ALTER COLUMN spend TYPE numeric(14, 3);
ALTER TABLE boosted_post_insight ALTER COLUMN spend TYPE numeric(14, 3);

-- +goose Down
ALTER TABLE boosted_post_insight ALTER COLUMN spend TYPE numeric(12, 2);
ALTER TABLE network_a_ad_insight ALTER COLUMN spend TYPE numeric(12, 2);
ALTER TABLE source
    DROP CONSTRAINT source_access_token_refused_check,
    DROP COLUMN access_token_refused_at;
DROP INDEX network_a_attempt_post_idx;
