-- A Preset object's price as it is answered: the stored amount plus
-- `serve`'s fixed fee, as a JSON string with two decimals ("12.50").
--
-- The amounts are numeric(12,2) and the fee has at most two decimals
-- (SERVICE_FIXED_FEE is checked at start), so their sum has exactly two and
-- is written as it is: no rounding, and no to_json over a text value that
-- needs no escaping. PresetCards and PresetAvailable write both prices of
-- every card with it; as a one-expression SQL function PostgreSQL inlines
-- it into their plans.

-- +goose Up
CREATE FUNCTION price_json(amount numeric, fee numeric) RETURNS json
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ('"' || (amount + fee)::text || '"')::json;

-- +goose Down
DROP FUNCTION price_json(numeric, numeric);
