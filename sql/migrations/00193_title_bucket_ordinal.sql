-- The title buckets of deep pages in their order by number.
--
-- PresetBrowseDeep sums the buckets' counts in the order of their bounds
-- (a running sum over preset_title_bucket) at every request. Ordered by
-- their text bounds, the thousand buckets of a million presets were
-- sorted by the collation at each request, most of the statement's time.
-- Column ordinal numbers the buckets in the order of their bounds (1 for
-- the bound ''); the bounds change only when
-- preset_title_bucket_rebalance draws them again, and it numbers them. The
-- running sum and the excluded preset's bucket are compared as integers.

-- +goose Up
ALTER TABLE preset_title_bucket ADD COLUMN ordinal integer;
UPDATE preset_title_bucket AS b
SET ordinal = r.ordinal
FROM (SELECT t.lower, row_number() OVER (ORDER BY t.lower) AS ordinal
      FROM preset_title_bucket AS t) AS r
WHERE b.lower = r.lower;
ALTER TABLE preset_title_bucket
    ALTER COLUMN ordinal SET NOT NULL,
    ADD CONSTRAINT preset_title_bucket_ordinal_key UNIQUE (ordinal),
    ADD CONSTRAINT preset_title_bucket_ordinal_check CHECK (ordinal >= 1);

-- The bounds drawn again, numbered in their order.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_bucket_rebalance(size integer) RETURNS void
LANGUAGE plpgsql AS $$
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

-- The counts moved as before; the row proposed for each bucket carries the
-- bucket's own ordinal (it always exists: every title has a bucket, at
-- least the one of ''), so only its count changes.
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

    INSERT INTO preset_title_bucket AS b (lower, ordinal, presets)
    SELECT d.lower, (SELECT t.ordinal FROM preset_title_bucket AS t WHERE t.lower = d.lower), sum(d.delta)
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

-- +goose Down
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
CREATE OR REPLACE FUNCTION preset_title_bucket_rebalance(size integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF size IS NULL OR size < 1 THEN
        RAISE EXCEPTION 'preset_title_bucket_rebalance: size must be at least 1, not %', size;
    END IF;
    LOCK TABLE preset IN SHARE MODE;
    DELETE FROM preset_title_bucket;
    INSERT INTO preset_title_bucket (lower, presets)
    SELECT '', 0
    UNION
    SELECT r.title, 0
    FROM (SELECT p.title, row_number() OVER (ORDER BY p.title, p.id) - 1 AS n
          FROM preset AS p
          WHERE p.active AND NOT p.private) AS r
    WHERE r.n % size = 0;
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

ALTER TABLE preset_title_bucket DROP COLUMN ordinal;
