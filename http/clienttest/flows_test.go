package clienttest

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"adboost/auth"
	"adboost/db/dataset"
	"adboost/db/dbtest"
	httpapi "adboost/http"
)

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost
	dbtest.Main(m)
}

// must fails the test unless the call answered 200 with a body.
func must[T any](t *testing.T, what string, body *T, status int, raw []byte, err error) T {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if status != http.StatusOK || body == nil {
		t.Fatalf("%s: status %d, body %.500s", what, status, raw)
	}
	return *body
}

func positive(t *testing.T, n int64) *PositiveIntLike {
	t.Helper()
	var v PositiveIntLike
	if err := v.FromPositiveIntLike0(n); err != nil {
		t.Fatal(err)
	}
	return &v
}

func ptr[T any](v T) *T { return &v }

// TestGeneratedClientDemoFlows drives the demo's main flows through the Go
// client that oapi-codegen makes of http/openapi.yaml: the document is one
// that generators can use, and what it promises decodes.
func TestGeneratedClientDemoFlows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := startDemoAPI(t, ctx)

	public, err := NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	c := signInDemo(t, ctx, public, url)
	checkClientCatalogue(t, ctx, public)
	checkClientCampaigns(t, ctx, c)
	checkClientBoostedPosts(t, ctx, c)
	checkClientBillingAndGeo(t, ctx, c, public)
	checkClientAgencies(t, ctx, c, public)

	// Without the token, a Bearer operation is refused as the document says.
	anon, err := public.UserDetailWithResponse(ctx)
	if err != nil || anon.StatusCode() != http.StatusUnauthorized || anon.JSON401 == nil || anon.JSON401.Error != "unauthorized" {
		t.Errorf("user/detail without a token: %d %s (%v)", anon.StatusCode(), anon.Body, err)
	}
}

// startDemoAPI serves the API over a database with the demo data set until
// the test ends, and answers its URL.
func startDemoAPI(t *testing.T, ctx context.Context) string {
	t.Helper()
	pool := dbtest.New(t)
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		t.Fatal(err)
	}
	tokens, err := auth.NewTokens([]byte("client-test-secret-client-test-secret"), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{PublicBaseURL: "https://api.adboost.test"}, pool, tokens, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

// signInDemo signs the demo user in (and checks a wrong password is refused),
// checks user/detail, and answers a client sending the user's token.
func signInDemo(t *testing.T, ctx context.Context, public *ClientWithResponses, url string) *ClientWithResponses {
	t.Helper()
	// Sign-in.
	login, err := public.UserLoginPasswordWithResponse(ctx, UserLoginPasswordJSONRequestBody{Email: "demo@adboost.example", Password: "demo-password"})
	user := must(t, "login-password", login.JSON200, login.StatusCode(), login.Body, err)
	if user.Email != "demo@adboost.example" || user.FirstName != "Dana" || user.CreditBalance != "125.50" || user.AgencyId != 20 || user.AccessToken == "" {
		t.Fatalf("login-password: %+v", user)
	}
	wrong, err := public.UserLoginPasswordWithResponse(ctx, UserLoginPasswordJSONRequestBody{Email: "demo@adboost.example", Password: "wrong-password"})
	if err != nil || wrong.StatusCode() != http.StatusUnauthorized || wrong.JSON401 == nil || wrong.JSON401.Error != "invalid_credentials" {
		t.Fatalf("a wrong password: %d %s (%v)", wrong.StatusCode(), wrong.Body, err)
	}
	c, err := NewClientWithResponses(url, WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+user.AccessToken)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}

	// Detail.
	detail, err := c.UserDetailWithResponse(ctx)
	me := must(t, "user/detail", detail.JSON200, detail.StatusCode(), detail.Body, err)
	if me.Email != user.Email || me.Snid != 1000100 || me.AgencyName != "Demo Studio" || me.CreditBalance != "125.50" {
		t.Fatalf("user/detail: %+v", me)
	}
	return c
}

