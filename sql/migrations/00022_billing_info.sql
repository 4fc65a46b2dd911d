-- The billing details of a user (billing/detail, billing/save). Countries are
-- codes of geo_country, the ISO 3166 list that billing/countries answers.

-- +goose Up
CREATE TABLE billing_info (
    user_id       bigint PRIMARY KEY REFERENCES app_user (id) ON DELETE CASCADE,
    full_name     text NOT NULL DEFAULT '' CHECK (length(full_name) <= 255),
    phone         text NOT NULL DEFAULT '' CHECK (phone = '' OR phone ~ '^\+?[0-9 ()./-]{3,32}$'),
    -- NULL when not given (billing/detail answers an empty string).
    phone_country text REFERENCES geo_country (code),
    billing_email text NOT NULL DEFAULT ''
                  CHECK (billing_email = '' OR (billing_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' AND length(billing_email) <= 254)),
    company_name  text NOT NULL DEFAULT '' CHECK (length(company_name) <= 255),
    street1       text NOT NULL DEFAULT '' CHECK (length(street1) <= 255),
    street2       text NOT NULL DEFAULT '' CHECK (length(street2) <= 255),
    city          text NOT NULL DEFAULT '' CHECK (length(city) <= 255),
    state         text NOT NULL DEFAULT '' CHECK (length(state) <= 255),
    zip           text NOT NULL DEFAULT '' CHECK (length(zip) <= 255),
    -- NULL when not given (billing/detail answers an empty string).
    country       text REFERENCES geo_country (code),
    company_id    text NOT NULL DEFAULT '' CHECK (length(company_id) <= 255),
    vat_number    text NOT NULL DEFAULT '' CHECK (length(vat_number) <= 255),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- A country leaving geo_country finds its billing rows by these (foreign key
-- checks); no query filters on them.
CREATE INDEX billing_info_country_idx ON billing_info (country) WHERE country IS NOT NULL;
CREATE INDEX billing_info_phone_country_idx ON billing_info (phone_country) WHERE phone_country IS NOT NULL;

-- +goose Down
DROP TABLE billing_info;
