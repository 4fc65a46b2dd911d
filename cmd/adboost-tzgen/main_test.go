package main

import (
	"bytes"
	"os"
	"testing"
)

// The committed list is what the toolchain's database makes: run
// `make timezones` when Go's time zone database changes.
func TestTimezonesInStep(t *testing.T) {
	zipPath, err := defaultZip()
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../db/rules/timezones.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("db/rules/timezones.gen.go is not the list of Go's time zone database: run make timezones")
	}
}

// A database that is not one is an error.
func TestGenerateFails(t *testing.T) {
	if _, err := generate("main.go"); err == nil {
		t.Fatal("a file that is not a zip")
	}
	if _, err := generate("no-such.zip"); err == nil {
		t.Fatal("a missing file")
	}
}
