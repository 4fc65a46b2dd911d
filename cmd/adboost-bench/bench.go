package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// generateSQL makes the data set; see its header for the shape.
//
//go:embed generate.sql
var generateSQL string

// scale is the size of the data set: the is 1,000,000 presets,
// 100,000 campaigns and 20,000 boosted posts (and 10 reviews a preset on
// average, 10 million in all).
type scale struct {
	Presets, Campaigns, Posts int
}

// String is how the benchmark's database remembers the scale it holds.
func (s scale) String() string {
	return fmt.Sprintf("adboost-bench presets=%d campaigns=%d posts=%d days=365", s.Presets, s.Campaigns, s.Posts)
}

// generate fills a migrated, empty database with the data set at scale s,
// then vacuums and analyzes it.
func generate(ctx context.Context, pool *pgxpool.Pool, s scale) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	for name, v := range map[string]int{"bench.presets": s.Presets, "bench.campaigns": s.Campaigns, "bench.posts": s.Posts} {
		if _, err := conn.Exec(ctx, "SELECT set_config($1, $2, false)", name, strconv.Itoa(v)); err != nil {
			return err
		}
	}
	// One simple-protocol round trip: the whole script in one transaction.
	if _, err := conn.Exec(ctx, generateSQL, pgx.QueryExecModeSimpleProtocol); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if _, err := conn.Exec(ctx, "VACUUM (ANALYZE)", pgx.QueryExecModeSimpleProtocol); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	return nil
}

// route is one line of the table: a request that the benchmark
// sends again and again.
type route struct {
	Name   string
	Method string
	Path   string
	Body   string
	Auth   bool // sent with the benchmark user's token
}

// routes are the reads of the table, on the generated data set
// (user 1 is the user with the campaigns; agency 1 the largest).
func routes() []route {
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return []route{
		{Name: "browse {}", Method: "POST", Path: "/v1/presets/browse", Body: `{}`},
		{Name: "browse country US", Method: "POST", Path: "/v1/presets/browse", Body: `{"location": {"value": "US"}}`},
		{Name: "browse city", Method: "POST", Path: "/v1/presets/browse", Body: `{"location": {"value": "5000123", "type": "city"}}`},
		{Name: "browse region", Method: "POST", Path: "/v1/presets/browse", Body: `{"location": {"value": "US-R17", "type": "region"}}`},
		{Name: "browse every filter", Method: "POST", Path: "/v1/presets/browse", Body: `{"goal": "OUTCOME_LEADS", "vertical": "fitness", "agency_id": 1, "partner_id": 1, "preset_name": "S", "excluded_preset_id": 5, "location": {"value": "US", "type": "country"}}`},
		{Name: "browse title prefix", Method: "POST", Path: "/v1/presets/browse", Body: `{"preset_name": "Sp"}`},
		{Name: "browse page 500", Method: "POST", Path: "/v1/presets/browse", Body: `{"page": 500}`},
		{Name: "browse country US page 500", Method: "POST", Path: "/v1/presets/browse", Body: `{"location": {"value": "US"}, "page": 500}`},
		{Name: "browse rare vertical", Method: "POST", Path: "/v1/presets/browse", Body: `{"vertical": "pets"}`},
		{Name: "count {}", Method: "POST", Path: "/v1/presets/count", Body: `{}`},
		{Name: "count vertical", Method: "POST", Path: "/v1/presets/count", Body: `{"vertical": "fitness"}`},
		{Name: "count country US", Method: "POST", Path: "/v1/presets/count", Body: `{"location": {"value": "US"}}`},
		{Name: "available (1,000)", Method: "GET", Path: "/v1/presets/available", Auth: true},
		{Name: "boosted-pages/sources", Method: "POST", Path: "/v1/boosted-pages/sources", Body: `{}`, Auth: true},
		{Name: "boosted-pages/count", Method: "POST", Path: "/v1/boosted-pages/count", Body: `{}`, Auth: true},
		{Name: "boosted-posts/list page 50", Method: "POST", Path: "/v1/boosted-posts/list", Body: `{"page": 50}`, Auth: true},
		{Name: "batch-insights 1,000", Method: "POST", Path: "/v1/boosted-posts/batch-insights", Body: `{"ids": "` + strings.Join(ids, ",") + `"}`, Auth: true},
		{Name: "agencies/list {}", Method: "POST", Path: "/v1/agencies/list", Body: `{}`, Auth: true},
		{Name: "stats account 365 days", Method: "POST", Path: "/v1/boosted-pages/stats", Body: statsBody(365, ""), Auth: true},
		{Name: "stats campaign 30 days", Method: "POST", Path: "/v1/boosted-pages/stats", Body: statsBody(30, `"boosted_page_id": 7, `), Auth: true},
	}
}

