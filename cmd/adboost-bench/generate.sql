-- The data set of `make bench-scale` (issue 10), made by PostgreSQL itself
-- with generate_series into a freshly migrated, empty database. The scale is
-- set by the caller in the session settings bench.presets (1,000,000 for the
-- issue's data set), bench.campaigns (100,000) and bench.posts (20,000);
-- every other size follows from them:
--
--   presets     N; 90% active, 5% of those private: 85.5% visible; title
--               "<Adjective> <noun> <n>"; objectives spread evenly; one or two
--               vertical slugs ("pets" rare, 0.5%); half with
--               advanced_settings (and then a boosting condition); US among
--               the countries of 41%, cities in 20%, a region in 15%;
--   agencies    N / 100 (at least 10), Zipf-spread over the presets (agency
--               k publishes about 1/k as many as agency 1), with services and
--               industries;
--   users       20,000 (at least 50); user 1 is the benchmark's user, with
--               the private presets of agency 2 available to it;
--   reviews     0 to 20 a preset, 10 on average (10 N in all), ratings 1..5;
--   campaigns   of user 1, over 200 network_a pages (sources) and 50
--               network_b accounts: 9 in 10 on a page, 1 in 10 on an account
--               only, 1 in 5 of those on a page also on an account; 2 in 3
--               active;
--   posts       of user 1 over its pages, with insights, each boosted in one
--               or two campaigns and in one of campaigns 1 to posts / 20
--               (20 posts each), with a year of days (boosted_post_day and
--               its sums by source and user).
--
-- Rows are made with foreign-key checks off (session_replication_role =
-- replica), every user trigger disabled (and restored to its state
-- afterwards) and the secondary indexes of the big tables dropped and built
-- again afterwards from their own definitions; the rows are consistent by
-- construction. Derived data that the triggers keep is rebuilt at the end by
-- catalogue_derived_rebuild() when the schema has it, and the cards are
-- written again in title order by preset_card_reorder(), then into a new
-- file without the rows that the reorder deleted.
-- Deterministic: setseed fixes random().

SET session_replication_role = replica;
SET maintenance_work_mem = '512MB';
SET synchronous_commit = off;
SELECT setseed(0.42);

CREATE TEMP TABLE bench_trigger ON COMMIT DROP AS
SELECT t.tgrelid::regclass::text AS tab, t.tgname AS name, t.tgenabled AS enabled
FROM pg_trigger AS t
JOIN pg_class AS c ON c.oid = t.tgrelid
WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace;

DO $$
DECLARE t record;
BEGIN
    FOR t IN SELECT * FROM bench_trigger LOOP
        EXECUTE format('ALTER TABLE %s DISABLE TRIGGER %I', t.tab, t.name);
    END LOOP;
END $$;

CREATE TEMP TABLE bench_index_def ON COMMIT DROP AS
SELECT c.conrelid::regclass::text AS tab, c.conname AS name,
       'ALTER TABLE ' || c.conrelid::regclass::text || ' ADD CONSTRAINT ' || quote_ident(c.conname) || ' '
           || pg_get_constraintdef(c.oid) AS def, true AS is_constraint
FROM pg_constraint AS c
WHERE c.conrelid IN ('preset'::regclass, 'review'::regclass, 'campaign'::regclass, 'boosted_post'::regclass)
  AND c.contype = 'u'
UNION ALL
SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid), false
FROM pg_index AS i
WHERE i.indrelid IN ('preset'::regclass, 'review'::regclass, 'campaign'::regclass, 'boosted_post'::regclass)
  AND NOT i.indisprimary
  AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = i.indexrelid);

-- Constraints that other foreign keys depend on (campaign_user_id_key,
-- boosted_post_user_id_key) stay; only the unique key of review goes.
DO $$
DECLARE d record;
BEGIN
    FOR d IN SELECT * FROM bench_index_def WHERE NOT is_constraint LOOP
        EXECUTE 'DROP INDEX ' || d.name;
    END LOOP;
    ALTER TABLE review DROP CONSTRAINT review_preset_user_key;
END $$;

INSERT INTO vertical (slug, label)
SELECT s, initcap(replace(s, '-', ' '))
FROM unnest('{fitness,health,food,fashion,beauty,travel,real-estate,education,tech,events,automotive,pets}'::text[]) AS s;

