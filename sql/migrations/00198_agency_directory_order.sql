-- agencies/list in username order from a service's or an industry's own
-- entries.
--
-- The directory is answered by username then id. Without the username
-- beside a service's or an industry's entries, a page of them joins every
-- agency of the service (a tenth of the directory) to agency for its
-- username and sorts them all. agency_service and agency_industry hold the
-- agency's username (agency_username) and an index in (service or
-- industry, agency_username, agency_id) order, so that a page is read in
-- order and ends with the page.
--
-- PostgreSQL keeps the copy exact: the foreign key (agency_id,
-- agency_username) references agency (id, username) ON UPDATE CASCADE, so
-- an agency's new username is written to its entries in the same
-- statement, and an entry with another username is refused. It replaces
-- the foreign key on agency_id alone (ON DELETE CASCADE as before).

-- +goose Up
ALTER TABLE agency ADD CONSTRAINT agency_id_username_key UNIQUE (id, username);

ALTER TABLE agency_service ADD COLUMN agency_username text;
UPDATE agency_service AS x SET agency_username = a.username FROM agency AS a WHERE a.id = x.agency_id;
ALTER TABLE agency_service ALTER COLUMN agency_username SET NOT NULL;
ALTER TABLE agency_service DROP CONSTRAINT agency_service_agency_id_fkey;
ALTER TABLE agency_service ADD CONSTRAINT agency_service_agency_fkey FOREIGN KEY (agency_id, agency_username)
    REFERENCES agency (id, username) ON UPDATE CASCADE ON DELETE CASCADE;
DROP INDEX agency_service_service_idx;
CREATE INDEX agency_service_service_idx ON agency_service (service_id, agency_username, agency_id);

ALTER TABLE agency_industry ADD COLUMN agency_username text;
UPDATE agency_industry AS y SET agency_username = a.username FROM agency AS a WHERE a.id = y.agency_id;
ALTER TABLE agency_industry ALTER COLUMN agency_username SET NOT NULL;
ALTER TABLE agency_industry DROP CONSTRAINT agency_industry_agency_id_fkey;
ALTER TABLE agency_industry ADD CONSTRAINT agency_industry_agency_fkey FOREIGN KEY (agency_id, agency_username)
    REFERENCES agency (id, username) ON UPDATE CASCADE ON DELETE CASCADE;
DROP INDEX agency_industry_industry_idx;
CREATE INDEX agency_industry_industry_idx ON agency_industry (industry_id, agency_username, agency_id);

-- +goose Down
DROP INDEX agency_industry_industry_idx;
CREATE INDEX agency_industry_industry_idx ON agency_industry (industry_id, agency_id);
ALTER TABLE agency_industry DROP CONSTRAINT agency_industry_agency_fkey;
ALTER TABLE agency_industry ADD CONSTRAINT agency_industry_agency_id_fkey FOREIGN KEY (agency_id)
    REFERENCES agency (id) ON DELETE CASCADE;
ALTER TABLE agency_industry DROP COLUMN agency_username;

DROP INDEX agency_service_service_idx;
CREATE INDEX agency_service_service_idx ON agency_service (service_id, agency_id);
ALTER TABLE agency_service DROP CONSTRAINT agency_service_agency_fkey;
ALTER TABLE agency_service ADD CONSTRAINT agency_service_agency_id_fkey FOREIGN KEY (agency_id)
    REFERENCES agency (id) ON DELETE CASCADE;
ALTER TABLE agency_service DROP COLUMN agency_username;

ALTER TABLE agency DROP CONSTRAINT agency_id_username_key;
