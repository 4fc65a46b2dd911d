package networkafake

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SetNow sets the fake's clock: what "today" is for insights windows and
// SetAdInsights, and "now" for a lifetime budget's flight. nil brings back
// the real clock.
func (f *Fake) SetNow(now func() time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = now
}

// clock is the fake's current time; under f.mu.
func (f *Fake) clock() time.Time {
	if f.now != nil {
		return f.now()
	}
	return time.Now()
}

// locations are the time zones loaded so far, by IANA name.
var locations sync.Map

// location is the ad account's time zone (UTC when it has none or an
// unknown one).
func (w *world) location(accountID string) *time.Location {
	acc, ok := w.adAccounts[accountID]
	if !ok || acc.TimezoneName == "" {
		return time.UTC
	}
	if loc, ok := locations.Load(acc.TimezoneName); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(acc.TimezoneName)
	if err != nil {
		loc = time.UTC
	}
	locations.Store(acc.TimezoneName, loc)
	return loc
}

// today is the fake's date in the ad account's time zone, "YYYY-MM-DD".
func (f *Fake) today(accountID string) string {
	return f.clock().In(f.location(accountID)).Format(time.DateOnly)
}

// SetAdInsights sets the ad's lifetime figures: they replace every day the
// ad had and are kept as the figures of one day, today by the fake's clock
// (SetNow) in the ad account's time zone. The ad becomes one that
// delivered: it gets a row in its campaign's level=ad insights for every
// window holding that day. Until it is set, the ad's data is empty (all zero).
func (f *Fake) SetAdInsights(adID string, in Insights) {
	f.mu.Lock()
	defer f.mu.Unlock()
	account := ""
	if o, ok := f.byID[adID]; ok {
		account = o.AccountID
	}
	f.days[adID] = []dayFigures{{f.today(account), in}}
}

// SetAdInsightsDay sets the ad's figures of one day, the calendar date of
// day in its own location (a date of the ad account's time zone, as
// network_a reports). Zero figures remove the day.
func (f *Fake) SetAdInsightsDay(adID string, day time.Time, in Insights) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setDay(adID, day.Format(time.DateOnly), in)
}

// dayFigures are an ad's figures of one day.
type dayFigures struct {
	date string // "YYYY-MM-DD"
	in   Insights
}

// setDay sets the ad's figures of the date, keeping its days in order;
// zero figures remove the day.
func (w *world) setDay(adID, date string, in Insights) {
	days := w.days[adID]
	i, found := slices.BinarySearchFunc(days, date, func(d dayFigures, date string) int { return strings.Compare(d.date, date) })
	switch {
	case in == (Insights{}) && found:
		days = slices.Delete(days, i, i+1)
	case in == (Insights{}):
	case found:
		days[i].in = in
	default:
		days = slices.Insert(days, i, dayFigures{date, in})
	}
	if len(days) == 0 {
		delete(w.days, adID)
	} else {
		w.days[adID] = days
	}
}

// insightFields are the fields an ad's insights answer.
var insightFields = []string{"impressions", "reach", "clicks", "spend", "actions", "ad_id", "date_start", "date_stop"}

// presets are the date_preset values the fake answers, with the days they
// cover before today (today excluded); today is 0 days back and 0 long.
var presets = map[string][2]int{"today": {0, 1}, "yesterday": {1, 1}, "last_3d": {3, 3}, "last_7d": {7, 7},
	"last_14d": {14, 14}, "last_28d": {28, 28}, "last_30d": {30, 30}, "last_90d": {90, 90}}

// span is an insights read's window of dates, "YYYY-MM-DD", both included;
// all is the whole life (date_preset=maximum).
type span struct {
	since, until string
	all          bool
}

func (s span) holds(date string) bool {
	return s.all || (date >= s.since && date <= s.until)
}