INSERT INTO service (id, name) SELECT i, 'Service ' || i FROM generate_series(1, 20) AS i;
INSERT INTO industry (id, name) SELECT i, 'Industry ' || i FROM generate_series(1, 20) AS i;

INSERT INTO agency (id, username, email, description, locations, listed)
SELECT a, 'agency-' || lpad(a::text, 6, '0'), 'agency' || a || '@example.com',
       'We boost ' || (ARRAY['fitness', 'food', 'travel', 'fashion'])[1 + a % 4] || ' brands',
       (ARRAY['New York', 'Prague', 'Berlin', 'London', 'Paris'])[1 + a % 5], true
FROM generate_series(1, greatest(10, current_setting('bench.presets')::int / 100)) AS a;

INSERT INTO agency_service (agency_id, service_id, agency_username)
SELECT a.id, s, a.username FROM agency AS a, generate_series(1, 3) AS k, LATERAL (SELECT 1 + (a.id * 7 + k * 5) % 20 AS s) AS x
WHERE k <= 1 + a.id % 3;
INSERT INTO agency_industry (agency_id, industry_id, agency_username)
SELECT a.id, 1 + (a.id * 3 + k * 7) % 20, a.username FROM agency AS a, generate_series(1, 2) AS k
WHERE k <= 1 + a.id % 2;

INSERT INTO app_user (id, email, first_name, last_name, agency_id)
SELECT u, 'user' || u || '@example.com', 'First' || u, 'Last' || u, CASE WHEN u = 1 THEN 2 END
FROM generate_series(1, greatest(50, least(20000, current_setting('bench.presets')::int / 20))) AS u;

INSERT INTO preset (id, agency_id, title, image, active, private, campaign_objective, vertical,
                    price, original_price, location_json, description, allowed_options,
                    number_of_purchases)
SELECT g,
       -- Zipf-like: agency k with probability about 1/k.
       least(a.n, greatest(1, floor(power(a.n, random()))::int)),
       initcap(w.adj[1 + (random() * 39)::int]) || ' ' || w.noun[1 + (random() * 39)::int] || ' ' || g,
       CASE WHEN g % 3 = 0 THEN '/img/preset/' || g || '.png' END,
       g % 10 <> 0,
       g % 1000 < 50 AND g % 10 <> 0,
       (ARRAY['OUTCOME_AWARENESS', 'OUTCOME_TRAFFIC', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS',
              'OUTCOME_APP_PROMOTION', 'OUTCOME_SALES'])[1 + g % 6],
       w.slug[1 + g % 11] || CASE WHEN g % 3 = 0 THEN ',' || w.slug[1 + (g / 3) % 11] ELSE '' END
           || CASE WHEN g % 200 = 7 THEN ',pets' ELSE '' END,
       (10 + g % 490)::numeric, (20 + g % 490)::numeric,
       jsonb_strip_nulls(jsonb_build_object(
           'countries', CASE WHEN random() < 0.41
                             THEN jsonb_build_array('US', w.country[1 + (random() * 29)::int])
                             ELSE jsonb_build_array(w.country[1 + (random() * 29)::int]) END,
           'cities', CASE WHEN random() < 0.20
                          THEN jsonb_build_array(jsonb_build_object(
                              'key', (5000000 + (random() * 4999)::int)::text, 'name', 'City', 'country_code', 'US'))
                     END,
           'regions', CASE WHEN random() < 0.15
                           THEN jsonb_build_array(jsonb_build_object(
                               'key', 'US-R' || (random() * 199)::int, 'name', 'Region', 'country_code', 'US'))
                      END)),
       'Preset number ' || g || ': a ready-made campaign.',
       CASE WHEN g % 2 = 0 THEN '{location,age,gender,advanced_settings}'::text[] ELSE '{location,age}' END,
       g % 50
