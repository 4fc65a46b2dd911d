-- A deleted boosted page's id must never name another user's campaign. The
-- engine keeps what it made on network_a for a campaign by its id
-- (network_a_campaign, network_a_attempt, 00081) after the campaign is
-- deleted; a campaign of another user under the same id would take over the
-- old network_a campaign, ad set and ads (and resume them with its own
-- token). Two ways led there:
--   1. identity_sync() set each sequence to max(id) + 1 after an import,
--      which moves it back below the ids of deleted rows, so the next
--      boosted-pages/create got a deleted campaign's id (and its history);
--   2. an import could name such an id, or move a campaign to another user.
-- identity_sync() now only ever moves a sequence forward, and a trigger
-- refuses a campaign row whose id network_a knows for another user. An
-- import that restores a deleted campaign of the same user stays possible
-- (it gets a new `created` entry, and the engine finds its network_a
-- objects again).

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
    -- Campaign ids also stay past those of deleted campaigns that the
    -- engine or the history still names (a database whose sequence the old
    -- identity_sync moved back below them is mended by the call below).
    -- campaign_history is read whole: imports are rare, the table modest.
    seq := pg_get_serial_sequence('campaign', 'id');
    EXECUTE format('SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM %s', seq)
        INTO next;
    PERFORM setval(seq, greatest(
        next,
        (SELECT coalesce(max(n.campaign_id), 0) + 1 FROM network_a_campaign AS n),
        (SELECT coalesce(max(h.campaign_id), 0) + 1 FROM campaign_history AS h)), false);
END
$$;
-- +goose StatementEnd

SELECT identity_sync();

-- +goose StatementBegin
-- campaign_id_not_reused refuses a new campaign row, or a campaign moved to
-- another user, whose id network_a_campaign holds for another user. A
-- campaign that stays with its user passes (an upsert of a live campaign
-- fires the INSERT trigger too: it exists, so that one passes).
CREATE FUNCTION campaign_id_not_reused() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM campaign AS c WHERE c.id = NEW.id) THEN
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM network_a_campaign AS n
               WHERE n.campaign_id = NEW.id AND n.user_id <> NEW.user_id) THEN
        RAISE EXCEPTION 'boosted page % ran on network_a for another user: its id is not used again', NEW.id
            USING ERRCODE = 'unique_violation',
                  HINT = 'give the boosted page an id that no other user''s boosted page has had',
                  CONSTRAINT = 'campaign_id_not_reused';
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER campaign_id_not_reused
    BEFORE INSERT ON campaign
    FOR EACH ROW EXECUTE FUNCTION campaign_id_not_reused();

CREATE TRIGGER campaign_user_not_changed_under_network_a
    BEFORE UPDATE OF user_id ON campaign
    FOR EACH ROW WHEN (NEW.user_id IS DISTINCT FROM OLD.user_id)
    EXECUTE FUNCTION campaign_id_not_reused();

-- +goose Down
DROP TRIGGER campaign_user_not_changed_under_network_a ON campaign;
DROP TRIGGER campaign_id_not_reused ON campaign;
DROP FUNCTION campaign_id_not_reused();
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
