package dataset

import (
	"context"
	"encoding/json"

	"adboost/auth/networka"
	"adboost/db"
)

func init() {
	register(section{key: "sources", loadWith: loadSources})
	register(section{key: "billing", load: loadBilling})
}

type sourceRow struct {
	ID              int64  `json:"id"`
	UserID          int64  `json:"user_id"`
	Platform        string `json:"platform"`
	Name            string `json:"name"`
	Picture         string `json:"picture"`
	NetworkBID      *int64 `json:"network_b_id"`
	NetworkBName    string `json:"network_b_name"`
	NetworkBPicture string `json:"network_b_picture"`
	// AccessToken is the page's network_a token, stored sealed with the
	// import's TokenCipher; absent keeps the stored one.
	AccessToken string `json:"access_token"`
}

func loadSources(ctx context.Context, q *db.Queries, raw json.RawMessage, o Options) error {
	items, err := rows[sourceRow]("sources", raw)
	if err != nil {
		return err
	}
	params := make([]db.SourceUpsertParams, len(items))
	err = check("sources", items, func(i int, s *sourceRow) error {
		if err := requireID(s.ID); err != nil {
			return err
		}
		if s.UserID <= 0 {
			return invalid("user_id", "must be a positive integer")
		}
		if s.Platform == "" {
			s.Platform = "network_a"
		}
		params[i] = db.SourceUpsertParams{
			UserID: s.UserID, ID: s.ID, Platform: s.Platform, Name: s.Name, Picture: s.Picture,
			NetworkBID: s.NetworkBID, NetworkBName: s.NetworkBName, NetworkBPicture: s.NetworkBPicture,
		}
		if s.AccessToken == "" {
			return nil
		}
		// The messages never repeat the token.
		switch {
		case s.Platform != "network_a":
			return invalid("access_token", "only a network_a page has an access token")
		case networka.CheckToken(s.AccessToken) != nil:
			return invalid("access_token", "is not a network_a access token")
		case o.TokenCipher == nil:
			return invalid("access_token", "cannot be stored without TOKEN_ENCRYPTION_KEY")
		}
		sealed, err := o.TokenCipher.Seal(s.AccessToken)
		params[i].AccessToken = sealed
		return err
	})
	if err != nil {
		return err
	}
	b := batchErr{key: "sources"}
	q.SourceUpsert(ctx, params).Exec(b.record)
	return b.first
}

// billingRow is a user's BillingInfo. Country codes must be in geo_country.
type billingRow struct {
	UserID       int64  `json:"user_id"`
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

func loadBilling(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[billingRow]("billing", raw)
	if err != nil {
		return err
	}
	params := make([]db.BillingUpsertParams, len(items))
	err = check("billing", items, func(i int, r *billingRow) error {
		if r.UserID <= 0 {
			return invalid("user_id", "must be a positive integer")
		}
		params[i] = db.BillingUpsertParams{
			UserID: r.UserID, FullName: r.FullName, Phone: r.Phone, PhoneCountry: r.PhoneCountry,
			BillingEmail: r.BillingEmail, CompanyName: r.CompanyName, Street1: r.Street1,
			Street2: r.Street2, City: r.City, State: r.State, Zip: r.Zip, Country: r.Country,
			CompanyID: r.CompanyID, VatNumber: r.VatNumber,
		}
		return nil
	})
	if err != nil {
		return err
	}
	b := batchErr{key: "billing"}
	q.BillingUpsert(ctx, params).Exec(b.record)
	return b.first
}
