package db

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	neturl "net/url"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultURL is the database of a developer machine: the local server,
// database adboost.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/adboost?sslmode=disable"

// Options tune the pool that Open returns; the zero value is a pool without
// a statement timeout, for migrations, imports and the demo.
type Options struct {
	// StatementTimeout bounds every statement of the pool's connections
	// (PostgreSQL's statement_timeout; a statement that runs longer fails
	// with SQLSTATE 57014). 0: none, unless the URL sets one. A
	// statement_timeout given in the URL wins.
	StatementTimeout time.Duration
}

// Open returns a connection pool to url and checks that the server answers.
// Statements are prepared once per connection and cached (pgx's default
// QueryExecModeCacheStatement). The pool holds the URL's pool_max_conns
// connections at most, else DefaultMaxConns().
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {
	return OpenWith(ctx, url, Options{})
}

// OpenWith is Open with options: the serving pool's statement timeout.
func OpenWith(ctx context.Context, url string, opts Options) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	if !hasPoolMaxConns(url) {
		cfg.MaxConns = DefaultMaxConns()
	}
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	if cfg.ConnConfig.RuntimeParams == nil {
		cfg.ConnConfig.RuntimeParams = map[string]string{}
	}
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	cfg.ConnConfig.RuntimeParams["application_name"] = "adboost"
	// adboost's statements are short and many run at once: a parallel
	// plan's workers cost more to start than they save and take cores from
	// the other requests, and JIT compiling a plan whose estimate is large
	// (an arm of a catalogue statement that its condition never starts)
	// costs tens of milliseconds. The URL may set either.
	for name, value := range map[string]string{"max_parallel_workers_per_gather": "0", "jit": "off"} {
		if _, set := cfg.ConnConfig.RuntimeParams[name]; !set {
			cfg.ConnConfig.RuntimeParams[name] = value
		}
	}
	if _, set := cfg.ConnConfig.RuntimeParams["statement_timeout"]; !set && opts.StatementTimeout > 0 {
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(max(opts.StatementTimeout.Milliseconds(), 1), 10)
	}
	cfg.AfterConnect = registerJSON
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// CustomPlans opens a second pool to the database of pool, with its
// settings, whose connections plan every execution of a prepared statement
// for the values it runs with (plan_cache_mode=force_custom_plan), never
// with a generic plan. It serves the statements whose optional filters
// only a plan made for the values can drop (the catalogue's lists and
// counts): prepared once per connection, as in every pool of Open, so that
// each execution is planned but not parsed and analysed again.
func CustomPlans(ctx context.Context, pool *pgxpool.Pool) (*pgxpool.Pool, error) {
	return withPlanCacheMode(ctx, pool, "force_custom_plan")
}

// GenericPlans opens a pool to the database of pool, with its settings,
// whose connections run every prepared statement with its generic plan
// (plan_cache_mode=force_generic_plan), made once per connection. It
// serves the statements that one plan serves for every value (the
// catalogue's pages of one filter and their cards). PostgreSQL's own
// choice would plan them for each execution: a LIMIT or OFFSET that is a
// parameter is costed, in the generic plan, for a tenth of the rows, so
// that plan never looks cheaper than one made for the values, and the
// planning costs as much as the reading.
func GenericPlans(ctx context.Context, pool *pgxpool.Pool) (*pgxpool.Pool, error) {
	return withPlanCacheMode(ctx, pool, "force_generic_plan")
}

// withPlanCacheMode opens a pool like pool whose connections run with
// plan_cache_mode set to mode.
func withPlanCacheMode(ctx context.Context, pool *pgxpool.Pool, mode string) (*pgxpool.Pool, error) {
	cfg := pool.Config()
	cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = mode
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := p.Ping(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// DefaultMaxConns is the pool size when DATABASE_URL sets no
// pool_max_conns: 4 connections a core (as the Go scheduler sees them,
// container limits included), at least 8.
func DefaultMaxConns() int32 {
	return int32(max(8, 4*runtime.GOMAXPROCS(0)))
}

// hasPoolMaxConns tells whether a connection string (URL or keyword/value
// form) sets pool_max_conns.
func hasPoolMaxConns(connString string) bool {
	if u, err := neturl.Parse(connString); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		return u.Query().Has("pool_max_conns")
	}
	return poolMaxConnsKeyword.MatchString(connString)
}

var poolMaxConnsKeyword = regexp.MustCompile(`(^|\s)pool_max_conns\s*=`)

// EnsureDatabase creates the database that url names when the server says it
// does not exist, connecting to the server's `postgres` database to do so.
func EnsureDatabase(ctx context.Context, url string) error {
	poolCfg, err := pgxpool.ParseConfig(url) // takes the pool_* parameters out
	if err != nil {
		return fmt.Errorf("database URL: %w", err)
	}
	cfg := poolCfg.ConnConfig
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err == nil {
		return conn.Close(ctx)
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != pgerrcode.InvalidCatalogName {
		return err
	}
	name := cfg.Database
	cfg.Database = "postgres"
	admin, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created meanwhile
		return nil
	}
	return err
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled
// back otherwise.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(q *Queries) error) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return fn(New(tx))
	})
}

// registerJSON has the connection read json and jsonb values into
// json.RawMessage (the type the queries give them, sqlc.yaml) as the bytes
// PostgreSQL sent: its output is valid JSON, so pgx's default, which runs
// json.Unmarshal into the RawMessage and so validates every value again,
// only costs time. Other targets are unmarshalled as before.
func registerJSON(_ context.Context, conn *pgx.Conn) error {
	m := conn.TypeMap()
	m.RegisterType(&pgtype.Type{Name: "json", OID: pgtype.JSONOID,
		Codec: &pgtype.JSONCodec{Marshal: json.Marshal, Unmarshal: unmarshalJSON}})
	m.RegisterType(&pgtype.Type{Name: "jsonb", OID: pgtype.JSONBOID,
		Codec: &pgtype.JSONBCodec{Marshal: json.Marshal, Unmarshal: unmarshalJSON}})
	return nil
}

// unmarshalJSON copies a value from PostgreSQL into a *json.RawMessage as
// it is, and unmarshals it into anything else.
func unmarshalJSON(data []byte, v any) error {
	if raw, ok := v.(*json.RawMessage); ok {
		*raw = bytes.Clone(data)
		return nil
	}
	return json.Unmarshal(data, v)
}
