package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"

	"adboost/db"
)

// billingMaxLen bounds every billing field, in characters.
const billingMaxLen = 255

// billingPhone is the rule of billing_info.phone.
var billingPhoneRe = regexp.MustCompile(`^\+?[0-9 ()./-]{3,32}$`)

type billingSaveRequest struct {
	FullName     string `json:"full_name"`
	Phone        string `json:"phone"`
	PhoneCountry string `json:"phone_country"`
	BillingEmail string `json:"billing_email"`
	CompanyName  string `json:"company_name"`
	Street1      string `json:"street1"`
	Street2      string `json:"street2"`
	City         string `json:"city"`
	State        string `json:"state"`
	Zip          string `json:"zip"`
	Country      string `json:"country"`
	CompanyID    string `json:"company_id"`
	VatNumber    string `json:"vat_number"`
}

func (r *billingSaveRequest) validate() error {
	fields := []struct {
		name string
		v    *string
	}{
		{"full_name", &r.FullName}, {"phone", &r.Phone}, {"phone_country", &r.PhoneCountry},
		{"billing_email", &r.BillingEmail}, {"company_name", &r.CompanyName}, {"street1", &r.Street1},
		{"street2", &r.Street2}, {"city", &r.City}, {"state", &r.State}, {"zip", &r.Zip},
		{"country", &r.Country}, {"company_id", &r.CompanyID}, {"vat_number", &r.VatNumber},
	}
	for _, f := range fields {
		*f.v = strings.TrimSpace(*f.v)
		switch {
		case utf8.RuneCountInString(*f.v) > billingMaxLen:
			return badRequest("%s is longer than %d characters", f.name, billingMaxLen)
		case hasControl(*f.v):
			return badRequest("%s contains control characters", f.name)
		}
	}
	r.Country = strings.ToUpper(r.Country)
	r.PhoneCountry = strings.ToUpper(r.PhoneCountry)
	switch {
	case r.Country != "" && !countryCode.MatchString(r.Country):
		return badRequest("country must be a two-letter country code of billing/countries")
	case r.PhoneCountry != "" && !countryCode.MatchString(r.PhoneCountry):
		return badRequest("phone_country must be a two-letter country code of billing/countries")
	case r.BillingEmail != "" && !validEmail(r.BillingEmail):
		return badRequest("billing_email %q is not a valid e-mail address", r.BillingEmail)
	case r.Phone != "" && !billingPhoneRe.MatchString(r.Phone):
		return badRequest("phone must be 3 to 32 digits, spaces or ()./- characters, with an optional leading +")
	}
	return nil
}

func (s *Server) billingDetail(ctx context.Context, _ *empty) (db.BillingDetailRow, error) {
	return s.q.BillingDetail(ctx, userID(ctx))
}

// billingSave writes the whole billing row of the user: every field as sent,
// an absent one empty. Unknown country codes are refused by the schema's
// foreign keys, so nothing is written then.
func (s *Server) billingSave(ctx context.Context, r *billingSaveRequest) (bool, error) {
	var err error
	s.q.BillingUpsert(ctx, []db.BillingUpsertParams{{
		UserID: userID(ctx), FullName: r.FullName, Phone: r.Phone, PhoneCountry: r.PhoneCountry,
		BillingEmail: r.BillingEmail, CompanyName: r.CompanyName, Street1: r.Street1, Street2: r.Street2,
		City: r.City, State: r.State, Zip: r.Zip, Country: r.Country, CompanyID: r.CompanyID,
		VatNumber: r.VatNumber,
	}}).Exec(func(_ int, e error) { err = e })
	var pgErr *pgconn.PgError
	switch {
	case isViolation(err, pgerrcode.ForeignKeyViolation, "billing_info_country_fkey"):
		return false, badRequest("country %s is not a country code of billing/countries", r.Country)
	case isViolation(err, pgerrcode.ForeignKeyViolation, "billing_info_phone_country_fkey"):
		return false, badRequest("phone_country %s is not a country code of billing/countries", r.PhoneCountry)
	case errors.As(err, &pgErr) && pgErr.Code == pgerrcode.CheckViolation: // a CHECK of billing_info
		field := strings.TrimSuffix(strings.TrimPrefix(pgErr.ConstraintName, "billing_info_"), "_check")
		return false, badRequest("%s is not valid", field)
	case err != nil:
		return false, err
	}
	return true, nil
}

// billingCountries answers every ISO 3166 country, code → English name.
func (s *Server) billingCountries(ctx context.Context, _ *empty) (json.RawMessage, error) {
	return s.q.BillingCountries(ctx)
}
