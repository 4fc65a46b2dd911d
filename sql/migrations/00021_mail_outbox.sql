-- Outgoing mail. A mail is written here in the transaction of the change it
-- reports, and delivered afterwards by the sender loop of `serve`
-- (db/outbox): a mail is never lost when the SMTP server is down, and several
-- `serve` instances never claim the same mail.

-- +goose Up
CREATE TABLE mail_outbox (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    recipient       text NOT NULL CHECK (recipient ~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$' AND length(recipient) <= 254),
    -- One header line: no line breaks.
    subject         text NOT NULL CHECK (subject <> '' AND length(subject) <= 255 AND subject !~ '[\r\n]'),
    -- Plain text. Emptied once the mail is sent: it may carry a single-use link.
    body            text NOT NULL CHECK (length(body) <= 100000),
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- Delivery attempts so far; a claim counts one.
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    -- When the mail is due: now for a new mail, after the claim's lease while
    -- a sender works on it, after an exponential backoff when an attempt failed.
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text NOT NULL DEFAULT '' CHECK (length(last_error) <= 2000),
    sent_at         timestamptz
);

-- The sender's claim reads the due, unsent mails in order of this index.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL;

-- +goose Down
DROP TABLE mail_outbox;
