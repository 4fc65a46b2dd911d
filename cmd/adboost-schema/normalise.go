package main

import (
	"errors"
	"regexp"
	"strings"
)

// Marker is the line of sql/schema.sql that ends its header: the lines down
// to it are people's and are kept; the lines after it are the dump.
const Marker = "-- ==== Below: written by `make schema` (pg_dump --schema-only of PostgreSQL 15). Edit only the header above. ===="

// Header answers the lines of file down to and including Marker, or an error
// when file has no such line.
func Header(file string) (string, error) {
	i := strings.Index(file, "\n"+Marker+"\n")
	switch {
	case strings.HasPrefix(file, Marker+"\n"):
		return Marker + "\n", nil
	case i < 0:
		return "", errors.New("no marker line " + Marker + ": restore the header from git")
	}
	return file[:i+len(Marker)+2], nil
}

var (
	// dropped are the lines of a dump that hold no schema: the settings of
	// the restoring session, the keys of \restrict (random at every run) and
	// the versions of the server and of pg_dump.
	dropped = regexp.MustCompile(`^(SET \w+ = .*;` +
		`|SELECT pg_catalog\.set_config\('search_path', '', false\);` +
		`|\\(un)?restrict .*` +
		`|-- Dumped (from database|by pg_dump) version .*)$`)
	// titled is the middle line of pg_dump's three-line titles ("--", a
	// title, "--"), which repeat what the statement after them says.
	titled = regexp.MustCompile(`^-- (Name: .*; Type: .*; Schema: .*; Owner: .*` +
		`|PostgreSQL database dump( complete)?)$`)
)

// Normalise answers dump without what changes from run to run or from one
// minor release to the next and without pg_dump's titles: the statements
// in pg_dump's order, one blank line between them. Function bodies stay as
// written but for runs of blank lines: only the exact lines that pg_dump
// prints are dropped.
func Normalise(dump string) string {
	lines := strings.Split(strings.ReplaceAll(dump, "\r\n", "\n"), "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "--" && i+2 < len(lines) && titled.MatchString(lines[i+1]) && lines[i+2] == "--" {
			i += 2
			continue
		}
		if dropped.MatchString(line) {
			continue
		}
		if line == "" && (len(kept) == 0 || kept[len(kept)-1] == "") {
			continue
		}
		kept = append(kept, line)
	}
	for len(kept) > 0 && kept[len(kept)-1] == "" {
		kept = kept[:len(kept)-1]
	}
	return "\n" + strings.Join(kept, "\n") + "\n"
}
