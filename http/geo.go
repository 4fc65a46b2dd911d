package httpapi

import (
	"context"
	"strings"
	"unicode/utf8"

	"adboost/db"
)

// Geographic lookups for audience targeting; no credential.

// geoType checks the `type` of a geo lookup: country, region, city, or empty
// for every kind.
func geoType(t string) error {
	if err := textLimit("type", t); err != nil {
		return err
	}
	switch t {
	case "", "country", "region", "city":
		return nil
	}
	return badRequest("type must be country, region, city or empty (every kind), not %q", t)
}

// maxGeoQuery bounds the search text.
const maxGeoQuery = maxFilterText

type geoSearchRequest struct {
	Query string `json:"query"`
	Type  string `json:"type"`
}

func (r *geoSearchRequest) validate() error {
	r.Query = strings.TrimSpace(r.Query)
	if utf8.RuneCountInString(r.Query) > maxGeoQuery {
		return badRequest("query must be at most %d characters long", maxGeoQuery)
	}
	if strings.ContainsRune(r.Query, 0) {
		return badRequest("query must not contain NUL characters")
	}
	return geoType(r.Type)
}

// geoLocations: POST /v1/boosted-pages/geo-locations. A query of fewer than
// two characters answers [].
func (s *Server) geoLocations(ctx context.Context, req *geoSearchRequest) ([]db.GeoLocationSearchRow, error) {
	if utf8.RuneCountInString(req.Query) < 2 {
		return []db.GeoLocationSearchRow{}, nil
	}
	return s.q.GeoLocationSearch(ctx, db.GeoLocationSearchParams{Query: req.Query, Type: req.Type})
}

type geoByCodeRequest struct {
	Type  string `json:"type"`
	Value string `json:"value"`
	Key   string `json:"key"`
}

func (r *geoByCodeRequest) validate() error {
	r.Value = strings.ToUpper(strings.TrimSpace(r.Value))
	r.Key = strings.TrimSpace(r.Key)
	if err := textLimit("value", r.Value); err != nil {
		return err
	}
	switch {
	case r.Value == "":
		return badRequest("value is required: the ISO 3166 code of a country")
	case !countryCode.MatchString(r.Value):
		return badRequest("value must be a two-letter ISO 3166 country code, not %q", r.Value)
	case len(r.Key) > 64 || strings.ContainsRune(r.Key, 0):
		return badRequest("key must be at most 64 characters long, without NUL characters")
	}
	return geoType(r.Type)
}

// geoLocationsByCode: POST /v1/boosted-pages/geo-locations-by-code.
func (s *Server) geoLocationsByCode(ctx context.Context, req *geoByCodeRequest) ([]db.GeoLocationsByCodeRow, error) {
	return s.q.GeoLocationsByCode(ctx, db.GeoLocationsByCodeParams{Type: req.Type, Country: req.Value, Key: req.Key})
}
