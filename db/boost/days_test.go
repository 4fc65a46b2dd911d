package boost_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
)

// dayRow is a stored day of a post, a source or a user, as text.
func (w *world) dayRows(sql string, args ...any) []string {
	w.t.Helper()
	rows, err := w.pool.Query(context.Background(), sql, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var day time.Time
		var currency, spend string
		var impressions, reach, clicks, engagement, conversions int64
		if err := rows.Scan(&day, &currency, &impressions, &reach, &clicks, &engagement, &spend, &conversions); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %d/%d/%d/%d %s %d", day.Format(time.DateOnly), currency, impressions, reach, clicks, engagement, spend, conversions))
	}
	if err := rows.Err(); err != nil {
		w.t.Fatal(err)
	}
	return out
}

const (
	postDaysSQL = `SELECT day, currency, impressions, reach, clicks, engagement, spend::text, conversions
		FROM boosted_post_day WHERE post_id = $1 ORDER BY day`
	userDaysSQL = `SELECT day, currency, impressions, reach, clicks, engagement, spend::text, conversions
		FROM boosted_user_day WHERE user_id = 100 ORDER BY day`
	sourceDaysSQL = `SELECT day, currency, impressions, reach, clicks, engagement, spend::text, conversions
		FROM boosted_source_day WHERE user_id = 100 AND source_id = 456 ORDER BY day`
)

// dayReads are the time windows of the campaign's insights reads by day
// (time_increment=1) among the calls: "maximum" or "since..until".
func dayReads(calls []networkafake.Call) []string {
	var out []string
	for _, c := range calls {
		path, query, _ := strings.Cut(c.Path, "?")
		q, _ := url.ParseQuery(query)
		if !strings.HasSuffix(path, "/insights") || q.Get("time_increment") != "1" {
			continue
		}
		switch {
		case q.Get("date_preset") != "":
			out = append(out, q.Get("date_preset"))
		default:
			var r struct{ Since, Until string }
			fmt.Sscanf(strings.NewReplacer(`{"since":"`, "", `","until":"`, " ", `"}`, "").Replace(q.Get("time_range")), "%s %s", &r.Since, &r.Until)
			out = append(out, r.Since+".."+r.Until)
		}
	}
	return out
}

