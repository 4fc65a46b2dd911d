-- Rules and budgets beyond hashtags: each campaign has a rules object (the
-- conditions a post must meet to be boosted, the hours boosts happen in, a
-- budget of each boosted post of its own, a spend cap), and each preset's
-- boosting condition may carry default rules, which a campaign made from
-- the preset starts with.
--
-- Both columns hold the rules in the form the service writes them: an
-- object with the set rules only (`{}` = no rules; a rule that is off is
-- absent, never null), integers as JSON numbers, the engagement rate as a
-- JSON number of at most two decimals, money (post_budget, spend_cap) as a
-- string with exactly two decimals in the ad account's main unit. The
-- service validates a rules object whole before it writes it (the time zone
-- too, which PostgreSQL cannot check here, and post_age_max_hours against
-- ENGINE_POST_MAX_AGE); campaign_rules_valid keeps every other writer to
-- the same domains.

-- +goose Up
-- campaign_rules_whole tells whether v (a member of a rules object, SQL
-- null when absent) is absent or an integer from lo to hi.
CREATE FUNCTION campaign_rules_whole(v jsonb, lo bigint, hi bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN v IS NULL THEN true
    WHEN jsonb_typeof(v) <> 'number' THEN false
    ELSE v::numeric = trunc(v::numeric) AND v::numeric BETWEEN lo AND hi
END;

-- campaign_rules_money tells whether v is absent or an amount greater than
-- 0 written with exactly two decimals, as a string ("25.00"), that fits
-- numeric(12, 2) like a campaign's budget.
CREATE FUNCTION campaign_rules_money(v jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN v IS NULL THEN true
    WHEN jsonb_typeof(v) <> 'string' THEN false
    WHEN (v #>> '{}') !~ '^[0-9]{1,10}\.[0-9]{2}$' THEN false
    ELSE (v #>> '{}')::numeric > 0
END;

-- campaign_rules_valid tells whether r is a rules object as the service
-- writes it: only known rules, each in its domain; post_age_min_hours ≤
-- post_age_max_hours; post_budget and post_days together; hours with its
-- four members (days a non-empty set of weekdays, from and to `HH:MM`
-- from 00:00 to 23:59 and different, a time zone name).
CREATE FUNCTION campaign_rules_valid(r jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN r IS NULL THEN true
    WHEN jsonb_typeof(r) <> 'object' THEN false
    ELSE r - ARRAY['min_reactions', 'min_comments', 'min_shares', 'min_engagement_rate',
                   'post_age_min_hours', 'post_age_max_hours', 'content_types', 'exclude_keywords',
                   'hours', 'post_budget', 'post_days', 'max_posts_per_day', 'spend_cap'] = '{}'::jsonb
     AND campaign_rules_whole(r -> 'min_reactions', 0, 2147483647)
     AND campaign_rules_whole(r -> 'min_comments', 0, 2147483647)
     AND campaign_rules_whole(r -> 'min_shares', 0, 2147483647)
     AND CASE
             WHEN NOT r ? 'min_engagement_rate' THEN true
             WHEN jsonb_typeof(r -> 'min_engagement_rate') <> 'number' THEN false
             ELSE (r -> 'min_engagement_rate')::numeric BETWEEN 0 AND 1000
              AND (r -> 'min_engagement_rate')::numeric = round((r -> 'min_engagement_rate')::numeric, 2)
         END
     AND campaign_rules_whole(r -> 'post_age_min_hours', 0, 2147483647)
     AND campaign_rules_whole(r -> 'post_age_max_hours', 0, 2147483647)
     AND CASE
             WHEN NOT (r ? 'post_age_min_hours' AND r ? 'post_age_max_hours') THEN true
             WHEN jsonb_typeof(r -> 'post_age_min_hours') <> 'number'
               OR jsonb_typeof(r -> 'post_age_max_hours') <> 'number' THEN false
             ELSE (r -> 'post_age_min_hours')::numeric <= (r -> 'post_age_max_hours')::numeric
         END
     AND CASE
             WHEN NOT r ? 'content_types' THEN true
             WHEN jsonb_typeof(r -> 'content_types') <> 'array' THEN false
             ELSE jsonb_array_length(r -> 'content_types') >= 1
              AND (r -> 'content_types') <@ '["photo", "video", "link", "text"]'::jsonb
              AND (SELECT count(DISTINCT t.value) FROM jsonb_array_elements(r -> 'content_types') AS t)
                  = jsonb_array_length(r -> 'content_types')
         END
     AND CASE
             WHEN NOT r ? 'exclude_keywords' THEN true
             WHEN jsonb_typeof(r -> 'exclude_keywords') <> 'array' THEN false
             ELSE jsonb_array_length(r -> 'exclude_keywords') BETWEEN 1 AND 50
              AND NOT EXISTS (
                  SELECT 1
                  FROM jsonb_array_elements(r -> 'exclude_keywords') AS k
                  WHERE jsonb_typeof(k.value) <> 'string'
                     OR length(k.value #>> '{}') NOT BETWEEN 1 AND 100
                     OR (k.value #>> '{}') ~ '^\s|\s$')
         END
     AND CASE
             WHEN NOT r ? 'hours' THEN true
             WHEN jsonb_typeof(r -> 'hours') <> 'object' THEN false
             WHEN NOT (r -> 'hours') ?& ARRAY['days', 'from', 'to', 'timezone']
               OR (r -> 'hours') - ARRAY['days', 'from', 'to', 'timezone'] <> '{}'::jsonb THEN false
             WHEN jsonb_typeof(r #> '{hours,days}') <> 'array'
               OR jsonb_typeof(r #> '{hours,from}') <> 'string'
               OR jsonb_typeof(r #> '{hours,to}') <> 'string'
               OR jsonb_typeof(r #> '{hours,timezone}') <> 'string' THEN false
             ELSE jsonb_array_length(r #> '{hours,days}') >= 1
              AND (r #> '{hours,days}') <@ '["mon", "tue", "wed", "thu", "fri", "sat", "sun"]'::jsonb
              AND (SELECT count(DISTINCT d.value) FROM jsonb_array_elements(r #> '{hours,days}') AS d)
                  = jsonb_array_length(r #> '{hours,days}')
              AND (r #>> '{hours,from}') ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
              AND (r #>> '{hours,to}') ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
              AND (r #>> '{hours,from}') <> (r #>> '{hours,to}')
              AND length(r #>> '{hours,timezone}') BETWEEN 1 AND 64
         END
     AND campaign_rules_money(r -> 'post_budget')
     AND campaign_rules_whole(r -> 'post_days', 1, 90)
     AND (r ? 'post_budget') = (r ? 'post_days')
     AND campaign_rules_whole(r -> 'max_posts_per_day', 1, 1000)
     AND campaign_rules_money(r -> 'spend_cap')
END;

ALTER TABLE campaign
    ADD COLUMN rules jsonb NOT NULL DEFAULT '{}'
        CONSTRAINT campaign_rules_check CHECK (campaign_rules_valid(rules));

ALTER TABLE boosting_condition
    ADD COLUMN rules jsonb NOT NULL DEFAULT '{}'
        CONSTRAINT boosting_condition_rules_check CHECK (campaign_rules_valid(rules));

-- A BoostedPage carries the campaign's rules: every rule, null when off.
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
            'checked_at', to_char(e.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')),
        'rules', jsonb_build_object(
            'min_reactions', c.rules -> 'min_reactions',
            'min_comments', c.rules -> 'min_comments',
            'min_shares', c.rules -> 'min_shares',
            'min_engagement_rate', c.rules -> 'min_engagement_rate',
            'post_age_min_hours', c.rules -> 'post_age_min_hours',
            'post_age_max_hours', c.rules -> 'post_age_max_hours',
            'content_types', c.rules -> 'content_types',
            'exclude_keywords', c.rules -> 'exclude_keywords',
            'hours', c.rules -> 'hours',
            'post_budget', c.rules -> 'post_budget',
            'post_days', c.rules -> 'post_days',
            'max_posts_per_day', c.rules -> 'max_posts_per_day',
            'spend_cap', c.rules -> 'spend_cap')
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
-- The view of 00102 back, then the columns and their checks.
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
ALTER TABLE boosting_condition DROP COLUMN rules;
ALTER TABLE campaign DROP COLUMN rules;
DROP FUNCTION campaign_rules_valid(jsonb);
DROP FUNCTION campaign_rules_money(jsonb);
DROP FUNCTION campaign_rules_whole(jsonb, bigint, bigint);
