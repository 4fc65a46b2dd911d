package dataset

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"time"
)

// demoDays is how many days of statistics the demo's posts have, ending
// yesterday (UTC) on the day the demo is loaded.
const demoDays = 60

// demoCurrency is the currency of the demo user's ad account (act_2000).
const demoCurrency = "EUR"

// demoPostDays is a data file with the `post_days` of every post of the demo
// files' campaigns: demoDays days ending the day before today, with figures
// that vary from post to post and day to day but are the same at every load.
func demoPostDays(files []map[string]json.RawMessage, today time.Time) (map[string]json.RawMessage, error) {
	var pages []struct {
		ID     int64 `json:"id"`
		UserID int64 `json:"user_id"`
	}
	var posts []struct {
		ID      int64   `json:"id"`
		PageIDs []int64 `json:"boosted_page_ids"`
	}
	for _, f := range files {
		if raw, ok := f["boosted_pages"]; ok {
			if err := json.Unmarshal(raw, &pages); err != nil {
				return nil, fmt.Errorf("demo days: %w", err)
			}
		}
		if raw, ok := f["boosted_posts"]; ok {
			if err := json.Unmarshal(raw, &posts); err != nil {
				return nil, fmt.Errorf("demo days: %w", err)
			}
		}
	}
	userOf := map[int64]int64{}
	for _, p := range pages {
		userOf[p.ID] = p.UserID
	}
	last := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	var rows []postDayRow
	for _, p := range posts {
		if len(p.PageIDs) == 0 || userOf[p.PageIDs[0]] == 0 {
			continue
		}
		for i := range demoDays {
			rows = append(rows, demoDay(userOf[p.PageIDs[0]], p.ID, last.AddDate(0, 0, -i)))
		}
	}
	raw, err := json.Marshal(rows)
	if err != nil {
		return nil, err
	}
	return map[string]json.RawMessage{"post_days": raw}, nil
}

// demoDay is one post's figures of one day: a weekly rhythm (weekends
// busier) times a number drawn from the post and the date.
func demoDay(userID, postID int64, day time.Time) postDayRow {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", postID, day.Format(time.DateOnly))
	r := h.Sum64()
	pick := func(lo, span uint64) int64 { v := int64(lo + r%span); r /= span; return v }
	weekly := map[time.Weekday]int64{time.Saturday: 14, time.Sunday: 13, time.Friday: 12}[day.Weekday()]
	if weekly == 0 {
		weekly = 10
	}
	impressions := pick(300, 900) * weekly / 10
	reach := impressions * pick(55, 25) / 100
	engagement := impressions * pick(20, 60) / 1000
	clicks := impressions * pick(4, 12) / 1000
	cents := pick(150, 650) * weekly / 10
	return postDayRow{
		UserID: userID, PostID: postID, Currency: demoCurrency, Day: day.Format(time.DateOnly),
		Impressions: impressions, Reach: reach, Clicks: clicks, Engagement: engagement,
		Spend: fmt.Sprintf("%d.%02d", cents/100, cents%100), Conversions: pick(0, 3),
	}
}
