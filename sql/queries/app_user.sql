-- name: UserProfile :one
-- The User object of the interface: the user with the name of their agency.
-- Absent numbers answer 0 and absent texts an empty string, as the declared types demand.
-- connection is the state of the user's network_a connection,
-- {"network_a": {"status", "expires_at", "missing_permissions"}}: the
-- status is the first that applies of not_connected (no stored token: a
-- password-only user), expired (past its end), refused (network_a refused
-- it), missing_permissions (some needed permission was not granted),
-- expiring (it ends within 7 days) and ok; expires_at is the token's end
-- written as created_at is (null when unknown or not connected).
SELECT
    coalesce(u.snid, 0)::bigint       AS snid,
    u.email,
    u.first_name,
    u.last_name,
    u.phone_number,
    coalesce(u.agency_id, 0)::bigint  AS agency_id,
    coalesce(a.username, '')::text    AS agency_name,
    u.credit_balance::text            AS credit_balance,
    jsonb_build_object('network_a', CASE
        WHEN u.network_a_token IS NULL THEN jsonb_build_object(
            'status', 'not_connected', 'expires_at', NULL, 'missing_permissions', '[]'::jsonb)
        ELSE jsonb_build_object(
            'status', CASE
                WHEN u.network_a_token_expires_at <= now() THEN 'expired'
                WHEN u.network_a_token_invalid_at IS NOT NULL THEN 'refused'
                WHEN cardinality(u.network_a_permissions_missing) > 0 THEN 'missing_permissions'
                WHEN u.network_a_token_expires_at <= now() + interval '7 days' THEN 'expiring'
                ELSE 'ok'
            END,
            'expires_at', to_char(u.network_a_token_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
            'missing_permissions', to_jsonb(u.network_a_permissions_missing))
    END)::jsonb                       AS connection,
    u.weekly_report
FROM app_user AS u
LEFT JOIN agency AS a ON a.id = u.agency_id
WHERE u.id = @id;

-- name: UserCredentialsByEmail :one
-- The password hash of the account with this e-mail, whatever its case, and
-- the token generation that goes with it: a password change moves both in
-- one statement, so a token issued for this hash never outlives the change.
-- Served by app_user_email_key.
SELECT id, password_hash, token_generation
FROM app_user
WHERE lower(email) = lower(@email);

-- name: UserUpsert :batchexec
-- Inserts a user of an import file, or updates the user with that id. A file
-- never carries hashes: a row without a password keeps the stored one; a
-- row with one sets it as a password reset does, ending every token issued
-- before (the token generation moves on, as with user/save).
INSERT INTO app_user (
    id, email, password_hash, snid, first_name, last_name,
    phone_number, phone_country, agency_id, credit_balance
) VALUES (
    @id, @email, sqlc.narg(password_hash), sqlc.narg(snid), @first_name, @last_name,
    @phone_number, @phone_country, sqlc.narg(agency_id), (@credit_balance::text)::numeric(12, 2)
)
ON CONFLICT (id) DO UPDATE SET
    email          = EXCLUDED.email,
    password_hash  = coalesce(EXCLUDED.password_hash, app_user.password_hash),
    token_generation = app_user.token_generation
                       + CASE WHEN EXCLUDED.password_hash IS NOT NULL THEN 1 ELSE 0 END,
    snid           = EXCLUDED.snid,
    first_name     = EXCLUDED.first_name,
    last_name      = EXCLUDED.last_name,
    phone_number   = EXCLUDED.phone_number,
    phone_country  = EXCLUDED.phone_country,
    agency_id      = EXCLUDED.agency_id,
    credit_balance = EXCLUDED.credit_balance,
    updated_at     = now();

-- name: UserSignup :one
-- Creates a user who signs up with network_a together with the user's own
-- agency, named after the user. A preset chosen at sign-up must be one the new
-- user may use: active and public (a private preset belongs to an agency, and
-- the new agency owns none). With any other preset no row is inserted at all
-- and none is returned. A taken e-mail (app_user_email_key) or network_a id
-- (app_user_snid_key) fails the whole statement.
WITH chosen AS (
    SELECT sqlc.narg(preset_id)::bigint IS NULL
        OR EXISTS (
            SELECT 1 FROM preset AS p
            WHERE p.id = sqlc.narg(preset_id)::bigint AND preset_usable(p, NULL)
        ) AS usable
),
new_agency AS (
    INSERT INTO agency (username, listed)
    SELECT @agency_name::text, false FROM chosen WHERE chosen.usable
    RETURNING id
)
INSERT INTO app_user (email, snid, first_name, last_name, agency_id, signup_preset_id)
SELECT @email, @snid::bigint, @first_name, @last_name, a.id, sqlc.narg(preset_id)::bigint
FROM new_agency AS a
RETURNING id;

-- name: UserTokenGeneration :one
-- The generation that the user's access tokens must carry (see the Bearer
-- middleware); no row for an account that no longer exists. Served by the
-- primary key.
SELECT token_generation
FROM app_user
WHERE id = @id;

-- name: UserCredentials :one
-- The e-mail and password hash of a signed-in user, for user/save to check
-- current_password (a NULL hash: an account made by social sign-up that has
-- no password yet).
SELECT email, password_hash
FROM app_user
WHERE id = @id;

-- name: UserIDBySnid :one
-- The account of a network_a user (login-sn). Served by app_user_snid_key.
SELECT id
FROM app_user
WHERE snid = @snid::bigint;

