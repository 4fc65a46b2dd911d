-- Accounts that a stolen access token cannot take over, and a login limiter
-- that holds under concurrency.

-- +goose Up

-- Every access token carries the generation of its user at the time it was
-- issued (claim `gen`); the Bearer middleware accepts a token only while it
-- equals the stored one. A password change increments it, which ends every
-- token issued before the change, whatever the second it was issued in.
ALTER TABLE app_user
    ADD COLUMN token_generation bigint NOT NULL DEFAULT 0 CHECK (token_generation >= 0);

-- One row a password sign-in: reserved (inserted) before the password is
-- checked, under advisory locks on the e-mail and on the client address, so
-- that no more than the allowed number are checked in the window whatever the
-- concurrency, on any number of instances. A failed attempt keeps its row; a
-- successful one deletes it. email_counts is cleared by a later success for
-- the same e-mail: that e-mail's count starts again, while the client
-- address keeps counting the failures it made.
CREATE TABLE login_attempt (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_addr  text NOT NULL CHECK (length(client_addr) <= 64),
    email        text NOT NULL CHECK (length(email) <= 254 AND email = lower(email)),
    attempted_at timestamptz NOT NULL DEFAULT now(),
    email_counts boolean NOT NULL DEFAULT true
);

-- The two counts of the limiter, each a range of its own index, and the
-- clean-up of attempts that left the window.
CREATE INDEX login_attempt_email_idx ON login_attempt (email, attempted_at) WHERE email_counts;
CREATE INDEX login_attempt_addr_idx ON login_attempt (client_addr, attempted_at);
CREATE INDEX login_attempt_attempted_at_idx ON login_attempt (attempted_at);

-- The failures of the last window carry over to the new table.
INSERT INTO login_attempt (client_addr, email, attempted_at)
SELECT f.client_addr, lower(f.email), f.failed_at
FROM login_failure AS f
WHERE f.failed_at > now() - interval '15 minutes';

DROP TABLE login_failure;

-- +goose Down
CREATE TABLE login_failure (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_addr text NOT NULL CHECK (length(client_addr) <= 64),
    email       text NOT NULL CHECK (length(email) <= 254),
    failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failure_addr_idx ON login_failure (client_addr, failed_at);
CREATE INDEX login_failure_email_idx ON login_failure (email, failed_at);
CREATE INDEX login_failure_failed_at_idx ON login_failure (failed_at);
INSERT INTO login_failure (client_addr, email, failed_at)
SELECT client_addr, email, attempted_at FROM login_attempt;
DROP TABLE login_attempt;
ALTER TABLE app_user DROP COLUMN token_generation;
