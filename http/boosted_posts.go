package httpapi

import (
	"context"
	"slices"
	"strings"

	"adboost/db"
)

// Boosted posts: the signed-in user's posts only.

// boostedPostFilter is the source/campaign filter of boosted-posts list and count.
type boostedPostFilter struct {
	SourceID      Int `json:"source_id"`
	BoostedPageID Int `json:"boosted_page_id"`
}

func (f *boostedPostFilter) check() error {
	if f.SourceID.Set && f.SourceID.V <= 0 {
		return badRequest("source_id must be a positive integer")
	}
	if f.BoostedPageID.Set && f.BoostedPageID.V <= 0 {
		return badRequest("boosted_page_id must be a positive integer")
	}
	return nil
}

// maxPostPage keeps the list's offset ((page-1)*20) far from overflowing.
const maxPostPage = 1_000_000_000

type boostedPostListRequest struct {
	boostedPostFilter
	Page Int `json:"page"`
}

func (r *boostedPostListRequest) validate() error {
	if r.Page.Set && (r.Page.V < 1 || r.Page.V > maxPostPage) {
		return badRequest("page must be an integer from 1 to %d, not %d", maxPostPage, r.Page.V)
	}
	return r.check()
}

// boostedPostList: POST /v1/boosted-posts/list, 20 a page, newest first.
func (s *Server) boostedPostList(ctx context.Context, req *boostedPostListRequest) ([]db.BoostedPostListRow, error) {
	return s.q.BoostedPostList(ctx, db.BoostedPostListParams{
		UserID: userID(ctx), SourceID: req.SourceID.Ptr(), BoostedPageID: req.BoostedPageID.Ptr(),
		Page: req.Page.Or(1),
	})
}

type boostedPostCountRequest struct {
	boostedPostFilter
}

func (r *boostedPostCountRequest) validate() error { return r.check() }

// boostedPostCount: POST /v1/boosted-posts/count.
func (s *Server) boostedPostCount(ctx context.Context, req *boostedPostCountRequest) (int64, error) {
	return s.q.BoostedPostCount(ctx, db.BoostedPostCountParams{
		UserID: userID(ctx), SourceID: req.SourceID.Ptr(), BoostedPageID: req.BoostedPageID.Ptr(),
	})
}

// maxInsightIDs is the most ids batch-insights takes.
const maxInsightIDs = 1000

type batchInsightsRequest struct {
	IDs string `json:"ids"`

	ids []int64
}

// validate parses ids: a comma-separated list of 1 to 1,000 positive
// integers (spaces around each allowed), each post counted once whatever
// the list repeats. They are sent sorted and without repeats:
// BoostedPostInsightsSum matches them with = ANY, and PostgreSQL sorts and
// dedupes the array before it reads the index, a sort that returns at once
// on a sorted array.
func (r *batchInsightsRequest) validate() error {
	if strings.TrimSpace(r.IDs) == "" {
		return badRequest("ids is required: a comma-separated list of boosted post ids")
	}
	parts := strings.Split(r.IDs, ",")
	if len(parts) > maxInsightIDs {
		return badRequest("ids has %d entries; at most %d are allowed", len(parts), maxInsightIDs)
	}
	ids := make([]int64, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		id, ok := positiveID(p)
		if !ok {
			return badRequest("ids: entry %d (%q) is not a positive integer", i+1, cut(p, 40))
		}
		ids[i] = id
	}
	slices.Sort(ids)
	r.ids = slices.Compact(ids)
	return nil
}

// boostedPostBatchInsights: POST /v1/boosted-posts/batch-insights, summed
// and derived by the database in one query.
func (s *Server) boostedPostBatchInsights(ctx context.Context, req *batchInsightsRequest) (db.BoostedPostInsightsSumRow, error) {
	return s.q.BoostedPostInsightsSum(ctx, db.BoostedPostInsightsSumParams{UserID: userID(ctx), Ids: req.ids})
}
