package networka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// TestErrorObject: network_a's whole error object is kept: the user's
// title and text, error_data, fbtrace_id; UserText is "title: text" (either
// alone when only one is given, else the message); Details keeps the code,
// the subcode and the trace id; the error's text carries the user's words.
func TestErrorObject(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		e        networkafake.Error
		userText string
	}{
		"title and text": {networkafake.Error{Code: 100, Subcode: 1885272, Message: "Invalid parameter", UserTitle: "Budget is too low",
			UserMsg: "The daily budget of this ad set must be at least €1.00.", Data: `{"blame_field_specs":[["daily_budget"]]}`},
			"Budget is too low: The daily budget of this ad set must be at least €1.00."},
		"title only":   {networkafake.Error{Code: 100, Message: "Invalid parameter", UserTitle: "Invalid Location"}, "Invalid Location"},
		"text only":    {networkafake.Error{Code: 100, Message: "Invalid parameter", UserMsg: "Choose another city."}, "Choose another city."},
		"message only": {networkafake.Error{Code: 200, Message: "(#200) Permissions error"}, "(#200) Permissions error"},
		"control characters": {networkafake.Error{Code: 100, Message: "Invalid\x00 parameter", UserTitle: "Budget\n is too low",
			UserMsg: "At least\x07 $1.00.\r\n", Data: "{\"a\":\n1}"}, "Budget is too low: At least $1.00."},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("POST", "act_1/adsets", 1, c.e)
			client := newClient(t, base, Options{})
			_, err := client.Create(context.Background(), tokenA, "adset", map[string]any{"name": "x"}, Scope{User: "1", AdAccount: "act_1"})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Create = %v, want an *Error", err)
			}
			want := Error{Status: 400, Type: "OAuthException", Code: c.e.Code, Subcode: c.e.Subcode, Message: clean(c.e.Message),
				UserTitle: clean(c.e.UserTitle), UserMsg: clean(c.e.UserMsg), Data: clean(c.e.Data), TraceID: "AbCdEf0fake", Call: "POST /act_1/adsets"}
			if *e != want {
				t.Fatalf("error %+v\nwant  %+v", *e, want)
			}
			if e.UserText() != c.userText || UserText(err) != c.userText || UserText(fmt.Errorf("creating: %w", err)) != c.userText {
				t.Fatalf("user text %q (UserText(err) %q), want %q", e.UserText(), UserText(err), c.userText)
			}
			wantDetails := map[string]any{"code": c.e.Code, "fbtrace_id": "AbCdEf0fake"}
			if c.e.Subcode != 0 {
				wantDetails["subcode"] = c.e.Subcode
			}
			if d := Details(err); !reflect.DeepEqual(d, wantDetails) {
				t.Fatalf("Details = %v, want %v", d, wantDetails)
			}
			sub := ""
			if c.e.Subcode != 0 {
				sub = fmt.Sprintf(" (subcode %d)", c.e.Subcode)
			}
			if text := fmt.Sprintf("POST /act_1/adsets: network_a answered 400: OAuthException code %d%s: %s", c.e.Code, sub, c.userText); err.Error() != text {
				t.Fatalf("text %q, want %q", err.Error(), text)
			}
		})
	}
}

