package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"adboost/auth"
	"adboost/db"
	"adboost/db/boost"
	"adboost/db/dataset"
	"adboost/db/jobs"
	"adboost/db/mailer"
	"adboost/db/report"
	httpapi "adboost/http"
)

// open connects to the configured database, creating it first when it is
// missing and the user may. Its statements have no time limit (migrations,
// imports); serve opens its own pool with one.
func open(ctx context.Context, cfg config) (*pgxpool.Pool, error) {
	return openWith(ctx, cfg, db.Options{})
}

// openMigrated opens the database and brings its schema up to date, for
// the commands that write data (import, demo, engine).
func openMigrated(ctx context.Context, cfg config) (*pgxpool.Pool, error) {
	pool, err := open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := db.MigrateUp(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

func openWith(ctx context.Context, cfg config, opts db.Options) (*pgxpool.Pool, error) {
	if err := db.EnsureDatabase(ctx, cfg.databaseURL); err != nil {
		return nil, explainDBError(cfg.databaseURL, err)
	}
	pool, err := db.OpenWith(ctx, cfg.databaseURL, opts)
	if err != nil {
		return nil, explainDBError(cfg.databaseURL, err)
	}
	return pool, nil
}

// explainDBError says where the database is and what to do about err,
// without the password of the URL.
func explainDBError(url string, err error) error {
	c, perr := pgconn.ParseConfig(url)
	if perr != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	where := net.JoinHostPort(c.Host, strconv.Itoa(int(c.Port)))
	if strings.HasPrefix(c.Host, "/") {
		where = fmt.Sprintf("%s/.s.PGSQL.%d", c.Host, c.Port)
	}
	var pgErr *pgconn.PgError
	var connErr *pgconn.ConnectError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == pgerrcode.InsufficientPrivilege: // of CREATE DATABASE
		return fmt.Errorf("database %q does not exist on the PostgreSQL server at %s, and user %q may not create it: "+
			"create it (createdb -h %s -p %d %s), or set DATABASE_URL to an existing database: %w",
			c.Database, where, c.User, c.Host, c.Port, c.Database, err)
	case errors.As(err, &pgErr):
		return fmt.Errorf("database %q at %s: %w", c.Database, where, err)
	case errors.As(err, &connErr), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("cannot reach PostgreSQL at %s: start PostgreSQL there, or set DATABASE_URL to the server to use (%w)", where, err)
	}
	return fmt.Errorf("database %q at %s: %w", c.Database, where, err)
}

// serveGCPercent is serve's garbage collection target (GOGC) when the
// environment sets none. serve allocates for every answer and keeps little
// alive, so at Go's default (100) it collects many times a second under
// load, each collection taking CPU from the requests; at 400 it collects a
// quarter as often, for a heap of up to five times what is alive.
const serveGCPercent = 400

// setServeGC applies serveGCPercent unless GOGC is set (the runtime has
// applied that already), and answers the target in force.
func setServeGC(env func(string) (string, bool)) int {
	if v, set := env("GOGC"); !set || v == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(gogc)
	return int(gogc[0].Value.Uint64())
}

func serve(ctx context.Context, cfg config, log *slog.Logger) error {
	setServeGC(os.LookupEnv)
	tokens, err := cfg.tokens(log)
	if err != nil {
		return err
	}
	pools, err := servePools(ctx, cfg)
	if err != nil {
		return err
	}
	pool := pools.main
	// Shutdown ends within its grace of the signal, whatever still runs:
	// the wait for the jobs below is cut at hardStop, and a pool whose
	// connections are still held is then left to the process's exit
	// (PostgreSQL rolls back what they had begun).
	hardStop := make(chan struct{})
	stopClock := context.AfterFunc(ctx, func() {
		time.AfterFunc(httpapi.DefaultShutdownGrace-500*time.Millisecond, func() { close(hardStop) })
	})
	defer stopClock()
	defer func() {
		select {
		case <-hardStop:
			log.Warn("shutdown: work still running at the end of the grace is left to the exit")
		default:
			pools.close()
		}
	}()
	// Listen before anything starts working, so that a taken address stops
	// serve before any job has begun.
	ln, err := net.Listen("tcp", cfg.httpAddr)
	if err != nil {
		return err
	}
	defer ln.Close() // Serve closes it; this covers the returns before it
	unsubscribe, err := cfg.unsubscribeKey()
	if err != nil {
		return err
	}
	client, engine, err := newJobs(pool, cfg, unsubscribe, log)
	if err != nil {
		return err
	}
	metrics := newMetrics(pools)
	srv := newServer(cfg.httpAddr, newAPI(pools, cfg, tokens, client, metrics, unsubscribe, log).Handler(), log)
	stopJobs, err := startJobs(ctx, client, engine, metrics, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		select {
		case <-stopJobs():
		case <-hardStop:
			log.Warn("shutdown: the jobs did not stop within the grace")
		}
	}()
	if cfg.metricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.metricsAddr, metrics, log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	log.Info("serving", "addr", ln.Addr().String())
	go func() {
		<-ctx.Done()
		log.Info("shutting down: requests in flight may finish, those still running after 13 s are cancelled (15 s at most)")
	}()
	// Serve ends within the grace, cancelling what still runs.
	return httpapi.Serve(ctx, srv, ln, httpapi.DefaultShutdownGrace)
}

// servePool holds serve's pools, each with the statement timeout: the main
// one, the catalogue's statements planned for each request's values
// (db.CustomPlans, Config.Catalogue), and those with one generic plan
// (db.GenericPlans, Config.OnePlan).
type servePool struct {
	main, catalogue, onePlan *pgxpool.Pool
}

func (p servePool) close() {
	for _, pool := range []*pgxpool.Pool{p.onePlan, p.catalogue, p.main} {
		if pool != nil {
			pool.Close()
		}
	}
}

// servePools migrates the database, then opens serve's pools.
func servePools(ctx context.Context, cfg config) (servePool, error) {
	// Migrations may run longer than a request's statements may: they get
	// a pool of their own, without DB_STATEMENT_TIMEOUT.
	migrations, err := open(ctx, cfg)
	if err != nil {
		return servePool{}, err
	}
	err = db.MigrateUp(ctx, migrations) // River's tables, then goose's migrations
	migrations.Close()
	if err != nil {
		return servePool{}, err
	}
	var p servePool
	if p.main, err = openWith(ctx, cfg, db.Options{StatementTimeout: cfg.statementTimeout}); err != nil {
		return servePool{}, err
	}
	if p.catalogue, err = db.CustomPlans(ctx, p.main); err == nil {
		p.onePlan, err = db.GenericPlans(ctx, p.main)
	}
	if err != nil {
		p.close()
		return servePool{}, explainDBError(cfg.databaseURL, err)
	}
	return p, nil
}

// newServer is serve's HTTP server of handler.
func newServer(addr string, handler http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// newAPI makes the API of serve; its handlers insert their jobs with
// serve's River client.
func newAPI(pools servePool, cfg config, tokens *auth.Tokens, client *jobs.Client, metrics *prometheus.Registry,
	unsubscribe report.Key, log *slog.Logger) *httpapi.Server {
	switch {
	case cfg.networkAURL == "":
		log.Warn("NETWORK_A_API_URL is not set: social sign-up and sign-in answer 503")
	case !cfg.networkAApp.Set():
		log.Warn("NETWORK_A_APP_ID and NETWORK_A_APP_SECRET are not set: the network_a tokens of sign-ins are stored as given, and connections may end within hours")
	}
	return httpapi.New(httpapi.Config{
		ServiceFixedFee:       cfg.fixedFee,
		PublicBaseURL:         cfg.publicBaseURL,
		AdvertiserAccessEmail: cfg.advertiserAccessEmail,
		NetworkAAPIURL:        cfg.networkAURL,
		NetworkAApp:           cfg.networkAApp,
		TrustedProxies:        cfg.trustedProxies,
		CORSAllowedOrigins:    cfg.corsOrigins,
		Metrics:               metrics,
		MetricsElsewhere:      cfg.metricsAddr != "",
		TokenCipher:           cfg.tokenCipher,
		Jobs:                  client,
		PostMaxAge:            cfg.enginePostMaxAge,
		UnsubscribeKey:        unsubscribe,
		Catalogue:             pools.catalogue,
		OnePlan:               pools.onePlan,
	}, pools.main, tokens, log)
}

// newJobs makes serve's one River client: it sends the mails, makes the
// weekly reports and, when the engine is on (engine not nil), runs the
// engine's jobs.
func newJobs(pool *pgxpool.Pool, cfg config, unsubscribe report.Key, log *slog.Logger) (*jobs.Client, *boost.Jobs, error) {
	sender, err := mailer.New(pool, mailer.Config{SMTPURL: cfg.smtpURL, From: cfg.mailFrom}, log)
	if err != nil {
		return nil, nil, err
	}
	engine, err := engineJobs(pool, cfg, log)
	if err != nil {
		return nil, nil, err
	}
	client, err := jobs.New(pool, jobs.Options{
		Mail:        sender,
		Report:      report.NewComposer(db.New(pool), cfg.publicBaseURL, unsubscribe),
		ReportEvery: report.DefaultEvery,
		Engine:      engine,
		Log:         log,
	})
	return client, engine, err
}

// startJobs starts the River client, and, with the engine, registers its
// metrics and enqueues the reminders due at the start. The client stops
// while requests in flight finish, when ctx ends (or when the function it
// answers is called): the jobs being worked get 10 s, then their contexts
// end (a campaign's work stops between network_a calls, nothing
// half-written, and a later job resumes it; a mail being sent is finished);
// then the engine closes. The channel that function answers closes when
// all that is over.
func startJobs(ctx context.Context, client *jobs.Client, engine *boost.Jobs, metrics *prometheus.Registry,
	cfg config, log *slog.Logger) (stop func() <-chan struct{}, err error) {
	if engine != nil {
		if err := engine.RegisterMetrics(metrics, client); err != nil {
			return nil, fmt.Errorf("engine metrics: %w", err)
		}
	}
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, fmt.Errorf("river: %w", err)
	}
	if engine != nil {
		log.Info("boosting engine started", "interval", cfg.engineInterval, "post_max_age", cfg.enginePostMaxAge)
		remindAtStart(ctx, engine.Engine(), client, log)
	}
	served := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
		case <-served:
		}
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := jobs.Stop(stopCtx, client); err != nil {
			log.Warn("jobs stopped", "err", err)
		}
		if engine != nil {
			engine.Engine().Close()
		}
	}()
	return func() <-chan struct{} { close(served); return stopped }, nil
}

