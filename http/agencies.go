package httpapi

import (
	"context"
	"encoding/json"
	"strings"

	"adboost/db"
)

// agencyListRequest is the agencies/list body. search is
// trimmed of surrounding spaces; service and industry are ids.
type agencyListRequest struct {
	Search   string `json:"search"`
	Service  Int    `json:"service"`
	Industry Int    `json:"industry"`
	paging

	search            *string
	service, industry *int64
}

func (r *agencyListRequest) validate() (err error) {
	if err := r.check(); err != nil {
		return err
	}
	if r.search, err = optionalText("search", strings.TrimSpace(r.Search)); err != nil {
		return err
	}
	if r.service, err = optionalID("service", r.Service); err != nil {
		return err
	}
	r.industry, err = optionalID("industry", r.Industry)
	return err
}

// agencyList answers a page of the directory as the JSON array of the
// stored Agency objects (agency_object), joined as PostgreSQL wrote them,
// from the statement of the filters given (sql/queries/agency.sql): none,
// a prepared statement (AgencyListAll); a service, its entries in username
// order (AgencyListByService); an industry without a service, its entries
// (AgencyListByIndustry); a search alone, the directory (AgencyListSearch).
// Those with filters are planned for their values.
func (s *Server) agencyList(ctx context.Context, req *agencyListRequest) (jsonAnswer, error) {
	page, size := req.number(), req.size()
	var objects []json.RawMessage
	var err error
	switch {
	case req.service != nil:
		objects, err = s.planned().AgencyListByService(ctx, db.AgencyListByServiceParams{
			ServiceID: *req.service, IndustryID: req.industry, Search: req.search, PageNumber: page, PageSize: size,
		})
	case req.industry != nil:
		objects, err = s.planned().AgencyListByIndustry(ctx, db.AgencyListByIndustryParams{
			IndustryID: *req.industry, Search: req.search, PageNumber: page, PageSize: size,
		})
	case req.search != nil:
		objects, err = s.planned().AgencyListSearch(ctx, db.AgencyListSearchParams{
			Search: *req.search, PageNumber: page, PageSize: size,
		})
	default:
		objects, err = s.q.AgencyListAll(ctx, db.AgencyListAllParams{PageNumber: page, PageSize: size})
	}
	if err != nil {
		return nil, err
	}
	return jsonArray(objects), nil
}

func (s *Server) agencyDetail(ctx context.Context, req *pathID) (json.RawMessage, error) {
	agency, err := s.q.AgencyDetail(ctx, req.id)
	if isNoRows(err) {
		return nil, notFound("agency %d not found", req.id)
	}
	return agency, err
}

func (s *Server) agencyServices(ctx context.Context, _ *empty) ([]db.Service, error) {
	return s.q.ServiceList(ctx)
}
