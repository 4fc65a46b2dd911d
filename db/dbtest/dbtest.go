// Package dbtest gives each test a fresh, migrated PostgreSQL database.
//
// The server comes from, in order: TEST_DATABASE_URL; a container started with
// testcontainers-go when a Docker engine answers (image TEST_POSTGRES_IMAGE,
// default postgres:15); the local server on 127.0.0.1:5432 (user postgres).
// Migrations run once into a template database named after their hash; each
// test gets a copy (CREATE DATABASE … TEMPLATE), so tests run in parallel and
// never see each other's rows.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
	"adboost/db/geodata"
	sqlfiles "adboost/sql"
)

// LocalURL is the local server of a developer or CI machine.
const LocalURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

var (
	setupOnce sync.Once
	setupErr  error
	server    *url.URL // maintenance connection of the chosen server
	template  string   // name of the migrated template database
	stopFn    func()   // stops the container, if one was started
)

// Main runs a package's tests and then stops the container they used. Call it
// from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if stopFn != nil {
		stopFn()
	}
	os.Exit(code)
}

// New returns a pool to a new database for this test, with every migration
// applied. The database is dropped when the test ends.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return NewPool(t, NewURL(t))
}

// NewURL creates a new database for this test, a copy of the migrated
// template, and answers its connection string.
func NewURL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, true)
}

// NewEmptyURL creates a new database for this test with no migration
// applied, for the tests of the migrations themselves, and answers its
// connection string.
func NewEmptyURL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, false)
}

// Collation is the default collation of a database of NewCollatedURL: the
// C library's locale (Provider "libc", e.g. "C", "C.UTF-8") or ICU's
// (Provider "icu", e.g. "en-US").
type Collation struct {
	Provider, Locale string
}

// NewCollatedURL creates a new database for this test whose default
// collation is c, with every migration applied (from template0, so it is
// migrated here, slower than NewURL), and answers its connection string.
func NewCollatedURL(t testing.TB, c Collation) string {
	t.Helper()
	options := " LOCALE_PROVIDER libc LC_COLLATE " + quote(c.Locale) + " LC_CTYPE " + quote(c.Locale)
	if c.Provider == "icu" {
		options = " LOCALE_PROVIDER icu ICU_LOCALE " + quote(c.Locale) + " LC_COLLATE 'C' LC_CTYPE 'C'"
	}
	url := createDatabase(t, " TEMPLATE template0 ENCODING 'UTF8'"+options)
	pool := NewPool(t, url)
	if err := db.MigrateUp(context.Background(), pool); err != nil {
		t.Fatalf("dbtest: migrate a database collated %s %s: %v", c.Provider, c.Locale, err)
	}
	return url
}

// quote is s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// newDatabase creates a database dropped when the test ends, a copy of the
// migrated template or an empty one.
func newDatabase(t testing.TB, migrated bool) string {
	t.Helper()
	ensureSetup(t)
	if !migrated {
		return createDatabase(t, "")
	}
	return createDatabase(t, " TEMPLATE "+pgx.Identifier{template}.Sanitize())
}

// ensureSetup chooses the server and builds the template, once.
func ensureSetup(t testing.TB) {
	t.Helper()
	setupOnce.Do(func() { setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("dbtest: %v", setupErr)
	}
}

// createDatabase creates a database with the options of CREATE DATABASE
// given, dropped when the test ends, and answers its connection string.
func createDatabase(t testing.TB, options string) string {
	t.Helper()
	ensureSetup(t)
	ctx := context.Background()
	name := "adboost_test_" + strings.ToLower(rand.Text()[:12])
	admin, err := pgx.Connect(ctx, server.String())
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+options); err != nil {
		t.Fatalf("dbtest: create database: %v", err)
	}
	t.Cleanup(func() {
		admin, err := pgx.Connect(ctx, server.String())
		if err != nil {
			t.Errorf("dbtest: drop %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("dbtest: drop %s: %v", name, err)
		}
	})
	return withDatabase(server, name)
}

// Source tells which server the tests use, for the log.
func Source() string { return source }

var source string

func setup() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	raw := os.Getenv("TEST_DATABASE_URL")
	switch {
	case raw != "":
		source = "TEST_DATABASE_URL"
	default:
		var err error
		raw, stopFn, err = startContainer(ctx)
		switch {
		case err == nil:
			source = "testcontainers (image " + containerImage() + ")"
		case err == errNoDocker:
			raw, source = LocalURL, "the local server at 127.0.0.1:5432 (no Docker engine answered)"
		default:
			report(fmt.Sprintf("WARNING: Docker answered but the PostgreSQL container failed: %v", err))
			report("WARNING: falling back to the local server at 127.0.0.1:5432")
			raw, source = LocalURL, "the local server at 127.0.0.1:5432 (the container failed)"
		}
	}
	report("PostgreSQL from " + source)
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("database URL: %w", err)
	}
	server = u
	template, err = templateName()
	if err != nil {
		return err
	}
	return ensureTemplate(ctx)
}

// templateName is derived from the migrations and the geographic data that
// MigrateUp loads, so a changed schema or data set gets a template of its own.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(sqlfiles.Migrations, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := sqlfiles.Migrations.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "geodata\x00%s", geodata.Fingerprint())
	return "adboost_tpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// ensureTemplate builds the template once per schema, under an advisory lock
// so that test binaries running at once do not build it twice. It is built
// under a temporary name and renamed when complete, so a half-built template
// is never copied.
func ensureTemplate(ctx context.Context) error {
	admin, err := pgx.Connect(ctx, server.String())
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(hashtext('adboost dbtest template'))"); err != nil {
		return err
	}
	defer admin.Exec(ctx, "SELECT pg_advisory_unlock(hashtext('adboost dbtest template'))")
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", template).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	building := template + "_building"
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{building}.Sanitize()+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{building}.Sanitize()); err != nil {
		return err
	}
	pool, err := db.Open(ctx, withDatabase(server, building))
	if err != nil {
		return err
	}
	err = db.MigrateUp(ctx, pool)
	pool.Close()
	if err != nil {
		return fmt.Errorf("migrating the template: %w", err)
	}
	_, err = admin.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s",
		pgx.Identifier{building}.Sanitize(), pgx.Identifier{template}.Sanitize()))
	return err
}

func withDatabase(u *url.URL, name string) string {
	c := *u
	c.Path = "/" + name
	return c.String()
}

// NewPool opens a pool to a database of NewURL, closed when the test ends.
func NewPool(t testing.TB, url string) *pgxpool.Pool {
	t.Helper()
	pool, err := db.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// report tells which server the tests use: on standard error, and appended to
// the file DBTEST_REPORT names, where `make test` collects it from every
// package (go test shows nothing of a passing package but its "ok").
func report(line string) {
	line = fmt.Sprintf("dbtest: %s: %s\n", strings.TrimSuffix(filepath.Base(os.Args[0]), ".test"), line)
	fmt.Fprint(os.Stderr, line)
	if path := os.Getenv("DBTEST_REPORT"); path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			_, _ = f.WriteString(line)
			_ = f.Close()
		}
	}
}
