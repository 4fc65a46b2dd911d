package boost_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/auth/networkafake"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	"adboost/db/jobs"
	"adboost/db/mailer/smtptest"
	httpapi "adboost/http"
)

const (
	userToken = "ana-user-token"
	pageToken = "ana-page-456-token"
)

// world is one test's database, API server, fake network_a and engine:
// user 100 (Ana) with page 456 (1,000 followers) and two ad accounts (the
// first not active), and two campaigns on the page:
//   - 7: hashtag #gym, preset 1 (no advanced_settings), daily 20.00, bid
//     COST_CAP 1.50, goal POST_ENGAGEMENT, an end date in 30 days;
//   - 8: no hashtag, preset 2 (advanced_settings, keywords fitness and #run,
//     reach 20 %), lifetime 100.00, no bid, goal LINK_CLICKS, the same end
//     date (network_a needs one for a lifetime budget).
type world struct {
	t       *testing.T
	pool    *pgxpool.Pool
	fake    *networkafake.Fake
	fakeURL string
	cipher  *auth.TokenCipher
	engine  *boost.Engine
	logs    *syncBuffer
	log     *slog.Logger
	api     *httptest.Server
	bearer  string
	endDate string
	clock   atomic.Pointer[time.Time] // the engines' time when set (setNow)
	jobs    *jobs.Client              // inserts the jobs of the engines' cycles
	smtp    *smtptest.Server          // receives the mails of the world's runners
}

// setNow sets the time the world's engines see from now on.
func (w *world) setNow(t time.Time) { w.clock.Store(&t) }

// now is the engines' clock: the time setNow set, else the real one.
func (w *world) now() time.Time {
	if t := w.clock.Load(); t != nil {
		return *t
	}
	return time.Now()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var testKey = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))

