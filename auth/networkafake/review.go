package networkafake

import (
	"maps"
	"slices"
)

// Review statuses of an ad (SetAdReview, SetAdReviewFeedback): they are its
// effective_status unless the ad, its ad set or its campaign is deleted or
// archived.
const (
	ReviewPending        = "PENDING_REVIEW"
	ReviewDisapproved    = "DISAPPROVED"
	ReviewWithIssues     = "WITH_ISSUES"
	ReviewPreapproved    = "PREAPPROVED"
	ReviewPendingBilling = "PENDING_BILLING_INFO"
	ReviewInProcess      = "IN_PROCESS"
)

// reviewStatuses are the review statuses an ad may be given.
var reviewStatuses = []string{ReviewPending, ReviewDisapproved, ReviewWithIssues, ReviewPreapproved,
	ReviewPendingBilling, ReviewInProcess}

// Issue is one entry of an ad's issues_info.
type Issue struct {
	ErrorCode    int    `json:"error_code"`
	ErrorMessage string `json:"error_message"`
	ErrorSummary string `json:"error_summary"`
	Level        string `json:"level"` // "AD", "AD_SET", "CAMPAIGN"
}

// ReviewFeedback is what network_a's review said of an ad: the texts of
// ad_review_feedback.global by key, and issues_info.
type ReviewFeedback struct {
	Global map[string]string `json:"global,omitempty"`
	Issues []Issue           `json:"issues,omitempty"`
}

// SetAdReview sets the ad's review status, one of the Review constants,
// which becomes its effective_status; "" clears it and its feedback. It
// panics on another status.
func (f *Fake) SetAdReview(adID, status string) {
	f.SetAdReviewFeedback(adID, status, nil, nil)
}

// SetAdReviewFeedback sets the ad's review status as SetAdReview does, with
// the review's texts: global is ad_review_feedback.global (a reason's key,
// such as "Circumventing Systems", to its text), issues is issues_info. The
// ads list answers them when asked (fields ad_review_feedback,
// issues_info), and leaves them out while they are empty.
func (f *Fake) SetAdReviewFeedback(adID, status string, global map[string]string, issues []Issue) {
	if status != "" && !slices.Contains(reviewStatuses, status) {
		panic("networkafake: SetAdReview: unknown review status " + status)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.feedback, adID)
	if status == "" {
		delete(f.reviews, adID)
		return
	}
	f.reviews[adID] = status
	if len(global) > 0 || len(issues) > 0 {
		f.feedback[adID] = ReviewFeedback{Global: maps.Clone(global), Issues: slices.Clone(issues)}
	}
}

// addReview adds to an ad's answer the review fields asked for that it has:
// ad_review_feedback ({"global":{…}}) and issues_info.
func (w *world) addReview(row map[string]any, adID string, want []string) {
	fb, ok := w.feedback[adID]
	if !ok {
		return
	}
	if slices.Contains(want, "ad_review_feedback") && len(fb.Global) > 0 {
		row["ad_review_feedback"] = map[string]any{"global": maps.Clone(fb.Global)}
	}
	if slices.Contains(want, "issues_info") && len(fb.Issues) > 0 {
		issues := make([]any, len(fb.Issues))
		for i, is := range fb.Issues {
			issues[i] = map[string]any{"error_code": is.ErrorCode, "error_message": is.ErrorMessage,
				"error_summary": is.ErrorSummary, "level": is.Level}
		}
		row["issues_info"] = issues
	}
}
