package httpapi

import (
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// TestStatsFill: every date of the range once per currency, in order, zeros
// where the statement answered no row (before, between and after the rows'
// dates), and each currency's totals from its totals row.
func TestStatsFill(t *testing.T) {
	day := func(s string) pgtype.Date {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return pgtype.Date{Time: d, Valid: true}
	}
	from, to := day("2026-03-28").Time, day("2026-04-01").Time
	rows := []statsRow{
		{Currency: "EUR", Day: day("2026-03-29"), Impressions: 10, Spend: "1.50"},
		{Currency: "EUR", Day: day("2026-03-31"), Impressions: 5, Clicks: 2, Spend: "0.25"},
		{Currency: "EUR", Impressions: 15, Clicks: 2, Spend: "1.75"},
		{Currency: "USD", Day: day("2026-04-01"), Reach: 7, Spend: "3.00"},
		{Currency: "USD", Reach: 7, Spend: "3.00"},
	}
	got := statsFill(from, to, rows)
	if got.From != "2026-03-28" || got.To != "2026-04-01" || len(got.Currencies) != 2 {
		t.Fatalf("answer %+v", got)
	}
	want := map[string][]string{
		"EUR": {"2026-03-28 0 0.00", "2026-03-29 10 1.50", "2026-03-30 0 0.00", "2026-03-31 5 0.25", "2026-04-01 0 0.00"},
		"USD": {"2026-03-28 0 0.00", "2026-03-29 0 0.00", "2026-03-30 0 0.00", "2026-03-31 0 0.00", "2026-04-01 0 3.00"},
	}
	for _, c := range got.Currencies {
		w := want[c.Currency]
		if len(c.Days) != len(w) {
			t.Fatalf("%s: %d days, want %d", c.Currency, len(c.Days), len(w))
		}
		for i, d := range c.Days {
			if s := d.Date + " " + strconv.FormatInt(d.Impressions, 10) + " " + d.Spend; s != w[i] {
				t.Errorf("%s day %d: %s, want %s", c.Currency, i, s, w[i])
			}
		}
	}
	if eur := got.Currencies[0].Totals; eur.Impressions != 15 || eur.Clicks != 2 || eur.Spend != "1.75" {
		t.Errorf("EUR totals %+v", eur)
	}
	if usd := got.Currencies[1].Totals; usd.Reach != 7 || usd.Spend != "3.00" {
		t.Errorf("USD totals %+v", usd)
	}
	if empty := statsFill(from, to, nil); empty.Currencies == nil || len(empty.Currencies) != 0 {
		t.Errorf("no rows: currencies %#v, want []", empty.Currencies)
	}
}
