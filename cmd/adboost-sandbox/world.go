package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"adboost/auth/networkafake"
)

// The sandbox's fixed tokens: the README documents them, so that they work
// without reading the start-up output. They do not end: at any time they
// are as good as a sign-in of a moment ago. The tokens network_a gives for
// them in an exchange end 60 days after it, by the sandbox's clock.
const (
	DefaultUserToken     = "EAAsandbox0user0token"
	DefaultDemoToken     = "EAAsandbox0demo0token"
	DefaultNoPayToken    = "EAAsandbox0nopay0token"
	DefaultDeclinedToken = "EAAsandbox0declined0token"
)

// The sandbox's app: adboost exchanges sign-in tokens for long-lived ones
// with it (NETWORK_A_APP_ID, NETWORK_A_APP_SECRET). The secret is the
// sandbox's own, documented in the README, not a secret.
const (
	DefaultAppID     = "8090000000000001"
	DefaultAppSecret = "sandbox0app0secret"
)

// The declined user's permission: the user signed in without granting it.
const DeclinedPermission = networkafake.PermissionPagesManageAds

// The page that loses its token (page_lost): a page of the
// sandbox user whose page token the sandbox expires a while after it starts
// (-page-lost-after).
const (
	LostPageID    = "7000004"
	LostPageToken = "EAAsandbox0page0popup"
)

// The ad account without a payment method (refused): the only
// one of the no-payment user; every create in it is refused with code 200.
const NoPayAccount = "act_3000"

// The ad account of the declined user.
const DeclinedAccount = "act_4000"

// page is a page of the sandbox and what its posts talk about, and the
// media of its network_b account (Page.B, whose Followers it starts with).
type page struct {
	networkafake.Page
	posts []string // message templates, in turn
	media []media  // the network_b account's media, newest first
}

// media is a network_b media of the sandbox: its caption and media_type.
type media struct {
	caption, kind string
}

