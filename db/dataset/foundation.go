package dataset

import (
	"context"
	"encoding/json"
	"regexp"

	"adboost/auth"
	"adboost/db"
)

func init() {
	register(section{key: "verticals", load: loadVerticals})
	register(section{key: "services", load: loadServices})
	register(section{key: "industries", load: loadIndustries})
	register(section{key: "agencies", load: loadAgencies})
	register(section{key: "users", load: loadUsers})
}

// money is a non-negative amount with at most two decimals, as text.
var money = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,2})?$`)

func requireID(id int64) error {
	if id <= 0 {
		return invalid("id", "must be a positive integer")
	}
	return nil
}

type verticalRow struct {
	Slug  string `json:"slug"`
	Label string `json:"label"`
}

func loadVerticals(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[verticalRow]("verticals", raw)
	if err != nil {
		return err
	}
	params := make([]db.VerticalUpsertParams, len(items))
	for i, v := range items {
		params[i] = db.VerticalUpsertParams{Slug: v.Slug, Label: v.Label}
	}
	b := batchErr{key: "verticals"}
	q.VerticalUpsert(ctx, params).Exec(b.record)
	return b.first
}

type namedRow struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func loadServices(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[namedRow]("services", raw)
	if err != nil {
		return err
	}
	if err := check("services", items, func(_ int, r *namedRow) error { return requireID(r.ID) }); err != nil {
		return err
	}
	params := make([]db.ServiceUpsertParams, len(items))
	for i, s := range items {
		params[i] = db.ServiceUpsertParams{ID: s.ID, Name: s.Name}
	}
	b := batchErr{key: "services"}
	q.ServiceUpsert(ctx, params).Exec(b.record)
	return b.first
}

func loadIndustries(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[namedRow]("industries", raw)
	if err != nil {
		return err
	}
	if err := check("industries", items, func(_ int, r *namedRow) error { return requireID(r.ID) }); err != nil {
		return err
	}
	params := make([]db.IndustryUpsertParams, len(items))
	for i, s := range items {
		params[i] = db.IndustryUpsertParams{ID: s.ID, Name: s.Name}
	}
	b := batchErr{key: "industries"}
	q.IndustryUpsert(ctx, params).Exec(b.record)
	return b.first
}

type agencyRow struct {
	ID          int64   `json:"id"`
	Username    string  `json:"username"`
	Email       *string `json:"email"`
	Description string  `json:"description"`
	About       string  `json:"about"`
	Image       string  `json:"image"`
	Website     string  `json:"website"`
	Locations   string  `json:"locations"`
	GPS         string  `json:"gps"`
	Coordinates string  `json:"coordinates"`
	Employees   string  `json:"employees"`
	Services    []int64 `json:"services"`
	Industries  []int64 `json:"industries"`
	Listed      *bool   `json:"listed"` // in the public directory; default true
}

func loadAgencies(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[agencyRow]("agencies", raw)
	if err != nil {
		return err
	}
	if err := check("agencies", items, func(_ int, r *agencyRow) error { return requireID(r.ID) }); err != nil {
		return err
	}
	agencies := make([]db.AgencyUpsertParams, len(items))
	services := make([]db.AgencyServicesReplaceParams, len(items))
	industries := make([]db.AgencyIndustriesReplaceParams, len(items))
	for i, a := range items {
		if a.Email != nil && *a.Email == "" {
			a.Email = nil
		}
		agencies[i] = db.AgencyUpsertParams{
			ID: a.ID, Username: a.Username, Email: a.Email, Description: a.Description,
			About: a.About, Image: a.Image, Website: a.Website, Locations: a.Locations,
			Gps: a.GPS, Coordinates: a.Coordinates, Employees: a.Employees,
			Listed: a.Listed == nil || *a.Listed,
		}
		services[i] = db.AgencyServicesReplaceParams{AgencyID: a.ID, ServiceIds: orEmpty(a.Services)}
		industries[i] = db.AgencyIndustriesReplaceParams{AgencyID: a.ID, IndustryIds: orEmpty(a.Industries)}
	}
	b := batchErr{key: "agencies"}
	q.AgencyUpsert(ctx, agencies).Exec(b.record)
	if b.first != nil {
		return b.first
	}
	q.AgencyServicesReplace(ctx, services).Exec(b.record)
	if b.first != nil {
		return b.first
	}
	q.AgencyIndustriesReplace(ctx, industries).Exec(b.record)
	return b.first
}

type userRow struct {
	ID            int64   `json:"id"`
	Email         string  `json:"email"`
	Password      *string `json:"password"`
	Snid          *int64  `json:"snid"`
	FirstName     string  `json:"first_name"`
	LastName      string  `json:"last_name"`
	PhoneNumber   string  `json:"phone_number"`
	PhoneCountry  string  `json:"phone_country"`
	AgencyID      *int64  `json:"agency_id"`
	CreditBalance *string `json:"credit_balance"`
}

func loadUsers(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[userRow]("users", raw)
	if err != nil {
		return err
	}
	params := make([]db.UserUpsertParams, len(items))
	err = check("users", items, func(i int, u *userRow) error {
		if err := requireID(u.ID); err != nil {
			return err
		}
		balance := "0.00"
		if u.CreditBalance != nil {
			balance = *u.CreditBalance
		}
		if !money.MatchString(balance) {
			return invalid("credit_balance", "must be a non-negative decimal with at most two decimals, as a string")
		}
		var hash *string
		if u.Password != nil {
			h, err := auth.HashPassword(*u.Password)
			if err != nil {
				return invalid("password", "%v", err)
			}
			hash = &h
		}
		params[i] = db.UserUpsertParams{
			ID: u.ID, Email: u.Email, PasswordHash: hash, Snid: u.Snid,
			FirstName: u.FirstName, LastName: u.LastName, PhoneNumber: u.PhoneNumber,
			PhoneCountry: u.PhoneCountry, AgencyID: u.AgencyID, CreditBalance: balance,
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := batchErr{key: "users"}
	q.UserUpsert(ctx, params).Exec(b.record)
	return b.first
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
