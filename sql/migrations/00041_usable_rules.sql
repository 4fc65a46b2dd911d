-- The rules of what a user may use, written once for every query that needs
-- them. Plain SQL functions: the planner inlines them, so the queries keep
-- their indexes.

-- +goose Up

-- A user may use an active preset that is public or published by the user's
-- own agency (user_agency_id null: the public ones only).
-- +goose StatementBegin
CREATE FUNCTION preset_usable(p preset, user_agency_id bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN p.active AND (NOT p.private OR p.agency_id IS NOT DISTINCT FROM user_agency_id);
-- +goose StatementEnd

-- Whether page_id is one of the user's network_a pages.
-- +goose StatementBegin
CREATE FUNCTION user_has_page(user_id bigint, page_id bigint) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN EXISTS (
    SELECT 1 FROM source AS s
    WHERE s.user_id = user_has_page.user_id AND s.id = user_has_page.page_id AND s.platform = 'network_a');
-- +goose StatementEnd

-- Whether network_b_id is one of the user's network_b accounts: an account
-- of its own, or the account linked to one of the user's pages.
-- +goose StatementBegin
CREATE FUNCTION user_has_network_b(user_id bigint, network_b_id bigint) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN EXISTS (
    SELECT 1 FROM source AS s
    WHERE s.user_id = user_has_network_b.user_id
      AND ((s.id = user_has_network_b.network_b_id AND s.platform = 'network_b')
           OR s.network_b_id = user_has_network_b.network_b_id));
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION user_has_network_b(bigint, bigint);
DROP FUNCTION user_has_page(bigint, bigint);
DROP FUNCTION preset_usable(preset, bigint);