// sandboxPages are the pages of the sandbox user. The messages carry the
// hashtags and keywords of the demo data set's presets and campaigns
// (#gymlife, #spinclass, #healthybrunch; gym, workout, coffee, brunch,
// weekend, spa, getaway), and some near misses (#gymnastics, no keyword).
// The last one, LostPageID, loses its page token a while after the start.
func sandboxPages() []page {
	return []page{
		{Page: networkafake.Page{ID: "7000001", Name: "Sandbox Gym", Token: "EAAsandbox0page0gym", Followers: 1000,
			Picture: "https://picsum.photos/seed/sandbox-gym/200",
			B: &networkafake.AccountB{ID: "7100001", Username: "sandboxgym", Picture: "https://picsum.photos/seed/sandboxgym/200",
				Followers: 1500}},
			posts: []string{
				"Morning workout done before sunrise #gymlife",
				"New kettlebells in the gym today! #gymlife #strength",
				"Early #spinclass tomorrow at 7: bring water",
				"Kids' #gymnastics starts in May",
				"Leg day. No excuses. #gymlife #workout",
				"Closed on Sunday for a deep clean",
			},
			media: []media{
				{"Deadlift records all round this morning #gymlife #workout", "IMAGE"},
				{"Thirty seconds of tonight's #spinclass", "VIDEO"},
				{"The new kettlebell corner, from every side #gymlife", "CAROUSEL_ALBUM"},
				{"Happy Friday from the front desk", "IMAGE"},
			}},
		{Page: networkafake.Page{ID: "7000002", Name: "Sandbox Café", Token: "EAAsandbox0page0cafe", Followers: 600,
			Picture: "https://picsum.photos/seed/sandbox-cafe/200",
			B: &networkafake.AccountB{ID: "7100002", Username: "sandboxcafe", Picture: "https://picsum.photos/seed/sandboxcafe/200",
				Followers: 800}},
			posts: []string{
				"Sunday brunch is back: eggs, avocado, cold brew #healthybrunch",
				"A new single-origin coffee from Ethiopia, on the bar from today",
				"Breakfast all day, every day #healthybrunch",
				"We are hiring a barista!",
			},
			media: []media{
				{"Pancake stack of the week #healthybrunch", "IMAGE"},
				{"Latte art, slowed down: coffee as it should be", "VIDEO"},
				{"Our brunch menu, page by page #healthybrunch", "CAROUSEL_ALBUM"},
			}},
		{Page: networkafake.Page{ID: "7000003", Name: "Sandbox Getaways", Token: "EAAsandbox0page0travel", Followers: 2500,
			Picture: "https://picsum.photos/seed/sandbox-getaways/200",
			B: &networkafake.AccountB{ID: "7100003", Username: "sandboxgetaways", Picture: "https://picsum.photos/seed/sandboxgetaways/200",
				Followers: 3200}},
			posts: []string{
				"Spa weekend in the Alps, two nights with breakfast #getaway",
				"Last rooms for the ski season #alps",
				"Weekend deal: the lake house, 20 % off",
				"Our team's favourite hiking trails",
			},
			media: []media{
				{"Five rooms with a view of the lake, for your weekend #getaway", "CAROUSEL_ALBUM"},
				{"A drone over the spa at dawn #getaway", "VIDEO"},
				{"What to pack for the Alps", "IMAGE"},
			}},
		{Page: networkafake.Page{ID: LostPageID, Name: "Sandbox Pop-up Gym", Token: LostPageToken, Followers: 500,
			Picture: "https://picsum.photos/seed/sandbox-popup/200",
			B: &networkafake.AccountB{ID: "7100004", Username: "sandboxpopup", Picture: "https://picsum.photos/seed/sandboxpopup/200",
				Followers: 400}},
			posts: []string{
				"Pop-up workout in the park today #gymlife",
				"Our pop-up gym closes soon: last classes this week #gymlife",
				"Free fitness check at the pop-up #workout #gymlife",
			},
			media: []media{
				{"Bootcamp in the park, Saturday at 9 #gymlife #workout", "IMAGE"},
				{"The pop-up gym goes up: a timelapse", "VIDEO"},
			}},
	}
}

// noPayPages are the pages of the no-payment user: posts that the demo
// presets boost (preset 1 with #gymlife, preset 3 with #healthybrunch), so
// that the engine gets as far as a create, which network_a refuses.
func noPayPages() []page {
	return []page{
		{Page: networkafake.Page{ID: "7000011", Name: "Sandbox Boxing Club", Token: "EAAsandbox0page0boxing", Followers: 800,
			Picture: "https://picsum.photos/seed/sandbox-boxing/200",
			B: &networkafake.AccountB{ID: "7100011", Username: "sandboxboxing", Picture: "https://picsum.photos/seed/sandboxboxing/200",
				Followers: 900}},
			posts: []string{
				"Sparring night at the gym #gymlife",
				"Boxing workout for beginners, Saturdays at 10 #gymlife",
				"After the workout: brunch and coffee on us #healthybrunch #gymlife",
				"New gloves in the shop",
			},
			media: []media{
				{"Combo of the week: a boxing workout in 40 seconds #gymlife", "VIDEO"},
			}},
	}
}

