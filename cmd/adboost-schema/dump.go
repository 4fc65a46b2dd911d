package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"adboost/db"
)

// PostgresMajor is the release whose dump sql/schema.sql is: the one of CI's
// local server and of the test image (adboost-postgres:15).
const PostgresMajor = 15

// dumpMigrated makes a database on server from template0 (nothing the
// server's template1 holds gets in), applies every migration to it, answers
// pg_dump's schema of it, and drops it.
func dumpMigrated(ctx context.Context, server, pgDump string) (string, error) {
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", fmt.Errorf("the server: %w", err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	if err := checkServer(ctx, admin); err != nil {
		return "", err
	}
	pgDump, err = findPgDump(pgDump)
	if err != nil {
		return "", err
	}
	name := pgx.Identifier{"adboost_schema_" + strings.ToLower(rand.Text()[:12])}.Sanitize()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	defer admin.Exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	u, err := url.Parse(server)
	if err != nil {
		return "", fmt.Errorf("the server's URL: %w", err)
	}
	u.Path = "/" + strings.Trim(name, `"`)
	if err := migrate(ctx, u.String()); err != nil {
		return "", err
	}
	return runPgDump(ctx, pgDump, u.String())
}

// checkServer refuses a server of another major release than PostgresMajor.
func checkServer(ctx context.Context, admin *pgx.Conn) error {
	var num string
	if err := admin.QueryRow(ctx, "SHOW server_version_num").Scan(&num); err != nil {
		return err
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return fmt.Errorf("server_version_num %q: %w", num, err)
	}
	if n/10000 != PostgresMajor {
		return fmt.Errorf("the server is PostgreSQL %d, and sql/schema.sql is the dump of PostgreSQL %d: "+
			"set TEST_DATABASE_URL (or -server) to a PostgreSQL %d server", n/10000, PostgresMajor, PostgresMajor)
	}
	return nil
}

// migrate applies what `adboost serve` applies before it serves: River's
// tables, the goose migrations and the geographic data (which the
// schema-only dump leaves out).
func migrate(ctx context.Context, dbURL string) error {
	pool, err := db.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	return db.MigrateUp(ctx, pool)
}

var pgDumpVersion = regexp.MustCompile(`^pg_dump \(PostgreSQL\) (\d+)[.\s]`)

// findPgDump answers the pg_dump to run: the one given, else the Debian
// path of PostgresMajor's, else the one on PATH; whichever it is has to be
// of PostgresMajor.
func findPgDump(given string) (string, error) {
	candidates := []string{given}
	if given == "" {
		candidates = []string{fmt.Sprintf("/usr/lib/postgresql/%d/bin/pg_dump", PostgresMajor), "pg_dump"}
	}
	var tried []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			tried = append(tried, c+": not found")
			continue
		}
		out, err := exec.Command(path, "--version").Output()
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s --version: %v", path, err))
			continue
		}
		m := pgDumpVersion.FindSubmatch(out)
		if m != nil && string(m[1]) == strconv.Itoa(PostgresMajor) {
			return path, nil
		}
		first, _, _ := bytes.Cut(out, []byte("\n"))
		tried = append(tried, fmt.Sprintf("%s is %q", path, first))
	}
	return "", fmt.Errorf("no pg_dump of PostgreSQL %d (%s): install postgresql-client-%d or set PG_DUMP",
		PostgresMajor, strings.Join(tried, "; "), PostgresMajor)
}

// runPgDump answers the schema of the database at dbURL as pg_dump prints
// it, without owners and privileges (those of the throwaway database say
// nothing of a deployment's) and without goose's table of applied versions.
func runPgDump(ctx context.Context, pgDump, dbURL string) (string, error) {
	cmd := exec.CommandContext(ctx, pgDump, "--schema-only", "--no-owner", "--no-privileges",
		"--exclude-table=public.goose_db_version", "--dbname="+dbURL)
	// Settings of the environment that could change the text are left out.
	cmd.Env = append(os.Environ(), "PGCLIENTENCODING=UTF8", "PGTZ=UTC", "PGOPTIONS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("pg_dump: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if stdout.Len() == 0 {
		return "", errors.New("pg_dump printed nothing")
	}
	return stdout.String(), nil
}
