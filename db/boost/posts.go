package boost

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/rules"
)

// The networks a campaign boosts posts of, as attempts and posts name them.
const (
	networkA = "network_a"
	networkB = "network_b"
)

// candidate is a post that meets the campaign's rules, as the attempt at
// its ad keeps it (`post`: raw, with its id in adboost).
type candidate struct {
	postID    int64
	raw       json.RawMessage
	created   time.Time
	networkID string     // network_a's post id, or the media id
	post      rules.Post // as the rules look at it
}

// readPost is a post or media a cycle read: as the attempts keep it (row)
// and as the rules look at it (post).
type readPost struct {
	row  postRow
	post rules.Post
}

// postRow is a post or a network_b media as the attempts take it. A
// media's caption is its message, its media_url (a video's thumbnail) its
// picture, and its id in adboost (post_id) is assigned when it first
// qualifies (EngineNewPosts).
type postRow struct {
	Network   string `json:"network"`
	PostID    int64  `json:"post_id,omitempty"`
	ID        string `json:"id"` // network_a's post id, or the media id
	Message   string `json:"message"`
	Permalink string `json:"permalink_url"`
	Picture   string `json:"full_picture"`
	Created   string `json:"created_time"`
	Type      string `json:"status_type,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	SourceID  int64  `json:"source_id,omitempty"` // the page or network_b account the post is on
	// The post's engagement: network_a's reactions, comments and shares;
	// network_b's like_count and comments_count (no shares).
	Reactions int64 `json:"reactions"`
	Comments  int64 `json:"comments"`
	Shares    int64 `json:"shares"`
}

// network is the network of a post an attempt keeps: network_a unless the
// post says otherwise.
func (p postRow) network() string {
	if p.Network == networkB {
		return networkB
	}
	return networkA
}

// source is what a campaign boosts the posts of: its network_a page, or its
// network_b account, whose media are read with the token of the page it is
// linked to.
type source struct {
	network string
	id      int64  // the page's or the network_b account's id
	pageID  int64  // the page whose token reads it
	token   []byte // that page's sealed token; nil when none is stored
	refused bool   // network_a refused that token
}

// sources are the campaign's page and network_b account, those it has.
func (w *work) sources() []source {
	var out []source
	if w.c.PageID != 0 {
		out = append(out, source{networkA, w.c.PageID, w.c.PageID, w.c.PageToken, w.c.PageTokenRefused})
	}
	if w.c.NetworkBID != 0 {
		out = append(out, source{networkB, w.c.NetworkBID, w.c.NetworkBPageID, w.c.NetworkBPageToken, w.c.NetworkBPageTokenRefused})
	}
	return out
}

// what names the source in states and logs.
func (s source) what() string {
	if s.network == networkB {
		return "the network_b account " + strconv.FormatInt(s.id, 10)
	}
	return "the page"
}

// sourceRead is what a cycle read of a source.
type sourceRead struct {
	src        source
	candidates []candidate
	read       bool     // its posts were read, all of the window
	seen       []int64  // network_a: the ids in adboost of the posts read
	media      []string // network_b: the media ids read
}

// candidates reads the source's new posts with its page's token and
// answers those that qualify (rules 1 to 4), and the ids of every post read
// (read is false when the source could not be read whole). A source
// without a usable page token, whose token network_a refused, or that
// network_a no longer has or lets adboost read, is `page_lost`: its posts
// are not boosted, while the campaign's pause, ad set changes and
// statistics (user's token) go on.
func (w *work) candidates(ctx context.Context, src source) (sourceRead, error) {
	out := sourceRead{src: src}
	lost := func(why string) {
		w.out.observe(StatePageLost, why+": sign in again with network_a as an admin of the page")
	}
	switch {
	case src.network == networkB && src.pageID == 0:
		lost("the network_b account is not linked to a page adboost knows")
		w.log.Warn("engine: campaign's media not boosted: its network_b account is linked to none of the user's pages", "network_b_id", src.id)
		return out, nil
	case src.token == nil:
		if src.network == networkB {
			lost("the page of the network_b account has no network_a token")
		} else {
			lost("the page has no network_a token")
		}
		w.log.Warn("engine: campaign's posts not boosted: its page has no network_a token (the user signs in with network_a again to store one)", "page", src.pageID, "network", src.network)
		return out, nil
	case src.refused:
		lost("network_a refused the page's token")
		return out, nil // logged when network_a refused it
	}
	pageToken, err := w.e.cipher.Open(src.token)
	if err != nil {
		lost("the page's stored token does not open")
		w.log.Warn("engine: campaign's posts not boosted: the page's stored token does not open with TOKEN_ENCRYPTION_KEY", "page", src.pageID)
		return out, nil
	}
	out, err = w.readSource(ctx, src, pageToken)
	switch {
	case err == nil:
		return out, nil
	case networka.TokenRefused(err):
		// The page's token, not the user's: only this page's boosting stops.
		lost("network_a refused the page's token")
		return sourceRead{src: src}, w.pageRefused(ctx, src, err)
	case networka.Refused(err):
		var api *networka.Error
		errors.As(err, &api)
		lost("network_a does not let adboost read " + src.what() + " (" + api.UserText() + ")")
		return sourceRead{src: src}, nil
	}
	w.blocked(err)
	return sourceRead{src: src}, err
}

// pageRefused records that network_a refused the page's token: no post of
// the page (nor media of its network_b account) is boosted until a sign-in
// stores a new token for it; the campaign's pause, ad set changes and
// statistics (user's token) go on. Logged once.
func (w *work) pageRefused(ctx context.Context, src source, refusal error) error {
	_, err := w.q.SourceAccessTokenRefused(ctx, db.SourceAccessTokenRefusedParams{UserID: w.c.UserID, ID: src.pageID, AccessToken: src.token})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	w.log.Warn("engine: network_a refused the page's token (OAuth 190): the page's posts are not boosted until the user signs in with network_a again; pauses, ad set changes and statistics go on",
		"page", src.pageID, "err", refusal)
	return nil
}

// readSource reads the source's posts published since the oldest age a
// post may have (network_a answers only those) and answers those that meet
// the campaign's conditions (rules.Conditions) and that the campaign did
// not boost nor attempt yet (EngineNewPosts), and the ids of all. The rules
// that need the posts' organic reach are checked last, with the reaches of
// those posts only, read at once. The posts the campaign boosts already
// (its recent posts and media, read with the campaign) are set aside
// first, so a steady campaign, whose posts are all boosted or held back by
// its rules, runs no statement.
func (w *work) readSource(ctx context.Context, src source, pageToken string) (sourceRead, error) {
	out := sourceRead{src: src}
	scope := networka.Scope{User: strconv.FormatInt(w.c.UserID, 10), Page: strconv.FormatInt(src.pageID, 10)}
	var read []readPost
	var truncated bool
	var err error
	if src.network == networkB {
		read, truncated, err = w.mediaRows(ctx, &out, pageToken, scope)
	} else {
		read, truncated, err = w.postRows(ctx, &out, pageToken, scope)
	}
	if err != nil {
		return out, err
	}
	// The ids read say which posts the source still has, unless MaxPosts
	// cut the read (older posts of the window were not read, not deleted).
	out.read = !truncated
	if truncated {
		out.seen, out.media = nil, nil
	}
	cond := w.conditions()
	candidates, err := w.newPosts(ctx, w.qualifying(cond, read))
	if err != nil || len(candidates) == 0 || !cond.NeedsReach() {
		out.candidates = candidates
		return out, err
	}
	out.candidates, err = w.reachRules(ctx, src, pageToken, scope, cond, candidates)
	return out, err
}

// conditions are what a post must be for the campaign to boost it: its
// rules, hashtag and goal, its preset's keywords and reach, and
// ENGINE_POST_MAX_AGE.
func (w *work) conditions() rules.Conditions {
	return rules.Conditions{Rules: w.rules, Hashtag: w.c.Hashtag, Keywords: w.c.Keywords,
		ReachPercent: w.c.ReachPercent, VideoOnly: w.c.Goal == "VIDEO_VIEWS", MaxAge: w.e.maxAge}
}

// mediaRows reads the network_b account's media published since the
// oldest age a post may have, noting each id in out; those the campaign
// boosts already are set aside.
func (w *work) mediaRows(ctx context.Context, out *sourceRead, pageToken string, scope networka.Scope) ([]readPost, bool, error) {
	src := out.src
	media, cut, err := w.e.api.MediaOf(ctx, pageToken, strconv.FormatInt(src.id, 10), w.since(), MaxPosts, scope)
	if err != nil {
		return nil, false, err
	}
	read := make([]readPost, 0, len(media))
	for _, m := range media {
		if !mediaID(m.ID) {
			w.log.Warn("engine: media skipped: its id is not a number", "media", m.ID)
			continue
		}
		out.media = append(out.media, m.ID)
		if slices.Contains(w.c.RecentMedia, m.ID) {
			continue
		}
		created := m.Created.UTC().Truncate(time.Second)
		read = append(read, readPost{
			row: postRow{Network: networkB, ID: m.ID, Message: m.Caption, Permalink: m.Permalink, Picture: m.Picture(),
				Created: created.Format(time.RFC3339), MediaType: m.Type, SourceID: src.id, Reactions: m.Likes, Comments: m.Comments},
			post: rules.Post{Network: rules.NetworkB, Kind: m.Type, Message: m.Caption, Created: created,
				Reactions: m.Likes, Comments: m.Comments},
		})
	}
	return read, cut, nil
}

// postRows reads the page's posts published since the oldest age a post
// may have, noting each id in out; those the campaign boosts already are
// set aside.
func (w *work) postRows(ctx context.Context, out *sourceRead, pageToken string, scope networka.Scope) ([]readPost, bool, error) {
	src := out.src
	posts, cut, err := w.e.api.Posts(ctx, pageToken, strconv.FormatInt(src.id, 10), w.since(), MaxPosts, scope)
	if err != nil {
		return nil, false, err
	}
	read := make([]readPost, 0, len(posts))
	for _, p := range posts {
		postID, ok := PostID(p.ID)
		if !ok {
			w.log.Warn("engine: post skipped: its id is not <page id>_<post id>", "post", p.ID)
			continue
		}
		out.seen = append(out.seen, postID)
		if slices.Contains(w.c.RecentPosts, postID) {
			continue
		}
		created := p.Created.UTC().Truncate(time.Second)
		read = append(read, readPost{
			row: postRow{Network: networkA, PostID: postID, ID: p.ID, Message: p.Message, Permalink: p.Permalink,
				Picture: p.Picture, Created: created.Format(time.RFC3339), Type: p.Type, SourceID: src.id,
				Reactions: p.Reactions, Comments: p.Comments, Shares: p.Shares},
			post: rules.Post{Network: rules.NetworkA, Kind: p.Type, Message: p.Message, Created: created,
				Reactions: p.Reactions, Comments: p.Comments, Shares: p.Shares},
		})
	}
	return read, cut, nil
}

// qualifying answers the posts read that meet the campaign's conditions at
// the work's time, with those that meet every rule but the ones their
// reach, not read yet, decides (rules.ReachUnknown).
func (w *work) qualifying(cond rules.Conditions, read []readPost) []readPost {
	var out []readPost
	for _, p := range read {
		ok, why := cond.Qualifies(p.post, w.now)
		if ok || why == rules.ReachUnknown {
			out = append(out, p)
			continue
		}
		w.log.Debug("engine: post not boosted yet", "post", p.row.ID, "network", p.row.network(), "reason", why)
	}
	return out
}

// newPosts answers the posts of one source, which qualify, that the
// campaign did not boost nor attempt yet, with their ids in adboost (a
// media's is assigned by EngineNewPosts when it first qualifies), oldest
// first.
func (w *work) newPosts(ctx context.Context, posts []readPost) ([]candidate, error) {
	if len(posts) == 0 {
		return nil, nil
	}
	var postIDs []int64
	var mediaIDs []string
	for _, p := range posts {
		if p.row.network() == networkB {
			mediaIDs = append(mediaIDs, p.row.ID)
		} else {
			postIDs = append(postIDs, p.row.PostID)
		}
	}
	found, err := w.q.EngineNewPosts(ctx, db.EngineNewPostsParams{CampaignID: w.id, PostIds: postIDs, MediaIds: mediaIDs})
	if err != nil || len(found) == 0 {
		return nil, err
	}
	fresh := make(map[int64]bool, len(found))
	media := make(map[string]int64, len(found))
	for _, f := range found {
		if f.MediaID != "" {
			media[f.MediaID] = f.PostID
		} else {
			fresh[f.PostID] = true
		}
	}
	out := make([]candidate, 0, len(found))
	for _, p := range posts {
		if p.row.network() == networkB {
			id, ok := media[p.row.ID]
			if !ok {
				continue
			}
			p.row.PostID = id
		} else if !fresh[p.row.PostID] {
			continue
		}
		raw, err := json.Marshal(p.row)
		if err != nil {
			return nil, err
		}
		out = append(out, candidate{postID: p.row.PostID, raw: raw, created: p.post.Created, networkID: p.row.ID, post: p.post})
	}
	return oldestFirst(sourceRead{candidates: out}), nil
}

// reachRules keeps the candidates that meet the rules needing the posts'
// organic reach (the preset's reach R with the source's followers, and the
// engagement rate); the reaches are read at once.
func (w *work) reachRules(ctx context.Context, src source, pageToken string, scope networka.Scope, cond rules.Conditions, candidates []candidate) ([]candidate, error) {
	var followers int64
	var err error
	if cond.ReachPercent > 0 {
		if followers, err = w.e.api.Followers(ctx, pageToken, strconv.FormatInt(src.id, 10), scope); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(candidates))
	for i, c := range candidates {
		ids[i] = c.networkID
	}
	var reaches []int64
	var errs []error
	if src.network == networkB {
		reaches, errs = w.e.api.MediaReaches(ctx, pageToken, ids, scope)
	} else {
		reaches, errs = w.e.api.PostReaches(ctx, pageToken, ids, scope)
	}
	var kept []candidate
	for i, c := range candidates {
		if errs[i] != nil {
			return nil, errs[i]
		}
		c.post.ReachRead, c.post.Reach, c.post.Followers = true, reaches[i], followers
		if ok, why := cond.Qualifies(c.post, w.now); !ok {
			w.log.Debug("engine: post not boosted yet", "post", c.networkID, "network", src.network, "reason", why)
			continue
		}
		kept = append(kept, c)
	}
	return kept, nil
}

// oldestFirst merges the candidates of the campaign's sources, oldest
// post first.
func oldestFirst(reads ...sourceRead) []candidate {
	var out []candidate
	for _, r := range reads {
		out = append(out, r.candidates...)
	}
	slices.SortStableFunc(out, func(a, b candidate) int {
		return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.postID, b.postID))
	})
	return out
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

// mediaID tells whether a media id is one adboost keeps: 1 to 40 digits.
func mediaID(id string) bool {
	return id != "" && len(id) <= 40 && strings.Trim(id, "0123456789") == ""
}