// demoPages are the network_a pages of the demo data set's user (Dana Demo,
// network_a id 1000100), so that login-sn with DefaultDemoToken gives the
// demo campaigns (#spinclass, #gymlife, #healthybrunch) posts to boost, and
// the network_b account demostudiofit media for the campaigns on it: 1006
// (network_b only, #demostudio) boosts the image and the album, 1001 (page
// and account, #spinclass, no reach rule) the video and the album, and the
// last media matches neither.
func demoPages() []page {
	return []page{
		{Page: networkafake.Page{ID: "2000101", Name: "Demo Studio Fitness", Token: "EAAsandbox0page0demofit", Followers: 1800,
			Picture: "https://cdn.adboost.example/pages/demo-studio-fitness.png",
			B: &networkafake.AccountB{ID: "3000101", Username: "demostudiofit", Picture: "https://cdn.adboost.example/accounts/demostudiofit.png",
				Followers: 2400}},
			posts: []string{
				"Tonight's #spinclass is full, join the waiting list",
				"Saturday workout in the park #gymlife",
				"Welcome to our new coach, Petra!",
			},
			media: []media{
				{"Meet the coaches of #demostudio: the new timetable starts Monday", "IMAGE"},
				{"Sixty seconds of tonight's #spinclass, from the front bike", "VIDEO"},
				{"Studio tour: the bikes, the mats and the new sauna #demostudio #spinclass", "CAROUSEL_ALBUM"},
				{"Closed on Monday for maintenance, see you on Tuesday", "IMAGE"},
			}},
		{Page: networkafake.Page{ID: "2000102", Name: "Demo Café Vinohrady", Token: "EAAsandbox0page0democafe", Followers: 900,
			Picture: "https://cdn.adboost.example/pages/demo-cafe.png"},
			posts: []string{
				"Brunch for two, every weekend #healthybrunch",
				"Fresh croissants at 8",
			}},
	}
}

// declinedPages are the pages of the declined user: posts the demo
// presets boost (#gymlife), so that a campaign gets as far as needing the
// permission the user declined.
func declinedPages() []page {
	return []page{
		{Page: networkafake.Page{ID: "7000021", Name: "Sandbox Yoga Loft", Token: "EAAsandbox0page0yoga", Followers: 700,
			Picture: "https://picsum.photos/seed/sandbox-yoga/200"},
			posts: []string{
				"Sunrise yoga on the roof, Saturdays at 7 #gymlife",
				"A new mat for every member this month",
				"Stretch after your workout: our guide #gymlife",
			}},
	}
}

// DemoMinDailyBudget is the minimum daily budget of the demo user's ad
// account, in euro cents: above the daily budget of the demo campaign 1006
// (8.00), below the others', so network_a refuses that one campaign's ad
// set as "Budget is too low".
const DemoMinDailyBudget = 900

// cities are the cities network_a knows in the sandbox, by network_a's own
// keys (not adboost's GeoNames keys): the demo campaigns' Prague and Brno,
// a Prague of another country, and a few names that hold theirs.
func cities() []networkafake.City {
	return []networkafake.City{
		{Key: "2420659", Name: "Prague", CountryCode: "CZ", CountryName: "Czech Republic", Region: "Prague", RegionID: "1165"},
		{Key: "2420605", Name: "Brno", CountryCode: "CZ", CountryName: "Czech Republic", Region: "South Moravian Region", RegionID: "1166"},
		{Key: "2420613", Name: "Brno-Bystrc", CountryCode: "CZ", CountryName: "Czech Republic", Region: "South Moravian Region", RegionID: "1166"},
		{Key: "2420770", Name: "Ostrava", CountryCode: "CZ", CountryName: "Czech Republic", Region: "Moravian-Silesian Region", RegionID: "1169"},
		{Key: "2421010", Name: "Plzeň", CountryCode: "CZ", CountryName: "Czech Republic", Region: "Plzeň Region", RegionID: "1171"},
		{Key: "2493027", Name: "Bratislava", CountryCode: "SK", CountryName: "Slovakia", Region: "Bratislava Region", RegionID: "2430"},
		{Key: "2513947", Name: "Prague", CountryCode: "US", CountryName: "United States", Region: "Oklahoma", RegionID: "3879"},
	}
}

// DisapprovedPhrase marks the posts whose ads network_a's review
// disapproves in the sandbox, with disapprovalReasons.
const DisapprovedPhrase = "workout in the park"

