package dataset_test

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"adboost/auth"
	"adboost/db/dataset"
	"adboost/db/dbtest"
)

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost
	dbtest.Main(m)
}

const goodFile = `{
  "verticals": [{"slug": "fitness", "label": "Fitness"}],
  "services": [{"id": 1, "name": "Paid social"}, {"id": 2, "name": "Branding"}],
  "industries": [{"id": 1, "name": "Retail"}],
  "agencies": [{"id": 10, "username": "northwind", "email": "ads@northwind.example",
                "gps": "50.08,14.43", "employees": "5-20", "services": [1, 2], "industries": [1]}],
  "users": [{"id": 100, "email": "ana@example.com", "password": "s3cret-pass", "snid": 123,
             "agency_id": 10, "credit_balance": "12.50"}]
}`

func TestLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	// Twice: the second load updates the same rows.
	for range 2 {
		if err := dataset.Load(ctx, pool, strings.NewReader(goodFile)); err != nil {
			t.Fatal(err)
		}
	}
	var agencies, links, users int
	var balance string
	err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM agency), (SELECT count(*) FROM agency_service),
		(SELECT count(*) FROM app_user), (SELECT credit_balance::text FROM app_user WHERE id = 100)`).Scan(&agencies, &links, &users, &balance)
	if err != nil {
		t.Fatal(err)
	}
	if agencies != 1 || links != 2 || users != 1 || balance != "12.50" {
		t.Fatalf("agencies %d, agency services %d, users %d, balance %s", agencies, links, users, balance)
	}
	// Re-importing with fewer services drops the others.
	err = dataset.Load(ctx, pool, strings.NewReader(`{"agencies": [{"id": 10, "username": "northwind", "services": [2]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM agency_service WHERE agency_id = 10 AND service_id = 2").Scan(&links); err != nil || links != 1 {
		t.Fatalf("services after re-import: %d, %v", links, err)
	}
	// Identities moved past the imported ids.
	var id int64
	if err := pool.QueryRow(ctx, "INSERT INTO service (name) VALUES ('Analytics') RETURNING id").Scan(&id); err != nil || id != 3 {
		t.Fatalf("next service id = %d, %v; want 3", id, err)
	}
}

func TestLoadRollsBackOnBadRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	bad := func(users string) string {
		return strings.Replace(goodFile, `"users": [`, `"users": [`+users+`, `, 1)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"database check", bad(`{"id": 101, "email": "not-an-email"}`), "users[0].email"},
		{"short password", bad(`{"id": 101, "email": "bo@example.com", "password": "short"}`), "users[0].password"},
		{"bad balance", bad(`{"id": 101, "email": "bo@example.com", "credit_balance": "1.234"}`), "users[0].credit_balance"},
		{"wrong type", bad(`{"id": "x", "email": "bo@example.com"}`), "users[0].id"},
		{"unknown field", bad(`{"id": 101, "email": "bo@example.com", "colour": "red"}`), `users[0]: json: unknown field "colour"`},
		{"missing id", bad(`{"email": "bo@example.com"}`), "users[0].id"},
		{"unknown agency", bad(`{"id": 101, "email": "bo@example.com", "agency_id": 99}`), "users[0].agency_id"},
		{"duplicate e-mail", bad(`{"id": 101, "email": "ANA@example.com"}`), "users[1]"},
		{"unknown service", strings.Replace(goodFile, `"services": [1, 2]`, `"services": [1, 7]`, 1), "agencies[0].service_id"},
		{"unknown key", `{"services": [{"id": 1, "name": "x"}], "widgets": []}`, `unknown key "widgets"`},
		{"not an array", `{"services": {"id": 1}}`, "services: must be an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := dataset.Load(ctx, pool, strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
	var rows int
	err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM vertical) + (SELECT count(*) FROM service)
		+ (SELECT count(*) FROM agency) + (SELECT count(*) FROM app_user)`).Scan(&rows)
	if err != nil || rows != 0 {
		t.Fatalf("%d rows written by failed imports (%v); want none", rows, err)
	}
}

func TestLoadDemo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	// The demo's billing countries, while the ISO data set is not loaded.
	ensureCountries(t, pool)
	for range 2 { // idempotent
		if err := dataset.LoadDemo(ctx, pool); err != nil {
			t.Fatal(err)
		}
	}
	var hash string
	if err := pool.QueryRow(ctx, "SELECT password_hash FROM app_user WHERE email = 'demo@adboost.example'").Scan(&hash); err != nil {
		t.Fatal(err)
	}
	if auth.CheckPassword(&hash, "demo-password") != nil {
		t.Fatal("the demo user's password is not demo-password")
	}
}
