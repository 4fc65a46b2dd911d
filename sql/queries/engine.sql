-- The boosting engine's reads and writes across campaigns, their users,
-- pages and presets. The tables of network_a's objects have
-- files of their own (network_a_*.sql).

-- name: EngineCampaignDue :many
-- The campaigns of one cycle, by id: every running campaign on a network_a
-- page or a network_b account (active, end date not past in its ad
-- account's time zone, UTC before it has one) of a user with a stored network_a
-- token (imported and demo users without one have nothing the engine could
-- do); every campaign the engine still runs on network_a or paused within
-- the last 28 days (to pause it, or to read its posts' statistics), whether
-- or not the campaign still exists; and every campaign whose pause network_a
-- has still to confirm. A user whose token network_a refused stays in: the
-- work that stops spending is never dropped, and the campaign's state says
-- what the user should do. Served by campaign_active_idx, the partial
-- indexes of network_a_campaign and engine_campaign_pausing_idx.
SELECT c.id
FROM campaign AS c
JOIN app_user AS u ON u.id = c.user_id
WHERE c.active
  AND (c.page_id IS NOT NULL OR c.network_b_id IS NOT NULL)
  AND (c.end_date IS NULL OR c.end_date >= (now() AT TIME ZONE coalesce(c.ad_account_timezone, 'UTC'))::date)
  AND u.network_a_token IS NOT NULL
UNION
SELECT n.campaign_id
FROM network_a_campaign AS n
WHERE n.status = 'ACTIVE' OR n.paused_at > now() - interval '28 days' OR n.resume_sent_at IS NOT NULL
UNION
SELECT e.campaign_id
FROM engine_campaign AS e
WHERE e.state = 'pausing'
ORDER BY 1;

-- name: EngineCampaignLoad :one
-- Everything one campaign's work needs: whether the campaign still exists
-- and should run (active, end date not past in its ad account's time zone,
-- UTC before it has one; else why not), what
-- network_a requires that it lacks, or a post_budget beyond its budget
-- (needs_setup: checked before any call),
-- the objective its goal maps to, its page and the sealed
-- page and user tokens (and whether network_a refused the page's token),
-- its network_b account and the page that account is linked to (whose
-- token reads the account's media; served by source_network_b_key), its
-- hashtag and goal, the rules its preset adds (keywords and reach R only
-- when the preset allows advanced_settings; a reach of 0 asks nothing), and
-- what the engine made on network_a so far (null ids before the first boost;
-- a null currency with an ad account: a campaign started before 00094), the
-- ad account the user chose (chosen_ad_account_id; null: none) and the
-- campaign's ad account's time zone ('' before it has one), when the
-- user's token ends (null: unknown) and the permissions the user did not
-- grant, and
-- whether its ads' statistics are still read (it runs on network_a, or was
-- paused there within the last 28 days), how many of its ad attempts an
-- earlier cycle left unfinished (network_a_attempt_pending_idx), the ids of
-- its running ads (and whether the post_days of one are over at @now), and its boosted posts published at or after `since`
-- (network_a posts by id, network_b posts by media id): what the cycle's
-- reads are compared with, so that the delivery statement runs only when
-- something stopped.
-- `since` is the oldest publication time a post can still be boosted at
-- @now: @now minus the campaign's post_age_max_hours when its rules set
-- one, else minus @max_age_seconds (ENGINE_POST_MAX_AGE), whole seconds;
-- `rules` are its rules (stored form, {} for none), with its budget (the
-- cap across per-post budgets); spend_cap_reached, that
-- it has a spend_cap and the spend recorded for its ads (the running total
-- network_a_campaign.spend) reached it, and `spend` that spend (0 without a
-- cap).
-- Also what its ad sets and ads are sent with: its promoted_object, its cities
-- whose network_a key is still to be looked up (unmapped_cities: key, name,
-- country, region), and post_instagram_user_id, the network_b account
-- linked to its page when its ad set may deliver on network_b (no
-- publisher_platforms named, or network_b among them; "" otherwise): its
-- post ads name it. A city network_a does not know is needs_setup.
-- running_reviews maps each running ad to its post's review as recorded
-- ([status, reason]), so that only a changed review is written.
-- No row when neither the campaign nor any network_a object of it exists.
SELECT
    w.id::bigint                                               AS id,
    ws.since::timestamptz                                      AS since,
    coalesce(c.rules, '{}')::jsonb                             AS rules,
    coalesce(c.campaign_budget_type, '')::text                 AS budget_type,
    coalesce(c.campaign_budget_value, 0)::text                 AS budget_value,
    coalesce(c.rules ? 'spend_cap' AND n.spend >= (c.rules ->> 'spend_cap')::numeric, false)::boolean AS spend_cap_reached,
    round(CASE WHEN c.rules ? 'spend_cap' THEN coalesce(n.spend, 0) ELSE 0 END, 2)::text AS spend,
    coalesce(c.user_id, n.user_id)::bigint                     AS user_id,
    (c.id IS NOT NULL)::boolean                                AS found,
    coalesce(c.active AND (c.end_date IS NULL
             OR c.end_date >= (now() AT TIME ZONE coalesce(c.ad_account_timezone, 'UTC'))::date), false)::boolean AS runs,
    (CASE WHEN c.id IS NULL THEN 'deleted with its source'
          WHEN NOT c.active THEN 'deactivated'
          WHEN c.end_date < (now() AT TIME ZONE coalesce(c.ad_account_timezone, 'UTC'))::date
          THEN 'ended on ' || to_char(c.end_date, 'YYYY-MM-DD')
          ELSE '' END)::text                                   AS stop_reason,
    coalesce(c.page_id, 0)::bigint                             AS page_id,
    coalesce(network_a_objective(c.goal), '')::text            AS objective,
    (CASE WHEN c.campaign_budget_type = 'lifetime' AND c.end_date IS NULL
          THEN 'end_date: a lifetime budget needs an end date'
          WHEN c.goal IN ('CONVERSIONS', 'APP_INSTALLS') AND c.promoted_object IS NULL
          THEN 'promoted_object: a ' || c.goal || ' campaign needs the object it promotes'
          WHEN c.campaign_bid_strategy_enabled
               AND c.campaign_bid_strategy IN ('COST_CAP', 'LOWEST_COST_WITH_BID_CAP')
               AND network_a_offset_units(c.campaign_bid_amount, n.currency) <= 0
          THEN 'campaign_bid_amount: a ' || c.campaign_bid_strategy || ' bid strategy needs a bid amount'
          WHEN (c.rules ->> 'post_budget')::numeric > c.campaign_budget_value
          THEN 'rules.post_budget: each post''s budget is more than the campaign''s budget, so no post can be boosted'
          WHEN geo.unknown_city IS NOT NULL
          THEN 'targeting.geo_locations.cities: network_a knows no city ' || geo.unknown_city || '; choose another city'
          ELSE '' END)::text                                   AS setup_missing,
    c.promoted_object,
    coalesce(geo.unmapped, '[]')::jsonb                        AS unmapped_cities,
    coalesce(CASE WHEN s.network_b_id IS NOT NULL
                   AND (coalesce(jsonb_array_length(c.audience_targeting -> 'publisher_platforms'), 0) = 0
                        OR c.audience_targeting -> 'publisher_platforms' ? 'network_b')
              THEN s.network_b_id::text END, '')::text         AS post_instagram_user_id,
    s.access_token                                             AS page_token,
    (s.access_token_refused_at IS NOT NULL)::boolean           AS page_token_refused,
    coalesce(c.network_b_id, 0)::bigint                        AS network_b_id,
    coalesce(sb.id, 0)::bigint                                 AS network_b_page_id,
    sb.access_token                                            AS network_b_page_token,
    (sb.access_token_refused_at IS NOT NULL)::boolean          AS network_b_page_token_refused,
    u.network_a_token                                          AS user_token,
    u.network_a_token_expires_at                               AS token_expires_at,
    u.network_a_permissions_missing                            AS permissions_missing,
    (u.network_a_token_invalid_at IS NOT NULL)::boolean        AS token_invalid,
    coalesce(u.network_a_token_refusal, '')::text              AS token_refusal,
    coalesce(r.reach, 0)::integer                              AS reach_percent,
    coalesce(r.keywords, '{}')::text[]                         AS keywords,
    coalesce(c.hashtag, '')::text                              AS hashtag,
    coalesce(c.goal, '')::text                                 AS goal,
    n.ad_account_id,
    n.currency                                                 AS ad_account_currency,
    c.ad_account_id                                            AS chosen_ad_account_id,
    coalesce(c.ad_account_timezone, '')::text                  AS ad_account_timezone,
    n.campaign_object_id,
    n.adset_object_id,
    n.adset_b_object_id,
    n.days_read_at,
    coalesce(n.status, '')::text                               AS network_a_status,
    (n.resume_sent_at IS NOT NULL)::boolean                    AS resume_unconfirmed,
    coalesce(n.status = 'ACTIVE' OR n.paused_at > now() - interval '28 days', false)::boolean AS reads_insights,
    coalesce(t.pending_ads, 0)::bigint                         AS pending_ads,
    coalesce(t.running_ads, '{}')::text[]                      AS running_ads,
    coalesce(t.boosts_ended, false)::boolean                   AS boosts_ended,
    coalesce(t.recent_posts, '{}')::bigint[]                   AS recent_posts,
    coalesce(t.recent_media, '{}')::text[]                     AS recent_media,
    coalesce(t.running_reviews, '{}')::jsonb                   AS running_reviews
FROM (SELECT @campaign_id::bigint AS id) AS w
LEFT JOIN campaign AS c ON c.id = w.id
LEFT JOIN network_a_campaign AS n ON n.campaign_id = w.id
CROSS JOIN LATERAL (
    SELECT date_trunc('second', @now::timestamptz) - make_interval(secs => least(
               @max_age_seconds::float8,
               coalesce((c.rules ->> 'post_age_max_hours')::float8 * 3600, @max_age_seconds::float8))) AS since
) AS ws
-- The campaign's ad attempts, read once (by network_a_attempt_key): the
-- unfinished ones, the running ads, and the running ads' posts.
LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE a.state = 'pending') AS pending_ads,
           array_agg(a.object_id ORDER BY a.object_id) FILTER (WHERE a.state = 'done') AS running_ads,
           bool_or(a.state = 'done' AND a.ends_at <= @now::timestamptz) AS boosts_ended,
           array_agg(p.id ORDER BY p.id)
               FILTER (WHERE p.created >= ws.since AND p.media_id IS NULL) AS recent_posts,
           array_agg(p.media_id ORDER BY p.media_id)
               FILTER (WHERE p.created >= ws.since AND p.media_id IS NOT NULL) AS recent_media,
           jsonb_object_agg(a.object_id, jsonb_build_array(p.review_status, p.review_reason))
               FILTER (WHERE a.state = 'done' AND p.id IS NOT NULL) AS running_reviews
    FROM network_a_attempt AS a
    LEFT JOIN boosted_post AS p
           ON a.state = 'done' AND p.id = a.post_id AND p.user_id = coalesce(c.user_id, n.user_id)
    WHERE a.campaign_id = w.id
      AND a.kind = 'ad'
      AND a.state IN ('pending', 'done')
) AS t ON true
JOIN app_user AS u ON u.id = coalesce(c.user_id, n.user_id)
LEFT JOIN source AS s ON s.user_id = c.user_id AND s.id = c.page_id AND s.platform = 'network_a'
LEFT JOIN source AS sb ON sb.user_id = c.user_id AND sb.network_b_id = c.network_b_id AND sb.platform = 'network_a'
LEFT JOIN LATERAL (
    SELECT b.reach, array_remove(b.keywords, NULL) AS keywords
    FROM preset AS p
    JOIN boosting_condition AS b ON b.preset_id = p.id
    WHERE p.id = c.preset_id
      AND 'advanced_settings' = ANY (p.allowed_options)
) AS r ON true
-- The campaign's cities that network_a's key is not known of yet (to look
-- up: name, country and region, the geographic data's else the
-- targeting's), and the first one network_a does not know.
LEFT JOIN LATERAL (
    SELECT jsonb_agg(jsonb_build_object(
               'key', x.city ->> 'key',
               'name', coalesce(g.name, x.city ->> 'name'),
               'country', coalesce(g.country_code, x.city ->> 'country', ''),
               'region', coalesce(nullif(g.region_name, ''), x.city ->> 'region', '')) ORDER BY x.n)
               FILTER (WHERE m.city_key IS NULL) AS unmapped,
           min(coalesce(g.name, x.city ->> 'name') || ' (' || coalesce(g.country_code, x.city ->> 'country', '') || ')')
               FILTER (WHERE m.city_key IS NOT NULL AND m.network_a_key IS NULL) AS unknown_city
    FROM jsonb_array_elements(coalesce(c.audience_targeting -> 'geo_locations' -> 'cities', '[]')) WITH ORDINALITY AS x (city, n)
    LEFT JOIN geo_city AS g ON g.id = (x.city ->> 'key')::bigint
    LEFT JOIN network_a_city AS m ON m.city_key = x.city ->> 'key'
) AS geo ON true;

-- name: NetworkACityKeysSet :exec
-- network_a's keys of cities just looked up (@cities: a JSON array of
-- {"key": adboost's key, "network_a_key": network_a's, or "" for a city
-- network_a does not know}), kept for every campaign.
INSERT INTO network_a_city (city_key, network_a_key)
SELECT x.c ->> 'key', nullif(x.c ->> 'network_a_key', '')
FROM jsonb_array_elements(@cities::jsonb) AS x (c)
ON CONFLICT (city_key) DO UPDATE SET network_a_key = EXCLUDED.network_a_key, looked_up_at = now();

-- name: EngineNewPosts :many
-- Of the posts and media of a cycle that meet the campaign's rules (the
-- engine decides that: rules.Conditions), those not yet boosted nor
-- attempted in the campaign, with their ids in adboost: @post_ids are
-- network_a posts by their id in adboost, @media_ids network_b media by
-- their media id (answered with media_id; '' for a post). A media without
-- an id in adboost yet gets one here, once (network_b_media): a statement
-- that meets the id another one is assigning at the same time (the user's
-- other campaign on the account) waits for it and answers that id. No row
-- when the campaign does not exist. Served by network_b_media_key,
-- boosted_post_campaign's primary key and network_a_attempt_key.
WITH c AS (
    SELECT c.id, c.user_id
    FROM campaign AS c
    WHERE c.id = @campaign_id
),
posts AS (
    SELECT p.id AS post_id, ''::text AS media_id
    FROM unnest(@post_ids::bigint[]) AS p (id)
    UNION ALL
    SELECT m.id, x.media_id
    FROM unnest(@media_ids::text[]) AS x (media_id)
    LEFT JOIN network_b_media AS m ON m.user_id = (SELECT c.user_id FROM c) AND m.media_id = x.media_id
),
-- A media without an id yet is new.
fresh AS (
    SELECT p.post_id, p.media_id
    FROM posts AS p
    CROSS JOIN c
    -- The campaign by its parameter, not c.id: the planner then reads both
    -- tables by the campaign's key (a range of about a page of rows) in the
    -- one plan it keeps, whatever it believed of their sizes when it made
    -- the plan (a fresh database's first cycle grows them from nothing).
    WHERE NOT EXISTS (
              SELECT 1 FROM boosted_post_campaign AS l
              WHERE l.campaign_id = @campaign_id AND l.post_id = p.post_id)
      AND NOT EXISTS (
              SELECT 1 FROM network_a_attempt AS a
              WHERE a.campaign_id = @campaign_id AND a.kind = 'ad' AND a.post_id = p.post_id)
),
assigned AS (
    INSERT INTO network_b_media (user_id, media_id)
    SELECT DISTINCT c.user_id, f.media_id
    FROM fresh AS f
    CROSS JOIN c
    WHERE f.post_id IS NULL
    ON CONFLICT (user_id, media_id) DO UPDATE SET media_id = EXCLUDED.media_id
    RETURNING media_id, id
)
SELECT coalesce(f.post_id, a.id)::bigint AS post_id, f.media_id::text AS media_id
FROM fresh AS f
LEFT JOIN assigned AS a ON f.post_id IS NULL AND a.media_id = f.media_id
WHERE coalesce(f.post_id, a.id) IS NOT NULL;

-- name: EngineUserTokenRefused :one
-- network_a refused the user's token (OAuth error 190 on a call made with
-- it; a page's token refused is SourceAccessTokenRefused): the engine skips
-- the user's campaigns until signup-sn/login-sn stores a new token. Answers the
-- user only the first time, so that the refusal is logged once. Only the
-- token the work used is marked: a sign-in that stored a new one meanwhile
-- (and cleared the mark) is not undone by the old token's refusal.
-- @refusal is why, in the words the campaigns' token_refused state shows.
UPDATE app_user
SET network_a_token_invalid_at = now(),
    network_a_token_refusal    = left(@refusal::text, 2000)
WHERE id = @user_id
  AND network_a_token = @network_a_token
  AND network_a_token_invalid_at IS NULL
RETURNING id;

-- name: EngineCampaignLock :one
-- Takes the session lock of one campaign's work, without waiting: false when
-- another engine (another `serve`, or `adboost engine`) is working on it.
-- The lock ends with EngineCampaignUnlock or with the session: one session
-- of each engine process holds the locks of all its campaigns in work, so
-- a process that dies releases them at once.
SELECT pg_try_advisory_lock(hashtextextended('adboost engine campaign ' || @campaign_id::bigint, 0))::boolean AS locked;

-- name: EngineCampaignUnlock :one
-- Releases the lock taken by EngineCampaignLock; false when the session did
-- not hold it.
SELECT pg_advisory_unlock(hashtextextended('adboost engine campaign ' || @campaign_id::bigint, 0))::boolean AS released;

-- name: EngineLockSessionAlive :exec
-- The engine's lock session answers: its locks still hold.
SELECT 1;

-- name: EngineMigrationLock :exec
-- Serialises River's migrations between instances that start at once (a
-- session lock, like goose's).
SELECT pg_advisory_lock(hashtextextended('adboost river migrations', 0));

-- name: EngineMigrationUnlock :exec
-- Releases EngineMigrationLock.
SELECT pg_advisory_unlock(hashtextextended('adboost river migrations', 0));
