-- agencies/list's search, made cheap to test and stated once.
--
-- The search is a case-insensitive, literal substring of an agency's
-- username, description or locations. Tested as three ILIKEs, each agency
-- it reads was lower-cased three times over: a service's agencies checked
-- against a search cost milliseconds. Column search_text holds the three
-- lower-cased, joined by the unit separator (U+001F), kept by PostgreSQL
-- (a stored generated column); agency_matches tests the lower-cased search
-- as a literal substring of it (LIKE, which agency_search_text_idx, a
-- trigram index, serves), and a search that holds the separator matches
-- nothing, as it matches no single field. It is the answer of the three
-- ILIKEs: ILIKE lower-cases both sides the same way.
--
-- agency_matches is one SQL expression, which the planner inlines: each
-- way AgencyList reads the directory states the search once.

-- +goose Up
ALTER TABLE agency ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (lower(username) || E'\x1f' || lower(description) || E'\x1f' || lower(locations)) STORED;

CREATE INDEX agency_search_text_idx ON agency USING gin (search_text gin_trgm_ops);

DROP INDEX agency_search_idx;

CREATE FUNCTION agency_matches(search_text text, search text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN search IS NULL
        OR (search_text LIKE '%' || like_escape(lower(search)) || '%' AND strpos(search, E'\x1f') = 0);

-- +goose Down
DROP FUNCTION agency_matches(text, text);

CREATE INDEX agency_search_idx ON agency
    USING gin (username gin_trgm_ops, description gin_trgm_ops, locations gin_trgm_ops);

ALTER TABLE agency DROP COLUMN search_text;
