-- A campaign's hashtag is empty (no hashtag rule) or a
-- tag without surrounding spaces. "#" or "##" used to pass and turned the
-- rule off without saying so (every post was boosted); " #gym" could never
-- match. boosted-pages/save and create now trim the hashtag and take one
-- tag only (`#` then letters, digits or `_`); the schema keeps the part that
-- matters to the engine for every writer, imports included.

-- +goose Up
-- Existing rows: spaces trimmed; a hashtag of nothing but `#` is what it
-- already meant to the engine, no rule.
-- "Spaces" are every character that \s matches, as in the check below.
UPDATE campaign
SET hashtag = CASE WHEN regexp_replace(hashtag, '^\s+|\s+$', '', 'g') !~ '[^#]' THEN ''
                   ELSE regexp_replace(hashtag, '^\s+|\s+$', '', 'g') END
WHERE hashtag ~ '^\s|\s$' OR (hashtag <> '' AND hashtag !~ '[^#]');

ALTER TABLE campaign
    ADD CONSTRAINT campaign_hashtag_tag_check
    CHECK (hashtag !~ '^\s|\s$' AND (hashtag = '' OR hashtag ~ '[^#]'));

-- +goose Down
ALTER TABLE campaign DROP CONSTRAINT campaign_hashtag_tag_check;
