package dataset_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"adboost/auth"
	"adboost/db/dataset"
	"adboost/db/dbtest"
)

// TestLoadSourceAccessToken: sources[].access_token is stored sealed with the
// import's cipher and opens back to the token; a later row without one keeps
// it; without a cipher, on a network_b source or when it cannot be a token,
// the file is refused and the error never repeats the token.
func TestLoadSourceAccessToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.New(t)
	cipher, err := auth.NewTokenCipher(base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef")))
	if err != nil {
		t.Fatal(err)
	}
	const token = "EAApage456imported"
	users := `"users": [{"id": 100, "email": "ana@example.com"}]`
	file := `{` + users + `, "sources": [{"id": 456, "user_id": 100, "name": "Gym", "access_token": "` + token + `"},
		{"id": 457, "user_id": 100, "name": "Cafe"}]}`

	for _, tc := range []struct {
		name string
		opts dataset.Options
		file string
		want string
	}{
		{"no cipher", dataset.Options{}, file, "sources[0].access_token: cannot be stored without TOKEN_ENCRYPTION_KEY"},
		{"network_b", dataset.Options{TokenCipher: cipher}, `{` + users + `, "sources": [{"id": 9, "user_id": 100, "platform": "network_b", "access_token": "` + token + `"}]}`, "sources[0].access_token"},
		{"not a token", dataset.Options{TokenCipher: cipher}, `{` + users + `, "sources": [{"id": 9, "user_id": 100, "access_token": "` + token + ` x"}]}`, "sources[0].access_token"},
	} {
		err := tc.opts.Load(ctx, pool, strings.NewReader(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), token) {
			t.Errorf("%s: error %v, want one naming %s without the token", tc.name, err, tc.want)
		}
	}
	if err := dataset.Load(ctx, pool, strings.NewReader(file)); err == nil {
		t.Fatal("Load without options stored a token it cannot seal")
	}

	if err := (dataset.Options{TokenCipher: cipher}).Load(ctx, pool, strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	opened := func() string {
		t.Helper()
		var sealed []byte
		if err := pool.QueryRow(ctx, "SELECT access_token FROM source WHERE user_id = 100 AND id = 456").Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(sealed), token) {
			t.Fatal("the token is stored in clear")
		}
		tok, err := cipher.Open(sealed)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	if got := opened(); got != token {
		t.Fatalf("stored token opens to %q", got)
	}
	var without int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM source WHERE access_token IS NULL").Scan(&without); err != nil || without != 1 {
		t.Fatalf("%d sources without token (%v), want 1", without, err)
	}
	// A file that renames the page without a token keeps the stored one.
	if err := dataset.Load(ctx, pool, strings.NewReader(`{"sources": [{"id": 456, "user_id": 100, "name": "Gym 2"}]}`)); err != nil {
		t.Fatal(err)
	}
	if got := opened(); got != token {
		t.Fatalf("token after a file without one opens to %q", got)
	}
}
