-- A new agency, user, service or industry changes no answer that adboost
-- keeps under the catalogue's version (00052): a preset that names the new
-- agency, an agency that lists the new service or industry, and a user's
-- first answer of presets/available all come with writes of their own
-- (preset, agency_service, agency_industry) that move the version on, and a
-- user id is never reused while answers under it may be kept (a deleted
-- user's DELETE moves the version on). So these inserts no longer bump the
-- version: signup-sn, which inserts an agency and a user, then no longer
-- queues on the version's row behind an open catalogue transaction (an
-- import), and no longer empties every instance's answer cache.
-- Inserts into preset, boosting_condition, review, agency_service,
-- agency_industry, vertical and campaign_objective still bump it: a new
-- vertical or objective label changes the answers of presets that already
-- carry that slug or code.

-- +goose Up
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['agency', 'service', 'industry'] LOOP
        EXECUTE format('DROP TRIGGER catalogue_version_bump ON %I', t);
        EXECUTE format('CREATE TRIGGER catalogue_version_bump AFTER UPDATE OR DELETE OR TRUNCATE ON %I
                        FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump()', t);
        EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER catalogue_version_bump', t);
    END LOOP;
END
$$;
-- +goose StatementEnd

DROP TRIGGER catalogue_version_bump ON app_user;
CREATE TRIGGER catalogue_version_bump AFTER DELETE OR UPDATE OF agency_id OR TRUNCATE ON app_user
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE app_user ENABLE ALWAYS TRIGGER catalogue_version_bump;

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['agency', 'service', 'industry'] LOOP
        EXECUTE format('DROP TRIGGER catalogue_version_bump ON %I', t);
        EXECUTE format('CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
                        FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump()', t);
        EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER catalogue_version_bump', t);
    END LOOP;
END
$$;
-- +goose StatementEnd

DROP TRIGGER catalogue_version_bump ON app_user;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OF agency_id OR TRUNCATE ON app_user
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE app_user ENABLE ALWAYS TRIGGER catalogue_version_bump;
