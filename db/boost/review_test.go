package boost_test

// Reviews network_a reports of boosted posts' ads, through the API and in
// the history and mails; and a campaign whose posts each get an ad set of
// their own, all made in one cycle although network_a carries out one ad
// set create per campaign in a batch request.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// reviewed is a BoostedPost of boosted-posts/list with its review.
type reviewed struct {
	ID      int64 `json:"id"`
	Active  bool  `json:"active"`
	Stopped int64 `json:"stopped"`
	Review  *struct {
		Status string  `json:"status"`
		Reason *string `json:"reason"`
	} `json:"review"`
}

// reviews answers campaign 7's boosted posts by id, with their reviews.
func (w *world) reviews() map[int64]reviewed {
	w.t.Helper()
	var list []reviewed
	w.call(http.MethodPost, "/v1/boosted-posts/list", map[string]any{"page": "1", "boosted_page_id": 7}, &list)
	out := map[int64]reviewed{}
	for _, p := range list {
		out[p.ID] = p
	}
	return out
}

// reviewText answers a post's review as "status" or "status: reason", or
// "null".
func (p reviewed) reviewText() string {
	switch {
	case p.Review == nil:
		return "null"
	case p.Review.Reason == nil:
		return p.Review.Status
	}
	return p.Review.Status + ": " + *p.Review.Reason
}

// countPostUpdates makes the database count the UPDATE statements run on
// boosted_post (each statement once, whether it changes rows or not), and
// answers a function that reads the count.
func (w *world) countPostUpdates() func() int {
	w.t.Helper()
	w.stExec(`CREATE TABLE test_post_updates (n integer NOT NULL)`)
	w.stExec(`INSERT INTO test_post_updates VALUES (0)`)
	w.stExec(`CREATE FUNCTION test_count_post_update() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN UPDATE test_post_updates SET n = n + 1; RETURN NULL; END $$`)
	w.stExec(`CREATE TRIGGER test_count_post_update AFTER UPDATE ON boosted_post
		FOR EACH STATEMENT EXECUTE FUNCTION test_count_post_update()`)
	return func() int {
		var n int
		if err := w.pool.QueryRow(context.Background(), `SELECT n FROM test_post_updates`).Scan(&n); err != nil {
			w.t.Fatal(err)
		}
		return n
	}
}

