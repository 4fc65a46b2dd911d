package rules_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"adboost/db/rules"
)

// parse reads a rules object as a client sends it.
func parse(t *testing.T, raw string) rules.Rules {
	t.Helper()
	r, err := rules.Parse(json.RawMessage(raw), rules.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return r
}

// qualifying answers the numbers (1 for posts[0]) of the posts that
// qualify at now, joined by commas.
func qualifying(c rules.Conditions, posts []rules.Post, now time.Time) string {
	var out []string
	for i, p := range posts {
		if ok, _ := c.Qualifies(p, now); ok {
			out = append(out, fmt.Sprint(i+1))
		}
	}
	return strings.Join(out, ",")
}

var testNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// The hashtag as a whole tag, and the preset's keywords (when it allows
// advanced_settings) as whole words or tags, all case-insensitively; a post
// older than ENGINE_POST_MAX_AGE does not qualify. Campaign 7 boosts #gym
// posts (its preset's keywords do not apply); campaign 8 has the hashtag
// "yoga", without `#`, and the keywords fitness and #run.
func TestQualifiesHashtagAndKeywords(t *testing.T) {
	since := testNow.Add(-168 * time.Hour)
	var posts []rules.Post
	for i, m := range []string{
		"Join us #Gym!",
		"#gymnastics class today",
		"gym day without a tag",
		"#GYM",
		"x#gym glued",
		"#gym but too old",
		"#yoga and Fitness.",
		"#yoga fitnessfirst",
		"#Yoga, then a #RUN",
		"#yoga run!",
		"yoga fitness (no tag)",
		"#yoga-class (a.b) fitness",
	} {
		created := testNow.Add(-time.Duration(i) * time.Minute)
		if i == 5 {
			created = since.Add(-time.Second)
		}
		posts = append(posts, rules.Post{Message: m, Created: created})
	}
	gym := rules.Conditions{Hashtag: "#gym"}
	if got := qualifying(gym, posts, testNow); got != "1,4" {
		t.Errorf("campaign 7 (#gym, preset without advanced_settings): %s, want 1,4", got)
	}
	if ok, why := gym.Qualifies(posts[5], testNow); ok || why != rules.TooOld {
		t.Errorf("the post older than ENGINE_POST_MAX_AGE: %v, %s", ok, why)
	}
	yoga := rules.Conditions{Hashtag: "yoga", Keywords: []string{"fitness", "#run"}}
	if got := qualifying(yoga, posts, testNow); got != "7,9,10,12" {
		t.Errorf("campaign 8 (yoga + keywords): %s, want 7,9,10,12", got)
	}
	for i, want := range map[int]rules.Reason{0: rules.NoHashtag, 7: rules.NoKeyword, 10: rules.NoHashtag} {
		if _, why := yoga.Qualifies(posts[i], testNow); why != want {
			t.Errorf("campaign 8, post %d: %s, want %s", i+1, why, want)
		}
	}
	// A hashtag or keywords of nothing but `#` ask nothing.
	if got := qualifying(rules.Conditions{Hashtag: "##", Keywords: []string{"#", ""}}, posts, testNow); got != "1,2,3,4,5,7,8,9,10,11,12" {
		t.Errorf("hashtag and keywords of `#` only: %s", got)
	}
	if got := qualifying(rules.Conditions{Hashtag: "##gym"}, posts, testNow); got != "1,4" {
		t.Errorf("hashtag ##gym: %s, want 1,4", got)
	}
}

// min_reactions, min_comments, min_shares: exactly the minimum qualifies,
// one less does not; network_b media have no shares and min_shares does not
// apply to them.
func TestQualifiesCounts(t *testing.T) {
	type counts struct{ reactions, comments, shares int64 }
	for _, c := range []struct {
		name  string
		rules string
		posts []counts
		want  string
	}{
		{"min_reactions", `{"min_reactions": 10}`, []counts{{10, 0, 0}, {9, 50, 50}, {11, 0, 0}}, "1,3"},
		{"min_comments", `{"min_comments": 5}`, []counts{{0, 5, 0}, {50, 4, 50}, {0, 6, 0}}, "1,3"},
		{"min_shares", `{"min_shares": 3}`, []counts{{0, 0, 3}, {50, 50, 2}, {0, 0, 0}}, "1"},
		{"all three", `{"min_reactions": 10, "min_comments": 5, "min_shares": 3}`,
			[]counts{{10, 5, 3}, {9, 5, 3}, {10, 4, 3}, {10, 5, 2}, {100, 100, 100}}, "1,5"},
		{"given as strings", `{"min_reactions": "10", "min_shares": "1"}`, []counts{{10, 0, 1}, {9, 0, 1}, {10, 0, 0}}, "1"},
		{"zero minimums", `{"min_reactions": 0, "min_comments": 0, "min_shares": 0}`, []counts{{0, 0, 0}}, "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cond := rules.Conditions{Rules: parse(t, c.rules)}
			var posts []rules.Post
			for i, n := range c.posts {
				posts = append(posts, rules.Post{Message: "#gym post", Created: testNow.Add(-time.Duration(i+1) * time.Hour),
					Reactions: n.reactions, Comments: n.comments, Shares: n.shares})
			}
			if got := qualifying(cond, posts, testNow); got != c.want {
				t.Errorf("qualify %s, want %s", got, c.want)
			}
		})
	}
	cond := rules.Conditions{Rules: parse(t, `{"min_reactions": 10, "min_comments": 5, "min_shares": 3}`)}
	var media []rules.Post
	for _, n := range []counts{{10, 5, 0}, {9, 5, 0}, {10, 4, 0}, {11, 6, 0}, {4, 11, 0}} {
		media = append(media, rules.Post{Network: rules.NetworkB, Kind: "IMAGE", Created: testNow.Add(-time.Hour),
			Reactions: n.reactions, Comments: n.comments})
	}
	if got := qualifying(cond, media, testNow); got != "1,4" {
		t.Errorf("media: qualify %s, want 1,4", got)
	}
	for i, want := range []rules.Reason{rules.Qualified, rules.FewReactions, rules.FewComments} {
		if _, why := cond.Qualifies(media[i], testNow); why != want {
			t.Errorf("media %d: %s, want %s", i+1, why, want)
		}
	}
}

