-- The location filter combined with the other filters of presets/browse
-- and presets/count, served from preset_location alone. Each location entry
-- carries its preset's objective, vertical list and agency (kept by
-- preset_derived_apply, which already runs when any of them changes), and
-- preset_visible_location_idx includes them: a location with a goal, a
-- vertical or an agency walks its entries in title order index-only, each
-- checked on the entry, where it probed the preset of every entry (a common
-- country with a rare vertical: tens of thousands of probes for a page).
-- preset_location_tally counts each location's visible presets per
-- objective and vertical list as preset_tally counts them all: the count
-- of a location with a goal and/or a vertical sums a few of its rows,
-- where it joined every entry of the location to its preset (the United
-- States with a vertical: half a second).
--
-- A title prefix with the other filters, likewise: each entry of
-- preset_title_prefix carries its preset's objective, vertical list and
-- agency too (preset_title_prefix_sync now runs when they change), and
-- preset_title_prefix_idx includes them, so a page of a prefix with other
-- filters walks the prefix's entries index-only. And preset_prefix_tally
-- counts the visible presets per first one to four characters of
-- title, objective and vertical list (kept by preset_derived_apply too), so
-- the count of such a prefix with a goal and/or a vertical sums a few rows
-- where it read every preset of the prefix (the prefix "S" with a vertical:
-- 60,000 presets, 67 ms). A longer prefix, or one with an agency, is
-- counted from preset_visible_title_prefix_idx, which now includes the
-- objective, the vertical list and the agency, index-only; a prefix with a
-- location from preset_location_title_pattern_idx, the location's entries
-- in the byte order of their titles (COLLATE "C", the order in which a
-- prefix is one range whatever the database's collation), index-only.

-- +goose Up
TRUNCATE preset_location, preset_location_tally;

ALTER TABLE preset_location
    ADD COLUMN campaign_objective text NOT NULL,
    ADD COLUMN vertical text NOT NULL,
    ADD COLUMN agency_id bigint NOT NULL;

DROP INDEX preset_visible_location_idx;
CREATE INDEX preset_visible_location_idx ON preset_location (key, title, preset_id)
    INCLUDE (kinds, campaign_objective, vertical, agency_id);

ALTER TABLE preset_location_tally
    DROP CONSTRAINT preset_location_tally_pkey,
    ADD COLUMN campaign_objective text NOT NULL,
    ADD COLUMN vertical text NOT NULL,
    ADD PRIMARY KEY (key, kinds, campaign_objective, vertical);

CREATE INDEX preset_location_title_pattern_idx ON preset_location (key, (title COLLATE "C"))
    INCLUDE (kinds, campaign_objective, vertical, agency_id, preset_id);

TRUNCATE preset_title_prefix;
ALTER TABLE preset_title_prefix
    ADD COLUMN campaign_objective text NOT NULL,
    ADD COLUMN vertical text NOT NULL,
    ADD COLUMN agency_id bigint NOT NULL;
DROP INDEX preset_title_prefix_idx;
CREATE INDEX preset_title_prefix_idx ON preset_title_prefix (prefix, title, preset_id)
    INCLUDE (campaign_objective, vertical, agency_id);

CREATE TABLE preset_prefix_tally (
    prefix             text NOT NULL,
    campaign_objective text NOT NULL,
    vertical           text NOT NULL,
    presets            bigint NOT NULL,
    PRIMARY KEY (prefix, campaign_objective, vertical)
);

DROP INDEX preset_visible_title_prefix_idx;
CREATE INDEX preset_visible_title_prefix_idx ON preset (title text_pattern_ops)
    INCLUDE (campaign_objective, vertical, agency_id)
    WHERE active AND NOT private;

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
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_apply(o public.preset[], n public.preset[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM preset_title_prefix AS t
    USING unnest(o) AS x
    WHERE t.preset_id = x.id;

    INSERT INTO preset_title_prefix (prefix, preset_id, title, campaign_objective, vertical, agency_id)
    SELECT DISTINCT left(x.title, k.k), x.id, x.title, x.campaign_objective, x.vertical, x.agency_id
    FROM unnest(n) AS x
    CROSS JOIN generate_series(1, 3) AS k (k)
    WHERE x.active AND NOT x.private
    ON CONFLICT (prefix, preset_id) DO UPDATE
    SET title = EXCLUDED.title, campaign_objective = EXCLUDED.campaign_objective,
        vertical = EXCLUDED.vertical, agency_id = EXCLUDED.agency_id;

    INSERT INTO preset_title_bucket AS b (lower, presets)
    SELECT d.lower, sum(d.delta)
    FROM (
        SELECT preset_title_bucket_of(x.title) AS lower, -1 AS delta
        FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT preset_title_bucket_of(x.title), 1
        FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.lower
    HAVING sum(d.delta) <> 0
    ORDER BY d.lower
    ON CONFLICT (lower) DO UPDATE SET presets = b.presets + EXCLUDED.presets;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM preset_title_prefix_apply('{}'::preset[], ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM preset_title_prefix_apply(ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o), '{}'::preset[]);
    ELSE
        PERFORM preset_title_prefix_apply(
            ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o WHERE NOT EXISTS (
                SELECT 1 FROM new_rows AS n
                WHERE n.id = o.id AND (n.active, n.private, n.title, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.campaign_objective, o.vertical, o.agency_id))),
            ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n WHERE NOT EXISTS (
                SELECT 1 FROM old_rows AS o
                WHERE o.id = n.id AND (n.active, n.private, n.title, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.campaign_objective, o.vertical, o.agency_id))));
    END IF;
    RETURN NULL;
END
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

INSERT INTO preset_location (key, preset_id, title, kinds, campaign_objective, vertical, agency_id)
SELECT k.key, p.id, p.title, k.kinds, p.campaign_objective, p.vertical, p.agency_id
FROM preset AS p
CROSS JOIN LATERAL location_keys(p.location_json) AS k
WHERE p.active AND NOT p.private;

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

-- +goose Down
TRUNCATE preset_location, preset_location_tally;

DROP TABLE preset_prefix_tally;

TRUNCATE preset_title_prefix;
DROP INDEX preset_title_prefix_idx;
ALTER TABLE preset_title_prefix
    DROP COLUMN campaign_objective,
    DROP COLUMN vertical,
    DROP COLUMN agency_id;
CREATE INDEX preset_title_prefix_idx ON preset_title_prefix (prefix, title, preset_id);

DROP INDEX preset_location_title_pattern_idx;

DROP INDEX preset_visible_title_prefix_idx;
CREATE INDEX preset_visible_title_prefix_idx ON preset (title text_pattern_ops) WHERE active AND NOT private;

DROP INDEX preset_visible_location_idx;
CREATE INDEX preset_visible_location_idx ON preset_location (key, title, preset_id) INCLUDE (kinds);

ALTER TABLE preset_location
    DROP COLUMN campaign_objective,
    DROP COLUMN vertical,
    DROP COLUMN agency_id;

ALTER TABLE preset_location_tally
    DROP CONSTRAINT preset_location_tally_pkey,
    DROP COLUMN campaign_objective,
    DROP COLUMN vertical,
    ADD PRIMARY KEY (key, kinds);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_derived_apply(o public.preset[], n public.preset[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM preset_location AS l
    USING unnest(o) AS x
    WHERE l.preset_id = x.id;

    INSERT INTO preset_location (key, preset_id, title, kinds)
    SELECT k.key, x.id, x.title, k.kinds
    FROM unnest(n) AS x
    CROSS JOIN LATERAL location_keys(x.location_json) AS k
    WHERE x.active AND NOT x.private
    ORDER BY k.key, x.id
    ON CONFLICT (key, preset_id) DO UPDATE SET title = EXCLUDED.title, kinds = EXCLUDED.kinds;

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

    INSERT INTO preset_location_tally AS t (key, kinds, presets)
    SELECT d.key, d.kinds, sum(d.delta)
    FROM (
        SELECT k.key, k.kinds, -1 AS delta
        FROM unnest(o) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
        UNION ALL
        SELECT k.key, k.kinds, 1
        FROM unnest(n) AS x CROSS JOIN LATERAL location_keys(x.location_json) AS k
        WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.key, d.kinds
    HAVING sum(d.delta) <> 0
    ORDER BY d.key, d.kinds
    ON CONFLICT (key, kinds) DO UPDATE SET presets = t.presets + EXCLUDED.presets;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_apply(o public.preset[], n public.preset[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM preset_title_prefix AS t
    USING unnest(o) AS x
    WHERE t.preset_id = x.id;

    INSERT INTO preset_title_prefix (prefix, preset_id, title)
    SELECT DISTINCT left(x.title, k.k), x.id, x.title
    FROM unnest(n) AS x
    CROSS JOIN generate_series(1, 3) AS k (k)
    WHERE x.active AND NOT x.private
    ON CONFLICT (prefix, preset_id) DO UPDATE SET title = EXCLUDED.title;

    INSERT INTO preset_title_bucket AS b (lower, presets)
    SELECT d.lower, sum(d.delta)
    FROM (
        SELECT preset_title_bucket_of(x.title) AS lower, -1 AS delta
        FROM unnest(o) AS x WHERE x.active AND NOT x.private
        UNION ALL
        SELECT preset_title_bucket_of(x.title), 1
        FROM unnest(n) AS x WHERE x.active AND NOT x.private
    ) AS d
    GROUP BY d.lower
    HAVING sum(d.delta) <> 0
    ORDER BY d.lower
    ON CONFLICT (lower) DO UPDATE SET presets = b.presets + EXCLUDED.presets;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM preset_title_prefix_apply('{}'::preset[], ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM preset_title_prefix_apply(ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o), '{}'::preset[]);
    ELSE
        PERFORM preset_title_prefix_apply(
            ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o WHERE NOT EXISTS (
                SELECT 1 FROM new_rows AS n
                WHERE n.id = o.id AND (n.active, n.private, n.title) IS NOT DISTINCT FROM (o.active, o.private, o.title))),
            ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n WHERE NOT EXISTS (
                SELECT 1 FROM old_rows AS o
                WHERE o.id = n.id AND (n.active, n.private, n.title) IS NOT DISTINCT FROM (o.active, o.private, o.title))));
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_title_prefix, preset_card;

    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object FROM agency_card AS c;

    INSERT INTO preset_location (key, preset_id, title, kinds)
    SELECT k.key, p.id, p.title, k.kinds
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

    INSERT INTO preset_location_tally (key, kinds, presets)
    SELECT l.key, l.kinds, count(*)
    FROM preset_location AS l
    GROUP BY l.key, l.kinds;

    INSERT INTO preset_title_prefix (prefix, preset_id, title)
    SELECT DISTINCT left(p.title, n.n), p.id, p.title
    FROM preset AS p
    CROSS JOIN generate_series(1, 3) AS n (n)
    WHERE p.active AND NOT p.private;

    INSERT INTO preset_card SELECT s.* FROM preset_card_source AS s;

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

INSERT INTO preset_location (key, preset_id, title, kinds)
SELECT k.key, p.id, p.title, k.kinds
FROM preset AS p
CROSS JOIN LATERAL location_keys(p.location_json) AS k
WHERE p.active AND NOT p.private;

INSERT INTO preset_location_tally (key, kinds, presets)
SELECT l.key, l.kinds, count(*)
FROM preset_location AS l
GROUP BY l.key, l.kinds;

INSERT INTO preset_title_prefix (prefix, preset_id, title)
SELECT DISTINCT left(p.title, n.n), p.id, p.title
FROM preset AS p
CROSS JOIN generate_series(1, 3) AS n (n)
WHERE p.active AND NOT p.private;
