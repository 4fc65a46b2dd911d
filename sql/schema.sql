-- adboost's schema as it stands: every table, view, function, index and
-- trigger after every migration of sql/migrations and River's own
-- migrations (the job tables of every job, mails included, in public). It
-- is the one place to read the schema;
-- sqlc compiles the queries of sql/queries against it (sqlc.yaml).
--
-- `make schema` writes everything below the marker line: it builds a
-- throwaway database on the test server (TEST_DATABASE_URL, else
-- 127.0.0.1:5432) with every migration, as `adboost serve` applies them,
-- and prints it with pg_dump --schema-only --no-owner --no-privileges of
-- PostgreSQL 15 (goose's table of applied versions left out), without
-- pg_dump's session settings, titles and version lines. CI (`make
-- check-schema`) fails when this file differs from what the migrations make.
-- A schema change is a new migration, then `make schema` and `make
-- generate`; only this header is edited by hand, and `make schema` keeps it.
--
-- Derived tables, triggers and caches
-- ===================================
-- Data kept from other data, so that a read costs a lookup rather than a
-- scan or an aggregate. For each: what it holds; what keeps it exact, in
-- the same transaction as the change it follows; the read it serves; and
-- what that read costs without it, at the scale of `make bench-scale`
-- (1,000,000 presets, 10,000,000 reviews, a user with 100,000 campaigns).
-- The triggers are statement-level (transition tables: a bulk import pays
-- once a statement) and enabled ALWAYS (they fire under
-- session_replication_role = replica too). catalogue_derived_rebuild()
-- makes the catalogue's tables again from the base tables: after a load with
-- the triggers off, and after a TRUNCATE of preset or agency.
--
-- agency_object (table, 00050, 00191)
--   Holds:   each agency's Agency object, ready (the value of view
--            agency_card), as json: the text it is answered with.
--   Kept by: triggers agency_object_insert on agency, agency_service,
--            agency_industry; agency_object_update on agency, agency_service,
--            agency_industry, service, industry; agency_object_delete on
--            agency_service, agency_industry.
--   Serves:  agencies/list, agencies/detail/{id}, and the agency nested in
--            every Preset object: presets/browse (preset_card_json), and
--            presets/available (AgencyObjects, each agency of the page once).
--   Without: a page of 50 Agency objects built by view agency_card takes
--            4.3 ms (one execution on the bench data), against a primary-key
--            lookup each; agencies/list answers 636-864 req/s distinct with
--            it. As jsonb (before 00191), written out again at each read:
--            CPU a request (adboost and PostgreSQL) 1.54 ms against 1.36
--            for agencies/list {}, 1.27 against 1.00 for browse goal.
--
-- agency.search_text (stored generated column, 00192)
--   Holds:   the agency's username, description and locations, lower-cased
--            and joined by U+001F; agency_search_text_idx (trigram) on it.
--   Kept by: PostgreSQL (GENERATED ALWAYS ... STORED).
--   Serves:  agencies/list's search (agency_matches: AgencyListSearch,
--            AgencyListByService, AgencyListByIndustry).
--   Without: three ILIKEs an agency, each lower-casing its text again:
--            agencies/list with filters 4.1 ms of CPU a request (adboost
--            and PostgreSQL) against 2.5 ms with it.
--
-- agency_service.agency_username, agency_industry.agency_username
-- (columns, 00198)
--   Holds:   the username of the entry's agency, and an index in (service or
--            industry, agency_username, agency_id) order
--            (agency_service_service_idx, agency_industry_industry_idx).
--   Kept by: the foreign keys (agency_id, agency_username) to agency (id,
--            username) ON UPDATE CASCADE: PostgreSQL writes a new username
--            to the agency's entries in the statement that changes it, and
--            refuses an entry with another.
--   Serves:  agencies/list with a service or an industry
--            (AgencyListByService, AgencyListByIndustry): the page is read
--            in order from the service's or the industry's entries and
--            ends with the page.
--   Without: every agency of the service or the industry (a tenth of the
--            directory, then a twentieth) joined and sorted for each page,
--            and, with a search, the planner free to start from the
--            agencies the search matches: agencies/list with filters
--            477-533 req/s distinct, 3.6-4.0 ms of CPU a request, against
--            985-1,013 req/s and 1.8-1.9 ms with it (make bench-scale, 10 s).
--
-- preset_card (table, 00170, 00190, 00204)
--   Holds:   each preset's card, as view preset_card_source makes it: the
--            Preset object's fields that depend on the catalogue alone as
--            one json value (body: the objective's label, the vertical
--            slugs' labels, the boosting condition's hashtags and reach,
--            the rounded average of the reviews, ...), and the columns the
--            reads add to it: the prices (the fixed fee is a setting of
--            `serve`), the image (made absolute with `serve`'s base URL),
--            the agency (its object is joined from agency_object at the
--            read) and the number of purchases.
--   Kept by: triggers preset_card_insert, preset_card_update on preset;
--            preset_card_insert, preset_card_update, preset_card_delete on
--            boosting_condition, review and vertical; preset_card_update on
--            campaign_objective (preset_card_refresh makes the cards of the
--            presets concerned again, their preset rows locked in id order
--            first, so that concurrent writers of one card take turns).
--   Serves:  the Preset objects of presets/browse (preset_card_json, which
--            the page's statement or PresetCards joins to the page's ids)
--            and presets/available (PresetAvailable).
--   Without: 50 cards from the view take 0.54-0.63 ms, 1,000 take
--            14.4-14.7 ms, against 0.16-0.17 and 4.2-5.1 ms from the table
--            (one execution each); make bench-scale, distinct, 10 s:
--            browse {} 865 req/s without it, 963 with it; browse country
--            690-799 and 1,023; browse goal 730-924 and 1,088; available
--            (1,000) 91-92 and 146. The body as json (00190), against the
--            same fields as fifteen columns decoded and encoded again by
--            `serve`: CPU a request (adboost and PostgreSQL) 1.31 ms
--            against 1.59 for browse {}, 10.3 against 12.2 ms for
--            available.
--   Order:   the cards lie on disk in their presets' title order
--            (preset_card_reorder, 00204: by an import of at least a tenth
--            of the catalogue, PresetCardReorderAfterImport, or by an
--            operator), fillfactor 90 keeping a card made again on its
--            page. The 50 cards of a page of a run of the title order lie
--            on 6 heap pages instead of 50, those of a goal's page on 20.
--   Without: (the cards in id order) make bench-scale, distinct, 10 s,
--            shared_buffers 128 MB: browse combination reads 22.9 heap
--            and index pages a request from outside shared_buffers against
--            15.6, and answers 666 req/s against 795; the routes whose
--            pages all fit in shared_buffers read none either way (browse
--            goal 1,441 and 1,633 req/s, title prefix 1,189 and 1,373,
--            single runs on a machine whose figures vary by a fifth);
--            pgbench of a goal's pages, 2 clients: 1,727-1,734 tps
--            against 1,814-1,835.
--
-- preset_location (table, 00050, 00180, 00195, 00203)
--   Holds:   one row per visible preset (active, not private) and location
--            key (country code, region or city key), with the title, the
--            objective, the vertical list and the agency.
--   Kept by: triggers preset_derived_insert, preset_derived_update,
--            preset_derived_delete on preset.
--   Serves:  the location filter of presets/browse and presets/count, alone
--            or with the others, read in title order from one index, each
--            filter checked on the entry (PresetBrowseLocation,
--            PresetBrowseLocationWalk, PresetBrowseAgencyGoal, PresetCount); with a
--            title prefix, where titles sort by code point (C, C.UTF-8;
--            CatalogueTitlesBytewise), the prefix's range of the title
--            order read up to the page (PresetBrowseLocationPrefixOrdered),
--            elsewhere the prefix's range of the titles' byte order, sorted
--            (preset_location_title_pattern_idx; PresetBrowseLocationPrefix
--            when the prefix's titles are fewer than those before it); with
--            an agency, the pair's range in title order
--            (preset_location_agency_idx, 00195); with a goal and no
--            agency, the pair's range (preset_location_objective_idx,
--            00203); where titles sort by code point, a prefix given with
--            them is one part of that range (PresetBrowseLocationWalk,
--            PresetCount).
--   Without: a city's first page by containment on location_json walks
--            the visible presets in title order: 262 ms (a common country's,
--            1.2 ms); counting the United States' presets that way takes
--            1.2 s. Without the objective, vertical and agency on each
--            entry, the first page of the United States with a goal read
--            every preset (a hashed subplan, 171 ms; 0.2 ms with them), and
--            with a rare vertical probed 37,837 presets (143 ms; 4 ms).
--            Without preset_location_agency_idx, an agency of 20,700
--            presets with Ireland (29,555 entries) and a vertical walked
--            the agency's presets, a hashed subplan of the country's
--            entries checking each: 58-71 ms warm, against 0.15-0.23 ms;
--            the other way, the location's entries in title order, read a
--            third of the catalogue's for a small agency with the United
--            States: 54 ms, against 0.04 ms. Sorting the prefix's range
--            where titles sort by code point: the United States with "S"
--            (62,729 entries) takes 33 ms, against 0.25-0.5 ms read in order.
--            Without preset_location_objective_idx, page 5 of South Africa
--            with a goal and a vertical walks the country's entries and
--            checks both on each: 2.7 ms, against 0.40 ms (one execution
--            each); such requests were the slowest left in browse
--            combination (distinct).
--
-- preset_tally, preset_agency_tally (tables, 00050),
-- preset_location_tally (table, 00050, 00180; its key carries the count,
-- 00194, so that a location's sum is read from the index alone)
--   Holds:   visible presets per (objective, vertical list), per agency, and
--            per (location key, kinds, objective, vertical list).
--   Kept by: triggers preset_derived_insert, preset_derived_update,
--            preset_derived_delete on preset (counters in key order).
--   Serves:  presets/count of one filter, and of a location with a goal
--            and/or a vertical (a lookup or a sum of a few rows); the
--            choice of index of presets/browse and count for a
--            combination of filters (PresetCount, PresetBrowseAgencyGoal);
--            the lists that hold a vertical (PresetBrowseVertical).
--   Without: counting the visible presets takes 179 ms, a vertical's
--            294 ms, the largest agency's 37 ms, the United States' 587 ms
--            (from preset_location), each against one lookup; presets/count
--            of one filter answers 894-1,217 req/s distinct with them. A
--            location with a vertical joined each of its entries to its
--            preset: 0.5-0.6 s for the United States under load.
--
-- preset_prefix_tally (table, 00180)
--   Holds:   visible presets per first one to four characters of title,
--            objective and vertical list.
--   Kept by: triggers preset_derived_insert, preset_derived_update,
--            preset_derived_delete on preset.
--   Serves:  presets/count of a title prefix of up to four characters,
--            alone or with a goal and/or a vertical (PresetCountPrefix,
--            PresetCount).
--   Without: such a count reads every preset of the prefix: "Cal" with a
--            vertical 67 ms, "S" with a goal 13 ms (one at a time); count
--            title prefix answered 427 req/s distinct, 1,383 with it.
--
-- preset_title_prefix (table, 00054, 00180, 00202)
--   Holds:   each visible preset's first one, two and three characters of
--            title, with the title, the objective, the vertical list and
--            the agency; indexed by prefix, then title
--            (preset_title_prefix_idx), and by prefix, objective, then
--            title (preset_title_prefix_objective_idx, 00202).
--   Kept by: triggers preset_title_prefix_insert, preset_title_prefix_update,
--            preset_title_prefix_delete on preset.
--   Serves:  the preset_name filter of presets/browse, in title order
--            (PresetBrowsePrefix, PresetBrowsePrefixWalk): a longer prefix is checked
--            on the entries of its first three characters, the other
--            filters on the entry's own columns; with a goal, the pair's
--            range of preset_title_prefix_objective_idx.
--   Without: the first page of the prefix `Sp` walks the title index,
--            122 ms, against 1.5 ms; of `Spri`, 114-147 ms against 1 ms (a
--            prefix that nothing matches reads all the entries of its
--            first three characters, 3-5 ms). Without the objective,
--            vertical and agency on each entry, page 5 of "Spor" with a
--            goal and a vertical probed each entry's preset: 65 ms, against
--            1.9 ms. Without preset_title_prefix_objective_idx, page 5 of
--            "Mode" with a goal and a vertical reads 19,446 entries, 5.8 ms
--            (one execution on the bench data), against 0.46 ms: a prefix
--            with a goal and a vertical made most of the slowest requests
--            of browse combination (distinct) without it.
--
-- preset_title_bucket (table, 00092, 00193)
--   Holds:   the visible presets' title order cut into ranges, numbered in
--            that order (ordinal), and the number of presets in each.
--   Kept by: the triggers of preset_title_prefix (counts);
--            preset_title_bucket_rebalance(size) draws the bounds again
--            (an import that leaves a bucket over 4,000 presets does) and
--            counts them from their ranges of the title index
--            (preset_title_bucket_members, 00196: 7.6 s at the bench's
--            scale with the locations' buckets, where a lookup of each
--            title's bucket took 59 s).
--   Serves:  deep pages of the unfiltered presets/browse (PresetBrowseDeep).
--   Without: page 500 of the unfiltered browse reads the 25,000 index
--            entries before it, 3.6 ms; with the buckets, about 1,000.
--
-- preset_location_bucket (table, 00196)
--   Holds:   each location key's visible presets per title bucket of
--            preset_title_bucket and kinds (284,559 rows, 25 MB, for
--            1,505,828 location entries at the bench's scale); the key
--            carries the count.
--   Kept by: triggers preset_derived_insert, preset_derived_update,
--            preset_derived_delete on preset (preset_derived_apply, with
--            preset_location); preset_title_bucket_rebalance counts them
--            again with the bounds.
--   Serves:  pages after the first of a location alone
--            (PresetBrowseLocationDeep): the location's buckets summed in
--            order, index-only, up to the page's, and its index read from
--            that bucket's bound.
--   Without: page 450-550 of the United States reads the 22,500-27,500
--            entries of preset_visible_location_idx before it: browse
--            country US page 500 answers 204-206 req/s distinct (9.1 ms of
--            CPU a request), against 762-781 (2.0-2.1 ms) with it (make
--            bench-scale, interleaved, the machine in its slow state).
--
-- preset_vertical (table, 00197)
--   Holds:   one row per visible preset and slug of its vertical list
--            (empty slugs left out, each slug once), with the title
--            (1,118,092 rows, 173 MB with its two indexes, at the bench's
--            scale).
--   Kept by: triggers preset_derived_insert, preset_derived_update,
--            preset_derived_delete on preset (preset_derived_apply, with
--            preset_location); the foreign key's cascade on a deleted
--            preset.
--   Serves:  presets/browse with a vertical alone that holds no comma
--            (PresetBrowseVerticalSlug): such a substring lies within one
--            slug, so the page is cut from the title-ordered presets of the
--            slugs that contain it (preset_vertical_title_idx), one range
--            as a rule; and with a title prefix, where titles sort by code
--            point, the prefix's range of each such slug
--            (PresetBrowseVerticalPrefixOrdered).
--   Without: the first presets of every (objective, slug list) pair whose
--            list contains the vertical, merged and sorted: page 3 of
--            "pets" (33 lists, 4,000 presets) read all 4,000, 7.9 ms,
--            against 0.4 ms; browse rare vertical 400-436 req/s distinct
--            (4.2-4.6 ms of CPU a request) against 837-978 (1.7-2.0 ms),
--            browse vertical 730-796 against 893-986 (make bench-scale,
--            interleaved). A title prefix with a vertical walks the
--            prefix's entries, checking the vertical on each: page 5 of
--            "Sp" with "automotive" 7.7 ms, against 0.4 ms from the slug's
--            range (one execution each).
--
-- user_campaign_version (table, 00053, 00120, 00160)
--   Holds:   a number per user that every change of what the user's
--            boosted-pages/sources and count answer moves on.
--   Kept by: triggers user_campaign_version_insert,
--            user_campaign_version_update, user_campaign_version_delete on
--            campaign, source, boosted_post_campaign;
--            user_campaign_version_preset on preset (a title that changes:
--            the users with a campaign of that preset); EngineStateSet (a
--            campaign's engine state or message that changes).
--   Serves:  the key of the answer cache (below) (UserCampaignVersion).
--   Without: (the answer cache's key; see the answer cache.)
--
-- answer cache (memory of each `adboost serve`, http/answercache.go: 8,192
-- answers of at most 4 kB and 32 of at most 1 MB)
--   Holds:   encoded answers of boosted-pages/sources and
--            boosted-pages/count, least recently used out first.
--   Kept by: user_campaign_version: an answer is served only at the
--            version it was made at.
--   Serves:  the same answer asked again: those two routes' filters take a
--            few values, so a user's dashboard asks the same answers again.
--   Without: (make bench-scale, 64 connections, 10 s a route, on the same
--            data) for a user with 100,000 campaigns on 250 sources,
--            sources falls from 2,379-2,858 req/s to 134-188 (9.4-13.6 ms
--            of CPU a request: each answer is 250 BoostedPage objects,
--            about 260 kB), and count from 7,739-11,576 to 448-990.
--            The catalogue's reads (presets/browse, count, available) are
--            not cached (00160): with every request distinct they gain
--            nothing from it (browse {} 888 req/s with it, 944 without;
--            count {} 3,483 and 3,998), and the version that kept them
--            exact was one row that every catalogue write, reviews
--            included, updated and queued on. A request repeated exactly
--            costs what a distinct one does: browse {} 6,826 req/s with
--            the cache, 884 without; count {} 20,312 and 4,745.
--
-- boosted_post_insight (table, 00031, 00199) and network_a_campaign.spend
-- (00106)
--   Holds:   each post's insight counters, the sum over its ads
--            (network_a_ad_insight), with the post's owner: one row for
--            every post (zeros until it has statistics); each network_a
--            campaign's spend so far.
--   Kept by: the statement that writes the ads' insights
--            (NetworkAAdInsightSync), no trigger; an import writes a post's
--            counters as given (BoostedPostInsightUpsert). The statements
--            that record a post write its row of zeros (NetworkAAttemptAdsDone,
--            BoostedPostUpsert); boosted_post_insight_fkey, checked at
--            commit, refuses a post without one, and the row's own foreign
--            key (user_id, post_id) follows its post's owner.
--   Serves:  boosted-posts/batch-insights (BoostedPostInsightsSum: one
--            index-only scan of the owner's range of
--            boosted_post_insight_user_idx, which includes the counters,
--            over the ids); the engine's spend cap (EngineCampaignLoad).
--   Without: the owner and a row for every post, batch-insights of 1,000
--            ids is a nested loop over boosted_post (user_id, id) and this
--            table's primary key: 670 statements a second (pgbench, 2
--            clients) against 1,450-2,350 with them. The counters themselves
--            are not measured without: the bench data imports each post's
--            counters and has no ad rows to sum.
--
-- boosted_post_day, boosted_source_day, boosted_user_day (tables, 00113)
-- and boosted_campaign_day (table, 00115)
--   Holds:   a post's, a source's, a user's and a campaign's posts' figures
--            per day and currency, summed over the ads' days
--            (network_a_ad_day).
--   Kept by: the statement that writes the ads' days (NetworkAAdDaysSync),
--            no trigger; the statements that link a post to a campaign or
--            unlink it (NetworkAAttemptAdsDone, BoostedPostCampaignsReplace)
--            for the campaign's; an import's post days (PostDaysImport,
--            PostDaysResum).
--   Serves:  boosted-pages/stats (StatsOfUser, StatsOfSource,
--            StatsOfCampaign, StatsOfPosts): a user's, a source's or a
--            campaign's year is 366 rows a currency.
--   Without: a year of a whole account (20,000 posts) summed from
--            boosted_post_day reads 7.3 M rows, 4.2 s, where the route
--            answers at p99 44-94 ms at 64 connections; a campaign's 30
--            days from its posts' days take 36 ms, where the whole request
--            costs 0.2-0.3 ms of CPU (5,355-7,331 req/s).
--
-- Other triggers
-- --------------
-- campaign_id_not_reused, campaign_user_not_changed_under_network_a (on
--   campaign, 00097): refuse a campaign id that network_a knows for another
--   user, so that a deleted campaign's network_a objects never pass to
--   someone else.
--
-- ==== Below: written by `make schema` (pg_dump --schema-only of PostgreSQL 15). Edit only the header above. ====

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;

COMMENT ON EXTENSION unaccent IS 'text search dictionary that removes accents';

CREATE TYPE public.preset_card_body AS (
	id bigint,
	title text,
	campaign_objective text,
	vertical jsonb,
	version integer,
	private boolean,
	platform text,
	audience_targeting text,
	location_json text,
	description text,
	hashtags jsonb,
	reach jsonb,
	allowed_options text[],
	rating bigint
);

CREATE TYPE public.river_job_state AS ENUM (
    'available',
    'cancelled',
    'completed',
    'discarded',
    'pending',
    'retryable',
    'running',
    'scheduled'
);

CREATE FUNCTION public.absolute_url(path text, base_url text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN ((path IS NULL) OR (path ~ '^[A-Za-z][A-Za-z0-9+.-]*:'::text)) THEN path WHEN (path ~~ '//%'::text) THEN ((split_part(base_url, ':'::text, 1) || ':'::text) || path) ELSE ((rtrim(base_url, '/'::text) || '/'::text) || ltrim(path, '/'::text)) END;

CREATE FUNCTION public.like_escape(s text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN replace(replace(replace(s, '\'::text, '\\'::text), '%'::text, '\%'::text), '_'::text, '\_'::text);

CREATE FUNCTION public.agency_matches(search_text text, search text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((search IS NULL) OR ((search_text ~~ (('%'::text || public.like_escape(lower(search))) || '%'::text)) AND (strpos(search, ''::text) = 0)));

CREATE FUNCTION public.agency_object_refresh(ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO agency_object (agency_id, object)
    SELECT c.id, c.object::json
    FROM agency_card AS c
    WHERE c.id = ANY (ids)
    ORDER BY c.id
    ON CONFLICT (agency_id) DO UPDATE SET object = EXCLUDED.object
    WHERE agency_object.object::text IS DISTINCT FROM EXCLUDED.object::text;
$$;

CREATE FUNCTION public.agency_object_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    ids bigint[];
BEGIN
    IF TG_TABLE_NAME = 'agency' THEN
        SELECT array_agg(n.id) INTO ids FROM new_rows AS n;
    ELSIF TG_TABLE_NAME IN ('agency_service', 'agency_industry') THEN
        IF TG_OP = 'INSERT' THEN
            SELECT array_agg(DISTINCT n.agency_id) INTO ids FROM new_rows AS n;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(DISTINCT o.agency_id) INTO ids FROM old_rows AS o;
        ELSE
            SELECT array_agg(DISTINCT x.agency_id) INTO ids
            FROM (SELECT o.agency_id FROM old_rows AS o UNION SELECT n.agency_id FROM new_rows AS n) AS x;
        END IF;
    ELSIF TG_TABLE_NAME = 'service' THEN
        SELECT array_agg(DISTINCT x.agency_id) INTO ids
        FROM agency_service AS x WHERE x.service_id IN (SELECT n.id FROM new_rows AS n);
    ELSIF TG_TABLE_NAME = 'industry' THEN
        SELECT array_agg(DISTINCT x.agency_id) INTO ids
        FROM agency_industry AS x WHERE x.industry_id IN (SELECT n.id FROM new_rows AS n);
    END IF;
    IF ids IS NOT NULL THEN
        PERFORM agency_object_refresh(ids);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.campaign_id_not_reused() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM campaign AS c WHERE c.id = NEW.id) THEN
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM network_a_campaign AS n
               WHERE n.campaign_id = NEW.id AND n.user_id <> NEW.user_id) THEN
        RAISE EXCEPTION 'boosted page % ran on network_a for another user: its id is not used again', NEW.id
            USING ERRCODE = 'unique_violation',
                  HINT = 'give the boosted page an id that no other user''s boosted page has had',
                  CONSTRAINT = 'campaign_id_not_reused';
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION public.campaign_rules_money(v jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN (v IS NULL) THEN true WHEN (jsonb_typeof(v) <> 'string'::text) THEN false WHEN ((v #>> '{}'::text[]) !~ '^[0-9]{1,10}\.[0-9]{2}$'::text) THEN false ELSE (((v #>> '{}'::text[]))::numeric > (0)::numeric) END;

CREATE FUNCTION public.campaign_rules_whole(v jsonb, lo bigint, hi bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN (v IS NULL) THEN true WHEN (jsonb_typeof(v) <> 'number'::text) THEN false ELSE ((scale((v)::numeric) = 0) AND (((v)::numeric >= (lo)::numeric) AND ((v)::numeric <= (hi)::numeric))) END;

CREATE FUNCTION public.campaign_rules_valid(r jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN (r IS NULL) THEN true WHEN (jsonb_typeof(r) <> 'object'::text) THEN false ELSE (((r - ARRAY['min_reactions'::text, 'min_comments'::text, 'min_shares'::text, 'min_engagement_rate'::text, 'post_age_min_hours'::text, 'post_age_max_hours'::text, 'content_types'::text, 'exclude_keywords'::text, 'hours'::text, 'post_budget'::text, 'post_days'::text, 'max_posts_per_day'::text, 'spend_cap'::text]) = '{}'::jsonb) AND public.campaign_rules_whole((r -> 'min_reactions'::text), (0)::bigint, (2147483647)::bigint) AND public.campaign_rules_whole((r -> 'min_comments'::text), (0)::bigint, (2147483647)::bigint) AND public.campaign_rules_whole((r -> 'min_shares'::text), (0)::bigint, (2147483647)::bigint) AND CASE WHEN (NOT (r ? 'min_engagement_rate'::text)) THEN true WHEN (jsonb_typeof((r -> 'min_engagement_rate'::text)) <> 'number'::text) THEN false ELSE (((((r -> 'min_engagement_rate'::text))::numeric >= (0)::numeric) AND (((r -> 'min_engagement_rate'::text))::numeric <= (1000)::numeric)) AND (((r -> 'min_engagement_rate'::text))::numeric = round(((r -> 'min_engagement_rate'::text))::numeric, 2))) END AND public.campaign_rules_whole((r -> 'post_age_min_hours'::text), (0)::bigint, (2147483647)::bigint) AND public.campaign_rules_whole((r -> 'post_age_max_hours'::text), (0)::bigint, (2147483647)::bigint) AND CASE WHEN (NOT ((r ? 'post_age_min_hours'::text) AND (r ? 'post_age_max_hours'::text))) THEN true WHEN ((jsonb_typeof((r -> 'post_age_min_hours'::text)) <> 'number'::text) OR (jsonb_typeof((r -> 'post_age_max_hours'::text)) <> 'number'::text)) THEN false ELSE (((r -> 'post_age_min_hours'::text))::numeric <= ((r -> 'post_age_max_hours'::text))::numeric) END AND CASE WHEN (NOT (r ? 'content_types'::text)) THEN true WHEN (jsonb_typeof((r -> 'content_types'::text)) <> 'array'::text) THEN false ELSE ((jsonb_array_length((r -> 'content_types'::text)) >= 1) AND ((r -> 'content_types'::text) <@ '["photo", "video", "link", "text"]'::jsonb) AND ((SELECT count(DISTINCT t.value) AS count FROM jsonb_array_elements((campaign_rules_valid.r -> 'content_types'::text)) t(value)) = jsonb_array_length((r -> 'content_types'::text)))) END AND CASE WHEN (NOT (r ? 'exclude_keywords'::text)) THEN true WHEN (jsonb_typeof((r -> 'exclude_keywords'::text)) <> 'array'::text) THEN false ELSE (((jsonb_array_length((r -> 'exclude_keywords'::text)) >= 1) AND (jsonb_array_length((r -> 'exclude_keywords'::text)) <= 50)) AND (NOT (EXISTS (SELECT 1 FROM jsonb_array_elements((campaign_rules_valid.r -> 'exclude_keywords'::text)) k(value) WHERE ((jsonb_typeof(k.value) <> 'string'::text) OR ((length((k.value #>> '{}'::text[])) < 1) OR (length((k.value #>> '{}'::text[])) > 100)) OR ((k.value #>> '{}'::text[]) ~ '^\s|\s$'::text)))))) END AND CASE WHEN (NOT (r ? 'hours'::text)) THEN true WHEN (jsonb_typeof((r -> 'hours'::text)) <> 'object'::text) THEN false WHEN ((NOT ((r -> 'hours'::text) ?& ARRAY['days'::text, 'from'::text, 'to'::text, 'timezone'::text])) OR (((r -> 'hours'::text) - ARRAY['days'::text, 'from'::text, 'to'::text, 'timezone'::text]) <> '{}'::jsonb)) THEN false WHEN ((jsonb_typeof((r #> '{hours,days}'::text[])) <> 'array'::text) OR (jsonb_typeof((r #> '{hours,from}'::text[])) <> 'string'::text) OR (jsonb_typeof((r #> '{hours,to}'::text[])) <> 'string'::text) OR (jsonb_typeof((r #> '{hours,timezone}'::text[])) <> 'string'::text)) THEN false ELSE ((jsonb_array_length((r #> '{hours,days}'::text[])) >= 1) AND ((r #> '{hours,days}'::text[]) <@ '["mon", "tue", "wed", "thu", "fri", "sat", "sun"]'::jsonb) AND ((SELECT count(DISTINCT d.value) AS count FROM jsonb_array_elements((campaign_rules_valid.r #> '{hours,days}'::text[])) d(value)) = jsonb_array_length((r #> '{hours,days}'::text[]))) AND ((r #>> '{hours,from}'::text[]) ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'::text) AND ((r #>> '{hours,to}'::text[]) ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'::text) AND ((r #>> '{hours,from}'::text[]) <> (r #>> '{hours,to}'::text[])) AND ((length((r #>> '{hours,timezone}'::text[])) >= 1) AND (length((r #>> '{hours,timezone}'::text[])) <= 64))) END AND public.campaign_rules_money((r -> 'post_budget'::text)) AND public.campaign_rules_whole((r -> 'post_days'::text), (1)::bigint, (90)::bigint) AND ((r ? 'post_budget'::text) = (r ? 'post_days'::text)) AND public.campaign_rules_whole((r -> 'max_posts_per_day'::text), (1)::bigint, (1000)::bigint) AND public.campaign_rules_money((r -> 'spend_cap'::text))) END;

CREATE FUNCTION public.catalogue_derived_rebuild() RETURNS void
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

CREATE FUNCTION public.engine_word_pattern(word text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (('(^|[^[:alnum:]_])'::text || regexp_replace(word, '([.^$*+?()\[\]{}|\\])'::text, '\\\1'::text, 'g'::text)) || '($|[^[:alnum:]_])'::text);

CREATE FUNCTION public.geo_search_key(name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, name));

CREATE FUNCTION public.identity_sync() RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    col  record;
    seq  text;
    next bigint;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns AS c
        WHERE c.table_schema = current_schema() AND c.is_identity = 'YES'
    LOOP
        seq := pg_get_serial_sequence(format('%I', col.table_name), col.column_name);
        -- The value the sequence would give next.
        EXECUTE format('SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM %s', seq)
            INTO next;
        -- Past the highest id in the table, never back.
        EXECUTE format('SELECT setval(%L, greatest(coalesce(max(%I), 0) + 1, %s), false) FROM %I',
                       seq, col.column_name, next, col.table_name);
    END LOOP;
    -- Campaign ids also stay past those of deleted campaigns that the
    -- engine or the history still names (a database whose sequence the old
    -- identity_sync moved back below them is mended by the call below).
    -- campaign_history is read whole: imports are rare, the table modest.
    seq := pg_get_serial_sequence('campaign', 'id');
    EXECUTE format('SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM %s', seq)
        INTO next;
    PERFORM setval(seq, greatest(
        next,
        (SELECT coalesce(max(n.campaign_id), 0) + 1 FROM network_a_campaign AS n),
        (SELECT coalesce(max(h.campaign_id), 0) + 1 FROM campaign_history AS h)), false);
END
$$;

CREATE FUNCTION public.location_keys(doc jsonb) RETURNS TABLE(key text, kinds smallint)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    BEGIN ATOMIC
 SELECT k.key,
     (bit_or(k.kind))::smallint AS bit_or
    FROM ( SELECT c.value,
             1 AS "?column?"
            FROM jsonb_array_elements_text(COALESCE((location_keys.doc -> 'countries'::text), '[]'::jsonb)) c(value)
         UNION ALL
          SELECT (c.value ->> 'key'::text),
             2
            FROM jsonb_array_elements(COALESCE((location_keys.doc -> 'cities'::text), '[]'::jsonb)) c(value)
         UNION ALL
          SELECT (r.value ->> 'key'::text),
             4
            FROM jsonb_array_elements(COALESCE((location_keys.doc -> 'regions'::text), '[]'::jsonb)) r(value)) k(key, kind)
   GROUP BY k.key;
END;

CREATE FUNCTION public.location_kind_mask(location_type text) RETURNS smallint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE location_type WHEN 'country'::text THEN 1 WHEN 'city'::text THEN 2 WHEN 'region'::text THEN 4 ELSE 7 END;

CREATE FUNCTION public.mail_job_backlog(OUT unsent bigint, OUT due bigint, OUT oldest_due_seconds double precision) RETURNS SETOF record
    LANGUAGE sql STABLE
    AS $$
    -- The mails not sent yet, those of them that are due (available, or
    -- scheduled or awaiting a retry whose time has come: River's scheduler
    -- makes them available within seconds), and how long the most overdue
    -- has been due (0 when none is). Reads river_job_prioritized_fetching_index
    -- (state, queue, ...), whatever the number of finished jobs.
    SELECT count(*),
           count(*) FILTER (WHERE d.due),
           greatest(coalesce(extract(epoch FROM now() - min(j.scheduled_at) FILTER (WHERE d.due)), 0), 0)::float8
    FROM river_job AS j
    CROSS JOIN LATERAL (SELECT j.state = 'available'
                            OR (j.state IN ('scheduled', 'retryable') AND j.scheduled_at <= now()) AS due) AS d
    WHERE j.queue = 'mail'
      AND j.state IN ('available', 'scheduled', 'retryable', 'running', 'pending')
$$;

CREATE FUNCTION public.mail_job_sent(job_id bigint) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE river_job SET args = args - ARRAY['link', 'body', 'mime_body']
    WHERE id = job_id AND queue = 'mail'
$$;

CREATE FUNCTION public.network_a_adset_targeting(targeting jsonb, page_has_b boolean) RETURNS jsonb
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    AS $$
DECLARE
    shaped jsonb := CASE WHEN page_has_b THEN targeting ELSE targeting - 'network_b_positions' END;
BEGIN
    shaped := shaped || jsonb_build_object('targeting_automation', jsonb_build_object('advantage_audience',
        coalesce(targeting -> 'targeting_automation' -> 'advantage_audience', '0'::jsonb)));
    IF targeting -> 'geo_locations' ? 'cities' THEN
        shaped := shaped || jsonb_build_object('geo_locations', (targeting -> 'geo_locations') || jsonb_build_object('cities', (
            SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                       'key', m.network_a_key,
                       'radius', x.city -> 'radius',
                       'distance_unit', x.city -> 'distance_unit')) ORDER BY x.n), '[]'::jsonb)
            FROM jsonb_array_elements(targeting -> 'geo_locations' -> 'cities') WITH ORDINALITY AS x (city, n)
            LEFT JOIN network_a_city AS m ON m.city_key = x.city ->> 'key')));
    END IF;
    IF NOT page_has_b THEN
        shaped := shaped || jsonb_build_object('publisher_platforms', coalesce((
            SELECT jsonb_agg(p.value)
            FROM jsonb_array_elements(targeting -> 'publisher_platforms') AS p
            WHERE p.value <> '"network_b"'), '["network_a"]'::jsonb));
    END IF;
    RETURN shaped;
END
$$;

CREATE FUNCTION public.network_a_eu(targeting jsonb) RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    AS $$
BEGIN
    RETURN network_a_targeting_countries(targeting) && ARRAY[
        'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
        'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']::text[];
END
$$;

CREATE FUNCTION public.network_a_objective(goal text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE goal WHEN 'POST_ENGAGEMENT'::text THEN 'OUTCOME_ENGAGEMENT'::text WHEN 'VIDEO_VIEWS'::text THEN 'OUTCOME_ENGAGEMENT'::text WHEN 'LINK_CLICKS'::text THEN 'OUTCOME_TRAFFIC'::text WHEN 'REACH'::text THEN 'OUTCOME_AWARENESS'::text WHEN 'BRAND_AWARENESS'::text THEN 'OUTCOME_AWARENESS'::text WHEN 'CONVERSIONS'::text THEN 'OUTCOME_SALES'::text WHEN 'APP_INSTALLS'::text THEN 'OUTCOME_APP_PROMOTION'::text ELSE NULL::text END;

CREATE FUNCTION public.network_a_offset_units(amount numeric, currency text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (round((amount * (CASE WHEN (upper(currency) = ANY (ARRAY['CLP'::text, 'COP'::text, 'CRC'::text, 'HUF'::text, 'IDR'::text, 'ISK'::text, 'JPY'::text, 'KRW'::text, 'PYG'::text, 'TWD'::text, 'VND'::text])) THEN 1 ELSE 100 END)::numeric)))::bigint;

CREATE FUNCTION public.network_a_optimization_goal(goal text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE goal WHEN 'POST_ENGAGEMENT'::text THEN 'POST_ENGAGEMENT'::text WHEN 'VIDEO_VIEWS'::text THEN 'THRUPLAY'::text WHEN 'LINK_CLICKS'::text THEN 'LINK_CLICKS'::text WHEN 'REACH'::text THEN 'REACH'::text WHEN 'BRAND_AWARENESS'::text THEN 'AD_RECALL_LIFT'::text WHEN 'CONVERSIONS'::text THEN 'OFFSITE_CONVERSIONS'::text WHEN 'APP_INSTALLS'::text THEN 'APP_INSTALLS'::text ELSE NULL::text END;

CREATE FUNCTION public.network_a_targeting_countries(targeting jsonb) RETURNS text[]
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    AS $$
BEGIN
    RETURN ARRAY(
        SELECT DISTINCT t.code
        FROM (
            SELECT x.code
            FROM jsonb_array_elements_text(coalesce(targeting -> 'geo_locations' -> 'countries', '[]')) AS x (code)
            UNION ALL
            SELECT coalesce(city ->> 'country', g.country_code)
            FROM jsonb_array_elements(coalesce(targeting -> 'geo_locations' -> 'cities', '[]')) AS city
            LEFT JOIN geo_city AS g ON g.id = (city ->> 'key')::bigint
        ) AS t
        WHERE t.code IS NOT NULL
        ORDER BY t.code);
END
$$;

CREATE FUNCTION public.network_a_timezone(name text) RETURNS text
    LANGUAGE plpgsql STABLE
    AS $_$
BEGIN
    IF name IS NULL OR char_length(name) > 64
       OR name !~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9][A-Za-z0-9_+-]*)*$'
       OR name ~ '^(posix|right)/' OR name IN ('localtime', 'posixrules', 'Factory') THEN
        RETURN NULL;
    END IF;
    PERFORM now() AT TIME ZONE name;
    RETURN name;
EXCEPTION WHEN invalid_parameter_value THEN
    RETURN NULL;
END
$_$;

CREATE FUNCTION public.price_json(amount numeric, fee numeric) RETURNS json
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((('"'::text || ((amount + fee))::text) || '"'::text))::json;

CREATE TABLE public.agency_object (
    agency_id bigint NOT NULL,
    object json NOT NULL
);

CREATE TABLE public.preset_card (
    id bigint NOT NULL,
    agency_id bigint NOT NULL,
    image text,
    price numeric(12,2) NOT NULL,
    original_price numeric(12,2) NOT NULL,
    number_of_purchases integer NOT NULL,
    body json NOT NULL,
    CONSTRAINT preset_card_body_check CHECK (((body)::text ~~ '{"%}'::text))
)
WITH (fillfactor='90');

CREATE FUNCTION public.preset_card_json(id bigint, public_base_url text, fee numeric) RETURNS TABLE(body json, image json, price json, original_price json, agency json)
    LANGUAGE sql STABLE PARALLEL SAFE
    BEGIN ATOMIC
 SELECT c.body,
     COALESCE(to_json(public.absolute_url(c.image, preset_card_json.public_base_url)), 'null'::json) AS "coalesce",
     public.price_json(c.price, preset_card_json.fee) AS price_json,
     public.price_json(c.original_price, preset_card_json.fee) AS price_json,
     ao.object
    FROM (public.preset_card c
      JOIN public.agency_object ao ON ((ao.agency_id = c.agency_id)))
   WHERE (c.id = preset_card_json.id);
END;

CREATE FUNCTION public.preset_card_refresh(ids bigint[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM preset AS p WHERE p.id = ANY (ids) ORDER BY p.id FOR NO KEY UPDATE;
    INSERT INTO preset_card AS c
    SELECT s.* FROM preset_card_source AS s WHERE s.id = ANY (ids) ORDER BY s.id
    ON CONFLICT (id) DO UPDATE SET
        agency_id = EXCLUDED.agency_id, image = EXCLUDED.image, price = EXCLUDED.price,
        original_price = EXCLUDED.original_price, number_of_purchases = EXCLUDED.number_of_purchases,
        body = EXCLUDED.body
    WHERE (c.agency_id, c.image, c.price, c.original_price, c.number_of_purchases, c.body::text)
          IS DISTINCT FROM
          (EXCLUDED.agency_id, EXCLUDED.image, EXCLUDED.price, EXCLUDED.original_price,
           EXCLUDED.number_of_purchases, EXCLUDED.body::text);
END
$$;

CREATE FUNCTION public.preset_card_reorder() RETURNS void
    LANGUAGE sql
    AS $$
    LOCK TABLE preset_card IN SHARE ROW EXCLUSIVE MODE;
    WITH gone AS (
        DELETE FROM preset_card RETURNING *
    )
    INSERT INTO preset_card
    SELECT gone.*
    FROM gone
    LEFT JOIN preset AS p ON p.id = gone.id
    ORDER BY p.title, gone.id;
$$;

CREATE FUNCTION public.preset_card_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    ids bigint[] := '{}';
    keys text[] := '{}';
BEGIN
    IF TG_TABLE_NAME = 'preset' THEN
        SELECT array_agg(n.id) INTO ids FROM new_rows AS n;
    ELSIF TG_TABLE_NAME IN ('boosting_condition', 'review') THEN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            ids := ids || ARRAY(SELECT n.preset_id FROM new_rows AS n);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            ids := ids || ARRAY(SELECT o.preset_id FROM old_rows AS o);
        END IF;
    ELSIF TG_TABLE_NAME = 'vertical' THEN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            keys := keys || ARRAY(SELECT n.slug FROM new_rows AS n);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            keys := keys || ARRAY(SELECT o.slug FROM old_rows AS o);
        END IF;
        ids := ARRAY(SELECT p.id FROM preset AS p
                     WHERE ARRAY(SELECT btrim(s) FROM unnest(string_to_array(p.vertical, ',')) AS s) && keys);
    ELSIF TG_TABLE_NAME = 'campaign_objective' THEN
        ids := ARRAY(SELECT p.id FROM preset AS p
                     WHERE p.campaign_objective IN (SELECT o.code FROM old_rows AS o
                                                    UNION SELECT n.code FROM new_rows AS n));
    END IF;
    IF cardinality(ids) > 0 THEN
        PERFORM preset_card_refresh(ARRAY(SELECT DISTINCT unnest(ids)));
    END IF;
    RETURN NULL;
END
$$;

CREATE TABLE public.preset (
    id bigint NOT NULL,
    agency_id bigint NOT NULL,
    title text NOT NULL,
    image text,
    active boolean DEFAULT true NOT NULL,
    private boolean DEFAULT false NOT NULL,
    campaign_objective text NOT NULL,
    vertical text DEFAULT ''::text NOT NULL,
    price numeric(12,2) NOT NULL,
    original_price numeric(12,2) NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    platform text DEFAULT 'all'::text NOT NULL,
    audience_targeting text DEFAULT ''::text NOT NULL,
    location_json jsonb DEFAULT '{}'::jsonb NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    allowed_options text[] DEFAULT '{}'::text[] NOT NULL,
    number_of_purchases integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT preset_allowed_options_check CHECK ((allowed_options <@ ARRAY['location'::text, 'age'::text, 'gender'::text, 'tags'::text, 'advanced_settings'::text, 'cta'::text])),
    CONSTRAINT preset_audience_targeting_check CHECK ((length(audience_targeting) <= 5000)),
    CONSTRAINT preset_description_check CHECK ((length(description) <= 10000)),
    CONSTRAINT preset_image_check CHECK (((image <> ''::text) AND (length(image) <= 2048))),
    CONSTRAINT preset_location_json_check CHECK (((jsonb_typeof(location_json) = 'object'::text) AND (COALESCE(jsonb_typeof((location_json -> 'countries'::text)), 'array'::text) = 'array'::text) AND (COALESCE(jsonb_typeof((location_json -> 'cities'::text)), 'array'::text) = 'array'::text) AND (COALESCE(jsonb_typeof((location_json -> 'regions'::text)), 'array'::text) = 'array'::text) AND (NOT jsonb_path_exists(location_json, '$."countries"[*]?(@.type() != "string")'::jsonpath)) AND (NOT jsonb_path_exists(location_json, '$."cities"[*]?(@.type() != "object" || !(exists (@."key"?(@.type() == "string"))))'::jsonpath)) AND (NOT jsonb_path_exists(location_json, '$."regions"[*]?(@.type() != "object" || !(exists (@."key"?(@.type() == "string"))))'::jsonpath)))),
    CONSTRAINT preset_number_of_purchases_check CHECK ((number_of_purchases >= 0)),
    CONSTRAINT preset_original_price_check CHECK ((original_price >= (0)::numeric)),
    CONSTRAINT preset_platform_check CHECK ((platform = ANY (ARRAY['all'::text, 'network_a'::text, 'network_b'::text]))),
    CONSTRAINT preset_price_check CHECK ((price >= (0)::numeric)),
    CONSTRAINT preset_title_check CHECK (((title <> ''::text) AND (length(title) <= 200))),
    CONSTRAINT preset_version_check CHECK ((version >= 1)),
    CONSTRAINT preset_vertical_check CHECK ((octet_length(vertical) <= 1000))
);

CREATE FUNCTION public.preset_derived_apply(o public.preset[], n public.preset[]) RETURNS void
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

CREATE FUNCTION public.preset_derived_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM preset_derived_apply('{}'::preset[], ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM preset_derived_apply(ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o), '{}'::preset[]);
    ELSE
        PERFORM preset_derived_apply(
            ARRAY(SELECT ROW(o.*)::preset FROM old_rows AS o WHERE NOT EXISTS (
                SELECT 1 FROM new_rows AS n
                WHERE n.id = o.id
                  AND (n.active, n.private, n.title, n.location_json, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.location_json, o.campaign_objective, o.vertical, o.agency_id))),
            ARRAY(SELECT ROW(n.*)::preset FROM new_rows AS n WHERE NOT EXISTS (
                SELECT 1 FROM old_rows AS o
                WHERE o.id = n.id
                  AND (n.active, n.private, n.title, n.location_json, n.campaign_objective, n.vertical, n.agency_id)
                      IS NOT DISTINCT FROM
                      (o.active, o.private, o.title, o.location_json, o.campaign_objective, o.vertical, o.agency_id))));
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION public.preset_title_bucket_members() RETURNS TABLE(ordinal integer, preset_id bigint)
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

CREATE TABLE public.preset_title_bucket (
    lower text NOT NULL,
    presets bigint NOT NULL,
    ordinal integer NOT NULL,
    CONSTRAINT preset_title_bucket_ordinal_check CHECK ((ordinal >= 1))
);

CREATE FUNCTION public.preset_title_bucket_of(title text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (SELECT max(b.lower) AS max FROM public.preset_title_bucket b WHERE (b.lower <= preset_title_bucket_of.title));

CREATE FUNCTION public.preset_title_bucket_rebalance(size integer) RETURNS void
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

CREATE FUNCTION public.preset_title_prefix_apply(o public.preset[], n public.preset[]) RETURNS void
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

CREATE FUNCTION public.preset_title_prefix_sync() RETURNS trigger
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

CREATE FUNCTION public.preset_usable(p public.preset, user_agency_id bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((p).active AND ((NOT (p).private) OR (NOT ((p).agency_id IS DISTINCT FROM user_agency_id))));

CREATE FUNCTION public.report_timezone(tz text) RETURNS text
    LANGUAGE sql STABLE
    RETURN CASE WHEN (EXISTS (SELECT 1 FROM pg_timezone_names z WHERE (z.name = report_timezone.tz))) THEN tz ELSE 'UTC'::text END;

CREATE FUNCTION public.river_job_state_in_bitmask(bitmask bit, state public.river_job_state) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT CASE state
        WHEN 'available' THEN get_bit(bitmask, 7)
        WHEN 'cancelled' THEN get_bit(bitmask, 6)
        WHEN 'completed' THEN get_bit(bitmask, 5)
        WHEN 'discarded' THEN get_bit(bitmask, 4)
        WHEN 'pending'   THEN get_bit(bitmask, 3)
        WHEN 'retryable' THEN get_bit(bitmask, 2)
        WHEN 'running'   THEN get_bit(bitmask, 1)
        WHEN 'scheduled' THEN get_bit(bitmask, 0)
        ELSE 0
    END = 1;
$$;

CREATE FUNCTION public.user_campaign_version_bump(ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO user_campaign_version AS v (user_id, version)
    SELECT u.id, 1
    FROM app_user AS u
    WHERE u.id = ANY (ids)
    ORDER BY u.id
    ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
$$;

CREATE FUNCTION public.user_campaign_version_preset_sync() RETURNS trigger
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

CREATE FUNCTION public.user_campaign_version_sync() RETURNS trigger
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

CREATE TABLE public.source (
    user_id bigint NOT NULL,
    id bigint NOT NULL,
    platform text DEFAULT 'network_a'::text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    picture text DEFAULT ''::text NOT NULL,
    network_b_id bigint,
    network_b_name text DEFAULT ''::text NOT NULL,
    network_b_picture text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    access_token bytea,
    access_token_refused_at timestamp with time zone,
    CONSTRAINT source_access_token_check CHECK (((octet_length(access_token) >= 28) AND (octet_length(access_token) <= 8192))),
    CONSTRAINT source_access_token_platform_check CHECK (((platform = 'network_a'::text) OR (access_token IS NULL))),
    CONSTRAINT source_access_token_refused_check CHECK (((access_token_refused_at IS NULL) OR (access_token IS NOT NULL))),
    CONSTRAINT source_id_check CHECK ((id > 0)),
    CONSTRAINT source_name_check CHECK ((length(name) <= 255)),
    CONSTRAINT source_network_b_check CHECK (((platform = 'network_a'::text) OR (network_b_id IS NULL))),
    CONSTRAINT source_network_b_id_check CHECK ((network_b_id > 0)),
    CONSTRAINT source_network_b_name_check CHECK ((length(network_b_name) <= 255)),
    CONSTRAINT source_network_b_picture_check CHECK ((length(network_b_picture) <= 2048)),
    CONSTRAINT source_picture_check CHECK ((length(picture) <= 2048)),
    CONSTRAINT source_platform_check CHECK ((platform = ANY (ARRAY['network_a'::text, 'network_b'::text])))
);

COMMENT ON COLUMN public.source.access_token_refused_at IS 'When network_a refused the stored page token (OAuth 190): the engine boosts none of the page''s posts until a new token is stored, which clears it.';

CREATE FUNCTION public.user_has_network_b(user_id bigint, network_b_id bigint) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (EXISTS (SELECT 1 FROM public.source s WHERE ((s.user_id = user_has_network_b.user_id) AND (((s.id = user_has_network_b.network_b_id) AND (s.platform = 'network_b'::text)) OR (s.network_b_id = user_has_network_b.network_b_id)))));

CREATE FUNCTION public.user_has_page(user_id bigint, page_id bigint) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN (EXISTS (SELECT 1 FROM public.source s WHERE ((s.user_id = user_has_page.user_id) AND (s.id = user_has_page.page_id) AND (s.platform = 'network_a'::text))));

CREATE TABLE public.agency (
    id bigint NOT NULL,
    username text NOT NULL,
    email text,
    description text DEFAULT ''::text NOT NULL,
    about text DEFAULT ''::text NOT NULL,
    image text DEFAULT ''::text NOT NULL,
    website text DEFAULT ''::text NOT NULL,
    locations text DEFAULT ''::text NOT NULL,
    gps text DEFAULT ''::text NOT NULL,
    coordinates text DEFAULT ''::text NOT NULL,
    employees text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    listed boolean DEFAULT true NOT NULL,
    search_text text GENERATED ALWAYS AS (((((lower(username) || ''::text) || lower(description)) || ''::text) || lower(locations))) STORED NOT NULL,
    CONSTRAINT agency_about_check CHECK ((length(about) <= 5000)),
    CONSTRAINT agency_coordinates_check CHECK (((coordinates = ''::text) OR (coordinates ~ '^-?[0-9]{1,3}(\.[0-9]+)?,-?[0-9]{1,3}(\.[0-9]+)?$'::text))),
    CONSTRAINT agency_description_check CHECK ((length(description) <= 5000)),
    CONSTRAINT agency_email_check CHECK (((email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text) AND (length(email) <= 254))),
    CONSTRAINT agency_employees_check CHECK (((employees = ''::text) OR (employees ~ '^[0-9]+(-[0-9]+|\+)?$'::text))),
    CONSTRAINT agency_gps_check CHECK (((gps = ''::text) OR (gps ~ '^-?[0-9]{1,3}(\.[0-9]+)?,-?[0-9]{1,3}(\.[0-9]+)?$'::text))),
    CONSTRAINT agency_image_check CHECK ((length(image) <= 2048)),
    CONSTRAINT agency_locations_check CHECK ((length(locations) <= 1000)),
    CONSTRAINT agency_username_check CHECK (((username <> ''::text) AND (length(username) <= 100))),
    CONSTRAINT agency_website_check CHECK ((length(website) <= 2048))
);

CREATE TABLE public.agency_industry (
    agency_id bigint NOT NULL,
    industry_id bigint NOT NULL,
    agency_username text NOT NULL
);

CREATE TABLE public.agency_service (
    agency_id bigint NOT NULL,
    service_id bigint NOT NULL,
    agency_username text NOT NULL
);

CREATE TABLE public.industry (
    id bigint NOT NULL,
    name text NOT NULL,
    CONSTRAINT industry_name_check CHECK (((name <> ''::text) AND (length(name) <= 100)))
);

CREATE TABLE public.service (
    id bigint NOT NULL,
    name text NOT NULL,
    CONSTRAINT service_name_check CHECK (((name <> ''::text) AND (length(name) <= 100)))
);

CREATE VIEW public.agency_card AS
 SELECT a.id,
    jsonb_build_object('id', a.id, 'username', a.username, 'description', a.description, 'about', a.about, 'image', a.image, 'website', a.website, 'locations', a.locations, 'services', ( SELECT
                CASE
                    WHEN (count(*) = 0) THEN '[]'::jsonb
                    ELSE jsonb_build_array(jsonb_agg(s.name ORDER BY s.name))
                END AS jsonb_build_array
           FROM (public.agency_service x
             JOIN public.service s ON ((s.id = x.service_id)))
          WHERE (x.agency_id = a.id)), 'industries', ( SELECT
                CASE
                    WHEN (count(*) = 0) THEN '[]'::jsonb
                    ELSE jsonb_build_array(jsonb_agg(i.name ORDER BY i.name))
                END AS jsonb_build_array
           FROM (public.agency_industry x
             JOIN public.industry i ON ((i.id = x.industry_id)))
          WHERE (x.agency_id = a.id)), 'gps', a.gps, 'employess', a.employees, 'coordinates', a.coordinates) AS object
   FROM public.agency a;

ALTER TABLE public.agency ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.agency_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.app_user (
    id bigint NOT NULL,
    email text NOT NULL,
    password_hash text,
    snid bigint,
    first_name text DEFAULT ''::text NOT NULL,
    last_name text DEFAULT ''::text NOT NULL,
    phone_number text DEFAULT ''::text NOT NULL,
    phone_country text DEFAULT ''::text NOT NULL,
    agency_id bigint,
    credit_balance numeric(12,2) DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    signup_preset_id bigint,
    token_generation bigint DEFAULT 0 NOT NULL,
    network_a_token bytea,
    network_a_token_invalid_at timestamp with time zone,
    network_a_token_refusal text,
    network_a_token_expires_at timestamp with time zone,
    network_a_permissions_missing text[] DEFAULT '{}'::text[] NOT NULL,
    network_a_reminded_7d timestamp with time zone,
    network_a_reminded_1d timestamp with time zone,
    weekly_report boolean DEFAULT true NOT NULL,
    CONSTRAINT app_user_credit_balance_check CHECK ((credit_balance >= (0)::numeric)),
    CONSTRAINT app_user_email_check CHECK (((email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text) AND (length(email) <= 254))),
    CONSTRAINT app_user_first_name_check CHECK ((length(first_name) <= 100)),
    CONSTRAINT app_user_last_name_check CHECK ((length(last_name) <= 100)),
    CONSTRAINT app_user_network_a_permissions_missing_check CHECK (((array_position(network_a_permissions_missing, NULL::text) IS NULL) AND (cardinality(network_a_permissions_missing) <= 32))),
    CONSTRAINT app_user_network_a_token_check CHECK (((octet_length(network_a_token) >= 28) AND (octet_length(network_a_token) <= 8192))),
    CONSTRAINT app_user_network_a_token_refusal_check CHECK ((char_length(network_a_token_refusal) <= 2000)),
    CONSTRAINT app_user_password_hash_check CHECK ((password_hash ~ '^\$2[aby]\$'::text)),
    CONSTRAINT app_user_phone_country_check CHECK (((phone_country = ''::text) OR (phone_country ~ '^[A-Z]{2}$'::text))),
    CONSTRAINT app_user_phone_number_check CHECK (((phone_number = ''::text) OR (phone_number ~ '^\+?[0-9 ()-]{3,32}$'::text))),
    CONSTRAINT app_user_snid_check CHECK ((snid > 0)),
    CONSTRAINT app_user_token_generation_check CHECK ((token_generation >= 0))
);

ALTER TABLE public.app_user ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.app_user_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.billing_info (
    user_id bigint NOT NULL,
    full_name text DEFAULT ''::text NOT NULL,
    phone text DEFAULT ''::text NOT NULL,
    phone_country text,
    billing_email text DEFAULT ''::text NOT NULL,
    company_name text DEFAULT ''::text NOT NULL,
    street1 text DEFAULT ''::text NOT NULL,
    street2 text DEFAULT ''::text NOT NULL,
    city text DEFAULT ''::text NOT NULL,
    state text DEFAULT ''::text NOT NULL,
    zip text DEFAULT ''::text NOT NULL,
    country text,
    company_id text DEFAULT ''::text NOT NULL,
    vat_number text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT billing_info_billing_email_check CHECK (((billing_email = ''::text) OR ((billing_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text) AND (length(billing_email) <= 254)))),
    CONSTRAINT billing_info_city_check CHECK ((length(city) <= 255)),
    CONSTRAINT billing_info_company_id_check CHECK ((length(company_id) <= 255)),
    CONSTRAINT billing_info_company_name_check CHECK ((length(company_name) <= 255)),
    CONSTRAINT billing_info_full_name_check CHECK ((length(full_name) <= 255)),
    CONSTRAINT billing_info_phone_check CHECK (((phone = ''::text) OR (phone ~ '^\+?[0-9 ()./-]{3,32}$'::text))),
    CONSTRAINT billing_info_state_check CHECK ((length(state) <= 255)),
    CONSTRAINT billing_info_street1_check CHECK ((length(street1) <= 255)),
    CONSTRAINT billing_info_street2_check CHECK ((length(street2) <= 255)),
    CONSTRAINT billing_info_vat_number_check CHECK ((length(vat_number) <= 255)),
    CONSTRAINT billing_info_zip_check CHECK ((length(zip) <= 255))
);

CREATE TABLE public.boosted_campaign_day (
    user_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    currency text NOT NULL,
    day date NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(18,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    CONSTRAINT boosted_campaign_day_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT boosted_campaign_day_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT boosted_campaign_day_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT boosted_campaign_day_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT boosted_campaign_day_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT boosted_campaign_day_reach_check CHECK ((reach >= 0)),
    CONSTRAINT boosted_campaign_day_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.boosted_post (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    source_id bigint NOT NULL,
    active boolean DEFAULT true NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    link text DEFAULT ''::text NOT NULL,
    image text DEFAULT ''::text NOT NULL,
    created timestamp with time zone NOT NULL,
    stopped timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    media_id text,
    review_status text,
    review_reason text,
    CONSTRAINT boosted_post_image_check CHECK ((length(image) <= 2048)),
    CONSTRAINT boosted_post_link_check CHECK ((length(link) <= 2048)),
    CONSTRAINT boosted_post_media_id_check CHECK ((media_id ~ '^[0-9]{1,40}$'::text)),
    CONSTRAINT boosted_post_name_check CHECK ((length(name) <= 10000)),
    CONSTRAINT boosted_post_review_reason_check CHECK (((review_reason IS NULL) OR (review_status = ANY (ARRAY['disapproved'::text, 'with_issues'::text])))),
    CONSTRAINT boosted_post_review_status_check CHECK ((review_status = ANY (ARRAY['pending'::text, 'approved'::text, 'disapproved'::text, 'with_issues'::text]))),
    CONSTRAINT boosted_post_source_id_check CHECK ((source_id > 0)),
    CONSTRAINT boosted_post_stopped_check CHECK ((stopped >= created))
);

CREATE TABLE public.boosted_post_campaign (
    user_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    post_id bigint NOT NULL
);

CREATE TABLE public.boosted_post_day (
    user_id bigint NOT NULL,
    post_id bigint NOT NULL,
    currency text NOT NULL,
    day date NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(16,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    CONSTRAINT boosted_post_day_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT boosted_post_day_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT boosted_post_day_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT boosted_post_day_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT boosted_post_day_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT boosted_post_day_reach_check CHECK ((reach >= 0)),
    CONSTRAINT boosted_post_day_spend_check CHECK ((spend >= (0)::numeric))
);

ALTER TABLE public.boosted_post ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.boosted_post_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.boosted_post_insight (
    post_id bigint NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(14,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    user_id bigint NOT NULL,
    CONSTRAINT boosted_post_insight_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT boosted_post_insight_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT boosted_post_insight_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT boosted_post_insight_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT boosted_post_insight_reach_check CHECK ((reach >= 0)),
    CONSTRAINT boosted_post_insight_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.network_b_media (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    media_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT network_b_media_id_check CHECK (((id >= '4503599627370496'::bigint) AND (id <= '9007199254740991'::bigint))),
    CONSTRAINT network_b_media_media_id_check CHECK ((media_id ~ '^[0-9]{1,40}$'::text))
);

CREATE SEQUENCE public.boosted_post_network_b_id_seq
    START WITH 4503599627370496
    INCREMENT BY 1
    MINVALUE 4503599627370496
    MAXVALUE 9007199254740991
    CACHE 1;

ALTER SEQUENCE public.boosted_post_network_b_id_seq OWNED BY public.network_b_media.id;

CREATE TABLE public.boosted_source_day (
    user_id bigint NOT NULL,
    source_id bigint NOT NULL,
    currency text NOT NULL,
    day date NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(18,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    CONSTRAINT boosted_source_day_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT boosted_source_day_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT boosted_source_day_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT boosted_source_day_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT boosted_source_day_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT boosted_source_day_reach_check CHECK ((reach >= 0)),
    CONSTRAINT boosted_source_day_source_id_check CHECK ((source_id > 0)),
    CONSTRAINT boosted_source_day_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.boosted_user_day (
    user_id bigint NOT NULL,
    currency text NOT NULL,
    day date NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(18,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    CONSTRAINT boosted_user_day_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT boosted_user_day_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT boosted_user_day_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT boosted_user_day_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT boosted_user_day_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT boosted_user_day_reach_check CHECK ((reach >= 0)),
    CONSTRAINT boosted_user_day_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.boosting_condition (
    preset_id bigint NOT NULL,
    keywords text[] DEFAULT '{}'::text[] NOT NULL,
    reach integer NOT NULL,
    rules jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT boosting_condition_reach_check CHECK (((reach >= 0) AND (reach <= 100))),
    CONSTRAINT boosting_condition_rules_check CHECK (public.campaign_rules_valid(rules))
);

CREATE TABLE public.campaign (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    page_id bigint,
    network_b_id bigint,
    preset_id bigint,
    active boolean DEFAULT true NOT NULL,
    campaign_budget_type text DEFAULT 'daily'::text NOT NULL,
    campaign_budget_value numeric(12,2) NOT NULL,
    adset_budget_sharing_enabled boolean DEFAULT false NOT NULL,
    campaign_bid_strategy_enabled boolean DEFAULT false NOT NULL,
    campaign_bid_strategy text DEFAULT 'LOWEST_COST_WITHOUT_CAP'::text NOT NULL,
    campaign_bid_amount numeric(12,2) DEFAULT 0 NOT NULL,
    goal text DEFAULT 'POST_ENGAGEMENT'::text NOT NULL,
    audience_targeting jsonb DEFAULT '{}'::jsonb NOT NULL,
    hashtag text DEFAULT ''::text NOT NULL,
    end_date date,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    promoted_object jsonb,
    rules jsonb DEFAULT '{}'::jsonb NOT NULL,
    special_ad_categories text[] DEFAULT '{}'::text[] NOT NULL,
    dsa_beneficiary text,
    dsa_payor text,
    ad_account_id text,
    ad_account_name text,
    ad_account_currency text,
    ad_account_timezone text,
    CONSTRAINT campaign_ad_account_check CHECK (((ad_account_id IS NOT NULL) OR ((ad_account_name IS NULL) AND (ad_account_currency IS NULL) AND (ad_account_timezone IS NULL)))),
    CONSTRAINT campaign_ad_account_currency_check CHECK ((ad_account_currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT campaign_ad_account_id_check CHECK ((ad_account_id ~ '^act_[0-9]{1,20}$'::text)),
    CONSTRAINT campaign_ad_account_name_check CHECK ((char_length(ad_account_name) <= 255)),
    CONSTRAINT campaign_ad_account_timezone_check CHECK (((char_length(ad_account_timezone) >= 1) AND (char_length(ad_account_timezone) <= 64))),
    CONSTRAINT campaign_audience_targeting_check CHECK ((jsonb_typeof(audience_targeting) = 'object'::text)),
    CONSTRAINT campaign_campaign_bid_amount_check CHECK ((campaign_bid_amount >= (0)::numeric)),
    CONSTRAINT campaign_campaign_bid_strategy_check CHECK ((campaign_bid_strategy = ANY (ARRAY['LOWEST_COST_WITHOUT_CAP'::text, 'COST_CAP'::text, 'LOWEST_COST_WITH_BID_CAP'::text]))),
    CONSTRAINT campaign_campaign_budget_type_check CHECK ((campaign_budget_type = ANY (ARRAY['daily'::text, 'lifetime'::text]))),
    CONSTRAINT campaign_campaign_budget_value_check CHECK ((campaign_budget_value > (0)::numeric)),
    CONSTRAINT campaign_dsa_beneficiary_check CHECK (((char_length(dsa_beneficiary) >= 1) AND (char_length(dsa_beneficiary) <= 512))),
    CONSTRAINT campaign_dsa_payor_check CHECK (((char_length(dsa_payor) >= 1) AND (char_length(dsa_payor) <= 512))),
    CONSTRAINT campaign_goal_check CHECK ((goal = ANY (ARRAY['POST_ENGAGEMENT'::text, 'LINK_CLICKS'::text, 'CONVERSIONS'::text, 'REACH'::text, 'BRAND_AWARENESS'::text, 'APP_INSTALLS'::text, 'VIDEO_VIEWS'::text]))),
    CONSTRAINT campaign_hashtag_check CHECK ((length(hashtag) <= 255)),
    CONSTRAINT campaign_hashtag_tag_check CHECK (((hashtag !~ '^\s|\s$'::text) AND ((hashtag = ''::text) OR (hashtag ~ '[^#]'::text)))),
    CONSTRAINT campaign_network_b_id_check CHECK ((network_b_id > 0)),
    CONSTRAINT campaign_page_id_check CHECK ((page_id > 0)),
    CONSTRAINT campaign_promoted_object_check CHECK ((jsonb_typeof(promoted_object) = 'object'::text)),
    CONSTRAINT campaign_rules_check CHECK (public.campaign_rules_valid(rules)),
    CONSTRAINT campaign_source_check CHECK (((page_id IS NOT NULL) OR (network_b_id IS NOT NULL))),
    CONSTRAINT campaign_special_ad_categories_check CHECK (((special_ad_categories <@ ARRAY['HOUSING'::text, 'EMPLOYMENT'::text, 'FINANCIAL_PRODUCTS_SERVICES'::text, 'ISSUES_ELECTIONS_POLITICS'::text, 'ONLINE_GAMBLING_AND_GAMING'::text]) AND (array_position(special_ad_categories, NULL::text) IS NULL)))
);

CREATE TABLE public.engine_campaign (
    campaign_id bigint NOT NULL,
    user_id bigint NOT NULL,
    state text NOT NULL,
    message text DEFAULT ''::text NOT NULL,
    since timestamp with time zone DEFAULT now() NOT NULL,
    checked_at timestamp with time zone,
    mailed jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT engine_campaign_campaign_id_check CHECK ((campaign_id > 0)),
    CONSTRAINT engine_campaign_mailed_check CHECK ((jsonb_typeof(mailed) = 'object'::text)),
    CONSTRAINT engine_campaign_message_check CHECK ((length(message) <= 2000)),
    CONSTRAINT engine_campaign_state_check CHECK ((state = ANY (ARRAY['waiting'::text, 'running'::text, 'pausing'::text, 'paused'::text, 'token_refused'::text, 'page_lost'::text, 'no_ad_account'::text, 'needs_setup'::text, 'refused'::text, 'throttled'::text, 'spend_cap_reached'::text])))
);

CREATE VIEW public.campaign_boosted_page AS
 SELECT c.id,
    c.user_id,
    c.page_id,
    c.network_b_id,
    c.active,
    jsonb_build_object('id', c.id, 'active', c.active, 'page_id', COALESCE(c.page_id, (0)::bigint), 'network_b_id', COALESCE(c.network_b_id, (0)::bigint), 'preset_id', COALESCE(c.preset_id, (0)::bigint), 'campaign_budget_type', c.campaign_budget_type, 'campaign_budget_value', c.campaign_budget_value, 'adset_budget_sharing_enabled', c.adset_budget_sharing_enabled, 'campaign_bid_strategy_enabled', c.campaign_bid_strategy_enabled, 'campaign_bid_strategy', c.campaign_bid_strategy, 'campaign_bid_amount', c.campaign_bid_amount, 'goal', c.goal, 'audience_targeting', c.audience_targeting, 'hashtag', c.hashtag, 'end_date', COALESCE(to_char((c.end_date)::timestamp with time zone, 'YYYY-MM-DD'::text), ''::text), 'promoted_object', c.promoted_object, 'special_ad_categories', to_jsonb(c.special_ad_categories), 'dsa_beneficiary', c.dsa_beneficiary, 'dsa_payor', c.dsa_payor, 'ad_account',
        CASE
            WHEN (c.ad_account_id IS NOT NULL) THEN jsonb_build_object('id', c.ad_account_id, 'name', c.ad_account_name, 'currency', c.ad_account_currency, 'timezone_name', c.ad_account_timezone)
            ELSE NULL::jsonb
        END, 'page',
        CASE
            WHEN (c.page_id IS NOT NULL) THEN jsonb_build_object('id', c.page_id, 'name', COALESCE(page.name, ''::text), 'picture', COALESCE(page.picture, ''::text))
            ELSE NULL::jsonb
        END, 'network_b',
        CASE
            WHEN (c.network_b_id IS NOT NULL) THEN jsonb_build_object('id', c.network_b_id, 'name', COALESCE(account.name, ''::text), 'picture', COALESCE(account.picture, ''::text))
            ELSE NULL::jsonb
        END, 'preset',
        CASE
            WHEN (p.id IS NOT NULL) THEN jsonb_build_object('id', p.id, 'title', p.title)
            ELSE NULL::jsonb
        END, 'engine', jsonb_build_object('state', COALESCE(e.state,
        CASE
            WHEN c.active THEN 'waiting'::text
            ELSE 'paused'::text
        END), 'message', COALESCE(e.message, ''::text), 'since', to_char((COALESCE(e.since, c.created_at) AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS'::text), 'checked_at', to_char((e.checked_at AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD HH24:MI:SS'::text)), 'rules', jsonb_build_object('min_reactions', (c.rules -> 'min_reactions'::text), 'min_comments', (c.rules -> 'min_comments'::text), 'min_shares', (c.rules -> 'min_shares'::text), 'min_engagement_rate', (c.rules -> 'min_engagement_rate'::text), 'post_age_min_hours', (c.rules -> 'post_age_min_hours'::text), 'post_age_max_hours', (c.rules -> 'post_age_max_hours'::text), 'content_types', (c.rules -> 'content_types'::text), 'exclude_keywords', (c.rules -> 'exclude_keywords'::text), 'hours', (c.rules -> 'hours'::text), 'post_budget', (c.rules -> 'post_budget'::text), 'post_days', (c.rules -> 'post_days'::text), 'max_posts_per_day', (c.rules -> 'max_posts_per_day'::text), 'spend_cap', (c.rules -> 'spend_cap'::text))) AS boosted_page
   FROM ((((public.campaign c
     LEFT JOIN public.source page ON (((page.user_id = c.user_id) AND (page.id = c.page_id) AND (page.platform = 'network_a'::text))))
     LEFT JOIN LATERAL ( SELECT a.name,
            a.picture
           FROM ( SELECT s.name,
                    s.picture,
                    1 AS rank
                   FROM public.source s
                  WHERE ((s.user_id = c.user_id) AND (s.id = c.network_b_id) AND (s.platform = 'network_b'::text))
                UNION ALL
                 SELECT s.network_b_name,
                    s.network_b_picture,
                    2
                   FROM public.source s
                  WHERE ((s.user_id = c.user_id) AND (s.network_b_id = c.network_b_id))) a
          ORDER BY a.rank
         LIMIT 1) account ON (true))
     LEFT JOIN public.preset p ON ((p.id = c.preset_id)))
     LEFT JOIN public.engine_campaign e ON ((e.campaign_id = c.id)));

CREATE TABLE public.campaign_history (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    action text NOT NULL,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT campaign_history_action_check CHECK ((action = ANY (ARRAY['created'::text, 'updated'::text, 'activated'::text, 'deactivated'::text, 'deleted'::text, 'boosted'::text, 'engine'::text, 'post_refused'::text, 'post_stopped'::text]))),
    CONSTRAINT campaign_history_campaign_id_check CHECK ((campaign_id > 0)),
    CONSTRAINT campaign_history_details_check CHECK ((jsonb_typeof(details) = 'object'::text))
);

ALTER TABLE public.campaign_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.campaign_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE public.campaign ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.campaign_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.campaign_objective (
    code text NOT NULL,
    label text NOT NULL,
    "position" integer NOT NULL,
    CONSTRAINT campaign_objective_code_check CHECK ((code ~ '^[A-Z][A-Z_]{1,63}$'::text)),
    CONSTRAINT campaign_objective_label_check CHECK ((label <> ''::text))
);

CREATE TABLE public.email_change (
    user_id bigint NOT NULL,
    new_email text NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT email_change_expiry_check CHECK ((expires_at > created_at)),
    CONSTRAINT email_change_new_email_check CHECK (((new_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text) AND (length(new_email) <= 254))),
    CONSTRAINT email_change_token_hash_check CHECK ((length(token_hash) = 32))
);

CREATE TABLE public.engine_notice (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    state text NOT NULL,
    message text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT engine_notice_campaign_id_check CHECK ((campaign_id > 0))
);

ALTER TABLE public.engine_notice ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.engine_notice_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.geo_city (
    id bigint NOT NULL,
    country_code text NOT NULL,
    region_key text,
    region_name text DEFAULT ''::text NOT NULL,
    name text NOT NULL,
    population bigint NOT NULL,
    search_key text GENERATED ALWAYS AS (public.geo_search_key(name)) STORED COLLATE pg_catalog."C",
    CONSTRAINT geo_city_id_check CHECK ((id > 0)),
    CONSTRAINT geo_city_name_check CHECK ((name <> ''::text)),
    CONSTRAINT geo_city_population_check CHECK ((population >= 0))
);

CREATE TABLE public.geo_country (
    code text NOT NULL,
    name text NOT NULL,
    search_key text GENERATED ALWAYS AS (public.geo_search_key(name)) STORED COLLATE pg_catalog."C",
    CONSTRAINT geo_country_code_check CHECK ((code ~ '^[A-Z]{2}$'::text)),
    CONSTRAINT geo_country_name_check CHECK ((name <> ''::text))
);

CREATE TABLE public.geo_region (
    key text NOT NULL,
    country_code text NOT NULL,
    name text NOT NULL,
    search_key text GENERATED ALWAYS AS (public.geo_search_key(name)) STORED COLLATE pg_catalog."C",
    CONSTRAINT geo_region_key_check CHECK (((key <> ''::text) AND (length(key) <= 16))),
    CONSTRAINT geo_region_name_check CHECK ((name <> ''::text))
);

ALTER TABLE public.industry ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.industry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.login_attempt (
    id bigint NOT NULL,
    client_addr text NOT NULL,
    email text NOT NULL,
    attempted_at timestamp with time zone DEFAULT now() NOT NULL,
    email_counts boolean DEFAULT true NOT NULL,
    pending boolean DEFAULT false NOT NULL,
    CONSTRAINT login_attempt_client_addr_check CHECK ((length(client_addr) <= 64)),
    CONSTRAINT login_attempt_email_check CHECK (((length(email) <= 254) AND (email = lower(email))))
);

COMMENT ON COLUMN public.login_attempt.pending IS 'true while the reserved password check runs; false once it failed (a success deletes the row). Rows written before 00095 are failures.';

ALTER TABLE public.login_attempt ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.login_attempt_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.network_a_ad_day (
    campaign_id bigint NOT NULL,
    post_id bigint NOT NULL,
    day date NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(14,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    CONSTRAINT network_a_ad_day_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT network_a_ad_day_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT network_a_ad_day_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT network_a_ad_day_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT network_a_ad_day_reach_check CHECK ((reach >= 0)),
    CONSTRAINT network_a_ad_day_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.network_a_ad_insight (
    campaign_id bigint NOT NULL,
    post_id bigint NOT NULL,
    impressions bigint DEFAULT 0 NOT NULL,
    reach bigint DEFAULT 0 NOT NULL,
    engagement bigint DEFAULT 0 NOT NULL,
    clicks bigint DEFAULT 0 NOT NULL,
    spend numeric(14,3) DEFAULT 0 NOT NULL,
    conversions bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT network_a_ad_insight_clicks_check CHECK ((clicks >= 0)),
    CONSTRAINT network_a_ad_insight_conversions_check CHECK ((conversions >= 0)),
    CONSTRAINT network_a_ad_insight_engagement_check CHECK ((engagement >= 0)),
    CONSTRAINT network_a_ad_insight_impressions_check CHECK ((impressions >= 0)),
    CONSTRAINT network_a_ad_insight_reach_check CHECK ((reach >= 0)),
    CONSTRAINT network_a_ad_insight_spend_check CHECK ((spend >= (0)::numeric))
);

CREATE TABLE public.network_a_attempt (
    id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    kind text NOT NULL,
    post_id bigint DEFAULT 0 NOT NULL,
    name text NOT NULL,
    post jsonb,
    state text DEFAULT 'pending'::text NOT NULL,
    tries integer DEFAULT 1 NOT NULL,
    object_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    sent_at timestamp with time zone,
    budget numeric(12,2),
    ends_at timestamp with time zone,
    CONSTRAINT network_a_attempt_budget_check CHECK ((budget > (0)::numeric)),
    CONSTRAINT network_a_attempt_done_check CHECK (((state = ANY (ARRAY['done'::text, 'stopped'::text])) = (object_id IS NOT NULL))),
    CONSTRAINT network_a_attempt_kind_check CHECK ((kind = ANY (ARRAY['campaign'::text, 'adset'::text, 'adset_b'::text, 'ad'::text]))),
    CONSTRAINT network_a_attempt_kind_post_check CHECK ((((kind = 'ad'::text) = (post IS NOT NULL)) AND ((kind = ANY (ARRAY['ad'::text, 'adset'::text])) OR (post_id = 0)) AND ((kind <> 'ad'::text) OR (post_id > 0)))),
    CONSTRAINT network_a_attempt_name_check CHECK ((name ~ '^adboost-[0-9]+(-[0-9]+|-network_b|-b[0-9]+)?$'::text)),
    CONSTRAINT network_a_attempt_object_id_check CHECK (((object_id <> ''::text) AND (length(object_id) <= 100))),
    CONSTRAINT network_a_attempt_post_budget_check CHECK ((((budget IS NULL) = (ends_at IS NULL)) AND ((budget IS NULL) OR (kind = 'ad'::text)))),
    CONSTRAINT network_a_attempt_post_check CHECK ((jsonb_typeof(post) = 'object'::text)),
    CONSTRAINT network_a_attempt_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'done'::text, 'refused'::text, 'stopped'::text]))),
    CONSTRAINT network_a_attempt_tries_check CHECK ((tries >= 1))
);

ALTER TABLE public.network_a_attempt ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.network_a_attempt_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.network_a_campaign (
    campaign_id bigint NOT NULL,
    user_id bigint NOT NULL,
    ad_account_id text NOT NULL,
    campaign_object_id text,
    adset_object_id text,
    adset_synced jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'ACTIVE'::text NOT NULL,
    paused_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    currency text,
    resume_sent_at timestamp with time zone,
    adset_b_object_id text,
    adset_b_synced jsonb DEFAULT '{}'::jsonb NOT NULL,
    campaign_synced jsonb DEFAULT '{}'::jsonb NOT NULL,
    spend numeric(16,3) DEFAULT 0 NOT NULL,
    account_dsa_beneficiary text,
    account_dsa_payor text,
    days_read_at timestamp with time zone,
    CONSTRAINT network_a_campaign_account_dsa_beneficiary_check CHECK (((char_length(account_dsa_beneficiary) >= 1) AND (char_length(account_dsa_beneficiary) <= 512))),
    CONSTRAINT network_a_campaign_account_dsa_payor_check CHECK (((char_length(account_dsa_payor) >= 1) AND (char_length(account_dsa_payor) <= 512))),
    CONSTRAINT network_a_campaign_ad_account_id_check CHECK (((ad_account_id <> ''::text) AND (length(ad_account_id) <= 100))),
    CONSTRAINT network_a_campaign_adset_b_object_id_check CHECK (((adset_b_object_id <> ''::text) AND (length(adset_b_object_id) <= 100))),
    CONSTRAINT network_a_campaign_adset_b_synced_check CHECK ((jsonb_typeof(adset_b_synced) = 'object'::text)),
    CONSTRAINT network_a_campaign_adset_object_id_check CHECK (((adset_object_id <> ''::text) AND (length(adset_object_id) <= 100))),
    CONSTRAINT network_a_campaign_adset_synced_check CHECK ((jsonb_typeof(adset_synced) = 'object'::text)),
    CONSTRAINT network_a_campaign_campaign_id_check CHECK ((campaign_id > 0)),
    CONSTRAINT network_a_campaign_campaign_object_id_check CHECK (((campaign_object_id <> ''::text) AND (length(campaign_object_id) <= 100))),
    CONSTRAINT network_a_campaign_campaign_synced_check CHECK ((jsonb_typeof(campaign_synced) = 'object'::text)),
    CONSTRAINT network_a_campaign_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT network_a_campaign_paused_check CHECK (((status = 'PAUSED'::text) = (paused_at IS NOT NULL))),
    CONSTRAINT network_a_campaign_spend_check CHECK ((spend >= (0)::numeric)),
    CONSTRAINT network_a_campaign_status_check CHECK ((status = ANY (ARRAY['ACTIVE'::text, 'PAUSED'::text])))
);

COMMENT ON COLUMN public.network_a_campaign.currency IS 'ISO 4217 code of the ad account''s currency as network_a gave it at the first boost; NULL (rows made before it was kept, or an account that gave none) counts as two decimals.';

CREATE TABLE public.network_a_city (
    city_key text NOT NULL,
    network_a_key text,
    looked_up_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT network_a_city_city_key_check CHECK ((city_key ~ '^[1-9][0-9]{0,18}$'::text)),
    CONSTRAINT network_a_city_network_a_key_check CHECK ((network_a_key ~ '^[0-9A-Za-z_.:-]{1,64}$'::text))
);

CREATE TABLE public.network_a_throttle (
    scope text NOT NULL,
    key text NOT NULL,
    until timestamp with time zone NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT network_a_throttle_check CHECK (((length(key) <= 100) AND ((scope = 'app'::text) = (key = ''::text)))),
    CONSTRAINT network_a_throttle_scope_check CHECK ((scope = ANY (ARRAY['app'::text, 'user'::text, 'page'::text, 'ad_account'::text])))
);

CREATE TABLE public.preset_agency_tally (
    agency_id bigint NOT NULL,
    presets bigint NOT NULL
);

CREATE TABLE public.review (
    id bigint NOT NULL,
    preset_id bigint NOT NULL,
    user_id bigint NOT NULL,
    rating smallint NOT NULL,
    message text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_message_check CHECK ((length(message) <= 2000)),
    CONSTRAINT review_rating_check CHECK (((rating >= 1) AND (rating <= 5)))
);

CREATE TABLE public.vertical (
    slug text NOT NULL,
    label text NOT NULL,
    CONSTRAINT vertical_label_check CHECK (((label <> ''::text) AND (length(label) <= 100))),
    CONSTRAINT vertical_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9_-]{0,63}$'::text))
);

CREATE VIEW public.preset_card_source AS
 SELECT p.id,
    p.agency_id,
    p.image,
    p.price,
    p.original_price,
    p.number_of_purchases,
    row_to_json(ROW(p.id, p.title, o.label, to_jsonb(ARRAY( SELECT v.label
           FROM (unnest(string_to_array(p.vertical, ','::text)) WITH ORDINALITY s(slug, n)
             LEFT JOIN public.vertical v ON ((v.slug = btrim(s.slug))))
          ORDER BY s.n)), p.version, p.private, p.platform, p.audience_targeting, (p.location_json)::text, p.description,
        CASE
            WHEN ('advanced_settings'::text = ANY (p.allowed_options)) THEN to_jsonb(COALESCE(bc.keywords, '{}'::text[]))
            ELSE '[]'::jsonb
        END,
        CASE
            WHEN ('advanced_settings'::text = ANY (p.allowed_options)) THEN COALESCE(to_jsonb(bc.reach), 'null'::jsonb)
            ELSE '[]'::jsonb
        END, p.allowed_options, (COALESCE(( SELECT round(avg(r.rating)) AS round
           FROM public.review r
          WHERE (r.preset_id = p.id)), (0)::numeric))::bigint)::public.preset_card_body) AS body
   FROM ((public.preset p
     JOIN public.campaign_objective o ON ((o.code = p.campaign_objective)))
     LEFT JOIN public.boosting_condition bc ON ((bc.preset_id = p.id)));

ALTER TABLE public.preset ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.preset_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.preset_location (
    key text NOT NULL,
    preset_id bigint NOT NULL,
    title text NOT NULL,
    kinds smallint NOT NULL,
    campaign_objective text NOT NULL,
    vertical text NOT NULL,
    agency_id bigint NOT NULL,
    CONSTRAINT preset_location_kinds_check CHECK (((kinds >= 1) AND (kinds <= 7)))
);

CREATE TABLE public.preset_location_bucket (
    key text NOT NULL,
    ordinal integer NOT NULL,
    kinds smallint NOT NULL,
    presets bigint NOT NULL,
    CONSTRAINT preset_location_bucket_kinds_check CHECK (((kinds >= 1) AND (kinds <= 7))),
    CONSTRAINT preset_location_bucket_ordinal_check CHECK ((ordinal >= 1))
);

CREATE TABLE public.preset_location_tally (
    key text NOT NULL,
    kinds smallint NOT NULL,
    presets bigint NOT NULL,
    campaign_objective text NOT NULL,
    vertical text NOT NULL
);

CREATE TABLE public.preset_prefix_tally (
    prefix text NOT NULL,
    campaign_objective text NOT NULL,
    vertical text NOT NULL,
    presets bigint NOT NULL
);

CREATE TABLE public.preset_tally (
    campaign_objective text NOT NULL,
    vertical text NOT NULL,
    presets bigint NOT NULL
);

CREATE TABLE public.preset_title_prefix (
    prefix text NOT NULL,
    preset_id bigint NOT NULL,
    title text NOT NULL,
    campaign_objective text NOT NULL,
    vertical text NOT NULL,
    agency_id bigint NOT NULL,
    CONSTRAINT preset_title_prefix_prefix_check CHECK (((char_length(prefix) >= 1) AND (char_length(prefix) <= 3)))
);

CREATE TABLE public.preset_vertical (
    slug text NOT NULL,
    preset_id bigint NOT NULL,
    title text NOT NULL,
    CONSTRAINT preset_vertical_slug_check CHECK (((slug <> ''::text) AND (strpos(slug, ','::text) = 0)))
);

CREATE VIEW public.report_campaign_day AS
 SELECT d.campaign_id,
    d.post_id,
    d.day,
    COALESCE(n.currency, ''::text) AS currency,
    d.reach,
    d.engagement,
    d.clicks,
    d.spend,
    d.conversions
   FROM (public.network_a_ad_day d
     JOIN public.network_a_campaign n ON ((n.campaign_id = d.campaign_id)))
UNION ALL
 SELECT pc.campaign_id,
    d.post_id,
    d.day,
    d.currency,
    d.reach,
    d.engagement,
    d.clicks,
    d.spend,
    d.conversions
   FROM (public.boosted_post_campaign pc
     JOIN public.boosted_post_day d ON (((d.user_id = pc.user_id) AND (d.post_id = pc.post_id))))
  WHERE (NOT (EXISTS ( SELECT 1
           FROM public.network_a_campaign n
          WHERE (n.campaign_id = pc.campaign_id))));

ALTER TABLE public.review ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.review_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.river_job (
    id bigint NOT NULL,
    state public.river_job_state DEFAULT 'available'::public.river_job_state NOT NULL,
    attempt smallint DEFAULT 0 NOT NULL,
    max_attempts smallint DEFAULT 25 NOT NULL,
    attempted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finalized_at timestamp with time zone,
    scheduled_at timestamp with time zone DEFAULT now() NOT NULL,
    priority smallint DEFAULT 1 NOT NULL,
    args jsonb NOT NULL,
    attempted_by text[],
    errors jsonb[],
    kind text NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    tags character varying(255)[] DEFAULT '{}'::character varying[] NOT NULL,
    unique_key bytea,
    unique_states bit(8),
    CONSTRAINT finalized_or_finalized_at_null CHECK ((((finalized_at IS NULL) AND (state <> ALL (ARRAY['cancelled'::public.river_job_state, 'completed'::public.river_job_state, 'discarded'::public.river_job_state]))) OR ((finalized_at IS NOT NULL) AND (state = ANY (ARRAY['cancelled'::public.river_job_state, 'completed'::public.river_job_state, 'discarded'::public.river_job_state]))))),
    CONSTRAINT kind_length CHECK (((char_length(kind) > 0) AND (char_length(kind) < 128))),
    CONSTRAINT max_attempts_is_positive CHECK ((max_attempts > 0)),
    CONSTRAINT priority_in_range CHECK (((priority >= 1) AND (priority <= 4))),
    CONSTRAINT queue_length CHECK (((char_length(queue) > 0) AND (char_length(queue) < 128)))
);

CREATE SEQUENCE public.river_job_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.river_job_id_seq OWNED BY public.river_job.id;

CREATE UNLOGGED TABLE public.river_leader (
    elected_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    leader_id text NOT NULL,
    name text DEFAULT 'default'::text NOT NULL,
    CONSTRAINT leader_id_length CHECK (((char_length(leader_id) > 0) AND (char_length(leader_id) < 128))),
    CONSTRAINT name_length CHECK ((name = 'default'::text))
);

CREATE TABLE public.river_migration (
    line text NOT NULL,
    version bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT line_length CHECK (((char_length(line) > 0) AND (char_length(line) < 128))),
    CONSTRAINT version_gte_1 CHECK ((version >= 1))
);

CREATE TABLE public.river_notification (
    id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    payload text NOT NULL,
    topic text NOT NULL,
    CONSTRAINT topic_length CHECK (((length(topic) > 0) AND (length(topic) < 128)))
);

CREATE SEQUENCE public.river_notification_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.river_notification_id_seq OWNED BY public.river_notification.id;

CREATE TABLE public.river_queue (
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    paused_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);

ALTER TABLE public.service ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.service_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.user_campaign_version (
    user_id bigint NOT NULL,
    version bigint NOT NULL
);

CREATE TABLE public.weekly_report_sent (
    user_id bigint NOT NULL,
    monday date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT weekly_report_sent_monday_check CHECK ((EXTRACT(isodow FROM monday) = (1)::numeric))
);

ALTER TABLE ONLY public.network_b_media ALTER COLUMN id SET DEFAULT nextval('public.boosted_post_network_b_id_seq'::regclass);

ALTER TABLE ONLY public.river_job ALTER COLUMN id SET DEFAULT nextval('public.river_job_id_seq'::regclass);

ALTER TABLE ONLY public.river_notification ALTER COLUMN id SET DEFAULT nextval('public.river_notification_id_seq'::regclass);

ALTER TABLE ONLY public.agency
    ADD CONSTRAINT agency_id_username_key UNIQUE (id, username);

ALTER TABLE ONLY public.agency_industry
    ADD CONSTRAINT agency_industry_pkey PRIMARY KEY (agency_id, industry_id);

ALTER TABLE ONLY public.agency_object
    ADD CONSTRAINT agency_object_pkey PRIMARY KEY (agency_id);

ALTER TABLE ONLY public.agency
    ADD CONSTRAINT agency_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.agency_service
    ADD CONSTRAINT agency_service_pkey PRIMARY KEY (agency_id, service_id);

ALTER TABLE ONLY public.app_user
    ADD CONSTRAINT app_user_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.billing_info
    ADD CONSTRAINT billing_info_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY public.boosted_campaign_day
    ADD CONSTRAINT boosted_campaign_day_pkey PRIMARY KEY (user_id, campaign_id, currency, day);

ALTER TABLE ONLY public.boosted_post_campaign
    ADD CONSTRAINT boosted_post_campaign_pkey PRIMARY KEY (campaign_id, post_id);

ALTER TABLE ONLY public.boosted_post_day
    ADD CONSTRAINT boosted_post_day_pkey PRIMARY KEY (user_id, post_id, currency, day);

ALTER TABLE ONLY public.boosted_post_insight
    ADD CONSTRAINT boosted_post_insight_pkey PRIMARY KEY (post_id);

ALTER TABLE ONLY public.boosted_post
    ADD CONSTRAINT boosted_post_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.boosted_post
    ADD CONSTRAINT boosted_post_user_id_key UNIQUE (user_id, id);

ALTER TABLE ONLY public.boosted_source_day
    ADD CONSTRAINT boosted_source_day_pkey PRIMARY KEY (user_id, source_id, currency, day);

ALTER TABLE ONLY public.boosted_user_day
    ADD CONSTRAINT boosted_user_day_pkey PRIMARY KEY (user_id, currency, day);

ALTER TABLE ONLY public.boosting_condition
    ADD CONSTRAINT boosting_condition_pkey PRIMARY KEY (preset_id);

ALTER TABLE ONLY public.campaign_history
    ADD CONSTRAINT campaign_history_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.campaign_objective
    ADD CONSTRAINT campaign_objective_pkey PRIMARY KEY (code);

ALTER TABLE ONLY public.campaign_objective
    ADD CONSTRAINT campaign_objective_position_key UNIQUE ("position");

ALTER TABLE ONLY public.campaign
    ADD CONSTRAINT campaign_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.campaign
    ADD CONSTRAINT campaign_user_id_key UNIQUE (user_id, id);

ALTER TABLE ONLY public.email_change
    ADD CONSTRAINT email_change_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY public.email_change
    ADD CONSTRAINT email_change_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY public.engine_campaign
    ADD CONSTRAINT engine_campaign_pkey PRIMARY KEY (campaign_id);

ALTER TABLE ONLY public.engine_notice
    ADD CONSTRAINT engine_notice_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.geo_city
    ADD CONSTRAINT geo_city_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.geo_country
    ADD CONSTRAINT geo_country_pkey PRIMARY KEY (code);

ALTER TABLE ONLY public.geo_region
    ADD CONSTRAINT geo_region_pkey PRIMARY KEY (key);

ALTER TABLE ONLY public.industry
    ADD CONSTRAINT industry_name_key UNIQUE (name);

ALTER TABLE ONLY public.industry
    ADD CONSTRAINT industry_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.login_attempt
    ADD CONSTRAINT login_attempt_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.network_a_ad_day
    ADD CONSTRAINT network_a_ad_day_pkey PRIMARY KEY (campaign_id, post_id, day);

ALTER TABLE ONLY public.network_a_ad_insight
    ADD CONSTRAINT network_a_ad_insight_pkey PRIMARY KEY (campaign_id, post_id);

ALTER TABLE ONLY public.network_a_attempt
    ADD CONSTRAINT network_a_attempt_key UNIQUE (campaign_id, kind, post_id);

ALTER TABLE ONLY public.network_a_attempt
    ADD CONSTRAINT network_a_attempt_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.network_a_campaign
    ADD CONSTRAINT network_a_campaign_pkey PRIMARY KEY (campaign_id);

ALTER TABLE ONLY public.network_a_city
    ADD CONSTRAINT network_a_city_pkey PRIMARY KEY (city_key);

ALTER TABLE ONLY public.network_a_throttle
    ADD CONSTRAINT network_a_throttle_pkey PRIMARY KEY (scope, key);

ALTER TABLE ONLY public.network_b_media
    ADD CONSTRAINT network_b_media_key UNIQUE (user_id, media_id);

ALTER TABLE ONLY public.network_b_media
    ADD CONSTRAINT network_b_media_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.preset_agency_tally
    ADD CONSTRAINT preset_agency_tally_pkey PRIMARY KEY (agency_id);

ALTER TABLE ONLY public.preset_card
    ADD CONSTRAINT preset_card_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.preset_location_bucket
    ADD CONSTRAINT preset_location_bucket_pkey PRIMARY KEY (key, ordinal, kinds) INCLUDE (presets);

ALTER TABLE ONLY public.preset_location
    ADD CONSTRAINT preset_location_pkey PRIMARY KEY (key, preset_id);

ALTER TABLE ONLY public.preset_location_tally
    ADD CONSTRAINT preset_location_tally_pkey PRIMARY KEY (key, kinds, campaign_objective, vertical) INCLUDE (presets);

ALTER TABLE ONLY public.preset
    ADD CONSTRAINT preset_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.preset_prefix_tally
    ADD CONSTRAINT preset_prefix_tally_pkey PRIMARY KEY (prefix, campaign_objective, vertical);

ALTER TABLE ONLY public.preset_tally
    ADD CONSTRAINT preset_tally_pkey PRIMARY KEY (campaign_objective, vertical);

ALTER TABLE ONLY public.preset_title_bucket
    ADD CONSTRAINT preset_title_bucket_ordinal_key UNIQUE (ordinal);

ALTER TABLE ONLY public.preset_title_bucket
    ADD CONSTRAINT preset_title_bucket_pkey PRIMARY KEY (lower);

ALTER TABLE ONLY public.preset_title_prefix
    ADD CONSTRAINT preset_title_prefix_pkey PRIMARY KEY (prefix, preset_id);

ALTER TABLE ONLY public.preset_vertical
    ADD CONSTRAINT preset_vertical_pkey PRIMARY KEY (preset_id, slug);

ALTER TABLE ONLY public.review
    ADD CONSTRAINT review_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.review
    ADD CONSTRAINT review_preset_user_key UNIQUE (preset_id, user_id) INCLUDE (rating);

ALTER TABLE ONLY public.river_job
    ADD CONSTRAINT river_job_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.river_leader
    ADD CONSTRAINT river_leader_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.river_migration
    ADD CONSTRAINT river_migration_pkey1 PRIMARY KEY (line, version);

ALTER TABLE ONLY public.river_notification
    ADD CONSTRAINT river_notification_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.river_queue
    ADD CONSTRAINT river_queue_pkey PRIMARY KEY (name);

ALTER TABLE ONLY public.service
    ADD CONSTRAINT service_name_key UNIQUE (name);

ALTER TABLE ONLY public.service
    ADD CONSTRAINT service_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.source
    ADD CONSTRAINT source_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY public.user_campaign_version
    ADD CONSTRAINT user_campaign_version_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY public.vertical
    ADD CONSTRAINT vertical_pkey PRIMARY KEY (slug);

ALTER TABLE ONLY public.weekly_report_sent
    ADD CONSTRAINT weekly_report_sent_pkey PRIMARY KEY (user_id, monday);

CREATE INDEX agency_industry_industry_idx ON public.agency_industry USING btree (industry_id, agency_username, agency_id);

CREATE INDEX agency_search_text_idx ON public.agency USING gin (search_text public.gin_trgm_ops);

CREATE INDEX agency_service_service_idx ON public.agency_service USING btree (service_id, agency_username, agency_id);

CREATE INDEX agency_username_idx ON public.agency USING btree (username, id) WHERE listed;

CREATE INDEX app_user_agency_idx ON public.app_user USING btree (agency_id) WHERE (agency_id IS NOT NULL);

CREATE UNIQUE INDEX app_user_email_key ON public.app_user USING btree (lower(email));

CREATE INDEX app_user_network_a_token_expires_idx ON public.app_user USING btree (network_a_token_expires_at) WHERE (network_a_token_expires_at IS NOT NULL);

CREATE INDEX app_user_signup_preset_idx ON public.app_user USING btree (signup_preset_id) WHERE (signup_preset_id IS NOT NULL);

CREATE UNIQUE INDEX app_user_snid_key ON public.app_user USING btree (snid) WHERE (snid IS NOT NULL);

CREATE INDEX billing_info_country_idx ON public.billing_info USING btree (country) WHERE (country IS NOT NULL);

CREATE INDEX billing_info_phone_country_idx ON public.billing_info USING btree (phone_country) WHERE (phone_country IS NOT NULL);

CREATE INDEX boosted_post_campaign_post_idx ON public.boosted_post_campaign USING btree (post_id, campaign_id);

CREATE INDEX boosted_post_created_idx ON public.boosted_post USING btree (user_id, created DESC, id DESC);

CREATE UNIQUE INDEX boosted_post_insight_user_idx ON public.boosted_post_insight USING btree (user_id, post_id) INCLUDE (impressions, reach, engagement, clicks, spend, conversions);

CREATE UNIQUE INDEX boosted_post_media_key ON public.boosted_post USING btree (user_id, media_id) WHERE (media_id IS NOT NULL);

CREATE INDEX boosted_post_source_idx ON public.boosted_post USING btree (user_id, source_id, created DESC, id DESC);

CREATE INDEX campaign_account_only_idx ON public.campaign USING btree (user_id, network_b_id, id DESC) WHERE (page_id IS NULL);

CREATE INDEX campaign_active_idx ON public.campaign USING btree (user_id, id) WHERE active;

CREATE INDEX campaign_history_campaign_idx ON public.campaign_history USING btree (user_id, campaign_id, id DESC);

CREATE INDEX campaign_network_b_idx ON public.campaign USING btree (user_id, network_b_id, id DESC) WHERE (network_b_id IS NOT NULL);

CREATE INDEX campaign_page_idx ON public.campaign USING btree (user_id, page_id, id DESC) WHERE (page_id IS NOT NULL);

CREATE INDEX campaign_preset_idx ON public.campaign USING btree (preset_id) WHERE (preset_id IS NOT NULL);

CREATE INDEX engine_campaign_pausing_idx ON public.engine_campaign USING btree (campaign_id) WHERE (state = 'pausing'::text);

CREATE INDEX engine_campaign_user_idx ON public.engine_campaign USING btree (user_id);

CREATE INDEX engine_notice_user_idx ON public.engine_notice USING btree (user_id, id);

CREATE INDEX geo_city_country_idx ON public.geo_city USING btree (country_code, population DESC);

CREATE INDEX geo_city_search_idx ON public.geo_city USING btree (search_key, population DESC);

CREATE INDEX geo_country_search_idx ON public.geo_country USING btree (search_key);

CREATE INDEX geo_region_country_idx ON public.geo_region USING btree (country_code, name);

CREATE INDEX geo_region_search_idx ON public.geo_region USING btree (search_key);

CREATE INDEX login_attempt_addr_idx ON public.login_attempt USING btree (client_addr, attempted_at);

CREATE INDEX login_attempt_attempted_at_idx ON public.login_attempt USING btree (attempted_at);

CREATE INDEX login_attempt_email_idx ON public.login_attempt USING btree (email, attempted_at) WHERE email_counts;

CREATE INDEX network_a_ad_day_campaign_day_idx ON public.network_a_ad_day USING btree (campaign_id, day);

CREATE INDEX network_a_ad_day_post_idx ON public.network_a_ad_day USING btree (post_id, day);

CREATE INDEX network_a_ad_insight_post_idx ON public.network_a_ad_insight USING btree (post_id);

CREATE INDEX network_a_attempt_boosts_idx ON public.network_a_attempt USING btree (campaign_id, created_at) WHERE (kind = 'ad'::text);

CREATE INDEX network_a_attempt_done_idx ON public.network_a_attempt USING btree (campaign_id, post_id) INCLUDE (object_id) WHERE ((kind = 'ad'::text) AND (state = 'done'::text));

CREATE INDEX network_a_attempt_pending_idx ON public.network_a_attempt USING btree (campaign_id, id) WHERE (state = 'pending'::text);

CREATE INDEX network_a_attempt_post_idx ON public.network_a_attempt USING btree (post_id, campaign_id) WHERE ((kind = 'ad'::text) AND (state = 'done'::text));

CREATE INDEX network_a_campaign_active_idx ON public.network_a_campaign USING btree (campaign_id) WHERE (status = 'ACTIVE'::text);

CREATE INDEX network_a_campaign_paused_idx ON public.network_a_campaign USING btree (paused_at) WHERE (status = 'PAUSED'::text);

CREATE INDEX network_a_campaign_user_idx ON public.network_a_campaign USING btree (user_id);

CREATE INDEX network_a_throttle_until_idx ON public.network_a_throttle USING btree (until);

CREATE INDEX preset_agency_idx ON public.preset USING btree (agency_id, title, id) INCLUDE (active, private);

CREATE INDEX preset_location_agency_idx ON public.preset_location USING btree (key, agency_id, title, preset_id) INCLUDE (kinds, campaign_objective, vertical);

CREATE INDEX preset_location_objective_idx ON public.preset_location USING btree (key, campaign_objective, title, preset_id) INCLUDE (kinds, vertical, agency_id);

CREATE INDEX preset_location_preset_idx ON public.preset_location USING btree (preset_id);

CREATE INDEX preset_location_title_pattern_idx ON public.preset_location USING btree (key, title COLLATE "C") INCLUDE (kinds, campaign_objective, vertical, agency_id, preset_id);

CREATE INDEX preset_title_prefix_idx ON public.preset_title_prefix USING btree (prefix, title, preset_id) INCLUDE (campaign_objective, vertical, agency_id);

CREATE INDEX preset_title_prefix_objective_idx ON public.preset_title_prefix USING btree (prefix, campaign_objective, title, preset_id) INCLUDE (vertical, agency_id);

CREATE INDEX preset_title_prefix_preset_idx ON public.preset_title_prefix USING btree (preset_id);

CREATE INDEX preset_vertical_title_idx ON public.preset_vertical USING btree (slug, title, preset_id);

CREATE INDEX preset_visible_agency_objective_idx ON public.preset USING btree (agency_id, campaign_objective, title, id) INCLUDE (vertical) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_agency_objective_vertical_idx ON public.preset USING btree (agency_id, campaign_objective, vertical, title, id) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_location_idx ON public.preset_location USING btree (key, title, preset_id) INCLUDE (kinds, campaign_objective, vertical, agency_id);

CREATE INDEX preset_visible_objective_idx ON public.preset USING btree (campaign_objective, title, id) INCLUDE (vertical) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_objective_vertical_idx ON public.preset USING btree (campaign_objective, vertical, title, id) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_title_idx ON public.preset USING btree (title, id) INCLUDE (vertical) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_title_prefix_idx ON public.preset USING btree (title text_pattern_ops) INCLUDE (campaign_objective, vertical, agency_id) WHERE (active AND (NOT private));

CREATE INDEX preset_visible_vertical_idx ON public.preset USING gin (vertical public.gin_trgm_ops) WHERE (active AND (NOT private));

CREATE INDEX review_user_idx ON public.review USING btree (user_id);

CREATE INDEX river_job_args_index ON public.river_job USING gin (args);

CREATE INDEX river_job_kind ON public.river_job USING btree (kind);

CREATE INDEX river_job_metadata_index ON public.river_job USING gin (metadata);

CREATE INDEX river_job_prioritized_fetching_index ON public.river_job USING btree (state, queue, priority, scheduled_at, id);

CREATE INDEX river_job_state_and_finalized_at_index ON public.river_job USING btree (state, finalized_at) WHERE (finalized_at IS NOT NULL);

CREATE UNIQUE INDEX river_job_unique_idx ON public.river_job USING btree (unique_key) WHERE ((unique_key IS NOT NULL) AND (unique_states IS NOT NULL) AND public.river_job_state_in_bitmask(unique_states, state));

CREATE INDEX river_notification_created_at_idx ON public.river_notification USING btree (created_at);

CREATE INDEX river_notification_topic_id_idx ON public.river_notification USING btree (topic, id);

CREATE UNIQUE INDEX source_network_b_key ON public.source USING btree (user_id, network_b_id) WHERE (network_b_id IS NOT NULL);

CREATE TRIGGER agency_object_delete AFTER DELETE ON public.agency_industry REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_industry ENABLE ALWAYS TRIGGER agency_object_delete;

CREATE TRIGGER agency_object_delete AFTER DELETE ON public.agency_service REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_service ENABLE ALWAYS TRIGGER agency_object_delete;

CREATE TRIGGER agency_object_insert AFTER INSERT ON public.agency REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency ENABLE ALWAYS TRIGGER agency_object_insert;

CREATE TRIGGER agency_object_insert AFTER INSERT ON public.agency_industry REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_industry ENABLE ALWAYS TRIGGER agency_object_insert;

CREATE TRIGGER agency_object_insert AFTER INSERT ON public.agency_service REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_service ENABLE ALWAYS TRIGGER agency_object_insert;

CREATE TRIGGER agency_object_update AFTER UPDATE ON public.agency REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency ENABLE ALWAYS TRIGGER agency_object_update;

CREATE TRIGGER agency_object_update AFTER UPDATE ON public.agency_industry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_industry ENABLE ALWAYS TRIGGER agency_object_update;

CREATE TRIGGER agency_object_update AFTER UPDATE ON public.agency_service REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.agency_service ENABLE ALWAYS TRIGGER agency_object_update;

CREATE TRIGGER agency_object_update AFTER UPDATE ON public.industry REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.industry ENABLE ALWAYS TRIGGER agency_object_update;

CREATE TRIGGER agency_object_update AFTER UPDATE ON public.service REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.agency_object_sync();

ALTER TABLE public.service ENABLE ALWAYS TRIGGER agency_object_update;

CREATE TRIGGER campaign_id_not_reused BEFORE INSERT ON public.campaign FOR EACH ROW EXECUTE FUNCTION public.campaign_id_not_reused();

CREATE TRIGGER campaign_user_not_changed_under_network_a BEFORE UPDATE OF user_id ON public.campaign FOR EACH ROW WHEN ((new.user_id IS DISTINCT FROM old.user_id)) EXECUTE FUNCTION public.campaign_id_not_reused();

CREATE TRIGGER preset_card_delete AFTER DELETE ON public.boosting_condition REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.boosting_condition ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_delete AFTER DELETE ON public.review REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.review ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_delete AFTER DELETE ON public.vertical REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.vertical ENABLE ALWAYS TRIGGER preset_card_delete;

CREATE TRIGGER preset_card_insert AFTER INSERT ON public.boosting_condition REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.boosting_condition ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_insert AFTER INSERT ON public.preset REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_insert AFTER INSERT ON public.review REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.review ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_insert AFTER INSERT ON public.vertical REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.vertical ENABLE ALWAYS TRIGGER preset_card_insert;

CREATE TRIGGER preset_card_update AFTER UPDATE ON public.boosting_condition REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.boosting_condition ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_update AFTER UPDATE ON public.campaign_objective REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.campaign_objective ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_update AFTER UPDATE ON public.preset REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_update AFTER UPDATE ON public.review REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.review ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_card_update AFTER UPDATE ON public.vertical REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_card_sync();

ALTER TABLE public.vertical ENABLE ALWAYS TRIGGER preset_card_update;

CREATE TRIGGER preset_derived_delete AFTER DELETE ON public.preset REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_derived_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_derived_delete;

CREATE TRIGGER preset_derived_insert AFTER INSERT ON public.preset REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_derived_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_derived_insert;

CREATE TRIGGER preset_derived_update AFTER UPDATE ON public.preset REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_derived_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_derived_update;

CREATE TRIGGER preset_title_prefix_delete AFTER DELETE ON public.preset REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_title_prefix_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_title_prefix_delete;

CREATE TRIGGER preset_title_prefix_insert AFTER INSERT ON public.preset REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_title_prefix_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_title_prefix_insert;

CREATE TRIGGER preset_title_prefix_update AFTER UPDATE ON public.preset REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.preset_title_prefix_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER preset_title_prefix_update;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON public.boosted_post_campaign REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON public.campaign REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.campaign ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_delete AFTER DELETE ON public.source REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.source ENABLE ALWAYS TRIGGER user_campaign_version_delete;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON public.boosted_post_campaign REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON public.campaign REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.campaign ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_insert AFTER INSERT ON public.source REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.source ENABLE ALWAYS TRIGGER user_campaign_version_insert;

CREATE TRIGGER user_campaign_version_preset AFTER UPDATE ON public.preset REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_preset_sync();

ALTER TABLE public.preset ENABLE ALWAYS TRIGGER user_campaign_version_preset;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON public.boosted_post_campaign REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.boosted_post_campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON public.campaign REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.campaign ENABLE ALWAYS TRIGGER user_campaign_version_update;

CREATE TRIGGER user_campaign_version_update AFTER UPDATE ON public.source REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.user_campaign_version_sync();

ALTER TABLE public.source ENABLE ALWAYS TRIGGER user_campaign_version_update;

ALTER TABLE ONLY public.agency_industry
    ADD CONSTRAINT agency_industry_agency_fkey FOREIGN KEY (agency_id, agency_username) REFERENCES public.agency(id, username) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY public.agency_industry
    ADD CONSTRAINT agency_industry_industry_id_fkey FOREIGN KEY (industry_id) REFERENCES public.industry(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.agency_object
    ADD CONSTRAINT agency_object_agency_id_fkey FOREIGN KEY (agency_id) REFERENCES public.agency(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.agency_service
    ADD CONSTRAINT agency_service_agency_fkey FOREIGN KEY (agency_id, agency_username) REFERENCES public.agency(id, username) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY public.agency_service
    ADD CONSTRAINT agency_service_service_id_fkey FOREIGN KEY (service_id) REFERENCES public.service(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.app_user
    ADD CONSTRAINT app_user_agency_id_fkey FOREIGN KEY (agency_id) REFERENCES public.agency(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.app_user
    ADD CONSTRAINT app_user_signup_preset_id_fkey FOREIGN KEY (signup_preset_id) REFERENCES public.preset(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.billing_info
    ADD CONSTRAINT billing_info_country_fkey FOREIGN KEY (country) REFERENCES public.geo_country(code);

ALTER TABLE ONLY public.billing_info
    ADD CONSTRAINT billing_info_phone_country_fkey FOREIGN KEY (phone_country) REFERENCES public.geo_country(code);

ALTER TABLE ONLY public.billing_info
    ADD CONSTRAINT billing_info_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_campaign_day
    ADD CONSTRAINT boosted_campaign_day_user_id_campaign_id_fkey FOREIGN KEY (user_id, campaign_id) REFERENCES public.campaign(user_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_post_campaign
    ADD CONSTRAINT boosted_post_campaign_campaign_id_fkey FOREIGN KEY (user_id, campaign_id) REFERENCES public.campaign(user_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_post_campaign
    ADD CONSTRAINT boosted_post_campaign_post_id_fkey FOREIGN KEY (user_id, post_id) REFERENCES public.boosted_post(user_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_post_day
    ADD CONSTRAINT boosted_post_day_user_id_post_id_fkey FOREIGN KEY (user_id, post_id) REFERENCES public.boosted_post(user_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_post
    ADD CONSTRAINT boosted_post_insight_fkey FOREIGN KEY (id) REFERENCES public.boosted_post_insight(post_id) DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE ONLY public.boosted_post_insight
    ADD CONSTRAINT boosted_post_insight_post_fkey FOREIGN KEY (user_id, post_id) REFERENCES public.boosted_post(user_id, id) ON UPDATE CASCADE ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_post
    ADD CONSTRAINT boosted_post_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_source_day
    ADD CONSTRAINT boosted_source_day_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosted_user_day
    ADD CONSTRAINT boosted_user_day_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.boosting_condition
    ADD CONSTRAINT boosting_condition_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.campaign_history
    ADD CONSTRAINT campaign_history_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.campaign
    ADD CONSTRAINT campaign_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.campaign
    ADD CONSTRAINT campaign_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.email_change
    ADD CONSTRAINT email_change_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.engine_campaign
    ADD CONSTRAINT engine_campaign_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.engine_notice
    ADD CONSTRAINT engine_notice_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.geo_city
    ADD CONSTRAINT geo_city_country_code_fkey FOREIGN KEY (country_code) REFERENCES public.geo_country(code);

ALTER TABLE ONLY public.geo_city
    ADD CONSTRAINT geo_city_region_key_fkey FOREIGN KEY (region_key) REFERENCES public.geo_region(key);

ALTER TABLE ONLY public.geo_region
    ADD CONSTRAINT geo_region_country_code_fkey FOREIGN KEY (country_code) REFERENCES public.geo_country(code);

ALTER TABLE ONLY public.network_a_ad_day
    ADD CONSTRAINT network_a_ad_day_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.network_a_campaign(campaign_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_a_ad_day
    ADD CONSTRAINT network_a_ad_day_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.boosted_post(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_a_ad_insight
    ADD CONSTRAINT network_a_ad_insight_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.network_a_campaign(campaign_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_a_ad_insight
    ADD CONSTRAINT network_a_ad_insight_post_id_fkey FOREIGN KEY (post_id) REFERENCES public.boosted_post(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_a_attempt
    ADD CONSTRAINT network_a_attempt_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.network_a_campaign(campaign_id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_a_campaign
    ADD CONSTRAINT network_a_campaign_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.network_b_media
    ADD CONSTRAINT network_b_media_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.preset
    ADD CONSTRAINT preset_agency_id_fkey FOREIGN KEY (agency_id) REFERENCES public.agency(id);

ALTER TABLE ONLY public.preset
    ADD CONSTRAINT preset_campaign_objective_fkey FOREIGN KEY (campaign_objective) REFERENCES public.campaign_objective(code);

ALTER TABLE ONLY public.preset_card
    ADD CONSTRAINT preset_card_id_fkey FOREIGN KEY (id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.preset_location
    ADD CONSTRAINT preset_location_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.preset_title_prefix
    ADD CONSTRAINT preset_title_prefix_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.preset_vertical
    ADD CONSTRAINT preset_vertical_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.review
    ADD CONSTRAINT review_preset_id_fkey FOREIGN KEY (preset_id) REFERENCES public.preset(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.review
    ADD CONSTRAINT review_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.source
    ADD CONSTRAINT source_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.user_campaign_version
    ADD CONSTRAINT user_campaign_version_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.weekly_report_sent
    ADD CONSTRAINT weekly_report_sent_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;
