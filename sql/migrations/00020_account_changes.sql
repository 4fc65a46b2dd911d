-- Accounts: the preset a user chose when signing up with network_a, and the
-- pending change of a user's e-mail address, which takes effect only when the
-- link of the verification mail is opened.

-- +goose Up

-- The preset chosen on the sign-up page (signup-sn `preset_id`), kept for the
-- dashboard to offer first. NULL when none was chosen.
ALTER TABLE app_user
    ADD COLUMN signup_preset_id bigint REFERENCES preset (id) ON DELETE SET NULL;

-- Deleting a preset finds the users who chose it.
CREATE INDEX app_user_signup_preset_idx ON app_user (signup_preset_id) WHERE signup_preset_id IS NOT NULL;

-- At most one pending change a user: a new request replaces the old one, whose
-- link stops working. The link's token itself is never stored, only its
-- SHA-256; the row is deleted when the link is used, so a link works once.
CREATE TABLE email_change (
    user_id    bigint PRIMARY KEY REFERENCES app_user (id) ON DELETE CASCADE,
    new_email  text NOT NULL CHECK (new_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' AND length(new_email) <= 254),
    token_hash bytea NOT NULL CHECK (length(token_hash) = 32),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    CONSTRAINT email_change_token_hash_key UNIQUE (token_hash),
    CONSTRAINT email_change_expiry_check CHECK (expires_at > created_at)
);

-- +goose Down
DROP TABLE email_change;
DROP INDEX app_user_signup_preset_idx;
ALTER TABLE app_user DROP COLUMN signup_preset_id;
