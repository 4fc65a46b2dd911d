-- The pauses network_a asked for: no call in a scope
-- until its time.

-- name: NetworkAThrottleRecord :exec
-- Records a pause; a pause already in force that ends later is kept. Rows
-- that ended more than a day ago are removed on the way, so the table holds
-- only what matters.
WITH recorded AS (
    INSERT INTO network_a_throttle AS t (scope, key, until)
    VALUES (@scope, @key, @until)
    ON CONFLICT (scope, key) DO UPDATE SET
        until      = greatest(t.until, EXCLUDED.until),
        updated_at = now()
    RETURNING t.scope
)
DELETE FROM network_a_throttle AS o
WHERE o.until < now() - interval '1 day'
  AND EXISTS (SELECT 1 FROM recorded);

-- name: NetworkAThrottleActive :many
-- The pauses still in force, by network_a_throttle_until_idx.
SELECT t.scope, t.key, t.until
FROM network_a_throttle AS t
WHERE t.until > now()
ORDER BY t.scope, t.key;
