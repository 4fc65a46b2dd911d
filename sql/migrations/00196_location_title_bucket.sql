-- Deep pages of a location, from its entries counted per title bucket.
--
-- Page 500 of the United States (presets/browse with a location alone)
-- skipped the 25,000 entries of the location's index before it, a few
-- milliseconds of index-only reading a request. preset_location_bucket
-- counts each location key's visible presets (per kinds) in each title
-- bucket of preset_title_bucket: a page after the first sums the key's
-- buckets in order, starts the location's index at the bound of the bucket
-- that holds the page's first entry, and skips only that bucket's entries
-- before it, as PresetBrowseDeep does for the whole catalogue.
--
-- preset_derived_apply, which keeps preset_location, keeps the counts in
-- the same statement; preset_title_bucket_rebalance, which draws the
-- bounds again, counts them again (and counts the buckets' presets from
-- their ranges of the title index, preset_title_bucket_members, instead of
-- a lookup of each title's bucket). The ordinal is the bucket's
-- (preset_title_bucket.ordinal); there is no foreign key: the rebalance
-- deletes every bucket, and checking each deleted bound against this
-- table would need an index of its own for nothing the two functions do
-- not already keep. The count has no CHECK: the triggers propose each
-- change as a row of its delta, negative for a removal, before it meets
-- the row it adds to, and PostgreSQL checks the proposed row.

-- +goose Up
CREATE TABLE preset_location_bucket (
    key     text NOT NULL,
    ordinal integer NOT NULL CHECK (ordinal >= 1),
    kinds   smallint NOT NULL CHECK (kinds BETWEEN 1 AND 7),
    presets bigint NOT NULL,
    -- The key carries the count: a location's buckets are summed in order
    -- from the index alone.
    PRIMARY KEY (key, ordinal, kinds) INCLUDE (presets)
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
$$;
-- +goose StatementEnd

-- preset_title_bucket_members: each visible preset with the ordinal of its
-- title's bucket, read as one range of preset_visible_title_idx per bucket
-- (the last bucket has no upper bound). preset_title_bucket_of answers the
-- same for one title, a lookup each: for every preset at once, the ranges
-- take a second or two at a million presets where a lookup each takes
-- tens of seconds.
-- +goose StatementBegin
CREATE FUNCTION preset_title_bucket_members() RETURNS TABLE (ordinal integer, preset_id bigint)
    LANGUAGE sql STABLE
    AS $$
    WITH r AS (
        SELECT b.ordinal, b.lower, lead(b.lower) OVER (ORDER BY b.ordinal) AS upper
        FROM preset_title_bucket AS b
    )
    SELECT r.ordinal, p.id
    FROM r
    JOIN preset AS p ON p.active AND NOT p.private AND p.title >= r.lower AND p.title < r.upper
    UNION ALL
    SELECT r.ordinal, p.id
    FROM r
    JOIN preset AS p ON p.active AND NOT p.private AND p.title >= r.lower
    WHERE r.upper IS NULL;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_bucket_rebalance(size integer) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF size IS NULL OR size < 1 THEN
        RAISE EXCEPTION 'preset_title_bucket_rebalance: size must be at least 1, not %', size;
    END IF;
    LOCK TABLE preset IN SHARE MODE;
    DELETE FROM preset_location_bucket;
    DELETE FROM preset_title_bucket;
    INSERT INTO preset_title_bucket (lower, ordinal, presets)
    SELECT b.lower, row_number() OVER (ORDER BY b.lower), 0
    FROM (SELECT '' AS lower
          UNION
          SELECT r.title
          FROM (SELECT p.title, row_number() OVER (ORDER BY p.title, p.id) - 1 AS n
                FROM preset AS p
                WHERE p.active AND NOT p.private) AS r
          WHERE r.n % size = 0) AS b;
    UPDATE preset_title_bucket AS b
    SET presets = c.presets
    FROM (SELECT m.ordinal, count(*) AS presets
          FROM preset_title_bucket_members() AS m
          GROUP BY m.ordinal) AS c
    WHERE b.ordinal = c.ordinal;
    INSERT INTO preset_location_bucket (key, ordinal, kinds, presets)
    SELECT l.key, m.ordinal, l.kinds, count(*)
    FROM preset_title_bucket_members() AS m
    JOIN preset_location AS l ON l.preset_id = m.preset_id
    GROUP BY l.key, m.ordinal, l.kinds;
END
$$;
-- +goose StatementEnd

INSERT INTO preset_location_bucket (key, ordinal, kinds, presets)
SELECT l.key, m.ordinal, l.kinds, count(*)
FROM preset_title_bucket_members() AS m
JOIN preset_location AS l ON l.preset_id = m.preset_id
GROUP BY l.key, m.ordinal, l.kinds;
ANALYZE preset_location_bucket;

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
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_bucket_rebalance(size integer) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF size IS NULL OR size < 1 THEN
        RAISE EXCEPTION 'preset_title_bucket_rebalance: size must be at least 1, not %', size;
    END IF;
    LOCK TABLE preset IN SHARE MODE;
    DELETE FROM preset_title_bucket;
    INSERT INTO preset_title_bucket (lower, ordinal, presets)
    SELECT b.lower, row_number() OVER (ORDER BY b.lower), 0
    FROM (SELECT '' AS lower
          UNION
          SELECT r.title
          FROM (SELECT p.title, row_number() OVER (ORDER BY p.title, p.id) - 1 AS n
                FROM preset AS p
                WHERE p.active AND NOT p.private) AS r
          WHERE r.n % size = 0) AS b;
    UPDATE preset_title_bucket AS b
    SET presets = c.presets
    FROM (SELECT preset_title_bucket_of(p.title) AS lower, count(*) AS presets
          FROM preset AS p
          WHERE p.active AND NOT p.private
          GROUP BY 1) AS c
    WHERE b.lower = c.lower;
END
$$;
-- +goose StatementEnd

DROP FUNCTION preset_title_bucket_members();
DROP TABLE preset_location_bucket;
