-- Each user's campaign version (issue 10): a number that moves on, in the
-- same transaction, with every change of what boosted-pages/sources and
-- count answer from: the user's campaigns, sources and links of posts to
-- campaigns. With the catalogue's version (00052; a preset's title is in a
-- BoostedPage) it keys the answers that an adboost instance keeps in memory,
-- so no instance serves a stale one.
--
-- For DBAs: statement-level triggers (enabled ALWAYS, as in 00050) collect
-- the users that a statement touched from its transition tables and bump
-- their rows, in user order. A user's own writes queue on the user's row
-- until commit; different users never wait for each other. A user with no
-- row yet is at version 0; rows of deleted users go with them.

-- +goose Up
CREATE TABLE user_campaign_version (
    user_id bigint PRIMARY KEY REFERENCES app_user (id) ON DELETE CASCADE,
    version bigint NOT NULL
);

-- user_campaign_version_bump moves the versions of the given users on. A
-- user that is being deleted (the campaigns go with it, ON DELETE CASCADE)
-- is no longer visible here and is left out.
-- +goose StatementBegin
CREATE FUNCTION user_campaign_version_bump(ids bigint[]) RETURNS void
LANGUAGE sql AS $$
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
LANGUAGE plpgsql AS $$
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

-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['campaign', 'source', 'boosted_post_campaign'] LOOP
        EXECUTE format('CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON %I
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync()', t);
        EXECUTE format('CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON %I
            REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync()', t);
        EXECUTE format('CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON %I
            REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync()', t);
        EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER user_campaign_version_insert,
            ENABLE ALWAYS TRIGGER user_campaign_version_update, ENABLE ALWAYS TRIGGER user_campaign_version_delete', t);
    END LOOP;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['campaign', 'source', 'boosted_post_campaign'] LOOP
        EXECUTE format('DROP TRIGGER user_campaign_version_insert ON %I', t);
        EXECUTE format('DROP TRIGGER user_campaign_version_update ON %I', t);
        EXECUTE format('DROP TRIGGER user_campaign_version_delete ON %I', t);
    END LOOP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION user_campaign_version_sync();
DROP FUNCTION user_campaign_version_bump(bigint[]);
DROP TABLE user_campaign_version;
