-- The agency that sign-up creates for every user is the user's own workspace,
-- named after the user, not a business that asked to be found: it stays out
-- of the public agency directory (which would otherwise publish the name of
-- every user) while `listed` is false. Agencies of the catalogue are listed.

-- +goose Up
ALTER TABLE agency ADD COLUMN listed boolean NOT NULL DEFAULT true;

-- agencies/list orders the listed agencies by username and pages through them.
DROP INDEX agency_username_idx;
CREATE INDEX agency_username_idx ON agency (username, id) WHERE listed;

-- +goose Down
DROP INDEX agency_username_idx;
CREATE INDEX agency_username_idx ON agency (username, id);
ALTER TABLE agency DROP COLUMN listed;