-- name: UserSettingsSave :one
-- user/save: sets the given phone number, phone country and password hash
-- (NULL keeps the stored value; a new hash also moves the token generation
-- on, which signs out every earlier token), but only when the phone country is a known
-- ISO country and the new e-mail, if any, belongs to no other account;
-- answers what the caller needs to tell which rule failed and whether the
-- e-mail changes (which it never does here: see EmailChangeRequest).
-- With @guard_credentials, the row is written only while its password hash
-- is still @checked_hash, the one the caller checked current_password
-- against (or NULL: an account setting its first password); a concurrent
-- change of the password in between makes credentials_changed true and
-- writes nothing. The condition sits on the updated row itself, so a writer
-- that waited for the row lock re-checks it on the row as committed.
WITH target AS (
    SELECT
        u.id,
        u.email,
        u.first_name,
        (sqlc.narg(phone_country)::text IS NULL
            OR EXISTS (SELECT 1 FROM geo_country AS c WHERE c.code = sqlc.narg(phone_country)::text)) AS phone_country_known,
        (sqlc.narg(new_email)::text IS NOT NULL
            AND lower(sqlc.narg(new_email)::text) <> lower(u.email)) AS email_changes,
        (sqlc.narg(new_email)::text IS NOT NULL
            AND EXISTS (
                SELECT 1 FROM app_user AS o
                WHERE lower(o.email) = lower(sqlc.narg(new_email)::text) AND o.id <> u.id
            )) AS email_taken
    FROM app_user AS u
    WHERE u.id = @id
),
saved AS (
    UPDATE app_user AS u SET
        phone_number  = coalesce(sqlc.narg(phone_number)::text, u.phone_number),
        phone_country = coalesce(sqlc.narg(phone_country)::text, u.phone_country),
        password_hash = coalesce(sqlc.narg(password_hash)::text, u.password_hash),
        -- A new password ends every access token issued before it.
        token_generation = u.token_generation
            + CASE WHEN sqlc.narg(password_hash)::text IS NULL THEN 0 ELSE 1 END,
        updated_at    = now()
    FROM target AS t
    WHERE u.id = t.id AND t.phone_country_known AND NOT t.email_taken
      AND (NOT @guard_credentials::boolean
           OR u.password_hash IS NOT DISTINCT FROM sqlc.narg(checked_hash)::text)
    RETURNING u.id
)
SELECT
    t.email,
    t.first_name,
    coalesce(t.phone_country_known, false)::bool AS phone_country_known,
    coalesce(t.email_changes, false)::bool       AS email_changes,
    coalesce(t.email_taken, false)::bool         AS email_taken,
    (t.phone_country_known AND NOT t.email_taken
        AND NOT EXISTS (SELECT 1 FROM saved))::bool AS credentials_changed
FROM target AS t;

-- name: UserNetworkATokenSave :exec
-- signup-sn, login-sn: stores the user's sealed network_a token in place of
-- the last one, with its end (NULL: unknown) and the needed permissions it
-- lacks, and clears the mark of a refused token, so that the engine takes
-- up the user's campaigns again. The reminders follow the new end: they
-- were marked with the end they were sent for.
UPDATE app_user SET
    network_a_token               = @network_a_token,
    network_a_token_expires_at    = sqlc.narg(expires_at)::timestamptz,
    network_a_permissions_missing = @permissions_missing::text[],
    network_a_token_invalid_at    = NULL,
    network_a_token_refusal       = NULL,
    updated_at                    = now()
WHERE id = @id;

-- name: UserRemindersTake :many
-- The reminders due at @now, marked as sent in the same statement: a user
-- whose stored token ends within 7 days (and after @now) gets the 7-day
-- reminder once per end, and within a day the 1-day one, once per end too
-- (a token found within its last day skips the 7-day one). A concurrent
-- take waits for the row and then finds it marked, so each reminder is
-- answered once whatever the number of instances. A refused token is left
-- out: its user was told already. Served by app_user_network_a_token_expires_idx.
UPDATE app_user AS u SET
    network_a_reminded_1d = CASE
        WHEN u.network_a_token_expires_at <= sqlc.arg(now)::timestamptz + interval '1 day'
        THEN u.network_a_token_expires_at ELSE u.network_a_reminded_1d END,
    network_a_reminded_7d = u.network_a_token_expires_at
WHERE u.network_a_token_expires_at > @now::timestamptz
  AND u.network_a_token_expires_at <= sqlc.arg(now)::timestamptz + interval '7 days'
  AND u.network_a_token IS NOT NULL
  AND u.network_a_token_invalid_at IS NULL
  AND (u.network_a_reminded_7d IS DISTINCT FROM u.network_a_token_expires_at
       OR (u.network_a_token_expires_at <= sqlc.arg(now)::timestamptz + interval '1 day'
           AND u.network_a_reminded_1d IS DISTINCT FROM u.network_a_token_expires_at))
RETURNING u.id, coalesce(u.network_a_token_expires_at, @now::timestamptz)::timestamptz AS expires_at,
          u.network_a_reminded_1d IS NOT DISTINCT FROM u.network_a_token_expires_at AS last_day;

-- name: UserReminderRecipient :one
-- The recipient of a reminder's mail (the e-mail and first name), while the
-- user's token still ends at @expires_at: a token renewed since needs no
-- reminder of the old end, and no row answers then.
SELECT u.email, u.first_name
FROM app_user AS u
WHERE u.id = @id
  AND u.network_a_token_expires_at = @expires_at::timestamptz
  AND u.email ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$';