// checkClientCatalogue browses the catalogue with filters and counts it.
func checkClientCatalogue(t *testing.T, ctx context.Context, public *ClientWithResponses) {
	t.Helper()
	// The catalogue: browse with filters, and its count.
	fitness := PresetBrowseJSONRequestBody{Vertical: ptr("fitness"), Limit: positive(t, 50)}
	browse, err := public.PresetBrowseWithResponse(ctx, fitness)
	presets := must(t, "presets/browse", browse.JSON200, browse.StatusCode(), browse.Body, err)
	var ids []int64
	for _, p := range presets {
		ids = append(ids, p.Id)
		var loc map[string]any
		if err := json.Unmarshal([]byte(p.LocationJson), &loc); err != nil {
			t.Errorf("preset %d: location_json %q is not JSON text: %v", p.Id, p.LocationJson, err)
		}
		if !strings.Contains(p.Price, ".") || p.Agency.Id == 0 || p.Private {
			t.Errorf("preset %d: price %q, agency %d, private %v", p.Id, p.Price, p.Agency.Id, p.Private)
		}
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []int64{1, 2, 29}) { // the public, active fitness presets of the demo
		t.Errorf("browse vertical=fitness: presets %v, want [1 2 29]", ids)
	}
	count, err := public.PresetCountWithResponse(ctx, PresetCountJSONRequestBody{Vertical: ptr("fitness")})
	if n := must(t, "presets/count", count.JSON200, count.StatusCode(), count.Body, err); n != 3 {
		t.Errorf("count vertical=fitness: %d, want 3", n)
	}
	all, err := public.PresetCountWithResponse(ctx, PresetCountJSONRequestBody{})
	if n := must(t, "presets/count {}", all.JSON200, all.StatusCode(), all.Body, err); n <= 3 {
		t.Errorf("count {}: %d, want more than the fitness presets", n)
	}
}

// checkClientCampaigns lists the user's boosted pages with a filter, counts
// them and reads one.
func checkClientCampaigns(t *testing.T, ctx context.Context, c *ClientWithResponses) {
	t.Helper()
	// Campaigns: sources (the user's boosted pages), with a filter, and their count.
	active := StatusFilter("active")
	sources, err := c.BoostedPageSourcesWithResponse(ctx, BoostedPageSourcesJSONRequestBody{Status: &active})
	pages := must(t, "boosted-pages/sources", sources.JSON200, sources.StatusCode(), sources.Body, err)
	var ids []int64
	for _, p := range pages {
		ids = append(ids, p.Id)
		if !p.Active || p.CampaignBudgetValue <= 0 {
			t.Errorf("campaign %d: active %v, budget %v", p.Id, p.Active, p.CampaignBudgetValue)
		}
	}
	slices.Sort(ids)
	// The newest active campaign of each source: page 2000101 (1001 and
	// 1003), page 2000102 (1004), and network_b account 3000101 (1006).
	if !slices.Equal(ids, []int64{1003, 1004, 1006}) {
		t.Errorf("sources status=active: %v, want [1003 1004 1006]", ids)
	}
	pageCount, err := c.BoostedPageCountWithResponse(ctx, BoostedPageCountJSONRequestBody{Status: &active})
	if n := must(t, "boosted-pages/count", pageCount.JSON200, pageCount.StatusCode(), pageCount.Body, err); n != 4 {
		t.Errorf("boosted-pages/count status=active: %d, want 4", n)
	}
	one, err := c.BoostedPageDetailWithResponse(ctx, 1001)
	if p := must(t, "boosted-pages/detail/1001", one.JSON200, one.StatusCode(), one.Body, err); p.CampaignBudgetValue != 20 || p.Page == nil || p.PageId != 2000101 {
		t.Errorf("boosted-pages/detail/1001: budget %v, page %+v", p.CampaignBudgetValue, p.Page)
	}
}