// remindAtStart enqueues the reminders of network_a connections that end
// soon at serve's start, whatever the interval (the cycles look too).
func remindAtStart(ctx context.Context, engine *boost.Engine, client *jobs.Client, log *slog.Logger) {
	if n, err := engine.SendReminders(ctx, client); err != nil {
		log.Error("engine: the reminders of network_a connections that end", "err", err)
	} else if n > 0 {
		log.Info("engine: reminders of network_a connections that end enqueued", "reminders", n)
	}
}

// newMetrics answers the registry of GET /metrics with the collectors of
// the process, the pool and the mail jobs' backlog; the HTTP server adds its
// request metrics, startJobs the engine's.
func newMetrics(pools servePool) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		db.NewPoolCollector(pools.main).With("catalogue", pools.catalogue).With("one_plan", pools.onePlan),
		mailer.NewCollector(pools.main),
	)
	return reg
}

// serveMetrics serves GET /metrics on addr (METRICS_ADDR) until the returned
// function is called.
func serveMetrics(addr string, reg *prometheus.Registry, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", httpapi.MetricsHandler(reg, log))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	log.Info("serving metrics", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}

func migrate(ctx context.Context, cfg config, direction string, stdout io.Writer) error {
	pool, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	m, err := db.NewMigrator(pool)
	if err != nil {
		return err
	}
	defer m.Close()
	switch direction {
	case "up":
		// River's tables first: migration 00140 moves mails into them.
		if err := db.MigrateRiver(ctx, pool); err != nil {
			return err
		}
		results, err := m.Up(ctx)
		for _, r := range results {
			fmt.Fprintf(stdout, "applied %s (%s)\n", r.Source.Path, r.Duration.Round(time.Millisecond))
		}
		if err != nil {
			return err
		}
		return db.GeoLoad(ctx, pool)
	case "down":
		r, err := m.Down(ctx)
		if r != nil {
			fmt.Fprintf(stdout, "rolled back %s\n", r.Source.Path)
		}
		return err
	case "status":
		statuses, err := m.Status(ctx)
		if err != nil {
			return err
		}
		for _, st := range statuses {
			when := "pending"
			if !st.AppliedAt.IsZero() {
				when = "applied " + st.AppliedAt.UTC().Format(time.DateTime)
			}
			fmt.Fprintf(stdout, "%-40s %s\n", st.Source.Path, when)
		}
		return nil
	}
	return fmt.Errorf("migrate %q: use up, down or status", direction)
}

func importFile(ctx context.Context, cfg config, name string, stdin io.Reader, log *slog.Logger) error {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	pool, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := (dataset.Options{TokenCipher: cfg.tokenCipher, PostMaxAge: cfg.enginePostMaxAge}).Load(ctx, pool, r); err != nil {
		return fmt.Errorf("import %s: %w (nothing was written)", name, err)
	}
	log.Info("imported", "file", name)
	return nil
}

func demo(ctx context.Context, cfg config, log *slog.Logger) error {
	pool, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	log.Info("demo data loaded", "user", "demo@adboost.example", "password", "demo-password")
	return nil
}

// engineJobs answers the engine's River jobs, or nil (with a warning) when
// the engine is off: no TOKEN_ENCRYPTION_KEY or no NETWORK_A_API_URL. With
// ENGINE_INTERVAL=0 they run no cycle, but still carry out the pauses.
func engineJobs(pool *pgxpool.Pool, cfg config, log *slog.Logger) (*boost.Jobs, error) {
	switch {
	case cfg.tokenCipher == nil:
		log.Warn("TOKEN_ENCRYPTION_KEY is not set: network_a tokens are not stored and the boosting engine is off")
		return nil, nil
	case cfg.networkAURL == "":
		log.Warn("NETWORK_A_API_URL is not set: the boosting engine is off")
		return nil, nil
	case cfg.engineInterval == 0:
		log.Info("ENGINE_INTERVAL=0: the boosting engine runs no cycle; it still pauses the campaigns that stop and reminds of connections that end at start")
	}
	e, err := newEngine(pool, cfg, nil, log)
	if err != nil {
		return nil, err
	}
	j, err := boost.NewJobs(e, cfg.engineInterval)
	if err != nil {
		e.Close()
	}
	return j, err
}

// newEngine makes the engine; client is the River client its Cycle inserts
// the mails' jobs with (nil under serve, whose River jobs bring theirs).
func newEngine(pool *pgxpool.Pool, cfg config, client *jobs.Client, log *slog.Logger) (*boost.Engine, error) {
	return boost.New(pool, boost.Config{
		NetworkAURL: cfg.networkAURL,
		Cipher:      cfg.tokenCipher,
		PostMaxAge:  cfg.enginePostMaxAge,
		Workers:     cfg.engineWorkers,
		Calls:       cfg.engineCalls,
		Jobs:        client,
	}, log)
}

// runEngine runs one cycle of the boosting engine over every campaign and
// fails naming the campaigns whose work failed.
func runEngine(ctx context.Context, cfg config, log *slog.Logger) error {
	if cfg.tokenCipher == nil {
		return errors.New("engine: TOKEN_ENCRYPTION_KEY is not set: no network_a token can be read")
	}
	if cfg.networkAURL == "" {
		return errors.New("engine: NETWORK_A_API_URL is not set")
	}
	pool, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	// The cycle's mails are sent by serve: this process only inserts them.
	client, err := jobs.InsertOnly(pool)
	if err != nil {
		return err
	}
	e, err := newEngine(pool, cfg, client, log)
	if err != nil {
		return err
	}
	defer e.Close()
	if err := e.Cycle(ctx); err != nil {
		return err
	}
	log.Info("engine: every campaign was processed")
	return nil
}
