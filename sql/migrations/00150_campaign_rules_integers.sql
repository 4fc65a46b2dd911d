-- The integer rules of a stored rules object (min_reactions, min_comments,
-- min_shares, post_age_min_hours, post_age_max_hours, post_days,
-- max_posts_per_day) are JSON numbers written without a fraction, since
-- the engine reads them into integers (rules.Rules) and 10.0 is none:
-- campaign_rules_whole takes only numbers of scale 0 (1e1 is 10 in jsonb,
-- 10.0 keeps its scale). Stored rules with an integer rule written with a
-- fraction of zeros get it written as an integer first.

-- +goose Up
UPDATE campaign AS c
SET rules = (
    SELECT jsonb_object_agg(e.key, CASE WHEN jsonb_typeof(e.value) = 'number' AND e.key = ANY (n.names)
                                        THEN to_jsonb(trunc(e.value::numeric)) ELSE e.value END)
    FROM jsonb_each(c.rules) AS e)
FROM (SELECT ARRAY['min_reactions', 'min_comments', 'min_shares', 'post_age_min_hours', 'post_age_max_hours',
                   'post_days', 'max_posts_per_day'] AS names) AS n
WHERE EXISTS (
    SELECT 1
    FROM jsonb_each(c.rules) AS e
    WHERE e.key = ANY (n.names) AND jsonb_typeof(e.value) = 'number' AND scale(e.value::numeric) > 0);

UPDATE boosting_condition AS b
SET rules = (
    SELECT jsonb_object_agg(e.key, CASE WHEN jsonb_typeof(e.value) = 'number' AND e.key = ANY (n.names)
                                        THEN to_jsonb(trunc(e.value::numeric)) ELSE e.value END)
    FROM jsonb_each(b.rules) AS e)
FROM (SELECT ARRAY['min_reactions', 'min_comments', 'min_shares', 'post_age_min_hours', 'post_age_max_hours',
                   'post_days', 'max_posts_per_day'] AS names) AS n
WHERE EXISTS (
    SELECT 1
    FROM jsonb_each(b.rules) AS e
    WHERE e.key = ANY (n.names) AND jsonb_typeof(e.value) = 'number' AND scale(e.value::numeric) > 0);

-- campaign_rules_whole tells whether v (a member of a rules object, SQL
-- null when absent) is absent or an integer from lo to hi, written as one.
CREATE OR REPLACE FUNCTION campaign_rules_whole(v jsonb, lo bigint, hi bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN v IS NULL THEN true
    WHEN jsonb_typeof(v) <> 'number' THEN false
    ELSE scale(v::numeric) = 0 AND v::numeric BETWEEN lo AND hi
END;

-- +goose Down
CREATE OR REPLACE FUNCTION campaign_rules_whole(v jsonb, lo bigint, hi bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
    WHEN v IS NULL THEN true
    WHEN jsonb_typeof(v) <> 'number' THEN false
    ELSE v::numeric = trunc(v::numeric) AND v::numeric BETWEEN lo AND hi
END;