FROM generate_series(1, current_setting('bench.presets')::int) AS g,
     (SELECT greatest(10, current_setting('bench.presets')::int / 100) AS n) AS a,
     (SELECT
         '{amazing,bold,bright,calm,classic,cool,daily,deep,direct,early,easy,epic,fast,fresh,global,golden,grand,great,happy,local,lucky,major,modern,native,noble,prime,pure,quick,rapid,royal,smart,solid,spring,sport,steady,summer,super,urban,vivid,winter}'::text[] AS adj,
         '{ads,audience,blast,boost,brand,buzz,campaign,click,crowd,deal,drive,echo,engine,event,fans,flow,focus,growth,impact,launch,lead,lift,loop,market,motion,pulse,push,reach,rocket,sale,signal,spark,story,surge,traffic,trend,view,voice,wave,wins}'::text[] AS noun,
         '{fitness,health,food,fashion,beauty,travel,real-estate,education,tech,events,automotive}'::text[] AS slug,
         '{CA,GB,DE,FR,ES,IT,NL,PL,CZ,AT,CH,SE,NO,DK,FI,IE,PT,BE,BR,MX,AR,AU,NZ,JP,KR,IN,ZA,EG,TR,UA}'::text[] AS country
     ) AS w;

INSERT INTO boosting_condition (preset_id, keywords, reach)
SELECT g, ARRAY['tag' || g % 100, 'boost'], g % 101
FROM generate_series(2, current_setting('bench.presets')::int, 2) AS g;

-- 0..20 reviews a preset (10 on average), each by a different user.
INSERT INTO review (preset_id, user_id, rating, message, created_at)
SELECT p, 1 + (p * 7 + k * 131) % u.n, 1 + (p * 3 + k * 7) % 5, '', timestamptz '2026-01-01' + p * interval '1 second'
FROM generate_series(1, current_setting('bench.presets')::int) AS p,
     generate_series(0, 19) AS k,
     (SELECT count(*) AS n FROM app_user) AS u
WHERE k < (p * 8) % 21;

-- User 1's network_a pages (1e9 + 1..200), the first 50 linked to a
-- network_b account, and 50 network_b accounts of their own.
INSERT INTO source (user_id, id, platform, name, picture, network_b_id, network_b_name)
SELECT 1, 1000000000 + s, 'network_a', 'Page ' || s, 'https://img.example/p' || s || '.png',
       CASE WHEN s <= 50 THEN 2000000000 + s END, CASE WHEN s <= 50 THEN 'Linked ' || s ELSE '' END
FROM generate_series(1, 200) AS s
UNION ALL
SELECT 1, 2000000100 + s, 'network_b', 'Account ' || s, '', NULL, ''
FROM generate_series(1, 50) AS s;

INSERT INTO campaign (id, user_id, page_id, network_b_id, preset_id, active, campaign_budget_value,
                      audience_targeting, hashtag, created_at)
SELECT i, 1,
       CASE WHEN i % 10 <> 0 THEN 1000000000 + x.page END,
       CASE WHEN i % 10 = 0 THEN 2000000100 + 1 + (i / 10) % 50
            WHEN i % 5 = 1 AND x.page <= 50 THEN 2000000000 + x.page END,
       1 + (i * 37) % current_setting('bench.presets')::int,
       i % 3 <> 0, 10 + i % 90,
       '{"countries": ["US"], "age_min": 18, "age_max": 65}', '#boost' || i % 10,
       timestamptz '2026-01-01' + i * interval '1 minute'
FROM generate_series(1, current_setting('bench.campaigns')::int) AS i,
     LATERAL (SELECT 1 + (i / 10 + i) % 200 AS page) AS x;

-- Each post with its row of counters, in one statement
-- (boosted_post_insight_fkey).
WITH post AS (
    INSERT INTO boosted_post (id, user_id, source_id, name, link, image, created)
    SELECT i, 1, 1000000000 + 1 + i % 200, 'Post ' || i, 'https://social.example/p/' || i, '',
           timestamptz '2026-01-01' + i * interval '10 minutes'
    FROM generate_series(1, current_setting('bench.posts')::int) AS i
    RETURNING id AS i, user_id
)
INSERT INTO boosted_post_insight (user_id, post_id, impressions, reach, engagement, clicks, spend, conversions)
SELECT user_id, i, 1000 + i % 1000, 800 + i % 500, 50 + i % 40, 20 + i % 13, (i % 400)::numeric / 4, i % 7
FROM post;