// insightsSpan reads a read's window: time_range when given, else
// date_preset, else the 30 days before today.
func insightsSpan(q url.Values, today string) (span, *answer) {
	fail := func(msg string) (span, *answer) { a := paramError(msg); return span{}, &a }
	if s := q.Get("time_range"); s != "" {
		var r struct{ Since, Until string }
		if json.Unmarshal([]byte(s), &r) != nil {
			return fail(`Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}`)
		}
		since, err1 := time.Parse(time.DateOnly, r.Since)
		until, err2 := time.Parse(time.DateOnly, r.Until)
		if err1 != nil || err2 != nil || until.Before(since) {
			return fail(`Param time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"} with since not after until`)
		}
		return span{since: r.Since, until: r.Until}, nil
	}
	preset := q.Get("date_preset")
	if preset == "maximum" {
		return span{all: true}, nil
	}
	if preset == "" {
		preset = "last_30d"
	}
	p, ok := presets[preset]
	if !ok {
		names := append(slices.Sorted(maps.Keys(presets)), "maximum")
		return fail("Param date_preset must be one of {" + strings.Join(names, ", ") + "}")
	}
	t, _ := time.Parse(time.DateOnly, today)
	return span{since: t.AddDate(0, 0, -p[0]).Format(time.DateOnly),
		until: t.AddDate(0, 0, -p[0]+p[1]-1).Format(time.DateOnly)}, nil
}

// objectInsights answers GET /{id}/insights of an ad, or of a campaign at
// level=ad: one row per ad that has figures in the window, summed, or with
// time_increment=1 one row per ad and day with figures; paged.
func (f *Fake) objectInsights(who caller, id string, q url.Values, token, base string) answer {
	o, a := f.object(who, http.MethodGet, id)
	if a != nil {
		return *a
	}
	if a := checkFields(q, nil, insightFields); a != nil {
		return *a
	}
	var ads []*Object
	switch {
	case o.Kind == "ad":
		ads = []*Object{o}
	case o.Kind == "campaign" && q.Get("level") == "ad":
		ads = f.campaignAds[o.ID]
	case o.Kind == "campaign":
		return paramError("insights of a campaign are read with level=ad in this fake")
	default:
		return paramError("insights of this fake are those of ads, and of campaigns at level=ad")
	}
	daily := false
	switch q.Get("time_increment") {
	case "1":
		daily = true
	case "", "all_days":
	default:
		return paramError("Param time_increment must be 1 or all_days in this fake")
	}
	today := f.today(o.AccountID)
	win, bad := insightsSpan(q, today)
	if bad != nil {
		return *bad
	}
	after, limit, bad := window(q, 500)
	if bad != nil {
		return *bad
	}
	want := fields(q)
	if o.Kind == "campaign" && !slices.Contains(want, "ad_id") {
		want = append(want, "ad_id") // a level=ad row names its ad
	}
	var rows []map[string]any
	for _, ad := range ads {
		rows = append(rows, f.adRows(ad, win, daily, today, want)...)
	}
	data := []any{}
	for i := after; i < after+limit && i < len(rows); i++ {
		data = append(data, rows[i])
	}
	return paged(data, len(rows), after, limit, q, base+"/"+o.ID+"/insights", token)
}

// adRows are the ad's insights rows in the window: one summed row, or one a
// day; none without figures.
func (f *Fake) adRows(ad *Object, window span, daily bool, today string, want []string) []map[string]any {
	var days []dayFigures
	for _, d := range f.days[ad.ID] {
		if window.holds(d.date) {
			days = append(days, d)
		}
	}
	if len(days) == 0 {
		return nil
	}
	types := conversionTypes(f.byID[str(ad.Fields, "adset_id")])
	if daily {
		rows := make([]map[string]any, len(days))
		for i, d := range days {
			rows[i] = insightsRow(ad.ID, d.in, types, want)
			rows[i]["date_start"], rows[i]["date_stop"] = d.date, d.date
		}
		return rows
	}
	var sum Insights
	spends := make([]string, len(days))
	for i, d := range days {
		in := d.in
		sum.Impressions += in.Impressions
		sum.Reach += in.Reach
		sum.Clicks += in.Clicks
		sum.Engagement += in.Engagement
		sum.Conversions += in.Conversions
		spends[i] = in.Spend
	}
	sum.Spend = addSpends(spends)
	row := insightsRow(ad.ID, sum, types, want)
	row["date_start"], row["date_stop"] = window.since, window.until
	if window.all {
		row["date_start"], row["date_stop"] = days[0].date, max(today, days[len(days)-1].date)
	}
	return []map[string]any{row}
}