// disapprovalReasons are what the review says of such an ad
// (ad_review_feedback.global).
var disapprovalReasons = map[string]string{
	"Health and Fitness": "Your ad implies or attempts to generate negative self-perception in order to promote diet, weight loss, or other health-related products.",
}

// world is the sandbox's network_a and what moves in it: posts that keep
// arriving and gaining organic reach, and ads whose insights grow. Tick moves
// it to a given time, so a test can drive it with its own clock.
type world struct {
	fake      *networkafake.Fake
	postEvery time.Duration
	loseAt    time.Time // when LostPageID loses its token; zero: never

	mu       sync.Mutex
	rng      *rand.Rand
	pages    []page
	turn     []int // per page: the next template
	next     int   // the page of the next post
	seq      int   // posts published
	lastPost time.Time
	last     time.Time
	lost     bool // LostPageID's token is expired
	posts    map[string]*postGrowth
	media    map[string]*postGrowth // by media id
	ads      map[string]*adGrowth

	clock atomic.Int64 // the world's time (UnixNano): the fake's clock
}

// postGrowth is how a post's or a media's organic reach grows: towards
// share × followers, 63 % of the way after tau.
type postGrowth struct {
	PageID    string    `json:"pageID"` // the post's page, the media's network_b account
	Created   time.Time `json:"created"`
	Followers int       `json:"followers"`
	Share     float64   `json:"share"`
}

// adGrowth is an ad's results so far and its rates.
type adGrowth struct {
	Impressions float64 `json:"impressions"`
	PerSecond   float64 `json:"perSecond"` // impressions a second while it runs
	// Shares of the impressions.
	Reach      float64 `json:"reach"`
	CTR        float64 `json:"ctr"`
	Engagement float64 `json:"engagement"`
	Convert    float64 `json:"convert"`
	CPM        int     `json:"cpm"` // cents per 1,000 impressions
	// Day is the day its figures grow on ("YYYY-MM-DD" in its ad account's
	// time zone), DayStart its impressions when that day began.
	Day      string  `json:"day,omitempty"`
	DayStart float64 `json:"dayStart,omitempty"`
}

// at is the ad's results at a number of impressions.
func (a *adGrowth) at(imp int) networkafake.Insights {
	return networkafake.Insights{
		Impressions: imp,
		Reach:       int(float64(imp) * a.Reach),
		Clicks:      int(float64(imp) * a.CTR),
		Engagement:  int(float64(imp) * a.Engagement),
		Conversions: int(float64(imp) * a.Convert),
		Spend:       cents(imp * a.CPM / 1000),
	}
}

// grow adds the impressions of elapsed seconds and answers the ad's
// figures of the day of now (in loc), from the impressions it had when that
// day began.
func (a *adGrowth) grow(elapsed float64, now time.Time, loc *time.Location) (time.Time, networkafake.Insights) {
	day := now.In(loc)
	if d := day.Format(time.DateOnly); d != a.Day {
		a.Day, a.DayStart = d, a.Impressions
	}
	a.Impressions += a.PerSecond * elapsed
	total, before := a.at(int(a.Impressions)), a.at(int(a.DayStart))
	spend := int(a.Impressions)*a.CPM/1000 - int(a.DayStart)*a.CPM/1000
	return day, networkafake.Insights{
		Impressions: total.Impressions - before.Impressions,
		Reach:       total.Reach - before.Reach,
		Clicks:      total.Clicks - before.Clicks,
		Engagement:  total.Engagement - before.Engagement,
		Conversions: total.Conversions - before.Conversions,
		Spend:       cents(spend),
	}
}

// accountZones are the time zones of the sandbox's ad accounts that have
// one; the others' days are UTC's.
var accountZones = map[string]string{"act_2000": "Europe/Prague", "act_2001": "America/New_York"}

// zones are accountZones loaded, by ad account.
var zones = func() map[string]*time.Location {
	out := map[string]*time.Location{}
	for account, name := range accountZones {
		if loc, err := time.LoadLocation(name); err == nil {
			out[account] = loc
		}
	}
	return out
}()

