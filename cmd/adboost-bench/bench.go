package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"net/http"
	"os"
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
// then vacuums and analyzes it, and vacuums it again.
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
	// The first tables that VACUUM visits right after the script's commit
	// can keep no page marked all-visible (agency, app_user and
	// agency_service have: the horizon was still behind the commit), and no
	// later write wakes autovacuum on them again, so their index-only scans
	// would visit the heap for every row. The second pass skips what the
	// first marked and marks the rest.
	if _, err := conn.Exec(ctx, "VACUUM", pgx.QueryExecModeSimpleProtocol); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	return nil
}

// route is one line of the table: a request that the benchmark
// sends again and again (the cached mode), and the requests of the same
// shape with other values of the data set that the distinct mode sends.
type route struct {
	Name   string
	Method string
	Path   string
	Body   string
	Auth   bool // sent with the benchmark user's token
	// Distinct answers the path (with its query; "" for Path) and the body
	// of the n-th request of the distinct mode: no two requests of a run
	// share an answer where the route's parameters allow it (the sources
	// of one user have six filter combinations only).
	Distinct func(ds dataset, n uint64) (path, body string)
}

// routes are the reads of the table, on the generated data set
// (user 1 is the user with the campaigns; agency 1 the largest): the
// catalogue's, then the dashboard's.
func routes() []route {
	return append(catalogueRoutes(), dashboardRoutes()...)
}

