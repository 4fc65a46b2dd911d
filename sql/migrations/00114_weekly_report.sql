-- The weekly report mail:
-- * app_user.weekly_report: whether the user gets it (user/save, the
--   mail's unsubscribe link).
-- * weekly_report_sent: one row per user and ISO week (by its Monday) whose
--   report went into the outbox, written in the transaction that queues the
--   mail, so that a user gets one report a week whatever runs the job twice.
-- * mail_outbox.mime_body and mime_type: a mail prepared whole (a multipart
--   body with its Content-Type header), sent as it is; null for the plain
--   text mails of `body`.
-- * network_a_ad_day_campaign_day_idx: a campaign's days over a range (the
--   primary key leads with the campaign but reads every post's days).
-- * report_campaign_day: a campaign's days as the report reads them: its
--   ads' days (network_a_ad_day) in its ad account's currency; for a
--   campaign the engine never ran (no network_a_campaign: imported history,
--   the demo), its posts' imported days (boosted_post_day, a post of two
--   such campaigns counting in each). Each branch reads an index by
--   campaign and day (network_a_ad_day_campaign_day_idx; the primary keys
--   of boosted_post_campaign and boosted_post_day).
-- * report_timezone(tz): tz when PostgreSQL knows the zone, else 'UTC'.
-- * schema river_report: the River tables of the report's jobs, apart from
--   the engine's, so that each has its own leader for its periodic job.

-- +goose Up
ALTER TABLE app_user ADD COLUMN weekly_report boolean NOT NULL DEFAULT true;

CREATE TABLE weekly_report_sent (
    user_id    bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    monday     date NOT NULL CHECK (extract(isodow FROM monday) = 1),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, monday)
);

ALTER TABLE mail_outbox
    ADD COLUMN mime_body text CHECK (length(mime_body) <= 4000000),
    ADD COLUMN mime_type text CHECK (mime_type ~ '^multipart/[a-z]+; boundary=[0-9A-Za-z''()+_,./:=?-]{1,70}$'),
    ADD CONSTRAINT mail_outbox_mime_check CHECK ((mime_body IS NULL) = (mime_type IS NULL));

CREATE INDEX network_a_ad_day_campaign_day_idx ON network_a_ad_day (campaign_id, day);

CREATE VIEW report_campaign_day AS
SELECT d.campaign_id, d.post_id, d.day, coalesce(n.currency, '') AS currency,
       d.reach, d.engagement, d.clicks, d.spend, d.conversions
FROM network_a_ad_day AS d
JOIN network_a_campaign AS n ON n.campaign_id = d.campaign_id
UNION ALL
SELECT pc.campaign_id, d.post_id, d.day, d.currency,
       d.reach, d.engagement, d.clicks, d.spend, d.conversions
FROM boosted_post_campaign AS pc
JOIN boosted_post_day AS d ON d.user_id = pc.user_id AND d.post_id = pc.post_id
WHERE NOT EXISTS (SELECT 1 FROM network_a_campaign AS n WHERE n.campaign_id = pc.campaign_id);

-- +goose StatementBegin
CREATE FUNCTION report_timezone(tz text) RETURNS text
    LANGUAGE sql STABLE
    RETURN CASE WHEN EXISTS (SELECT 1 FROM pg_timezone_names AS z WHERE z.name = tz) THEN tz ELSE 'UTC' END;
-- +goose StatementEnd

CREATE SCHEMA river_report;

-- +goose Down
DROP SCHEMA river_report CASCADE;
DROP FUNCTION report_timezone(text);
DROP VIEW report_campaign_day;
DROP INDEX network_a_ad_day_campaign_day_idx;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_mime_check, DROP COLUMN mime_type, DROP COLUMN mime_body;
DROP TABLE weekly_report_sent;
ALTER TABLE app_user DROP COLUMN weekly_report;
