-- The login limiter told checks in flight from failures apart by neither:
-- 30 concurrent sign-ins with the right password for one e-mail, or from one
-- office behind a NAT, got 20 × 429 "too many failed sign-ins" with a
-- Retry-After of 15 minutes, though nothing had failed. A reservation is now
-- `pending` until its password has been checked: a success deletes it as
-- before, a failure clears `pending`. A request that finds the limit reached
-- only by checks in flight waits for them (they settle within a bcrypt
-- check) instead of being refused; Retry-After counts failures only. A
-- reservation still pending long after its request's deadline counts as a
-- failure (its process went away before it could settle it).

-- +goose Up
ALTER TABLE login_attempt
    ADD COLUMN pending boolean NOT NULL DEFAULT false;

COMMENT ON COLUMN login_attempt.pending IS
    'true while the reserved password check runs; false once it failed (a success deletes the row). Rows written before 00095 are failures.';

-- +goose Down
ALTER TABLE login_attempt DROP COLUMN pending;
