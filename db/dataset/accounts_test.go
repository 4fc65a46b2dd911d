package dataset_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db/dataset"
	"adboost/db/dbtest"
)

// ensureCountries writes the countries the fixtures and the demo refer to,
// when the ISO 3166 data set is not loaded in the test database.
func ensureCountries(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `INSERT INTO geo_country (code, name) VALUES
		('CZ', 'Czechia'), ('DE', 'Germany'), ('US', 'United States'), ('AT', 'Austria')
		ON CONFLICT (code) DO NOTHING`)
	if err != nil {
		t.Fatal(err)
	}
}

const accountsFile = `{
  "users": [{"id": 100, "email": "ana@example.com"}, {"id": 101, "email": "bob@example.com"}],
  "sources": [
    {"id": 456, "user_id": 100, "platform": "network_a", "name": "Ana's Gym", "picture": "https://img.example/456.png",
     "network_b_id": 789, "network_b_name": "anasgym", "network_b_picture": "https://img.example/789.png"},
    {"id": 457, "user_id": 100, "name": "Ana's Café"},
    {"id": 790, "user_id": 100, "platform": "network_b", "name": "anas_other"},
    {"id": 456, "user_id": 101, "name": "Ana's Gym (managed by Bob)"}
  ],
  "billing": [
    {"user_id": 100, "full_name": "Ana Novak", "phone": "+420 111 222 333", "phone_country": "CZ",
     "billing_email": "billing@example.com", "company_name": "Ana s.r.o.", "street1": "Main 1",
     "street2": "", "city": "Praha", "state": "", "zip": "110 00", "country": "CZ",
     "company_id": "123", "vat_number": "CZ123"},
    {"user_id": 101, "full_name": "Bob", "country": ""}
  ]
}`

func TestLoadSourcesAndBilling(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	ensureCountries(t, pool)
	for range 2 { // idempotent
		if err := dataset.Load(ctx, pool, strings.NewReader(accountsFile)); err != nil {
			t.Fatal(err)
		}
	}
	var sources string
	err := pool.QueryRow(ctx, `SELECT string_agg(format('%s/%s %s %s %s %s', user_id, id, platform, name,
		coalesce(network_b_id::text, '-'), network_b_name), '; ' ORDER BY user_id, id) FROM source`).Scan(&sources)
	want := "100/456 network_a Ana's Gym 789 anasgym; 100/457 network_a Ana's Café - ; " +
		"100/790 network_b anas_other - ; 101/456 network_a Ana's Gym (managed by Bob) - "
	if err != nil || sources != want {
		t.Fatalf("sources = %q (%v)\nwant      %q", sources, err, want)
	}
	var billing string
	err = pool.QueryRow(ctx, `SELECT string_agg(format('%s %s %s %s %s', user_id, full_name, coalesce(country, '-'),
		coalesce(phone_country, '-'), vat_number), '; ' ORDER BY user_id) FROM billing_info`).Scan(&billing)
	if want := "100 Ana Novak CZ CZ CZ123; 101 Bob - - "; err != nil || billing != want {
		t.Fatalf("billing = %q (%v), want %q", billing, err, want)
	}
}

func TestLoadSourcesAndBillingErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	ensureCountries(t, pool)
	users := `"users": [{"id": 100, "email": "ana@example.com"}]`
	for _, tc := range []struct{ file, want string }{
		{`{` + users + `, "sources": [{"id": 0, "user_id": 100}]}`, "sources[0].id"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 100}, {"id": 2}]}`, "sources[1].user_id"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 999}]}`, "sources[0].user_id"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 100, "platform": "network_c"}]}`, "sources[0].platform"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 100, "platform": "network_b", "network_b_id": 5}]}`, "sources[0].network_b"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 100, "network_b_id": 5}, {"id": 2, "user_id": 100, "network_b_id": 5}]}`, "sources[1].network_b"},
		{`{` + users + `, "sources": [{"id": 1, "user_id": 100, "colour": "red"}]}`, "sources[0]"},
		{`{` + users + `, "billing": [{"user_id": 100, "country": "XX"}]}`, "billing[0].country"},
		{`{` + users + `, "billing": [{"user_id": 100, "phone_country": "ZZ"}]}`, "billing[0].phone_country"},
		{`{` + users + `, "billing": [{"user_id": 100, "billing_email": "nope"}]}`, "billing[0].billing_email"},
		{`{` + users + `, "billing": [{"user_id": 100, "city": "` + strings.Repeat("x", 256) + `"}]}`, "billing[0].city"},
		{`{` + users + `, "billing": [{"user_id": 0}]}`, "billing[0].user_id"},
		{`{` + users + `, "billing": [{"user_id": 999}]}`, "billing[0].user_id"},
	} {
		err := dataset.Load(ctx, pool, strings.NewReader(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.file, err, tc.want)
		}
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM app_user) + (SELECT count(*) FROM source)
		+ (SELECT count(*) FROM billing_info)`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d rows written by failed imports (%v); want none", rows, err)
	}
}

func TestDemoAccounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	ensureCountries(t, pool)
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		t.Fatal(err)
	}
	var pages, linked int
	var country, email string
	err := pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM source WHERE user_id = 100 AND platform = 'network_a'),
		(SELECT count(*) FROM source WHERE user_id = 100 AND network_b_id IS NOT NULL),
		(SELECT country FROM billing_info WHERE user_id = 100),
		(SELECT billing_email FROM billing_info WHERE user_id = 100)`).Scan(&pages, &linked, &country, &email)
	if err != nil || pages < 2 || linked < 1 || country != "CZ" || email == "" {
		t.Fatalf("demo user: %d pages, %d linked to network_b, billing country %q e-mail %q (%v)", pages, linked, country, email, err)
	}
}
