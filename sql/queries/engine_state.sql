-- Each campaign's engine state, its history entries and the mails about it.

-- name: EngineStateSet :one
-- Records the state the engine found a campaign in (@state, @message) and
-- that it checked it now, in one statement. A state that says the campaign
-- runs (any but pausing, paused and spend_cap_reached) is not recorded for
-- a campaign that no longer should run: the work that found it began before
-- a deactivation, whose pause has the last word. On a change of state (a
-- campaign without a row was `waiting` when active, else `paused`): `since`
-- moves to now, the campaign's history gets {"state", "message"} and the
-- members of @details (network_a's code, subcode and fbtrace_id of a
-- refusal; null for none) under `engine` (while the campaign exists), and entering token_refused,
-- page_lost, no_ad_account, needs_setup, refused or spend_cap_reached
-- leaves a notice for the user's next mail; so does a campaign that has
-- stayed `pausing` for 10 minutes, once per stay. A change of state or
-- message moves the user's campaign version on, so that no cached answer
-- shows the old one (`checked_at` alone does not). Answers whether the
-- state changed.
WITH cur AS (
    SELECT w.id, coalesce(e.state, CASE WHEN c.active THEN 'waiting' ELSE 'paused' END) AS state,
           coalesce(e.message, '') AS message, e.since, e.mailed,
           -- The end date is over once it is over in the ad account's time
           -- zone, as the engine's selection says (EngineCampaignDue).
           coalesce(c.active AND (c.end_date IS NULL
                                  OR c.end_date >= (now() AT TIME ZONE coalesce(c.ad_account_timezone, 'UTC'))::date),
                    false) AS runs
    FROM (SELECT @campaign_id::bigint AS id) AS w
    LEFT JOIN engine_campaign AS e ON e.campaign_id = w.id
    LEFT JOIN campaign AS c ON c.id = w.id
),
saved AS (
    INSERT INTO engine_campaign AS e (campaign_id, user_id, state, message, since, checked_at)
    SELECT @campaign_id, @user_id, @state, left(@message::text, 2000), now(), now()
    FROM cur
    WHERE cur.runs OR @state::text IN ('pausing', 'paused', 'spend_cap_reached')
    ON CONFLICT (campaign_id) DO UPDATE SET
        state      = EXCLUDED.state,
        message    = EXCLUDED.message,
        since      = CASE WHEN e.state = EXCLUDED.state THEN e.since ELSE now() END,
        checked_at = now()
    RETURNING e.campaign_id, e.user_id, e.state, e.message, e.since
),
changed AS (
    SELECT s.campaign_id, s.user_id, s.state, s.message
    FROM saved AS s
    JOIN cur ON cur.id = s.campaign_id
    WHERE cur.state <> s.state
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT c.user_id, c.id, 'engine',
           jsonb_build_object('state', ch.state, 'message', ch.message)
           || CASE WHEN jsonb_typeof(@details::jsonb) = 'object' THEN @details::jsonb ELSE '{}'::jsonb END
    FROM changed AS ch
    JOIN campaign AS c ON c.id = ch.campaign_id
),
noticed AS (
    INSERT INTO engine_notice (user_id, campaign_id, state, message)
    SELECT ch.user_id, ch.campaign_id, ch.state, ch.message
    FROM changed AS ch
    WHERE ch.state IN ('token_refused', 'page_lost', 'no_ad_account', 'needs_setup', 'refused', 'spend_cap_reached')
    UNION ALL
    SELECT s.user_id, s.campaign_id, s.state, s.message
    FROM saved AS s
    JOIN cur ON cur.id = s.campaign_id
    WHERE s.state = 'pausing'
      AND cur.state = 'pausing'
      AND s.since < now() - interval '10 minutes'
      AND coalesce((cur.mailed ->> 'pausing')::timestamptz < s.since, true)
      AND NOT EXISTS (
          SELECT 1 FROM engine_notice AS n
          WHERE n.user_id = s.user_id AND n.campaign_id = s.campaign_id AND n.state = 'pausing')
),
bumped AS (
    SELECT user_campaign_version_bump(ARRAY[s.user_id]) AS done
    FROM saved AS s
    JOIN cur ON cur.id = s.campaign_id
    WHERE cur.state <> s.state OR cur.message <> s.message
)
SELECT EXISTS (SELECT 1 FROM changed) AS changed,
       (SELECT count(*) FROM bumped) AS bumped;

