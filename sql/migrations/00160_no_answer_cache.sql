-- The answer cache of presets/browse, presets/count, presets/available,
-- boosted-pages/sources and boosted-pages/count is gone, and with it what
-- told its entries apart: catalogue_version (one row that every write of
-- the catalogue, reviews included, updated and queued on), each user's
-- user_campaign_version, their 20 triggers and 3 functions. Those reads
-- are answered by their statements at every request; sql/schema.sql's
-- header gives the figures that decided it.
--
-- Down makes the tables, functions and triggers again as they were, each
-- trigger enabled ALWAYS; the versions start again from 1 (an empty cache
-- is exact at any version).

-- +goose Up
DROP TRIGGER catalogue_version_bump ON agency;
DROP TRIGGER catalogue_version_bump ON agency_industry;
DROP TRIGGER catalogue_version_bump ON agency_service;
DROP TRIGGER catalogue_version_bump ON app_user;
DROP TRIGGER catalogue_version_bump ON boosting_condition;
DROP TRIGGER catalogue_version_bump ON campaign_objective;
DROP TRIGGER catalogue_version_bump ON industry;
DROP TRIGGER catalogue_version_bump ON preset;
DROP TRIGGER catalogue_version_bump ON review;
DROP TRIGGER catalogue_version_bump ON service;
DROP TRIGGER catalogue_version_bump ON vertical;
DROP TRIGGER user_campaign_version_delete ON boosted_post_campaign;
DROP TRIGGER user_campaign_version_delete ON campaign;
DROP TRIGGER user_campaign_version_delete ON source;
DROP TRIGGER user_campaign_version_insert ON boosted_post_campaign;
DROP TRIGGER user_campaign_version_insert ON campaign;
DROP TRIGGER user_campaign_version_insert ON source;
DROP TRIGGER user_campaign_version_update ON boosted_post_campaign;
DROP TRIGGER user_campaign_version_update ON campaign;
DROP TRIGGER user_campaign_version_update ON source;
DROP FUNCTION user_campaign_version_sync();
DROP FUNCTION user_campaign_version_bump(bigint[]);
DROP FUNCTION catalogue_version_bump();
DROP TABLE user_campaign_version;
DROP TABLE catalogue_version;

-- +goose Down
CREATE TABLE catalogue_version (
    id boolean DEFAULT true NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT catalogue_version_id_check CHECK (id)
);

CREATE TABLE user_campaign_version (
    user_id bigint NOT NULL,
    version bigint NOT NULL
);

ALTER TABLE ONLY catalogue_version
    ADD CONSTRAINT catalogue_version_pkey PRIMARY KEY (id);

ALTER TABLE ONLY user_campaign_version
    ADD CONSTRAINT user_campaign_version_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY user_campaign_version
    ADD CONSTRAINT user_campaign_version_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_user(id) ON DELETE CASCADE;

INSERT INTO catalogue_version (id, version) VALUES (true, 1);

-- +goose StatementBegin
CREATE FUNCTION catalogue_version_bump() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION user_campaign_version_bump(ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO user_campaign_version AS v (user_id, version)
    SELECT u.id, 1
    FROM app_user AS u
    WHERE u.id = ANY (ids)
    ORDER BY u.id
    ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION user_campaign_version_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    ids bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(DISTINCT n.user_id) INTO ids FROM new_rows AS n;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(DISTINCT o.user_id) INTO ids FROM old_rows AS o;
    ELSE
        SELECT array_agg(DISTINCT x.user_id) INTO ids
        FROM (SELECT o.user_id FROM old_rows AS o UNION SELECT n.user_id FROM new_rows AS n) AS x;
    END IF;
    IF ids IS NOT NULL THEN
        PERFORM user_campaign_version_bump(ids);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER catalogue_version_bump AFTER DELETE OR UPDATE OR TRUNCATE ON agency
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE agency ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON agency_industry
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE agency_industry ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON agency_service
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE agency_service ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER DELETE OR UPDATE OF agency_id OR TRUNCATE ON app_user
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE app_user ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON boosting_condition
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE boosting_condition ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON campaign_objective
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE campaign_objective ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER DELETE OR UPDATE OR TRUNCATE ON industry
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE industry ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON preset
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE preset ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON review
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE review ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER DELETE OR UPDATE OR TRUNCATE ON service
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE service ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER catalogue_version_bump AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON vertical
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();

ALTER TABLE vertical ENABLE ALWAYS TRIGGER catalogue_version_bump;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON boosted_post_campaign REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON campaign REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON source REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON boosted_post_campaign REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON campaign REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON source REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON boosted_post_campaign REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON campaign REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON source REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();

ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_update;