// checkClientBoostedPosts lists one campaign's boosted posts, counts them and
// sums the insights of two posts.
func checkClientBoostedPosts(t *testing.T, ctx context.Context, c *ClientWithResponses) {
	t.Helper()
	// Boosted posts: the list of one campaign, its count, and the insights of two posts.
	list, err := c.BoostedPostListWithResponse(ctx, BoostedPostListJSONRequestBody{BoostedPageId: positive(t, 1001)})
	posts := must(t, "boosted-posts/list", list.JSON200, list.StatusCode(), list.Body, err)
	postCount, err := c.BoostedPostCountWithResponse(ctx, BoostedPostCountJSONRequestBody{BoostedPageId: positive(t, 1001)})
	if n := must(t, "boosted-posts/count", postCount.JSON200, postCount.StatusCode(), postCount.Body, err); n != 18 || len(posts) == 0 || len(posts) > n {
		t.Errorf("boosted page 1001: count %d (want 18), list %d posts", n, len(posts))
	}
	for _, p := range posts {
		if p.Id < 9001 || p.Created == 0 || p.Link == "" {
			t.Errorf("post %+v", p)
		}
	}
	insights, err := c.BoostedPostBatchInsightsWithResponse(ctx, BoostedPostBatchInsightsJSONRequestBody{Ids: "9001,9002"})
	sum := must(t, "boosted-posts/batch-insights", insights.JSON200, insights.StatusCode(), insights.Body, err)
	if sum.Posts != "2" || sum.Reach != "41330" || sum.Clicks != "759" || sum.Spend != "297.83" {
		t.Errorf("batch-insights 9001,9002: %+v; want 2 posts, reach 23600+17730, clicks 296+463, spend 130.20+167.63", sum)
	}
}

// checkClientBillingAndGeo reads the billing details and looks up a country
// by code and a city by name.
func checkClientBillingAndGeo(t *testing.T, ctx context.Context, c, public *ClientWithResponses) {
	t.Helper()
	// Billing.
	billing, err := c.BillingDetailWithResponse(ctx)
	if b := must(t, "billing/detail", billing.JSON200, billing.StatusCode(), billing.Body, err); b.CompanyName != "Demo Studio s.r.o." || b.Country != "CZ" {
		t.Errorf("billing/detail: %+v", b)
	}

	// Geographic targeting.
	byCode, err := public.GeoLocationsByCodeWithResponse(ctx, GeoLocationsByCodeJSONRequestBody{Value: "CZ", Type: ptr(GeoTypeFilter("country"))})
	countries := must(t, "geo-locations-by-code", byCode.JSON200, byCode.StatusCode(), byCode.Body, err)
	if len(countries) != 1 || countries[0].Value != "CZ" || countries[0].Type != "country" || countries[0].Label == "" {
		t.Errorf("geo-locations-by-code CZ: %+v", countries)
	}
	search, err := public.GeoLocationSearchWithResponse(ctx, GeoLocationSearchJSONRequestBody{Query: ptr("Brno"), Type: ptr(GeoTypeFilter("city"))})
	cities := must(t, "geo-locations", search.JSON200, search.StatusCode(), search.Body, err)
	if !slices.ContainsFunc(cities, func(g GeoLocation) bool {
		return g.Type == "city" && strings.Contains(g.Label, "Brno") && g.CountryName != ""
	}) {
		t.Errorf("geo-locations Brno: %+v", cities)
	}
}

// checkClientAgencies lists the agency directory, reads one agency and
// revalidates it with its ETag.
func checkClientAgencies(t *testing.T, ctx context.Context, c, public *ClientWithResponses) {
	t.Helper()
	// Agencies: the directory and one agency.
	agencies, err := c.AgencyListWithResponse(ctx, AgencyListJSONRequestBody{})
	var names []string
	for _, a := range must(t, "agencies/list", agencies.JSON200, agencies.StatusCode(), agencies.Body, err) {
		names = append(names, a.Username)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"Demo Studio", "bluepeak", "cityhive", "northwind", "shopstream"}) {
		t.Errorf("agencies/list: %v", names)
	}
	agency, err := public.AgencyDetailWithResponse(ctx, 10, nil)
	if a := must(t, "agencies/detail/10", agency.JSON200, agency.StatusCode(), agency.Body, err); a.Username != "northwind" || a.Id != 10 {
		t.Errorf("agencies/detail/10: %+v", a)
	}
	// Revalidation through the generated client: the tag of the 200, sent
	// back in If-None-Match, gets 304 with the same tag.
	if agency.Headers200 == nil || agency.Headers200.ETag == "" || agency.Headers200.CacheControl != "no-cache" {
		t.Fatalf("agencies/detail/10 headers: %+v", agency.Headers200)
	}
	tag := agency.Headers200.ETag
	again, err := public.AgencyDetailWithResponse(ctx, 10, &AgencyDetailParams{IfNoneMatch: &tag})
	if err != nil || again.StatusCode() != http.StatusNotModified || again.Headers304 == nil || again.Headers304.ETag != tag {
		t.Errorf("agencies/detail/10 with its tag: %d %+v (%v)", again.StatusCode(), again.Headers304, err)
	}
}
