-- name: UserProfile :one
-- The User object of the interface: the user with the name of their agency.
-- Absent numbers answer 0 and absent texts an empty string, as the declared types demand.
SELECT
    coalesce(u.snid, 0)::bigint       AS snid,
    u.email,
    u.first_name,
    u.last_name,
    u.phone_number,
    coalesce(u.agency_id, 0)::bigint  AS agency_id,
    coalesce(a.username, '')::text    AS agency_name,
    u.credit_balance::text            AS credit_balance
FROM app_user AS u
LEFT JOIN agency AS a ON a.id = u.agency_id
WHERE u.id = @id;

-- name: UserCredentialsByEmail :one
-- The password hash of the account with this e-mail, whatever its case.
-- Served by app_user_email_key.
SELECT id, password_hash
FROM app_user
WHERE lower(email) = lower(@email);

-- name: UserUpsert :batchexec
-- Inserts a user of an import file, or updates the user with that id. A file
-- never carries hashes: a row without a password keeps the stored one.
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
    snid           = EXCLUDED.snid,
    first_name     = EXCLUDED.first_name,
    last_name      = EXCLUDED.last_name,
    phone_number   = EXCLUDED.phone_number,
    phone_country  = EXCLUDED.phone_country,
    agency_id      = EXCLUDED.agency_id,
    credit_balance = EXCLUDED.credit_balance,
    updated_at     = now();
