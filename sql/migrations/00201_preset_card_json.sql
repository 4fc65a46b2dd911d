-- The pieces of one Preset object, as presets/browse answers them, in one
-- place: preset_card_json(id, public_base_url, fee) answers the preset's
-- stored card (preset_card.body), its image made absolute on `serve`'s base
-- URL (JSON null without one), its prices plus the fixed fee (price_json)
-- and its agency's object (agency_object); no row for an id without a card.
--
-- Each statement of presets/browse that one prepared statement answers
-- joins it LATERAL to its page of ids, so that the page and its objects
-- are one statement and one round trip; PresetCards joins it to the ids
-- that the other statements answer. It is one SELECT in a STABLE SQL
-- function, so PostgreSQL inlines it into each plan: a primary-key lookup
-- of preset_card and of agency_object per id, as a join written out in the
-- statement would make.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION preset_card_json(id bigint, public_base_url text, fee numeric)
    RETURNS TABLE (body json, image json, price json, original_price json, agency json)
    LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT c.body,
           coalesce(to_json(absolute_url(c.image, public_base_url)), 'null'::json),
           price_json(c.price, fee),
           price_json(c.original_price, fee),
           ao.object
    FROM preset_card AS c
    JOIN agency_object AS ao ON ao.agency_id = c.agency_id
    WHERE c.id = preset_card_json.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION preset_card_json(bigint, text, numeric);
