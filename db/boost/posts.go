package boost

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth/networka"
	"adboost/db"
)

// candidate is a post that meets the campaign's rules, as the attempt at
// its ad keeps it (`post`).
type candidate struct {
	postID int64
	raw    json.RawMessage
}

// postRow is a post as the rules' statement and the attempts take it.
type postRow struct {
	PostID    int64  `json:"post_id"`
	ID        string `json:"id"`
	Message   string `json:"message"`
	Permalink string `json:"permalink_url"`
	Picture   string `json:"full_picture"`
	Created   string `json:"created_time"`
	Type      string `json:"status_type,omitempty"`
}

// candidates reads the page's new posts with the page's token and answers
// those that qualify (rules 1 to 4), and the ids of every post read (read
// is false when the page could not be read). A page without a usable token,
// whose token network_a refused, or that network_a no longer has or lets
// adboost read, is `page_lost`: its posts are not boosted, while the
// campaign's pause, ad set changes and statistics (user's token) go on.
func (w *work) candidates(ctx context.Context) (candidates []candidate, seen []int64, read bool, err error) {
	lost := func(why string) {
		w.out.observe(StatePageLost, why+": sign in again with network_a as an admin of the page")
	}
	if w.c.PageToken == nil {
		lost("the page has no network_a token")
		w.log.Warn("engine: campaign's posts not boosted: its page has no network_a token (the user signs in with network_a again to store one)", "page", w.c.PageID)
		return nil, nil, false, nil
	}
	if w.c.PageTokenRefused {
		lost("network_a refused the page's token")
		return nil, nil, false, nil // logged when network_a refused it
	}
	pageToken, err := w.e.cipher.Open(w.c.PageToken)
	if err != nil {
		lost("the page's stored token does not open")
		w.log.Warn("engine: campaign's posts not boosted: the page's stored token does not open with TOKEN_ENCRYPTION_KEY", "page", w.c.PageID)
		return nil, nil, false, nil
	}
	candidates, seen, err = w.pagePosts(ctx, pageToken)
	switch {
	case err == nil:
		return candidates, seen, seen != nil, nil
	case networka.TokenRefused(err):
		// The page's token, not the user's: only this page's boosting stops.
		lost("network_a refused the page's token")
		return nil, nil, false, w.pageRefused(ctx, err)
	case networka.Refused(err):
		var api *networka.Error
		errors.As(err, &api)
		lost("network_a does not let adboost read the page (" + api.Message + ")")
		return nil, nil, false, nil
	}
	w.out.blocked(err)
	return nil, nil, false, err
}

// pageRefused records that network_a refused the page's token: no post of
// the page is boosted until a sign-in stores a new token for it; the
// campaign's pause, ad set changes and statistics (user's token) go on.
// Logged once.
func (w *work) pageRefused(ctx context.Context, refusal error) error {
	_, err := w.q.SourceAccessTokenRefused(ctx, db.SourceAccessTokenRefusedParams{UserID: w.c.UserID, ID: w.c.PageID, AccessToken: w.c.PageToken})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	w.log.Warn("engine: network_a refused the page's token (OAuth 190): the page's posts are not boosted until the user signs in with network_a again; pauses, ad set changes and statistics go on",
		"page", w.c.PageID, "err", refusal)
	return nil
}

// pagePosts reads the page's posts published since the oldest age a post may
// have (network_a answers only those) and answers those that meet rules 1 to
// 4, and the ids of all: the rules of the post's text in one statement,
// then, for those, the reach rule with the page's followers and each post's
// reach, read at once.
func (w *work) pagePosts(ctx context.Context, pageToken string) ([]candidate, []int64, error) {
	pageID := strconv.FormatInt(w.c.PageID, 10)
	since := w.since()
	posts, truncated, err := w.e.api.Posts(ctx, pageToken, pageID, since, MaxPosts, w.pageScope())
	if err != nil {
		return nil, nil, err
	}
	// seen says which posts the page still has: nil when MaxPosts cut the
	// read (older posts of the window were not read, not deleted).
	var seen []int64
	if !truncated {
		seen = make([]int64, 0, len(posts))
		for _, p := range posts {
			if id, ok := PostID(p.ID); ok {
				seen = append(seen, id)
			}
		}
	}
	candidates, err := w.qualifying(ctx, posts, since)
	if err != nil || len(candidates) == 0 || w.c.ReachPercent <= 0 {
		return candidates, seen, err
	}
	followers, err := w.e.api.Followers(ctx, pageToken, pageID, w.pageScope())
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(candidates))
	for i, c := range candidates {
		var p postRow
		if err := json.Unmarshal(c.raw, &p); err != nil {
			return nil, nil, err
		}
		ids[i] = p.ID
	}
	reaches, errs := w.e.api.PostReaches(ctx, pageToken, ids, w.pageScope())
	kept := candidates[:0]
	for i, c := range candidates {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		if ReachQualifies(reaches[i], followers, w.c.ReachPercent) {
			kept = append(kept, c)
		}
	}
	return kept, seen, nil
}

// qualifying applies rules 1 to 3 (EngineQualifyingPosts) to the posts.
func (w *work) qualifying(ctx context.Context, posts []networka.Post, since time.Time) ([]candidate, error) {
	rows := make([]postRow, 0, len(posts))
	for _, p := range posts {
		postID, ok := PostID(p.ID)
		if !ok {
			w.log.Warn("engine: post skipped: its id is not <page id>_<post id>", "post", p.ID)
			continue
		}
		rows = append(rows, postRow{postID, p.ID, p.Message, p.Permalink, p.Picture, p.Created.UTC().Format(time.RFC3339), p.Type})
	}
	if len(rows) == 0 {
		return nil, nil
	}
	arg, err := json.Marshal(rows)
	if err != nil {
		return nil, err
	}
	found, err := w.q.EngineQualifyingPosts(ctx, db.EngineQualifyingPostsParams{CampaignID: w.id, Since: since, Posts: arg})
	if err != nil {
		return nil, err
	}
	out := make([]candidate, len(found))
	for i, f := range found {
		out[i] = candidate{f.PostID, f.Post}
	}
	return out, nil
}

// ReachQualifies is the reach rule (rule 4 of EngineQualifyingPosts): a post's organic reach × 100 is
// at least R percent of the page's followers.
func ReachQualifies(reach, followers int64, percent int32) bool {
	return reach*100 >= int64(percent)*followers
}

// PostID answers a post's id in adboost: the part of network_a's id after
// `_`, a positive integer.
func PostID(networkID string) (int64, bool) {
	_, after, found := strings.Cut(networkID, "_")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(after, 10, 64)
	return id, err == nil && id > 0
}