// addSpends sums spends written as decimals ("12.34"); one spend is
// answered as it is, several as their sum with two decimals.
func addSpends(spends []string) string {
	if len(spends) == 1 {
		return spends[0]
	}
	var cents int64
	for _, s := range spends {
		whole, frac, _ := strings.Cut(s, ".")
		w, _ := strconv.ParseInt(whole, 10, 64)
		frac = (frac + "00")[:2]
		c, _ := strconv.ParseInt(frac, 10, 64)
		cents += w*100 + c
	}
	return fmt.Sprintf("%d.%02d", cents/100, cents%100)
}

// omniEvents are the pixel events network_a also reports under a grouped
// omni_<event> type.
var omniEvents = []string{"purchase", "add_to_cart", "complete_registration", "initiated_checkout", "view_content", "search", "lead"}

// conversionTypes are the action types an ad set's conversions are
// reported under: offsite_conversion.fb_pixel_<event> (the promoted
// object's custom_event_type in lower case, purchase without one) or
// offsite_conversion.custom.<id> for a custom_conversion_id, then the
// grouped types network_a adds with the same value (offsite_conversion,
// omni_<event>).
func conversionTypes(adset *Object) []string {
	var promoted map[string]any
	if adset != nil {
		promoted, _ = adset.Fields["promoted_object"].(map[string]any)
	}
	if id, ok := promoted["custom_conversion_id"]; ok && id != nil && id != "" {
		return []string{"offsite_conversion.custom." + fmt.Sprint(id), "offsite_conversion"}
	}
	event := strings.ToLower(str(promoted, "custom_event_type"))
	if event == "" {
		event = "purchase"
	}
	types := []string{"offsite_conversion.fb_pixel_" + event, "offsite_conversion"}
	if slices.Contains(omniEvents, event) {
		types = append(types, "omni_"+event)
	}
	return types
}

// insightsRow is an insights row of an ad with the fields asked for:
// numbers as strings, actions only when there are some.
func insightsRow(adID string, in Insights, conversions []string, want []string) map[string]any {
	spend := in.Spend
	if spend == "" {
		spend = "0"
	}
	d := map[string]any{}
	for _, k := range want {
		switch k {
		case "impressions":
			d[k] = strconv.Itoa(in.Impressions)
		case "reach":
			d[k] = strconv.Itoa(in.Reach)
		case "clicks":
			d[k] = strconv.Itoa(in.Clicks)
		case "spend":
			d[k] = spend
		case "ad_id":
			d[k] = adID
		case "actions":
			var actions []any
			if in.Engagement != 0 {
				actions = append(actions, map[string]any{"action_type": "post_engagement", "value": strconv.Itoa(in.Engagement)})
			}
			if in.Conversions != 0 {
				for _, t := range conversions {
					actions = append(actions, map[string]any{"action_type": t, "value": strconv.Itoa(in.Conversions)})
				}
			}
			if actions != nil { // network_a leaves out actions when there are none
				d[k] = actions
			}
		}
	}
	return d
}

// organicReachMetric is the metric of a post's organic reach.
const organicReachMetric = "post_total_media_view_unique"

// postInsights answers GET /{post_id}/insights?metric=post_total_media_view_unique
// to the page's token; retired metrics such as post_impressions_unique are
// refused as invalid.
func (f *Fake) postInsights(who caller, postID string, q url.Values) answer {
	if a := f.pageAccess(who, http.MethodGet, f.postPage[postID]); a != nil {
		return *a
	}
	if q.Get("metric") != organicReachMetric {
		return paramError("The value must be a valid insights metric")
	}
	return answer{status: http.StatusOK, body: map[string]any{"data": []any{map[string]any{
		"name": organicReachMetric, "period": "lifetime", "title": "Lifetime Post Unique Media Views",
		"values": []any{map[string]any{"value": f.posts[postID].OrganicReach}},
		"id":     postID + "/insights/" + organicReachMetric + "/lifetime",
	}}}}
}
