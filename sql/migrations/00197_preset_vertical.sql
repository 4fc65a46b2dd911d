-- A vertical alone, read from its slug's presets in title order.
--
-- The vertical filter is a literal substring of a preset's stored slug
-- list. presets/browse with a vertical alone walked the first presets of
-- every (objective, slug list) pair whose list contains it and sorted
-- their merge (PresetBrowseVertical): a rare vertical ("pets": 33 lists,
-- 4,000 presets) read every one of them for page 3, a common one nine
-- lists' first pages for one. A substring without a comma lies within one
-- slug, so a preset's list contains it exactly when one of its slugs
-- does: preset_vertical holds each visible preset's slugs (one row per
-- slug, with the title), and the presets of a vertical are the union of
-- the slugs that contain it, each one range of preset_vertical_title_idx
-- in title order; most verticals name one slug.
--
-- preset_derived_apply keeps it with preset_location (it runs when a
-- preset's visibility, title or slug list changes);
-- catalogue_derived_rebuild makes it again.

-- +goose Up
-- The table is filled before its keys and index are made (each built
-- once, the foreign key checked by one join, rather than row by row).
-- Its primary key leads with the preset, which the triggers' deletes and
-- the cascade from preset look up; the reads take the title index.
CREATE TABLE preset_vertical (
    slug      text NOT NULL CHECK (slug <> '' AND strpos(slug, ',') = 0),
    preset_id bigint NOT NULL,
    title     text NOT NULL
);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_derived_apply(o public.preset[], n public.preset[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM preset_location AS l
    USING unnest(o) AS x
    WHERE l.preset_id = x.id;

    INSERT INTO preset_location (key, preset_id, title, kinds, campaign_objective, vertical, agency_id)
    SELECT k.key, x.id, x.title, k.kinds, x.campaign_objective, x.vertical, x.agency_id
    FROM unnest(n) AS x
    CROSS JOIN LATERAL location_keys(x.location_json) AS k
    WHERE x.active AND NOT x.private
    ORDER BY k.key, x.id
    ON CONFLICT (key, preset_id) DO UPDATE
    SET title = EXCLUDED.title, kinds = EXCLUDED.kinds, campaign_objective = EXCLUDED.campaign_objective,
        vertical = EXCLUDED.vertical, agency_id = EXCLUDED.agency_id;

    INSERT INTO preset_tally AS t (campaign_objective, vertical, presets)
    SELECT d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT x.campaign_objective, x.vertical, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.campaign_objective, x.vertical, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.campaign_objective, d.vertical
    ON CONFLICT (campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_agency_tally AS t (agency_id, presets)
    SELECT d.agency_id, sum(d.delta)
    FROM (
        SELECT x.agency_id, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.agency_id, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.agency_id
    HAVING sum(d.delta) <> 0
    ORDER BY d.agency_id
    ON CONFLICT (agency_id) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_location_tally AS t (key, kinds, campaign_objective, vertical, presets)
    SELECT d.key, d.kinds, d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, x.campaign_objective, x.vertical, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, x.campaign_objective, x.vertical, 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.key, d.kinds, d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, d.kinds, d.campaign_objective, d.vertical
    ON CONFLICT (key, kinds, campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;
    INSERT INTO preset_prefix_tally AS t (prefix, campaign_objective, vertical, presets)
    SELECT d.prefix, d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT DISTINCT x.id, left(x.title, g.n) AS prefix, x.campaign_objective, x.vertical, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN generate_series(1, 4) AS g (n)
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT DISTINCT x.id, left(x.title, g.n), x.campaign_objective, x.vertical, 1
        FROM unnest(n) AS x CROSS JOIN generate_series(1, 4) AS g (n)
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.prefix, d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.prefix, d.campaign_objective, d.vertical
    ON CONFLICT (prefix, campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    -- The location's entries per title bucket (preset_location_bucket):
    -- each entry counted in the bucket of its title, as preset_title_bucket
    -- counts the presets.
    INSERT INTO preset_location_bucket AS b (key, ordinal, kinds, presets)
    SELECT d.key, t.ordinal, d.kinds, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, preset_title_bucket_of(x.title) AS lower, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, preset_title_bucket_of(x.title), 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    JOIN preset_title_bucket AS t ON t.lower = d.lower
    GROUP BY d.key, t.ordinal, d.kinds
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, t.ordinal, d.kinds
    ON CONFLICT (key, ordinal, kinds) DO UPDATE SET presets = b.presets + EXCLUDED.presets;

    -- Each visible preset's slugs (preset_vertical), again for the presets
    -- that change.
    DELETE FROM preset_vertical AS v
    USING unnest(o) AS x
    WHERE v.preset_id = x.id;

    INSERT INTO preset_vertical (slug, preset_id, title)
    SELECT DISTINCT s.slug, x.id, x.title
    FROM unnest(n) AS x
    CROSS JOIN LATERAL unnest(string_to_array(x.vertical, ',')) AS s (slug)
    WHERE x.active AND NOT x.private AND s.slug <> ''
    ORDER BY x.id, s.slug
    ON CONFLICT (preset_id, slug) DO UPDATE SET title = EXCLUDED.title;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_prefix_tally, preset_title_prefix, preset_card, preset_vertical;

    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object FROM agency_card AS c;

    INSERT INTO preset_location (key, preset_id, title, kinds, campaign_objective, vertical, agency_id)
    SELECT k.key, p.id, p.title, k.kinds, p.campaign_objective, p.vertical, p.agency_id
    FROM preset AS p
    CROSS JOIN LATERAL location_keys(p.location_json) AS k
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_tally (campaign_objective, vertical, presets)
    SELECT p.campaign_objective, p.vertical, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.campaign_objective, p.vertical;

    INSERT INTO preset_agency_tally (agency_id, presets)
    SELECT p.agency_id, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.agency_id;

    INSERT INTO preset_location_tally (key, kinds, campaign_objective, vertical, presets)
    SELECT l.key, l.kinds, l.campaign_objective, l.vertical, count(*)
    FROM preset_location AS l
    GROUP BY l.key, l.kinds, l.campaign_objective, l.vertical;

    INSERT INTO preset_prefix_tally (prefix, campaign_objective, vertical, presets)
    SELECT x.prefix, x.campaign_objective, x.vertical, count(*)
    FROM (SELECT DISTINCT p.id, left(p.title, g.n) AS prefix, p.campaign_objective, p.vertical
          FROM preset AS p
          CROSS JOIN generate_series(1, 4) AS g (n)
          WHERE p.active AND NOT p.private) AS x
    GROUP BY x.prefix, x.campaign_objective, x.vertical;

    INSERT INTO preset_title_prefix (prefix, preset_id, title, campaign_objective, vertical, agency_id)
    SELECT DISTINCT left(p.title, n.n), p.id, p.title, p.campaign_objective, p.vertical, p.agency_id
    FROM preset AS p
    CROSS JOIN generate_series(1, 3) AS n (n)
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_vertical (slug, preset_id, title)
    SELECT DISTINCT s.slug, p.id, p.title
    FROM preset AS p
    CROSS JOIN LATERAL unnest(string_to_array(p.vertical, ',')) AS s (slug)
    WHERE p.active AND NOT p.private AND s.slug <> '';

    INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

INSERT INTO preset_vertical (slug, preset_id, title)
SELECT DISTINCT s.slug, p.id, p.title
FROM preset AS p
CROSS JOIN LATERAL unnest(string_to_array(p.vertical, ',')) AS s (slug)
WHERE p.active AND NOT p.private AND s.slug <> '';
ALTER TABLE preset_vertical
    ADD PRIMARY KEY (preset_id, slug),
    ADD FOREIGN KEY (preset_id) REFERENCES preset (id) ON DELETE CASCADE;
CREATE INDEX preset_vertical_title_idx ON preset_vertical (slug, title, preset_id);
ANALYZE preset_vertical;

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_derived_apply(o public.preset[], n public.preset[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM preset_location AS l
    USING unnest(o) AS x
    WHERE l.preset_id = x.id;

    INSERT INTO preset_location (key, preset_id, title, kinds, campaign_objective, vertical, agency_id)
    SELECT k.key, x.id, x.title, k.kinds, x.campaign_objective, x.vertical, x.agency_id
    FROM unnest(n) AS x
    CROSS JOIN LATERAL location_keys(x.location_json) AS k
    WHERE x.active AND NOT x.private
    ORDER BY k.key, x.id
    ON CONFLICT (key, preset_id) DO UPDATE
    SET title = EXCLUDED.title, kinds = EXCLUDED.kinds, campaign_objective = EXCLUDED.campaign_objective,
        vertical = EXCLUDED.vertical, agency_id = EXCLUDED.agency_id;

    INSERT INTO preset_tally AS t (campaign_objective, vertical, presets)
    SELECT d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT x.campaign_objective, x.vertical, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.campaign_objective, x.vertical, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.campaign_objective, d.vertical
    ON CONFLICT (campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_agency_tally AS t (agency_id, presets)
    SELECT d.agency_id, sum(d.delta)
    FROM (
        SELECT x.agency_id, -1 AS delta FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT x.agency_id, 1 FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.agency_id
    HAVING sum(d.delta) <> 0
    ORDER BY d.agency_id
    ON CONFLICT (agency_id) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    INSERT INTO preset_location_tally AS t (key, kinds, campaign_objective, vertical, presets)
    SELECT d.key, d.kinds, d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, x.campaign_objective, x.vertical, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, x.campaign_objective, x.vertical, 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.key, d.kinds, d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, d.kinds, d.campaign_objective, d.vertical
    ON CONFLICT (key, kinds, campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;
    INSERT INTO preset_prefix_tally AS t (prefix, campaign_objective, vertical, presets)
    SELECT d.prefix, d.campaign_objective, d.vertical, sum(d.delta)
    FROM (
        SELECT DISTINCT x.id, left(x.title, g.n) AS prefix, x.campaign_objective, x.vertical, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN generate_series(1, 4) AS g (n)
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT DISTINCT x.id, left(x.title, g.n), x.campaign_objective, x.vertical, 1
        FROM unnest(n) AS x CROSS JOIN generate_series(1, 4) AS g (n)
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.prefix, d.campaign_objective, d.vertical
    HAVING sum(d.delta) <> 0
    ORDER BY d.prefix, d.campaign_objective, d.vertical
    ON CONFLICT (prefix, campaign_objective, vertical) DO UPDATE SET presets = t.presets + EXCLUDED.presets;

    -- The location's entries per title bucket (preset_location_bucket):
    -- each entry counted in the bucket of its title, as preset_title_bucket
    -- counts the presets.
    INSERT INTO preset_location_bucket AS b (key, ordinal, kinds, presets)
    SELECT d.key, t.ordinal, d.kinds, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, preset_title_bucket_of(x.title) AS lower, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, preset_title_bucket_of(x.title), 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    JOIN preset_title_bucket AS t ON t.lower = d.lower
    GROUP BY d.key, t.ordinal, d.kinds
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, t.ordinal, d.kinds
    ON CONFLICT (key, ordinal, kinds) DO UPDATE SET presets = b.presets + EXCLUDED.presets;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_prefix_tally, preset_title_prefix, preset_card;

    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object FROM agency_card AS c;

    INSERT INTO preset_location (key, preset_id, title, kinds, campaign_objective, vertical, agency_id)
    SELECT k.key, p.id, p.title, k.kinds, p.campaign_objective, p.vertical, p.agency_id
    FROM preset AS p
    CROSS JOIN LATERAL location_keys(p.location_json) AS k
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_tally (campaign_objective, vertical, presets)
    SELECT p.campaign_objective, p.vertical, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.campaign_objective, p.vertical;

    INSERT INTO preset_agency_tally (agency_id, presets)
    SELECT p.agency_id, count(*)
    FROM preset AS p
    WHERE p.active AND NOT p.private
    GROUP BY p.agency_id;

    INSERT INTO preset_location_tally (key, kinds, campaign_objective, vertical, presets)
    SELECT l.key, l.kinds, l.campaign_objective, l.vertical, count(*)
    FROM preset_location AS l
    GROUP BY l.key, l.kinds, l.campaign_objective, l.vertical;

    INSERT INTO preset_prefix_tally (prefix, campaign_objective, vertical, presets)
    SELECT x.prefix, x.campaign_objective, x.vertical, count(*)
    FROM (SELECT DISTINCT p.id, left(p.title, g.n) AS prefix, p.campaign_objective, p.vertical
          FROM preset AS p
          CROSS JOIN generate_series(1, 4) AS g (n)
          WHERE p.active AND NOT p.private) AS x
    GROUP BY x.prefix, x.campaign_objective, x.vertical;

    INSERT INTO preset_title_prefix (prefix, preset_id, title, campaign_objective, vertical, agency_id)
    SELECT DISTINCT left(p.title, n.n), p.id, p.title, p.campaign_objective, p.vertical, p.agency_id
    FROM preset AS p
    CROSS JOIN generate_series(1, 3) AS n (n)
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

DROP TABLE preset_vertical;
