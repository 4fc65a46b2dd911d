-- A connection to network_a that lasts, and the ad account the user picks:
-- * app_user.network_a_token_expires_at: when the stored network_a token
--   ends (now + network_a's expires_in of the long-lived token the sign-in
--   exchanged it for); null when unknown (no app id and secret to exchange
--   it with).
-- * app_user.network_a_permissions_missing: the permissions adboost needs
--   that the user had not granted at the last sign-in (sorted).
-- * app_user.network_a_reminded_7d / network_a_reminded_1d: the token end a
--   reminder mail was sent for, 7 days and 1 day before it: each is sent
--   once per end, and a new token (a new end) is reminded of again.
-- * campaign.ad_account_id, ad_account_name, ad_account_currency,
--   ad_account_timezone: the network_a ad account the campaign spends
--   through, as network_a described it when it was chosen (save, create)
--   or fixed (the first boost, without a choice); null before. Its time
--   zone is the campaign's day: end_date ends at 23:59:59 there, and the
--   rules count their days and hours there unless they name a time zone.

-- +goose Up
ALTER TABLE app_user
    ADD COLUMN network_a_token_expires_at timestamptz,
    ADD COLUMN network_a_permissions_missing text[] NOT NULL DEFAULT '{}'
        CONSTRAINT app_user_network_a_permissions_missing_check CHECK (
            array_position(network_a_permissions_missing, NULL) IS NULL
            AND cardinality(network_a_permissions_missing) <= 32),
    ADD COLUMN network_a_reminded_7d timestamptz,
    ADD COLUMN network_a_reminded_1d timestamptz;

-- The reminders due are found by the token's end.
CREATE INDEX app_user_network_a_token_expires_idx ON app_user (network_a_token_expires_at)
    WHERE network_a_token_expires_at IS NOT NULL;

ALTER TABLE campaign
    ADD COLUMN ad_account_id text
        CONSTRAINT campaign_ad_account_id_check CHECK (ad_account_id ~ '^act_[0-9]{1,20}$'),
    ADD COLUMN ad_account_name text
        CONSTRAINT campaign_ad_account_name_check CHECK (char_length(ad_account_name) <= 255),
    ADD COLUMN ad_account_currency text
        CONSTRAINT campaign_ad_account_currency_check CHECK (ad_account_currency ~ '^[A-Z]{3}$'),
    ADD COLUMN ad_account_timezone text
        CONSTRAINT campaign_ad_account_timezone_check CHECK (char_length(ad_account_timezone) BETWEEN 1 AND 64),
    ADD CONSTRAINT campaign_ad_account_check CHECK (
        ad_account_id IS NOT NULL OR (ad_account_name IS NULL AND ad_account_currency IS NULL AND ad_account_timezone IS NULL));

-- The campaigns already started keep the account their network_a campaign
-- was made in.
UPDATE campaign AS c
SET ad_account_id = n.ad_account_id,
    ad_account_currency = n.currency
FROM network_a_campaign AS n
WHERE n.campaign_id = c.id
  AND n.ad_account_id ~ '^act_[0-9]{1,20}$';

-- +goose Down
ALTER TABLE campaign
    DROP CONSTRAINT campaign_ad_account_check,
    DROP COLUMN ad_account_timezone,
    DROP COLUMN ad_account_currency,
    DROP COLUMN ad_account_name,
    DROP COLUMN ad_account_id;
DROP INDEX app_user_network_a_token_expires_idx;
ALTER TABLE app_user
    DROP COLUMN network_a_reminded_1d,
    DROP COLUMN network_a_reminded_7d,
    DROP COLUMN network_a_permissions_missing,
    DROP COLUMN network_a_token_expires_at;
