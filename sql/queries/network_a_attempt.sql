-- The engine's create calls on network_a, each recorded (and committed)
-- before the call: no duplicate campaigns, ad sets or ads.

-- name: NetworkAAttemptBegin :one
-- Records that the engine is about to create an object (@kind, @post_id 0
-- for the campaign and the ad set) named @name, or finds the earlier attempt
-- at it. `tries` > 1 on a pending attempt means an earlier call may have
-- created the object already: look it up by name before creating it;
-- `in_flight`, that its create was sent less than @in_flight_seconds ago
-- and may still be on its way: leave it for a later cycle.
INSERT INTO network_a_attempt AS a (campaign_id, kind, post_id, name, post)
VALUES (@campaign_id, @kind, @post_id, @name, sqlc.narg(post)::jsonb)
ON CONFLICT (campaign_id, kind, post_id) DO UPDATE SET
    tries      = a.tries + (a.state = 'pending')::integer,
    updated_at = now()
RETURNING a.state, a.tries, a.object_id,
          coalesce(a.sent_at > now() - make_interval(secs => @in_flight_seconds::float8), false)::boolean AS in_flight;

-- name: NetworkAAttemptsSent :exec
-- The creates of the campaign's attempts of @kind for @post_ids (0 for the
-- campaign and the ad set) are being sent now.
UPDATE network_a_attempt
SET sent_at = now()
WHERE campaign_id = @campaign_id
  AND kind = @kind
  AND post_id = ANY (@post_ids::bigint[])
  AND state = 'pending';

-- name: NetworkAAttemptsAnswered :exec
-- network_a answered the creates of the campaign's attempts of @kind for
-- @post_ids with an error: nothing of them is on its way any more.
UPDATE network_a_attempt
SET sent_at = NULL
WHERE campaign_id = @campaign_id
  AND kind = @kind
  AND post_id = ANY (@post_ids::bigint[])
  AND state = 'pending';

-- name: NetworkAAttemptPendingAds :many
-- The campaign's unfinished ad attempts, oldest first, with the post's own
-- budget ('' without) and end when it has them: each may or may not have reached
-- network_a. Served by network_a_attempt_pending_idx.
SELECT a.post_id, a.name, a.post::jsonb AS post, coalesce(a.budget::text, '')::text AS budget, a.ends_at
FROM network_a_attempt AS a
WHERE a.campaign_id = @campaign_id
  AND a.state = 'pending'
  AND a.kind = 'ad'
ORDER BY a.id;

-- name: NetworkAAttemptBeginAds :many
-- Records that the engine is about to create the ads of @posts (a JSON array
-- of {"post_id", "name", "post", "budget", "ends_at"}, each post once; budget
-- and ends_at null unless the post gets an ad set of its own) or, with
-- @kind adset, the ad sets of their own of @posts ({"post_id", "name"}), or
-- finds the earlier attempts at them, in one statement (a new attempt's
-- created_at is @boosted_at, the engine's time of the boost, which the
-- daily counts of the rules read), and only while the campaign still
-- runs (active, end date not past in UTC): a campaign deactivated while its
-- posts were being read gets no new ad, and the answer is empty. `tries` > 1
-- on a pending attempt means an earlier call may have created the ad
-- already: look it up by name before creating it; `in_flight`, that its
-- create was sent less than @in_flight_seconds ago and may still be on its
-- way: leave it for a later cycle.
INSERT INTO network_a_attempt AS a (campaign_id, kind, post_id, name, post, budget, ends_at, created_at)
SELECT @campaign_id, @kind::text, (x.attempt ->> 'post_id')::bigint, x.attempt ->> 'name',
       CASE WHEN jsonb_typeof(x.attempt -> 'post') = 'object' THEN x.attempt -> 'post' END,
       (x.attempt ->> 'budget')::numeric, (x.attempt ->> 'ends_at')::timestamptz, @boosted_at::timestamptz
