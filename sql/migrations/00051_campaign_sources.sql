-- boosted-pages/sources groups the campaigns without a page by their
-- network_b account (issue 10): it walks the user's distinct accounts of
-- such campaigns and takes each one's newest campaign from this index, so
-- that its cost follows the number of sources, not of campaigns.

-- +goose Up
CREATE INDEX campaign_account_only_idx ON campaign (user_id, network_b_id, id DESC) WHERE page_id IS NULL;

-- +goose Down
DROP INDEX campaign_account_only_idx;
