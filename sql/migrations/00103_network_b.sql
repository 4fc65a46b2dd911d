-- network_b: the engine boosts the media of a campaign's network_b account
-- as it boosts the posts of its page, through network_a's Marketing API.
--
-- A media's id is a string of digits that often exceeds 2^53, more than a
-- browser's JSON numbers hold, so a network_b post's id in adboost is a
-- number adboost assigns: network_b_media maps each (user, media id) to
-- its own id, drawn once from boosted_post_network_b_id_seq, stable and
-- never reused. The sequence runs from 2^52 to 2^53 - 1, apart from the
-- small ids of imported posts; a network_a post is recorded under the id
-- network_a gives it, so the two never meet under one id unless network_a
-- itself answers an id in that range (then the network_a post is not
-- recorded, as for an id another user's post holds).
--
-- The boosted post keeps its media id beside it (media_id, null for a
-- network_a post and an imported one). Each campaign with a network_b
-- account boosts its media in an ad set of its own (kind adset_b, named
-- adboost-<campaign id>-network_b) inside the campaign's one network_a
-- campaign, and each media's ad is named adboost-<campaign id>-b<media id>.

-- +goose Up
CREATE SEQUENCE boosted_post_network_b_id_seq AS bigint
    MINVALUE 4503599627370496 MAXVALUE 9007199254740991 START WITH 4503599627370496 NO CYCLE;

CREATE TABLE network_b_media (
    id         bigint PRIMARY KEY DEFAULT nextval('boosted_post_network_b_id_seq')
                      CHECK (id BETWEEN 4503599627370496 AND 9007199254740991),
    user_id    bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    media_id   text NOT NULL CHECK (media_id ~ '^[0-9]{1,40}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT network_b_media_key UNIQUE (user_id, media_id)
);

ALTER SEQUENCE boosted_post_network_b_id_seq OWNED BY network_b_media.id;

ALTER TABLE boosted_post
    ADD COLUMN media_id text CONSTRAINT boosted_post_media_id_check CHECK (media_id ~ '^[0-9]{1,40}$');

-- A user's network_b post is found by its media id (and one media is one post).
CREATE UNIQUE INDEX boosted_post_media_key ON boosted_post (user_id, media_id) WHERE media_id IS NOT NULL;

ALTER TABLE network_a_campaign
    ADD COLUMN adset_b_object_id text CHECK (adset_b_object_id <> '' AND length(adset_b_object_id) <= 100),
    ADD COLUMN adset_b_synced jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(adset_b_synced) = 'object');

ALTER TABLE network_a_attempt
    DROP CONSTRAINT network_a_attempt_kind_check,
    ADD CONSTRAINT network_a_attempt_kind_check CHECK (kind IN ('campaign', 'adset', 'adset_b', 'ad')),
    DROP CONSTRAINT network_a_attempt_name_check,
    ADD CONSTRAINT network_a_attempt_name_check
        CHECK (name ~ '^adboost-[0-9]+(-[0-9]+|-network_b|-b[0-9]+)?$');

-- +goose Down
DELETE FROM network_a_attempt WHERE kind = 'adset_b' OR name ~ '-b[0-9]+$';
ALTER TABLE network_a_attempt
    DROP CONSTRAINT network_a_attempt_name_check,
    ADD CONSTRAINT network_a_attempt_name_check CHECK (name ~ '^adboost-[0-9]+(-[0-9]+)?$'),
    DROP CONSTRAINT network_a_attempt_kind_check,
    ADD CONSTRAINT network_a_attempt_kind_check CHECK (kind IN ('campaign', 'adset', 'ad'));
ALTER TABLE network_a_campaign DROP COLUMN adset_b_synced, DROP COLUMN adset_b_object_id;
DROP INDEX boosted_post_media_key;
ALTER TABLE boosted_post DROP COLUMN media_id;
DROP TABLE network_b_media;