FROM jsonb_array_elements(@posts::jsonb) AS x (attempt)
WHERE EXISTS (
    SELECT 1 FROM campaign AS c
    WHERE c.id = @campaign_id
      AND c.active
      AND (c.end_date IS NULL OR c.end_date >= (now() AT TIME ZONE 'UTC')::date))
ON CONFLICT (campaign_id, kind, post_id) DO UPDATE SET
    tries      = a.tries + (a.state = 'pending')::integer,
    updated_at = now()
RETURNING a.post_id, a.state, a.tries, a.object_id,
          coalesce(a.sent_at > now() - make_interval(secs => @in_flight_seconds::float8), false)::boolean AS in_flight;

-- name: NetworkAAttemptObjectDone :exec
-- The campaign's network_a campaign or ad set (@kind: campaign, adset, or
-- adset_b for the network_b ad set) exists as @object_id: the attempt is
-- done and the campaign remembers the id; @adset_fields are the fields it
-- was created with (for the campaign, those NetworkACampaignFields keeps in
-- step). One statement.
WITH done AS (
    UPDATE network_a_attempt
    SET state = 'done', object_id = @object_id::text, updated_at = now()
    WHERE campaign_id = @campaign_id
      AND kind = @kind::text
      AND post_id = 0
)
UPDATE network_a_campaign AS n SET
    campaign_object_id = CASE WHEN @kind::text = 'campaign' THEN @object_id::text ELSE n.campaign_object_id END,
    adset_object_id    = CASE WHEN @kind::text = 'adset' THEN @object_id::text ELSE n.adset_object_id END,
    adset_synced       = CASE WHEN @kind::text = 'adset' THEN @adset_fields::jsonb ELSE n.adset_synced END,
    adset_b_object_id  = CASE WHEN @kind::text = 'adset_b' THEN @object_id::text ELSE n.adset_b_object_id END,
    adset_b_synced     = CASE WHEN @kind::text = 'adset_b' THEN @adset_fields::jsonb ELSE n.adset_b_synced END,
    campaign_synced    = CASE WHEN @kind::text = 'campaign' THEN @adset_fields::jsonb ELSE n.campaign_synced END,
    updated_at         = now()
WHERE n.campaign_id = @campaign_id;

-- name: NetworkAAttemptPostAdSetsDone :exec
-- The ad sets of their own of the campaign's posts in @adsets (a JSON array
-- of {"post_id", "adset_id"}) exist: their attempts are done.
UPDATE network_a_attempt AS a
SET state = 'done', object_id = x.adset ->> 'adset_id', updated_at = now()
FROM jsonb_array_elements(@adsets::jsonb) AS x (adset)
WHERE a.campaign_id = @campaign_id
  AND a.kind = 'adset'
  AND a.post_id = (x.adset ->> 'post_id')::bigint
  AND a.state = 'pending';

