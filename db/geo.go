package db

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db/geodata"
)

// GeoLoad fills the geographic tables from the data sets embedded in the
// binary (db/geodata) when they are empty, in one transaction with COPY.
func GeoLoad(ctx context.Context, pool *pgxpool.Pool) error {
	n, err := New(pool).GeoCountryCount(ctx)
	if err != nil || n > 0 {
		return err
	}
	countries, err := geodata.Countries()
	if err != nil {
		return err
	}
	regions, err := geodata.Regions()
	if err != nil {
		return err
	}
	cities, err := geodata.Cities()
	if err != nil {
		return err
	}
	return InTx(ctx, pool, func(q *Queries) error {
		// Two instances starting at once: the second waits here and then
		// finds the rows of the first.
		if err := q.GeoLoadLock(ctx); err != nil {
			return err
		}
		if n, err := q.GeoCountryCount(ctx); err != nil || n > 0 {
			return err
		}
		cp := make([]GeoCountryCopyParams, len(countries))
		for i, c := range countries {
			cp[i] = GeoCountryCopyParams{Code: c.Code, Name: c.Name}
		}
		if _, err := q.GeoCountryCopy(ctx, cp); err != nil {
			return fmt.Errorf("geo countries: %w", err)
		}
		rp := make([]GeoRegionCopyParams, len(regions))
		for i, r := range regions {
			rp[i] = GeoRegionCopyParams{Key: r.Key, CountryCode: r.CountryCode, Name: r.Name}
		}
		if _, err := q.GeoRegionCopy(ctx, rp); err != nil {
			return fmt.Errorf("geo regions: %w", err)
		}
		ct := make([]GeoCityCopyParams, len(cities))
		for i, c := range cities {
			ct[i] = GeoCityCopyParams{ID: c.ID, CountryCode: c.CountryCode, Name: c.Name,
				RegionName: c.RegionName, Population: c.Population}
			if c.RegionKey != "" {
				key := c.RegionKey
				ct[i].RegionKey = &key
			}
		}
		if _, err := q.GeoCityCopy(ctx, ct); err != nil {
			return fmt.Errorf("geo cities: %w", err)
		}
		return nil
	})
}
