package networkafake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/auth/networka"
	"adboost/auth/networkafake"
)

// bAccount is the network_b account of world's page 456.
const bAccount = "789"

// mediaFieldList is the fields the engine asks media with.
const mediaFieldList = "id,caption,media_type,permalink,media_url,thumbnail_url,timestamp,like_count,comments_count"

// client is a networka client of base, closed when the test ends.
func client(t *testing.T, base string, opts networka.Options) *networka.Client {
	t.Helper()
	c, err := networka.New(base, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// graphCode is the Graph error code of a client's error; 0 for another error.
func graphCode(err error) int {
	var e *networka.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// fiveMedia adds five media to bAccount, out of order, an hour apart from
// t0+1h (media 1) to t0+5h (media 5): 1 and 5 images (5 without caption, 1
// with a thumbnail an image does not answer), 2 and 4 videos, 3 an album.
func fiveMedia(f *networkafake.Fake, t0 time.Time) {
	types := map[int]string{1: "IMAGE", 2: "VIDEO", 3: "CAROUSEL_ALBUM", 4: "VIDEO", 5: "IMAGE"}
	for _, i := range []int{3, 1, 5, 2, 4} {
		m := networkafake.Media{ID: fmt.Sprintf("1789000000000900%d", i), Caption: fmt.Sprintf("media %d #gym", i), Type: types[i],
			Permalink: fmt.Sprintf("https://b.example/p/%d", i), URL: fmt.Sprintf("https://cdn.b.example/%d.jpg", i),
			Thumbnail: fmt.Sprintf("https://cdn.b.example/%d-thumb.jpg", i),
			Created:   t0.Add(time.Duration(i) * time.Hour), Likes: 10 * i, Comments: i, Reach: 100 * i}
		if i == 5 {
			m.Caption = ""
		}
		f.AddMedia(bAccount, m)
	}
}

// TestMediaList: an account's media are listed newest first, from since,
// paged, with exactly the fields network_b answers, through the client as
// the engine reads them.
func TestMediaList(t *testing.T) {
	f, base := world(t)
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	fiveMedia(f, t0)
	f.AddMedia("790", networkafake.Media{Caption: "another account's"})
	checkMediaJSON(t, base)
	c := client(t, base, networka.Options{})
	checkMediaThroughClient(t, c, t0)
	checkMediaPaging(t, f, c, base, t0)
	checkFreshMediaIDs(t, f)
}

// checkMediaJSON checks the media list answers exactly network_b's fields as
// JSON, pages, and refuses bad queries.
func checkMediaJSON(t *testing.T, base string) {
	t.Helper()
	// Exactly the fields, as JSON: thumbnail_url for a video only, no empty caption.
	page := mustOK(t, "GET", base+"/"+bAccount+"/media?fields="+mediaFieldList+"&limit=2", pageToken, nil)
	data := page["data"].([]any)
	want := []any{
		map[string]any{"id": "17890000000009005", "media_type": "IMAGE", "permalink": "https://b.example/p/5",
			"media_url": "https://cdn.b.example/5.jpg", "timestamp": "2026-11-20T15:00:00+0000", "like_count": float64(50), "comments_count": float64(5)},
		map[string]any{"id": "17890000000009004", "caption": "media 4 #gym", "media_type": "VIDEO", "permalink": "https://b.example/p/4",
			"media_url": "https://cdn.b.example/4.jpg", "thumbnail_url": "https://cdn.b.example/4-thumb.jpg",
			"timestamp": "2026-11-20T14:00:00+0000", "like_count": float64(40), "comments_count": float64(4)},
	}
	if !reflect.DeepEqual(data, want) {
		t.Fatalf("first page of media = %v\nwant %v", data, want)
	}
	next := page["paging"].(map[string]any)["next"].(string)
	if !strings.HasPrefix(next, base+"/"+bAccount+"/media?") || !strings.Contains(next, "after=2") {
		t.Fatalf("paging.next = %s", next)
	}
	if d := mustOK(t, "GET", base+"/"+bAccount+"/media?fields=id&limit=1", pageToken, nil)["data"].([]any)[0]; !reflect.DeepEqual(d, map[string]any{"id": "17890000000009005"}) {
		t.Fatalf("fields=id answered %v", d)
	}
	for _, q := range []string{"fields=id&limit=0", "fields=id&since=yesterday", "fields=id&after=x"} {
		if got := graphErr(t, "GET", base+"/"+bAccount+"/media?"+q, pageToken, nil); got != "400 OAuthException 100" {
			t.Errorf("%s: %s", q, got)
		}
	}

}

// checkMediaThroughClient checks the client reads media since a time, newest
// first, with every field.
func checkMediaThroughClient(t *testing.T, c *networka.Client, t0 time.Time) {
	t.Helper()
	// Through the client: since, newest first, every field.
	ctx := context.Background()
	s := networka.Scope{Page: bAccount}
	media, truncated, err := c.MediaOf(ctx, pageToken, bAccount, t0.Add(2*time.Hour), 500, s)
	if err != nil || truncated {
		t.Fatalf("MediaOf = %v, %v", truncated, err)
	}
	var ids []string
	for _, m := range media {
		ids = append(ids, m.ID)
	}
	if want := []string{"17890000000009005", "17890000000009004", "17890000000009003", "17890000000009002"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("media since t0+2h = %v, want %v", ids, want)
	}
	wantVideo := networka.Media{ID: "17890000000009002", Caption: "media 2 #gym", Type: "VIDEO", Permalink: "https://b.example/p/2",
		URL: "https://cdn.b.example/2.jpg", Thumbnail: "https://cdn.b.example/2-thumb.jpg", Created: t0.Add(2 * time.Hour), Likes: 20, Comments: 2}
	got := media[3]
	if !got.Created.Equal(wantVideo.Created) {
		t.Fatalf("video created %v, want %v", got.Created, wantVideo.Created)
	}
	if got.Created = wantVideo.Created; !reflect.DeepEqual(got, wantVideo) {
		t.Fatalf("video = %+v\nwant %+v", got, wantVideo)
	}
	if got := media[2]; got.Type != "CAROUSEL_ALBUM" || got.Thumbnail != "" || got.Picture() != "https://cdn.b.example/3.jpg" {
		t.Fatalf("album = %+v", got)
	}

}

// checkMediaPaging checks 150 more media are read through the client in two
// requests of 100, and that a limit over 100 is capped.
func checkMediaPaging(t *testing.T, f *networkafake.Fake, c *networka.Client, base string, t0 time.Time) {
	t.Helper()
	ctx := context.Background()
	s := networka.Scope{Page: bAccount}
	// Paging: 150 more media are read in two requests of 100.
	f.ClearRequests()
	for i := range 150 {
		f.AddMedia(bAccount, networkafake.Media{Caption: fmt.Sprintf("bulk %d", i), Created: t0.Add(6*time.Hour + time.Duration(i)*time.Minute)})
	}
	media, _, err := c.MediaOf(ctx, pageToken, bAccount, t0, 500, s)
	if err != nil || len(media) != 155 || media[0].Caption != "bulk 149" || media[149].Caption != "bulk 0" || media[154].ID != "17890000000009001" {
		t.Fatalf("MediaOf over pages = %d media, %v", len(media), err)
	}
	var reads []string
	for _, call := range f.Calls() {
		reads = append(reads, strings.SplitN(call.Path, "?", 2)[0])
		if !strings.Contains(call.Path, "limit=100") || call.Token != pageToken {
			t.Errorf("call %+v", call)
		}
	}
	if !reflect.DeepEqual(reads, []string{"/789/media", "/789/media"}) {
		t.Fatalf("calls = %v", reads)
	}
	if got := mustOK(t, "GET", base+"/"+bAccount+"/media?fields=id&limit=500", pageToken, nil); len(got["data"].([]any)) != 100 {
		t.Fatalf("limit=500 answered %d media, want at most 100", len(got["data"].([]any)))
	}

}

// checkFreshMediaIDs checks fresh ids have 17 digits, beyond 2^53, and the
// fake's MediaOf lists newest first.
func checkFreshMediaIDs(t *testing.T, f *networkafake.Fake) {
	t.Helper()
	// Fresh ids: 17 digits, beyond 2^53; MediaOf of the fake newest first.
	all := f.MediaOf(bAccount)
	if len(all) != 155 || all[0].ID != "17890000000000151" || all[149].ID != "17890000000000002" {
		t.Fatalf("f.MediaOf: %d, first %+v", len(all), all[0])
	}
	if other := f.MediaOf("790"); len(other) != 1 || other[0].ID != "17890000000000001" || other[0].Type != "IMAGE" || other[0].Created.IsZero() {
		t.Fatalf("a media added without id, type or time: %+v", other)
	}
}

// TestMediaReachAndFollowers: a media's reach and counts, and the account's
// followers, as set, through the client.
func TestMediaReachAndFollowers(t *testing.T) {
	f, base := world(t)
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	fiveMedia(f, t0)
	c := client(t, base, networka.Options{})
	ctx := context.Background()
	s := networka.Scope{Page: bAccount}

	if n, err := c.Followers(ctx, pageToken, bAccount, s); err != nil || n != 0 {
		t.Fatalf("followers before SetFollowers = %d, %v", n, err)
	}
	f.SetFollowers(bAccount, 5400)
	if n, err := c.Followers(ctx, pageToken, bAccount, s); err != nil || n != 5400 {
		t.Fatalf("followers = %d, %v", n, err)
	}
	if n, _ := c.Followers(ctx, pageToken, "456", networka.Scope{Page: "456"}); n != 1200 {
		t.Fatalf("the page's followers became %d", n)
	}
	got := mustOK(t, "GET", base+"/"+bAccount+"?fields=id,username,followers_count", pageToken, nil)
	if want := map[string]any{"id": bAccount, "username": "gym.b", "followers_count": float64(5400)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("account = %v", got)
	}

	f.SetMediaReach("17890000000009003", 4321)
	f.SetMediaCounts("17890000000009003", 77, 8)
	reach, errs := c.MediaReaches(ctx, pageToken, []string{"17890000000009001", "17890000000009003"}, s)
	if !reflect.DeepEqual(reach, []int64{100, 4321}) || errs[0] != nil || errs[1] != nil {
		t.Fatalf("reach = %v, %v", reach, errs)
	}
	ins := mustOK(t, "GET", base+"/17890000000009003/insights?metric=reach", pageToken, nil)
	want := map[string]any{"data": []any{map[string]any{"name": "reach", "period": "lifetime",
		"values": []any{map[string]any{"value": float64(4321)}}, "id": "17890000000009003/insights/reach/lifetime"}}}
	if !reflect.DeepEqual(ins, want) {
		t.Fatalf("media insights = %v", ins)
	}
	if got := graphErr(t, "GET", base+"/17890000000009003/insights?metric=impressions", pageToken, nil); got != "400 OAuthException 100" {
		t.Fatalf("another metric: %s", got)
	}
	media, _, _ := c.MediaOf(ctx, pageToken, bAccount, t0, 10, s)
	if m := media[2]; m.ID != "17890000000009003" || m.Likes != 77 || m.Comments != 8 {
		t.Fatalf("after SetMediaCounts: %+v", m)
	}
	if m := f.MediaOf(bAccount)[2]; m.Reach != 4321 || m.Likes != 77 {
		t.Fatalf("f.MediaOf after the setters: %+v", m)
	}
	// UpdateUser keeps the account's followers.
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Pages[0].Name = "Gym 2" })
	if n, _ := c.Followers(ctx, pageToken, bAccount, s); n != 5400 {
		t.Fatalf("followers after UpdateUser = %d", n)
	}
}

// TestMediaAccess: only the token of the page the account is linked to
// reads the account, its media and their insights; an unknown, deleted or
// unlinked one is an unknown object.
func TestMediaAccess(t *testing.T) {
	f, base := world(t)
	fiveMedia(f, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	paths := []string{"/" + bAccount + "?fields=followers_count", "/" + bAccount + "/media?fields=id",
		"/17890000000009001/insights?metric=reach"}
	for _, p := range paths {
		for _, token := range []string{otherPage, userToken} {
			if got := graphErr(t, "GET", base+p, token, nil); got != "400 OAuthException 210" {
				t.Errorf("%s with %s: %s", p, token, got)
			}
		}
	}
	for _, p := range []string{"/790?fields=followers_count", "/790/media?fields=id", "/17890000000000999/insights?metric=reach"} {
		if got := graphErr(t, "GET", base+p, pageToken, nil); got != "400 GraphMethodException 100" {
			t.Errorf("unknown %s: %s", p, got)
		}
	}
	c := client(t, base, networka.Options{})
	ctx := context.Background()
	if _, _, err := c.MediaOf(ctx, otherPage, bAccount, time.Time{}, 10, networka.Scope{Page: bAccount}); graphCode(err) != 210 {
		t.Fatalf("MediaOf with another page's token: %v", err)
	}

	// A deleted media: out of the list, its insights unknown.
	f.DeleteMedia("17890000000009004")
	f.DeleteMedia("17890000000000999") // unknown: nothing happens
	if got := graphErr(t, "GET", base+"/17890000000009004/insights?metric=reach", pageToken, nil); got != "400 GraphMethodException 100" {
		t.Fatalf("insights of a deleted media: %s", got)
	}
	_, errs := c.MediaReaches(ctx, pageToken, []string{"17890000000009004"}, networka.Scope{Page: bAccount})
	if !networka.Gone(errs[0]) {
		t.Fatalf("MediaReaches of a deleted media: %v", errs[0])
	}
	media, _, err := c.MediaOf(ctx, pageToken, bAccount, time.Time{}, 10, networka.Scope{Page: bAccount})
	if err != nil || len(media) != 4 || slices.ContainsFunc(media, func(m networka.Media) bool { return m.ID == "17890000000009004" }) {
		t.Fatalf("media after a delete: %+v, %v", media, err)
	}

	// The account moves to the other page: that page's token reads it, the
	// first one's no longer.
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Pages[1].B, u.Pages[0].B = u.Pages[0].B, nil })
	mustOK(t, "GET", base+"/"+bAccount+"/media?fields=id", otherPage, nil)
	if got := graphErr(t, "GET", base+"/"+bAccount+"/media?fields=id", pageToken, nil); got != "400 OAuthException 210" {
		t.Fatalf("the old page's token: %s", got)
	}
	// Unlinked: unknown.
	f.UpdateUser(userToken, func(u *networkafake.User) { u.Pages[1].B = nil })
	for _, p := range paths {
		if got := graphErr(t, "GET", base+p, otherPage, nil); got != "400 GraphMethodException 100" {
			t.Errorf("%s of an unlinked account: %s", p, got)
		}
	}
}

