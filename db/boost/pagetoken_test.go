package boost_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// tokenMarks tells whether the database marks page 456's token as refused,
// and the user's token.
func (w *world) tokenMarks() (page, user bool) {
	w.t.Helper()
	err := w.pool.QueryRow(context.Background(), `
		SELECT s.access_token_refused_at IS NOT NULL, u.network_a_token_invalid_at IS NOT NULL
		FROM source AS s JOIN app_user AS u ON u.id = s.user_id
		WHERE s.user_id = 100 AND s.id = 456`).Scan(&page, &user)
	if err != nil {
		w.t.Fatal(err)
	}
	return page, user
}

// network_a refuses the page's token (OAuth 190 on the page's posts): the
// page's token is marked, not the user's. Only the boosting of the page's
// posts stops (logged once); statistics and pauses, made with the user's
// token, go on. A sign-in that does not list the page any more leaves the
// mark; one that stores a new token for the page clears it.
func TestEnginePageTokenRefused(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	ad := w.object("ad", "adboost-7-1").ID

	w.fake.ExpireToken(pageToken)
	w.post("2", "#gym again", time.Minute, 0)
	w.fake.SetAdInsights(ad, networkafake.Insights{Impressions: 100, Clicks: 4, Spend: "5.00"})
	w.cycle()
	w.cycle()
	if page, user := w.tokenMarks(); !page || user {
		t.Fatalf("after the page's token was refused: page marked %v, user marked %v; want the page only", page, user)
	}
	if n := strings.Count(w.logs.String(), "OAuth 190"); n != 1 {
		t.Errorf("the refusal was logged %d times, want 1\n%s", n, w.logs)
	}
	if due, err := w.engine.Due(ctx); err != nil || fmt.Sprint(due) != "[7 8]" {
		t.Errorf("due %v %v, want [7 8]", due, err)
	}
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads with the page's token refused: %s", got)
	}
	var got map[string]any
	w.call(http.MethodPost, "/v1/boosted-posts/batch-insights", map[string]any{"ids": "1"}, &got)
	if got["spend"] != "5.00" {
		t.Errorf("statistics not read with the page's token refused: %v", got)
	}
	var ok bool
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": false}, &ok)
	w.cycle()
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Errorf("campaign not paused with the page's token refused: %s", c.Status)
	}
	w.call(http.MethodPost, "/v1/boosted-pages/save/7", map[string]any{"active": true}, &ok)
	w.cycle()

	// A sign-in where network_a no longer lists the page: its stale token
	// stays refused, and nothing is asked with it again.
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.Pages = []networkafake.Page{{ID: "457", Name: "Ana's Cafe", Token: "ana-page-457-token", Followers: 10}}
	})
	w.loginSN(userToken)
	w.fake.ClearRequests()
	w.cycle()
	if page, _ := w.tokenMarks(); !page {
		t.Error("a sign-in that does not list the page cleared its mark")
	}
	for _, r := range w.fake.Calls() {
		if r.Token == pageToken {
			t.Errorf("the refused page token was used again: %s %s", r.Method, r.Path)
		}
	}
	if n := strings.Count(w.logs.String(), "OAuth 190"); n != 1 {
		t.Errorf("the refusal was logged %d times, want 1", n)
	}

	// A sign-in that stores a new token for the page clears the mark.
	w.fake.UpdateUser(userToken, func(u *networkafake.User) {
		u.Pages = []networkafake.Page{{ID: "456", Name: "Ana's Gym", Token: "ana-page-456-new-token", Followers: 1000}}
	})
	w.loginSN(userToken)
	if page, _ := w.tokenMarks(); page {
		t.Error("a new page token did not clear the mark")
	}
	w.cycle()
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ads after a new page token: %s", got)
	}
}
