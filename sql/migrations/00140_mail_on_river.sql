-- Mail on River: every mail is a River job of the queue 'mail' (db/mailer),
-- inserted in the transaction of the write that causes it, and the outbox
-- table and its sender go. River's own tables exist before this runs:
-- db.MigrateUp applies River's migrations before goose's.
-- * The mails still waiting in mail_outbox become jobs of the kind
--   adboost_mail_prepared, as they were rendered (their text, or their
--   prepared MIME body and its type), due when they were due, under their
--   outbox id (the Message-ID keeps it), with the attempts of every mail
--   job (120, mailer.MaxAttempts).
-- * The reminder jobs still waiting (adboost_network_a_reminder, which wrote
--   their mail into the outbox) become the reminder mails of the mail queue.
-- * The weekly report's jobs still waiting in the schema river_report
--   become report mails, each week marked queued as the report's jobs now
--   mark it; the schema goes: one River client per process, with all the
--   jobs in the public schema's tables.
-- * mail_job_backlog(): the backlog of the mail jobs that /metrics reports.
-- * mail_job_sent(job_id): forgets what may carry a single-use link in the
--   arguments of a sent mail's job (River keeps finished jobs for a day).

-- +goose Up
INSERT INTO river_job (kind, queue, args, max_attempts, state, scheduled_at, created_at)
SELECT 'adboost_mail_prepared', 'mail',
       jsonb_strip_nulls(jsonb_build_object(
           'outbox_id', m.id, 'to', m.recipient, 'subject', m.subject, 'body', m.body,
           'mime_type', m.mime_type, 'mime_body', m.mime_body)),
       120,
       CASE WHEN m.next_attempt_at > now() THEN 'scheduled' ELSE 'available' END::river_job_state,
       m.next_attempt_at, m.created_at
FROM mail_outbox AS m
WHERE m.sent_at IS NULL
ORDER BY m.id;

UPDATE river_job SET
    kind         = 'adboost_mail_network_a_reminder',
    queue        = 'mail',
    max_attempts = greatest(max_attempts, 120)
WHERE kind = 'adboost_network_a_reminder' AND finalized_at IS NULL;

-- River's tables in river_report exist only where `serve` ran the report's
-- jobs (PL/pgSQL looks the table up only when the statement runs).
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('river_report.river_job') IS NOT NULL THEN
        WITH waiting AS (
            SELECT DISTINCT (j.args ->> 'user_id')::bigint AS user_id, (j.args ->> 'monday')::date AS monday
            FROM river_report.river_job AS j
            WHERE j.kind = 'adboost_weekly_report' AND j.finalized_at IS NULL
        ),
        marked AS (
            INSERT INTO weekly_report_sent (user_id, monday)
            SELECT w.user_id, w.monday
            FROM waiting AS w
            JOIN app_user AS u ON u.id = w.user_id AND u.weekly_report
            ON CONFLICT (user_id, monday) DO NOTHING
            RETURNING user_id, monday
        )
        INSERT INTO river_job (kind, queue, args, max_attempts)
        SELECT 'adboost_mail_weekly_report', 'mail',
               jsonb_build_object('user_id', k.user_id, 'monday', to_char(k.monday, 'YYYY-MM-DD')), 120
        FROM marked AS k
        ORDER BY k.user_id, k.monday;
    END IF;
END
$$;
-- +goose StatementEnd

DROP SCHEMA river_report CASCADE;
DROP TABLE mail_outbox;

-- +goose StatementBegin
-- A set-returning SQL function (of one row), which the planner inlines
-- into the query that reads it.
CREATE FUNCTION mail_job_backlog(OUT unsent bigint, OUT due bigint, OUT oldest_due_seconds float8)
    RETURNS SETOF record
    LANGUAGE sql STABLE
AS $$
    -- The mails not sent yet, those of them that are due (available, or
    -- scheduled or awaiting a retry whose time has come: River's scheduler
    -- makes them available within seconds), and how long the most overdue
    -- has been due (0 when none is). Reads river_job_prioritized_fetching_index
    -- (state, queue, ...), whatever the number of finished jobs.
    SELECT count(*),
           count(*) FILTER (WHERE d.due),
           greatest(coalesce(extract(epoch FROM now() - min(j.scheduled_at) FILTER (WHERE d.due)), 0), 0)::float8
    FROM river_job AS j
    CROSS JOIN LATERAL (SELECT j.state = 'available'
                            OR (j.state IN ('scheduled', 'retryable') AND j.scheduled_at <= now()) AS due) AS d
    WHERE j.queue = 'mail'
      AND j.state IN ('available', 'scheduled', 'retryable', 'running', 'pending')
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION mail_job_sent(job_id bigint) RETURNS void
    LANGUAGE sql
AS $$
    UPDATE river_job SET args = args - ARRAY['link', 'body', 'mime_body']
    WHERE id = job_id AND queue = 'mail'
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION mail_job_sent(bigint);
DROP FUNCTION mail_job_backlog();
CREATE SCHEMA river_report;

-- The outbox as migrations 00021 and 00114 made it; the mails waiting as
-- River jobs stay there.
CREATE TABLE mail_outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    recipient       text NOT NULL CHECK (recipient ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$' AND length(recipient) <= 254),
    subject         text NOT NULL CHECK (subject <> '' AND length(subject) <= 255 AND subject !~ '[\r\n]'),
    body            text NOT NULL CHECK (length(body) <= 100000),
    created_at      timestamptz NOT NULL DEFAULT now(),
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text NOT NULL DEFAULT '' CHECK (length(last_error) <= 2000),
    sent_at         timestamptz,
    mime_body       text CHECK (length(mime_body) <= 4000000),
    mime_type       text CHECK (mime_type ~ '^multipart/[a-z]+; boundary=[0-9A-Za-z''()+_,./:=?-]{1,70}$'),
    CONSTRAINT mail_outbox_mime_check CHECK ((mime_body IS NULL) = (mime_type IS NULL))
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL;