// zone is the ad account's time zone.
func zone(accountID string) *time.Location {
	if loc, ok := zones[accountID]; ok {
		return loc
	}
	return time.UTC
}

// tau is how fast a post's organic reach grows.
const tau = time.Minute

// newWorld seeds the sandbox at now: the app of cfg (which exchanges
// tokens); the sandbox user (cfg.userToken) with four pages, the last of
// which loses its token cfg.pageLostAfter after now, and an active ad
// account after a disabled one; the demo user (cfg.demoToken) with the demo
// data set's two pages and two active ad accounts, in euros in Prague and
// in dollars in New York; the no-payment user (cfg.noPayToken) with one page
// and an active ad account without a payment method; the declined user
// (cfg.declinedToken), who declined DeclinedPermission, with one page and an
// active ad account; a few posts of the last hours on every page, and a few
// media of the last hours on every network_b account.
func newWorld(now time.Time, cfg config) *world {
	seed := cfg.seed
	w := &world{
		fake:      networkafake.New(),
		postEvery: cfg.postEvery,
		rng:       rand.New(rand.NewPCG(seed, seed^0x5eed)),
		lastPost:  now,
		last:      now,
		posts:     map[string]*postGrowth{},
		media:     map[string]*postGrowth{},
		ads:       map[string]*adGrowth{},
	}
	if cfg.pageLostAfter > 0 {
		w.loseAt = now.Add(cfg.pageLostAfter)
	}
	w.clock.Store(now.UnixNano())
	w.fake.SetNow(func() time.Time { return time.Unix(0, w.clock.Load()) })
	w.fake.SetApp(cfg.appID, cfg.appSecret)
	w.fake.AfterCreate(w.review)
	for _, c := range cities() {
		w.fake.AddCity(c)
	}
	for _, u := range sandboxUsers(cfg) {
		for _, p := range u.pages {
			u.Pages = append(u.Pages, p.Page)
			w.pages = append(w.pages, p)
		}
		w.fake.AddUser(u.User)
	}
	w.fake.SetPaymentMethod(NoPayAccount, false)
	w.turn = make([]int, len(w.pages))

	// The last hours: every template of every page once, an hour apart at
	// most, with most of their reach.
	for i, p := range w.pages {
		for j := range p.posts {
			created := now.Add(-time.Duration(1+j) * 47 * time.Minute).Add(-time.Duration(i) * 7 * time.Minute)
			w.publish(i, created, now)
		}
	}
	w.seedMedia(now)
	return w
}

// seededUser is a user of the sandbox and the pages it starts with.
type seededUser struct {
	networkafake.User
	pages []page
}

