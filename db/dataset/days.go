package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"

	"adboost/db"
)

func init() {
	register(section{key: "post_days", load: loadPostDays})
}

// postDayRow is one day of a boosted post's statistics, in a currency (the
// post's ad account's), as the engine keeps them.
type postDayRow struct {
	UserID      int64  `json:"user_id"`
	PostID      int64  `json:"post_id"`
	Currency    string `json:"currency"`
	Day         string `json:"day"`
	Impressions int64  `json:"impressions"`
	Reach       int64  `json:"reach"`
	Clicks      int64  `json:"clicks"`
	Engagement  int64  `json:"engagement"`
	Spend       string `json:"spend"`
	Conversions int64  `json:"conversions"`
}

var (
	currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)
	daySpend     = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]{1,3})?$`)
)

// loadPostDays writes the days of boosted posts (each post the user's, in
// boosted_posts), then the users' and their sources' sums of each day.
func loadPostDays(ctx context.Context, q *db.Queries, raw json.RawMessage) error {
	items, err := rows[postDayRow]("post_days", raw)
	if err != nil {
		return err
	}
	var users []int64
	type key struct {
		user, post int64
		currency   string
		day        string
	}
	seen := map[key]bool{}
	err = check("post_days", items, func(i int, d *postDayRow) error {
		switch {
		case d.UserID <= 0:
			return invalid("user_id", "must be a positive integer")
		case d.PostID <= 0:
			return invalid("post_id", "must be a positive integer")
		case !currencyCode.MatchString(d.Currency):
			return invalid("currency", "must be a currency code such as \"EUR\"")
		case d.Impressions < 0 || d.Reach < 0 || d.Clicks < 0 || d.Engagement < 0 || d.Conversions < 0:
			return invalid("impressions", "counts must not be negative")
		case !daySpend.MatchString(d.Spend):
			return invalid("spend", "must be a decimal amount such as \"12.34\"")
		}
		if _, err := time.Parse(time.DateOnly, d.Day); err != nil {
			return invalid("day", "must be a date YYYY-MM-DD")
		}
		k := key{d.UserID, d.PostID, d.Currency, d.Day}
		if seen[k] {
			return invalid("day", "repeats the post's day in that currency")
		}
		seen[k] = true
		if !slices.Contains(users, d.UserID) {
			users = append(users, d.UserID)
		}
		return nil
	})
	if err != nil || len(items) == 0 {
		return err
	}
	arg, err := json.Marshal(items)
	if err != nil {
		return err
	}
	n, err := q.PostDaysImport(ctx, arg)
	if err != nil {
		return err
	}
	if n != int64(len(items)) {
		return fmt.Errorf("post_days: %d of %d rows name a post that is not a boosted post of their user_id", int64(len(items))-n, len(items))
	}
	return q.PostDaysResum(ctx, users)
}
