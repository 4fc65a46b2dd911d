// Command adboost-schema writes sql/schema.sql, the schema as it stands:
// it creates a throwaway database on the test server, applies every goose
// migration and River's migrations as `adboost serve` does, dumps the
// schema with pg_dump --schema-only, normalises the dump so that it is the
// same on every run and every minor release, and writes it under the
// header of the file it replaces (the part above Marker, which people
// write). `make schema` runs it; `make check-schema` writes elsewhere and
// compares.
//
//	adboost-schema [-server URL] [-pg-dump PATH] [-header sql/schema.sql] [-out sql/schema.sql]
//
// The server is TEST_DATABASE_URL, else the local one at 127.0.0.1:5432,
// as for the tests; it has to be PostgreSQL 15 (PostgresMajor), and so does
// pg_dump: another major release prints another dump of the same schema.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// LocalURL is the local server of a developer or CI machine, the tests'
// fallback too.
const LocalURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

func main() {
	server := flag.String("server", defaultServer(), "maintenance connection of the server on which the throwaway database is made")
	pgDump := flag.String("pg-dump", os.Getenv("PG_DUMP"), "pg_dump of PostgreSQL 15 (default $PG_DUMP, else /usr/lib/postgresql/15/bin/pg_dump, else pg_dump on PATH)")
	header := flag.String("header", "sql/schema.sql", "the file whose header (the lines down to the marker) is kept")
	out := flag.String("out", "sql/schema.sql", "the file to write")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "adboost-schema: no arguments expected")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, *server, *pgDump, *header, *out); err != nil {
		fmt.Fprintln(os.Stderr, "adboost-schema:", err)
		os.Exit(1)
	}
}

func defaultServer() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return LocalURL
}

// run writes to out the header of headerPath followed by the normalised dump
// of a database that every migration has built.
func run(ctx context.Context, server, pgDump, headerPath, out string) error {
	old, err := os.ReadFile(headerPath)
	if err != nil {
		return err
	}
	head, err := Header(string(old))
	if err != nil {
		return fmt.Errorf("%s: %w", headerPath, err)
	}
	raw, err := dumpMigrated(ctx, server, pgDump)
	if err != nil {
		return err
	}
	return writeFile(out, head+Normalise(raw))
}

// writeFile replaces path whole: a failure leaves the old file as it was.
func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schema-*.sql")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
