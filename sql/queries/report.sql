-- name: ReportDueUsers :many
-- The weekly report's users due at the time now: those with weekly_report on whose
-- local time (the ad account's time zone of their most recent campaign, UTC
-- when it has none or PostgreSQL knows no such zone) is past Monday 08:00 of
-- its week, with a campaign that spent in the week before (Monday to Sunday
-- in that zone), and whose report of that week is not yet queued. Answers the
-- user, the zone and the reported week's Monday. Reads
-- each user's latest campaign by campaign_user_id_key and the campaigns'
-- days (report_campaign_day) by campaign and day.
WITH latest AS (
    SELECT u.id AS user_id, l.tz
    FROM app_user AS u
    CROSS JOIN LATERAL (
        SELECT c.ad_account_timezone AS tz
        FROM campaign AS c
        WHERE c.user_id = u.id
        ORDER BY c.id DESC
        LIMIT 1
    ) AS l
    WHERE u.weekly_report
),
-- Each zone named is looked up once, not once per user.
zones AS (
    SELECT d.tz, report_timezone(d.tz) AS known
    FROM (SELECT DISTINCT l.tz FROM latest AS l WHERE l.tz IS NOT NULL) AS d
),
zoned AS (
    SELECT l.user_id, coalesce(z.known, 'UTC') AS tz
    FROM latest AS l
    LEFT JOIN zones AS z ON z.tz = l.tz
),
clock AS (
    SELECT z.user_id, z.tz, timezone(z.tz, @now::timestamptz) AS local_time
    FROM zoned AS z
),
weeks AS (
    SELECT l.user_id, l.tz, (date_trunc('week', l.local_time)::date - 7) AS monday
    FROM clock AS l
    WHERE l.local_time >= date_trunc('week', l.local_time) + interval '8 hours'
)
SELECT w.user_id, w.tz::text AS time_zone, w.monday::date AS monday
FROM weeks AS w
WHERE NOT EXISTS (
        SELECT 1 FROM weekly_report_sent AS s
        WHERE s.user_id = w.user_id AND s.monday = w.monday)
  AND EXISTS (
        SELECT 1
        FROM campaign AS c
        JOIN report_campaign_day AS d ON d.campaign_id = c.id
        WHERE c.user_id = w.user_id AND d.day BETWEEN w.monday AND w.monday + 6 AND d.spend > 0)
ORDER BY w.user_id;

-- name: ReportUser :one
-- The report's recipient: the e-mail, first name, whether the user wants
-- the report, and the ad account's time zone of their most recent campaign
-- (empty when none).
SELECT u.email, u.first_name, u.weekly_report,
       coalesce((SELECT c.ad_account_timezone
                 FROM campaign AS c
                 WHERE c.user_id = u.id
                 ORDER BY c.id DESC
                 LIMIT 1), '')::text AS time_zone
FROM app_user AS u
WHERE u.id = @user_id;

-- name: ReportCampaigns :many
-- Each campaign of the user with statistics in the week from @monday (7
-- days) or the week before, per currency (one, but for imported history in
-- several): the week's and the week before's sums of its days
-- (report_campaign_day). Money with two decimals. Reads the user's
-- campaigns by campaign_user_id_key and their days by campaign and day.
SELECT c.id AS campaign_id,
       coalesce(s.name, '')::text AS source_name,
       w.currency::text AS currency,
       round(w.spend, 2)::text AS spend, w.reach, w.clicks, w.engagement, w.conversions,
       round(w.prev_spend, 2)::text AS prev_spend, w.prev_reach, w.prev_clicks, w.prev_engagement, w.prev_conversions
