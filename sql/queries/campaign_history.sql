-- The history of a user's campaigns. Entries outlive their campaign.

-- name: CampaignHistoryList :one
-- boosted-pages/history: {"data": [{id, action, details, created_at}]} of one
-- campaign of the user, newest first, created_at as `YYYY-MM-DD HH:MM:SS`
-- UTC. No row (404) unless the user has that campaign or had it (its history
-- stays after deletion); another user's entries are never read.
SELECT jsonb_build_object('data', coalesce(jsonb_agg(jsonb_build_object(
        'id', h.id,
        'action', h.action,
        'details', h.details,
        'created_at', to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
    ) ORDER BY h.id DESC), '[]'::jsonb)) AS history
FROM campaign_history AS h
WHERE h.user_id = @user_id
  AND h.campaign_id = @campaign_id
HAVING count(*) > 0
    OR EXISTS (SELECT 1 FROM campaign AS c WHERE c.user_id = @user_id AND c.id = @campaign_id);

-- name: CampaignHistoryImported :batchexec
-- Records the `created` entry of a campaign of an import file, once: when the
-- campaign has no history yet, or when its last entry is `deleted` (the id was
-- imported again after the campaign was deleted).
INSERT INTO campaign_history (user_id, campaign_id, action, details)
SELECT c.user_id, c.id, 'created', jsonb_build_object(
    'imported', true,
    'preset_id', c.preset_id,
    'page_id', coalesce(c.page_id, 0),
    'network_b_id', coalesce(c.network_b_id, 0),
    'campaign_budget_value', c.campaign_budget_value,
    'goal', c.goal,
    'audience_targeting', c.audience_targeting,
    'hashtag', c.hashtag,
    'end_date', to_jsonb(c.end_date),
    'rules', c.rules)
FROM campaign AS c
WHERE c.id = @id
  AND coalesce((
        SELECT h.action
        FROM campaign_history AS h
        WHERE h.user_id = c.user_id AND h.campaign_id = c.id
        ORDER BY h.id DESC
        LIMIT 1
      ), 'deleted') = 'deleted';
