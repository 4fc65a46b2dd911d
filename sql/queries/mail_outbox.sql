-- name: MailOutboxClaim :many
-- Claims up to batch due mails for one sender. FOR UPDATE SKIP LOCKED lets
-- several senders claim at once without waiting for, or taking, the mails
-- of the others; the claim counts an attempt and moves next_attempt_at past
-- the lease, so that no other sender takes the mail while this one sends it, and
-- a sender that dies leaves it to be retried when the lease ends. Reads
-- mail_outbox_due_idx.
UPDATE mail_outbox AS m SET
    attempts        = m.attempts + 1,
    next_attempt_at = now() + make_interval(secs => @lease_seconds::float8)
FROM (
    SELECT d.id
    FROM mail_outbox AS d
    WHERE d.sent_at IS NULL AND d.next_attempt_at <= now()
    ORDER BY d.next_attempt_at, d.id
    LIMIT sqlc.arg(batch)::int
    FOR UPDATE SKIP LOCKED
) AS due
WHERE m.id = due.id
RETURNING m.id, m.recipient, m.subject, m.body, m.mime_body, m.mime_type, m.attempts;

-- name: MailOutboxSent :exec
-- Marks a claimed mail sent, and empties its body and prepared MIME body,
-- which may carry a single-use link that nobody needs any more.
UPDATE mail_outbox SET
    sent_at    = now(),
    body       = '',
    mime_body  = NULL,
    mime_type  = NULL,
    last_error = ''
WHERE id = @id AND sent_at IS NULL;

-- name: MailOutboxFailed :exec
-- Records a failed attempt of a claimed mail and schedules the next one after
-- an exponential backoff: base_seconds after the first attempt, doubling
-- with each attempt, at most max_seconds.
UPDATE mail_outbox SET
    last_error      = left(@last_error::text, 2000),
    next_attempt_at = now() + make_interval(secs => least(
        sqlc.arg(max_seconds)::float8,
        sqlc.arg(base_seconds)::float8 * power(2, least(attempts - 1, 30))
    ))
WHERE id = @id AND sent_at IS NULL;

-- name: MailOutboxRelease :exec
-- Gives back claimed mails that a stopping sender did not try: due at once,
-- and the attempt of the claim not counted.
UPDATE mail_outbox SET
    attempts        = greatest(attempts - 1, 0),
    next_attempt_at = now()
WHERE id = ANY (@ids::bigint[]) AND sent_at IS NULL;

-- name: MailOutboxBacklog :one
-- The sender's backlog, for /metrics: the unsent mails, those of them that
-- are due, and how long the most overdue one has been due (0 when none is).
-- Reads only the partial index mail_outbox_due_idx (unsent mails by
-- next_attempt_at), whatever the size of the sent history.
SELECT
    count(*)                                          AS unsent,
    count(*) FILTER (WHERE next_attempt_at <= now())  AS due,
    -- The earliest next_attempt_at is the most overdue mail when it is past.
    greatest(coalesce(extract(epoch FROM now() - min(next_attempt_at)), 0), 0)::float8 AS oldest_due_seconds
FROM mail_outbox
WHERE sent_at IS NULL;
