-- presets/browse, presets/count and presets/available are answered by
-- their statements at every request, no longer from the answer cache: a
-- request that differs in any value never hit it, and every write of the
-- catalogue, reviews included, queued on its one global row
-- (catalogue_version). That row, its 11 triggers and its function go.
--
-- The cache keeps only the answers about one user's campaigns
-- (boosted-pages/sources and count), under the user's campaign version
-- alone. Their BoostedPage objects carry the title of the campaign's
-- preset, which the catalogue's version covered until now: trigger
-- user_campaign_version_preset moves on the version of every user with a
-- campaign of a preset whose title changes. (A deleted preset sets its
-- campaigns' preset_id to NULL, an update of campaign, whose triggers
-- already move the version on.)
--
-- Down makes the catalogue's version again as it was, from 1.

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
DROP FUNCTION catalogue_version_bump();
DROP TABLE catalogue_version;

-- +goose StatementBegin
CREATE FUNCTION user_campaign_version_preset_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    ids bigint[];
BEGIN
    SELECT array_agg(DISTINCT c.user_id) INTO ids
    FROM old_rows AS o
    JOIN new_rows AS n ON n.id = o.id
    JOIN campaign AS c ON c.preset_id = n.id
    WHERE n.title IS DISTINCT FROM o.title;
    IF ids IS NOT NULL THEN
        PERFORM user_campaign_version_bump(ids);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER user_campaign_version_preset AFTER UPDATE ON preset
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_preset_sync();
ALTER TABLE preset ENABLE ALWAYS TRIGGER user_campaign_version_preset;

-- +goose Down
DROP TRIGGER user_campaign_version_preset ON preset;
DROP FUNCTION user_campaign_version_preset_sync();

CREATE TABLE catalogue_version (
    id boolean DEFAULT true NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    CONSTRAINT catalogue_version_id_check CHECK (id)
);

ALTER TABLE ONLY catalogue_version
    ADD CONSTRAINT catalogue_version_pkey PRIMARY KEY (id);

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
