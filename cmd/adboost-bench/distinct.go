package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The values of the generated data set (generate.sql) that the distinct
// mode draws its requests from: real title words, countries, city and
// region keys, vertical slugs, objectives, agencies, presets, sources,
// campaigns and posts.
var (
	titleWords = strings.Split("amazing,bold,bright,calm,classic,cool,daily,deep,direct,early,easy,epic,fast,fresh,"+
		"global,golden,grand,great,happy,local,lucky,major,modern,native,noble,prime,pure,quick,rapid,royal,smart,"+
		"solid,spring,sport,steady,summer,super,urban,vivid,winter", ",")
	countries = strings.Split("US,CA,GB,DE,FR,ES,IT,NL,PL,CZ,AT,CH,SE,NO,DK,FI,IE,PT,BE,BR,MX,AR,AU,NZ,JP,KR,IN,ZA,EG,TR,UA", ",")
	verticals = strings.Split("fitness,health,food,fashion,beauty,travel,real-estate,education,tech,events,automotive", ",")
	goals     = []string{"OUTCOME_AWARENESS", "OUTCOME_TRAFFIC", "OUTCOME_ENGAGEMENT", "OUTCOME_LEADS",
		"OUTCOME_APP_PROMOTION", "OUTCOME_SALES"}
	agencySearches = strings.Split("fitness,Food,travel,FASHION,brands,boost,Prague,berlin,London,paris,New York,york", ",")
)

// draw is the n-th request's source of values: a splitmix64 sequence
// seeded by n, so that the requests are the same from run to run. The seed
// is n mixed, so that the sequences of n and n+1 do not overlap.
type draw struct{ state uint64 }

func newDraw(n uint64) *draw { return &draw{state: mix(n)} }

func (d *draw) next() uint64 {
	d.state += 0x9E3779B97F4A7C15
	return mix(d.state)
}

// mix is splitmix64's finalizer: a bijection of the 64-bit values that
// spreads neighbours apart.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn answers a value in [0, n).
func (d *draw) intn(n int) int { return int(d.next() % uint64(n)) }

// between answers a value in [lo, hi].
func (d *draw) between(lo, hi int) int { return lo + d.intn(hi-lo+1) }

func (d *draw) pick(s []string) string { return s[d.intn(len(s))] }

// chance is true with probability p.
func (d *draw) chance(p float64) bool { return float64(d.next()>>11)/(1<<53) < p }

// zipf answers 1..n with probability about 1/k for k, as generate.sql
// spreads the presets over the agencies.
func (d *draw) zipf(n int) int {
	u := float64(d.next()>>11) / (1 << 53)
	return max(1, min(n, int(math.Floor(math.Pow(float64(n), u)))))
}

// dataset is what the distinct mode needs to know of the data set's scale.
type dataset struct {
	Presets, Agencies, Campaigns, Posts int
}

func newDataset(s scale) dataset {
	return dataset{Presets: s.Presets, Agencies: max(10, s.Presets/100), Campaigns: s.Campaigns, Posts: s.Posts}
}

// excluded is the n-th request's excluded preset: a real preset id, every
// id once in each run of Presets requests (n times a prime that does not
// divide the count, modulo the count), so that no two requests of a run
// share it and every body is distinct.
func (ds dataset) excluded(n uint64) int {
	const prime = 2_147_483_629
	p := uint64(max(ds.Presets, 1))
	if p%prime == 0 {
		return int(n%p) + 1
	}
	return int((n*prime)%p) + 1
}

// prefix is a title prefix a user types: the first 1 to 4 letters of a
// title word, capitalised as titles start.
func (d *draw) prefix() string {
	w := d.pick(titleWords)
	w = strings.ToUpper(w[:1]) + w[1:]
	return w[:d.between(1, min(4, len(w)))]
}

// location is one of the data set's location keys: a country (half the
// time), a city or a region, with its type or without one.
func (d *draw) location() map[string]any {
	var l map[string]any
	switch d.intn(4) {
	case 0:
		l = map[string]any{"value": strconv.Itoa(5_000_000 + d.intn(5000)), "type": "city"}
	case 1:
		l = map[string]any{"value": "US-R" + strconv.Itoa(d.intn(200)), "type": "region"}
	default:
		l = map[string]any{"value": d.pick(countries), "type": "country"}
	}
	if d.chance(0.5) {
		delete(l, "type")
	}
	return l
}

// combination is a random combination of the catalogue's filters: each
// filter given with probability p.
func (ds dataset) combination(d *draw, p float64) map[string]any {
	f := map[string]any{}
	if d.chance(p) {
		f["goal"] = d.pick(goals)
	}
	if d.chance(p) {
		f["vertical"] = d.pick(verticals)
	}
	if d.chance(p) {
		f["agency_id"] = d.zipf(ds.Agencies)
	}
	if d.chance(p / 2) {
		if a, ok := f["agency_id"]; ok && d.chance(0.5) {
			f["partner_id"] = a
		} else {
			f["partner_id"] = d.zipf(ds.Agencies)
		}
	}
	if d.chance(p) {
		f["preset_name"] = d.prefix()
	}
	if d.chance(p) {
		f["location"] = d.location()
	}
	return f
}

func body(m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // maps of strings and numbers
	}
	return string(b)
}

// presets is the distinct form of a presets/browse or count route: the
// filters that vary makes for the n-th request, and the real excluded
// preset that makes every body distinct.
func presets(vary func(ds dataset, d *draw) map[string]any) func(ds dataset, n uint64) (string, string) {
	return func(ds dataset, n uint64) (string, string) {
		m := vary(ds, newDraw(n))
		m["excluded_preset_id"] = ds.excluded(n)
		return "", body(m)
	}
}

// statsRange is a range of days of the data set's year (ending
// yesterday): days long, ending on a day of that year.
func statsRange(d *draw, days int) (string, string) {
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	to := yesterday.AddDate(0, 0, -d.intn(366-days))
	return to.AddDate(0, 0, 1-days).Format(time.DateOnly), to.Format(time.DateOnly)
}

// postIDs is a comma-separated list of k distinct post ids of the data set.
func (ds dataset) postIDs(d *draw, k int) string {
	k = min(k, ds.Posts)
	seen := make(map[int]bool, k)
	ids := make([]string, 0, k)
	for len(ids) < k {
		id := 1 + d.intn(ds.Posts)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, strconv.Itoa(id))
		}
	}
	return strings.Join(ids, ",")
}

// source is one of the benchmark user's sources: one of its 200 network_a
// pages or 50 network_b accounts (generate.sql).
func (d *draw) source() int {
	if d.chance(0.8) {
		return 1_000_000_000 + d.between(1, 200)
	}
	return 2_000_000_100 + d.between(1, 50)
}

func campaignFilter(d *draw) map[string]any {
	return map[string]any{"status": d.pick([]string{"all", "active"}), "platform": d.pick([]string{"all", "network_a", "network_b"})}
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
