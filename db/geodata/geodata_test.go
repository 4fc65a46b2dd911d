package geodata

import (
	"regexp"
	"testing"
)

func TestCountries(t *testing.T) {
	cs, err := Countries()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 240 {
		t.Fatalf("got %d countries, want >= 240", len(cs))
	}
	code := regexp.MustCompile(`^[A-Z]{2}$`)
	byCode := map[string]string{}
	for _, c := range cs {
		if !code.MatchString(c.Code) || c.Name == "" {
			t.Errorf("bad country %+v", c)
		}
		if _, dup := byCode[c.Code]; dup {
			t.Errorf("duplicate country %s", c.Code)
		}
		byCode[c.Code] = c.Name
	}
	for code, name := range map[string]string{"CZ": "Czechia", "DE": "Germany", "US": "United States", "CH": "Switzerland", "BR": "Brazil"} {
		if got := byCode[code]; got != name {
			t.Errorf("country %s = %q, want %q", code, got, name)
		}
	}
}

func TestRegions(t *testing.T) {
	cs, err := Countries()
	if err != nil {
		t.Fatal(err)
	}
	countries := map[string]bool{}
	for _, c := range cs {
		countries[c.Code] = true
	}
	rs, err := Regions()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 3000 {
		t.Fatalf("got %d regions, want >= 3000", len(rs))
	}
	byKey := map[string]Region{}
	for _, r := range rs {
		if !countries[r.CountryCode] || len(r.Key) < 4 || r.Key[:3] != r.CountryCode+"-" || r.Name == "" {
			t.Errorf("bad region %+v", r)
		}
		if _, dup := byKey[r.Key]; dup {
			t.Errorf("duplicate region %s", r.Key)
		}
		byKey[r.Key] = r
	}
	// The 14 Czech regions (kraje), including Prague.
	for _, k := range []string{"CZ-10", "CZ-20", "CZ-31", "CZ-32", "CZ-41", "CZ-42", "CZ-51",
		"CZ-52", "CZ-53", "CZ-63", "CZ-64", "CZ-71", "CZ-72", "CZ-80"} {
		if _, ok := byKey[k]; !ok {
			t.Errorf("region %s missing", k)
		}
	}
	for _, k := range []string{"DE-BY", "US-CA", "CH-ZH", "BR-SP", "GB-SCT", "FR-IDF"} {
		if _, ok := byKey[k]; !ok {
			t.Errorf("region %s missing", k)
		}
	}
	// Second-level subdivisions (CZ districts, GB counties) are not regions.
	for _, k := range []string{"CZ-101", "CZ-201", "GB-ABE"} {
		if _, ok := byKey[k]; ok {
			t.Errorf("region %s is not first-level", k)
		}
	}
	if n := byKey["CZ-10"].Name; n != "Prague" {
		t.Errorf("CZ-10 name = %q, want Prague", n)
	}
}

func TestCities(t *testing.T) {
	cs, err := Countries()
	if err != nil {
		t.Fatal(err)
	}
	countries := map[string]bool{}
	for _, c := range cs {
		countries[c.Code] = true
	}
	rs, err := Regions()
	if err != nil {
		t.Fatal(err)
	}
	regions := map[string]Region{}
	for _, r := range rs {
		regions[r.Key] = r
	}
	cities, err := Cities()
	if err != nil {
		t.Fatal(err)
	}
	if len(cities) < 20000 {
		t.Fatalf("got %d cities, want >= 20000", len(cities))
	}
	byID := map[int64]City{}
	keyed, named := 0, 0
	for _, c := range cities {
		if c.ID <= 0 || c.Name == "" || c.Population < 15000 {
			t.Errorf("bad city %+v", c)
		}
		if !countries[c.CountryCode] {
			t.Errorf("city %d %s: unknown country %q", c.ID, c.Name, c.CountryCode)
		}
		if c.RegionKey != "" {
			keyed++
			r, ok := regions[c.RegionKey]
			if !ok {
				t.Errorf("city %d %s: unknown region %q", c.ID, c.Name, c.RegionKey)
			} else if r.CountryCode != c.CountryCode {
				t.Errorf("city %d %s in %s: region %s is in %s", c.ID, c.Name, c.CountryCode, r.Key, r.CountryCode)
			}
		}
		if c.RegionName != "" {
			named++
		}
		if _, dup := byID[c.ID]; dup {
			t.Errorf("duplicate city %d", c.ID)
		}
		byID[c.ID] = c
	}
	if keyed < len(cities)*9/10 || named < len(cities)*99/100 {
		t.Errorf("%d of %d cities have a region key and %d a region name; want >= 90%% and >= 99%%", keyed, len(cities), named)
	}
	checkKnownCities(t, byID)
}

// checkKnownCities checks a few well-known cities by id: name, country,
// region and population.
func checkKnownCities(t *testing.T, byID map[int64]City) {
	t.Helper()
	for _, w := range []struct {
		id             int64
		name, cc, rk   string
		minPop, maxPop int64
	}{
		{3067696, "Prague", "CZ", "CZ-10", 1_000_000, 2_000_000},
		{2657896, "Zürich", "CH", "CH-ZH", 300_000, 500_000},
		{3448439, "São Paulo", "BR", "BR-SP", 10_000_000, 15_000_000},
		{2950159, "Berlin", "DE", "DE-BE", 3_000_000, 4_000_000},
		{5128581, "New York City", "US", "US-NY", 8_000_000, 9_000_000},
		{3078610, "Brno", "CZ", "CZ-64", 300_000, 500_000},
	} {
		c, ok := byID[w.id]
		if !ok {
			t.Errorf("city %d (%s) missing", w.id, w.name)
			continue
		}
		if c.Name != w.name || c.CountryCode != w.cc || c.RegionKey != w.rk || c.RegionName == "" ||
			c.Population < w.minPop || c.Population > w.maxPop {
			t.Errorf("city %d = %+v, want %s in %s/%s with population in [%d, %d] and a region name",
				w.id, c, w.name, w.cc, w.rk, w.minPop, w.maxPop)
		}
	}
	if n := byID[3067696].RegionName; n != "Prague" {
		t.Errorf("Prague's region name = %q, want Prague", n)
	}
}

func TestCopies(t *testing.T) {
	a, err := Cities()
	if err != nil {
		t.Fatal(err)
	}
	name := a[0].Name
	a[0].Name = "changed"
	b, err := Cities()
	if err != nil {
		t.Fatal(err)
	}
	if b[0].Name != name {
		t.Errorf("Cities returned shared data: %q after change, want %q", b[0].Name, name)
	}
}