INSERT INTO boosted_post_campaign (user_id, campaign_id, post_id)
SELECT 1, 1 + (i * 5) % current_setting('bench.campaigns')::int, i
FROM generate_series(1, current_setting('bench.posts')::int) AS i
UNION
SELECT 1, 1 + (i * 11 + 3) % current_setting('bench.campaigns')::int, i
FROM generate_series(1, current_setting('bench.posts')::int, 2) AS i
UNION
-- Campaigns 1 to posts / 20 have 20 posts each besides (the stats' campaign).
SELECT 1, 1 + (i - 1) / 20, i
FROM generate_series(1, current_setting('bench.posts')::int) AS i;

-- A year of days of every post (ending yesterday), in USD, and their sums by
-- source, for the user and by campaign, as the engine keeps them.
INSERT INTO boosted_post_day (user_id, post_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT 1, i, 'USD', current_date - 1 - k, 10 + (i + k) % 50, 8 + (i + k) % 40, 1 + (i + k) % 9,
       (i + k) % 5, ((i + k) % 300)::numeric / 100, (i + k) % 3
FROM generate_series(1, current_setting('bench.posts')::int) AS i
CROSS JOIN generate_series(0, 364) AS k;

INSERT INTO boosted_source_day (user_id, source_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT d.user_id, p.source_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM boosted_post_day AS d
JOIN boosted_post AS p ON p.user_id = d.user_id AND p.id = d.post_id
GROUP BY d.user_id, p.source_id, d.currency, d.day;

INSERT INTO boosted_user_day (user_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT d.user_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM boosted_post_day AS d
GROUP BY d.user_id, d.currency, d.day;

INSERT INTO boosted_campaign_day (user_id, campaign_id, currency, day, impressions, reach, engagement, clicks, spend, conversions)
SELECT l.user_id, l.campaign_id, d.currency, d.day, sum(d.impressions), sum(d.reach), sum(d.engagement),
       sum(d.clicks), sum(d.spend), sum(d.conversions)
FROM boosted_post_campaign AS l
JOIN boosted_post_day AS d ON d.user_id = l.user_id AND d.post_id = l.post_id
GROUP BY l.user_id, l.campaign_id, d.currency, d.day;

DO $$
DECLARE d record;
BEGIN
    FOR d IN SELECT * FROM bench_index_def ORDER BY is_constraint DESC LOOP
        IF d.is_constraint THEN
            IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = d.name) THEN
                EXECUTE d.def;
            END IF;
        ELSE
            EXECUTE d.def;
        END IF;
    END LOOP;
END $$;

SELECT identity_sync();

-- The triggers as they were, and the derived data that they keep (they
-- were off above), when the schema has it.
DO $$
DECLARE t record;
BEGIN
    FOR t IN SELECT * FROM bench_trigger LOOP
        EXECUTE format('ALTER TABLE %s %s TRIGGER %I', t.tab,
            CASE t.enabled WHEN 'A' THEN 'ENABLE ALWAYS' WHEN 'R' THEN 'ENABLE REPLICA'
                           WHEN 'D' THEN 'DISABLE' ELSE 'ENABLE' END, t.name);
    END LOOP;
    IF to_regproc('catalogue_derived_rebuild') IS NOT NULL THEN
        PERFORM catalogue_derived_rebuild();
    END IF;
    -- The cards in title order, as an import of the whole catalogue
    -- leaves them (PresetCardReorderAfterImport).
    IF to_regproc('preset_card_reorder') IS NOT NULL THEN
        PERFORM preset_card_reorder();
    END IF;
END $$;

-- The reorder leaves the cards it deleted ahead of those it wrote, so the
-- table is twice its size. A table rewrite of ALTER TABLE copies only the
-- rows that this transaction sees, in the order they lie, into a new file
-- filled from its first page (and none into free space of earlier pages);
-- changing the table's persistence there and back is such a rewrite.
-- VACUUM FULL after the commit would keep the deleted cards while any other
-- session's snapshot might still see them. Scans without synchronized
-- starts read the table from its first page.
DO $$
BEGIN
    IF to_regclass('preset_card') IS NOT NULL THEN
        PERFORM set_config('synchronize_seqscans', 'off', true);
        ALTER TABLE preset_card SET UNLOGGED;
        ALTER TABLE preset_card SET LOGGED;
    END IF;
END $$;

RESET session_replication_role;
