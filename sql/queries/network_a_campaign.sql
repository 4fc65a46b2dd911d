-- What the engine made on network_a for each campaign.

-- name: NetworkACampaignStart :exec
-- The first boost of a campaign: remembers the ad account it uses and that
-- account's currency (kept for the campaign's life; a code that is not three
-- letters is kept as unknown), and writes the account as network_a
-- describes it (@name, the currency, @timezone: null when PostgreSQL does
-- not know it as a canonical name) to the campaign, which answers it as its
-- ad_account. A second call keeps the first account.
WITH started AS (
    INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id, currency)
    SELECT c.id, c.user_id, @ad_account_id,
           CASE WHEN upper(@currency::text) ~ '^[A-Z]{3}$' THEN upper(@currency::text) END
    FROM campaign AS c
    WHERE c.id = @campaign_id
    ON CONFLICT (campaign_id) DO NOTHING
    RETURNING campaign_id, ad_account_id, currency
)
UPDATE campaign AS c
SET ad_account_id       = s.ad_account_id,
    ad_account_name     = left(@name::text, 255),
    ad_account_currency = s.currency,
    ad_account_timezone = network_a_timezone(@timezone::text),
    updated_at          = now()
FROM started AS s
WHERE c.id = s.campaign_id;

-- name: NetworkACampaignAccountDefaults :exec
-- The DSA defaults of the campaign's ad account, as network_a answered them
-- now ("" for none): a field with a default is not sent on its ad sets.
UPDATE network_a_campaign
SET account_dsa_beneficiary = nullif(left(@beneficiary::text, 512), ''),
    account_dsa_payor       = nullif(left(@payor::text, 512), ''),
    updated_at              = now()
WHERE campaign_id = @campaign_id
  AND (account_dsa_beneficiary IS DISTINCT FROM nullif(left(@beneficiary::text, 512), '')
       OR account_dsa_payor IS DISTINCT FROM nullif(left(@payor::text, 512), ''));

-- name: NetworkACampaignCurrencyLearnt :exec
-- The currency of the ad account of a campaign started before the engine
-- kept it (00094), as network_a gave it now: from then on its budget and
-- bid are sent in that currency's offset unit (NetworkACampaignAdSet sees the
-- difference from what network_a last accepted and the next sync sends it).
-- A code that is not three letters is kept as unknown.
UPDATE network_a_campaign
SET currency   = CASE WHEN upper(@currency::text) ~ '^[A-Z]{3}$' THEN upper(@currency::text) END,
    updated_at = now()
WHERE campaign_id = @campaign_id
  AND currency IS NULL;

