package db_test

import (
	"context"
	"testing"

	"adboost/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// The migrated database carries the real geographic data sets.
func TestGeoLoaded(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := context.Background()
	var countries, regions, cities int
	err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM geo_country), (SELECT count(*) FROM geo_region),
		(SELECT count(*) FROM geo_city)`).Scan(&countries, &regions, &cities)
	if err != nil {
		t.Fatal(err)
	}
	if countries < 240 || regions < 3000 || cities < 20000 {
		t.Fatalf("%d countries, %d regions, %d cities: the data sets are not loaded", countries, regions, cities)
	}
	var name, country, region, key string
	var population int64
	err = pool.QueryRow(ctx, `SELECT c.name, k.name, c.region_name, c.search_key, c.population
		FROM geo_city c JOIN geo_country k ON k.code = c.country_code WHERE c.id = 3448439`).
		Scan(&name, &country, &region, &key, &population)
	if err != nil {
		t.Fatal(err)
	}
	if name != "São Paulo" || country != "Brazil" || key != "sao paulo" || population < 10_000_000 {
		t.Fatalf("São Paulo = %q in %q (%q), key %q, population %d", name, country, region, key, population)
	}
}
