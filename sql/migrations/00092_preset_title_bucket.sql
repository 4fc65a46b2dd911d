-- Deep pages of presets/browse (issue 10, second round): "page 500 must not
-- cost 500 pages". OFFSET reads and drops every entry before the page
-- (25,000 index entries for page 500 of 50). preset_title_bucket cuts the
-- visible presets' title order into ranges ("buckets") and counts the
-- presets of each: bucket `lower` holds the visible presets whose title is
-- >= its lower bound and < the next bucket's (in the column's collation,
-- the order of presets/browse). The unfiltered browse sums the counts of the
-- buckets before the page (a window over about a thousand small rows),
-- starts the title-ordered index at the bound of the bucket that holds the
-- page's first row, and skips only the rows of that bucket before it (fewer
-- than a bucket's size, about 1,000).
--
-- Exact whatever the bounds: the bounds are fixed strings; a preset belongs
-- to the bucket of the greatest bound <= its title, and the bucket '' (every
-- title is >= '') always exists. Only the counts move, kept exact like the
-- tables of 00050 and 00054: the statement-level triggers of 00054 (enabled
-- ALWAYS; an update counts when visibility or the title changed) apply each
-- statement's changed rows in the same transaction, counters in key order.
-- The bounds only decide how even the buckets are (how many rows a deep page
-- skips): preset_title_bucket_rebalance(size) draws them again from the
-- catalogue, every size-th title, after a large import;
-- catalogue_derived_rebuild() does it with 1,000, and so does this
-- migration.

-- +goose Up
CREATE TABLE preset_title_bucket (
    lower   text PRIMARY KEY,
    presets bigint NOT NULL
);
INSERT INTO preset_title_bucket (lower, presets) VALUES ('', 0);

-- The bucket of a title: the greatest bound <= it (a backward step on the
-- primary key).
CREATE FUNCTION preset_title_bucket_of(title text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (SELECT max(b.lower) FROM preset_title_bucket AS b WHERE b.lower <= title);

-- preset_title_bucket_rebalance draws the bounds again: '' and the title of
-- every size-th visible preset in title order, and counts each bucket. It
-- locks preset against writers (SHARE) until the end of the transaction, so
-- that no concurrent statement changes a count meanwhile.
-- +goose StatementBegin
CREATE FUNCTION preset_title_bucket_rebalance(size integer) RETURNS void
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

-- preset_title_prefix_apply (00054) also moves the bucket counts: -1 for
-- each removed visible row (o), +1 for each added one (n).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_apply(o preset[], n preset[]) RETURNS void
LANGUAGE sql AS $$
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

-- catalogue_derived_rebuild also draws the buckets again.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
LANGUAGE sql AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_title_prefix;

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

    SELECT preset_title_bucket_rebalance(1000);
$$;
-- +goose StatementEnd

SELECT preset_title_bucket_rebalance(1000);
ANALYZE preset_title_bucket;

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION catalogue_derived_rebuild() RETURNS void
LANGUAGE sql AS $$
    TRUNCATE agency_object, preset_location, preset_tally, preset_agency_tally, preset_location_tally,
        preset_title_prefix;

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
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION preset_title_prefix_apply(o preset[], n preset[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM preset_title_prefix AS t
    USING unnest(o) AS x
    WHERE t.preset_id = x.id;

    INSERT INTO preset_title_prefix (prefix, preset_id, title)
    SELECT DISTINCT left(x.title, k.k), x.id, x.title
    FROM unnest(n) AS x
    CROSS JOIN generate_series(1, 3) AS k (k)
    WHERE x.active AND NOT x.private
    ON CONFLICT (prefix, preset_id) DO UPDATE SET title = EXCLUDED.title;
$$;
-- +goose StatementEnd
DROP FUNCTION preset_title_bucket_rebalance(integer);
DROP FUNCTION preset_title_bucket_of(text);
DROP TABLE preset_title_bucket;
