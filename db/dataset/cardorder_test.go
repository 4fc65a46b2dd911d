package dataset_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db/dataset"
	"adboost/db/dbtest"
)

// presetsFile is a data file of the presets with ids from..to, each titled so
// that the title order is the reverse of the id order, and one review of
// the first of them, which makes its card again.
func presetsFile(from, to int) string {
	var items []string
	for id := from; id <= to; id++ {
		items = append(items, fmt.Sprintf(`{"id": %d, "agency_id": 10, "title": "Title %04d", "campaign_objective": "REACH", "price": "1"}`, id, 10000-id))
	}
	return `{"agencies": [{"id": 10, "username": "northwind"}], "users": [{"id": 100, "email": "ana@example.com"}],
		"presets": [` + strings.Join(items, ",") + `],
		"reviews": [{"id": ` + fmt.Sprint(from) + `, "preset_id": ` + fmt.Sprint(from) + `, "user_id": 100, "rating": 4}]}`
}

// cardOrder answers the ids of the cards in the order of their place on
// disk, and the ids of the presets in title order.
func cardOrder(t *testing.T, pool *pgxpool.Pool) (onDisk, byTitle []int64) {
	t.Helper()
	err := pool.QueryRow(context.Background(), `SELECT
		(SELECT array_agg(c.id ORDER BY c.ctid) FROM preset_card AS c),
		(SELECT array_agg(p.id ORDER BY p.title, p.id) FROM preset AS p)`).Scan(&onDisk, &byTitle)
	if err != nil {
		t.Fatal(err)
	}
	return onDisk, byTitle
}

// cardPlaces answers where each card lies (its ctid).
func cardPlaces(t *testing.T, pool *pgxpool.Pool) map[int64]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT id, ctid::text FROM preset_card`)
	if err != nil {
		t.Fatal(err)
	}
	places := map[int64]string{}
	for rows.Next() {
		var id int64
		var place string
		if err := rows.Scan(&id, &place); err != nil {
			t.Fatal(err)
		}
		places[id] = place
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return places
}

// sameCards fails unless every card is what preset_card_source makes of its
// preset, and every preset has its card.
func sameCards(t *testing.T, pool *pgxpool.Pool, when string) {
	t.Helper()
	var differ int
	err := pool.QueryRow(context.Background(), `SELECT count(*) FROM (
		(SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card
		 EXCEPT SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card_source)
		UNION ALL
		(SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card_source
		 EXCEPT SELECT id, agency_id, image, price, original_price, number_of_purchases, body::text FROM preset_card)) AS d`).Scan(&differ)
	if err != nil || differ != 0 {
		t.Fatalf("%s: %d cards differ from their presets (%v)", when, differ, err)
	}
}

// TestLoadWritesCardsInTitleOrder checks that an import of at least a tenth
// of the catalogue leaves the cards on disk in the title order of their
// presets (PresetCardReorderAfterImport), the cards unchanged, and that a
// smaller import leaves the order of the others as it is.
func TestLoadWritesCardsInTitleOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	load := func(file string) {
		t.Helper()
		if err := dataset.Load(ctx, pool, strings.NewReader(file)); err != nil {
			t.Fatal(err)
		}
	}

	load(presetsFile(1, 40))
	onDisk, byTitle := cardOrder(t, pool)
	if len(byTitle) != 40 || !slices.Equal(onDisk, byTitle) {
		t.Fatalf("after the first import the cards lie as %v, want the title order %v", onDisk, byTitle)
	}
	sameCards(t, pool, "first import")

	// 3 presets of 43: under a tenth. The cards already there stay where
	// they are.
	before := cardPlaces(t, pool)
	load(presetsFile(41, 43))
	after := cardPlaces(t, pool)
	for id, place := range before {
		if after[id] != place {
			t.Fatalf("a small import moved card %d from %s to %s", id, place, after[id])
		}
	}
	if len(after) != 43 {
		t.Fatalf("%d cards after the small import, want 43", len(after))
	}
	sameCards(t, pool, "small import")

	// 5 presets of 48: over a tenth. Every card in title order again.
	load(presetsFile(44, 48))
	onDisk, byTitle = cardOrder(t, pool)
	if len(byTitle) != 48 || !slices.Equal(onDisk, byTitle) {
		t.Fatalf("after a tenth of the catalogue the cards lie as %v, want the title order %v", onDisk, byTitle)
	}
	sameCards(t, pool, "large import")
}
