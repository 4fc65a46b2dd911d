package report_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// world is a database with users, campaigns, posts and their ads' days.
type world struct {
	t    *testing.T
	pool *pgxpool.Pool
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return &world{t: t, pool: dbtest.New(t)}
}

func (w *world) exec(sql string, args ...any) {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(), sql, args...); err != nil {
		w.t.Fatalf("%s: %v", sql, err)
	}
}

// user makes a user with a page source 500+id named after them.
func (w *world) user(id int64, first string) {
	w.t.Helper()
	w.exec(`INSERT INTO app_user (id, email, first_name) VALUES ($1, $2, $3)`,
		id, fmt.Sprintf("user%d@example.com", id), first)
	w.exec(`INSERT INTO source (user_id, id, name) VALUES ($1, $2, $3)`, id, 500+id, first+"'s Page")
}

// campaign makes a campaign of the user's page on an ad account of currency
// and time zone (tz "" leaves it null), known to the engine.
func (w *world) campaign(id, userID int64, currency, tz string) {
	w.t.Helper()
	var zone *string
	if tz != "" {
		zone = &tz
	}
	w.exec(`INSERT INTO campaign (id, user_id, page_id, campaign_budget_value, ad_account_id, ad_account_currency, ad_account_timezone)
	        VALUES ($1, $2, $3, 10, 'act_1', $4, $5)`, id, userID, 500+userID, currency, zone)
	w.exec(`INSERT INTO network_a_campaign (campaign_id, user_id, ad_account_id, currency) VALUES ($1, $2, 'act_1', $3)`,
		id, userID, currency)
}

// post makes a boosted post of the user's page.
func (w *world) post(id, userID int64, name string) {
	w.t.Helper()
	w.exec(`WITH post AS (
	            INSERT INTO boosted_post (id, user_id, source_id, name, link, created)
	            VALUES ($1, $2, $3, $4, $5, '2026-01-01T00:00:00Z')
	            RETURNING user_id, id)
	        INSERT INTO boosted_post_insight (user_id, post_id) SELECT user_id, id FROM post`,
		id, userID, 500+userID, name, fmt.Sprintf("https://network-a.example/posts/%d", id))
}

// day is one ad's day: campaign, post, date and its figures.
type day struct {
	campaign, post                                      int64
	date                                                string
	impressions, reach, engagement, clicks, conversions int64
	spend                                               string
}

func (w *world) days(ds ...day) {
	w.t.Helper()
	for _, d := range ds {
		w.exec(`INSERT INTO network_a_ad_day (campaign_id, post_id, day, impressions, reach, engagement, clicks, spend, conversions)
		        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			d.campaign, d.post, d.date, d.impressions, d.reach, d.engagement, d.clicks, d.spend, d.conversions)
	}
}

func decodeBase64(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