// sandboxUsers are the sandbox's users, in the order their pages publish:
// the sandbox user, the demo user, the no-payment user and the declined
// user, with the tokens of cfg. Their tokens have no issue time: they do
// not end.
func sandboxUsers(cfg config) []seededUser {
	return []seededUser{
		{User: networkafake.User{Token: cfg.userToken, ID: "5550100", FirstName: "Sam", LastName: "Sandbox",
			Email: "sam@sandbox.network-a.example",
			AdAccounts: []networkafake.AdAccount{
				// disabled: the engine takes the first active one
				{ID: "act_1001", Status: networkafake.AccountDisabled, Currency: "USD", Name: "Sam's old account",
					DisableReason: networkafake.ReasonRiskPayment},
				{ID: "act_1000", Status: networkafake.AccountActive, Currency: "USD", Name: "Sam Sandbox"},
			}}, pages: sandboxPages()},
		{User: networkafake.User{Token: cfg.demoToken, ID: "1000100", FirstName: "Dana", LastName: "Demo",
			Email: "demo@adboost.example",
			AdAccounts: []networkafake.AdAccount{
				{ID: "act_2000", Status: networkafake.AccountActive, Currency: "EUR", Name: "Demo Studio Prague",
					TimezoneName: accountZones["act_2000"], MinDailyBudget: DemoMinDailyBudget},
				{ID: "act_2001", Status: networkafake.AccountActive, Currency: "USD", Name: "Demo Studio New York",
					TimezoneName: accountZones["act_2001"]},
			}}, pages: demoPages()},
		{User: networkafake.User{Token: cfg.noPayToken, ID: "5550200", FirstName: "Nico", LastName: "Nopay",
			Email:      "nico@sandbox.network-a.example",
			AdAccounts: []networkafake.AdAccount{{ID: NoPayAccount, Status: networkafake.AccountActive, Currency: "USD", Name: "Nico Nopay"}}},
			pages: noPayPages()},
		{User: networkafake.User{Token: cfg.declinedToken, ID: "5550300", FirstName: "Dora", LastName: "Declined",
			Email:       "dora@sandbox.network-a.example",
			AdAccounts:  []networkafake.AdAccount{{ID: DeclinedAccount, Status: networkafake.AccountActive, Currency: "USD", Name: "Dora Declined"}},
			Permissions: map[string]string{DeclinedPermission: networkafake.Declined}},
			pages: declinedPages()},
	}
}

// review is network_a's review of a new ad: an ad of a post that holds
// DisapprovedPhrase is disapproved with disapprovalReasons; the others
// pass. It runs as the fake's AfterCreate hook.
func (w *world) review(o networkafake.Object) {
	if o.Kind != "ad" {
		return
	}
	creative, _ := o.Fields["creative"].(map[string]any)
	story, _ := creative["object_story_id"].(string)
	page, _, found := strings.Cut(story, "_")
	if !found {
		return
	}
	for _, p := range w.fake.Posts(page) {
		if p.ID == story && strings.Contains(p.Message, DisapprovedPhrase) {
			w.fake.SetAdReviewFeedback(o.ID, networkafake.ReviewDisapproved, disapprovalReasons, nil)
		}
	}
}

// mediaID is the id of the network_b account's n-th seeded media: 17
// digits, beyond 2^53 as network_b's are, that name the account
// ("17893000101000001" for 3000101's first).
func mediaID(accountID string, n int) string {
	return fmt.Sprintf("1789%s%06d", accountID, n)
}

// seedMedia sets the followers of every page's network_b account and
// publishes its media as of now: newest first in the order of the page's
// templates, under an hour apart, each with most of its reach (60 to 75 %
// of the followers, enough for the presets' reach rules), likes and
// comments. Their numbers do not come from the world's randomness, so the
// posts and ads of a seed are the same with or without them.
func (w *world) seedMedia(now time.Time) {
	for i, p := range w.pages {
		if p.B == nil {
			continue
		}
		w.fake.SetFollowers(p.B.ID, p.B.Followers)
		for j, m := range p.media {
			id := mediaID(p.B.ID, j+1)
			created := now.Add(-time.Duration(1+j) * 53 * time.Minute).Add(-time.Duration(i) * 5 * time.Minute).Truncate(time.Second)
			g := &postGrowth{PageID: p.B.ID, Created: created, Followers: p.B.Followers, Share: 0.6 + 0.05*float64(j%4)}
			reach := g.reach(now)
			fm := networkafake.Media{ID: id, Caption: m.caption, Type: m.kind,
				Permalink: "https://network-b.example/p/" + id,
				URL:       "https://picsum.photos/seed/" + id + "/1080/1080",
				Created:   created, Reach: reach, Likes: likes(reach), Comments: comments(reach)}
			if m.kind == "VIDEO" {
				fm.Thumbnail = "https://picsum.photos/seed/" + id + "-thumb/1080/1920"
			}
			w.fake.AddMedia(p.B.ID, fm)
			w.media[id] = g
		}
	}
}

