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

-- +goose StatementBegin
CREATE FUNCTION report_timezone(tz text) RETURNS text
    LANGUAGE sql STABLE
    RETURN CASE WHEN EXISTS (SELECT 1 FROM pg_timezone_names AS z WHERE z.name = tz) THEN tz ELSE 'UTC' END;
-- +goose StatementEnd

CREATE SCHEMA river_report;

-- +goose Down
DROP SCHEMA river_report CASCADE;
DROP FUNCTION report_timezone(text);
DROP INDEX network_a_ad_day_campaign_day_idx;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_mime_check, DROP COLUMN mime_type, DROP COLUMN mime_body;
DROP TABLE weekly_report_sent;
ALTER TABLE app_user DROP COLUMN weekly_report;
