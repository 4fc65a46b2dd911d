-- name: UserCampaignVersion :one
-- The versions that key the user's cached boosted-pages answers: the
-- catalogue's (00052) and the user's campaign version (00053; 0 before the
-- user's first campaign change), read together, before the answer.
SELECT
    (SELECT v.version FROM catalogue_version AS v WHERE v.id)::bigint AS catalogue,
    coalesce((SELECT u.version FROM user_campaign_version AS u WHERE u.user_id = @user_id), 0)::bigint AS campaigns;
