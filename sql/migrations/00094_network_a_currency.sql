-- The Marketing API takes money in the minor unit of the ad account's
-- currency, as integers: cents for USD, yen for JPY, fils for KWD. The engine
-- used cents for every currency, so a JPY account's daily budget of 2,000 was
-- sent as 200,000 yen. It now keeps the currency that network_a gave for the
-- campaign's ad account and scales by ISO 4217's number of decimals.

-- +goose Up
ALTER TABLE network_a_campaign
    ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$');

COMMENT ON COLUMN network_a_campaign.currency IS
    'ISO 4217 code of the ad account''s currency as network_a gave it at the first boost; NULL (rows made before it was kept, or an account that gave none) counts as two decimals.';

-- +goose StatementBegin
-- currency_minor_units answers amount (in the currency's major unit) in its
-- minor unit, rounded half away from zero: ×1 for the ISO 4217 currencies
-- without decimals, ×1000 for those with three, ×100 for every other one.
CREATE FUNCTION currency_minor_units(amount numeric, currency text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT round(amount * CASE
        WHEN currency IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG',
                          'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF') THEN 1
        WHEN currency IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
        ELSE 100
    END)::bigint
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION currency_minor_units(numeric, text);
ALTER TABLE network_a_campaign DROP COLUMN currency;