// min_engagement_rate: (reactions + comments + shares) × 100 ≥ rate ×
// organic reach, the rate with two decimals, exactly; reach 0 never
// qualifies. Before its reach is read, a post that meets every other rule
// is ReachUnknown.
func TestQualifiesEngagementRate(t *testing.T) {
	type post struct{ reach, reactions, comments, shares int64 }
	for _, c := range []struct {
		rate  string
		posts []post
		want  string
	}{
		{`2.55`, []post{
			{2000, 30, 15, 6},  // 51 × 100 = 5100 = 2.55 × 2000
			{2000, 30, 15, 5},  // 50: just under
			{0, 1000, 0, 0},    // no reach
			{10000, 255, 0, 0}, // exactly
			{10000, 0, 0, 254}, // just under
			{1, 0, 0, 1},       // 100 ≥ 2.55
			{3, 0, 0, 0},       // 0 < 7.65
		}, "1,4,6"},
		// Rates whose binary floating point is not exact: 1.15 × 100 is
		// 114.99… and 0.29 × 10000 is 2899.99… in float64.
		{`1.15`, []post{{10000, 115, 0, 0}, {10000, 114, 0, 0}, {20000, 0, 230, 0}, {20000, 0, 229, 0}}, "1,3"},
		{`"0.29"`, []post{{10000, 29, 0, 0}, {10000, 28, 0, 0}}, "1"},
		{`100`, []post{{50, 25, 25, 0}, {50, 25, 24, 0}}, "1"},
		// Rate 0: every post with reach, none without.
		{`0`, []post{{5, 0, 0, 0}, {0, 100, 100, 100}}, "1"},
	} {
		t.Run(c.rate, func(t *testing.T) {
			cond := rules.Conditions{Rules: parse(t, `{"min_engagement_rate": `+c.rate+`}`)}
			if !cond.NeedsReach() {
				t.Fatal("the rate does not need the reach")
			}
			var posts []rules.Post
			for i, p := range c.posts {
				post := rules.Post{Created: testNow.Add(-time.Duration(i+1) * time.Hour),
					Reactions: p.reactions, Comments: p.comments, Shares: p.shares}
				if ok, why := cond.Qualifies(post, testNow); ok || why != rules.ReachUnknown {
					t.Errorf("post %d before its reach is read: %v, %s", i+1, ok, why)
				}
				post.ReachRead, post.Reach = true, p.reach
				posts = append(posts, post)
			}
			if got := qualifying(cond, posts, testNow); got != c.want {
				t.Errorf("qualify %s, want %s", got, c.want)
			}
		})
	}
	// Media: like_count + comments_count against the media's reach.
	cond := rules.Conditions{Rules: parse(t, `{"min_engagement_rate": 2.55}`)}
	var media []rules.Post
	for _, p := range []post{{2000, 40, 11, 0}, {2000, 40, 10, 0}, {0, 500, 500, 0}, {10000, 0, 255, 0}, {10000, 254, 0, 0}} {
		media = append(media, rules.Post{Network: rules.NetworkB, Created: testNow.Add(-time.Hour),
			ReachRead: true, Reach: p.reach, Reactions: p.reactions, Comments: p.comments})
	}
	if got := qualifying(cond, media, testNow); got != "1,4" {
		t.Errorf("media: qualify %s, want 1,4", got)
	}
	if _, why := cond.Qualifies(media[1], testNow); why != rules.LowEngagementRate {
		t.Errorf("media 2: %s, want %s", why, rules.LowEngagementRate)
	}
}

