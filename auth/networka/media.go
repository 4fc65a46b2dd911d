package networka

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Media is one of a network_b account's media as network_a answers it. The
// account is linked to a page, and its media are read with that page's
// token.
type Media struct {
	ID        string    // the media id: digits, often beyond 2^53
	Caption   string    //
	Type      string    // media_type: IMAGE, VIDEO, CAROUSEL_ALBUM
	Permalink string    //
	URL       string    // media_url
	Thumbnail string    // thumbnail_url (VIDEO only)
	Created   time.Time // timestamp
	Likes     int64     // like_count
	Comments  int64     // comments_count
}

// Picture is the image that shows the media: its thumbnail for a video,
// else its media_url.
func (m Media) Picture() string {
	if m.Type == "VIDEO" && m.Thumbnail != "" {
		return m.Thumbnail
	}
	return m.URL
}

// MediaOf answers the network_b account's media published at or after
// since, newest first, at most max (the linked page's token): network_a is
// asked with `since`, and a media older than since that it answers all the
// same ends the list. truncated tells that max cut the list.
func (c *Client) MediaOf(ctx context.Context, token, accountID string, since time.Time, max int, s Scope) (media []Media, truncated bool, err error) {
	var out []Media
	cl := call{method: http.MethodGet, path: "/" + url.PathEscape(accountID) + "/media", query: url.Values{
		"fields": {"id,caption,media_type,permalink,media_url,thumbnail_url,timestamp,like_count,comments_count"},
		"limit":  {"100"},
		"since":  {strconv.FormatInt(since.Unix(), 10)},
	}, token: token, scope: s}
	err = c.list(ctx, cl, func(raw json.RawMessage) (bool, error) {
		var m struct {
			ID        string `json:"id"`
			Caption   string `json:"caption"`
			Type      string `json:"media_type"`
			Permalink string `json:"permalink"`
			URL       string `json:"media_url"`
			Thumbnail string `json:"thumbnail_url"`
			Timestamp string `json:"timestamp"`
			Likes     int64  `json:"like_count"`
			Comments  int64  `json:"comments_count"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return false, err
		}
		created, err := parseTime(m.Timestamp)
		if err != nil {
			return false, fmt.Errorf("media %s: timestamp %q", m.ID, m.Timestamp)
		}
		if created.Before(since) || len(out) >= max {
			return false, nil
		}
		out = append(out, Media{ID: clean(m.ID), Caption: clean(m.Caption), Type: clean(m.Type), Permalink: clean(m.Permalink),
			URL: clean(m.URL), Thumbnail: clean(m.Thumbnail), Created: created, Likes: max64(m.Likes, 0), Comments: max64(m.Comments, 0)})
		truncated = len(out) >= max
		return !truncated, nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, truncated, nil
}

// MediaReaches answers the organic reach of several media at once (the
// linked page's token), in order: GET /{media_id}/insights?metric=reach.
func (c *Client) MediaReaches(ctx context.Context, token string, mediaIDs []string, s Scope) ([]int64, []error) {
	return c.reaches(ctx, token, mediaIDs, "reach", s)
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
