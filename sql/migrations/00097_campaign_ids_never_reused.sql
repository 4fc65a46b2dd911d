-- A deleted boosted page's id must never name another one. The engine keeps
-- what it made on network_a for a campaign by its id (network_a_campaign,
-- network_a_attempt, 00081) after the campaign is deleted, and the history
-- keeps its entries; a new campaign under the same id would take over the
-- old network_a campaign, ad set and ads (and resume them) and show the old
-- history. Two ways led there:
--   1. identity_sync() set each sequence to max(id) + 1 after an import,
--      which moves it back below the ids of deleted rows, so the next
--      boosted-pages/create got a deleted campaign's id;
--   2. an import could name a deleted campaign's id.
-- identity_sync() now only ever moves a sequence forward, and a trigger
-- refuses a new campaign row whose id a deleted campaign had.

-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION identity_sync() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    col  record;
    seq  text;
    next bigint;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns AS c
        WHERE c.table_schema = current_schema() AND c.is_identity = 'YES'
    LOOP
        seq := pg_get_serial_sequence(format('%I', col.table_name), col.column_name);
        -- The value the sequence would give next.
        EXECUTE format('SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM %s', seq)
            INTO next;
        -- Past the highest id in the table, never back.
        EXECUTE format('SELECT setval(%L, greatest(coalesce(max(%I), 0) + 1, %s), false) FROM %I',
                       seq, col.column_name, next, col.table_name);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- The trigger's look-up of a campaign id in the history (the existing index
-- leads with user_id).
CREATE INDEX campaign_history_campaign_id_idx ON campaign_history (campaign_id);

-- +goose StatementBegin
-- campaign_id_not_reused refuses to insert a campaign whose id belonged to a
-- deleted one: no campaign row has it, but the engine's network_a record or
-- the history has. An upsert of an existing campaign passes (the row exists).
CREATE FUNCTION campaign_id_not_reused() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM campaign AS c WHERE c.id = NEW.id)
       AND (EXISTS (SELECT 1 FROM network_a_campaign AS n WHERE n.campaign_id = NEW.id)
            OR EXISTS (SELECT 1 FROM campaign_history AS h WHERE h.campaign_id = NEW.id)) THEN
        RAISE EXCEPTION 'boosted page % was deleted: its id is not used again', NEW.id
            USING ERRCODE = 'unique_violation',
                  HINT = 'give the boosted page an id that no boosted page has had',
                  CONSTRAINT = 'campaign_id_not_reused';
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER campaign_id_not_reused
    BEFORE INSERT ON campaign
    FOR EACH ROW EXECUTE FUNCTION campaign_id_not_reused();

-- +goose Down
DROP TRIGGER campaign_id_not_reused ON campaign;
DROP FUNCTION campaign_id_not_reused();
DROP INDEX campaign_history_campaign_id_idx;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION identity_sync() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns AS c
        WHERE c.table_schema = current_schema() AND c.is_identity = 'YES'
    LOOP
        EXECUTE format(
            'SELECT setval(pg_get_serial_sequence(%L, %L), coalesce(max(%I), 0) + 1, false) FROM %I',
            col.table_name, col.column_name, col.column_name, col.table_name);
    END LOOP;
END
$$;
-- +goose StatementEnd
