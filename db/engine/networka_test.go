package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
	"adboost/db/engine"
)

// Posts follows paging.next (without the token in the URL), newest first,
// and stops at the first post older than since or at max posts.
func TestClientPostsPaging(t *testing.T) {
	t.Parallel()
	fake, url := networkafake.Start(t)
	fake.AddUser(networkafake.User{Token: "u", ID: "1", Pages: []networkafake.Page{{ID: "456", Token: "p", Followers: 3}}})
	now := time.Now()
	for i := range 520 {
		fake.AddPost("456", networkafake.Post{ID: fmt.Sprintf("456_%d", i+1), Message: "m", Created: now.Add(-time.Duration(i) * time.Minute)})
	}
	c, err := engine.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	posts, err := c.Posts(ctx, "p", "456", now.Add(-time.Hour), engine.MaxPosts)
	if err != nil {
		t.Fatal(err)
	}
	// Posts 1..61 are at most an hour old (post 61 exactly 60 minutes, truncated to the second).
	if len(posts) < 60 || len(posts) > 61 || posts[0].ID != "456_1" || posts[59].ID != "456_60" {
		t.Fatalf("posts of the last hour: %d, first %s", len(posts), posts[0].ID)
	}
	posts, err = c.Posts(ctx, "p", "456", now.Add(-100*time.Hour), engine.MaxPosts)
	if err != nil || len(posts) != 500 || posts[499].ID != "456_500" {
		t.Fatalf("at most 500 posts: %d, %v", len(posts), err)
	}
	for _, r := range fake.Requests() {
		if strings.Contains(r.Path, "access_token") || r.Authorization != "Bearer p" {
			t.Fatalf("request %s with %q", r.Path, r.Authorization)
		}
	}
	if n, err := c.Followers(ctx, "p", "456"); err != nil || n != 3 {
		t.Fatalf("followers %d %v", n, err)
	}
	// A refused token is an APIError with code 190; a 5xx is ErrUnavailable.
	fake.ExpireToken("p")
	_, err = c.Posts(ctx, "p", "456", now, 10)
	var api *engine.APIError
	if !errors.As(err, &api) || api.Code != 190 || strings.Contains(err.Error(), "Bearer") {
		t.Fatalf("expired token: %v", err)
	}
	fake.SetFault(networkafake.FaultError500)
	if _, err := c.Followers(ctx, "u", "456"); !errors.Is(err, engine.ErrUnavailable) {
		t.Fatalf("500: %v", err)
	}
	fake.SetFault(networkafake.FaultGarbage)
	if _, err := c.AdAccounts(ctx, "u"); !errors.Is(err, engine.ErrUnavailable) {
		t.Fatalf("garbage: %v", err)
	}
}