// catalogueRoutes are presets/browse and presets/count, each with the
// requests of its distinct mode.
func catalogueRoutes() []route {
	browse := func(name, cached string, vary func(ds dataset, d *draw) map[string]any) route {
		return route{Name: name, Method: "POST", Path: "/v1/presets/browse", Body: cached, Distinct: presets(vary)}
	}
	count := func(name, cached string, vary func(ds dataset, d *draw) map[string]any) route {
		return route{Name: name, Method: "POST", Path: "/v1/presets/count", Body: cached, Distinct: presets(vary)}
	}
	none := func(dataset, *draw) map[string]any { return map[string]any{} }
	country := func(_ dataset, d *draw) map[string]any {
		return map[string]any{"location": map[string]any{"value": d.pick(countries)}}
	}
	everyFilter := func(ds dataset, d *draw) map[string]any {
		a := d.zipf(ds.Agencies)
		return map[string]any{"goal": d.pick(goals), "vertical": d.pick(verticals), "agency_id": a, "partner_id": a,
			"preset_name": d.prefix(), "location": map[string]any{"value": d.pick(countries), "type": "country"}}
	}
	combination := func(ds dataset, d *draw) map[string]any {
		m := ds.combination(d, 0.4)
		m["page"] = d.between(1, 5)
		return m
	}
	prefix := func(_ dataset, d *draw) map[string]any { return map[string]any{"preset_name": d.prefix()} }
	vertical := func(_ dataset, d *draw) map[string]any { return map[string]any{"vertical": d.pick(verticals)} }
	return []route{
		browse("browse {}", `{}`, none),
		browse("browse country", `{"location": {"value": "US"}}`, country),
		browse("browse city", `{"location": {"value": "5000123", "type": "city"}}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"location": map[string]any{"value": strconv.Itoa(5_000_000 + d.intn(5000)), "type": "city"}}
		}),
		browse("browse region", `{"location": {"value": "US-R17", "type": "region"}}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"location": map[string]any{"value": "US-R" + strconv.Itoa(d.intn(200)), "type": "region"}}
		}),
		browse("browse every filter", `{"goal": "OUTCOME_LEADS", "vertical": "fitness", "agency_id": 1, "partner_id": 1, "preset_name": "S", "excluded_preset_id": 5, "location": {"value": "US", "type": "country"}}`, everyFilter),
		browse("browse combination", `{"goal": "OUTCOME_SALES", "preset_name": "Sp"}`, combination),
		browse("browse title prefix", `{"preset_name": "Sp"}`, prefix),
		browse("browse goal", `{"goal": "OUTCOME_LEADS"}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"goal": d.pick(goals)}
		}),
		browse("browse agency", `{"agency_id": 3}`, func(ds dataset, d *draw) map[string]any {
			return map[string]any{"agency_id": d.zipf(ds.Agencies)}
		}),
		browse("browse page 500", `{"page": 500}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"page": d.between(450, 550)}
		}),
		browse("browse country US page 500", `{"location": {"value": "US"}, "page": 500}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"location": map[string]any{"value": "US"}, "page": d.between(450, 550)}
		}),
		browse("browse vertical", `{"vertical": "fitness"}`, vertical),
		browse("browse rare vertical", `{"vertical": "pets"}`, func(_ dataset, d *draw) map[string]any {
			return map[string]any{"vertical": "pets", "page": d.between(1, 3)}
		}),
		count("count {}", `{}`, none),
		count("count vertical", `{"vertical": "fitness"}`, vertical),
		count("count country", `{"location": {"value": "US"}}`, country),
		count("count title prefix", `{"preset_name": "Sp"}`, prefix),
		count("count every filter", `{"goal": "OUTCOME_LEADS", "vertical": "fitness", "agency_id": 1, "partner_id": 1, "preset_name": "S", "excluded_preset_id": 5, "location": {"value": "US", "type": "country"}}`, everyFilter),
		count("count combination", `{"goal": "OUTCOME_SALES", "preset_name": "Sp"}`, combination),
	}
}

// dashboardRoutes are the signed-in user's reads: available presets, the
// campaigns' sources and counts, posts, insights, agencies and stats.
func dashboardRoutes() []route {
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return []route{
		{Name: "available (1,000)", Method: "GET", Path: "/v1/presets/available", Auth: true,
			Distinct: func(_ dataset, n uint64) (string, string) {
				// A page of the first ten, of 500 to 1,000 presets: 5,010
				// requests before one comes again.
				return sprintf("/v1/presets/available?page=%d&limit=%d", 1+(n/501)%10, 500+n%501), ""
			}},
		{Name: "boosted-pages/sources", Method: "POST", Path: "/v1/boosted-pages/sources", Body: `{}`, Auth: true,
			Distinct: func(_ dataset, n uint64) (string, string) { return "", body(campaignFilter(newDraw(n))) }},
		{Name: "boosted-pages/count", Method: "POST", Path: "/v1/boosted-pages/count", Body: `{}`, Auth: true,
			Distinct: func(ds dataset, n uint64) (string, string) {
				d := newDraw(n)
				m := campaignFilter(d)
				switch d.intn(3) {
				case 0:
					m["source_id"] = d.source()
				case 1:
					m["boosted_post_id"] = 1 + d.intn(ds.Posts)
				}
				return "", body(m)
			}},
		{Name: "boosted-posts/list page 50", Method: "POST", Path: "/v1/boosted-posts/list", Body: `{"page": 50}`, Auth: true,
			Distinct: func(ds dataset, n uint64) (string, string) {
				d := newDraw(n)
				m := map[string]any{"page": d.between(1, max(1, ds.Posts/20))}
				if d.chance(0.3) {
					m["source_id"] = 1_000_000_000 + d.between(1, 200)
					m["page"] = d.between(1, max(1, ds.Posts/20/200))
				}
				return "", body(m)
			}},
		{Name: "batch-insights 1,000", Method: "POST", Path: "/v1/boosted-posts/batch-insights", Body: `{"ids": "` + strings.Join(ids, ",") + `"}`, Auth: true,
			Distinct: func(ds dataset, n uint64) (string, string) {
				return "", body(map[string]any{"ids": ds.postIDs(newDraw(n), 1000)})
			}},
		{Name: "agencies/list {}", Method: "POST", Path: "/v1/agencies/list", Body: `{}`, Auth: true,
			Distinct: func(ds dataset, n uint64) (string, string) {
				return "", body(map[string]any{"page": 1 + int(n)%max(1, ds.Agencies/50)})
			}},
		{Name: "agencies/list filters", Method: "POST", Path: "/v1/agencies/list", Body: `{"search": "fitness", "service": 3}`, Auth: true,
			Distinct: func(_ dataset, n uint64) (string, string) {
				d := newDraw(n)
				m := map[string]any{"page": d.between(1, 3)}
				if d.chance(0.6) {
					m["search"] = d.pick(agencySearches)
				}
				if d.chance(0.5) {
					m["service"] = d.between(1, 20)
				}
				if d.chance(0.5) {
					m["industry"] = d.between(1, 20)
				}
				return "", body(m)
			}},
		{Name: "stats account 365 days", Method: "POST", Path: "/v1/boosted-pages/stats", Body: statsBody(365, ""), Auth: true,
			Distinct: func(_ dataset, n uint64) (string, string) {
				d := newDraw(n)
				from, to := statsRange(d, d.between(7, 365))
				return "", body(map[string]any{"from": from, "to": to})
			}},
		{Name: "stats campaign 30 days", Method: "POST", Path: "/v1/boosted-pages/stats", Body: statsBody(30, `"boosted_page_id": 7, `), Auth: true,
			Distinct: func(ds dataset, n uint64) (string, string) {
				d := newDraw(n)
				from, to := statsRange(d, 30)
				return "", body(map[string]any{"from": from, "to": to, "boosted_page_id": d.between(1, max(1, ds.Posts/20))})
			}},
	}
}

// statsBody is a boosted-pages/stats body of the last n days ending
// yesterday (the data set's last day), with more fields before the dates.
func statsBody(n int, more string) string {
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	return fmt.Sprintf(`{%s"from": %q, "to": %q}`, more,
		yesterday.AddDate(0, 0, 1-n).Format(time.DateOnly), yesterday.Format(time.DateOnly))
}

// result is the figures of one route in one mode.
type result struct {
	Route    string
	Requests uint64
	Rate     float64 // answered requests a second
	P50, P99 time.Duration
	Errors   uint64 // transport errors and answers other than 200
	Example  string // one error, for the log
	Load     string // the 1-minute load average when the route's run ended
	// CPU is the CPU time of adboost and its PostgreSQL backends per
	// request: what a request costs, whatever else runs on the machine.
	CPU time.Duration
	// ClientCPU is this process's CPU time per request: the load
	// generator's share of the cores it shares with the server.
	ClientCPU time.Duration
}

// keptBody is how much of an answer the load generator keeps: enough for
// the first error's example; the rest is read and dropped.
const keptBody = 512

// drive sends r to base from conns workers that each wait for the answer
// before sending again (a closed loop, like wrk -c conns) for d, with
// vegeta's attacker. With a dataset (the distinct mode), the n-th request
// is r.Distinct's (first+n)-th; without, every request is r's own.
//
// Each request accepts gzip, as a browser's does, and the answer is read
// whole as it comes, gzipped, but neither inflated nor kept (keptBody):
// inflating is the dashboard's work on its own machine, and here it would
// take the cores the server is measured on. (Go's transport inflates an
// answer when it asked for gzip itself; naming the encoding stops that.)
func drive(base, token string, r route, conns int, d time.Duration, ds *dataset, first uint64) result {
	header := http.Header{}
	header.Set("Accept-Encoding", "gzip")
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
		vegeta.MaxBody(keptBody),
	)
	targeter := vegeta.NewStaticTargeter(target)
	if ds != nil && r.Distinct != nil {
		var n atomic.Uint64
		n.Store(first)
		targeter = func(t *vegeta.Target) error {
			*t = target
			path, body := r.Distinct(*ds, n.Add(1))
			if path != "" {
				t.URL = base + path
			}
			if body != "" {
				t.Body = []byte(body)
			}
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
	res.Load = loadAverage()
	return res
}

// loadAverage is the machine's 1-minute load average ("" where /proc has
// none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b) + " ")[0]
}

// row is one line of the printed table: a route's figures in the modes
// that were driven (nil: not driven).
type row struct {
	Route            string
	Cached, Distinct *result
}

// printTable writes the results as the table, the cached and the
// distinct figures of each route side by side, each with its CPU time per
// request and the load average at its end.
func printTable(w io.Writer, rows []row, rss string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	var header strings.Builder
	header.WriteString("route\t")
	modes := map[string]bool{}
	for _, r := range rows {
		modes["cached"] = modes["cached"] || r.Cached != nil
		modes["distinct"] = modes["distinct"] || r.Distinct != nil
	}
	for _, mode := range []string{"cached", "distinct"} {
		if modes[mode] {
			fmt.Fprintf(&header, "%[1]s req/s\t%[1]s p50\t%[1]s p99\t%[1]s errors\t%[1]s cpu/req\t%[1]s client cpu/req\t%[1]s load\t", mode)
		}
	}
	fmt.Fprintln(tw, header.String())
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t", r.Route)
		for i, res := range []*result{r.Cached, r.Distinct} {
			switch {
			case !modes[[...]string{"cached", "distinct"}[i]]:
			case res == nil:
				fmt.Fprint(tw, "\t\t\t\t\t\t\t")
			default:
				fmt.Fprintf(tw, "%.0f\t%s\t%s\t%d\t%s\t%s\t%s\t",
					res.Rate, ms(res.P50), ms(res.P99), res.Errors, cpuMS(res.CPU), cpuMS(res.ClientCPU), res.Load)
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if rss != "" {
		fmt.Fprintf(w, "adboost peak RSS: %s\n", rss)
	}
	for _, r := range rows {
		for mode, res := range map[string]*result{"cached": r.Cached, "distinct": r.Distinct} {
			if res != nil && res.Example != "" {
				fmt.Fprintf(w, "%s (%s): first error: %s\n", r.Route, mode, res.Example)
			}
		}
	}
}

// cpuMS writes a CPU time per request, a fraction of a millisecond for
// most routes.
func cpuMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}