// mediaAdSets is world with posts and media, an engagement campaign, and
// its ad sets for network_b only, both networks, network_a only and
// anywhere.
type mediaAdSets struct {
	f                            *networkafake.Fake
	base                         string
	onlyB, both, onlyA, anywhere string
}

func newMediaAdSets(t *testing.T) mediaAdSets {
	f, base := world(t)
	f.AddPost("456", networkafake.Post{ID: "456_9001", Message: "#gym"})
	fiveMedia(f, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	f.AddMedia("790", networkafake.Media{ID: "17890000000008001"})
	camp := mustOK(t, "POST", base+"/act_1/campaigns", userToken, map[string]any{
		"name": "adboost-7", "objective": "OUTCOME_ENGAGEMENT", "special_ad_categories": []any{}, "is_adset_budget_sharing_enabled": false})["id"].(string)
	adset := func(name string, platforms ...string) string {
		targeting := map[string]any{"geo_locations": map[string]any{"countries": []any{"CL"}},
			"targeting_automation": map[string]any{"advantage_audience": 0}}
		if platforms != nil {
			targeting["publisher_platforms"] = platforms
		}
		return mustOK(t, "POST", base+"/act_1/adsets", userToken, adSetBody(camp, map[string]any{"name": name, "targeting": targeting,
			"promoted_object": map[string]any{"page_id": "456"}}))["id"].(string)
	}
	return mediaAdSets{f: f, base: base, onlyB: adset("adboost-7-network_b", "network_b"), both: adset("both", "network_a", "network_b"),
		onlyA: adset("a", "network_a"), anywhere: adset("anywhere")}
}

// ofMedia is the body of an ad of the media in the ad set; "" leaves out
// the user or the page.
func ofMedia(set, media, user, page string) map[string]any {
	creative := map[string]any{"source_instagram_media_id": media}
	if user != "" {
		creative["instagram_user_id"] = user
	}
	if page != "" {
		creative["object_id"] = page
	}
	return map[string]any{"name": "adboost-7-b" + media, "adset_id": set, "creative": creative, "status": "ACTIVE"}
}

// ofPost is the body of an ad of post 456_9001 in the ad set; "" leaves
// out the user.
func ofPost(set, user string) map[string]any {
	creative := map[string]any{"object_story_id": "456_9001"}
	if user != "" {
		creative["instagram_user_id"] = user
	}
	return map[string]any{"name": "adboost-7-9001", "adset_id": set, "creative": creative, "status": "ACTIVE"}
}

// TestMediaAds: an ad's creative is a network_a post or a network_b media
// of the account it names, with its page, taken where it can run, through
// the client too.
func TestMediaAds(t *testing.T) {
	w := newMediaAdSets(t)
	f, onlyB, both, onlyA, anywhere := w.f, w.onlyB, w.both, w.onlyA, w.anywhere
	base := w.base
	// Accepted.
	c := client(t, base, networka.Options{})
	ctx := context.Background()
	s := networka.Scope{User: "5550001", AdAccount: "act_1"}
	var made []string
	for _, body := range []map[string]any{ofMedia(onlyB, "17890000000009001", bAccount, "456"), ofMedia(both, "17890000000009002", bAccount, "456"),
		ofPost(both, bAccount), ofPost(onlyA, ""), ofPost(anywhere, bAccount)} {
		id, err := c.Create(ctx, userToken, "ad", body, s)
		if err != nil {
			t.Fatalf("%v: %v", body, err)
		}
		made = append(made, id)
	}
	if ad := f.Objects("ad")[0]; ad.ID != made[0] || !reflect.DeepEqual(ad.Fields["creative"],
		map[string]any{"source_instagram_media_id": "17890000000009001", "instagram_user_id": bAccount, "object_id": "456"}) {
		t.Fatalf("ad of media = %+v", ad)
	}

	if n := len(f.Objects("ad")); n != len(made) {
		t.Fatalf("%d ads, want the %d accepted", n, len(made))
	}
	// Moved out of network_b by an update, the ad set takes no more media.
	mustOK(t, "POST", base+"/"+both, userToken, map[string]any{"targeting": map[string]any{"publisher_platforms": []any{"network_a"},
		"targeting_automation": map[string]any{"advantage_audience": 1}}})
	refused(t, "media after the update", "POST", base+"/act_1/ads", userToken, ofMedia(both, "17890000000009003", bAccount, "456"),
		invalid("The ad set's targeting.publisher_platforms does not include network_b: an ad of network_b media (source_instagram_media_id) cannot run in it"))
}

// TestMediaAdRefusals: ads of media and of posts are refused where they
// cannot run or lack their network_b account or page, each with code 100,
// through the client too.
func TestMediaAdRefusals(t *testing.T) {
	w := newMediaAdSets(t)
	f, onlyB, both, onlyA, anywhere := w.f, w.onlyB, w.both, w.onlyA, w.anywhere
	base := w.base
	c := client(t, base, networka.Options{})
	ctx := context.Background()
	s := networka.Scope{User: "5550001", AdAccount: "act_1"}
	// Refused, each with code 100.
	const (
		wrongUser  = "Param creative.instagram_user_id must be the network_b account of the media"
		wrongPage  = "Param creative.object_id must be the page the network_b account is linked to"
		notPlacedB = "The ad set's targeting.publisher_platforms does not include network_b: an ad of network_b media (source_instagram_media_id) cannot run in it"
		notPlacedA = "The ad set's targeting.publisher_platforms is network_b alone: an ad of a network_a post (object_story_id) cannot run in it"
		postsUser  = "Param creative.instagram_user_id must be the network_b account linked to the post's page"
	)
	unavailable := userRefusal(networkafake.SubcodePostNotAvailable, "Post Not Available",
		"The network_b post you chose for this ad isn't available: it may have been deleted.", "creative.source_instagram_media_id")
	missing := func(field string) string {
		return userRefusal(networkafake.SubcodeNoInstagramAccount, "Instagram Account Is Missing",
			"This ad may run on network_b: choose the network_b account that represents your page ("+field+"), or remove network_b from the ad set's placements.", field)
	}
	f.DeleteMedia("17890000000009005")
	for name, tc := range map[string]struct {
		body map[string]any
		want string
	}{
		"unknown media":                   {ofMedia(onlyB, "17890000000000999", bAccount, "456"), unavailable},
		"deleted media":                   {ofMedia(onlyB, "17890000000009005", bAccount, "456"), unavailable},
		"media of another account":        {ofMedia(onlyB, "17890000000008001", bAccount, "456"), invalid(wrongUser)},
		"media without its account":       {ofMedia(onlyB, "17890000000009001", "", "456"), missing("creative.instagram_user_id")},
		"media without its page":          {ofMedia(onlyB, "17890000000009001", bAccount, ""), missing("creative.object_id")},
		"media with another page":         {ofMedia(onlyB, "17890000000009001", bAccount, "457"), invalid(wrongPage)},
		"media in a network_a set":        {ofMedia(onlyA, "17890000000009001", bAccount, "456"), invalid(notPlacedB)},
		"post in a network_b set":         {ofPost(onlyB, bAccount), invalid(notPlacedA)},
		"post without account (both)":     {ofPost(both, ""), missing("creative.instagram_user_id")},
		"post without account (anywhere)": {ofPost(anywhere, ""), missing("creative.instagram_user_id")},
		"post with another account":       {ofPost(anywhere, "790"), invalid(postsUser)},
		"post and media": {map[string]any{"name": "n", "adset_id": both, "creative": map[string]any{"object_story_id": "456_9001",
			"source_instagram_media_id": "17890000000009001", "instagram_user_id": bAccount, "object_id": "456"}},
			invalid("Param creative takes object_story_id or source_instagram_media_id, not both")},
		"no creative": {map[string]any{"name": "n", "adset_id": both}, invalid("Param creative.object_story_id must be the id of an existing post")},
	} {
		refused(t, name, "POST", base+"/act_1/ads", userToken, tc.body, tc.want)
		if _, err := c.Create(ctx, userToken, "ad", tc.body, s); graphCode(err) != 100 {
			t.Errorf("%s through the client: %v", name, err)
		}
	}
	if n := len(f.Objects("ad")); n != 0 {
		t.Fatalf("%d ads made by refused creates", n)
	}
}

// TestMediaBatch: media calls in a batch are answered as alone, each with
// its own token; the client batches media reaches.
func TestMediaBatch(t *testing.T) {
	f, base := world(t)
	fiveMedia(f, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	f.SetFollowers(bAccount, 900)
	f.DeleteMedia("17890000000009002")
	got := batch(t, base, userToken,
		withToken(get(bAccount+"?fields=followers_count"), pageToken),
		withToken(get("v25.0/"+bAccount+"/media?fields=id,media_type&limit=2&since=1795176000"), pageToken), // 2026-11-20T12:00Z
		withToken(get("17890000000009003/insights?metric=reach"), pageToken),
		get("17890000000009003/insights?metric=reach"),
		withToken(get("17890000000009002/insights?metric=reach"), pageToken),
	)
	denied := `{"error":{"code":210,"fbtrace_id":"AbCdEf0fake","message":"(#210) A page access token is required to request this resource.","type":"OAuthException"}}`
	want := []struct {
		code int
		body string
	}{
		{200, `{"followers_count":900,"id":"789"}`},
		{200, `{"data":[{"id":"17890000000009005","media_type":"IMAGE"},{"id":"17890000000009004","media_type":"VIDEO"}],"paging":{"cursors":{"after":"2"},"next":"` +
			base + `/789/media?access_token=` + pageToken + `&after=2&fields=id%2Cmedia_type&limit=2&since=1795176000"}}`},
		{200, `{"data":[{"id":"17890000000009003/insights/reach/lifetime","name":"reach","period":"lifetime","values":[{"value":300}]}]}`},
		{400, denied},
		{400, `{"error":{"code":100,"error_subcode":33,"fbtrace_id":"AbCdEf0fake","message":"Unsupported get request. Object with ID '17890000000009002' does not exist, cannot be loaded due to missing permissions, or does not support this operation.","type":"GraphMethodException"}}`},
	}
	for i, w := range want {
		if got[i].Code != w.code || got[i].Body != w.body {
			t.Errorf("entry %d = %d %s\nwant %d %s", i, got[i].Code, got[i].Body, w.code, w.body)
		}
	}

	// The client sends several reaches as one batch request.
	c := client(t, base, networka.Options{Batch: true})
	f.ClearRequests()
	ids := []string{"17890000000009001", "17890000000009003", "17890000000009004", "17890000000009005"}
	reach, errs := c.MediaReaches(context.Background(), pageToken, ids, networka.Scope{Page: bAccount})
	if !reflect.DeepEqual(reach, []int64{100, 300, 400, 500}) || errors.Join(errs...) != nil {
		t.Fatalf("reach = %v, %v", reach, errs)
	}
	if reqs, calls := f.Requests(), f.Calls(); len(reqs) != 1 || len(calls) != 4 || !calls[0].Batched ||
		calls[0].Path != "/17890000000009001/insights?date_preset=maximum&metric=reach" {
		t.Fatalf("%d requests, calls %+v", len(reqs), calls)
	}
}

// TestMediaState: media, their reach and counts, the accounts' followers and
// the media numbering survive State and SetState through JSON.
func TestMediaState(t *testing.T) {
	f, base := world(t)
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	fiveMedia(f, t0)
	fresh := f.AddMedia(bAccount, networkafake.Media{Caption: "fresh", Type: "VIDEO", Created: t0.Add(3 * time.Hour)})
	f.SetFollowers(bAccount, 2500)
	f.SetMediaReach(fresh, 60)
	f.SetMediaCounts(fresh, 6, 1)
	saved, err := json.Marshal(f.State())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), `"mediaSeq":1`) || !strings.Contains(string(saved), `"Followers":2500`) {
		t.Fatalf("state JSON without the media numbering or the account's followers: %s", saved)
	}
	var s networkafake.State
	dec := json.NewDecoder(strings.NewReader(string(saved)))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	g, base2 := networkafake.Start(t)
	g.SetState(s)
	if !reflect.DeepEqual(g.State(), f.State()) {
		t.Fatalf("restored state differs:\n%+v\n%+v", g.State(), f.State())
	}
	if !reflect.DeepEqual(g.MediaOf(bAccount), f.MediaOf(bAccount)) || len(g.MediaOf(bAccount)) != 6 {
		t.Fatalf("media after restore: %+v", g.MediaOf(bAccount))
	}
	for _, p := range []string{"/" + bAccount + "/media?fields=" + mediaFieldList, "/" + bAccount + "?fields=followers_count",
		"/" + fresh + "/insights?metric=reach"} {
		a, b := mustOK(t, "GET", base+p, pageToken, nil), mustOK(t, "GET", base2+p, pageToken, nil)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: %v after restore, %v before", p, b, a)
		}
	}
	if next := g.AddMedia(bAccount, networkafake.Media{}); next != "17890000000000002" {
		t.Fatalf("a media after restore got id %s", next)
	}
	// A state without media (saved before there were any) restores.
	var old networkafake.State
	json.Unmarshal([]byte(`{"users":[],"posts":{},"objects":[],"insights":{},"objectSeq":0,"postSeq":0}`), &old)
	g.SetState(old)
	if got := g.State(); got.Media != nil || got.MediaSeq != 0 {
		t.Fatalf("state without media restored as %+v", got)
	}
}
