-- name: BillingDetail :one
-- The BillingInfo of a user: every field a string, an empty one where the
-- user has no billing row or left the field empty.
SELECT
    coalesce(b.full_name, '')::text     AS full_name,
    coalesce(b.phone, '')::text         AS phone,
    coalesce(b.phone_country, '')::text AS phone_country,
    coalesce(b.billing_email, '')::text AS billing_email,
    coalesce(b.company_name, '')::text  AS company_name,
    coalesce(b.street1, '')::text       AS street1,
    coalesce(b.street2, '')::text       AS street2,
    coalesce(b.city, '')::text          AS city,
    coalesce(b.state, '')::text         AS state,
    coalesce(b.zip, '')::text           AS zip,
    coalesce(b.country, '')::text       AS country,
    coalesce(b.company_id, '')::text    AS company_id,
    coalesce(b.vat_number, '')::text    AS vat_number
FROM (SELECT @user_id::bigint AS user_id) AS me
LEFT JOIN billing_info AS b ON b.user_id = me.user_id;

-- name: BillingUpsert :batchexec
-- Writes the whole billing row of a user (billing/save, import): every field
-- as given, an empty country as none. Country codes must be in geo_country
-- (billing_info_country_fkey, billing_info_phone_country_fkey).
INSERT INTO billing_info (
    user_id, full_name, phone, phone_country, billing_email, company_name,
    street1, street2, city, state, zip, country, company_id, vat_number
) VALUES (
    @user_id, @full_name, @phone, nullif(@phone_country::text, ''), @billing_email, @company_name,
    @street1, @street2, @city, @state, @zip, nullif(@country::text, ''), @company_id, @vat_number
)
ON CONFLICT (user_id) DO UPDATE SET
    full_name     = EXCLUDED.full_name,
    phone         = EXCLUDED.phone,
    phone_country = EXCLUDED.phone_country,
    billing_email = EXCLUDED.billing_email,
    company_name  = EXCLUDED.company_name,
    street1       = EXCLUDED.street1,
    street2       = EXCLUDED.street2,
    city          = EXCLUDED.city,
    state         = EXCLUDED.state,
    zip           = EXCLUDED.zip,
    country       = EXCLUDED.country,
    company_id    = EXCLUDED.company_id,
    vat_number    = EXCLUDED.vat_number,
    updated_at    = now();

-- name: BillingCountries :one
-- billing/countries: every ISO 3166 country of geo_country as one JSON
-- object, code → English name (jsonb keeps its keys sorted).
SELECT coalesce(jsonb_object_agg(c.code, c.name), '{}')::jsonb AS countries
FROM geo_country AS c;