// postsUpdatedAt answers each boosted post's updated_at, as text.
func (w *world) postsUpdatedAt() string {
	w.t.Helper()
	var s string
	if err := w.pool.QueryRow(context.Background(),
		`SELECT string_agg(id || '=' || updated_at, ',' ORDER BY id) FROM boosted_post WHERE user_id = 100`).Scan(&s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

// Each review network_a reports is answered as `review` on the post:
// PENDING_REVIEW and IN_PROCESS pending, ACTIVE approved, WITH_ISSUES
// with_issues with the issues' summaries, DISAPPROVED disapproved with the
// global texts in the order of their keys. The disapproved post stops
// (active false) with the reason in its post_stopped entry and in the
// notice mail. A cycle whose reviews are unchanged writes none; a changed
// one is written.
func TestReviewStates(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	for i := 1; i <= 5; i++ {
		w.post(fmt.Sprint(i), fmt.Sprintf("#gym %d", i), time.Duration(6-i)*time.Hour, 0)
	}
	w.cycle()
	ad := map[int64]string{}
	for i := int64(1); i <= 5; i++ {
		ad[i] = w.object("ad", fmt.Sprintf("adboost-7-%d", i)).ID
	}
	w.fake.SetAdReview(ad[1], networkafake.ReviewPending)
	// ad 2: ACTIVE, as network_a made it.
	w.fake.SetAdReviewFeedback(ad[3], networkafake.ReviewWithIssues, nil, []networkafake.Issue{
		{ErrorCode: 2490001, ErrorMessage: "The image is blurry.", ErrorSummary: "Low image quality", Level: "AD"},
		{ErrorCode: 2490002, ErrorMessage: "The text is long.", ErrorSummary: "Text too long", Level: "AD"}})
	const reason = "Makes claims about health.; Uses before-and-after images."
	w.fake.SetAdReviewFeedback(ad[4], networkafake.ReviewDisapproved,
		map[string]string{"Z_before_after": "Uses before-and-after images.", "A_health": "Makes claims about health."}, nil)
	w.fake.SetAdReview(ad[5], networkafake.ReviewInProcess)
	w.cycle()

	want := map[int64]string{1: "pending", 2: "approved", 3: "with_issues: Low image quality; Text too long",
		4: "disapproved: " + reason, 5: "pending"}
	posts := w.reviews()
	for id, review := range want {
		p := posts[id]
		if got := p.reviewText(); got != review {
			t.Errorf("post %d's review %q, want %q", id, got, review)
		}
		if p.Active != (id != 4) || (p.Stopped != 0) != (id == 4) {
			t.Errorf("post %d: active %v, stopped %d", id, p.Active, p.Stopped)
		}
	}
	stopped := jsonString(map[string]any{"post_id": 4, "ad_id": ad[4], "reason": "the ad is disapproved on network_a: " + reason})
	if got := w.stEntries(7, "post_stopped"); !slices.Equal(got, []string{stopped}) {
		t.Errorf("post_stopped entries %v, want [%s]", got, stopped)
	}
	wantMail := stMailBody("- Campaign 7 (Ana's Gym): network_a disapproved a boosted post's ad, which no longer runs: " +
		"see network_a's reason, then edit the post or boost another\n  network_a: post 4: the ad is disapproved on network_a: " + reason)
	if mails := w.stMails(); len(mails) != 1 || mails[0].Body != wantMail {
		t.Errorf("mails %q, want one:\n%s", mails, wantMail)
	}
	w.stExpect(7, "running", "")

	// A steady cycle: the same reviews, nothing written to the posts.
	updates := w.countPostUpdates()
	before := w.postsUpdatedAt()
	w.cycle()
	if n := updates(); n != 0 {
		t.Errorf("a cycle with unchanged reviews ran %d statements on boosted posts, want none", n)
	}
	if got := w.postsUpdatedAt(); got != before {
		t.Errorf("posts updated by a cycle with unchanged reviews:\n%s\nwas\n%s", got, before)
	}
	// A changed review is written: post 1 approved, post 3's issues gone.
	w.fake.SetAdReview(ad[1], "")
	w.fake.SetAdReview(ad[3], "")
	w.cycle()
	if n := updates(); n != 1 {
		t.Errorf("a cycle with two changed reviews ran %d statements on boosted posts, want 1", n)
	}
	posts = w.reviews()
	if got := posts[1].reviewText() + " " + posts[3].reviewText(); got != "approved approved" {
		t.Errorf("posts 1 and 3 after their reviews changed: %s", got)
	}
	if got := posts[4].reviewText(); got != "disapproved: "+reason {
		t.Errorf("the stopped post's review %q", got)
	}
	if n := len(w.stMails()); n != 1 {
		t.Errorf("%d mails, want still 1", n)
	}
}

// A post whose ad was just made answers a review at once: network_a reviews
// every new ad, so it is pending until the ads list says otherwise (null is
// for a post with no ad). The next cycle writes what the list says.
func TestReviewPendingOnceAdMade(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	if got := w.reviews()[1].reviewText(); got != "pending" {
		t.Errorf("a post whose ad was just made: review %s, want pending", got)
	}
	w.cycle()
	if got := w.reviews()[1].reviewText(); got != "approved" {
		t.Errorf("a post whose ad network_a lists ACTIVE: review %s, want approved", got)
	}
}

// Two posts of one campaign disapproved in one cycle: each is stopped with
// its own reason, and the notice mail carries both reasons (the user must
// act on each post).
func TestReviewTwoDisapprovedInOneCycle(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.post("1", "#gym 1", 2*time.Hour, 0)
	w.post("2", "#gym 2", time.Hour, 0)
	w.cycle()
	ad1, ad2 := w.object("ad", "adboost-7-1").ID, w.object("ad", "adboost-7-2").ID
	w.fake.SetAdReviewFeedback(ad1, networkafake.ReviewDisapproved, map[string]string{"a": "Reason one."}, nil)
	w.fake.SetAdReviewFeedback(ad2, networkafake.ReviewDisapproved, map[string]string{"a": "Reason two."}, nil)
	w.cycle()
	want := []string{
		jsonString(map[string]any{"post_id": 1, "ad_id": ad1, "reason": "the ad is disapproved on network_a: Reason one."}),
		jsonString(map[string]any{"post_id": 2, "ad_id": ad2, "reason": "the ad is disapproved on network_a: Reason two."}),
	}
	got := w.stEntries(7, "post_stopped")
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("post_stopped entries %v, want %v", got, want)
	}
	mails := w.stMails()
	if len(mails) != 1 {
		t.Fatalf("%d mails, want 1", len(mails))
	}
	for _, r := range []string{"post 1: the ad is disapproved on network_a: Reason one.", "post 2: the ad is disapproved on network_a: Reason two."} {
		if !strings.Contains(mails[0].Body, r) {
			t.Errorf("the mail does not carry %q:\n%s", r, mails[0].Body)
		}
	}
}

// adSetCreates counts the ad set creates network_a carried out (null
// entries are not), and the batch requests that asked for more than one.
func (w *world) adSetCreates() (carried, crowded int) {
	for _, c := range w.fake.Calls() {
		if c.Method == http.MethodPost && strings.HasSuffix(c.Path, "/adsets") {
			carried++
		}
	}
	for _, r := range w.fake.Requests() {
		if strings.Count(r.Body, "%2Fadsets") > 1 {
			crowded++
		}
	}
	return carried, crowded
}

// post_budget and post_days with five qualifying posts and room for five
// (daily 20.00, 4.00 a post): one cycle makes five ad sets and five ads,
// each post boosted once, although network_a answers null to every ad set
// create of the campaign but the first in a batch request (those are sent
// again).
func TestReviewFivePostAdSetsInOneCycle(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.saveRules("7", map[string]any{"post_budget": "4.00", "post_days": 2})
	for i := 1; i <= 5; i++ {
		w.post(fmt.Sprint(i), fmt.Sprintf("#gym %d", i), time.Duration(6-i)*time.Hour, 0)
	}
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.sortedNames("adset"); got != "adboost-7-1,adboost-7-2,adboost-7-3,adboost-7-4,adboost-7-5" {
		t.Errorf("ad sets %s, want one per post", got)
	}
	if got := w.sortedNames("ad"); got != "adboost-7-1,adboost-7-2,adboost-7-3,adboost-7-4,adboost-7-5" {
		t.Errorf("ads %s, want one per post", got)
	}
	for i := 1; i <= 5; i++ {
		name := fmt.Sprintf("adboost-7-%d", i)
		s := w.object("adset", name)
		if got := w.object("ad", name).Fields["adset_id"]; got != s.ID {
			t.Errorf("%s's ad is in ad set %v, want %s", name, got, s.ID)
		}
		if got := jsonString(s.Fields["lifetime_budget"]); got != "400" {
			t.Errorf("%s's lifetime budget %s, want 400", name, got)
		}
	}
	if got := w.ids(w.list(7)); got != "5,4,3,2,1" {
		t.Errorf("boosted %s, want 5,4,3,2,1", got)
	}
	if n := len(w.boostedEntries(7)); n != 5 {
		t.Errorf("%d boosted entries, want 5", n)
	}
	carried, crowded := w.adSetCreates()
	if carried != 5 {
		t.Errorf("network_a carried out %d ad set creates, want 5", carried)
	}
	if crowded == 0 {
		t.Error("no batch request asked for two ad sets of the campaign: the null entries were not met")
	}
	for i := 1; i <= 5; i++ {
		if n := w.stCreates(fmt.Sprintf("456_%d", i)); n != 1 {
			t.Errorf("post %d's ad asked %d times, want once", i, n)
		}
	}
	// The next cycle makes nothing more.
	w.cycle()
	if got, _ := w.adSetCreates(); got != 5 || len(w.fake.Objects("ad")) != 5 {
		t.Errorf("after another cycle: %d ad set creates, %d ads", got, len(w.fake.Objects("ad")))
	}
}
