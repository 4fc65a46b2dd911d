-- The catalogue's version (issue 10): a number that every change of what the
-- catalogue's answers are made of moves on, in the same transaction. An
-- adboost instance keeps answers of presets/browse, count and available in
-- memory under the version they were made at and serves them only while the
-- version it reads is the same, so N instances never serve a stale answer.
--
-- For DBAs: statement-level triggers (enabled ALWAYS, as in 00050) on every
-- table an answer reads bump the one row. The row is locked until commit, so
-- concurrent catalogue writes (imports, review submits) queue on it; an
-- answer read first reads the version, then the data, so that an answer is
-- never older than the version it is kept under.

-- +goose Up
CREATE TABLE catalogue_version (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    version bigint NOT NULL DEFAULT 1
);
INSERT INTO catalogue_version DEFAULT VALUES;

-- +goose StatementBegin
CREATE FUNCTION catalogue_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['preset', 'boosting_condition', 'review', 'agency', 'agency_service',
                             'agency_industry', 'service', 'industry', 'vertical', 'campaign_objective'] LOOP
        EXECUTE format('CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
                        FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump()', t);
        EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER catalogue_version_bump', t);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- presets/available depends on the user's agency.
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OF agency_id OR TRUNCATE ON app_user
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE app_user ENABLE ALWAYS TRIGGER catalogue_version_bump;

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['preset', 'boosting_condition', 'review', 'agency', 'agency_service',
                             'agency_industry', 'service', 'industry', 'vertical', 'campaign_objective',
                             'app_user'] LOOP
        EXECUTE format('DROP TRIGGER catalogue_version_bump ON %I', t);
    END LOOP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION catalogue_version_bump();
DROP TABLE catalogue_version;
