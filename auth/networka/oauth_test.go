package networka

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The app of these tests; its secret has characters a query escapes.
var testApp = App{ID: "1234567890", Secret: "s3cr3t+app/secret=="}

// oauthServer is a network_a that answers the exchange and /me/permissions
// with what a test sets, recording the queries it receives.
type oauthServer struct {
	mu      sync.Mutex
	queries []url.Values
	auth    []string
	status  int
	body    string
}

func startOAuth(t *testing.T) (*oauthServer, *Client) {
	t.Helper()
	s := &oauthServer{status: http.StatusOK}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.queries = append(s.queries, r.URL.Query())
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		status, body := s.status, s.body
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, strings.ReplaceAll(body, "{{base}}", "http://"+r.Host+"/v25.0"))
	}))
	t.Cleanup(srv.Close)
	return s, newClient(t, srv.URL+"/v25.0", Options{Timeout: 2 * time.Second})
}

func (s *oauthServer) answer(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.body = status, body
}

// The exchange sends the grant, the app's id and secret and the token, and
// answers the new token and its life.
func TestExchange(t *testing.T) {
	s, c := startOAuth(t)
	s.answer(200, `{"access_token":"EAAlonglived1","token_type":"bearer","expires_in":5183944}`)
	got, err := c.Exchange(context.Background(), testApp, "EAAshort1")
	if err != nil {
		t.Fatal(err)
	}
	if want := (LongLived{Token: "EAAlonglived1", ExpiresIn: 5183944 * time.Second}); got != want {
		t.Fatalf("Exchange = %+v, want %+v", got, want)
	}
	want := url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {testApp.ID},
		"client_secret": {testApp.Secret}, "fb_exchange_token": {"EAAshort1"}}
	if !reflect.DeepEqual(s.queries, []url.Values{want}) {
		t.Fatalf("queries %v, want %v", s.queries, []url.Values{want})
	}

	for _, tc := range []struct{ body, wantErr string }{
		{`{"access_token":"EAAlong2","token_type":"bearer"}`, ""},
		{`{"access_token":"EAAlong2","expires_in":"3600"}`, ""},
		{`{"access_token":"","expires_in":3600}`, "no usable access_token"},
		{`{"access_token":"EAA bad","expires_in":3600}`, "no usable access_token"},
		{`{"access_token":"EAAlong2","expires_in":-5}`, "not a number of seconds"},
		{`{"access_token":"EAAlong2","expires_in":"soon"}`, "not a number of seconds"},
		{`not json`, "malformed JSON"},
	} {
		s.answer(200, tc.body)
		got, err := c.Exchange(context.Background(), testApp, "EAAshort1")
		switch {
		case tc.wantErr == "" && err != nil:
			t.Fatalf("%s: %v", tc.body, err)
		case tc.wantErr != "" && (err == nil || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tc.wantErr)):
			t.Fatalf("%s: err %v, want ErrUnavailable naming %q", tc.body, err, tc.wantErr)
		case tc.wantErr == "" && got.Token != "EAAlong2":
			t.Fatalf("%s: token %q", tc.body, got.Token)
		}
	}
	s.answer(200, `{"access_token":"EAAlong2","expires_in":"3600"}`)
	if got, _ := c.Exchange(context.Background(), testApp, "EAAshort1"); got.ExpiresIn != time.Hour {
		t.Fatalf("expires_in as a string: %v", got.ExpiresIn)
	}
}

