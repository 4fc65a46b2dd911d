-- name: LoginFailureRetryAfter :one
-- Seconds before the next attempt may be made: 0 while neither the client
-- address nor the e-mail has @max_failures failures within the window, else
-- the time until the oldest of the newest @max_failures of them leaves it.
-- Each side reads one range of its (key, failed_at) index.
SELECT greatest(
    coalesce((
        SELECT ceil(extract(epoch FROM f.failed_at + make_interval(secs => @window_seconds::int) - now()))
        FROM login_failure AS f
        WHERE f.client_addr = @client_addr
          AND f.failed_at > now() - make_interval(secs => @window_seconds::int)
        ORDER BY f.failed_at DESC
        OFFSET sqlc.arg(max_failures)::int - 1
        LIMIT 1
    ), 0),
    coalesce((
        SELECT ceil(extract(epoch FROM f.failed_at + make_interval(secs => @window_seconds::int) - now()))
        FROM login_failure AS f
        WHERE f.email = lower(@email::text)
          AND f.failed_at > now() - make_interval(secs => @window_seconds::int)
        ORDER BY f.failed_at DESC
        OFFSET sqlc.arg(max_failures)::int - 1
        LIMIT 1
    ), 0)
)::int AS retry_after_seconds;

-- name: LoginFailureRecord :exec
-- Records a failed attempt and forgets the failures that left the window.
WITH expired AS (
    DELETE FROM login_failure
    WHERE failed_at < now() - make_interval(secs => @window_seconds::int)
)
INSERT INTO login_failure (client_addr, email)
VALUES (@client_addr, lower(@email::text));

-- name: LoginFailureClear :exec
-- A successful sign-in forgets the failures counted against the e-mail (those
-- of the client address stay).
DELETE FROM login_failure
WHERE email = lower(@email::text);
