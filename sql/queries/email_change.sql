-- name: EmailChangeRequest :exec
-- Keeps new_email pending for the user, replacing an earlier pending change
-- (whose link then stops working). The caller inserts, in the same
-- transaction, the jobs of the verification mail to the new address and of
-- the notice to the user's current address (which a stolen token must not
-- change unnoticed). Only the SHA-256 of the link's token is kept here; the
-- link expires after valid_hours hours.
INSERT INTO email_change (user_id, new_email, token_hash, expires_at)
VALUES (@user_id, @new_email, @token_hash, now() + make_interval(hours => @valid_hours::int))
ON CONFLICT (user_id) DO UPDATE SET
    new_email  = EXCLUDED.new_email,
    token_hash = EXCLUDED.token_hash,
    created_at = EXCLUDED.created_at,
    expires_at = EXCLUDED.expires_at;

-- name: EmailChangeConfirm :one
-- verify-email: uses the pending change whose token has this hash, unless it
-- has expired, and makes its address the user's. The change is deleted in
-- the same statement, so a link works once; when the address has meanwhile
-- become another account's, app_user_email_key fails the statement and the
-- change stays pending. No row: unknown, used or expired token.
WITH used AS (
    DELETE FROM email_change
    WHERE token_hash = @token_hash AND expires_at > now()
    RETURNING user_id, new_email
)
UPDATE app_user AS u SET
    email      = used.new_email,
    updated_at = now()
FROM used
WHERE u.id = used.user_id
RETURNING u.email;

-- name: EmailChangeCancel :exec
-- Forgets the user's pending e-mail change, whose link then stops working
-- (a password change does this: the change may be a thief's).
DELETE FROM email_change
WHERE user_id = @user_id;