// The preset's reach R: organic reach × 100 ≥ R × followers.
func TestQualifiesReach(t *testing.T) {
	for _, c := range []struct {
		reach, followers int64
		percent          int32
		want             bool
	}{
		{200, 1000, 20, true},  // exactly 20 %
		{199, 1000, 20, false}, // just under
		{0, 0, 20, true},       // no followers
		{5, 1000, 0, true},
		{1000, 1000, 100, true},
	} {
		cond := rules.Conditions{ReachPercent: c.percent}
		p := rules.Post{Created: testNow, ReachRead: true, Reach: c.reach, Followers: c.followers}
		ok, why := cond.Qualifies(p, testNow)
		if ok != c.want || ok != (why == rules.Qualified) || !ok && why != rules.LowReach {
			t.Errorf("reach %d, followers %d, R %d: %v, %s", c.reach, c.followers, c.percent, ok, why)
		}
		if p.ReachRead = false; c.percent > 0 {
			if _, why := cond.Qualifies(p, testNow); why != rules.ReachUnknown {
				t.Errorf("R %d, reach not read: %s", c.percent, why)
			}
		}
	}
	// Both reach rules: R first.
	cond := rules.Conditions{ReachPercent: 20, Rules: parse(t, `{"min_engagement_rate": 1}`)}
	for _, c := range []struct {
		reach, followers, reactions int64
		want                        rules.Reason
	}{
		{200, 1000, 2, rules.Qualified},
		{199, 1000, 100, rules.LowReach},
		{200, 1000, 1, rules.LowEngagementRate},
	} {
		p := rules.Post{Created: testNow, ReachRead: true, Reach: c.reach, Followers: c.followers, Reactions: c.reactions}
		if _, why := cond.Qualifies(p, testNow); why != c.want {
			t.Errorf("%+v: %s, want %s", c, why, c.want)
		}
	}
}

