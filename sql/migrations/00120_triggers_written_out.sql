-- The triggers of the catalogue's version (00052, 00090) and of each user's
-- campaign version (00053), one CREATE TRIGGER each: migrations 00052, 00053
-- and 00090 create them in loops of EXECUTE format(...) over table names,
-- where a search for the triggers of a table (`ON preset`) finds nothing.
-- Each is dropped and created again as it stands, with the same name,
-- events, transition tables and function, and enabled ALWAYS (so that it
-- also fires under session_replication_role = replica); PostgreSQL fires the
-- triggers of one event in name order, so the order is the same too.
-- sql/schema.sql lists every trigger with what it keeps.
--
-- preset_card.vertical is written as to_jsonb(ARRAY(...)) instead of a
-- jsonb_agg subquery cast to jsonb: PostgreSQL drops that cast when it stores
-- the view, and sqlc, which compiles the queries against the stored view
-- (sql/schema.sql), types a bare subquery column as `any`. The value is the
-- same: the label of each slug of the stored list in stored order, JSON null
-- for a slug without a label, [] for no slug.

-- +goose Up

-- The catalogue's version (00052): every change of what presets/browse, count
-- and available answer moves it on. An insert into agency, service or
-- industry changes no kept answer (00090), so those three fire on update,
-- delete and truncate only.
DROP TRIGGER catalogue_version_bump ON preset;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON preset
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE preset ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON boosting_condition;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON boosting_condition
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE boosting_condition ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON review;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON review
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE review ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON agency_service;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agency_service
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE agency_service ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON agency_industry;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agency_industry
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE agency_industry ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON vertical;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vertical
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE vertical ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON campaign_objective;
CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON campaign_objective
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE campaign_objective ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON agency;
CREATE TRIGGER catalogue_version_bump AFTER UPDATE OR DELETE OR TRUNCATE ON agency
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE agency ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON service;
CREATE TRIGGER catalogue_version_bump AFTER UPDATE OR DELETE OR TRUNCATE ON service
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE service ENABLE ALWAYS TRIGGER catalogue_version_bump;

DROP TRIGGER catalogue_version_bump ON industry;
CREATE TRIGGER catalogue_version_bump AFTER UPDATE OR DELETE OR TRUNCATE ON industry
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
ALTER TABLE industry ENABLE ALWAYS TRIGGER catalogue_version_bump;

-- Each user's campaign version (00053): every statement that changes a
-- user's campaigns, sources or links of posts to campaigns moves the
-- versions of the users it touched on, read from its transition tables.
DROP TRIGGER user_campaign_version_insert ON campaign;
CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON campaign
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

DROP TRIGGER user_campaign_version_update ON campaign;
CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON campaign
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

DROP TRIGGER user_campaign_version_delete ON campaign;
CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON campaign
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

DROP TRIGGER user_campaign_version_insert ON source;
CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON source
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_insert;

DROP TRIGGER user_campaign_version_update ON source;
CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON source
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_update;

DROP TRIGGER user_campaign_version_delete ON source;
CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON source
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE source ENABLE ALWAYS TRIGGER user_campaign_version_delete;

DROP TRIGGER user_campaign_version_insert ON boosted_post_campaign;
CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON boosted_post_campaign
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

DROP TRIGGER user_campaign_version_update ON boosted_post_campaign;
CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON boosted_post_campaign
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

DROP TRIGGER user_campaign_version_delete ON boosted_post_campaign;
CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON boosted_post_campaign
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION user_campaign_version_sync();
ALTER TABLE boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE OR REPLACE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    to_jsonb(ARRAY(
        SELECT v.label
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
        ORDER BY s.n
    )) AS vertical,
    p.price,
    p.original_price,
    p.version,
    p.private,
    p.platform,
    p.audience_targeting,
    p.location_json::text AS location_json,
    p.description,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN to_jsonb(coalesce(bc.keywords, '{}'::text[]))
         ELSE '[]'::jsonb END AS hashtags,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN coalesce(to_jsonb(bc.reach), 'null'::jsonb)
         ELSE '[]'::jsonb END AS reach,
    p.allowed_options,
    coalesce((
        SELECT round(avg(r.rating))
        FROM review AS r
        WHERE r.preset_id = p.id
    ), 0)::bigint AS rating,
    ao.object AS agency,
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
JOIN agency_object AS ao ON ao.agency_id = p.agency_id
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;

-- +goose Down
-- The triggers stay: they are the ones 00052, 00053 and 00090 made.
CREATE OR REPLACE VIEW preset_card AS
SELECT
    p.id,
    p.title,
    p.image,
    o.label AS campaign_objective,
    (
        SELECT coalesce(jsonb_agg(v.label ORDER BY s.n), '[]'::jsonb)
        FROM unnest(string_to_array(p.vertical, ',')) WITH ORDINALITY AS s (slug, n)
        LEFT JOIN vertical AS v ON v.slug = btrim(s.slug)
    )::jsonb AS vertical,
    p.price,
    p.original_price,
    p.version,
    p.private,
    p.platform,
    p.audience_targeting,
    p.location_json::text AS location_json,
    p.description,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN to_jsonb(coalesce(bc.keywords, '{}'::text[]))
         ELSE '[]'::jsonb END AS hashtags,
    CASE WHEN 'advanced_settings' = ANY (p.allowed_options)
         THEN coalesce(to_jsonb(bc.reach), 'null'::jsonb)
         ELSE '[]'::jsonb END AS reach,
    p.allowed_options,
    coalesce((
        SELECT round(avg(r.rating))
        FROM review AS r
        WHERE r.preset_id = p.id
    ), 0)::bigint AS rating,
    ao.object AS agency,
    p.number_of_purchases,
    p.active,
    p.agency_id
FROM preset AS p
JOIN campaign_objective AS o ON o.code = p.campaign_objective
JOIN agency_object AS ao ON ao.agency_id = p.agency_id
LEFT JOIN boosting_condition AS bc ON bc.preset_id = p.id;