// likes and comments are a media's like_count and comments_count at a
// reach: one like in 12 reached, one comment in 60.
func likes(reach int) int    { return reach / 12 }
func comments(reach int) int { return reach / 60 }

// lostPageNote says when LostPageID loses its token, for the start-up output.
func (w *world) lostPageNote() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.lost:
		return "page " + LostPageID + " (Pop-up Gym) has lost its page token: its campaigns are page_lost"
	case w.loseAt.IsZero():
		return "page " + LostPageID + " (Pop-up Gym) keeps its page token (-page-lost-after 0)"
	}
	return fmt.Sprintf("page %s (Pop-up Gym) loses its page token at %s (-page-lost-after): its campaigns become page_lost",
		LostPageID, w.loseAt.Local().Format(time.TimeOnly))
}

// publish adds the next post of page i, created at created, seen at now.
func (w *world) publish(i int, created, now time.Time) {
	p := w.pages[i]
	msg := p.posts[w.turn[i]%len(p.posts)]
	w.turn[i]++
	w.seq++
	n := 100000 + w.seq
	post := networkafake.Post{
		ID:        fmt.Sprintf("%s_%d", p.ID, n),
		Message:   msg,
		Permalink: fmt.Sprintf("https://network-a.example/%s/posts/%d", p.ID, n),
		Picture:   fmt.Sprintf("https://picsum.photos/seed/%s-%d/600/400", p.ID, n),
		Created:   created,
	}
	g := &postGrowth{PageID: p.ID, Created: created.Truncate(time.Second), Followers: p.Followers,
		Share: 0.15 + 0.75*w.rng.Float64()}
	post.OrganicReach = g.reach(now)
	w.fake.AddPost(p.ID, post)
	w.posts[post.ID] = g
}

func (g *postGrowth) reach(now time.Time) int {
	age := now.Sub(g.Created)
	if age <= 0 {
		return 0
	}
	return int(float64(g.Followers) * g.Share * (1 - math.Exp(-age.Seconds()/tau.Seconds())))
}

// Tick moves the world to now: the posts due since the last one (a new post
// every postEvery, pages in turn; at most 10 at once), the organic reach of
// every post, and the insights of every running ad. Once loseAt has come,
// LostPageID's token is expired: Tick answers true the time it does so.
func (w *world) Tick(now time.Time) (lost bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now.UnixNano() > w.clock.Load() {
		w.clock.Store(now.UnixNano())
	}
	if !w.lost && !w.loseAt.IsZero() && !now.Before(w.loseAt) {
		w.fake.ExpireToken(LostPageToken)
		w.lost, lost = true, true
	}
	if w.postEvery > 0 {
		for due := 0; now.Sub(w.lastPost) >= w.postEvery && due < 10; due++ {
			w.lastPost = w.lastPost.Add(w.postEvery)
			w.publish(w.next%len(w.pages), w.lastPost, now)
			w.next++
		}
		if now.Sub(w.lastPost) >= w.postEvery { // a long pause: no backlog
			w.lastPost = now
		}
	}
	for id, g := range w.posts {
		if now.Sub(g.Created) < 10*tau { // later, it hardly moves
			w.fake.SetOrganicReach(id, g.reach(now))
		}
	}
	for id, g := range w.media {
		if now.Sub(g.Created) < 10*tau {
			r := g.reach(now)
			w.fake.SetMediaReach(id, r)
			w.fake.SetMediaCounts(id, likes(r), comments(r))
		}
	}
	elapsed := now.Sub(w.last).Seconds()
	w.last = now
	if elapsed <= 0 {
		return lost
	}
	status := map[string]string{}
	objects := w.fake.Objects("")
	for _, o := range objects {
		status[o.ID] = o.Status
	}
	for _, o := range objects {
		if o.Kind != "ad" || o.Status != "ACTIVE" {
			continue
		}
		adset, _ := o.Fields["adset_id"].(string)
		var campaign string
		for _, s := range objects {
			if s.ID == adset {
				campaign, _ = s.Fields["campaign_id"].(string)
			}
		}
		if status[adset] != "ACTIVE" || status[campaign] != "ACTIVE" {
			continue
		}
		a, ok := w.ads[o.ID]
		if !ok {
			a = &adGrowth{PerSecond: 5 + 15*w.rng.Float64(), Reach: 0.7 + 0.2*w.rng.Float64(),
				CTR: 0.01 + 0.03*w.rng.Float64(), Engagement: 0.04 + 0.06*w.rng.Float64(),
				Convert: 0.002 + 0.004*w.rng.Float64(), CPM: 400 + w.rng.IntN(800)}
			w.ads[o.ID] = a
		}
		day, figures := a.grow(elapsed, now, zone(o.AccountID))
		w.fake.SetAdInsightsDay(o.ID, day, figures)
	}
	return lost
}

