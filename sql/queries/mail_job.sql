-- The mail jobs of River's queue 'mail' (db/mailer), through the functions
-- of migration 00140: River's tables are River's, made by its own
-- migrations, not part of the schema that sqlc reads.

-- name: MailJobBacklog :one
-- The mail jobs' backlog, for /metrics: the mails not sent yet, those of
-- them that are due, and how long the most overdue one has been due (0 when
-- none is).
SELECT b.unsent::bigint AS unsent, b.due::bigint AS due, b.oldest_due_seconds::float8 AS oldest_due_seconds
FROM mail_job_backlog() AS b;

-- name: MailJobSent :exec
-- Forgets, in the arguments of a sent mail's job, what may carry a
-- single-use link (the verification link, a prepared body), which nobody
-- needs any more; the same transaction completes the job.
SELECT mail_job_sent(@job_id::bigint);
