// Command adboost-bench is the scale benchmark of issue 10 (`make
// bench-scale`): it builds the issue's data set (a million presets, ten
// million reviews, a user with 100,000 campaigns) in a database of its own,
// starts `adboost serve` on it, drives each catalogue and dashboard read at
// 64 concurrent connections for a fixed time and prints route, req/s, p50,
// p99, errors and the load average, and adboost's peak RSS. Each route is
// driven in two modes, printed side by side: cached (the route's one
// request again and again) and distinct (every request another of the
// route's shape, its values drawn from the data set: another title
// prefix, filter combination, page, excluded preset, post ids...; no
// answer cache can help). After presets/available comes its ceiling: the
// same requests answered from memory, without a database (ceiling.go).
//
// The database is kept between runs and made again only when it holds
// another scale (or with -regenerate); `adboost serve` migrates it, so new
// migrations apply to the data already there.
//
//	adboost-bench -adboost .cache/adboost [-presets 1000000] [-duration 15s] [-pool N] [-routes regexp] [-mode both|cached|distinct]
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth"
	"adboost/db"
)

// jwtSecret signs the benchmark user's token; adboost serve gets the same.
const jwtSecret = "adboost-bench-secret-adboost-bench-secret"

// clientGCPercent is the load generator's garbage collection target
// (GOGC): it allocates for every request and answer, and each of its
// collections takes CPU from the cores the server is measured on; 400
// collects a quarter as often for a few megabytes more.
const clientGCPercent = 400

func main() {
	debug.SetGCPercent(clientGCPercent)
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "adboost-bench:", err)
		os.Exit(1)
	}
}