// TestErrorData: error_data is kept as text whether network_a sends it as
// a JSON text or as the object itself; absent or null, it is "". A batch
// entry's error keeps it too.
func TestErrorData(t *testing.T) {
	t.Parallel()
	for data, want := range map[string]string{
		`"{\"blame_field_specs\":[[\"targeting\",\"age_max\"]]}"`: `{"blame_field_specs":[["targeting","age_max"]]}`,
		`{"blame_field_specs":[["targeting","age_max"]]}`:         `{"blame_field_specs":[["targeting","age_max"]]}`,
		`"plain words"`: "plain words",
		`null`:          "",
		`""`:            "",
		``:              "",
	} {
		t.Run(data, func(t *testing.T) {
			t.Parallel()
			field := ""
			if data != "" {
				field = `,"error_data":` + data
			}
			object := `{"error":{"message":"Invalid parameter","type":"OAuthException","code":100,"error_subcode":1870188,` +
				`"error_user_title":"Age","error_user_msg":"Raise age_max.","fbtrace_id":"Ax9"` + field + `}}`
			api := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/" {
					entry := fmt.Sprintf(`{"code":400,"body":%q}`, object)
					io.WriteString(w, "["+entry+","+entry+"]")
					return
				}
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, object)
			})
			wantErr := Error{Status: 400, Type: "OAuthException", Code: 100, Subcode: 1870188, UserTitle: "Age", UserMsg: "Raise age_max.",
				Message: "Invalid parameter", Data: want, TraceID: "Ax9", Call: "POST /act_1/adsets"}
			plain := newClient(t, api.URL, Options{})
			_, err := plain.Create(context.Background(), tokenA, "adset", map[string]any{"name": "x"}, Scope{AdAccount: "act_1"})
			var e *Error
			if !errors.As(err, &e) || *e != wantErr {
				t.Fatalf("error %+v, want %+v", err, wantErr)
			}
			batched := newClient(t, api.URL, Options{Batch: true, Linger: 200 * time.Millisecond})
			_, errs := batched.CreateMany(context.Background(), tokenA, "adset", []map[string]any{{"name": "x"}, {"name": "y"}}, Scope{AdAccount: "act_1"})
			for i, err := range errs {
				if !errors.As(err, &e) || *e != wantErr {
					t.Fatalf("batch entry %d: error %+v, want %+v", i, err, wantErr)
				}
			}
		})
	}
}

// TestBudgetRefusal: network_a's refusal of an ad set below the ad
// account's minimum, as the fake writes it, alone and in a batch: its
// user's words, blame and trace id, a refusal of the campaign (not of a
// post).
func TestBudgetRefusal(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("batch=%v", batch), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			c := newClient(t, base, Options{Batch: batch, Linger: 100 * time.Millisecond})
			ctx := context.Background()
			s := Scope{User: "1", AdAccount: "act_1"}
			campaigns, _ := c.CreateMany(ctx, tokenA, "campaign", []map[string]any{campaignBody("a"), campaignBody("b")}, s)
			low, low2 := adSetBody("adboost-a", campaigns[0]), adSetBody("adboost-b", campaigns[1])
			low["daily_budget"], low2["daily_budget"] = 99, 50
			_, errs := c.CreateMany(ctx, tokenA, "adset", []map[string]any{low, low2}, s)
			for i, err := range errs {
				var e *Error
				want := Error{Status: 400, Type: "OAuthException", Code: 100, Subcode: 1885272, Message: "Invalid parameter",
					UserTitle: "Budget is too low", UserMsg: "The daily budget of this ad set must be at least $1.00.",
					Data: `{"blame_field_specs":[["daily_budget"]]}`, TraceID: "AbCdEf0fake", Call: "POST /act_1/adsets"}
				if !errors.As(err, &e) || *e != want {
					t.Fatalf("ad set %d: %+v\nwant %+v", i, err, want)
				}
				if UserText(err) != "Budget is too low: The daily budget of this ad set must be at least $1.00." ||
					KindOf(err) != KindRefused || PostRefused(err) || TokenReason(err) != "" {
					t.Fatalf("ad set %d: user text %q, kind %v, post refused %v", i, UserText(err), KindOf(err), PostRefused(err))
				}
			}
			if n := len(fake.Objects("adset")); n != 0 {
				t.Fatalf("%d ad sets made", n)
			}
		})
	}
}

