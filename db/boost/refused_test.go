package boost_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"adboost/db"
	"adboost/db/dbtest"
)

// A refusal of the token a cycle loaded marks the user only while that token
// is still the stored one: a sign-in that stored a new token meanwhile (and
// cleared the mark) is not undone by the old token's refusal.
func TestTokenRefusedMarksOnlyTheTokenUsed(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	old, renewed := []byte("sealed-old-token-0123456789ab"), []byte("sealed-new-token-0123456789ab")
	if _, err := pool.Exec(ctx, "INSERT INTO app_user (id, email, network_a_token) VALUES (1, 'ana@example.com', $1)", renewed); err != nil {
		t.Fatal(err)
	}
	q := db.New(pool)
	invalid := func() bool {
		var marked bool
		if err := pool.QueryRow(ctx, "SELECT network_a_token_invalid_at IS NOT NULL FROM app_user WHERE id = 1").Scan(&marked); err != nil {
			t.Fatal(err)
		}
		return marked
	}
	if _, err := q.EngineUserTokenRefused(ctx, db.EngineUserTokenRefusedParams{UserID: 1, NetworkAToken: old}); !errors.Is(err, pgx.ErrNoRows) {
		t.Fatalf("refusal of a replaced token: %v, want no row", err)
	}
	if invalid() {
		t.Fatal("the refusal of a replaced token marked the new one")
	}
	if id, err := q.EngineUserTokenRefused(ctx, db.EngineUserTokenRefusedParams{UserID: 1, NetworkAToken: renewed}); err != nil || id != 1 {
		t.Fatalf("refusal of the stored token = %d, %v", id, err)
	}
	if !invalid() {
		t.Fatal("the refusal of the stored token did not mark it")
	}
}
