-- name: LoginAttemptLockEmail :exec
-- Serialises the reservations of one e-mail (whatever its case) until the end
-- of the transaction. Callers lock the e-mail first, then the client address
-- (another key space), so two reservations never wait on each other in a
-- cycle.
SELECT pg_advisory_xact_lock(1, hashtext(lower(@email::text)));

-- name: LoginAttemptLockAddr :exec
-- Serialises the reservations from one client address until the end of the
-- transaction; taken after LoginAttemptLockEmail.
SELECT pg_advisory_xact_lock(2, hashtext(@client_addr::text));

-- name: LoginAttemptReserve :one
-- Reserves one password check for the e-mail from the client address, unless
-- either already has @max_attempts attempts counted within the window; then
-- retry_after_seconds is the time until the oldest of the newest
-- @max_attempts leaves it, and attempt_id is 0. Run after LoginAttemptLockEmail
-- and LoginAttemptLockAddr, in the same transaction, so that the counts see every
-- reservation committed before. Each count reads one range of its index.
WITH wait AS (
    SELECT greatest(
        coalesce((
            SELECT ceil(extract(epoch FROM a.attempted_at + make_interval(secs => @window_seconds::int) - now()))
            FROM login_attempt AS a
            WHERE a.email = lower(@email::text) AND a.email_counts
              AND a.attempted_at > now() - make_interval(secs => @window_seconds::int)
            ORDER BY a.attempted_at DESC
            OFFSET sqlc.arg(max_attempts)::int - 1
            LIMIT 1
        ), 0),
        coalesce((
            SELECT ceil(extract(epoch FROM a.attempted_at + make_interval(secs => @window_seconds::int) - now()))
            FROM login_attempt AS a
            WHERE a.client_addr = @client_addr::text
              AND a.attempted_at > now() - make_interval(secs => @window_seconds::int)
            ORDER BY a.attempted_at DESC
            OFFSET sqlc.arg(max_attempts)::int - 1
            LIMIT 1
        ), 0)
    )::int AS retry_after_seconds
),
reserved AS (
    INSERT INTO login_attempt (client_addr, email)
    SELECT @client_addr::text, lower(@email::text)
    FROM wait
    WHERE wait.retry_after_seconds = 0
    RETURNING id
)
SELECT
    w.retry_after_seconds,
    coalesce((SELECT r.id FROM reserved AS r), 0)::bigint AS attempt_id
FROM wait AS w;

-- name: LoginAttemptSucceeded :exec
-- Settles a reserved attempt whose password was right: the attempt itself is
-- forgotten, and the e-mail's earlier failures stop counting against the
-- e-mail (they keep counting against the client addresses they came from).
WITH own AS (
    DELETE FROM login_attempt AS o
    WHERE o.id = sqlc.arg(attempt_id)::bigint
)
UPDATE login_attempt AS a
SET email_counts = false
WHERE a.email = lower(@email::text) AND a.email_counts AND a.id <> sqlc.arg(attempt_id)::bigint;

-- name: LoginAttemptRelease :exec
-- Gives back a reservation whose password was never checked (the request
-- failed before it, e.g. the database went away).
DELETE FROM login_attempt WHERE id = @id;

-- name: LoginAttemptExpire :exec
-- Forgets the attempts that left the window (run after a failure). Reads
-- login_attempt_attempted_at_idx.
DELETE FROM login_attempt
WHERE attempted_at < now() - make_interval(secs => @window_seconds::int);