// TestPostRefused: an ad create refused with one of the post's own
// subcodes is the post's; any other refusal, a generic code 100 above
// all, is not, nor is a passing failure that carries such a subcode.
func TestPostRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		e    networkafake.Error
		post bool
	}{
		{networkafake.Error{Code: 100, Subcode: 1487472, Message: "Invalid parameter", UserTitle: "Post Can't Be Boosted"}, true},
		{networkafake.Error{Code: 100, Subcode: 1885557, Message: "Invalid parameter", UserTitle: "Post Unavailable"}, true},
		{networkafake.Error{Code: 100, Subcode: 2446289, Message: "Invalid parameter"}, true},
		{networkafake.Error{Code: 100, Subcode: 2490155, Message: "Invalid parameter"}, true},
		{networkafake.Error{Code: 100, Subcode: 1885029, Message: "Invalid parameter"}, true},
		{networkafake.Error{Code: 100, Subcode: 1885183, Message: "Invalid parameter"}, true},
		{networkafake.Error{Code: 100, Message: "Invalid parameter"}, false},
		{networkafake.Error{Code: 100, Subcode: 1885154, Message: "Invalid parameter", UserTitle: "Page Required"}, false},
		{networkafake.Error{Code: 100, Subcode: 1772103, Message: "Invalid parameter"}, false},
		{networkafake.Error{Code: 100, Subcode: 33, Message: "Object does not exist"}, false},
		{networkafake.Error{Code: 200, Subcode: 1487472, Message: "Permissions error"}, true},
		{networkafake.Error{Code: 190, Subcode: 1885557, Message: "Invalid OAuth access token"}, false},
		{networkafake.Error{Code: 100, Subcode: 1487472, Transient: true, Message: "Please retry"}, false},
		{networkafake.Error{Status: 500, Code: 100, Subcode: 1885557, Message: "An unexpected error has occurred"}, false},
		{networkafake.Error{Code: 17, Subcode: 2490155, Message: "User request limit reached"}, false},
	} {
		t.Run(fmt.Sprintf("%d_%d_%d_%v", c.e.Status, c.e.Code, c.e.Subcode, c.e.Transient), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("POST", "act_1/ads", 1, c.e)
			client := newClient(t, base, Options{})
			_, err := client.Create(context.Background(), tokenA, "ad", map[string]any{"name": "x"}, Scope{User: "1", AdAccount: "act_1"})
			if err == nil || PostRefused(err) != c.post || PostRefused(fmt.Errorf("ad: %w", err)) != c.post {
				t.Fatalf("PostRefused(%v) = %v, want %v", err, PostRefused(err), c.post)
			}
		})
	}
	for _, err := range []error{nil, ErrUnavailable, ErrToken, errors.New("other")} {
		if PostRefused(err) {
			t.Errorf("PostRefused(%v) = true", err)
		}
	}
}

// TestPostRefusedByNetworkA: the fake's own refusals of an ad create: a
// post that does not exist (1885557) and a post of another page than the
// ad set's (1885029) are the post's; an engagement ad set without its page
// (1885154) is the campaign's.
func TestPostRefusedByNetworkA(t *testing.T) {
	t.Parallel()
	fake, base := startWorld(t)
	fake.AddPost("11", networkafake.Post{ID: "11_1"})
	fake.AddPost("12", networkafake.Post{ID: "12_1"})
	c := newClient(t, base, Options{})
	ctx := context.Background()
	s := Scope{User: "1", AdAccount: "act_1"}
	campaign, err := c.Create(ctx, tokenA, "campaign", campaignBody("adboost-7"), s)
	if err != nil {
		t.Fatal(err)
	}
	adset, err := c.Create(ctx, tokenA, "adset", adSetBody("adboost-7", campaign), s)
	if err != nil {
		t.Fatal(err)
	}
	noPage := adSetBody("adboost-8", campaign)
	delete(noPage, "promoted_object")
	adsetNoPage, err := c.Create(ctx, tokenA, "adset", noPage, s)
	if err != nil {
		t.Fatal(err)
	}
	ad := func(adset, post string) map[string]any {
		return map[string]any{"name": "adboost-7-" + post, "adset_id": adset, "status": "ACTIVE",
			"creative": map[string]any{"object_story_id": post, "instagram_user_id": "711"}}
	}
	for _, c2 := range []struct {
		body    map[string]any
		subcode int
		post    bool
	}{
		{ad(adset, "11_404"), 1885557, true},
		{ad(adset, "12_1"), 1885029, true},
		{ad(adsetNoPage, "11_1"), 1885154, false},
	} {
		_, err := c.Create(ctx, tokenA, "ad", c2.body, s)
		var e *Error
		if !errors.As(err, &e) || e.Code != 100 || e.Subcode != c2.subcode || PostRefused(err) != c2.post || e.UserTitle == "" || e.UserMsg == "" {
			t.Errorf("ad of %v: %v; want subcode %d, post refused %v", c2.body["creative"], err, c2.subcode, c2.post)
		}
	}
}

