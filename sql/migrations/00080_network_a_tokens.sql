-- network_a access tokens at rest: the user's token and each
-- page's token, sealed with AES-256-GCM under TOKEN_ENCRYPTION_KEY (nonce ||
-- ciphertext || tag, see auth.TokenCipher). The database never holds a token
-- in clear text.

-- +goose Up
ALTER TABLE app_user
    -- The user's sealed token, replaced at every signup-sn and login-sn.
    ADD COLUMN network_a_token bytea
        CONSTRAINT app_user_network_a_token_check CHECK (octet_length(network_a_token) BETWEEN 28 AND 8192),
    -- When network_a last refused the stored token (OAuth error 190): the
    -- engine skips the user's campaigns until the next sign-in clears it.
    ADD COLUMN network_a_token_invalid_at timestamptz;

ALTER TABLE source
    -- The page's sealed token from /me/accounts, replaced at every signup-sn
    -- and login-sn (or set by an import). Only network_a pages have one.
    ADD COLUMN access_token bytea
        CONSTRAINT source_access_token_check CHECK (octet_length(access_token) BETWEEN 28 AND 8192),
    ADD CONSTRAINT source_access_token_platform_check CHECK (platform = 'network_a' OR access_token IS NULL);

-- +goose Down
ALTER TABLE source
    DROP CONSTRAINT source_access_token_platform_check,
    DROP COLUMN access_token;
ALTER TABLE app_user
    DROP COLUMN network_a_token_invalid_at,
    DROP COLUMN network_a_token;
