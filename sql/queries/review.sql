-- name: ReviewSubmit :one
-- Saves the signed-in user's review of a preset (reviews/submit)
-- and answers the Review. The preset must be active and visible to the user:
-- public, or published by the user's own agency; otherwise nothing is written
-- and no row comes back (404). One review per user and preset: a second
-- submit replaces the rating, the message and the time of the first.
WITH target AS (
    SELECT p.id AS preset_id, u.id AS user_id
    FROM preset AS p, app_user AS u
    WHERE p.id = @preset_id
      AND u.id = @user_id
      AND preset_usable(p, u.agency_id)
), saved AS (
    INSERT INTO review (preset_id, user_id, rating, message)
    SELECT t.preset_id, t.user_id, @rating, @message
    FROM target AS t
    ON CONFLICT (preset_id, user_id) DO UPDATE SET
        rating     = EXCLUDED.rating,
        message    = EXCLUDED.message,
        created_at = now()
    RETURNING id, user_id, rating, message, created_at
)
SELECT
    s.id,
    s.rating::bigint AS rating,
    s.message,
    to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS created_at,
    jsonb_build_object('id', u.id, 'first_name', u.first_name, 'last_name', u.last_name) AS "user"
FROM saved AS s
JOIN app_user AS u ON u.id = s.user_id;

-- name: ReviewUpsert :batchexec
-- Inserts a review of an import file, or updates the review with that id.
-- Without a @created_at the review is dated now.
INSERT INTO review (id, preset_id, user_id, rating, message, created_at)
VALUES (@id, @preset_id, @user_id, @rating, @message, coalesce(sqlc.narg(created_at)::timestamptz, now()))
ON CONFLICT (id) DO UPDATE SET
    preset_id  = EXCLUDED.preset_id,
    user_id    = EXCLUDED.user_id,
    rating     = EXCLUDED.rating,
    message    = EXCLUDED.message,
    created_at = EXCLUDED.created_at;