// TestTokenReason: a refused token's reason in words: one sentence for
// each of 190's subcodes 460, 463 and 467 and for subcode 492 (no role on
// the page, which is a refused token whatever its code); network_a's own
// words for another; "" for what is not a refused token.
func TestTokenReason(t *testing.T) {
	t.Parallel()
	const (
		password = "network_a ended the connection because the password of the network_a account changed; sign in again with network_a"
		expired  = "the connection to network_a expired; sign in again with network_a"
		invalid  = "network_a no longer accepts the connection (the user logged out of network_a or removed adboost's access); sign in again with network_a"
		noRole   = "the network_a user no longer has a role on the page; ask the page's admin for one, then sign in again with network_a"
	)
	for _, c := range []struct {
		e    networkafake.Error
		want string
	}{
		{networkafake.Error{Code: 190, Subcode: 460, Message: "The session has been invalidated because the user changed their password"}, password},
		{networkafake.Error{Code: 190, Subcode: 463, Message: "Session has expired"}, expired},
		{networkafake.Error{Code: 190, Subcode: 467, Message: "Invalid access token"}, invalid},
		{networkafake.Error{Code: 190, Subcode: 492, Message: "Invalid session"}, noRole},
		{networkafake.Error{Code: 200, Subcode: 492, Message: "The user does not have a role on the page"}, noRole},
		{networkafake.Error{Status: 401, Code: 190, Message: "Invalid OAuth access token"},
			"network_a refused the connection (Invalid OAuth access token); sign in again with network_a"},
		{networkafake.Error{Code: 190, Subcode: 458, Message: "Invalid", UserTitle: "App Not Installed", UserMsg: "The user removed the app."},
			"network_a refused the connection (App Not Installed: The user removed the app.); sign in again with network_a"},
		{networkafake.Error{Code: 100, Subcode: 463, Message: "Invalid parameter"}, ""},
		{networkafake.Error{Status: 500, Code: 190, Subcode: 463, Message: "down"}, ""},
		{networkafake.Error{Code: 17, Message: "User request limit reached"}, ""},
	} {
		t.Run(fmt.Sprintf("%d_%d_%d", c.e.Status, c.e.Code, c.e.Subcode), func(t *testing.T) {
			t.Parallel()
			fake, base := startWorld(t)
			fake.FailCalls("GET", "me", 1, c.e)
			client := newClient(t, base, Options{})
			_, err := client.Me(context.Background(), tokenA)
			if got := TokenReason(err); got != c.want || TokenReason(fmt.Errorf("x: %w", err)) != c.want {
				t.Fatalf("TokenReason(%v) = %q, want %q", err, got, c.want)
			}
			if TokenRefused(err) != (c.want != "") {
				t.Fatalf("TokenRefused(%v) = %v", err, TokenRefused(err))
			}
		})
	}
	for _, err := range []error{nil, ErrToken, ErrUnavailable, errors.New("other")} {
		if TokenReason(err) != "" {
			t.Errorf("TokenReason(%v) = %q", err, TokenReason(err))
		}
	}
}

// TestUserTextAndDetailsOfOtherErrors: an error that holds no answer of
// network_a is shown as its own text and has no details.
func TestUserTextAndDetailsOfOtherErrors(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("%w: GET /me: connection refused", ErrUnavailable)
	if UserText(err) != "network_a is unavailable: GET /me: connection refused" || Details(err) != nil {
		t.Fatalf("UserText %q, Details %v", UserText(err), Details(err))
	}
	if d := Details(&Error{Code: 2}); !reflect.DeepEqual(d, map[string]any{"code": 2}) {
		t.Fatalf("Details of an error without subcode or trace id = %v", d)
	}
}