-- name: NetworkAAttemptAdsDone :one
-- The ads of @ads (a JSON array of {"post_id", "ad_id"}) exist, all in one
-- statement: their attempts are done; each post becomes a boosted post of
-- the campaign's user and of the page or network_b account it was read
-- from (the post's source_id, else the campaign's page; a network_b post
-- keeps its media id), with name = the message cut to 100 characters with
-- `…`, link, image, created = its publication, active, not stopped, its
-- new ad's review pending (network_a reviews every new ad), with its row
-- of counters (zeros for a new post), linked to the campaign (the days it
-- has join the campaign's sums, boosted_campaign_day); and the campaign's
-- history gets {"post_id", "ad_id"} under `boosted` for each, oldest post
-- first. Nothing but the
-- attempts is written when the campaign was deleted meanwhile, nor for a
-- post id that belongs to another user's post or to the other network. Answers how many posts were
-- recorded.
WITH made AS (
    SELECT (x.ad ->> 'post_id')::bigint AS post_id, x.ad ->> 'ad_id' AS ad_id
    FROM jsonb_array_elements(@ads::jsonb) AS x (ad)
),
done AS (
    UPDATE network_a_attempt AS a
    SET state = 'done', object_id = m.ad_id, updated_at = now()
    FROM made AS m
    WHERE a.campaign_id = @campaign_id
      AND a.kind = 'ad'
      AND a.post_id = m.post_id
      AND a.state = 'pending'
    RETURNING a.campaign_id, a.post_id, a.post, a.object_id
),
owner AS (
    SELECT c.id, c.user_id, d.post_id, d.post, d.object_id,
           coalesce((d.post ->> 'source_id')::bigint, c.page_id) AS source_id,
           CASE WHEN d.post ->> 'network' = 'network_b' THEN d.post ->> 'id' END AS media_id,
           (d.post ->> 'created_time')::timestamptz AS created
    FROM done AS d
    JOIN campaign AS c ON c.id = d.campaign_id
    WHERE coalesce((d.post ->> 'source_id')::bigint, c.page_id) IS NOT NULL
),
post AS (
    INSERT INTO boosted_post AS p (id, user_id, source_id, media_id, active, name, link, image, created, stopped, review_status)
    SELECT
        o.post_id, o.user_id, o.source_id, o.media_id, true,
        CASE WHEN char_length(o.post ->> 'message') > 100
             THEN rtrim(left(o.post ->> 'message', 99)) || chr(8230)
             ELSE coalesce(o.post ->> 'message', '') END,
        left(coalesce(o.post ->> 'permalink_url', ''), 2048),
        left(coalesce(o.post ->> 'full_picture', ''), 2048),
        o.created,
        NULL,
        'pending'
    FROM owner AS o
    ON CONFLICT (id) DO UPDATE SET
        active        = true,
        stopped       = NULL,
        review_status = 'pending',
        review_reason = NULL,
        updated_at    = now()
    WHERE p.user_id = EXCLUDED.user_id
      AND p.media_id IS NOT DISTINCT FROM EXCLUDED.media_id
    RETURNING p.id, p.user_id
),
counters AS (
    -- A new post's row of zero counters (boosted_post_insight_fkey).
    INSERT INTO boosted_post_insight (user_id, post_id)
    SELECT p.user_id, p.id
    FROM post AS p
    ON CONFLICT (post_id) DO NOTHING
),
linked AS (
    INSERT INTO boosted_post_campaign AS l (user_id, campaign_id, post_id)
    SELECT o.user_id, o.id, p.id
    FROM owner AS o
    JOIN post AS p ON p.id = o.post_id
    ON CONFLICT DO NOTHING
    RETURNING l.user_id, l.campaign_id, l.post_id
),
summed AS (
    -- A post new to the campaign brings the days it already has (from its
    -- ads of the user's other campaigns) into the campaign's sums.
    INSERT INTO boosted_campaign_day AS s (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
    SELECT l.user_id, l.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
           sum(d.clicks), sum(d.spend), sum(d.conversions)
    FROM linked AS l
    JOIN boosted_post_day AS d ON d.user_id = l.user_id AND d.post_id = l.post_id
    GROUP BY l.user_id, l.campaign_id, d.currency, d.day
    ON CONFLICT (user_id, campaign_id, currency, day) DO UPDATE SET
        impressions = s.impressions + EXCLUDED.impressions,
        reach       = s.reach + EXCLUDED.reach,
        engagement  = s.engagement + EXCLUDED.engagement,
        clicks      = s.clicks + EXCLUDED.clicks,
        spend       = s.spend + EXCLUDED.spend,
        conversions = s.conversions + EXCLUDED.conversions
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT o.user_id, o.id, 'boosted', jsonb_build_object('post_id', o.post_id, 'ad_id', o.object_id)
    FROM owner AS o
    JOIN post AS p ON p.id = o.post_id
    ORDER BY o.created, o.post_id
)
SELECT count(p.id) AS recorded FROM post AS p;

-- name: NetworkAAttemptAdsRefused :exec
-- network_a refused to create the ads of @refused (a JSON array of
-- {"post_id", "message", "code", "subcode", "fbtrace_id"}) for the post's
-- own reason (the post was deleted, or cannot be boosted): those posts are
-- not boosted in the campaign and not tried again, and the campaign's
-- history gets {"post_id", "message", "code", "subcode", "fbtrace_id"} (the
-- last two when network_a gave them) under `post_refused` for each, in one
-- statement.
WITH refused AS (
    SELECT (x.r ->> 'post_id')::bigint AS post_id, x.r ->> 'message' AS message,
           x.r -> 'code' AS code, x.r -> 'subcode' AS subcode, x.r -> 'fbtrace_id' AS trace
    FROM jsonb_array_elements(@refused::jsonb) AS x (r)
),
marked AS (
    UPDATE network_a_attempt AS a
    SET state = 'refused', updated_at = now()
    FROM refused AS r
    WHERE a.campaign_id = @campaign_id
      AND a.kind = 'ad'
      AND a.post_id = r.post_id
      AND a.state = 'pending'
    RETURNING a.campaign_id, a.post_id
)
INSERT INTO campaign_history (user_id, campaign_id, action, details)
SELECT c.user_id, c.id, 'post_refused',
       jsonb_strip_nulls(jsonb_build_object('post_id', m.post_id, 'message', left(r.message, 1000),
                                            'code', r.code, 'subcode', r.subcode, 'fbtrace_id', r.trace))
FROM marked AS m
JOIN refused AS r ON r.post_id = m.post_id
JOIN campaign AS c ON c.id = m.campaign_id
ORDER BY m.post_id;

-- name: NetworkAAttemptAdsWithdrawn :exec
-- network_a refused the ads of posts @post_ids for a reason that is not the
-- posts' own (a payment method, a permission, a disabled account, an ad
-- limit): network_a made nothing, so the attempts go and the posts stay
-- candidates for a later cycle.
DELETE FROM network_a_attempt
WHERE campaign_id = @campaign_id
  AND kind = 'ad'
  AND post_id = ANY (@post_ids::bigint[])
  AND state = 'pending';

-- name: NetworkAAdReviewsSet :exec
-- The reviews network_a reported of the campaign's running ads (@reviews: a
-- JSON array of {"ad_id", "status", "reason"}; reason "" for none), written
-- to the ads' boosted posts.
UPDATE boosted_post AS p
SET review_status = x.r ->> 'status',
    review_reason = nullif(x.r ->> 'reason', ''),
    updated_at    = now()
FROM jsonb_array_elements(@reviews::jsonb) AS x (r)
JOIN network_a_attempt AS a
  ON a.campaign_id = @campaign_id AND a.kind = 'ad' AND a.state = 'done' AND a.object_id = x.r ->> 'ad_id'
JOIN network_a_campaign AS n ON n.campaign_id = a.campaign_id
WHERE p.id = a.post_id
  AND p.user_id = n.user_id
  AND (p.review_status, coalesce(p.review_reason, '')) IS DISTINCT FROM (x.r ->> 'status', x.r ->> 'reason');

-- name: NetworkAAdsDelivery :one
-- What network_a said of the campaign's ads and posts this cycle, in one
-- statement: a done ad whose effective status in @ads (a JSON object of ad
-- id → effective_status, the campaign's whole `ads` list) is DELETED,
-- ARCHIVED or DISAPPROVED, or that the list leaves out (deleted), and a
-- boosted post published at or after @since that the page's posts read
-- (@seen, their ids in adboost; @posts_read false when the page was not
-- read) or the network_b account's media read (@seen_media, media ids;
-- @media_read false when not read) no longer lists, and an ad whose own ad
-- set's end (post_days) passed at @now, stops: its attempt becomes `stopped` (a resumption
-- does not bring it back), the post gets active false and stopped = now
-- unless another campaign still runs it, and the history gets {"post_id",
-- "ad_id", "reason"} under `post_stopped` (a disapproved ad's reason ends
-- with network_a's, from @reasons: ad id → review reason; and it leaves a
-- `post_disapproved` notice for the user's next mail). Answers how many
-- ads stopped.
WITH gone AS (
    SELECT a.campaign_id, a.post_id, a.object_id,
           CASE WHEN @posts_read::boolean AND p.media_id IS NULL AND p.created >= @since::timestamptz
                     AND NOT (a.post_id = ANY (@seen::bigint[]))
                THEN 'the post is no longer on network_a'
                WHEN @media_read::boolean AND p.media_id IS NOT NULL AND p.created >= @since::timestamptz
                     AND NOT (p.media_id = ANY (@seen_media::text[]))
                THEN 'the media is no longer on network_b'
                WHEN a.ends_at <= @now::timestamptz THEN 'its post_days are over'
                WHEN NOT (@ads::jsonb ? a.object_id) THEN 'the ad was deleted on network_a'
                WHEN @ads::jsonb ->> a.object_id = 'DISAPPROVED'
                THEN 'the ad is disapproved on network_a' || coalesce(': ' || nullif(@reasons::jsonb ->> a.object_id, ''), '')
                WHEN @ads::jsonb ->> a.object_id IN ('DELETED', 'ARCHIVED')
                THEN 'the ad is ' || lower(@ads::jsonb ->> a.object_id) || ' on network_a'
           END AS reason,
           @ads::jsonb ->> a.object_id = 'DISAPPROVED' AS disapproved
    FROM network_a_attempt AS a
    JOIN network_a_campaign AS n ON n.campaign_id = a.campaign_id
    JOIN boosted_post AS p ON p.id = a.post_id AND p.user_id = n.user_id
    WHERE a.campaign_id = @campaign_id
      AND a.kind = 'ad'
      AND a.state = 'done'
),
stopped AS (
    UPDATE network_a_attempt AS a
    SET state = 'stopped', updated_at = now()
    FROM gone AS g
    WHERE g.reason IS NOT NULL
      AND a.campaign_id = g.campaign_id
      AND a.kind = 'ad'
      AND a.post_id = g.post_id
    RETURNING a.campaign_id, a.post_id, a.object_id, g.reason, g.disapproved
),
noticed AS (
    INSERT INTO engine_notice (user_id, campaign_id, state, message)
    SELECT n.user_id, s.campaign_id, 'post_disapproved', 'post ' || s.post_id || ': ' || s.reason
    FROM stopped AS s
    JOIN network_a_campaign AS n ON n.campaign_id = s.campaign_id
    WHERE s.disapproved
),
posts AS (
    UPDATE boosted_post AS p
    SET active = false, stopped = greatest(now(), p.created), updated_at = now()
    FROM stopped AS s
    JOIN network_a_campaign AS n ON n.campaign_id = s.campaign_id
    WHERE p.id = s.post_id
      AND p.user_id = n.user_id
      AND p.active
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
),
logged AS (
    INSERT INTO campaign_history (user_id, campaign_id, action, details)
    SELECT c.user_id, c.id, 'post_stopped',
           jsonb_build_object('post_id', s.post_id, 'ad_id', s.object_id, 'reason', s.reason)
    FROM stopped AS s
    JOIN campaign AS c ON c.id = s.campaign_id
    ORDER BY s.post_id
)
SELECT count(*) AS stopped, (SELECT count(*) FROM posts) AS posts_stopped
FROM stopped;

-- name: NetworkAAttemptBoostsSince :one
-- How many ads the campaign began since @since (made or on their way, not
-- those network_a refused for the post), both networks together, and the
-- sum of their posts' own budgets (post_budget at their boost): what
-- max_posts_per_day and the campaign's budget across per-post budgets
-- leave room for. Served by network_a_attempt_boosts_idx.
SELECT count(*)::bigint AS boosts, coalesce(sum(a.budget), 0)::text AS budgets
FROM network_a_attempt AS a
WHERE a.campaign_id = @campaign_id
  AND a.kind = 'ad'
  AND a.state <> 'refused'
  AND a.created_at >= @since::timestamptz;
