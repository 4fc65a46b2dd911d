-- Campaigns, the "boosted pages" of the interface. Every query is scoped to
-- the signed-in user (@user_id): another user's campaign is never found.

-- name: CampaignBoostedPage :one
-- boosted-pages/detail: one campaign of the user as a BoostedPage.
SELECT v.boosted_page
FROM campaign_boosted_page AS v
WHERE v.user_id = @user_id
  AND v.id = @id;

-- name: CampaignSources :many
-- boosted-pages/sources: the user's campaigns matching @status ('active' =
-- active ones, else all) and @platform ('network_a' = with a page,
-- 'network_b' = with a network_b account, else all), grouped by source: by
-- page_id, or by network_b_id when @platform is network_b and for campaigns
-- without a page. Answers the newest campaign (highest id) of each group as a
-- BoostedPage, newest first.
-- The cost follows the number of sources, not of campaigns: each recursive
-- CTE walks the user's distinct source ids in an index (a skip scan: one
-- index probe for the next id after the last), and each source takes its
-- newest matching campaign from the same index, newest first. Pages come
-- from campaign_page_idx; network_b accounts from campaign_network_b_idx
-- (@platform network_b: every campaign with an account) or from
-- campaign_account_only_idx (otherwise: the campaigns without a page). The
-- walks that @platform does not ask for stop at their gate.
WITH RECURSIVE page AS (
    SELECT (SELECT min(c.page_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.page_id IS NOT NULL) AS id
    WHERE @platform::text <> 'network_b'
    UNION ALL
    SELECT (SELECT min(c.page_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.page_id > page.id)
    FROM page
    WHERE page.id IS NOT NULL
),
account AS (
    SELECT (SELECT min(c.network_b_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.network_b_id IS NOT NULL) AS id
    WHERE @platform::text = 'network_b'
    UNION ALL
    SELECT (SELECT min(c.network_b_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.network_b_id > account.id)
    FROM account
    WHERE account.id IS NOT NULL
),
account_only AS (
    SELECT (SELECT min(c.network_b_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.page_id IS NULL) AS id
    WHERE @platform::text NOT IN ('network_a', 'network_b')
    UNION ALL
    SELECT (SELECT min(c.network_b_id) FROM campaign AS c
            WHERE c.user_id = @user_id AND c.page_id IS NULL AND c.network_b_id > account_only.id)
    FROM account_only
    WHERE account_only.id IS NOT NULL
),
newest AS (
    SELECT n.id
    FROM page
    CROSS JOIN LATERAL (
        SELECT c.id FROM campaign AS c
        WHERE c.user_id = @user_id AND c.page_id = page.id
          AND (@status::text <> 'active' OR c.active)
        ORDER BY c.id DESC
        LIMIT 1
    ) AS n
    UNION ALL
    SELECT n.id
    FROM account
    CROSS JOIN LATERAL (
        SELECT c.id FROM campaign AS c
        WHERE c.user_id = @user_id AND c.network_b_id = account.id
          AND (@status::text <> 'active' OR c.active)
        ORDER BY c.id DESC
        LIMIT 1
    ) AS n
    UNION ALL
    SELECT n.id
    FROM account_only
    CROSS JOIN LATERAL (
        SELECT c.id FROM campaign AS c
        WHERE c.user_id = @user_id AND c.page_id IS NULL AND c.network_b_id = account_only.id
          AND (@status::text <> 'active' OR c.active)
        ORDER BY c.id DESC
        LIMIT 1
    ) AS n
)
SELECT v.boosted_page
FROM campaign_boosted_page AS v
WHERE v.user_id = @user_id
  AND v.id IN (SELECT newest.id FROM newest)
ORDER BY v.id DESC;

-- name: CampaignCount :one
-- boosted-pages/count: the user's campaigns matching every given filter:
-- @status and @platform as in CampaignSources, @source_id = the page or the
-- network_b account, @boosted_post_id = the campaigns that post is boosted in.
-- With the parameters bound, each filter folds into a range of one of the
-- campaign indexes (the post filter into a primary-key lookup of the post's
-- campaigns).
SELECT count(*) AS campaigns
FROM campaign AS c
WHERE c.user_id = @user_id
  AND (@status::text <> 'active' OR c.active)
  AND (@platform::text <> 'network_a' OR c.page_id IS NOT NULL)
  AND (@platform::text <> 'network_b' OR c.network_b_id IS NOT NULL)
  AND (sqlc.narg(source_id)::bigint IS NULL
       OR c.page_id = sqlc.narg(source_id)
       OR c.network_b_id = sqlc.narg(source_id))
  AND (sqlc.narg(boosted_post_id)::bigint IS NULL
       OR c.id = ANY (ARRAY(
           SELECT l.campaign_id
           FROM boosted_post_campaign AS l
           WHERE l.post_id = sqlc.narg(boosted_post_id))));

-- name: CampaignSourceDetail :one
-- boosted-pages/source-detail: the newest campaign (highest id) of the user
-- whose page or network_b account is @source_id, as a BoostedPage.
SELECT v.boosted_page
FROM campaign_boosted_page AS v
WHERE v.user_id = @user_id
  AND (v.page_id = @source_id::bigint OR v.network_b_id = @source_id::bigint)
ORDER BY v.id DESC
LIMIT 1;

-- name: CampaignSourceDelete :one
-- boosted-pages/delete-source: deletes every campaign of the user whose page
-- or network_b account is @source_id and records a `deleted` history entry
-- for each, in one statement. A deleted campaign that runs on network_a
-- stays known to the engine until network_a confirmed its pause
-- (network_a_campaign and its engine state, `pausing`); the others' engine
-- state goes. Answers how many were deleted, whether @source_id is one of
-- the user's sources at all (no campaign and no source: the caller answers
-- 404), and the campaigns whose pause to enqueue.
WITH deleted AS (
    DELETE FROM campaign AS c
    WHERE c.user_id = @user_id
      AND (c.page_id = @source_id OR c.network_b_id = @source_id)
    RETURNING c.id, c.user_id, c.page_id, c.network_b_id, c.preset_id
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT d.user_id, d.id, 'deleted', jsonb_build_object(
        'source_id', @source_id::bigint,
        'page_id', coalesce(d.page_id, 0),
        'network_b_id', coalesce(d.network_b_id, 0),
        'preset_id', coalesce(d.preset_id, 0))
    FROM deleted AS d
    ORDER BY d.id
),
running AS (
    SELECT d.id, d.user_id
    FROM deleted AS d
    JOIN network_a_campaign AS n
      ON n.campaign_id = d.id AND (n.status = 'ACTIVE' OR n.resume_sent_at IS NOT NULL)
),
pausing AS (
    INSERT INTO engine_campaign AS e (campaign_id, user_id, state, message, since)
    SELECT r.id, r.user_id, 'pausing', 'deleted with its source: the pause is being sent to network_a', now()
    FROM running AS r
    ON CONFLICT (campaign_id) DO UPDATE SET
        state   = EXCLUDED.state,
        message = EXCLUDED.message,
        since   = CASE WHEN e.state = 'pausing' THEN e.since ELSE now() END
),
forgotten AS (
    DELETE FROM engine_campaign AS e
    USING deleted AS d
    WHERE e.campaign_id = d.id
      AND NOT EXISTS (SELECT 1 FROM running AS r WHERE r.id = d.id)
)
SELECT
    count(*) AS deleted,
    EXISTS (
        SELECT 1
        FROM source AS s
        WHERE s.user_id = @user_id
          AND (s.id = @source_id OR s.network_b_id = @source_id)
    ) AS known_source,
    coalesce((SELECT array_agg(r.id ORDER BY r.id) FROM running AS r), '{}')::bigint[] AS to_pause
FROM deleted;

-- name: CampaignAccessEmail :one
-- boosted-pages/access-data: the e-mail of the master agency of the
-- campaign's preset, else @fallback (ADVERTISER_ACCESS_EMAIL, '' when unset).
SELECT coalesce(a.email, @fallback::text)::text AS email
FROM campaign AS c
LEFT JOIN preset AS p ON p.id = c.preset_id
LEFT JOIN agency AS a ON a.id = p.agency_id
WHERE c.user_id = @user_id
  AND c.id = @id;

-- name: CampaignSave :one
-- boosted-pages/save: changes the given fields of one campaign of the user (a
-- null parameter keeps the field; @rules, checked whole by the caller,
-- replaces the campaign's rules whole; the DSA fields take
-- @dsa_beneficiary / @dsa_payor, null included, when @set_dsa_beneficiary /
-- @set_dsa_payor; the ad account takes @ad_account_id with its
-- @ad_account_name, @ad_account_currency and @ad_account_timezone, as
-- network_a described it, when @ad_account_id is given; a time zone
-- PostgreSQL does not know as a canonical name is kept as null) and
-- records, in the same statement, an `updated` history
-- entry with what changed ({"field": {"old", "new"}}; none when nothing
-- changed) and an `activated`/`deactivated` entry when `active` changed.
-- Nothing is written when the save would leave the campaign unable to run:
-- a lifetime budget without an end date (network_a refuses such an ad set;
-- `end_date_missing`), or `active` true with an end date that has passed
-- (UTC; the engine would never run it; `end_date_passed`, with the
-- campaign's `end_date` as YYYY-MM-DD), or another ad account than the
-- one its network_a campaign was made in (`ad_account_fixed`: the account
-- is fixed once the campaign has boosted). No row when the user has no such
-- campaign.
WITH old AS (
    SELECT c.id, c.active, c.campaign_budget_type, c.campaign_budget_value, c.audience_targeting,
           c.hashtag, c.end_date, c.promoted_object, c.rules,
           c.special_ad_categories, c.dsa_beneficiary, c.dsa_payor, c.ad_account_id,
           n.ad_account_id AS fixed_ad_account_id
    FROM campaign AS c
    LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id
    WHERE c.user_id = @user_id
      AND c.id = @id
    FOR UPDATE OF c
),
checked AS (
    SELECT old.id,
           (old.campaign_budget_type = 'lifetime'
            AND coalesce((sqlc.narg(end_date)::text)::date, old.end_date) IS NULL)::boolean AS end_date_missing,
           (coalesce(sqlc.narg(active)::boolean, false)
            AND coalesce((sqlc.narg(end_date)::text)::date, old.end_date)
                < (now() AT TIME ZONE 'UTC')::date)::boolean AS end_date_passed,
           coalesce(to_char(old.end_date, 'YYYY-MM-DD'), '')::text AS end_date,
           (sqlc.narg(ad_account_id)::text IS NOT NULL AND old.fixed_ad_account_id IS NOT NULL
            AND old.fixed_ad_account_id <> sqlc.narg(ad_account_id)::text)::boolean AS ad_account_fixed
    FROM old
),
saved AS (
    UPDATE campaign AS c SET
        active                = coalesce(sqlc.narg(active)::boolean, c.active),
        campaign_budget_value = coalesce((sqlc.narg(budget)::text)::numeric(12, 2), c.campaign_budget_value),
        audience_targeting    = coalesce(sqlc.narg(targeting)::jsonb, c.audience_targeting),
        hashtag               = coalesce(sqlc.narg(hashtag)::text, c.hashtag),
        end_date              = coalesce((sqlc.narg(end_date)::text)::date, c.end_date),
        promoted_object       = coalesce(sqlc.narg(promoted_object)::jsonb, c.promoted_object),
        rules                 = coalesce(sqlc.narg(rules)::jsonb, c.rules),
        special_ad_categories = coalesce(sqlc.narg(special_ad_categories)::text[], c.special_ad_categories),
        dsa_beneficiary       = CASE WHEN @set_dsa_beneficiary::boolean
                                     THEN sqlc.narg(dsa_beneficiary)::text ELSE c.dsa_beneficiary END,
        dsa_payor             = CASE WHEN @set_dsa_payor::boolean
                                     THEN sqlc.narg(dsa_payor)::text ELSE c.dsa_payor END,
        ad_account_id         = coalesce(sqlc.narg(ad_account_id)::text, c.ad_account_id),
        ad_account_name       = CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL
                                     THEN left(sqlc.narg(ad_account_name)::text, 255) ELSE c.ad_account_name END,
        ad_account_currency   = CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL
                                     THEN CASE WHEN sqlc.narg(ad_account_currency)::text ~ '^[A-Z]{3}$'
                                               THEN sqlc.narg(ad_account_currency)::text END
                                     ELSE c.ad_account_currency END,
        ad_account_timezone   = CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL
                                     THEN network_a_timezone(sqlc.narg(ad_account_timezone)::text)
                                     ELSE c.ad_account_timezone END,
        updated_at            = now()
    FROM old
    JOIN checked ON checked.id = old.id
    WHERE c.id = old.id
      AND NOT checked.end_date_missing
      AND NOT checked.end_date_passed
      AND NOT checked.ad_account_fixed
    RETURNING
        c.id,
        c.user_id,
        old.active AS was_active,
        c.active,
        (SELECT coalesce(jsonb_object_agg(d.field, jsonb_build_object('old', d.old, 'new', d.new)), '{}')
         FROM (VALUES
             ('campaign_budget_value', to_jsonb(old.campaign_budget_value), to_jsonb(c.campaign_budget_value)),
             ('audience_targeting', old.audience_targeting, c.audience_targeting),
             ('hashtag', to_jsonb(old.hashtag), to_jsonb(c.hashtag)),
             ('end_date', to_jsonb(old.end_date), to_jsonb(c.end_date)),
             ('promoted_object', old.promoted_object, c.promoted_object),
             ('rules', old.rules, c.rules),
             ('special_ad_categories', to_jsonb(old.special_ad_categories), to_jsonb(c.special_ad_categories)),
             ('dsa_beneficiary', to_jsonb(old.dsa_beneficiary), to_jsonb(c.dsa_beneficiary)),
             ('dsa_payor', to_jsonb(old.dsa_payor), to_jsonb(c.dsa_payor)),
             ('ad_account_id', to_jsonb(old.ad_account_id), to_jsonb(c.ad_account_id))
         ) AS d (field, old, new)
         WHERE d.old IS DISTINCT FROM d.new) AS changes
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT s.user_id, s.id, e.action, e.details
    FROM saved AS s
    CROSS JOIN LATERAL (VALUES
        (1, 'updated', s.changes, s.changes <> '{}'),
        (2, CASE WHEN s.active THEN 'activated' ELSE 'deactivated' END,
            jsonb_build_object('active', jsonb_build_object('old', s.was_active, 'new', s.active)),
            s.active <> s.was_active)
    ) AS e (position, action, details, happened)
    WHERE e.happened
    ORDER BY e.position
)
SELECT checked.id, checked.end_date_missing::boolean AS end_date_missing,
       checked.end_date_passed::boolean AS end_date_passed, checked.end_date,
       checked.ad_account_fixed::boolean AS ad_account_fixed,
       coalesce((SELECT s.active <> s.was_active FROM saved AS s), false)::boolean AS active_changed
FROM checked;

-- name: CampaignSaveBasis :one
-- boosted-pages/save: the stored targeting and special ad categories of one
-- campaign of the user, locked until the save's transaction ends, so that
-- the caller checks the rules a category imposes on the campaign as the save
-- leaves it. No row when the user has no such campaign.
SELECT c.audience_targeting, c.special_ad_categories
FROM campaign AS c
WHERE c.user_id = @user_id
  AND c.id = @id
FOR UPDATE;

-- name: CampaignCreate :one
-- boosted-pages/create: creates an active campaign of the user from a preset
-- the user may use (active, and public or of the user's own agency) on the
-- user's page and/or network_b account (an account of its own or linked to
-- one of the user's pages), and records its `created` history entry, in one
-- statement. The goal follows the preset's objective; a promoted object is
-- kept for the ad set, and so are the special ad categories and the DSA
-- beneficiary and payor (null: none), and the ad account the user chose
-- (@ad_account_id with its name, currency and time zone as network_a
-- described it; null: none yet, the engine fixes one at the first boost;
-- the history entry names it when there is one).
-- The campaign's rules are @rules
-- (checked whole by the caller) or, when null, the default rules of the
-- preset's boosting condition. No row when the preset or a source is not the
-- user's to use.
WITH usable AS (
    SELECT p.id, p.campaign_objective
    FROM preset AS p
    JOIN app_user AS u ON u.id = @user_id
    WHERE p.id = @preset_id
      AND preset_usable(p, u.agency_id)
      AND (sqlc.narg(page_id)::bigint IS NOT NULL OR sqlc.narg(network_b_id)::bigint IS NOT NULL)
      AND (sqlc.narg(page_id)::bigint IS NULL OR user_has_page(@user_id, sqlc.narg(page_id)))
      AND (sqlc.narg(network_b_id)::bigint IS NULL OR user_has_network_b(@user_id, sqlc.narg(network_b_id)))
),
created AS (
    INSERT INTO campaign (
        user_id, page_id, network_b_id, preset_id, active,
        campaign_budget_value, goal, audience_targeting, hashtag, end_date, promoted_object, rules,
        special_ad_categories, dsa_beneficiary, dsa_payor,
        ad_account_id, ad_account_name, ad_account_currency, ad_account_timezone
    )
    SELECT
        @user_id, sqlc.narg(page_id), sqlc.narg(network_b_id), u.id, true,
        (@budget::text)::numeric(12, 2),
        CASE u.campaign_objective
            WHEN 'OUTCOME_AWARENESS'     THEN 'BRAND_AWARENESS'
            WHEN 'OUTCOME_TRAFFIC'       THEN 'LINK_CLICKS'
            WHEN 'OUTCOME_ENGAGEMENT'    THEN 'POST_ENGAGEMENT'
            WHEN 'OUTCOME_LEADS'         THEN 'CONVERSIONS'
            WHEN 'OUTCOME_APP_PROMOTION' THEN 'APP_INSTALLS'
            WHEN 'OUTCOME_SALES'         THEN 'CONVERSIONS'
            WHEN 'LEAD_GENERATION'       THEN 'CONVERSIONS'
            WHEN 'BRAND_AWARENESS'       THEN 'BRAND_AWARENESS'
            WHEN 'REACH'                 THEN 'REACH'
            WHEN 'LINK_CLICKS'           THEN 'LINK_CLICKS'
            WHEN 'VIDEO_VIEWS'           THEN 'VIDEO_VIEWS'
            WHEN 'APP_INSTALLS'          THEN 'APP_INSTALLS'
            WHEN 'CONVERSIONS'           THEN 'CONVERSIONS'
            ELSE 'POST_ENGAGEMENT'
        END,
        @targeting::jsonb, @hashtag, (sqlc.narg(end_date)::text)::date, sqlc.narg(promoted_object)::jsonb,
        coalesce(sqlc.narg(rules)::jsonb,
                 (SELECT b.rules FROM boosting_condition AS b WHERE b.preset_id = u.id),
                 '{}'::jsonb),
        @special_ad_categories::text[], sqlc.narg(dsa_beneficiary)::text, sqlc.narg(dsa_payor)::text,
        sqlc.narg(ad_account_id)::text,
        CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL THEN left(sqlc.narg(ad_account_name)::text, 255) END,
        CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL AND sqlc.narg(ad_account_currency)::text ~ '^[A-Z]{3}$'
             THEN sqlc.narg(ad_account_currency)::text END,
        CASE WHEN sqlc.narg(ad_account_id)::text IS NOT NULL
             THEN network_a_timezone(sqlc.narg(ad_account_timezone)::text) END
    FROM usable AS u
    RETURNING id, user_id, preset_id, page_id, network_b_id, campaign_budget_value, goal,
              audience_targeting, hashtag, end_date, rules, special_ad_categories, dsa_beneficiary, dsa_payor,
              ad_account_id
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT c.user_id, c.id, 'created', jsonb_build_object(
        'preset_id', c.preset_id,
        'page_id', coalesce(c.page_id, 0),
        'network_b_id', coalesce(c.network_b_id, 0),
        'campaign_budget_value', c.campaign_budget_value,
        'goal', c.goal,
        'audience_targeting', c.audience_targeting,
        'hashtag', c.hashtag,
        'end_date', to_jsonb(c.end_date),
        'rules', c.rules,
        'special_ad_categories', to_jsonb(c.special_ad_categories),
        'dsa_beneficiary', c.dsa_beneficiary,
        'dsa_payor', c.dsa_payor)
        || CASE WHEN c.ad_account_id IS NOT NULL
                THEN jsonb_build_object('ad_account_id', c.ad_account_id) ELSE '{}' END
    FROM created AS c
)
SELECT c.id
FROM created AS c;

-- name: CampaignAdAccountFixed :one
-- boosted-pages/save: the ad account one campaign of the user is fixed to
-- (its network_a campaign's; '' before the campaign has boosted). No row
-- when the user has no such campaign.
SELECT coalesce(n.ad_account_id, '')::text AS ad_account_id
FROM campaign AS c
LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id
WHERE c.user_id = @user_id
  AND c.id = @id;

-- name: AdAccountsUserToken :one
-- GET /v1/ad-accounts: the user's sealed network_a token (null for a user
-- without one), when it ends (null: unknown), and whether network_a
-- refused it.
SELECT u.network_a_token,
       u.network_a_token_expires_at,
       (u.network_a_token_invalid_at IS NOT NULL)::boolean AS token_invalid
FROM app_user AS u
WHERE u.id = @user_id;

-- name: CampaignCreateCheck :one
-- Tells why CampaignCreate created nothing: whether the preset is one the user
-- may use, and whether the page and the network_b account are the user's.
SELECT
    EXISTS (
        SELECT 1
        FROM preset AS p
        JOIN app_user AS u ON u.id = @user_id
        WHERE p.id = @preset_id
          AND preset_usable(p, u.agency_id)
    ) AS preset_usable,
    coalesce(sqlc.narg(page_id)::bigint IS NULL
             OR user_has_page(@user_id, sqlc.narg(page_id)), false)::boolean AS page_owned,
    coalesce(sqlc.narg(network_b_id)::bigint IS NULL
             OR user_has_network_b(@user_id, sqlc.narg(network_b_id)), false)::boolean AS network_b_owned;

-- name: CampaignUpsert :batchexec
-- Inserts a campaign of an import file, or updates the campaign with that id
-- (its rules too: @rules, checked whole by the caller, '{}' for none; its
-- special ad categories, '{}' for none; its DSA beneficiary and payor, null
-- for none; its ad account @ad_account_id, null keeping the one it has: the
-- engine learns the account's name, currency and time zone at its first
-- boost, and an account given anew forgets those of the one before).
INSERT INTO campaign (
    id, user_id, page_id, network_b_id, preset_id, active,
    campaign_budget_type, campaign_budget_value, adset_budget_sharing_enabled,
    campaign_bid_strategy_enabled, campaign_bid_strategy, campaign_bid_amount,
    goal, audience_targeting, hashtag, end_date, rules,
    special_ad_categories, dsa_beneficiary, dsa_payor, ad_account_id
) VALUES (
    @id, @user_id, sqlc.narg(page_id), sqlc.narg(network_b_id), sqlc.narg(preset_id), @active,
    @campaign_budget_type, (@campaign_budget_value::text)::numeric(12, 2), @adset_budget_sharing_enabled,
    @campaign_bid_strategy_enabled, @campaign_bid_strategy, (@campaign_bid_amount::text)::numeric(12, 2),
    @goal, @audience_targeting, @hashtag, (sqlc.narg(end_date)::text)::date, @rules::jsonb,
    @special_ad_categories::text[], sqlc.narg(dsa_beneficiary)::text, sqlc.narg(dsa_payor)::text,
    sqlc.narg(ad_account_id)::text
)
ON CONFLICT (id) DO UPDATE SET
    user_id                       = EXCLUDED.user_id,
    page_id                       = EXCLUDED.page_id,
    network_b_id                  = EXCLUDED.network_b_id,
    preset_id                     = EXCLUDED.preset_id,
    active                        = EXCLUDED.active,
    campaign_budget_type          = EXCLUDED.campaign_budget_type,
    campaign_budget_value         = EXCLUDED.campaign_budget_value,
    adset_budget_sharing_enabled  = EXCLUDED.adset_budget_sharing_enabled,
    campaign_bid_strategy_enabled = EXCLUDED.campaign_bid_strategy_enabled,
    campaign_bid_strategy         = EXCLUDED.campaign_bid_strategy,
    campaign_bid_amount           = EXCLUDED.campaign_bid_amount,
    goal                          = EXCLUDED.goal,
    audience_targeting            = EXCLUDED.audience_targeting,
    hashtag                       = EXCLUDED.hashtag,
    end_date                      = EXCLUDED.end_date,
    rules                         = EXCLUDED.rules,
    special_ad_categories         = EXCLUDED.special_ad_categories,
    dsa_beneficiary               = EXCLUDED.dsa_beneficiary,
    dsa_payor                     = EXCLUDED.dsa_payor,
    ad_account_id                 = coalesce(EXCLUDED.ad_account_id, campaign.ad_account_id),
    ad_account_name               = CASE WHEN EXCLUDED.ad_account_id IS NULL
                                           OR EXCLUDED.ad_account_id = campaign.ad_account_id
                                         THEN campaign.ad_account_name END,
    ad_account_currency           = CASE WHEN EXCLUDED.ad_account_id IS NULL
                                           OR EXCLUDED.ad_account_id = campaign.ad_account_id
                                         THEN campaign.ad_account_currency END,
    ad_account_timezone           = CASE WHEN EXCLUDED.ad_account_id IS NULL
                                           OR EXCLUDED.ad_account_id = campaign.ad_account_id
                                         THEN campaign.ad_account_timezone END,
    updated_at                    = now();
