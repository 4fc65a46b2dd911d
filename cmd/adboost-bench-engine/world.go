package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"adboost/auth"
	"adboost/auth/networkafake"
)

// tokenKey seals the benchmark's network_a tokens in the database; the
// engine gets it as TOKEN_ENCRYPTION_KEY. It is a fixed key for throwaway
// data, never one for real tokens.
const tokenKey = "YWRib29zdC1iZW5jaC1lbmdpbmUta2V5LTMyLWJ5dGU="

// pageBase and networkBBase offset campaign i's network_a page id
// (pageBase+i) and network_b account id (networkBBase+i) from the user ids,
// so that no two kinds of id look alike in the data.
const (
	pageBase     = 1_000_000
	networkBBase = 2_000_000
)

// The benchmark's names for user i's things, shared by the database and the
// fake so that the two describe one world.
func userToken(i int) string { return "bench-user-" + strconv.Itoa(i) }
func pageToken(i int) string { return "bench-page-" + strconv.Itoa(i) }
func pageID(i int) string    { return strconv.Itoa(pageBase + i) }

// seedDatabase writes n users into the migrated, empty database at dbURL,
// each with a sealed user token, one network_a page source with a sealed
// page token, and one running campaign on that page (hashtag "#boost", daily
// budget 10.00, POST_ENGAGEMENT, no end date, no preset). A share shareB of
// the campaigns, spread evenly over the ids, also names a network_b account.
// Campaign i belongs to user i. Each table is one set-based statement; the
// tokens, which only Go can seal, travel as arrays.
func seedDatabase(ctx context.Context, dbURL string, cipher *auth.TokenCipher, n int, shareB float64) error {
	users := make([][]byte, n)
	pages := make([][]byte, n)
	for i := range n {
		var err error
		if users[i], err = cipher.Seal(userToken(i + 1)); err != nil {
			return err
		}
		if pages[i], err = cipher.Seal(pageToken(i + 1)); err != nil {
			return err
		}
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		steps := []struct {
			what string
			sql  string
			args []any
		}{
			{"users", `INSERT INTO app_user (id, email, snid, network_a_token)
				SELECT t.i, 'u' || t.i || '@bench.example', t.i, t.token
				FROM unnest($1::bytea[]) WITH ORDINALITY AS t (token, i)`, []any{users}},
			{"pages", `INSERT INTO source (user_id, id, platform, name, access_token)
				SELECT t.i, $2::bigint + t.i, 'network_a', 'Bench page ' || t.i, t.token
				FROM unnest($1::bytea[]) WITH ORDINALITY AS t (token, i)`, []any{pages, pageBase}},
			{"campaigns", `INSERT INTO campaign (id, user_id, page_id, network_b_id, active, campaign_budget_type,
					campaign_budget_value, goal, hashtag, end_date, preset_id)
				SELECT g, g, $2::bigint + g,
					CASE WHEN floor(g * $4::float8) > floor((g - 1) * $4::float8) THEN $3::bigint + g END,
					true, 'daily', 10.00, 'POST_ENGAGEMENT', '#boost', NULL, NULL
				FROM generate_series(1, $1::bigint) AS g`, []any{n, pageBase, networkBBase, shareB}},
			// The ids were given: move the identity sequences past them.
			{"sequences", `SELECT identity_sync()`, nil},
		}
		for _, s := range steps {
			if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
				return fmt.Errorf("seeding %s: %w", s.what, err)
			}
		}
		return nil
	})
}

// seedFake gives the fake network_a the same n users as seedDatabase: user
// i with token bench-user-<i>, page pageBase+i (token bench-page-<i>, 1,000
// followers) and ad account act_<i> in USD, and posts qualifying posts on
// each page ("<page>_<k>", with "#boost"), published at distinct times
// within the 48 hours before now. k runs on across pages: as on network_a,
// the part after "_" is unique by itself, and adboost keys a boosted post by it.
func seedFake(f *networkafake.Fake, n, posts int, now time.Time) {
	step := 48 * time.Hour / time.Duration(posts+1)
	for i := 1; i <= n; i++ {
		page := pageID(i)
		f.AddUser(networkafake.User{
			Token: userToken(i), ID: strconv.Itoa(i), FirstName: "Bench", LastName: strconv.Itoa(i),
			Email:      fmt.Sprintf("u%d@bench.example", i),
			Pages:      []networkafake.Page{{ID: page, Name: "Bench page " + strconv.Itoa(i), Token: pageToken(i), Followers: 1000}},
			AdAccounts: []networkafake.AdAccount{{ID: "act_" + strconv.Itoa(i), Status: 1, Currency: "USD"}},
		})
		for j := 1; j <= posts; j++ {
			id := page + "_" + strconv.Itoa((i-1)*posts+j)
			f.AddPost(page, networkafake.Post{
				ID:        id,
				Message:   fmt.Sprintf("Post %d of page %s #boost", j, page),
				Permalink: "https://network-a.example/" + id,
				Picture:   "https://network-a.example/" + id + ".jpg",
				Created:   now.Add(-time.Duration(j) * step),
			})
		}
	}
}