// post_age_min_hours and post_age_max_hours: a post exactly min hours old
// qualifies, one second younger not; exactly max hours old qualifies, one
// second older not. Without post_age_max_hours, or with one beyond it,
// ENGINE_POST_MAX_AGE bounds the age; the window starts at a whole second.
func TestQualifiesPostAge(t *testing.T) {
	cond := rules.Conditions{Rules: parse(t, `{"post_age_min_hours": 2, "post_age_max_hours": 48}`)}
	var posts []rules.Post
	for _, age := range []time.Duration{
		2 * time.Hour, 2*time.Hour - time.Second, 48 * time.Hour, 48*time.Hour + time.Second, 24 * time.Hour, time.Hour, 100 * time.Hour,
	} {
		posts = append(posts, rules.Post{Message: "#gym", Created: testNow.Add(-age), Reactions: 1000})
	}
	if got := qualifying(cond, posts, testNow); got != "1,3,5" {
		t.Errorf("at %s: %s, want 1,3,5", testNow, got)
	}
	// A second later post 2 is old enough, and post 3 too old.
	if got := qualifying(cond, posts, testNow.Add(time.Second)); got != "1,2,5" {
		t.Errorf("a second later: %s, want 1,2,5", got)
	}
	if got := qualifying(cond, posts, testNow.Add(time.Hour)); got != "1,2,5,6" {
		t.Errorf("an hour later: %s, want 1,2,5,6", got)
	}
	for i, want := range map[int]rules.Reason{1: rules.TooNew, 3: rules.TooOld, 5: rules.TooNew, 6: rules.TooOld} {
		if _, why := cond.Qualifies(posts[i], testNow); why != want {
			t.Errorf("post %d: %s, want %s", i+1, why, want)
		}
	}
	// The window (Since) of a clock between seconds starts at its second.
	between := testNow.Add(999 * time.Millisecond)
	if got := cond.Since(between); !got.Equal(testNow.Add(-48 * time.Hour)) {
		t.Errorf("Since(%s) = %s", between, got)
	}
	for _, c := range []struct {
		rules  string
		maxAge time.Duration
		want   time.Duration
	}{
		{`{}`, 0, rules.DefaultPostMaxAge},
		{`{}`, 72 * time.Hour, 72 * time.Hour},
		{`{"post_age_max_hours": 48}`, 72 * time.Hour, 48 * time.Hour},
		{`{"post_age_max_hours": 0}`, 72 * time.Hour, 0},
		{`{"post_age_max_hours": 168}`, 72*time.Hour + 30*time.Minute, 72*time.Hour + 30*time.Minute},
		{`{"post_age_max_hours": 2147483647}`, 72 * time.Hour, 72 * time.Hour}, // stored by another writer
	} {
		var r rules.Rules
		if err := json.Unmarshal([]byte(c.rules), &r); err != nil {
			t.Fatal(err)
		}
		cond := rules.Conditions{Rules: r, MaxAge: c.maxAge}
		if got := testNow.Sub(cond.Since(testNow)); got != c.want {
			t.Errorf("%s, ENGINE_POST_MAX_AGE %s: window %s, want %s", c.rules, c.maxAge, got, c.want)
		}
	}
}