func run() error {
	server := flag.String("server", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server (maintenance connection)")
	name := flag.String("database", "adboost_bench", "the benchmark's own database, made on the server")
	bin := flag.String("adboost", ".cache/adboost", "the adboost binary to serve")
	presets := flag.Int("presets", 1_000_000, "presets in the data set (10 reviews each on average)")
	campaigns := flag.Int("campaigns", 100_000, "campaigns of the benchmark user")
	posts := flag.Int("posts", 20_000, "boosted posts of the benchmark user")
	regenerate := flag.Bool("regenerate", false, "make the database again even when it holds this scale")
	var o options
	flag.DurationVar(&o.duration, "duration", 15*time.Second, "how long each route is driven")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "how long each route is driven, unmeasured, before each of its runs (in the distinct mode with requests of its own): each run is measured warm, whatever ran before it; 0: none")
	flag.IntVar(&o.conns, "connections", 64, "concurrent connections to adboost")
	poolSize := flag.Int("pool", 0, "adboost's database pool size (pool_max_conns of DATABASE_URL); 0 leaves adboost its own default (db.DefaultMaxConns), as it is deployed")
	only := flag.String("routes", "", "drive only the routes whose name or path matches this regular expression")
	mode := flag.String("mode", "both", "cached (each route's one request again and again), distinct (every request of a route another of its shape, drawn from the data set: no answer cache can help) or both, side by side")
	distinct := flag.Bool("distinct", false, "the distinct mode only (-mode distinct)")
	serveLog := flag.String("serve-log", ".cache/adboost-bench-serve.log", "where adboost serve's log goes")
	answerFile := flag.String("answer-file", "", "serve this file's JSON array of Preset objects from memory instead (the ceiling's own server, which the benchmark starts itself; ceiling.go)")
	answerAddr := flag.String("answer-addr", "127.0.0.1:0", "with -answer-file: the address to listen on")
	flag.Parse()
	if *answerFile != "" {
		return serveAnswer(*answerFile, *answerAddr)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if o.match, err = regexp.Compile(*only); err != nil {
		return fmt.Errorf("-routes: %w", err)
	}
	if *distinct {
		*mode = "distinct"
	}
	o.cached, o.distinct = *mode == "cached" || *mode == "both", *mode == "distinct" || *mode == "both"
	if !o.cached && !o.distinct {
		return fmt.Errorf("-mode %q: want cached, distinct or both", *mode)
	}
	s := scale{Presets: *presets, Campaigns: *campaigns, Posts: *posts}
	dbURL, err := prepare(ctx, *server, *name, s, *regenerate)
	if err != nil {
		return err
	}
	serveURL, pool := withPool(dbURL, *poolSize)
	base, pid, stopServe, err := serve(ctx, *bin, serveURL, *serveLog)
	if err != nil {
		return err
	}
	defer stopServe()
	meterConn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer meterConn.Close(context.Background())
	o.meter = &cpuMeter{conn: meterConn, adboost: pid}

	memory, err := serverMemory(ctx, meterConn)
	if err != nil {
		return err
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%s; %s; %d connections, %v a route; mode %s; %s; load average before: %s\n",
		s, pool, o.conns, o.duration, *mode, memory, strings.TrimSpace(string(load)))
	rows, err := driveAll(ctx, base, newDataset(s), o)
	printTable(os.Stdout, rows, peakRSS(pid))
	if err != nil {
		return err
	}
	return ctx.Err()
}

// serverMemory describes the server's buffer cache beside the card table
// that every catalogue page reads 50 rows of at random: when
// shared_buffers is smaller than preset_card, most of those rows come from
// the operating system's cache or the disk, and the catalogue's figures
// are the server's more than adboost's (README, "Sizing PostgreSQL").
func serverMemory(ctx context.Context, conn interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (string, error) {
	var buffers, hugePages, cards string
	err := conn.QueryRow(ctx, `SELECT current_setting('shared_buffers'), current_setting('huge_pages'),
		pg_size_pretty(pg_table_size('preset_card'))`).Scan(&buffers, &hugePages, &cards)
	if err != nil {
		return "", fmt.Errorf("reading the server's memory settings: %w", err)
	}
	return fmt.Sprintf("shared_buffers=%s huge_pages=%s, preset_card %s", buffers, hugePages, cards), nil
}

// warmupFirst is where the warm-up's requests of the distinct mode start
// in each route's sequence: a run of any length stays below it.
const warmupFirst = 1 << 48

// options are how the routes are driven.
type options struct {
	match            *regexp.Regexp // the routes to drive, by name or path
	cached, distinct bool           // the modes
	conns            int
	duration         time.Duration
	warmup           time.Duration
	meter            *cpuMeter
}

// withPool answers the URL adboost serves with and how its pool is sized:
// size > 0 sets pool_max_conns; 0 leaves adboost its default, which
// db.DefaultMaxConns computes from the cores this process sees too.
func withPool(dbURL string, size int) (string, string) {
	if size <= 0 {
		return dbURL, fmt.Sprintf("pool_max_conns=%d (adboost's default)", db.DefaultMaxConns())
	}
	u, _ := url.Parse(dbURL)
	q := u.Query()
	q.Set("pool_max_conns", strconv.Itoa(size))
	u.RawQuery = q.Encode()
	return u.String(), fmt.Sprintf("pool_max_conns=%d", size)
}

// serve starts `adboost serve` on the database and waits until it answers.
// It answers its base URL, its pid and a function that stops it.
func serve(ctx context.Context, bin, dbURL, logPath string) (string, int, func(), error) {
	addr, err := freeAddr()
	if err != nil {
		return "", 0, nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "HTTP_ADDR="+addr, "JWT_SECRET="+jwtSecret,
		"ADBOOST_ENV=bench", "SERVICE_FIXED_FEE=1.00", "LOG_LEVEL=warn")
	logFile, err := os.Create(logPath)
	if err != nil {
		return "", 0, nil, err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	base, stop, err := startServer(ctx, cmd, addr, func() { logFile.Close() })
	if err != nil {
		return "", 0, nil, fmt.Errorf("%w (see %s)", err, logPath)
	}
	return base, cmd.Process.Pid, stop, nil
}

// startServer starts cmd, a server that listens on addr, and waits until it
// answers. It answers the server's base URL and a function that stops it
// and then calls cleanup; when it fails, the server is stopped and cleanup
// called already.
func startServer(ctx context.Context, cmd *exec.Cmd, addr string, cleanup func()) (string, func(), error) {
	if err := cmd.Start(); err != nil {
		cleanup()
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
		cleanup()
	}
	base := "http://" + addr
	if err := waitReady(ctx, base, exited); err != nil {
		stop()
		return "", nil, err
	}
	return base, stop, nil
}

// driveAll drives each route that o matches in o's modes, as the
// benchmark's user, and measures the CPU time that each run cost. After
// presets/available (ceilingOf) comes its ceiling: the same requests
// answered from memory (ceiling.go).
func driveAll(ctx context.Context, base string, ds dataset, o options) ([]row, error) {
	tokens, err := auth.NewTokens([]byte(jwtSecret), time.Hour)
	if err != nil {
		return nil, err
	}
	// The generated user has never changed its password: token generation 0.
	token, err := tokens.Issue(1, 0)
	if err != nil {
		return nil, err
	}
	var rows []row
	for _, r := range routes() {
		if !(o.match.MatchString(r.Name) || o.match.MatchString(r.Path)) || ctx.Err() != nil {
			continue
		}
		line, err := driveRoute(ctx, base, token, r, &ds, o, o.meter)
		if err != nil {
			return rows, err
		}
		rows = append(rows, line)
		if r.Name != ceilingOf || ctx.Err() != nil {
			continue
		}
		ceilingBase, pid, stop, err := startCeiling(ctx, base, token)
		if err != nil {
			return rows, err
		}
		line, err = driveRoute(ctx, ceilingBase, token, ceilingRoute(r), &ds, o, &cpuMeter{conn: o.meter.conn, adboost: pid})
		stop()
		if err != nil {
			return rows, err
		}
		rows = append(rows, line)
	}
	return rows, nil
}

// driveRoute drives r at base in o's modes; meter counts the CPU time of
// the server that answers and of the database's backends.
func driveRoute(ctx context.Context, base, token string, r route, ds *dataset, o options, meter *cpuMeter) (row, error) {
	line := row{Route: r.Name}
	var err error
	if o.cached {
		if line.Cached, err = measure(ctx, base, token, r, nil, o, meter); err != nil {
			return line, err
		}
		report("cached", *line.Cached)
	}
	if o.distinct && ctx.Err() == nil {
		if line.Distinct, err = measure(ctx, base, token, r, ds, o, meter); err != nil {
			return line, err
		}
		report("distinct", *line.Distinct)
	}
	return line, nil
}

// measure drives r once (after its warm-up) and answers its figures, with
// the CPU time per request of the server and the database (meter) and of
// this process, the load generator.
func measure(ctx context.Context, base, token string, r route, ds *dataset, o options, meter *cpuMeter) (*result, error) {
	if o.warmup > 0 {
		// The warm-up's requests are drawn far from the run's, so that no
		// request of the run repeats one of them.
		drive(base, token, r, o.conns, o.warmup, ds, warmupFirst)
	}
	before, err := meter.used(ctx)
	if err != nil {
		return nil, err
	}
	clientBefore := procCPU(os.Getpid())
	res := drive(base, token, r, o.conns, o.duration, ds, 0)
	clientAfter := procCPU(os.Getpid())
	after, err := meter.used(ctx)
	if err != nil {
		return nil, err
	}
	if res.Requests > 0 {
		res.CPU = (after - before) / time.Duration(res.Requests)
		res.ClientCPU = (clientAfter - clientBefore) / time.Duration(res.Requests)
	}
	return &res, nil
}

// report writes a route's figures as they come (the table follows at the
// end).
func report(mode string, res result) {
	fmt.Fprintf(os.Stderr, "%-28s %-8s %8.0f req/s  p50 %-10s p99 %-10s errors %d  cpu/req %-8s client cpu/req %-8s load %s\n",
		res.Route, mode, res.Rate, ms(res.P50), ms(res.P99), res.Errors, cpuMS(res.CPU), cpuMS(res.ClientCPU), res.Load)
}

// prepare makes the benchmark's database at scale s unless it holds it
// already (its comment names the scale), and answers its URL.
func prepare(ctx context.Context, server, name string, s scale, regenerate bool) (string, error) {
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	var comment *string
	err = admin.QueryRow(ctx, `SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1`, name).Scan(&comment)
	exists := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", err
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	dbURL := u.String()
	if exists && !regenerate && comment != nil && *comment == s.String() {
		fmt.Fprintf(os.Stderr, "database %s holds %s: kept\n", name, s)
		return dbURL, nil
	}
	ident := pgx.Identifier{name}.Sanitize()
	// A database that the benchmark did not make (no comment of its own,
	// e.g. a copy, whose comment CREATE DATABASE does not copy) is never
	// dropped unasked.
	if exists && !regenerate && (comment == nil || !strings.HasPrefix(*comment, "adboost-bench ")) {
		return "", fmt.Errorf("database %s exists but does not name its scale (COMMENT ON DATABASE %s IS %s makes it the benchmark's; -regenerate makes it again)",
			name, ident, quote(s.String()))
	}
	if exists {
		if _, err := admin.Exec(ctx, "DROP DATABASE "+ident+" WITH (FORCE)"); err != nil {
			return "", err
		}
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return "", err
	}
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return "", err
	}
	defer pool.Close()
	if err := db.MigrateUp(ctx, pool); err != nil {
		return "", err
	}
	start := time.Now()
	fmt.Fprintf(os.Stderr, "generating %s ...\n", s)
	if err := generate(ctx, pool, s); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "generated in %v\n", time.Since(start).Round(time.Second))
	if _, err := admin.Exec(ctx, "COMMENT ON DATABASE "+ident+" IS "+quote(s.String())); err != nil {
		return "", err
	}
	return dbURL, nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// freeAddr answers a local address that nothing listens on.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitReady waits until adboost answers (its migrations may take a while on
// the big data set).
func waitReady(ctx context.Context, base string, exited <-chan struct{}) error {
	deadline := time.Now().Add(30 * time.Minute)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/v1/presets/optimization-goals")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-exited:
			return errors.New("adboost serve ended")
		case <-time.After(200 * time.Millisecond):
		}
	}
	return errors.New("adboost did not answer")
}

// peakRSS reads the process's peak resident set size (VmHWM) from /proc.
func peakRSS(pid int) string {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
