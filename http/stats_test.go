package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// statsFigures are one day's figures, or totals, as the stats answer them.
type statsFigures struct {
	Date        string `json:"date,omitempty"`
	Impressions string `json:"impressions"`
	Reach       string `json:"reach"`
	Clicks      string `json:"clicks"`
	Engagement  string `json:"engagement"`
	Spend       string `json:"spend"`
	Conversions string `json:"conversions"`
}

type statsBody struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Currencies []struct {
		Currency string         `json:"currency"`
		Days     []statsFigures `json:"days"`
		Totals   statsFigures   `json:"totals"`
	} `json:"currencies"`
}

// statsDay is a post_days row of the import.
func statsDay(user, post int64, currency, day string, impressions, reach, clicks, engagement int64, spend string, conversions int64) map[string]any {
	return map[string]any{"user_id": user, "post_id": post, "currency": currency, "day": day,
		"impressions": impressions, "reach": reach, "clicks": clicks, "engagement": engagement, "spend": spend, "conversions": conversions}
}

// figures is a day's figures as text, for comparisons.
func (f statsFigures) String() string {
	return fmt.Sprintf("%s %s/%s/%s/%s %s %s", f.Date, f.Impressions, f.Reach, f.Clicks, f.Engagement, f.Spend, f.Conversions)
}

// summary is a stats answer as lines: "CUR date figures" per day and
// "CUR totals figures".
func (b statsBody) summary() []string {
	var out []string
	for _, c := range b.Currencies {
		for _, d := range c.Days {
			out = append(out, c.Currency+" "+d.String())
		}
		out = append(out, c.Currency+" totals"+c.Totals.String())
	}
	return out
}

// TestBoostedPageStats: every day of the range per currency (ordered by
// code), zeros included, exact sums of the selected posts, each filter and
// their combination, another user's ids selecting nothing, and the range's
// defaults and limits.
func TestBoostedPageStats(t *testing.T) {
	e := newEnv(t)
	a, b, c := statsPosts(e)
	ana, bob := e.token(100), e.token(101)
	today := loadStatsDays(e, a, b, c)
	checkStatsFilters(t, e, ana, a, c)
	checkStatsRange(t, e, ana, bob, today)
	checkStatsAfterMove(t, e, ana, a, b)
}

// statsPosts loads the posts fixture and answers three of Ana's posts.
func statsPosts(e *env) (a, b, c int64) {
	e.t.Helper()
	_, source, links := postsFixture(e)
	// Three of Ana's posts: a on page 456 in campaigns 1 and 2, b on 456 in
	// campaign 1 alone, c on page 457 in campaign 3, whose ads spent in two
	// currencies; and one of Bob's.
	for id, l := range links {
		switch {
		case a == 0 && slices.Equal(l, []int64{1, 2}):
			a = id
		case b == 0 && slices.Equal(l, []int64{1}):
			b = id
		case c == 0 && source[id] == 457:
			c = id
		}
	}
	return a, b, c
}

// loadStatsDays loads days of Ana's posts a, b and c and of one of Bob's;
// it answers today's date.
func loadStatsDays(e *env, a, b, c int64) string {
	e.t.Helper()
	today := time.Now().UTC().Format(time.DateOnly)
	days := []map[string]any{
		statsDay(100, a, "EUR", "2026-03-01", 100, 80, 5, 10, "1.005", 1),
		statsDay(100, a, "EUR", "2026-03-03", 50, 40, 2, 4, "0.50", 0),
		statsDay(100, b, "EUR", "2026-03-03", 30, 25, 1, 3, "0.25", 2),
		statsDay(100, b, "EUR", "2026-02-28", 999, 999, 9, 9, "9.99", 9), // before the range
		statsDay(100, c, "USD", "2026-03-02", 70, 60, 3, 7, "2.10", 0),
		statsDay(100, c, "EUR", "2026-03-04", 10, 10, 0, 1, "0.10", 0),
		statsDay(100, c, "USD", today, 1, 1, 0, 0, "0.01", 0),
		statsDay(101, 2000, "EUR", "2026-03-01", 500, 500, 50, 50, "5.00", 5),
	}
	raw, _ := json.Marshal(map[string]any{"post_days": days})
	e.load(string(raw))
	return today
}

// askStats answers the stats of body as token's user sees them.
func askStats(t *testing.T, e *env, token string, body map[string]any) statsBody {
	t.Helper()
	var out statsBody
	e.post("/v1/boosted-pages/stats", token, body).ok(&out)
	return out
}

