-- Spend safety and the engine's state, visible.
--
-- Money goes to network_a in the ad account currency's offset unit, which
-- is network_a's own table, not ISO 4217's minor units: the amount as is for
-- CLP, COP, CRC, HUF, IDR, ISK, JPY, KRW, PYG, TWD and VND, × 100 for every
-- other currency (BHD, JOD and KWD included). network_a_offset_units
-- replaces currency_minor_units; every ad set's budget and bid that differ
-- from what network_a last accepted are sent again by the next cycle.
--
-- A campaign's goal maps to network_a's objective and optimization goal
-- (network_a refuses the old objective names for new campaigns); a
-- CONVERSIONS or APP_INSTALLS campaign needs a promoted object, kept on the
-- campaign and passed to its ad set as is.
--
-- engine_campaign holds each campaign's engine state (waiting, running,
-- pausing, paused, token_refused, page_lost, no_ad_account, needs_setup,
-- refused, throttled, spend_cap_reached), its message, since when, when the
-- engine last checked it, and when each state was last mailed about (never
-- the same campaign and state twice in 24 hours). A campaign without a row
-- is `waiting` when active, else `paused`. Rows have no foreign key to
-- `campaign`: a campaign deleted with its source keeps its row while its
-- pause is pending on network_a. engine_notice holds what the next mail of
-- a user lists (one mail per user per cycle).

-- +goose Up
ALTER TABLE campaign
    ADD COLUMN promoted_object jsonb
        CONSTRAINT campaign_promoted_object_check CHECK (jsonb_typeof(promoted_object) = 'object');

ALTER TABLE campaign_history
    DROP CONSTRAINT campaign_history_action_check,
    ADD CONSTRAINT campaign_history_action_check
        CHECK (action IN ('created', 'updated', 'activated', 'deactivated', 'deleted', 'boosted',
                          'engine', 'post_refused', 'post_stopped'));

