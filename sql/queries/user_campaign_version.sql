-- name: UserCampaignVersion :one
-- The user's campaign version (00053; 0 before the user's first campaign
-- change), which keys the user's cached boosted-pages answers; read before
-- the answer, so that an answer is never older than the version it is kept
-- under.
SELECT coalesce((SELECT u.version FROM user_campaign_version AS u WHERE u.user_id = @user_id), 0)::bigint AS campaigns;