func newWorld(t *testing.T) *world {
	t.Helper()
	t.Parallel()
	w := &world{t: t, logs: &syncBuffer{}}
	w.log = slog.New(slog.NewTextHandler(w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w.pool = dbtest.New(t)
	w.fake, w.fakeURL = networkafake.Start(t)
	w.fake.AddUser(networkafake.User{
		Token: userToken, ID: "5001", FirstName: "Ana", LastName: "Novak", Email: "ana@example.com",
		Pages:      []networkafake.Page{{ID: "456", Name: "Ana's Gym", Token: pageToken, Followers: 1000}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_2", Status: 2, Currency: "USD"}, {ID: "act_1", Status: 1, Currency: "USD"}},
	})
	w.endDate = time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly)
	fixture := strings.ReplaceAll(`{
  "agencies": [{"id": 10, "username": "northwind"}],
  "users": [{"id": 100, "email": "ana@example.com", "snid": 5001}, {"id": 101, "email": "bob@example.com"}],
  "presets": [
    {"id": 1, "title": "Plain", "campaign_objective": "OUTCOME_ENGAGEMENT", "price": "1.00", "original_price": "1.00",
     "agency_id": 10, "allowed_options": ["location"], "boosting_condition": {"keywords": ["never"], "reach": 90}},
    {"id": 2, "title": "Advanced", "campaign_objective": "OUTCOME_TRAFFIC", "price": "1.00", "original_price": "1.00",
     "agency_id": 10, "allowed_options": ["advanced_settings"], "boosting_condition": {"keywords": ["fitness", "#run"], "reach": 20}}
  ],
  "sources": [{"id": 456, "user_id": 100, "platform": "network_a", "name": "Ana's Gym"}],
  "billing": [{"user_id": 100, "full_name": "Ana Novak", "company_name": "Ana Novak s.r.o."}],
  "boosted_pages": [
    {"id": 7, "user_id": 100, "page_id": 456, "preset_id": 1, "active": true,
     "campaign_budget_type": "daily", "campaign_budget_value": "20.00",
     "campaign_bid_strategy_enabled": true, "campaign_bid_strategy": "COST_CAP", "campaign_bid_amount": "1.50",
     "goal": "POST_ENGAGEMENT", "audience_targeting": {"geo_locations": {"countries": ["CZ"]}, "age_min": 18},
     "hashtag": "#gym", "end_date": "END"},
    {"id": 8, "user_id": 100, "page_id": 456, "preset_id": 2, "active": true,
     "campaign_budget_type": "lifetime", "campaign_budget_value": "100.00",
     "goal": "LINK_CLICKS", "audience_targeting": {}, "hashtag": "", "end_date": "END"}
  ]
}`, "END", w.endDate)
	if err := dataset.Load(context.Background(), w.pool, strings.NewReader(fixture)); err != nil {
		t.Fatal(err)
	}
	var err error
	if w.cipher, err = auth.NewTokenCipher(testKey); err != nil {
		t.Fatal(err)
	}
	if w.jobs, err = jobs.InsertOnly(w.pool); err != nil {
		t.Fatal(err)
	}
	w.smtp = smtptest.Start(t, "", "", "")
	w.engine = w.newEngine()

	tokens, err := auth.NewTokens([]byte(strings.Repeat("s", 32)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{ServiceFixedFee: "0.00", PublicBaseURL: "https://api.adboost.test",
		NetworkAAPIURL: w.fakeURL, TokenCipher: w.cipher}, w.pool, tokens, w.log)
	w.api = httptest.NewServer(api.Handler())
	t.Cleanup(w.api.Close)
	if w.bearer, err = tokens.Issue(100, 0); err != nil {
		t.Fatal(err)
	}
	// Ana signs in with network_a: login-sn stores her tokens, sealed.
	w.loginSN(userToken)
	return w
}

func (w *world) newEngine() *boost.Engine {
	w.t.Helper()
	e, err := boost.New(w.pool, boost.Config{NetworkAURL: w.fakeURL, Cipher: w.cipher, PostMaxAge: 168 * time.Hour, Now: w.now, Jobs: w.jobs}, w.log)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(e.Close)
	return e
}

// storeTokens stores Ana's sealed tokens as sign-in does.
func (w *world) storeTokens(user, page string) {
	w.t.Helper()
	ctx := context.Background()
	su, err := w.cipher.Seal(user)
	if err != nil {
		w.t.Fatal(err)
	}
	sp, err := w.cipher.Seal(page)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.pool.Exec(ctx, `UPDATE app_user SET network_a_token = $1, network_a_token_invalid_at = NULL WHERE id = 100`, su); err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.pool.Exec(ctx, `UPDATE source SET access_token = $1 WHERE user_id = 100 AND id = 456`, sp); err != nil {
		w.t.Fatal(err)
	}
}

// loginSN signs Ana in with network_a (login-sn), which stores her tokens.
func (w *world) loginSN(token string) {
	w.t.Helper()
	var user map[string]any
	w.call(http.MethodPost, "/v1/user/login-sn", map[string]any{"access-token": token}, &user)
	if user["email"] != "ana@example.com" {
		w.t.Fatalf("login-sn answered %v", user)
	}
}

// post publishes a post on page 456, age ago, with its organic reach.
func (w *world) post(id, message string, age time.Duration, reach int) {
	w.fake.AddPost("456", networkafake.Post{
		ID: "456_" + id, Message: message, Created: time.Now().Add(-age),
		Permalink: "https://net-a.example/456/posts/" + id, Picture: "https://img.example/" + id + ".jpg",
		OrganicReach: reach,
	})
}

// interrupted runs campaign 7's work and ends it right after network_a
// created its first object of kind, before the engine heard back: the
// answer is lost.
func (w *world) interrupted(kind string) {
	w.t.Helper()
	w.interruptedIn(7, kind)
}

// interruptedIn runs a campaign's work and ends it right after network_a
// created its first object of kind, before the engine heard back.
func (w *world) interruptedIn(campaign int64, kind string) {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	w.fake.AfterCreate(func(o networkafake.Object) {
		if o.Kind == kind {
			once.Do(cancel)
		}
	})
	defer w.fake.AfterCreate(nil)
	if err := w.engine.Campaign(ctx, campaign); !errors.Is(err, context.Canceled) {
		w.t.Fatalf("interrupted work: %v", err)
	}
}

// landed ends the window in which the creates sent before may still be on
// their way to network_a (as when the call time-out has passed since).
func (w *world) landed() {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(),
		`UPDATE network_a_attempt SET sent_at = now() - interval '1 hour' WHERE sent_at IS NOT NULL`); err != nil {
		w.t.Fatal(err)
	}
}

// cycle runs one engine cycle and fails the test on an error.
func (w *world) cycle() {
	w.t.Helper()
	if err := w.engine.Cycle(context.Background()); err != nil {
		w.t.Fatalf("cycle: %v\nlogs:\n%s", err, w.logs)
	}
}

// call sends a request to the API as Ana and decodes the answer.
func (w *world) call(method, path string, body, out any) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.api.URL+path, r)
	req.Header.Set("Authorization", "Bearer "+w.bearer)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("%s %s: %d %s\nlogs:\n%s", method, path, resp.StatusCode, raw, w.logs)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			w.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

// boostedPost is the BoostedPost object of boosted-posts/list.
type boostedPost struct {
	ID      int64  `json:"id"`
	Active  bool   `json:"active"`
	Name    string `json:"name"`
	Link    string `json:"link"`
	Image   string `json:"image"`
	Created int64  `json:"created"`
	Stopped int64  `json:"stopped"`
}

// list answers boosted-posts/list of a campaign (0: all of Ana's posts).
func (w *world) list(campaign int64) []boostedPost {
	w.t.Helper()
	body := map[string]any{"page": "1"}
	if campaign > 0 {
		body["boosted_page_id"] = campaign
	}
	var out []boostedPost
	w.call(http.MethodPost, "/v1/boosted-posts/list", body, &out)
	return out
}

func (w *world) ids(posts []boostedPost) string {
	s := make([]string, len(posts))
	for i, p := range posts {
		s[i] = fmt.Sprint(p.ID)
	}
	return strings.Join(s, ",")
}

// objects answers the names of the fake's objects of a kind, in creation order.
func (w *world) names(kind string) string {
	var s []string
	for _, o := range w.fake.Objects(kind) {
		s = append(s, o.Name)
	}
	return strings.Join(s, ",")
}

// namesOf answers the names of the fake's objects of a kind that start with
// prefix, in creation order: the order within one campaign, whose work is
// one sequence, while campaigns run side by side.
func (w *world) namesOf(kind, prefix string) string {
	var s []string
	for _, o := range w.fake.Objects(kind) {
		if strings.HasPrefix(o.Name, prefix) {
			s = append(s, o.Name)
		}
	}
	return strings.Join(s, ",")
}

// sortedNames answers the names of the fake's objects of a kind in name
// order, for when several engines create them in no particular order.
func (w *world) sortedNames(kind string) string {
	s := strings.Split(w.names(kind), ",")
	slices.Sort(s)
	return strings.Join(s, ",")
}

// object answers the fake's object of a kind with that name.
func (w *world) object(kind, name string) networkafake.Object {
	w.t.Helper()
	for _, o := range w.fake.Objects(kind) {
		if o.Name == name {
			return o
		}
	}
	w.t.Fatalf("network_a has no %s named %s (has %s)", kind, name, w.names(kind))
	return networkafake.Object{}
}

// history answers the actions and details of a campaign's history, oldest first.
func (w *world) history(campaign int64) []map[string]any {
	var out struct {
		Data []map[string]any `json:"data"`
	}
	w.call(http.MethodGet, fmt.Sprintf("/v1/boosted-pages/history/%d", campaign), nil, &out)
	for i, j := 0, len(out.Data)-1; i < j; i, j = i+1, j-1 {
		out.Data[i], out.Data[j] = out.Data[j], out.Data[i]
	}
	return out.Data
}

// jsonString answers v as compact JSON, for comparisons.
func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// engineObject is the `engine` object of a BoostedPage.
type engineObject struct {
	State     string  `json:"state"`
	Message   string  `json:"message"`
	Since     string  `json:"since"`
	CheckedAt *string `json:"checked_at"`
}

// engineState answers the `engine` object of a campaign's detail.
func (w *world) engineState(campaign int64) engineObject {
	w.t.Helper()
	var page struct {
		Engine engineObject `json:"engine"`
	}
	w.call(http.MethodGet, fmt.Sprintf("/v1/boosted-pages/detail/%d", campaign), nil, &page)
	return page.Engine
}

// boostedEntries answers the `boosted` history entries' details of a campaign.
func (w *world) boostedEntries(campaign int64) []string {
	var out []string
	for _, h := range w.history(campaign) {
		if h["action"] == "boosted" {
			out = append(out, jsonString(h["details"]))
		}
	}
	return out
}
