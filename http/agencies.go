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

	params db.AgencyListParams
}

func (r *agencyListRequest) validate() (err error) {
	if err := r.check(); err != nil {
		return err
	}
	p := db.AgencyListParams{PageNumber: r.number(), PageSize: r.size()}
	if p.Search, err = optionalText("search", strings.TrimSpace(r.Search)); err != nil {
		return err
	}
	if p.ServiceID, err = optionalID("service", r.Service); err != nil {
		return err
	}
	if p.IndustryID, err = optionalID("industry", r.Industry); err != nil {
		return err
	}
	r.params = p
	return nil
}

// agencyList answers one page of the agency directory.
// agencyList answers a page without filters from a prepared statement
// (AgencyListAll), one with filters from AgencyList, planned for them.
// agencyList answers a page of the directory as the JSON array of the
// stored Agency objects (agency_object), joined as PostgreSQL wrote them.
func (s *Server) agencyList(ctx context.Context, req *agencyListRequest) (jsonAnswer, error) {
	p := req.params
	var objects []json.RawMessage
	var err error
	if p.Search == nil && p.ServiceID == nil && p.IndustryID == nil {
		objects, err = s.q.AgencyListAll(ctx, db.AgencyListAllParams{PageNumber: p.PageNumber, PageSize: p.PageSize})
	} else {
		objects, err = s.planned().AgencyList(ctx, p)
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