-- network_a_offset_units answers amount (in the currency's main unit) in
-- the offset unit network_a takes for the currency, rounded half up.
CREATE FUNCTION network_a_offset_units(amount numeric, currency text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN round(amount * CASE
    WHEN upper(currency) IN ('CLP', 'COP', 'CRC', 'HUF', 'IDR', 'ISK', 'JPY', 'KRW', 'PYG', 'TWD', 'VND') THEN 1
    ELSE 100
END)::bigint;

DROP FUNCTION currency_minor_units(numeric, text);

-- network_a_objective and network_a_optimization_goal map a campaign's goal
-- to the objective of its network_a campaign and the optimization goal of
-- its ad set.
CREATE FUNCTION network_a_objective(goal text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE goal
    WHEN 'POST_ENGAGEMENT' THEN 'OUTCOME_ENGAGEMENT'
    WHEN 'VIDEO_VIEWS'     THEN 'OUTCOME_ENGAGEMENT'
    WHEN 'LINK_CLICKS'     THEN 'OUTCOME_TRAFFIC'
    WHEN 'REACH'           THEN 'OUTCOME_AWARENESS'
    WHEN 'BRAND_AWARENESS' THEN 'OUTCOME_AWARENESS'
    WHEN 'CONVERSIONS'     THEN 'OUTCOME_SALES'
    WHEN 'APP_INSTALLS'    THEN 'OUTCOME_APP_PROMOTION'
END;

CREATE FUNCTION network_a_optimization_goal(goal text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE goal
    WHEN 'POST_ENGAGEMENT' THEN 'POST_ENGAGEMENT'
    WHEN 'VIDEO_VIEWS'     THEN 'THRUPLAY'
    WHEN 'LINK_CLICKS'     THEN 'LINK_CLICKS'
    WHEN 'REACH'           THEN 'REACH'
    WHEN 'BRAND_AWARENESS' THEN 'AD_RECALL_LIFT'
    WHEN 'CONVERSIONS'     THEN 'OFFSITE_CONVERSIONS'
    WHEN 'APP_INSTALLS'    THEN 'APP_INSTALLS'
END;

CREATE TABLE engine_campaign (
    campaign_id bigint PRIMARY KEY CHECK (campaign_id > 0),
    user_id     bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    state       text NOT NULL CHECK (state IN ('waiting', 'running', 'pausing', 'paused', 'token_refused',
                                               'page_lost', 'no_ad_account', 'needs_setup', 'refused',
                                               'throttled', 'spend_cap_reached')),
    message     text NOT NULL DEFAULT '' CHECK (length(message) <= 2000),
    since       timestamptz NOT NULL DEFAULT now(),
    checked_at  timestamptz,
    -- When the user was last mailed about each state of the campaign:
    -- {"refused": "2026-11-25T10:00:00Z", ...}.
    mailed      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(mailed) = 'object')
);

-- Deleting a user finds the user's rows; the pauses still to confirm are
-- found by state.
CREATE INDEX engine_campaign_user_idx ON engine_campaign (user_id);
CREATE INDEX engine_campaign_pausing_idx ON engine_campaign (campaign_id) WHERE state = 'pausing';

-- Existing campaigns start waiting (active) or paused; one the engine still
-- runs on network_a though it should not spend starts pausing.
INSERT INTO engine_campaign (campaign_id, user_id, state, message)
SELECT c.id, c.user_id,
       CASE WHEN NOT c.active AND n.status = 'ACTIVE' THEN 'pausing'
            WHEN c.active THEN 'waiting'
            ELSE 'paused' END,
       CASE WHEN NOT c.active AND n.status = 'ACTIVE' THEN 'deactivated: the pause is being sent to network_a' ELSE '' END
FROM campaign AS c
LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id;

INSERT INTO engine_campaign (campaign_id, user_id, state, message)
SELECT n.campaign_id, n.user_id, 'pausing', 'deleted with its source: the pause is being sent to network_a'
FROM network_a_campaign AS n
WHERE n.status = 'ACTIVE'
  AND NOT EXISTS (SELECT 1 FROM campaign AS c WHERE c.id = n.campaign_id);

-- An ad whose delivery stopped on network_a (deleted, archived,
-- disapproved, or its post gone) is `stopped`: its post is not brought back
-- when the campaign resumes, and its statistics are still read.
ALTER TABLE network_a_attempt
    DROP CONSTRAINT network_a_attempt_done_check,
    ADD CONSTRAINT network_a_attempt_done_check CHECK ((state IN ('done', 'stopped')) = (object_id IS NOT NULL));
ALTER TABLE network_a_attempt DROP CONSTRAINT network_a_attempt_state_check;
ALTER TABLE network_a_attempt ADD CONSTRAINT network_a_attempt_state_check
    CHECK (state IN ('pending', 'done', 'refused', 'stopped'));

-- A resumption sent to network_a but not yet recorded (its answer lost, or
-- the campaign stopped meanwhile): until it is recorded, the campaign may
-- run on network_a, so a pause is always sent.
ALTER TABLE network_a_campaign ADD COLUMN resume_sent_at timestamptz;

-- When the engine last sent the create of an attempt: a pending attempt
-- sent less than the call time-out ago may still be on its way, so it is
-- neither looked up nor made again until then.
ALTER TABLE network_a_attempt ADD COLUMN sent_at timestamptz;

CREATE TABLE engine_notice (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    campaign_id bigint NOT NULL CHECK (campaign_id > 0),
    state       text NOT NULL,
    message     text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- The notices of each user, in order, for the user's next mail.
CREATE INDEX engine_notice_user_idx ON engine_notice (user_id, id);

-- A BoostedPage carries the campaign's promoted object and its engine state.
CREATE OR REPLACE VIEW campaign_boosted_page AS
SELECT
    c.id,
    c.user_id,
    c.page_id,
    c.network_b_id,
    c.active,
    jsonb_build_object(
        'id', c.id,
        'active', c.active,
        'page_id', coalesce(c.page_id, 0),
        'network_b_id', coalesce(c.network_b_id, 0),
        'preset_id', coalesce(c.preset_id, 0),
        'campaign_budget_type', c.campaign_budget_type,
        'campaign_budget_value', c.campaign_budget_value,
        'adset_budget_sharing_enabled', c.adset_budget_sharing_enabled,
        'campaign_bid_strategy_enabled', c.campaign_bid_strategy_enabled,
        'campaign_bid_strategy', c.campaign_bid_strategy,
        'campaign_bid_amount', c.campaign_bid_amount,
        'goal', c.goal,
        'audience_targeting', c.audience_targeting,
        'hashtag', c.hashtag,
        'end_date', coalesce(to_char(c.end_date, 'YYYY-MM-DD'), ''),
        'promoted_object', c.promoted_object,
        'page', CASE WHEN c.page_id IS NOT NULL THEN jsonb_build_object(
            'id', c.page_id,
            'name', coalesce(page.name, ''),
            'picture', coalesce(page.picture, '')) END,
        'network_b', CASE WHEN c.network_b_id IS NOT NULL THEN jsonb_build_object(
            'id', c.network_b_id,
            'name', coalesce(account.name, ''),
            'picture', coalesce(account.picture, '')) END,
        'preset', CASE WHEN p.id IS NOT NULL THEN jsonb_build_object(
            'id', p.id,
            'title', p.title) END,
        'engine', jsonb_build_object(
            'state', coalesce(e.state, CASE WHEN c.active THEN 'waiting' ELSE 'paused' END),
            'message', coalesce(e.message, ''),
            'since', to_char(coalesce(e.since, c.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
            'checked_at', to_char(e.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
    ) AS boosted_page
FROM campaign AS c
LEFT JOIN source AS page
    ON page.user_id = c.user_id AND page.id = c.page_id AND page.platform = 'network_a'
-- A network_b account is a source of its own, or the account linked to one
-- of the user's pages; the account's own row wins.
LEFT JOIN LATERAL (
    SELECT a.name, a.picture
    FROM (
        SELECT s.name, s.picture, 1 AS rank
        FROM source AS s
        WHERE s.user_id = c.user_id AND s.id = c.network_b_id AND s.platform = 'network_b'
        UNION ALL
        SELECT s.network_b_name, s.network_b_picture, 2
        FROM source AS s
        WHERE s.user_id = c.user_id AND s.network_b_id = c.network_b_id
    ) AS a
    ORDER BY a.rank
    LIMIT 1
) AS account ON true
LEFT JOIN preset AS p ON p.id = c.preset_id
LEFT JOIN engine_campaign AS e ON e.campaign_id = c.id;

-- +goose Down
ALTER TABLE network_a_attempt DROP COLUMN sent_at;
ALTER TABLE network_a_campaign DROP COLUMN resume_sent_at;
UPDATE network_a_attempt SET state = 'done' WHERE state = 'stopped';
ALTER TABLE network_a_attempt
    DROP CONSTRAINT network_a_attempt_state_check,
    ADD CONSTRAINT network_a_attempt_state_check CHECK (state IN ('pending', 'done', 'refused')),
    DROP CONSTRAINT network_a_attempt_done_check,
    ADD CONSTRAINT network_a_attempt_done_check CHECK ((state = 'done') = (object_id IS NOT NULL));
-- The view of 00030, and the function of 00094, back.
CREATE OR REPLACE VIEW campaign_boosted_page AS
SELECT
    c.id,
    c.user_id,
    c.page_id,
    c.network_b_id,
    c.active,
    jsonb_build_object(
        'id', c.id,
        'active', c.active,
        'page_id', coalesce(c.page_id, 0),
        'network_b_id', coalesce(c.network_b_id, 0),
        'preset_id', coalesce(c.preset_id, 0),
        'campaign_budget_type', c.campaign_budget_type,
        'campaign_budget_value', c.campaign_budget_value,
        'adset_budget_sharing_enabled', c.adset_budget_sharing_enabled,
        'campaign_bid_strategy_enabled', c.campaign_bid_strategy_enabled,
        'campaign_bid_strategy', c.campaign_bid_strategy,
        'campaign_bid_amount', c.campaign_bid_amount,
        'goal', c.goal,
        'audience_targeting', c.audience_targeting,
        'hashtag', c.hashtag,
        'end_date', coalesce(to_char(c.end_date, 'YYYY-MM-DD'), ''),
        'page', CASE WHEN c.page_id IS NOT NULL THEN jsonb_build_object(
            'id', c.page_id,
            'name', coalesce(page.name, ''),
            'picture', coalesce(page.picture, '')) END,
        'network_b', CASE WHEN c.network_b_id IS NOT NULL THEN jsonb_build_object(
            'id', c.network_b_id,
            'name', coalesce(account.name, ''),
            'picture', coalesce(account.picture, '')) END,
        'preset', CASE WHEN p.id IS NOT NULL THEN jsonb_build_object(
            'id', p.id,
            'title', p.title) END
    ) AS boosted_page
FROM campaign AS c
LEFT JOIN source AS page
    ON page.user_id = c.user_id AND page.id = c.page_id AND page.platform = 'network_a'
LEFT JOIN LATERAL (
    SELECT a.name, a.picture
    FROM (
        SELECT s.name, s.picture, 1 AS rank
        FROM source AS s
        WHERE s.user_id = c.user_id AND s.id = c.network_b_id AND s.platform = 'network_b'
        UNION ALL
        SELECT s.network_b_name, s.network_b_picture, 2
        FROM source AS s
        WHERE s.user_id = c.user_id AND s.network_b_id = c.network_b_id
    ) AS a
    ORDER BY a.rank
    LIMIT 1
) AS account ON true
LEFT JOIN preset AS p ON p.id = c.preset_id;
DROP TABLE engine_notice;
DROP TABLE engine_campaign;
-- +goose StatementBegin
CREATE FUNCTION currency_minor_units(amount numeric, currency text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT round(amount * CASE
        WHEN currency IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG',
                          'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF') THEN 1
        WHEN currency IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
        ELSE 100
    END)::bigint
$$;
-- +goose StatementEnd
DROP FUNCTION network_a_optimization_goal(text);
DROP FUNCTION network_a_objective(text);
DROP FUNCTION network_a_offset_units(numeric, text);
DELETE FROM campaign_history WHERE action IN ('engine', 'post_refused', 'post_stopped');
ALTER TABLE campaign_history
    DROP CONSTRAINT campaign_history_action_check,
    ADD CONSTRAINT campaign_history_action_check
        CHECK (action IN ('created', 'updated', 'activated', 'deactivated', 'deleted', 'boosted'));
ALTER TABLE campaign DROP COLUMN promoted_object;