-- name: EngineStateAfterSave :one
-- After a `save` that changed `active` (in the same transaction): a
-- deactivated campaign that runs on network_a is `pausing` until network_a
-- confirms its pause, one that never ran there is `paused`; a reactivated
-- one is `waiting` for the engine. The change is recorded as
-- EngineStateSet records one. Answers the state.
WITH facts AS (
    SELECT c.id, c.user_id,
           CASE WHEN c.active THEN 'waiting'
                WHEN n.status = 'ACTIVE' OR n.resume_sent_at IS NOT NULL THEN 'pausing'
                ELSE 'paused' END AS state,
           CASE WHEN NOT c.active AND (n.status = 'ACTIVE' OR n.resume_sent_at IS NOT NULL)
                THEN 'deactivated: the pause is being sent to network_a' ELSE '' END AS message
    FROM campaign AS c
    LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id
    WHERE c.user_id = @user_id
      AND c.id = @campaign_id
),
-- A campaign without a row was in the state its former `active` implied
-- (the save just changed it): `paused` before an activation, `waiting`
-- before a deactivation.
cur AS (
    SELECT f.id, coalesce(e.state, CASE WHEN f.state = 'waiting' THEN 'paused' ELSE 'waiting' END) AS state
    FROM facts AS f
    LEFT JOIN engine_campaign AS e ON e.campaign_id = f.id
),
saved AS (
    INSERT INTO engine_campaign AS e (campaign_id, user_id, state, message, since)
    SELECT f.id, f.user_id, f.state, f.message, now()
    FROM facts AS f
    ON CONFLICT (campaign_id) DO UPDATE SET
        state   = EXCLUDED.state,
        message = EXCLUDED.message,
        since   = CASE WHEN e.state = EXCLUDED.state THEN e.since ELSE now() END
    RETURNING e.campaign_id, e.user_id, e.state, e.message
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT s.user_id, s.campaign_id, 'engine', jsonb_build_object('state', s.state, 'message', s.message)
    FROM saved AS s
    JOIN cur ON cur.id = s.campaign_id
    WHERE cur.state <> s.state
)
SELECT s.state::text AS state
FROM saved AS s;

-- name: EnginePausingCampaigns :many
-- The user's campaigns whose pause network_a has still to confirm
-- (engine_campaign_user_idx): login-sn enqueues their pauses once it stored
-- a working token.
SELECT e.campaign_id
FROM engine_campaign AS e
WHERE e.user_id = @user_id
  AND e.state = 'pausing'
ORDER BY e.campaign_id;

-- name: EngineStateForget :exec
-- A campaign deleted with its source whose pause network_a confirmed: its
-- engine state goes (its history stays).
DELETE FROM engine_campaign AS e
WHERE e.campaign_id = @campaign_id
  AND NOT EXISTS (SELECT 1 FROM campaign AS c WHERE c.id = e.campaign_id);

-- name: EngineNoticesTake :many
-- Takes the notices left since the last mail and answers, per user, the
-- mail to send (its recipient and the notices it lists, one per campaign and
-- state and one per disapproved post, in campaign and state order), in one
-- statement: the notices are taken, those of a campaign and state already
-- mailed within 24 hours are dropped (a post's disapproval is never the same
-- notice twice), and each campaign remembers when it was mailed about each
-- state. The caller inserts the mails' jobs in the same transaction.
WITH taken AS (
    DELETE FROM engine_notice AS n
    RETURNING n.id, n.user_id, n.campaign_id, n.state, n.message
),
fresh AS (
    SELECT DISTINCT ON (t.campaign_id, t.state, CASE WHEN t.state = 'post_disapproved' THEN t.id END)
           t.id, t.user_id, t.campaign_id, t.state, t.message
    FROM taken AS t
    LEFT JOIN engine_campaign AS e ON e.campaign_id = t.campaign_id
    WHERE t.state = 'post_disapproved'
       OR coalesce((e.mailed ->> t.state)::timestamptz <= now() - interval '24 hours', true)
    ORDER BY t.campaign_id, t.state, CASE WHEN t.state = 'post_disapproved' THEN t.id END, t.id DESC
),
marked AS (
    UPDATE engine_campaign AS e
    SET mailed = e.mailed || m.states
    FROM (
        SELECT f.campaign_id, jsonb_object_agg(f.state, now()) AS states
        FROM fresh AS f
        GROUP BY f.campaign_id
    ) AS m
    WHERE e.campaign_id = m.campaign_id
)
SELECT u.email AS recipient,
       jsonb_agg(jsonb_build_object(
           'campaign_id', f.campaign_id,
           'source', coalesce(s.name, ''),
           'state', f.state,
           'message', f.message) ORDER BY f.campaign_id, f.state, f.id) AS notices
FROM fresh AS f
JOIN app_user AS u ON u.id = f.user_id
LEFT JOIN campaign AS c ON c.id = f.campaign_id
LEFT JOIN source AS s ON s.user_id = c.user_id AND s.id = c.page_id AND s.platform = 'network_a'
WHERE u.email ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$'
GROUP BY u.id, u.email
ORDER BY u.id;

-- name: EngineStateAsyncCommit :exec
-- Lets the transaction that records a campaign's state commit without
-- waiting for its WAL to reach the disk: a state lost in a crash is found
-- and written again by the next cycle, and every campaign's check would
-- otherwise wait for a flush of its own.
SELECT set_config('synchronous_commit', 'off', true);
