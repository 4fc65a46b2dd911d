-- name: BoostingConditionReplace :batchexec
-- Makes the boosting condition of a preset of an import file what the file
-- says: with a @reach, inserted or updated with its keywords and its default
-- @rules (checked whole by the caller, '{}' for none), which campaigns made
-- from the preset start with; without one (the preset has no condition),
-- the stored one is deleted.
WITH dropped AS (
    DELETE FROM boosting_condition
    WHERE preset_id = @preset_id
      AND sqlc.narg(reach)::int IS NULL
)
INSERT INTO boosting_condition (preset_id, keywords, reach, rules)
SELECT @preset_id, @keywords::text[], sqlc.narg(reach)::int, @rules::jsonb
WHERE sqlc.narg(reach)::int IS NOT NULL
ON CONFLICT (preset_id) DO UPDATE SET
    keywords = EXCLUDED.keywords,
    reach    = EXCLUDED.reach,
    rules    = EXCLUDED.rules;
