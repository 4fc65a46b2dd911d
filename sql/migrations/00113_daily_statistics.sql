-- Statistics by day, as network_a reports them in each ad account's time
-- zone (one row per ad and day, `time_increment=1`):
-- * network_a_ad_day: an ad's figures of one day (the engine's ad of a post
--   in a campaign), as network_a last reported them; a day network_a
--   reports no more keeps its row.
-- * boosted_post_day: a post's figures of one day and currency, the sum
--   over its ads of every campaign: what the stats of a post or of a
--   campaign's posts read.
-- * boosted_source_day and boosted_user_day: the same summed over a
--   source's posts and over all of a user's posts, so that a whole
--   account's or source's year is 366 rows a currency, not one per post and
--   day.
-- The statement that writes network_a_ad_day (NetworkAAdDaysSync) moves the
-- three sums by what changed, in the same transaction: no trigger.
-- network_a_campaign.days_read_at is when the engine last read the
-- campaign's days (null: never; the first read covers the whole life).

-- +goose Up
CREATE TABLE network_a_ad_day (
    campaign_id bigint NOT NULL REFERENCES network_a_campaign (campaign_id) ON DELETE CASCADE,
    post_id     bigint NOT NULL REFERENCES boosted_post (id) ON DELETE CASCADE,
    day         date NOT NULL,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(14, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    PRIMARY KEY (campaign_id, post_id, day)
);

-- A post's day sums its ads of every campaign; deleting a post goes from it.
CREATE INDEX network_a_ad_day_post_idx ON network_a_ad_day (post_id, day);

CREATE TABLE boosted_post_day (
    user_id     bigint NOT NULL,
    post_id     bigint NOT NULL,
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    day         date NOT NULL,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(16, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    PRIMARY KEY (user_id, post_id, currency, day),
    FOREIGN KEY (user_id, post_id) REFERENCES boosted_post (user_id, id) ON DELETE CASCADE
);

CREATE TABLE boosted_source_day (
    user_id     bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    source_id   bigint NOT NULL CHECK (source_id > 0),
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    day         date NOT NULL,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(18, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    PRIMARY KEY (user_id, source_id, currency, day)
);

CREATE TABLE boosted_user_day (
    user_id     bigint NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    day         date NOT NULL,
    impressions bigint NOT NULL DEFAULT 0 CHECK (impressions >= 0),
    reach       bigint NOT NULL DEFAULT 0 CHECK (reach >= 0),
    engagement  bigint NOT NULL DEFAULT 0 CHECK (engagement >= 0),
    clicks      bigint NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    spend       numeric(18, 3) NOT NULL DEFAULT 0 CHECK (spend >= 0),
    conversions bigint NOT NULL DEFAULT 0 CHECK (conversions >= 0),
    PRIMARY KEY (user_id, currency, day)
);

ALTER TABLE network_a_campaign ADD COLUMN days_read_at timestamptz;

-- +goose Down
ALTER TABLE network_a_campaign DROP COLUMN days_read_at;
DROP TABLE boosted_user_day;
DROP TABLE boosted_source_day;
DROP TABLE boosted_post_day;
DROP TABLE network_a_ad_day;