// cents writes an amount of cents as network_a writes money: "12.34".
func cents(c int) string {
	return strconv.Itoa(c/100) + "." + fmt.Sprintf("%02d", c%100)
}

// worldState is what the sandbox saves to survive a restart: network_a's
// world and where its motion stands.
type worldState struct {
	Fake     networkafake.State     `json:"fake"`
	Turn     []int                  `json:"turn"`
	Next     int                    `json:"next"`
	Seq      int                    `json:"seq"`
	LastPost time.Time              `json:"lastPost"`
	Posts    map[string]*postGrowth `json:"posts"`
	Media    map[string]*postGrowth `json:"media,omitempty"`
	Ads      map[string]*adGrowth   `json:"ads"`
}

// save writes the world to path, atomically (a new file renamed over the old).
func (w *world) save(path string) error {
	w.mu.Lock()
	st := worldState{Fake: w.fake.State(), Turn: w.turn, Next: w.next, Seq: w.seq, LastPost: w.lastPost,
		Posts: w.posts, Media: w.media, Ads: w.ads}
	b, err := json.Marshal(st)
	w.mu.Unlock()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// load replaces the world with the one saved at path, as of now: it answers
// false (and changes nothing) when there is no file, or when the saved world
// is not one of these users' tokens and pages. A world saved without
// network_b media gets the seeded ones, as of now.
func (w *world) load(path string, now time.Time) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var st worldState
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // object fields keep their integers
	if err := dec.Decode(&st); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(st.Turn) != len(w.pages) || !sameUsers(st.Fake.Users, w.fake.State().Users) {
		return false, nil
	}
	w.fake.SetState(st.Fake)
	for _, c := range cities() { // a world saved before it knew them
		w.fake.AddCity(c)
	}
	w.clock.Store(now.UnixNano())
	w.lost = slices.Contains(st.Fake.Expired, LostPageToken)
	w.turn, w.next, w.seq, w.lastPost, w.last = st.Turn, st.Next, st.Seq, st.LastPost, now
	if now.Sub(w.lastPost) > w.postEvery { // the time it was down publishes nothing
		w.lastPost = now
	}
	w.posts, w.media, w.ads = st.Posts, st.Media, st.Ads
	if w.posts == nil {
		w.posts = map[string]*postGrowth{}
	}
	if w.media == nil {
		w.media = map[string]*postGrowth{}
	}
	if len(st.Fake.Media) == 0 {
		w.seedMedia(now)
	}
	if w.ads == nil {
		w.ads = map[string]*adGrowth{}
	}
	return true, nil
}

// sameUsers tells whether two lists of users have the same tokens and pages.
func sameUsers(a, b []networkafake.User) bool {
	key := func(us []networkafake.User) string {
		var k []string
		for _, u := range us {
			k = append(k, u.Token+"="+u.ID)
			for _, p := range u.Pages {
				k = append(k, p.ID+":"+p.Token)
			}
		}
		return strings.Join(k, ",")
	}
	return key(a) == key(b)
}
