package networkafake

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"time"
)

// Media is one of a network_b account's media. network_a answers it to the
// token of the page the account is linked to.
type Media struct {
	// ID is the media id; empty: AddMedia makes one, 17 digits from
	// 17890000000000001 on, beyond 2^53 as network_b's ids are.
	ID        string
	Caption   string
	Type      string    // media_type: "IMAGE", "VIDEO" or "CAROUSEL_ALBUM"; empty: IMAGE
	Permalink string    //
	URL       string    // media_url
	Thumbnail string    // thumbnail_url, answered for a VIDEO only
	Created   time.Time // timestamp; zero: now
	Likes     int       // like_count
	Comments  int       // comments_count
	Reach     int       // organic reach: /{media_id}/insights?metric=reach
}

// MediaTypes are the media_type values of network_b's media.
var MediaTypes = []string{"IMAGE", "VIDEO", "CAROUSEL_ALBUM"}

// firstMediaID is one less than the first media id AddMedia makes.
const firstMediaID = 17890000000000000

// AddMedia publishes the media on the network_b account and answers its id;
// /{network_b_id}/media lists the account's media newest first by Created.
// An empty ID gets a fresh one, a zero Created the current time, an empty
// Type IMAGE. A media with the ID of an earlier one replaces it. It panics
// on a Type outside MediaTypes.
func (f *Fake) AddMedia(accountBID string, m Media) string {
	if m.Type == "" {
		m.Type = "IMAGE"
	}
	if !slices.Contains(MediaTypes, m.Type) {
		panic("networkafake: AddMedia: unknown media type " + m.Type)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.ID == "" {
		f.mediaSeq++
		m.ID = strconv.FormatInt(firstMediaID+int64(f.mediaSeq), 10)
	}
	if m.Created.IsZero() {
		m.Created = time.Now()
	}
	m.Created = m.Created.UTC().Truncate(time.Second)
	f.deleteMedia(m.ID)
	f.placeMedia(accountBID, m)
	return m.ID
}

// DeleteMedia deletes the media, as its account's owner does: it leaves its
// account's list, its insights answer that it does not exist, and an ad for
// it is refused as for an unknown media. Ads made for it stay. An unknown
// media is left alone.
func (f *Fake) DeleteMedia(mediaID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleteMedia(mediaID)
}

// MediaOf answers the network_b account's media, newest first.
func (f *Fake) MediaOf(accountBID string) []Media {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Media, 0, len(f.accountMedia[accountBID]))
	for _, m := range f.accountMedia[accountBID] {
		out = append(out, *m)
	}
	return out
}

// SetMediaReach sets a media's organic reach (metric=reach).
func (f *Fake) SetMediaReach(mediaID string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m, ok := f.media[mediaID]; ok {
		m.Reach = n
	}
}

// SetMediaCounts sets a media's like_count and comments_count.
func (f *Fake) SetMediaCounts(mediaID string, likes, comments int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m, ok := f.media[mediaID]; ok {
		m.Likes, m.Comments = likes, comments
	}
}

// accountBAccess checks that the id is a network_b account linked to a
// page, and that the caller holds that page's token.
func (f *Fake) accountBAccess(who caller, method, id string) *answer {
	_, pageID, ok := f.accountB(id)
	if !ok {
		a := noObject(method, id)
		return &a
	}
	if who.pageID != pageID {
		a := pageTokenRequired()
		return &a
	}
	return nil
}

// accountBAnswer answers GET /{network_b_id}: its id, username,
// followers_count, profile_picture_url and media_count, as asked.
func (f *Fake) accountBAnswer(who caller, id string, q url.Values) answer {
	if a := f.accountBAccess(who, http.MethodGet, id); a != nil {
		return *a
	}
	if a := checkFields(q, nil, []string{"id", "username", "followers_count", "profile_picture_url", "media_count"}); a != nil {
		return *a
	}
	b, _, _ := f.accountB(id)
	out := map[string]any{"id": b.ID}
	for _, k := range fields(q) {
		switch k {
		case "username":
			out[k] = b.Username
		case "followers_count":
			out[k] = b.Followers
		case "profile_picture_url":
			if b.Picture != "" {
				out[k] = b.Picture
			}
		case "media_count":
			out[k] = len(f.accountMedia[id])
		}
	}
	return answer{status: http.StatusOK, body: out}
}

// mediaFields are the fields a media is answered with.
var mediaFields = []string{"id", "caption", "media_type", "permalink", "media_url", "thumbnail_url", "timestamp", "like_count", "comments_count"}

// accountMediaAnswer answers GET /{network_b_id}/media: the account's media
// created at or after since, newest first, paged like a page's posts.
func (f *Fake) accountMediaAnswer(who caller, id string, q url.Values, token, base string) answer {
	if a := f.accountBAccess(who, http.MethodGet, id); a != nil {
		return *a
	}
	if a := checkFields(q, nil, mediaFields); a != nil {
		return *a
	}
	after, limit, bad := window(q, 100)
	if bad != nil {
		return *bad
	}
	media := f.accountMedia[id]
	if s := q.Get("since"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return paramError("since must be a UNIX time in seconds")
		}
		since := time.Unix(n, 0)
		media = media[:sort.Search(len(media), func(i int) bool { return media[i].Created.Before(since) })]
	}
	want := fields(q)
	data := []any{}
	for i := after; i < after+limit && i < len(media); i++ {
		data = append(data, mediaAnswer(media[i], want))
	}
	return paged(data, len(media), after, limit, q, base+"/"+id+"/media", token)
}

// mediaAnswer is a media with its id and the fields asked for; network_a
// leaves out an empty caption, and thumbnail_url but for a video.
func mediaAnswer(m *Media, want []string) map[string]any {
	d := map[string]any{"id": m.ID}
	for _, k := range want {
		switch k {
		case "caption":
			if m.Caption != "" {
				d[k] = m.Caption
			}
		case "media_type":
			d[k] = m.Type
		case "permalink":
			d[k] = m.Permalink
		case "media_url":
			if m.URL != "" {
				d[k] = m.URL
			}
		case "thumbnail_url":
			if m.Type == "VIDEO" && m.Thumbnail != "" {
				d[k] = m.Thumbnail
			}
		case "timestamp":
			d[k] = m.Created.UTC().Format(GraphTime)
		case "like_count":
			d[k] = m.Likes
		case "comments_count":
			d[k] = m.Comments
		}
	}
	return d
}

// mediaInsights answers GET /{media_id}/insights?metric=reach to the token
// of the page its account is linked to.
func (f *Fake) mediaInsights(who caller, mediaID string, q url.Values) answer {
	_, pageID, linked := f.accountB(f.mediaAccount[mediaID])
	if !linked {
		return noObject(http.MethodGet, mediaID)
	}
	if who.pageID != pageID {
		return pageTokenRequired()
	}
	if q.Get("metric") != "reach" {
		return paramError("The value must be a valid insights metric")
	}
	return answer{status: http.StatusOK, body: map[string]any{"data": []any{map[string]any{
		"name": "reach", "period": "lifetime",
		"values": []any{map[string]any{"value": f.media[mediaID].Reach}},
		"id":     mediaID + "/insights/reach/lifetime",
	}}}}
}
