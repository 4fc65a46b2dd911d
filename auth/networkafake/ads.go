package networkafake

import (
	"slices"
)

// checkAd answers an error when an ad create is one network_a refuses: an
// ad set of another account, a creative that is not one existing post of a
// page the account's users manage (object_story_id) or one existing media
// (source_instagram_media_id with instagram_user_id and the linked page as
// object_id), a creative placed where it cannot run, and an ad in an
// engagement ad set that does not name its page.
func (f *Fake) checkAd(accountID string, m map[string]any) *answer {
	adset := f.byID[str(m, "adset_id")]
	if adset == nil || adset.Kind != "adset" || adset.AccountID != accountID {
		a := paramError("Param adset_id must be an ad set of this ad account")
		return &a
	}
	creative, _ := m["creative"].(map[string]any)
	var a *answer
	if given(creative, "source_instagram_media_id") {
		a = f.checkMediaCreative(creative, adset)
	} else {
		a = f.checkPostCreative(accountID, creative, adset)
	}
	if a != nil {
		return a
	}
	return f.checkAdSetPage(adset)
}

// placements tells where an ad set's ads may run: on network_b (its
// targeting names no publisher_platforms, or names network_b), and only on
// network_b.
func placements(adset *Object) (mayRunOnB, onlyB bool) {
	platforms, _ := targetingOf(adset.Fields)["publisher_platforms"].([]any)
	if len(platforms) == 0 {
		return true, false
	}
	return slices.Contains(platforms, any("network_b")), !slices.ContainsFunc(platforms, func(p any) bool { return p != "network_b" })
}

// noInstagramAccount is network_a's refusal of an ad that may run on
// network_b without the network_b account that represents the page.
func noInstagramAccount(field string) *answer {
	return refusal{SubcodeNoInstagramAccount, "Instagram Account Is Missing",
		"This ad may run on network_b: choose the network_b account that represents your page (" + field + "), or remove network_b from the ad set's placements.",
		blameOf(field)}.ref()
}

// checkPostCreative checks the creative of a network_a post.
func (f *Fake) checkPostCreative(accountID string, creative map[string]any, adset *Object) *answer {
	story := str(creative, "object_story_id")
	if story == "" {
		a := paramError("Param creative.object_story_id must be the id of an existing post")
		return &a
	}
	page, exists := f.postPage[story]
	if !exists || !f.accountPages[accountID][page] {
		return refusal{SubcodePostUnavailable, "Post Unavailable",
			"The post you chose for this ad isn't available: it may have been deleted or unpublished, or it doesn't belong to your page.",
			blameOf("creative.object_story_id")}.ref()
	}
	promoted, _ := adset.Fields["promoted_object"].(map[string]any)
	if id := str(promoted, "page_id"); id != "" && id != page {
		return refusal{SubcodePageMismatch, "Page Mismatch",
			"The post you chose belongs to another page than the one this ad set promotes (promoted_object.page_id).",
			blameOf("creative.object_story_id")}.ref()
	}
	mayRunOnB, onlyB := placements(adset)
	if onlyB {
		a := paramError("The ad set's targeting.publisher_platforms is network_b alone: an ad of a network_a post (object_story_id) cannot run in it")
		return &a
	}
	if !mayRunOnB {
		return nil
	}
	user := str(creative, "instagram_user_id")
	if user == "" {
		return noInstagramAccount("creative.instagram_user_id")
	}
	if p := f.pages[page]; p == nil || p.B == nil || p.B.ID != user {
		a := paramError("Param creative.instagram_user_id must be the network_b account linked to the post's page")
		return &a
	}
	return nil
}

// checkMediaCreative checks the creative of a network_b media.
func (f *Fake) checkMediaCreative(creative map[string]any, adset *Object) *answer {
	media := str(creative, "source_instagram_media_id")
	if given(creative, "object_story_id") {
		a := paramError("Param creative takes object_story_id or source_instagram_media_id, not both")
		return &a
	}
	for _, k := range []string{"object_id", "instagram_user_id"} {
		if !given(creative, k) {
			return noInstagramAccount("creative." + k)
		}
	}
	if _, ok := f.media[media]; !ok {
		return refusal{SubcodePostNotAvailable, "Post Not Available",
			"The network_b post you chose for this ad isn't available: it may have been deleted.",
			blameOf("creative.source_instagram_media_id")}.ref()
	}
	account := f.mediaAccount[media]
	if str(creative, "instagram_user_id") != account {
		a := paramError("Param creative.instagram_user_id must be the network_b account of the media")
		return &a
	}
	if _, page, _ := f.accountB(account); str(creative, "object_id") != page {
		a := paramError("Param creative.object_id must be the page the network_b account is linked to")
		return &a
	}
	if mayRunOnB, _ := placements(adset); !mayRunOnB {
		a := paramError("The ad set's targeting.publisher_platforms does not include network_b: an ad of network_b media (source_instagram_media_id) cannot run in it")
		return &a
	}
	return nil
}

// checkAdSetPage: an ad in an ad set of an OUTCOME_ENGAGEMENT campaign needs
// the ad set's promoted_object.page_id.
func (f *Fake) checkAdSetPage(adset *Object) *answer {
	_, campaign := f.parents(adset)
	if campaign == nil || str(campaign.Fields, "objective") != "OUTCOME_ENGAGEMENT" {
		return nil
	}
	promoted, _ := adset.Fields["promoted_object"].(map[string]any)
	if given(promoted, "page_id") {
		return nil
	}
	return refusal{SubcodeNoPageID, "Page Required",
		"Ads in an ad set with the engagement objective need the page they promote: set promoted_object.page_id on the ad set.",
		blameOf("promoted_object.page_id")}.ref()
}

// hasKey tells whether the key appears in v at any depth of its objects
// and arrays.
func hasKey(v any, key string) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == key || hasKey(x, key) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return hasKey(x, key) })
	}
	return false
}
