-- The boosting engine: what it created on network_a for each
-- campaign, the attempts it records before every create call (so that no ad
-- is ever created twice), and each ad's statistics.
--
-- network_a's objects are kept in tables of their own, without a foreign key
-- to `campaign`, like campaign_history: delete-source deletes campaign rows,
-- and the engine must still know the network_a campaign to pause it. A row
-- whose campaign is gone stands for a deleted campaign.
--
-- The engine's state per user is app_user.network_a_token_invalid_at
-- (migration 00080): set when network_a refuses the user's token.

-- +goose Up

-- Campaign history gains the `boosted` entry: {"post_id": .., "ad_id": ".."}.
ALTER TABLE campaign_history
    DROP CONSTRAINT campaign_history_action_check,
    ADD CONSTRAINT campaign_history_action_check
        CHECK (action IN ('created', 'updated', 'activated', 'deactivated', 'deleted', 'boosted'));

-- One row per adboost campaign the engine has started to boost: the ad
-- account it uses, the ids of the one network_a campaign and ad set made for
-- it (null until created), the ad set's fields as last sent (to find what a
-- `save` changed), and whether it runs on network_a.
CREATE TABLE network_a_campaign (
    campaign_id        bigint PRIMARY KEY CHECK (campaign_id > 0),
    user_id            bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    ad_account_id      text NOT NULL CHECK (ad_account_id <> '' AND length(ad_account_id) <= 100),
    campaign_object_id text CHECK (campaign_object_id <> '' AND length(campaign_object_id) <= 100),
    adset_object_id    text CHECK (adset_object_id <> '' AND length(adset_object_id) <= 100),
    -- The ad set's budget, bid, goal, targeting and end time as network_a
    -- last accepted them, in the shape of the Marketing API's ad set fields.
    adset_synced       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(adset_synced) = 'object'),
    -- ACTIVE while the campaign runs on network_a; PAUSED (since paused_at)
    -- after a deactivation, its end date or its deletion.
    status             text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED')),
    paused_at          timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT network_a_campaign_paused_check CHECK ((status = 'PAUSED') = (paused_at IS NOT NULL))
);

-- The cycle's list of campaigns: those still running on network_a (to be
-- paused once their campaign stops) and those paused within the last 28
-- days (their posts' statistics are still read).
CREATE INDEX network_a_campaign_active_idx ON network_a_campaign (campaign_id) WHERE status = 'ACTIVE';
CREATE INDEX network_a_campaign_paused_idx ON network_a_campaign (paused_at) WHERE status = 'PAUSED';
-- Deleting a user finds the user's rows.
CREATE INDEX network_a_campaign_user_idx ON network_a_campaign (user_id);

-- Every create call the engine makes, recorded (and committed) before the
-- call: the campaign's network_a campaign, its ad set, and one ad per post.
-- An attempt still `pending` when the engine comes back to it may have
-- reached network_a: the engine first looks the object up by its name and
-- creates it only when network_a has none. `done` holds the object's id;
-- for an ad, that is the ad of the boosted post (post_id). `refused`: network_a
-- refused to make the ad (e.g. the post was deleted meanwhile); the post is
-- not boosted and not tried again.
CREATE TABLE network_a_attempt (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    campaign_id bigint NOT NULL REFERENCES network_a_campaign (campaign_id) ON DELETE CASCADE,
    kind        text NOT NULL CHECK (kind IN ('campaign', 'adset', 'ad')),
    -- The post's id in adboost (the part of network_a's id after `_`); 0
    -- for the campaign and the ad set.
    post_id     bigint NOT NULL DEFAULT 0,
    -- The object's name on network_a: adboost-<campaign id>[-<post id>].
    name        text NOT NULL CHECK (name ~ '^adboost-[0-9]+(-[0-9]+)?$'),
    -- For an ad: the post as network_a gave it (id, message, permalink_url,
    -- full_picture, created_time), to write the boosted post when the ad is
    -- made, even by a later cycle.
    post        jsonb CHECK (jsonb_typeof(post) = 'object'),
    state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'refused')),
    -- How many times the engine has begun this attempt.
    tries       integer NOT NULL DEFAULT 1 CHECK (tries >= 1),
    object_id   text CHECK (object_id <> '' AND length(object_id) <= 100),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT network_a_attempt_key UNIQUE (campaign_id, kind, post_id),
    CONSTRAINT network_a_attempt_kind_post_check CHECK ((kind = 'ad') = (post_id > 0) AND (kind = 'ad') = (post IS NOT NULL)),
    CONSTRAINT network_a_attempt_done_check CHECK ((state = 'done') = (object_id IS NOT NULL))
);

-- The unfinished ad attempts of a campaign, oldest first.
CREATE INDEX network_a_attempt_pending_idx ON network_a_attempt (campaign_id, id) WHERE state = 'pending';

-- The statistics of each ad (one per campaign and post), as network_a last
-- reported them; a boosted post's insights are the sum over its ads.
CREATE TABLE network_a_ad_insight (
    campaign_id bigint NOT NULL REFERENCES network_a_campaign (campaign_id) ON DELETE CASCADE,
    post_id     bigint NOT NULL REFERENCES boosted_post (id) ON DELETE CASCADE,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(12, 2) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, post_id)
);

-- A post's sum (and deleting a post) goes from the post.
CREATE INDEX network_a_ad_insight_post_idx ON network_a_ad_insight (post_id);

-- The regular expression that finds `word` in a text as a whole word or tag:
-- not preceded nor followed by a letter, digit or underscore (so `#gym`
-- matches `#Gym!` but not `#gymnastics`). Its special characters are
-- escaped; match it with ~* for case-insensitivity.
CREATE FUNCTION engine_word_pattern(word text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN '(^|[^[:alnum:]_])'
    || regexp_replace(word, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g')
    || '($|[^[:alnum:]_])';

-- +goose Down
DROP FUNCTION engine_word_pattern(text);
DROP TABLE network_a_ad_insight;
DROP TABLE network_a_attempt;
DROP TABLE network_a_campaign;
DELETE FROM campaign_history WHERE action = 'boosted';
ALTER TABLE campaign_history
    DROP CONSTRAINT campaign_history_action_check,
    ADD CONSTRAINT campaign_history_action_check
        CHECK (action IN ('created', 'updated', 'activated', 'deactivated', 'deleted'));
