-- Each agency's stored object as json, the text it is answered with:
-- agencies/list, agencies/detail and every Preset object of presets/browse
-- and presets/available read it, and jsonb is written out again at every
-- read where json is sent as it is stored. agency_card still makes it as
-- jsonb, whose text is canonical (keys in one order, one space after each
-- colon and comma), so the stored text of two equal objects is the same:
-- agency_object_refresh compares the texts, json having no equality.

-- +goose Up
ALTER TABLE agency_object ALTER COLUMN object TYPE json USING object::json;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION agency_object_refresh(ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object::json
    FROM agency_card AS c
    WHERE c.id = ANY (ids)
    ORDER BY c.id
    ON CONFLICT (agency_id) DO UPDATE SET object = EXCLUDED.object
    WHERE agency_object.object::text IS DISTINCT FROM EXCLUDED.object::text;
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE agency_object ALTER COLUMN object TYPE jsonb USING object::jsonb;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION agency_object_refresh(ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object
    FROM agency_card AS c
    WHERE c.id = ANY (ids)
    ORDER BY c.id
    ON CONFLICT (agency_id) DO UPDATE SET object = EXCLUDED.object
    WHERE agency_object.object IS DISTINCT FROM EXCLUDED.object;
$$;
-- +goose StatementEnd