-- name: NetworkACampaignAdSet :one
-- The ad set fields of a campaign in the Marketing API's shape: the budget
-- in the offset unit of the ad account's currency (daily_budget or
-- lifetime_budget), bid_strategy (the campaign's when its bid strategy is
-- enabled, else LOWEST_COST_WITHOUT_CAP), bid_amount in offset units only
-- when enabled, optimization_goal from the goal, targeting =
-- audience_targeting as network_a takes it (network_a_adset_targeting:
-- cities by network_a's keys, the Advantage audience flag, network_b left
-- out for a page with no linked network_b account), end_time = end_date
-- 23:59:59 in the ad account's time zone (UTC before the campaign has an
-- account), sent in UTC (RFC 3339; absent without end date), destination_type
-- ON_POST for POST_ENGAGEMENT and ON_VIDEO for VIDEO_VIEWS,
-- promoted_object as the campaign holds it, else {"page_id": the page} for
-- those two goals (absent otherwise), and, when the targeting reaches the
-- EU, dsa_beneficiary (the campaign's, else the page's name) and dsa_payor
-- (the campaign's, else the billing details' company name, else full name),
-- each left out when the ad account has a default for it.
-- The network_b ad set (@network_b true) has the same fields but its
-- targeting's publisher_platforms is ["network_b"] (its network_b_positions
-- kept) and its page is the one the account is linked to.
-- `changes` holds those that differ from what network_a last accepted for
-- that ad set (all of them before it exists). `dsa_missing` names the DSA
-- field an EU ad set lacks with no account default ('' when none).
-- A post's ad set of its own (@post_budget given, in the account's main
-- unit) has the same fields with lifetime_budget = @post_budget and
-- end_time = @post_ends_at instead of the campaign's budget and end.
WITH p AS (
    SELECT
        c.id, c.goal, c.audience_targeting, c.promoted_object, c.end_date, c.campaign_budget_type,
        coalesce(c.ad_account_timezone, 'UTC') AS timezone,
        c.campaign_budget_value, c.campaign_bid_strategy_enabled, c.campaign_bid_strategy, c.campaign_bid_amount,
        n.currency,
        n.account_dsa_beneficiary,
        n.account_dsa_payor,
        network_a_eu(c.audience_targeting) AS eu,
        CASE WHEN @network_b::boolean THEN coalesce(sb.id, c.page_id) ELSE c.page_id END AS promoted_page,
        coalesce(c.dsa_beneficiary, nullif(CASE WHEN @network_b::boolean THEN coalesce(sb.name, page.name) ELSE page.name END, '')) AS beneficiary,
        coalesce(c.dsa_payor, nullif(b.company_name, ''), nullif(b.full_name, '')) AS payor,
        page.network_b_id IS NOT NULL AS page_has_b
    FROM campaign AS c
    LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id
    LEFT JOIN source AS page ON page.user_id = c.user_id AND page.id = c.page_id AND page.platform = 'network_a'
    LEFT JOIN source AS sb ON sb.user_id = c.user_id AND sb.network_b_id = c.network_b_id AND sb.platform = 'network_a'
    LEFT JOIN billing_info AS b ON b.user_id = c.user_id
    WHERE c.id = @campaign_id
),
f AS (
    SELECT
        p.id,
        p.eu,
        p.beneficiary,
        p.payor,
        p.account_dsa_beneficiary,
        p.account_dsa_payor,
        jsonb_build_object(
            CASE WHEN sqlc.narg(post_budget)::text IS NOT NULL THEN 'lifetime_budget'
                 WHEN p.campaign_budget_type = 'daily' THEN 'daily_budget' ELSE 'lifetime_budget' END,
            network_a_offset_units(coalesce(sqlc.narg(post_budget)::text::numeric, p.campaign_budget_value), p.currency),
            'bid_strategy',
            CASE WHEN p.campaign_bid_strategy_enabled THEN p.campaign_bid_strategy ELSE 'LOWEST_COST_WITHOUT_CAP' END,
            'optimization_goal', network_a_optimization_goal(p.goal),
            'targeting', CASE WHEN @network_b::boolean
                              THEN network_a_adset_targeting(p.audience_targeting, true) || '{"publisher_platforms": ["network_b"]}'::jsonb
                              ELSE network_a_adset_targeting(p.audience_targeting, p.page_has_b) END)
        || CASE WHEN p.campaign_bid_strategy_enabled
                THEN jsonb_build_object('bid_amount', network_a_offset_units(p.campaign_bid_amount, p.currency))
                ELSE '{}' END
        || CASE WHEN sqlc.narg(post_budget)::text IS NOT NULL
                THEN jsonb_build_object('end_time', to_char(sqlc.narg(post_ends_at)::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
                WHEN p.end_date IS NOT NULL
                THEN jsonb_build_object('end_time', to_char(
                         ((p.end_date + time '23:59:59') AT TIME ZONE p.timezone) AT TIME ZONE 'UTC',
                         'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
                ELSE '{}' END
        || CASE p.goal WHEN 'POST_ENGAGEMENT' THEN '{"destination_type": "ON_POST"}'::jsonb
                       WHEN 'VIDEO_VIEWS' THEN '{"destination_type": "ON_VIDEO"}'::jsonb
                       ELSE '{}' END
        || CASE WHEN p.promoted_object IS NOT NULL
                THEN jsonb_build_object('promoted_object', p.promoted_object)
                WHEN p.goal IN ('POST_ENGAGEMENT', 'VIDEO_VIEWS') AND p.promoted_page IS NOT NULL
                THEN jsonb_build_object('promoted_object', jsonb_build_object('page_id', p.promoted_page::text))
                ELSE '{}' END
        || CASE WHEN p.eu
                THEN jsonb_strip_nulls(jsonb_build_object(
                         'dsa_beneficiary', CASE WHEN p.account_dsa_beneficiary IS NULL THEN p.beneficiary END,
                         'dsa_payor', CASE WHEN p.account_dsa_payor IS NULL THEN p.payor END))
                ELSE '{}' END AS fields
    FROM p
)
SELECT
    f.fields::jsonb AS fields,
    coalesce((
        SELECT jsonb_object_agg(e.key, e.value)
        FROM jsonb_each(f.fields) AS e (key, value)
        WHERE CASE WHEN @network_b::boolean THEN n.adset_b_synced ELSE n.adset_synced END -> e.key
              IS DISTINCT FROM e.value
    ), '{}')::jsonb AS changes,
    (CASE WHEN f.eu AND f.beneficiary IS NULL AND f.account_dsa_beneficiary IS NULL
          THEN 'dsa_beneficiary: network_a requires who benefits from ads shown in the EU; set dsa_beneficiary on the campaign'
          WHEN f.eu AND f.payor IS NULL AND f.account_dsa_payor IS NULL
          THEN 'dsa_payor: network_a requires who pays for ads shown in the EU; set dsa_payor on the campaign, or a company or full name in the billing details'
          ELSE '' END)::text AS dsa_missing
FROM f
LEFT JOIN network_a_campaign AS n ON n.campaign_id = f.id;

-- name: NetworkACampaignAdSetSynced :exec
-- network_a accepted @fields for the campaign's ad set (@network_b: its
-- network_b ad set).
UPDATE network_a_campaign
SET adset_synced   = CASE WHEN @network_b::boolean THEN adset_synced ELSE adset_synced || @fields::jsonb END,
    adset_b_synced = CASE WHEN @network_b::boolean THEN adset_b_synced || @fields::jsonb ELSE adset_b_synced END,
    updated_at     = now()
WHERE campaign_id = @campaign_id;

-- name: NetworkACampaignPaused :one
-- The campaign was paused on network_a: remembers it (and that no
-- resumption is on its way any more) and stops its boosted posts (active
-- false, stopped = the time of the pause), in one statement.
-- A post that another campaign still runs on network_a (an ad of it `done`
-- in a campaign whose network_a campaign is ACTIVE) keeps running: it stops
-- when its last campaign pauses. Answers how many posts stopped; no row when
-- it was not running. The other campaigns' ads of a post are found by
-- network_a_attempt_post_idx.
WITH paused AS (
    UPDATE network_a_campaign AS n
    SET status = 'PAUSED', paused_at = coalesce(n.paused_at, now()), resume_sent_at = NULL, updated_at = now()
    WHERE n.campaign_id = @campaign_id
      AND (n.status = 'ACTIVE' OR n.resume_sent_at IS NOT NULL)
    RETURNING n.campaign_id, n.user_id, n.paused_at
),
stopped AS (
    UPDATE boosted_post AS p
    SET active = false, stopped = greatest(s.paused_at, p.created), updated_at = now()
    FROM paused AS s
    JOIN network_a_attempt AS a ON a.campaign_id = s.campaign_id AND a.kind = 'ad' AND a.state = 'done'
    WHERE p.id = a.post_id
      AND p.user_id = s.user_id
      AND NOT EXISTS (
          SELECT 1
          FROM network_a_attempt AS o
          JOIN network_a_campaign AS r ON r.campaign_id = o.campaign_id
          WHERE o.post_id = p.id
            AND o.kind = 'ad'
            AND o.state = 'done'
            AND o.campaign_id <> s.campaign_id
            AND r.status = 'ACTIVE')
    RETURNING p.id
)
SELECT count(x.id) AS posts
FROM paused
LEFT JOIN stopped AS x ON true
GROUP BY paused.campaign_id;

-- name: NetworkACampaignResumeSent :exec
-- The engine is about to send a campaign's resumption: until network_a's
-- answer is recorded (NetworkACampaignResumed), the campaign counts as
-- possibly running there, and a pause is always sent.
UPDATE network_a_campaign
SET resume_sent_at = now(), updated_at = now()
WHERE campaign_id = @campaign_id;

-- name: NetworkACampaignResumed :one
-- The campaign was resumed on network_a: its boosted posts run again (active
-- true, stopped 0), in one statement, those it shares with other campaigns
-- too (they run in this one again), except those whose ads stopped
-- delivering. Only while the campaign still runs (active, end date not
-- past): a campaign stopped while the resumption was on its way is left to
-- its pause. No row when it was not paused or stopped meanwhile.
WITH resumed AS (
    UPDATE network_a_campaign AS n
    SET status = 'ACTIVE', paused_at = NULL, resume_sent_at = NULL, updated_at = now()
    WHERE n.campaign_id = @campaign_id
      AND n.status = 'PAUSED'
      AND EXISTS (
          SELECT 1 FROM campaign AS c
          WHERE c.id = n.campaign_id
            AND c.active
            AND (c.end_date IS NULL OR c.end_date >= (now() AT TIME ZONE coalesce(c.ad_account_timezone, 'UTC'))::date))
    RETURNING n.campaign_id, n.user_id
),
started AS (
    UPDATE boosted_post AS p
    SET active = true, stopped = NULL, updated_at = now()
    FROM resumed AS r
    JOIN network_a_attempt AS a ON a.campaign_id = r.campaign_id AND a.kind = 'ad' AND a.state = 'done'
    WHERE p.id = a.post_id
      AND p.user_id = r.user_id
    RETURNING p.id
)
SELECT count(x.id) AS posts
FROM resumed
LEFT JOIN started AS x ON true
GROUP BY resumed.campaign_id;

-- name: NetworkACampaignPostsLock :exec
-- Serialises, until the end of the transaction, the statements that start
-- or stop a user's boosted posts (NetworkACampaignPaused, ...Resumed,
-- NetworkAAttemptAdDone). A post may run in several campaigns of its user;
-- whether a pause stops it depends on the other campaigns' state, which
-- under READ COMMITTED a concurrent pause or resume could change unseen
-- (two campaigns sharing a post, paused at once, would each see the other
-- still running and neither would stop it). Each of those statements runs
-- after this lock, in its own statement, so that its snapshot holds every
-- change made under the lock before.
SELECT pg_advisory_xact_lock(hashtextextended('adboost engine posts of user ' || @user_id::bigint, 0));

-- name: NetworkACampaignFields :one
-- The fields of the campaign's network_a campaign that `save` may change,
-- in the Marketing API's shape: special_ad_categories (always, [] for
-- none) with special_ad_category_country (the countries its targeting
-- reaches, its cities' included; only with a category), and spend_cap, the
-- rules' spend_cap in the offset unit of the ad account's currency (absent
-- without one); `changes`, those that differ from what network_a last
-- accepted, and for a cap removed, spend_cap 922337203685478 (network_a's
-- value for no cap).
WITH f AS (
    SELECT jsonb_build_object('special_ad_categories', to_jsonb(c.special_ad_categories))
           || CASE WHEN cardinality(c.special_ad_categories) > 0
                   THEN jsonb_build_object('special_ad_category_country',
                                           to_jsonb(network_a_targeting_countries(c.audience_targeting)))
                   ELSE '{}'::jsonb END
           || CASE WHEN c.rules ? 'spend_cap'
                   THEN jsonb_build_object('spend_cap', network_a_offset_units((c.rules ->> 'spend_cap')::numeric, n.currency))
                   ELSE '{}'::jsonb END AS fields,
           coalesce(n.campaign_synced, '{}') AS synced
    FROM campaign AS c
    LEFT JOIN network_a_campaign AS n ON n.campaign_id = c.id
    WHERE c.id = @campaign_id
)
SELECT f.fields::jsonb AS fields,
       (coalesce((SELECT jsonb_object_agg(e.key, e.value)
                  FROM jsonb_each(f.fields) AS e (key, value)
                  WHERE f.synced -> e.key IS DISTINCT FROM e.value), '{}'::jsonb)
        || CASE WHEN NOT f.fields ? 'spend_cap' AND f.synced ? 'spend_cap'
                     AND f.synced -> 'spend_cap' <> '922337203685478'::jsonb
                THEN '{"spend_cap": 922337203685478}'::jsonb
                ELSE '{}'::jsonb END)::jsonb AS changes
FROM f;

-- name: NetworkACampaignFieldsSynced :exec
-- network_a accepted @fields for the campaign's network_a campaign.
UPDATE network_a_campaign
SET campaign_synced = campaign_synced || @fields::jsonb,
    updated_at      = now()
WHERE campaign_id = @campaign_id;
