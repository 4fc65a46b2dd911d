// Package geodata holds the geographic targeting data of the service:
// countries (ISO 3166-1), their first-level subdivisions (ISO 3166-2) and
// the cities of at least 15,000 inhabitants from GeoNames.
//
// The data files are generated from public data sets by
// "go run ./cmd/adboost-geodata" and embedded here; SOURCES.md lists the
// sources, their versions and licences. City data is from GeoNames
// (https://www.geonames.org/), licensed under CC BY 4.0.
package geodata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Country is an ISO 3166-1 country.
type Country struct {
	Code string // ISO 3166-1 alpha-2, e.g. "CZ"
	Name string // English name, e.g. "Czechia"
}

// Region is a first-level ISO 3166-2 subdivision.
type Region struct {
	Key         string // ISO 3166-2 code, e.g. "CZ-10"
	CountryCode string // ISO 3166-1 alpha-2
	Name        string // e.g. "Prague"
}

// City is a GeoNames populated place.
type City struct {
	ID          int64  // GeoNames geonameid
	Name        string // e.g. "Prague"
	CountryCode string // ISO 3166-1 alpha-2
	RegionKey   string // ISO 3166-2 code of its region, or "" if none matched
	RegionName  string // English name of its GeoNames admin1 division, or ""
	Population  int64
}

var (
	//go:embed countries.tsv
	countriesTSV []byte
	//go:embed regions.tsv
	regionsTSV []byte
	//go:embed cities.tsv.gz
	citiesTSVGz []byte
)

var (
	countriesOnce = sync.OnceValues(func() ([]Country, error) {
		var out []Country
		err := parse("countries.tsv", bytes.NewReader(countriesTSV), []string{"code", "name"}, func(f []string) error {
			out = append(out, Country{Code: f[0], Name: f[1]})
			return nil
		})
		return out, err
	})
	regionsOnce = sync.OnceValues(func() ([]Region, error) {
		var out []Region
		err := parse("regions.tsv", bytes.NewReader(regionsTSV), []string{"key", "country", "name"}, func(f []string) error {
			out = append(out, Region{Key: f[0], CountryCode: f[1], Name: f[2]})
			return nil
		})
		return out, err
	})
	citiesOnce = sync.OnceValues(func() ([]City, error) {
		zr, err := gzip.NewReader(bytes.NewReader(citiesTSVGz))
		if err != nil {
			return nil, fmt.Errorf("geodata: cities.tsv.gz: %w", err)
		}
		defer zr.Close()
		out := make([]City, 0, 27000)
		cols := []string{"geonameid", "name", "country", "region_key", "region_name", "population"}
		err = parse("cities.tsv.gz", zr, cols, func(f []string) error {
			id, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return err
			}
			pop, err := strconv.ParseInt(f[5], 10, 64)
			if err != nil {
				return err
			}
			out = append(out, City{ID: id, Name: f[1], CountryCode: f[2], RegionKey: f[3], RegionName: f[4], Population: pop})
			return nil
		})
		return out, err
	})
)

// Countries returns all ISO 3166-1 countries, ordered by code.
// The caller owns the returned slice.
func Countries() ([]Country, error) {
	c, err := countriesOnce()
	return slices.Clone(c), err
}

// Regions returns the first-level ISO 3166-2 subdivisions of all countries,
// ordered by key. The caller owns the returned slice.
func Regions() ([]Region, error) {
	r, err := regionsOnce()
	return slices.Clone(r), err
}

// Cities returns the GeoNames places of at least 15,000 inhabitants,
// ordered by country, region and descending population. The caller owns
// the returned slice.
func Cities() ([]City, error) {
	c, err := citiesOnce()
	return slices.Clone(c), err
}

// parse reads a tab-separated file whose first line is the header want,
// calling row for every other line.
func parse(name string, r io.Reader, want []string, row func([]string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(sc.Text(), "\t")
		if len(f) != len(want) {
			return fmt.Errorf("geodata: %s:%d: %d fields, want %d", name, line, len(f), len(want))
		}
		if line == 1 {
			if !slices.Equal(f, want) {
				return fmt.Errorf("geodata: %s: header %q, want %q", name, f, want)
			}
			continue
		}
		if err := row(f); err != nil {
			return fmt.Errorf("geodata: %s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("geodata: %s: %w", name, err)
	}
	if line < 2 {
		return fmt.Errorf("geodata: %s: no rows", name)
	}
	return nil
}

// Fingerprint identifies this version of the data: it changes whenever a data
// file does (test harnesses key their template databases on it).
func Fingerprint() string {
	h := sha256.New()
	for _, b := range [][]byte{countriesTSV, regionsTSV, citiesTSVGz} {
		fmt.Fprintf(h, "%d\x00", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
