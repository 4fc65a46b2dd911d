package main

import (
	"context"
	"fmt"
	"math"
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

// networkB answers campaign i's network_b account id, linked to its page,
// or 0 when it has none: a share shareB of the campaigns, spread evenly
// over the ids (campaign i has one when i × shareB passes an integer).
func networkB(i int, shareB float64) int64 {
	if math.Floor(float64(i)*shareB) > math.Floor(float64(i-1)*shareB) {
		return int64(networkBBase + i)
	}
	return 0
}

// countB answers how many of campaigns 1..n have a network_b account.
func countB(n int, shareB float64) int {
	c := 0
	for i := 1; i <= n; i++ {
		if networkB(i, shareB) != 0 {
			c++
		}
	}
	return c
}

// seedDatabase writes n users into the migrated, empty database at dbURL,
// each with a sealed user token, one network_a page source with a sealed
// page token, and one running campaign on that page (hashtag "#boost", daily
// budget 10.00, POST_ENGAGEMENT, no end date, no preset). A share shareB of
// the campaigns (networkB) also names a network_b account, which their page
// source links as /me/accounts would have. Campaign i belongs to user i.
// Each table is one set-based statement; the tokens, which only Go can
// seal, and the network_b ids travel as arrays.
func seedDatabase(ctx context.Context, dbURL string, cipher *auth.TokenCipher, n int, shareB float64) error {
	users := make([][]byte, n)
	pages := make([][]byte, n)
	bs := make([]int64, n) // 0: none
	for i := range n {
		bs[i] = networkB(i+1, shareB)
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
			{"pages", `INSERT INTO source (user_id, id, platform, name, access_token, network_b_id, network_b_name)
				SELECT t.i, $2::bigint + t.i, 'network_a', 'Bench page ' || t.i, t.token,
					nullif(t.b, 0), CASE WHEN t.b <> 0 THEN 'bench-b-' || t.i ELSE '' END
				FROM unnest($1::bytea[], $3::bigint[]) WITH ORDINALITY AS t (token, b, i)`, []any{pages, pageBase, bs}},
			{"campaigns", `INSERT INTO campaign (id, user_id, page_id, network_b_id, active, campaign_budget_type,
					campaign_budget_value, goal, hashtag, end_date, preset_id)
				SELECT t.i, t.i, $2::bigint + t.i, nullif(t.b, 0),
					true, 'daily', 10.00, 'POST_ENGAGEMENT', '#boost', NULL, NULL
				FROM unnest($1::bigint[]) WITH ORDINALITY AS t (b, i)`, []any{bs, pageBase}},
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

// firstMediaID is one less than the first media id seedFake makes: 17
// digits, beyond 2^53 as network_b's are.
const firstMediaID = 17890000000000000

// mediaTypes are the media_type values seedFake's media take in turn.
var mediaTypes = []string{"IMAGE", "VIDEO", "CAROUSEL_ALBUM"}

// seedFake gives the fake network_a the same n users as seedDatabase: user
// i with token bench-user-<i>, page pageBase+i (token bench-page-<i>, 1,000
// followers) and ad account act_<i> in USD, and posts qualifying posts on
// each page ("<page>_<k>", with "#boost"), published at distinct times
// within the 48 hours before now. k runs on across pages: as on network_a,
// the part after "_" is unique by itself, and adboost keys a boosted post by it.
// The page of a campaign with a network_b account (networkB) links that
// account (1,000 followers), which has as many qualifying media as the page
// has posts, all with "#boost" as the posts are, images, videos and albums
// in turn, with organic reach, likes and comments; their ids run on across
// accounts from firstMediaID+1.
func seedFake(f *networkafake.Fake, n, posts int, now time.Time, shareB float64) {
	step := 48 * time.Hour / time.Duration(posts+1)
	for i := 1; i <= n; i++ {
		page := pageID(i)
		p := networkafake.Page{ID: page, Name: "Bench page " + strconv.Itoa(i), Token: pageToken(i), Followers: 1000}
		b := networkB(i, shareB)
		if b != 0 {
			p.B = &networkafake.AccountB{ID: strconv.FormatInt(b, 10), Username: "bench-b-" + strconv.Itoa(i), Followers: 1000}
		}
		f.AddUser(networkafake.User{
			Token: userToken(i), ID: strconv.Itoa(i), FirstName: "Bench", LastName: strconv.Itoa(i),
			Email:      fmt.Sprintf("u%d@bench.example", i),
			Pages:      []networkafake.Page{p},
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
		if p.B == nil {
			continue
		}
		for j := 1; j <= posts; j++ {
			id := strconv.FormatInt(firstMediaID+int64((i-1)*posts+j), 10)
			m := networkafake.Media{
				ID:        id,
				Caption:   fmt.Sprintf("Media %d of account %s #boost", j, p.B.ID),
				Type:      mediaTypes[j%len(mediaTypes)],
				Permalink: "https://network-b.example/p/" + id,
				URL:       "https://network-b.example/" + id + ".jpg",
				Created:   now.Add(-time.Duration(j)*step + step/2),
				Likes:     10 + j, Comments: j % 7, Reach: 200 + 10*j,
			}
			if m.Type == "VIDEO" {
				m.Thumbnail = "https://network-b.example/" + id + "-thumb.jpg"
			}
			f.AddMedia(p.B.ID, m)
		}
	}
}
