package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A dump as pg_dump 15.14 and later prints it, shortened.
const sampleDump = `--
-- PostgreSQL database dump
--

\restrict QTZ2IaLeIHN6KV8dG8uoJBTN6qemhjLFIPVobHwHubUUIgX34hOcuxaimyB40Vq

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET client_encoding = 'UTF8';
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;

--
-- Name: river_report; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA river_report;


--
-- Name: f(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.f() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public'
    AS $$
--
-- Name: kept, a comment of the body; Type: x; Schema: y; Owner: z
BEGIN
    -- a comment of the body
    RETURN NULL;
END
$$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: t; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.t (
    id bigint NOT NULL
);


--
-- PostgreSQL database dump complete
--

\unrestrict QTZ2IaLeIHN6KV8dG8uoJBTN6qemhjLFIPVobHwHubUUIgX34hOcuxaimyB40Vq

`

const sampleNormalised = `
CREATE SCHEMA river_report;

CREATE FUNCTION public.f() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'public'
    AS $$
--
-- Name: kept, a comment of the body; Type: x; Schema: y; Owner: z
BEGIN
    -- a comment of the body
    RETURN NULL;
END
$$;

CREATE TABLE public.t (
    id bigint NOT NULL
);
`

func TestNormalise(t *testing.T) {
	if got := Normalise(sampleDump); got != sampleNormalised {
		t.Errorf("Normalise:\n%s\nwant:\n%s", got, sampleNormalised)
	}
	// Another run's key, another minor release: the same text.
	other := strings.NewReplacer("QTZ2IaLeIHN6KV8dG8uoJBTN6qemhjLFIPVobHwHubUUIgX34hOcuxaimyB40Vq", "abc",
		"15.20 (Debian 15.20-0+deb12u1)", "15.21").Replace(sampleDump)
	if got := Normalise(other); got != sampleNormalised {
		t.Errorf("Normalise of another run:\n%s\nwant:\n%s", got, sampleNormalised)
	}
}

func TestHeader(t *testing.T) {
	file := "-- a header\n--\n" + Marker + "\n\nCREATE TABLE public.t ();\n"
	got, err := Header(file)
	if want := "-- a header\n--\n" + Marker + "\n"; err != nil || got != want {
		t.Errorf("Header = %q, %v; want %q", got, err, want)
	}
	if got, err := Header(Marker + "\nx\n"); err != nil || got != Marker+"\n" {
		t.Errorf("Header of a marker alone = %q, %v", got, err)
	}
	if _, err := Header("-- a header\nCREATE TABLE public.t ();\n"); err == nil {
		t.Error("Header of a file without the marker: no error")
	}
}

var createTrigger = regexp.MustCompile(`(?m)^CREATE TRIGGER (\w+) .* ON (\S+) `)

// schemaTriggers answers the triggers of sql/schema.sql ("name ON table")
// and the file's header.
func schemaTriggers(t *testing.T) (triggers []string, header string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "sql", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	header, err = Header(string(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range createTrigger.FindAllStringSubmatch(string(b)[len(header):], -1) {
		triggers = append(triggers, m[1]+" ON "+strings.TrimPrefix(m[2], "public."))
	}
	if len(triggers) == 0 {
		t.Fatal("sql/schema.sql has no CREATE TRIGGER")
	}
	return triggers, header
}

// The header of sql/schema.sql says what every trigger keeps: a trigger
// that it does not name is one whose purpose a DBA has to dig out of the
// migrations.
func TestSchemaHeaderNamesEveryTrigger(t *testing.T) {
	triggers, header := schemaTriggers(t)
	for _, tr := range triggers {
		name, _, _ := strings.Cut(tr, " ")
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(header) {
			t.Errorf("trigger %s: the header of sql/schema.sql does not name it (say what it keeps and the read it serves)", tr)
		}
	}
}

// Every trigger of the schema is created by a CREATE TRIGGER statement of a
// migration that names it and its table, so that a search finds it (none is
// made in a loop of EXECUTE format).
func TestMigrationsWriteOutEveryTrigger(t *testing.T) {
	triggers, _ := schemaTriggers(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "sql", "migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("migrations: %v", err)
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, tr := range triggers {
		name, table, _ := strings.Cut(tr, " ON ")
		written := regexp.MustCompile(`(?is)CREATE\s+(OR\s+REPLACE\s+)?TRIGGER\s+` + name + `\s[^;]*?\sON\s+(public\.)?` + table + `\s`)
		if !written.MatchString(all.String()) {
			t.Errorf("trigger %s: no migration has CREATE TRIGGER %s ... ON %s written out", tr, name, table)
		}
	}
}
