-- The boosting engine at scale.
--
-- Rate limits: network_a asks for pauses in four scopes (the application, a
-- user, a page or network_b account, an ad account). Each pause is kept
-- here, so that every instance of the engine honours a pause another one
-- learnt: the engine writes a pause when an answer asks for one and reads
-- those still in force every few seconds.
--
-- A cycle reads a campaign's running ads (to compare with network_a's list
-- of them, and to map each `level=ad` insights row to its post through the
-- ad's id): network_a_attempt_done_idx holds them by campaign, with their
-- ids, so the read costs the campaign's ads, not every campaign's.

-- +goose Up
CREATE TABLE network_a_throttle (
    scope      text NOT NULL CHECK (scope IN ('app', 'user', 'page', 'ad_account')),
    -- '' for the application; the adboost user id, the page or network_b
    -- account id, or the ad account id without `act_`.
    key        text NOT NULL CHECK (length(key) <= 100 AND (scope = 'app') = (key = '')),
    until      timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);

-- The pauses still in force.
CREATE INDEX network_a_throttle_until_idx ON network_a_throttle (until);

CREATE INDEX network_a_attempt_done_idx ON network_a_attempt (campaign_id, post_id) INCLUDE (object_id)
    WHERE kind = 'ad' AND state = 'done';

-- +goose Down
DROP INDEX network_a_attempt_done_idx;
DROP TABLE network_a_throttle;