// A refused exchange: the user's token (190) is a token refusal; the app's
// id or secret (101, 1) is ErrAppRefused or unavailable. No error names the
// secret or the token, even when network_a quotes them.
func TestExchangeRefusals(t *testing.T) {
	s, c := startOAuth(t)
	quoted := fmt.Sprintf("client_secret=%s fb_exchange_token=EAAshort1 escaped %s", testApp.Secret, url.QueryEscape(testApp.Secret))
	for _, tc := range []struct {
		status int
		code   int
		check  func(error) bool
	}{
		{400, 190, func(err error) bool { return TokenRefused(err) && !errors.Is(err, ErrAppRefused) }},
		{400, 101, func(err error) bool {
			return errors.Is(err, ErrAppRefused) && errors.Is(err, ErrUnavailable) && !TokenRefused(err)
		}},
		{400, 1, func(err error) bool {
			return errors.Is(err, ErrAppRefused) && errors.Is(err, ErrUnavailable) && !TokenRefused(err)
		}},
		{400, 4, func(err error) bool { return errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrAppRefused) }},
		{500, 2, func(err error) bool { return errors.Is(err, ErrUnavailable) }},
	} {
		s.answer(tc.status, fmt.Sprintf(`{"error":{"message":%q,"type":"OAuthException","code":%d,"error_user_msg":%q}}`, quoted, tc.code, quoted))
		_, err := c.Exchange(context.Background(), testApp, "EAAshort1")
		if err == nil || !tc.check(err) {
			t.Fatalf("code %d: err %v", tc.code, err)
		}
		var apiErr *Error
		texts := []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", testApp), fmt.Sprint(testApp)}
		if errors.As(err, &apiErr) {
			texts = append(texts, apiErr.Message, apiErr.UserMsg, apiErr.UserText())
		}
		for _, text := range texts {
			for _, secret := range []string{testApp.Secret, url.QueryEscape(testApp.Secret), "EAAshort1"} {
				if strings.Contains(text, secret) {
					t.Fatalf("code %d: %q shows %q", tc.code, text, secret)
				}
			}
		}
	}

	// Without an app nothing is sent; a token that cannot be one is not sent.
	before := len(s.queries)
	if _, err := c.Exchange(context.Background(), App{ID: "1"}, "EAAshort1"); err == nil {
		t.Fatal("an exchange without a secret")
	}
	if _, err := c.Exchange(context.Background(), testApp, "bad token"); !errors.Is(err, ErrToken) {
		t.Fatalf("a bad token: %v", err)
	}
	if len(s.queries) != before {
		t.Fatal("a request was sent")
	}
}

// A network_a that is down, or slow past the deadline, is unavailable, and
// the error names no secret (the URL is not in it).
func TestExchangeUnreachable(t *testing.T) {
	c, err := New("http://127.0.0.1:1/v25.0", Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Exchange(context.Background(), testApp, "EAAshort1")
	if !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "EAAshort1") {
		t.Fatalf("err %v", err)
	}
}

// Permissions answers the granted ones, sorted, through every page;
// Missing what a list of needed ones lacks.
func TestPermissions(t *testing.T) {
	s, c := startOAuth(t)
	s.answer(200, `{"data":[
		{"permission":"pages_show_list","status":"granted"},
		{"permission":"ads_management","status":"declined"},
		{"permission":"email","status":"granted"},
		{"permission":"pages_read_engagement","status":"expired"},
		{"permission":"pages_manage_ads","status":"granted"}]}`)
	got, err := c.Permissions(context.Background(), "EAAuser1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"email", "pages_manage_ads", "pages_show_list"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("granted %v, want %v", got, want)
	}
	if s.auth[0] != "Bearer EAAuser1" || len(s.queries[0]) != 0 {
		t.Fatalf("sent %q with query %v", s.auth[0], s.queries[0])
	}
	missing := Missing(got, NeededPermissions, NeededPermissionsNetworkB)
	if want := []string{"ads_management", "instagram_basic", "instagram_manage_insights", "pages_read_engagement"}; !reflect.DeepEqual(missing, want) {
		t.Fatalf("missing %v, want %v", missing, want)
	}
	if m := Missing(NeededPermissions, NeededPermissions); m == nil || len(m) != 0 {
		t.Fatalf("nothing missing: %#v", m)
	}

	s.answer(200, `{"data":[{"status":"granted"}]}`)
	if _, err := c.Permissions(context.Background(), "EAAuser1"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a permission without a name: %v", err)
	}
	s.answer(400, `{"error":{"message":"Session has expired","type":"OAuthException","code":190,"error_subcode":463}}`)
	if _, err := c.Permissions(context.Background(), "EAAuser1"); !TokenRefused(err) {
		t.Fatalf("an expired token: %v", err)
	}
}