// content_types: network_a's status_type added_photos → photo,
// added_video → video, shared_story → link, mobile_status_update → text;
// any other status_type (or none) is no content type. network_b's IMAGE
// and CAROUSEL_ALBUM are photos, VIDEO videos; no media is a link or a
// text. A VIDEO_VIEWS campaign takes videos only.
func TestQualifiesContentTypes(t *testing.T) {
	var posts []rules.Post
	for _, kind := range []string{"added_photos", "added_video", "shared_story", "mobile_status_update", "created_event", ""} {
		posts = append(posts, rules.Post{Kind: kind, Created: testNow})
	}
	var media []rules.Post
	for _, kind := range []string{"IMAGE", "CAROUSEL_ALBUM", "VIDEO", "added_photos"} {
		media = append(media, rules.Post{Network: rules.NetworkB, Kind: kind, Created: testNow})
	}
	for _, c := range []struct {
		types       string
		posts, mine string
	}{
		{``, "1,2,3,4,5,6", "1,2,3,4"}, // no rule
		{`["photo"]`, "1", "1,2"},
		{`["video"]`, "2", "3"},
		{`["link"]`, "3", ""},
		{`["text"]`, "4", ""},
		{`["text", "photo"]`, "1,4", "1,2"},
		{`["link", "text"]`, "3,4", ""},
		{`["video", "link"]`, "2,3", "3"},
		{`["photo", "video", "link", "text"]`, "1,2,3,4", "1,2,3"},
	} {
		raw := `{}`
		if c.types != "" {
			raw = `{"content_types": ` + c.types + `}`
		}
		cond := rules.Conditions{Rules: parse(t, raw)}
		if got := qualifying(cond, posts, testNow); got != c.posts {
			t.Errorf("%s: posts %s, want %s", raw, got, c.posts)
		}
		if got := qualifying(cond, media, testNow); got != c.mine {
			t.Errorf("%s: media %s, want %s", raw, got, c.mine)
		}
	}
	video := rules.Conditions{VideoOnly: true}
	if got := qualifying(video, posts, testNow); got != "2" {
		t.Errorf("VIDEO_VIEWS: posts %s, want 2", got)
	}
	if got := qualifying(video, media, testNow); got != "3" {
		t.Errorf("VIDEO_VIEWS: media %s, want 3", got)
	}
	if _, why := video.Qualifies(posts[0], testNow); why != rules.NotVideo {
		t.Errorf("VIDEO_VIEWS, a photo: %s", why)
	}
	if _, why := (rules.Conditions{Rules: parse(t, `{"content_types": ["video"]}`)}).Qualifies(posts[0], testNow); why != rules.NotContentType {
		t.Errorf("content_types video, a photo: %s", why)
	}
}

// exclude_keywords: a keyword that occurs as a whole word or tag,
// case-insensitively, keeps the post from being boosted, on both networks.
func TestQualifiesExcludeKeywords(t *testing.T) {
	cond := rules.Conditions{Hashtag: "#gym", Rules: parse(t, `{"exclude_keywords": ["#promo", "Sale", "flash deal"]}`)}
	var posts []rules.Post
	for _, m := range []string{
		"#gym #Promo!",          // 1: the tag, another case
		"#gym #promotion week",  // 2: not the whole tag
		"#gym big SALE today",   // 3: the word, another case
		"#gym wholesale prices", // 4: not the whole word
		"#gym #PROMO",           // 5
		"#gym sales team",       // 6: not the whole word
		"#gym Flash Deal, now",  // 7: the phrase
		"#gym flash dealer",     // 8: not the whole phrase
		"#gym sale.",            // 9
		"#gym",                  // 10
	} {
		posts = append(posts, rules.Post{Message: m, Created: testNow})
	}
	if got := qualifying(cond, posts, testNow); got != "2,4,6,8,10" {
		t.Errorf("posts %s, want 2,4,6,8,10", got)
	}
	if _, why := cond.Qualifies(posts[0], testNow); why != rules.ExcludedKeyword {
		t.Errorf("post 1: %s", why)
	}
	var media []rules.Post
	for _, m := range []string{"#gym #promo", "#gym #Promotional", "#GYM end of season SALE!"} {
		media = append(media, rules.Post{Network: rules.NetworkB, Kind: "IMAGE", Message: m, Created: testNow})
	}
	if got := qualifying(cond, media, testNow); got != "2" {
		t.Errorf("media %s, want 2", got)
	}
}