// The engine keeps each ad's statistics by day: a network_a campaign it
// makes starts as read; the first read of one never read covers its whole
// life (paged: two ads of 300 days each); later reads, at most once an
// hour, cover the ad account's last 3 days, so a revised day replaces the
// stored one, an older one is not read again, and a day network_a no
// longer reports keeps its row. The post's, the source's and the user's
// sums of each day follow.
func TestEngineDays(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	now := time.Now().UTC()
	start := now
	day := func(i int) string { return start.AddDate(0, 0, -i).Format(time.DateOnly) }
	w.setNow(now)
	w.fake.SetNow(func() time.Time { return now })
	w.post("1", "#gym one", time.Hour, 0)
	w.post("2", "#gym two", 2*time.Hour, 0)
	w.cycle()
	ad1, ad2 := w.object("ad", "adboost-7-1").ID, w.object("ad", "adboost-7-2").ID
	if got := dayReads(w.fake.TakeCalls()); len(got) != 0 {
		t.Fatalf("days read in the cycle that made the campaign: %v", got)
	}
	for i := range 300 {
		day := now.AddDate(0, 0, -i)
		w.fake.SetAdInsightsDay(ad1, day, networkafake.Insights{Impressions: 10 + i, Reach: 5, Clicks: 1, Engagement: 2, Spend: "1.50"})
		w.fake.SetAdInsightsDay(ad2, day, networkafake.Insights{Impressions: 20, Reach: 7, Clicks: 0, Engagement: 3, Spend: "0.25"})
	}
	// Never read (a campaign of before): the whole life.
	w.stExec(`UPDATE network_a_campaign SET days_read_at = NULL WHERE campaign_id = 7`)
	w.cycle()
	if got := dayReads(w.fake.TakeCalls()); strings.Join(got, ",") != "maximum,maximum" {
		t.Errorf("the first read's windows %v, want the whole life on two pages", got)
	}
	const post1 = 1 // a post's id in adboost is the part of network_a's after "_"
	got := w.dayRows(postDaysSQL, post1)
	if len(got) != 300 || got[0] != day(299)+" USD 309/5/1/2 1.500 0" || got[299] != day(0)+" USD 10/5/1/2 1.500 0" {
		t.Fatalf("post 1's days: %d rows, first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	users := w.dayRows(userDaysSQL)
	if len(users) != 300 || users[299] != day(0)+" USD 30/12/1/5 1.750 0" || users[0] != day(299)+" USD 329/12/1/5 1.750 0" {
		t.Fatalf("the user's days: %d rows, first %q, last %q", len(users), users[0], users[len(users)-1])
	}
	if sources := w.dayRows(sourceDaysSQL); strings.Join(sources, "|") != strings.Join(users, "|") {
		t.Errorf("the source's days differ from the user's (one source)")
	}

	// Within the hour: no read.
	now = now.Add(30 * time.Minute)
	w.setNow(now)
	w.cycle()
	if got := dayReads(w.fake.TakeCalls()); len(got) != 0 {
		t.Errorf("days read again within the hour: %v", got)
	}
	// An hour on: the last 3 days from the last read's (the start's) day.
	// The day before the start revised, the start's day gone from
	// network_a's answer, an older day revised (not read again).
	now = now.Add(40 * time.Minute)
	w.setNow(now)
	w.fake.SetNow(func() time.Time { return now })
	w.fake.SetAdInsightsDay(ad1, start.AddDate(0, 0, -1), networkafake.Insights{Impressions: 100, Reach: 50, Clicks: 9, Engagement: 20, Spend: "3.00"})
	w.fake.SetAdInsightsDay(ad1, start, networkafake.Insights{})
	w.fake.SetAdInsightsDay(ad1, start.AddDate(0, 0, -10), networkafake.Insights{Impressions: 999, Spend: "99.00"})
	w.cycle()
	if got, want := dayReads(w.fake.TakeCalls()), day(2)+".."+now.Format(time.DateOnly); strings.Join(got, ",") != want {
		t.Errorf("the later read's windows %v, want %s", got, want)
	}
	got = w.dayRows(postDaysSQL, post1)
	if got[298] != day(1)+" USD 100/50/9/20 3.000 0" || got[299] != day(0)+" USD 10/5/1/2 1.500 0" || got[289] != day(10)+" USD 20/5/1/2 1.500 0" {
		t.Errorf("post 1's days after the re-read: %q %q %q", got[289], got[298], got[299])
	}
	users = w.dayRows(userDaysSQL)
	if users[298] != day(1)+" USD 120/57/9/23 3.250 0" || users[299] != day(0)+" USD 30/12/1/5 1.750 0" {
		t.Errorf("the user's days after the re-read: %q %q", users[298], users[299])
	}
}

// campaignDaysSQL reads a campaign's sums of its posts' days.
const campaignDaysSQL = `SELECT day, currency, impressions, reach, clicks, engagement, spend::text, conversions
	FROM boosted_campaign_day WHERE user_id = 100 AND campaign_id = $1 ORDER BY day`

// A campaign's sums of days (boosted_campaign_day) are its posts' days: a
// post boosted by campaign 7 brings the days its ad reported into 7's sums;
// when campaign 8 boosts the same post later, the post's days join 8's sums
// at once; a revised day of the post moves both campaigns.
func TestEngineCampaignDays(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	now := time.Now().UTC()
	start := now
	day := func(i int) string { return start.AddDate(0, 0, -i).Format(time.DateOnly) }
	w.setNow(now)
	w.fake.SetNow(func() time.Time { return now })
	w.post("3", "#gym and FITNESS", 3*time.Hour, 250) // both campaigns' rules
	w.cycle()
	ad := w.object("ad", "adboost-7-3").ID
	for i := range 3 {
		w.fake.SetAdInsightsDay(ad, now.AddDate(0, 0, -i), networkafake.Insights{Impressions: 10 + i, Reach: 5, Clicks: 1, Engagement: 2, Spend: "1.50"})
	}
	w.stExec(`UPDATE network_a_campaign SET days_read_at = NULL WHERE campaign_id = 7`)
	w.cycle()
	const post3 = 3
	want := []string{day(2) + " USD 12/5/1/2 1.500 0", day(1) + " USD 11/5/1/2 1.500 0", day(0) + " USD 10/5/1/2 1.500 0"}
	if got := w.dayRows(postDaysSQL, post3); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("post 3's days %q, want %q", got, want)
	}
	if got := w.dayRows(campaignDaysSQL, 7); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("campaign 7's days %q, want its post's %q", got, want)
	}
	if got := w.dayRows(campaignDaysSQL, 8); len(got) != 0 {
		t.Errorf("campaign 8's days before it boosts the post: %q", got)
	}

	w.stExec(`UPDATE campaign SET active = true WHERE id = 8`)
	w.cycle()
	if w.object("ad", "adboost-8-3").ID == "" {
		t.Fatal("campaign 8 did not boost post 3")
	}
	if got := w.dayRows(campaignDaysSQL, 8); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("campaign 8's days once it boosts the post %q, want the post's %q", got, want)
	}

	// An hour on, campaign 7's ad revises yesterday: the post and both
	// campaigns move by the difference.
	now = now.Add(70 * time.Minute)
	w.setNow(now)
	w.fake.SetNow(func() time.Time { return now })
	w.fake.SetAdInsightsDay(ad, start.AddDate(0, 0, -1), networkafake.Insights{Impressions: 100, Reach: 50, Clicks: 9, Engagement: 20, Spend: "3.00"})
	w.cycle()
	want[1] = day(1) + " USD 100/50/9/20 3.000 0"
	for _, c := range []int64{7, 8} {
		if got := w.dayRows(campaignDaysSQL, c); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("campaign %d's days after the revision %q, want %q", c, got, want)
		}
	}
}