FROM campaign AS c
LEFT JOIN source AS s ON s.user_id = c.user_id AND s.id = coalesce(c.page_id, c.network_b_id)
CROSS JOIN LATERAL (
    SELECT d.currency,
           coalesce(sum(d.spend) FILTER (WHERE d.day >= sqlc.arg(monday)::date), 0)::numeric AS spend,
           coalesce(sum(d.reach) FILTER (WHERE d.day >= sqlc.arg(monday)::date), 0)::bigint AS reach,
           coalesce(sum(d.clicks) FILTER (WHERE d.day >= sqlc.arg(monday)::date), 0)::bigint AS clicks,
           coalesce(sum(d.engagement) FILTER (WHERE d.day >= sqlc.arg(monday)::date), 0)::bigint AS engagement,
           coalesce(sum(d.conversions) FILTER (WHERE d.day >= sqlc.arg(monday)::date), 0)::bigint AS conversions,
           coalesce(sum(d.spend) FILTER (WHERE d.day < sqlc.arg(monday)::date), 0)::numeric AS prev_spend,
           coalesce(sum(d.reach) FILTER (WHERE d.day < sqlc.arg(monday)::date), 0)::bigint AS prev_reach,
           coalesce(sum(d.clicks) FILTER (WHERE d.day < sqlc.arg(monday)::date), 0)::bigint AS prev_clicks,
           coalesce(sum(d.engagement) FILTER (WHERE d.day < sqlc.arg(monday)::date), 0)::bigint AS prev_engagement,
           coalesce(sum(d.conversions) FILTER (WHERE d.day < sqlc.arg(monday)::date), 0)::bigint AS prev_conversions
    FROM report_campaign_day AS d
    WHERE d.campaign_id = c.id AND d.day BETWEEN sqlc.arg(monday)::date - 7 AND sqlc.arg(monday)::date + 6
    GROUP BY d.currency
) AS w
WHERE c.user_id = @user_id
ORDER BY 3, c.id;

-- name: ReportDays :many
-- The chart's figures: each day of the week from @monday that has
-- statistics, per currency, the spend (two decimals) and engagement of the
-- user's campaigns (report_campaign_day, by campaign and day).
SELECT d.day, d.currency::text AS currency,
       round(sum(d.spend), 2)::text AS spend,
       sum(d.engagement)::bigint AS engagement
FROM campaign AS c
JOIN report_campaign_day AS d ON d.campaign_id = c.id AND d.day BETWEEN sqlc.arg(monday)::date AND sqlc.arg(monday)::date + 6
WHERE c.user_id = @user_id
GROUP BY d.day, d.currency
ORDER BY 2, d.day;

-- name: ReportTopPosts :many
-- The three posts of the user with the most engagement in the week from
-- @monday, over all their campaigns (report_campaign_day; ties by post id),
-- with some.
SELECT p.id, p.name, p.link,
       sum(d.engagement)::bigint AS engagement,
       sum(d.reach)::bigint AS reach,
       sum(d.clicks)::bigint AS clicks
FROM campaign AS c
JOIN report_campaign_day AS d ON d.campaign_id = c.id AND d.day BETWEEN sqlc.arg(monday)::date AND sqlc.arg(monday)::date + 6
JOIN boosted_post AS p ON p.id = d.post_id
WHERE c.user_id = @user_id
GROUP BY p.id
HAVING sum(d.engagement) > 0
ORDER BY 4 DESC, p.id
LIMIT 3;

-- name: ReportMark :many
-- Marks the reports of these users' weeks (@user_ids and @mondays, pairwise)
-- as queued, for the users who want the report, and answers those marked
-- now: a week marked before (by this instance or another, which this
-- statement waits for) is not answered again. The caller inserts the
-- answered reports' mail jobs in the same transaction, so that a user gets
-- one report a week whatever looks twice.
INSERT INTO weekly_report_sent (user_id, monday)
SELECT u.id, w.monday
FROM unnest(@user_ids::bigint[]) WITH ORDINALITY AS i (user_id, n)
JOIN unnest(@mondays::date[]) WITH ORDINALITY AS w (monday, n) ON w.n = i.n
JOIN app_user AS u ON u.id = i.user_id AND u.weekly_report
ORDER BY u.id, w.monday
ON CONFLICT (user_id, monday) DO NOTHING
RETURNING user_id, monday;

-- name: ReportUnsubscribe :execrows
-- The unsubscribe link: turns the user's weekly report off. Answers 0 when
-- the user no longer exists.
UPDATE app_user SET weekly_report = false, updated_at = now()
WHERE id = @user_id;

-- name: UserWeeklyReportSave :exec
-- user/save: whether the user gets the weekly report.
UPDATE app_user SET weekly_report = @weekly_report, updated_at = now()
WHERE id = @user_id;
