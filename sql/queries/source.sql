-- name: SourceUpsert :batchexec
-- Inserts a source of an import file, or updates the user's source with that
-- id. access_token is the page's sealed network_a token; a row without one
-- keeps the stored token (and its refusal, if any), a row with one replaces
-- it and clears the mark of a refused token.
INSERT INTO source (
    user_id, id, platform, name, picture, network_b_id, network_b_name, network_b_picture, access_token
) VALUES (
    @user_id, @id, @platform, @name, @picture, sqlc.narg(network_b_id), @network_b_name, @network_b_picture,
    sqlc.narg(access_token)
)
ON CONFLICT (user_id, id) DO UPDATE SET
    platform          = EXCLUDED.platform,
    name              = EXCLUDED.name,
    picture           = EXCLUDED.picture,
    network_b_id      = EXCLUDED.network_b_id,
    network_b_name    = EXCLUDED.network_b_name,
    network_b_picture = EXCLUDED.network_b_picture,
    access_token      = coalesce(EXCLUDED.access_token, source.access_token),
    access_token_refused_at = CASE WHEN EXCLUDED.access_token IS NULL THEN source.access_token_refused_at END,
    updated_at        = now();

-- name: SourceUnlinkNetworkB :exec
-- First step of a refresh from network_a: the user's pages that hold one of
-- the network_b accounts network_a now reports drop that link, so that
-- SourceRefresh can give each account to the page network_a links it to (a
-- network_b account belongs to one page of a user: source_network_b_key).
UPDATE source SET
    network_b_id      = NULL,
    network_b_name    = '',
    network_b_picture = '',
    updated_at        = now()
WHERE user_id = @user_id
  AND network_b_id = ANY (@network_b_ids::bigint[]);

-- name: SourceRefresh :exec
-- Second step of a refresh (signup-sn, login-sn): inserts or updates the
-- user's network_a pages as network_a answered them, in one statement. The
-- arrays are parallel, one entry a page in network_a's order; a network_b id
-- of 0 means the page has no network_b account. A page listed twice counts
-- once (its first entry), an account linked to two pages stays with the first,
-- a name too long is cut to 255 characters and a picture URL too long is
-- dropped. Pages network_a no longer lists are kept: campaigns may refer to them.
-- access_tokens holds each page's sealed token (NULL: network_a answered
-- none); with store_tokens they replace the stored ones and clear the mark
-- of a refused token (access_token_refused_at) of the pages listed, without
-- it (no TOKEN_ENCRYPTION_KEY) the stored tokens stay as they are. A page
-- network_a no longer lists keeps its token and its mark.
INSERT INTO source AS s (
    user_id, id, platform, name, picture, network_b_id, network_b_name, network_b_picture, access_token
)
SELECT
    @user_id,
    p.id,
    'network_a',
    left(p.name, 255),
    CASE WHEN length(p.picture) <= 2048 THEN p.picture ELSE '' END,
    CASE WHEN p.account_rank = 1 THEN p.network_b_id END,
    CASE WHEN p.account_rank = 1 THEN left(p.network_b_name, 255) ELSE '' END,
    CASE WHEN p.account_rank = 1 AND length(p.network_b_picture) <= 2048 THEN p.network_b_picture ELSE '' END,
    CASE WHEN @store_tokens::boolean THEN p.access_token END
FROM (
    SELECT
        d.id, d.name, d.picture, d.network_b_id, d.network_b_name, d.network_b_picture, d.access_token, d.ord,
        row_number() OVER (PARTITION BY d.network_b_id ORDER BY d.ord) AS account_rank
    FROM (
        SELECT DISTINCT ON (u.id)
            u.id,
            (@names::text[])[u.ord]                        AS name,
            (@pictures::text[])[u.ord]                     AS picture,
            nullif((@network_b_ids::bigint[])[u.ord], 0)   AS network_b_id,
            (@network_b_names::text[])[u.ord]              AS network_b_name,
            (@network_b_pictures::text[])[u.ord]           AS network_b_picture,
            (@access_tokens::bytea[])[u.ord]               AS access_token,
            u.ord
        FROM unnest(@ids::bigint[]) WITH ORDINALITY AS u (id, ord)
        ORDER BY u.id, u.ord
    ) AS d
) AS p
ORDER BY p.ord
ON CONFLICT (user_id, id) DO UPDATE SET
    platform          = 'network_a',
    name              = EXCLUDED.name,
    picture           = EXCLUDED.picture,
    network_b_id      = EXCLUDED.network_b_id,
    network_b_name    = EXCLUDED.network_b_name,
    network_b_picture = EXCLUDED.network_b_picture,
    access_token      = CASE WHEN @store_tokens::boolean THEN EXCLUDED.access_token ELSE s.access_token END,
    access_token_refused_at = CASE WHEN @store_tokens::boolean THEN NULL ELSE s.access_token_refused_at END,
    updated_at        = now();

-- name: SourceAccessTokenRefused :one
-- The boosting engine: network_a refused the page's token (OAuth error 190
-- on a call made with it: the page's posts, followers, a post's reach). The
-- engine boosts none of the page's posts until a sign-in stores a new token
-- for it (SourceRefresh); the user's own token, and with it pauses, ad set
-- changes and statistics, are not concerned. Answers the page only the first
-- time, so that the refusal is logged once. Only the token the work used is
-- marked: a sign-in that stored a new one meanwhile is not undone.
UPDATE source
SET access_token_refused_at = now(),
    updated_at              = now()
WHERE user_id = @user_id
  AND id = @id
  AND platform = 'network_a'
  AND access_token = @access_token
  AND access_token_refused_at IS NULL
RETURNING id;
