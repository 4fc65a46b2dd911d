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
-- either already has @max_attempts attempts counted within the window. Run
-- after LoginAttemptLockEmail and LoginAttemptLockAddr, in the same
-- transaction, so that the counts see every reservation committed before.
-- Answers:
--   attempt_id: the reservation (pending until settled), or 0 when refused;
--   retry_after_seconds: when refused because of failures, the time until
--     the oldest of the newest @max_attempts failures of the e-mail or of the
--     address leaves the window (0 otherwise);
--   busy: refused only because checks are in flight: the caller waits for
--     them to settle and asks again.
-- A reservation still pending @pending_seconds after it was made counts as
-- a failure (its request is long past its deadline). Each of the four
-- counts reads one range of its index (00060).
WITH wait AS (
    SELECT
        -- Every attempt of the window, checks in flight included.
        greatest(
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
        )::int AS all_attempts,
        -- Failures alone.
        greatest(
            coalesce((
                SELECT ceil(extract(epoch FROM a.attempted_at + make_interval(secs => @window_seconds::int) - now()))
                FROM login_attempt AS a
                WHERE a.email = lower(@email::text) AND a.email_counts
                  AND a.attempted_at > now() - make_interval(secs => @window_seconds::int)
                  AND (NOT a.pending OR a.attempted_at <= now() - make_interval(secs => @pending_seconds::int))
                ORDER BY a.attempted_at DESC
                OFFSET sqlc.arg(max_attempts)::int - 1
                LIMIT 1
            ), 0),
            coalesce((
                SELECT ceil(extract(epoch FROM a.attempted_at + make_interval(secs => @window_seconds::int) - now()))
                FROM login_attempt AS a
                WHERE a.client_addr = @client_addr::text
                  AND a.attempted_at > now() - make_interval(secs => @window_seconds::int)
                  AND (NOT a.pending OR a.attempted_at <= now() - make_interval(secs => @pending_seconds::int))
                ORDER BY a.attempted_at DESC
                OFFSET sqlc.arg(max_attempts)::int - 1
                LIMIT 1
            ), 0)
        )::int AS failures
),
reserved AS (
    INSERT INTO login_attempt (client_addr, email, pending)
    SELECT @client_addr::text, lower(@email::text), true
    FROM wait
    WHERE wait.all_attempts = 0
    RETURNING id
)
SELECT
    w.failures AS retry_after_seconds,
    (w.all_attempts > 0 AND w.failures = 0)::boolean AS busy,
    coalesce((SELECT r.id FROM reserved AS r), 0)::bigint AS attempt_id
FROM wait AS w;

-- name: LoginAttemptFailed :exec
-- Settles a reserved attempt whose password was wrong: it counts as a
-- failure from now on.
UPDATE login_attempt SET pending = false WHERE id = @id;

-- name: LoginAttemptSucceeded :exec
-- Settles a reserved attempt whose password was right: the attempt itself is
-- forgotten, and the e-mail's failures stop counting against the e-mail
-- (they keep counting against the client addresses they came from). Checks
-- of the e-mail still in flight are left alone: if they fail, they count.
WITH own AS (
    DELETE FROM login_attempt AS o
    WHERE o.id = sqlc.arg(attempt_id)::bigint
)
UPDATE login_attempt AS a
SET email_counts = false
WHERE a.email = lower(@email::text) AND a.email_counts AND NOT a.pending
  AND a.id <> sqlc.arg(attempt_id)::bigint;

-- name: LoginAttemptRelease :exec
-- Gives back a reservation whose password was never checked (the request
-- failed before it, e.g. the database went away).
DELETE FROM login_attempt WHERE id = @id;

-- name: LoginAttemptExpire :exec
-- Forgets the attempts that left the window (run after a failure). Reads
-- login_attempt_attempted_at_idx.
DELETE FROM login_attempt
WHERE attempted_at < now() - make_interval(secs => @window_seconds::int);