// statsBody is a boosted-pages/stats body of the last n days ending
// yesterday (the data set's last day), with more fields before the dates.
func statsBody(n int, more string) string {
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	return fmt.Sprintf(`{%s"from": %q, "to": %q}`, more,
		yesterday.AddDate(0, 0, 1-n).Format(time.DateOnly), yesterday.Format(time.DateOnly))
}

// result is one line of the printed table.
type result struct {
	Route    string
	Requests uint64
	Rate     float64 // answered requests a second
	P50, P99 time.Duration
	Errors   uint64 // transport errors and answers other than 200
	Example  string // one error, for the log
}

// distinctBody makes the n-th body of a presets/browse or count request
// distinct, so that no two requests share an answer of the answer cache:
// it excludes a preset id that does not exist (the answer is the same, the
// work is the same, the cache key is not).
func distinctBody(body string, n uint64) string {
	if body == "" || body[0] != '{' {
		return body
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return body
	}
	m["excluded_preset_id"] = 900_000_000 + n
	b, _ := json.Marshal(m)
	return string(b)
}

// drive sends r to base from conns workers that each wait for the answer
// before sending again (a closed loop, like wrk -c conns) for d, with
// vegeta's attacker. With distinct, every presets/browse and count request
// has its own cache key (distinctBody).
func drive(base, token string, r route, conns int, d time.Duration, distinct ...bool) result {
	header := http.Header{}
	if r.Body != "" {
		header.Set("Content-Type", "application/json")
	}
	if r.Auth {
		header.Set("Authorization", "Bearer "+token)
	}
	target := vegeta.Target{Method: r.Method, URL: base + r.Path, Header: header}
	if r.Body != "" {
		target.Body = []byte(r.Body)
	}
	attacker := vegeta.NewAttacker(
		vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(uint64(conns)),
		vegeta.Connections(conns), vegeta.MaxConnections(conns),
		vegeta.KeepAlive(true), vegeta.HTTP2(false), vegeta.Timeout(60*time.Second),
	)
	targeter := vegeta.NewStaticTargeter(target)
	if len(distinct) > 0 && distinct[0] && strings.HasPrefix(r.Path, "/v1/presets/") && r.Method == "POST" {
		var n atomic.Uint64
		targeter = func(t *vegeta.Target) error {
			*t = target
			t.Body = []byte(distinctBody(r.Body, n.Add(1)))
			return nil
		}
	}
	var m vegeta.Metrics
	res := result{Route: r.Name}
	// Freq 0 with a bounded number of workers: as fast as the answers come.
	for hit := range attacker.Attack(targeter, vegeta.Rate{Freq: 0}, d, r.Name) {
		m.Add(hit)
		if hit.Code != http.StatusOK || hit.Error != "" {
			res.Errors++
			if res.Example == "" {
				res.Example = fmt.Sprintf("%d %s %.200s", hit.Code, hit.Error, hit.Body)
			}
		}
	}
	m.Close()
	res.Requests = m.Requests
	if elapsed := m.Duration + m.Wait; elapsed > 0 {
		res.Rate = float64(m.Requests) / elapsed.Seconds()
	}
	res.P50, res.P99 = m.Latencies.P50, m.Latencies.P99
	return res
}

// printTable writes the results as the table.
func printTable(w io.Writer, results []result, rss string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "route\treq/s\tp50\tp99\terrors\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%.0f\t%s\t%s\t%d\t\n", r.Route, r.Rate, ms(r.P50), ms(r.P99), r.Errors)
	}
	tw.Flush()
	if rss != "" {
		fmt.Fprintf(w, "adboost peak RSS: %s\n", rss)
	}
	for _, r := range results {
		if r.Example != "" {
			fmt.Fprintf(w, "%s: first error: %s\n", r.Route, r.Example)
		}
	}
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}
