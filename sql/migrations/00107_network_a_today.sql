-- What network_a requires of campaigns today, and what it tells back about
-- each ad:
-- * campaign.special_ad_categories: the special ad categories the campaign
--   declares (network_a's names; none by default). A category narrows what
--   the targeting may do; the interface checks that at save and create.
-- * campaign.dsa_beneficiary / dsa_payor: who benefits from and who pays
--   for the ads, as the EU's transparency rule wants them named on every ad
--   set that reaches a country of the EU; null: the engine takes the page's
--   name and the billing details' company (else full) name.
-- * boosted_post.review_status / review_reason: the review of the post's
--   ad as network_a last reported it; null for a post without an ad (an
--   imported one). A reason goes with disapproved and with_issues only.

-- +goose Up
ALTER TABLE campaign
    ADD COLUMN special_ad_categories text[] NOT NULL DEFAULT '{}'
        CONSTRAINT campaign_special_ad_categories_check CHECK (
            special_ad_categories <@ ARRAY['HOUSING', 'EMPLOYMENT', 'FINANCIAL_PRODUCTS_SERVICES',
                                           'ISSUES_ELECTIONS_POLITICS', 'ONLINE_GAMBLING_AND_GAMING']::text[]
            AND array_position(special_ad_categories, NULL) IS NULL),
    ADD COLUMN dsa_beneficiary text
        CONSTRAINT campaign_dsa_beneficiary_check CHECK (char_length(dsa_beneficiary) BETWEEN 1 AND 512),
    ADD COLUMN dsa_payor text
        CONSTRAINT campaign_dsa_payor_check CHECK (char_length(dsa_payor) BETWEEN 1 AND 512);

ALTER TABLE boosted_post
    ADD COLUMN review_status text
        CONSTRAINT boosted_post_review_status_check CHECK (review_status IN ('pending', 'approved', 'disapproved', 'with_issues')),
    ADD COLUMN review_reason text
        CONSTRAINT boosted_post_review_reason_check CHECK (
            review_reason IS NULL OR review_status IN ('disapproved', 'with_issues'));

-- +goose Down
ALTER TABLE boosted_post DROP COLUMN review_reason, DROP COLUMN review_status;
ALTER TABLE campaign DROP COLUMN dsa_payor, DROP COLUMN dsa_beneficiary, DROP COLUMN special_ad_categories;
