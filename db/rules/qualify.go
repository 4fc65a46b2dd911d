package rules

import (
	"math/big"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Network is the network a post is on.
type Network uint8

const (
	NetworkA Network = iota // a network_a page's post
	NetworkB                // a network_b account's media
)

// ContentType is a kind of post as content_types names it; "" is a post
// of none of them.
type ContentType string

const (
	Photo ContentType = "photo"
	Video ContentType = "video"
	Link  ContentType = "link"
	Text  ContentType = "text"
)

// Post is what network_a says about a post of a page, or about a media of
// a network_b account: all the rules look at.
type Post struct {
	Network Network
	// Kind is network_a's status_type (added_photos, added_video,
	// shared_story, mobile_status_update) or network_b's media_type
	// (IMAGE, CAROUSEL_ALBUM, VIDEO); "" when the network gave none.
	Kind    string
	Message string    // network_b: the caption
	Created time.Time // its publication
	// The post's engagement: network_a's reactions, comments and shares;
	// network_b's like_count and comments_count (a media has no shares).
	Reactions, Comments, Shares int64
	// ReachRead tells whether Reach (the post's organic reach) and
	// Followers (its page's or account's followers) were read: they are
	// read only for the posts that meet every other rule.
	ReachRead        bool
	Reach, Followers int64
}

// ContentType answers the post's kind as content_types names it: network_a's
// added_photos is a photo, added_video a video, shared_story a link and
// mobile_status_update a text; network_b's IMAGE and CAROUSEL_ALBUM are
// photos and VIDEO videos; any other kind is none ("").
func (p Post) ContentType() ContentType {
	if p.Network == NetworkB {
		switch p.Kind {
		case "IMAGE", "CAROUSEL_ALBUM":
			return Photo
		case "VIDEO":
			return Video
		}
		return ""
	}
	switch p.Kind {
	case "added_photos":
		return Photo
	case "added_video":
		return Video
	case "shared_story":
		return Link
	case "mobile_status_update":
		return Text
	}
	return ""
}

// engagement is the post's reactions, comments and shares together.
func (p Post) engagement() int64 { return p.Reactions + p.Comments + p.Shares }

// Conditions are what a post must be to be boosted by a campaign: the
// campaign's rules, its hashtag, its preset's keywords and reach, its goal
// and the oldest post the service boosts.
type Conditions struct {
	Rules Rules
	// Hashtag is the campaign's hashtag, with or without `#` ("": none).
	Hashtag string
	// Keywords are the keywords of the preset's boosting condition when
	// the preset allows advanced_settings (none otherwise).
	Keywords []string
	// ReachPercent is the reach R of that condition: organic reach × 100 ≥
	// R × followers (0: no reach rule).
	ReachPercent int32
	// VideoOnly is a VIDEO_VIEWS campaign's: only videos are boosted.
	VideoOnly bool
	// MaxAge is ENGINE_POST_MAX_AGE (0 = DefaultPostMaxAge).
	MaxAge time.Duration
}

// Reason is the first rule a post does not meet, in the order Qualifies
// checks them; Qualified when it meets every one.
type Reason uint8

const (
	Qualified         Reason = iota
	TooOld                   // published before Since
	TooNew                   // younger than post_age_min_hours
	NotVideo                 // a VIDEO_VIEWS campaign's post that is not a video
	NotContentType           // of none of content_types
	FewReactions             // under min_reactions
	FewComments              // under min_comments
	FewShares                // under min_shares (network_a only)
	NoHashtag                // without the campaign's hashtag as a whole tag
	NoKeyword                // with none of the preset's keywords
	ExcludedKeyword          // with one of exclude_keywords
	ReachUnknown             // every rule above holds; the reach rules need the post's reach
	LowReach                 // organic reach × 100 under R × followers
	LowEngagementRate        // engagement × 100 under min_engagement_rate × reach, or no reach
)

var reasons = [...]string{
	Qualified:         "qualified",
	TooOld:            "older than the campaign's post_age_max_hours or ENGINE_POST_MAX_AGE",
	TooNew:            "younger than the campaign's post_age_min_hours",
	NotVideo:          "not a video (VIDEO_VIEWS campaign)",
	NotContentType:    "not of the campaign's content_types",
	FewReactions:      "fewer reactions than min_reactions",
	FewComments:       "fewer comments than min_comments",
	FewShares:         "fewer shares than min_shares",
	NoHashtag:         "without the campaign's hashtag",
	NoKeyword:         "without a keyword of the preset",
	ExcludedKeyword:   "with one of exclude_keywords",
	ReachUnknown:      "its organic reach is not read yet",
	LowReach:          "organic reach under the preset's reach share of the followers",
	LowEngagementRate: "engagement rate under min_engagement_rate",
}

// String says why in words, for the logs.
func (r Reason) String() string {
	if int(r) < len(reasons) {
		return reasons[r]
	}
	return "unknown reason"
}

// Since answers the oldest publication time a post may have at now and
// still be boosted: now, in whole seconds, less the campaign's
// post_age_max_hours, or less MaxAge when it is shorter or the rule is
// off. Posts are read from that time on.
func (c Conditions) Since(now time.Time) time.Time {
	age := c.MaxAge
	if age <= 0 {
		age = DefaultPostMaxAge
	}
	if h := c.Rules.PostAgeMaxHours; h != nil && time.Duration(*h) <= age/time.Hour {
		age = time.Duration(*h) * time.Hour
	}
	return now.Truncate(time.Second).Add(-age)
}

// NeedsReach tells whether a rule needs the posts' organic reach (the
// preset's reach R, min_engagement_rate): then the posts that meet every
// other rule answer ReachUnknown until their reach is read.
func (c Conditions) NeedsReach() bool {
	return c.ReachPercent > 0 || c.Rules.MinEngagementRate != nil
}

// Qualifies tells whether the post is one the campaign boosts at now,
// and, when it is not, the first rule it does not meet:
//   - published at or after Since, and at least post_age_min_hours before now;
//   - a video for a VIDEO_VIEWS campaign, and of one of content_types;
//   - at least min_reactions, min_comments and min_shares (network_b media
//     have no shares and the rule does not apply to them);
//   - the hashtag as a whole tag; one of the preset's keywords, and none of
//     exclude_keywords, as a whole word or tag (Contains);
//   - organic reach × 100 ≥ R × followers, and engagement × 100 ≥
//     min_engagement_rate × organic reach with a reach above 0. Before the
//     reach is read (ReachRead false), a post that meets every other rule
//     answers ReachUnknown.
func (c Conditions) Qualifies(p Post, now time.Time) (bool, Reason) {
	r := c.Rules
	switch {
	case p.Created.Before(c.Since(now)):
		return false, TooOld
	case r.PostAgeMinHours != nil && p.Created.Add(time.Duration(*r.PostAgeMinHours)*time.Hour).After(now):
		return false, TooNew
	case c.VideoOnly && p.ContentType() != Video:
		return false, NotVideo
	case r.ContentTypes != nil && !slices.Contains(r.ContentTypes, string(p.ContentType())):
		return false, NotContentType
	case r.MinReactions != nil && p.Reactions < *r.MinReactions:
		return false, FewReactions
	case r.MinComments != nil && p.Comments < *r.MinComments:
		return false, FewComments
	case r.MinShares != nil && p.Network == NetworkA && p.Shares < *r.MinShares:
		return false, FewShares
	case !c.hasHashtag(p.Message):
		return false, NoHashtag
	}
	if named, found := holds(p.Message, c.Keywords); named && !found {
		return false, NoKeyword
	}
	if _, found := holds(p.Message, r.ExcludeKeywords); found {
		return false, ExcludedKeyword
	}
	switch {
	case !c.NeedsReach():
		return true, Qualified
	case !p.ReachRead:
		return false, ReachUnknown
	case c.ReachPercent > 0 && p.Reach*100 < int64(c.ReachPercent)*p.Followers:
		return false, LowReach
	}
	if rate, ok := r.rateHundredths(); ok && (p.Reach <= 0 || p.engagement()*10000 < rate*p.Reach) {
		return false, LowEngagementRate
	}
	return true, Qualified
}

// hasHashtag tells whether the message holds the campaign's hashtag as a
// whole tag (`#` and the hashtag without its own leading `#`s); true
// without a hashtag.
func (c Conditions) hasHashtag(message string) bool {
	tag := strings.TrimLeft(c.Hashtag, "#")
	return tag == "" || Contains(message, "#"+tag)
}

// holds tells whether the keywords name a word (a keyword is one without
// its leading `#`s, and one of nothing but `#` is none), and whether text
// holds one of them as a whole word or tag.
func holds(text string, keywords []string) (named, found bool) {
	for _, k := range keywords {
		if k = strings.TrimLeft(k, "#"); k == "" {
			continue
		}
		if Contains(text, k) {
			return true, true
		}
		named = true
	}
	return named, false
}

// rateHundredths answers min_engagement_rate in hundredths of a percent,
// exactly (the stored rate has two decimals at most), and whether it is
// set.
func (r Rules) rateHundredths() (int64, bool) {
	if r.MinEngagementRate == nil {
		return 0, false
	}
	rat, ok := new(big.Rat).SetString(r.MinEngagementRate.String())
	if !ok {
		return 0, false
	}
	hundredths := new(big.Rat).Mul(rat, big.NewRat(100, 1))
	return new(big.Int).Quo(hundredths.Num(), hundredths.Denom()).Int64(), true
}

// Contains tells whether text holds word as a whole word or tag, in any
// case: an occurrence not preceded nor followed by a word character
// (wordRune), so that `#gym` is found in `#Gym!` but not in `#gymnastics`
// nor `x#gym`, and `ad` in `#ad` and `AD.` but not in `ads`. A character
// of text matches a character of word when it is that character or its
// lower or upper case (unicode.ToLower, unicode.ToUpper), one for one.
func Contains(text, word string) bool {
	if word == "" {
		return false
	}
	for i, size := 0, 0; i < len(text); i += size {
		_, size = utf8.DecodeRuneInString(text[i:])
		if before, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && wordRune(before) {
			continue
		}
		if n, ok := prefixFold(text[i:], word); ok {
			if after, _ := utf8.DecodeRuneInString(text[i+n:]); i+n == len(text) || !wordRune(after) {
				return true
			}
		}
	}
	return false
}

// prefixFold tells whether text starts with word, character for character
// in any case, and answers how many bytes of text that is.
func prefixFold(text, word string) (int, bool) {
	n := 0
	for _, w := range word {
		if n >= len(text) {
			return 0, false
		}
		t, size := utf8.DecodeRuneInString(text[n:])
		if t != w && t != unicode.ToLower(w) && t != unicode.ToUpper(w) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// wordRune tells whether r belongs to a word: a letter, a letter number,
// a vowel sign or other mark Unicode counts as alphabetic, a decimal digit
// or `_` (the characters PostgreSQL's [[:alnum:]_] takes in a UTF-8 locale).
func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) ||
		unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r)
}