// statsZero is a day of zeros in a summary.
func statsZero(cur, day string) string { return cur + " " + day + " 0/0/0/0 0.00 0" }

// statsMarch is the range 2026-03-01..04 with one more member k.
func statsMarch(k string, v any) map[string]any {
	m := map[string]any{"from": "2026-03-01", "to": "2026-03-04"}
	m[k] = v
	return m
}

// checkStatsFilters checks Ana's stats of 2026-03-01..04 under each filter
// and their combinations, another user's ids selecting nothing.
func checkStatsFilters(t *testing.T, e *env, ana string, a, c int64) {
	t.Helper()
	zero, with := statsZero, statsMarch
	r := map[string]any{"from": "2026-03-01", "to": "2026-03-04"}
	for _, tc := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"every post", r, []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 80/65/3/7 0.75 2", "EUR 2026-03-04 10/10/0/1 0.10 0",
			"EUR totals 190/155/8/18 1.86 3",
			zero("USD", "2026-03-01"), "USD 2026-03-02 70/60/3/7 2.10 0", zero("USD", "2026-03-03"), zero("USD", "2026-03-04"),
			"USD totals 70/60/3/7 2.10 0"}},
		{"page 456", with("source_id", "456"), []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 80/65/3/7 0.75 2", zero("EUR", "2026-03-04"),
			"EUR totals 180/145/8/17 1.76 3"}},
		{"campaign 2", with("boosted_page_id", 2), []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 50/40/2/4 0.50 0", zero("EUR", "2026-03-04"),
			"EUR totals 150/120/7/14 1.51 1"}},
		{"post c", with("boosted_post_id", c), []string{
			zero("EUR", "2026-03-01"), zero("EUR", "2026-03-02"), zero("EUR", "2026-03-03"), "EUR 2026-03-04 10/10/0/1 0.10 0",
			"EUR totals 10/10/0/1 0.10 0",
			zero("USD", "2026-03-01"), "USD 2026-03-02 70/60/3/7 2.10 0", zero("USD", "2026-03-03"), zero("USD", "2026-03-04"),
			"USD totals 70/60/3/7 2.10 0"}},
		{"campaign 1", with("boosted_page_id", 1), []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 80/65/3/7 0.75 2", zero("EUR", "2026-03-04"),
			"EUR totals 180/145/8/17 1.76 3"}},
		{"campaign 2 and page 456", map[string]any{"from": "2026-03-01", "to": "2026-03-04", "boosted_page_id": 2, "source_id": 456}, []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 50/40/2/4 0.50 0", zero("EUR", "2026-03-04"),
			"EUR totals 150/120/7/14 1.51 1"}},
		{"post a in campaign 2", map[string]any{"from": "2026-03-01", "to": "2026-03-04", "boosted_page_id": 2, "boosted_post_id": a}, []string{
			"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 50/40/2/4 0.50 0", zero("EUR", "2026-03-04"),
			"EUR totals 150/120/7/14 1.51 1"}},
		{"post a in campaign 3", map[string]any{"from": "2026-03-01", "to": "2026-03-04", "boosted_page_id": 3, "boosted_post_id": a}, nil},
		{"campaign 1 and page 457", map[string]any{"from": "2026-03-01", "to": "2026-03-04", "boosted_page_id": 1, "source_id": 457}, nil},
		{"Bob's campaign", with("boosted_page_id", 8), nil},
		{"Bob's post", with("boosted_post_id", 2000), nil},
		{"nothing in the range", map[string]any{"from": "2025-01-01", "to": "2025-01-31"}, nil},
	} {
		got := askStats(t, e, ana, tc.body)
		if !reflect.DeepEqual(got.summary(), tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got.summary(), tc.want)
		}
		if got.Currencies == nil {
			t.Errorf("%s: currencies is null, want an array", tc.name)
		}
	}
}