// Every rule at once: the reason is the first rule not met, in the order
// of Qualifies; meeting it gives the next one.
func TestQualifiesReasonOrder(t *testing.T) {
	cond := rules.Conditions{
		Rules: parse(t, `{"min_reactions": 1, "min_comments": 1, "min_shares": 1, "min_engagement_rate": 1,
			"post_age_min_hours": 1, "post_age_max_hours": 10, "content_types": ["photo"], "exclude_keywords": ["no"]}`),
		Hashtag: "tag", Keywords: []string{"word"}, ReachPercent: 10, VideoOnly: true,
	}
	p := rules.Post{Kind: "shared_story", Message: "tag word no", Created: testNow.Add(-11 * time.Hour)}
	for _, step := range []struct {
		want rules.Reason
		meet func()
	}{
		{rules.TooOld, func() { p.Created = testNow }},
		{rules.TooNew, func() { p.Created = testNow.Add(-time.Hour) }},
		{rules.NotVideo, func() { cond.VideoOnly = false }},
		{rules.NotContentType, func() { p.Kind = "added_photos" }},
		{rules.FewReactions, func() { p.Reactions = 1 }},
		{rules.FewComments, func() { p.Comments = 1 }},
		{rules.FewShares, func() { p.Shares = 1 }},
		{rules.NoHashtag, func() { p.Message = "#tag no" }},
		{rules.NoKeyword, func() { p.Message = "#tag word no" }},
		{rules.ExcludedKeyword, func() { p.Message = "#tag word" }},
		{rules.ReachUnknown, func() { p.ReachRead, p.Reach, p.Followers = true, 99, 1000 }},
		{rules.LowReach, func() { p.Reach = 400 }},
		{rules.LowEngagementRate, func() { p.Reactions = 10 }},
		{rules.Qualified, nil},
	} {
		ok, why := cond.Qualifies(p, testNow)
		if why != step.want || ok != (why == rules.Qualified) {
			t.Fatalf("%+v: %v, %s; want %s", p, ok, why, step.want)
		}
		if step.meet != nil {
			step.meet()
		}
	}
}

// A word or tag is whole when no letter, digit, alphabetic mark or `_`
// touches it; case is ignored character for character, Unicode's simple
// upper and lower case.
func TestContains(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"Join us #Gym!", "#gym", true},
		{"#gymnastics", "#gym", false},
		{"x#gym", "#gym", false},
		{"_ad", "ad", false},
		{"ad_", "ad", false},
		{"ad-hoc", "ad", true},
		{"(ad)", "ad", true},
		{"ad\nnext", "ad", true},
		{"ads", "ad", false},
		{"1ad", "ad", false},
		{"#ad", "ad", true},
		{"", "ad", false},
		{"ad", "", false},
		{"a.b", "a.b", true},
		{"axb", "a.b", false},
		{"c++ rocks", "c++", true},
		{"c++x", "c++", false},
		{"xc++", "c++", false},
		{"flash  deal", "flash deal", false},
		{"FLASH DEAL", "flash deal", true},
		{"ad ad2 ad", "ad", true}, // a later occurrence
		{"adad ad", "ad", true},   //
		{"adad", "ad", false},     //
		{"ÉTÉ", "été", true},      // accented letters, either case
		{"été", "ÉTÉ", true},      //
		{"cafés", "café", false},  //
		{"adé", "ad", false},      // a letter
		{"ad²", "ad", true},       // ² is no decimal digit
		{"ad٣", "ad", false},      // an Arabic-Indic digit is
		{"adⅫ", "ad", false},      // a letter number
		{"ad\u0301", "ad", true},  // a combining accent is no letter
		{"adा", "ad", false},      // a Devanagari vowel sign is alphabetic
		{"中ad", "ad", false},      // a CJK letter
		{"ad🙂", "ad", true},       //
		{"ad\u00a0x", "ad", true}, // a no-break space
		{"ΣΑΣ", "σας", true},      // final sigma's upper case is Σ
		{"σας", "ΣΑΣ", false},     // but Σ's lower case is σ
		{"STRASSE", "straße", false},
		{"ſale", "sale", false}, // ſ is neither case of s
		{"istanbul", "İstanbul", true},
		{"İstanbul", "istanbul", false},
		{"ǅemal", "ǅemal", true},
	} {
		if got := rules.Contains(c.text, c.word); got != c.want {
			t.Errorf("Contains(%q, %q) = %v", c.text, c.word, got)
		}
	}
}
