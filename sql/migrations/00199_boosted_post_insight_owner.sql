-- boosted-posts/batch-insights from one index: each post's counters row
-- carries its owner, and every post has one.
--
-- batch-insights sums the counters of the caller's posts among up to 1,000
-- ids and counts those posts. Without the owner beside the counters, each
-- id is a probe of boosted_post (user_id, id), joined to a probe of
-- boosted_post_insight's primary key: a nested loop of 2,000 index
-- descents and 1,000 heap fetches. With the owner and a row for every
-- post, the read is one index scan over the ids: the owner's posts are its
-- rows, a post without statistics is a row of zeros.
-- boosted_post_insight_user_idx is in (user_id, post_id) order and
-- includes the counters, so that the scan reads the owner's range alone
-- and sums the counters from the index (an index-only scan). With the
-- owner as its first column, PostgreSQL costs the scan by the owner's
-- share of the table and plans it in custom and generic plans alike; an
-- index on post_id alone, with the owner and the counters included, was
-- sometimes planned as a sequential scan of every user's rows for a
-- thousand ids among 60,000 posts (TestCampaignQueriesUseIndexes). A
-- change of counters writes that index too (no HOT update); the engine
-- writes only the posts whose statistics changed.
--
-- PostgreSQL keeps both facts exact:
--   - the foreign key (user_id, post_id) references boosted_post (user_id,
--     id) ON UPDATE CASCADE ON DELETE CASCADE: a post's new owner is
--     written to its row in the same statement, and a row with another
--     owner is refused. It replaces the foreign key on post_id alone;
--   - boosted_post's foreign key (id) references the row back, checked at
--     commit (DEFERRABLE INITIALLY DEFERRED): the statement that records a
--     post writes its row of zeros in the same transaction, and a post
--     without one is refused.

-- +goose Up
ALTER TABLE boosted_post_insight ADD COLUMN user_id bigint;
UPDATE boosted_post_insight AS i SET user_id = p.user_id FROM boosted_post AS p WHERE p.id = i.post_id;
INSERT INTO boosted_post_insight (user_id, post_id)
SELECT p.user_id, p.id
FROM boosted_post AS p
WHERE NOT EXISTS (SELECT FROM boosted_post_insight AS i WHERE i.post_id = p.id);
ALTER TABLE boosted_post_insight ALTER COLUMN user_id SET NOT NULL;
CREATE UNIQUE INDEX boosted_post_insight_user_idx ON boosted_post_insight (user_id, post_id)
    INCLUDE (impressions, reach, engagement, clicks, spend, conversions);
ALTER TABLE boosted_post_insight DROP CONSTRAINT boosted_post_insight_post_id_fkey;
ALTER TABLE boosted_post_insight ADD CONSTRAINT boosted_post_insight_post_fkey FOREIGN KEY (user_id, post_id)
    REFERENCES boosted_post (user_id, id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE boosted_post ADD CONSTRAINT boosted_post_insight_fkey FOREIGN KEY (id)
    REFERENCES boosted_post_insight (post_id) DEFERRABLE INITIALLY DEFERRED;

-- +goose Down
ALTER TABLE boosted_post DROP CONSTRAINT boosted_post_insight_fkey;
ALTER TABLE boosted_post_insight DROP CONSTRAINT boosted_post_insight_post_fkey;
ALTER TABLE boosted_post_insight ADD CONSTRAINT boosted_post_insight_post_id_fkey FOREIGN KEY (post_id)
    REFERENCES boosted_post (id) ON DELETE CASCADE;
DROP INDEX boosted_post_insight_user_idx;
ALTER TABLE boosted_post_insight DROP COLUMN user_id;