// checkStatsRange checks Bob sees his own only, the range's defaults and
// its limits, and the refused bodies.
func checkStatsRange(t *testing.T, e *env, ana, bob, today string) {
	t.Helper()
	ask := func(token string, body map[string]any) statsBody {
		t.Helper()
		return askStats(t, e, token, body)
	}
	// Bob sees his own only.
	if got := ask(bob, map[string]any{"from": "2026-03-01", "to": "2026-03-01"}).summary(); !reflect.DeepEqual(got,
		[]string{"EUR 2026-03-01 500/500/50/50 5.00 5", "EUR totals 500/500/50/50 5.00 5"}) {
		t.Errorf("Bob's stats %q", got)
	}

	// By default the last 30 days ending today; a range of 366 dates.
	def := ask(ana, map[string]any{})
	from := time.Now().UTC().AddDate(0, 0, -29).Format(time.DateOnly)
	if def.From != from || def.To != today || len(def.Currencies) != 1 || len(def.Currencies[0].Days) != 30 ||
		def.Currencies[0].Days[29].String() != today+" 1/1/0/0 0.01 0" {
		t.Errorf("default range %s..%s: %q", def.From, def.To, def.summary())
	}
	year := ask(ana, map[string]any{"from": "2025-03-01", "to": "2026-03-01"})
	if year.From != "2025-03-01" || len(year.Currencies) != 1 || len(year.Currencies[0].Days) != 366 ||
		year.Currencies[0].Totals.String() != " 1099/1079/14/19 11.00 10" {
		t.Errorf("a range of 366 dates: %s..%s, %d currencies", year.From, year.To, len(year.Currencies))
	}

	for _, tc := range []struct {
		body any
		word string
	}{
		{map[string]any{"from": "2025-03-01", "to": "2026-03-02"}, "366 dates"},
		{map[string]any{"from": "2026-03-05", "to": "2026-03-04"}, "must not be after"},
		{map[string]any{"from": "2026-3-1"}, "from must be a date"},
		{map[string]any{"to": "yesterday"}, "to must be a date"},
		{map[string]any{"from": "1969-12-31", "to": "1970-01-01"}, "from must be a date"},
		{map[string]any{"to": "2026-02-30"}, "to must be a date"},
		{map[string]any{"boosted_page_id": 0}, "boosted_page_id"},
		{map[string]any{"source_id": -4}, "source_id"},
		{map[string]any{"boosted_post_id": "x"}, "boosted_post_id"},
		{map[string]any{"from": 20260301}, "from"},
	} {
		e.post("/v1/boosted-pages/stats", ana, tc.body).fails(http.StatusBadRequest, "bad_request", tc.word)
	}
	e.post("/v1/boosted-pages/stats", "", map[string]any{"from": "2026-03-01", "to": "2026-03-04"}).fails(http.StatusUnauthorized, "unauthorized")
}

// checkStatsAfterMove imports post a moved from campaigns 1 and 2 to
// campaign 3 and checks its days move with it.
func checkStatsAfterMove(t *testing.T, e *env, ana string, a, b int64) {
	t.Helper()
	zero, with := statsZero, statsMarch
	// An import that moves post a from campaigns 1 and 2 to campaign 3 moves
	// its days: campaign 2 keeps its dates at zero, campaign 1 keeps b's,
	// campaign 3 gets a's besides c's.
	e.load(fmt.Sprintf(`{"boosted_posts": [{"id": %d, "user_id": 100, "source_id": 456, "boosted_page_ids": [3],
		"active": true, "name": "Post a", "link": "https://net.example/a", "image": "", "created": 1767225600}]}`, a))
	for _, tc := range []struct {
		campaign int
		want     []string
	}{
		{2, []string{zero("EUR", "2026-03-01"), zero("EUR", "2026-03-02"), zero("EUR", "2026-03-03"), zero("EUR", "2026-03-04"),
			"EUR totals 0/0/0/0 0.00 0"}},
		{1, []string{zero("EUR", "2026-03-01"), zero("EUR", "2026-03-02"), "EUR 2026-03-03 30/25/1/3 0.25 2", zero("EUR", "2026-03-04"),
			"EUR totals 30/25/1/3 0.25 2"}},
		{3, []string{"EUR 2026-03-01 100/80/5/10 1.01 1", zero("EUR", "2026-03-02"), "EUR 2026-03-03 50/40/2/4 0.50 0", "EUR 2026-03-04 10/10/0/1 0.10 0",
			"EUR totals 160/130/7/15 1.61 1",
			zero("USD", "2026-03-01"), "USD 2026-03-02 70/60/3/7 2.10 0", zero("USD", "2026-03-03"), zero("USD", "2026-03-04"),
			"USD totals 70/60/3/7 2.10 0"}},
	} {
		if got := askStats(t, e, ana, with("boosted_page_id", tc.campaign)).summary(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("campaign %d after the move:\n got %q\nwant %q", tc.campaign, got, tc.want)
		}
	}
	if strings.Contains(fmt.Sprint(askStats(t, e, ana, with("boosted_post_id", b)).summary()), "999") {
		t.Error("a day before the range counted")
	}
}
