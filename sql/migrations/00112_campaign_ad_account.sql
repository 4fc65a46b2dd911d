-- A BoostedPage answers the ad account its campaign spends through:
-- `ad_account` {"id", "name", "currency", "timezone_name"} as network_a
-- described the account when the user chose it or the engine fixed it at the
-- first boost, null before.
--
-- network_a_timezone(name) answers the time zone name of an ad account as
-- adboost keeps it: the name when it is a canonical IANA name that
-- PostgreSQL knows, null otherwise. The campaign's day (its end date, its
-- rules' days and hours) is counted in that zone, in SQL and in the engine;
-- a name PostgreSQL did not know would make every statement that reads it
-- fail, and one such as posix/Europe/Prague or localtime is a file of the
-- host, not a zone of the database. It is called where a name is written,
-- never in reads.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION network_a_timezone(name text) RETURNS text
    LANGUAGE plpgsql STABLE
AS $$
BEGIN
    IF name IS NULL OR char_length(name) > 64
       OR name !~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9][A-Za-z0-9_+-]*)*$'
       OR name ~ '^(posix|right)/' OR name IN ('localtime', 'posixrules', 'Factory') THEN
        RETURN NULL;
    END IF;
    PERFORM now() AT TIME ZONE name;
    RETURN name;
EXCEPTION WHEN invalid_parameter_value THEN
    RETURN NULL;
END
$$;
-- +goose StatementEnd

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
        'special_ad_categories', to_jsonb(c.special_ad_categories),
        'dsa_beneficiary', c.dsa_beneficiary,
        'dsa_payor', c.dsa_payor,
        'ad_account', CASE WHEN c.ad_account_id IS NOT NULL THEN jsonb_build_object(
            'id', c.ad_account_id,
            'name', c.ad_account_name,
            'currency', c.ad_account_currency,
            'timezone_name', c.ad_account_timezone) END,
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
-- The view of 00108 back.
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
        'special_ad_categories', to_jsonb(c.special_ad_categories),
        'dsa_beneficiary', c.dsa_beneficiary,
        'dsa_payor', c.dsa_payor,
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

DROP FUNCTION network_a_timezone(text);
