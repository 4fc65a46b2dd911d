package boost_test

// The engine's states, end to end: what a cycle (or
// a pause, or the API) finds is answered as `engine` on the BoostedPage,
// recorded in the history on each change of state, and mailed to the user
// (one mail per user per cycle, never the same campaign and state twice in
// 24 hours) for the states that need the user.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"adboost/auth/networkafake"
	"adboost/db/boost"
	"adboost/db/mailer/mailertest"
)

// stSubject is the subject of the engine's mails.
const stSubject = "adboost: your campaigns need you"

// stMail is a mail of the engine's mail jobs.
type stMail struct {
	To, Subject, Body string
}

// stListed answers the campaigns a mail lists, as "7,8".
func (m stMail) stListed() string {
	var ids []string
	for _, g := range regexp.MustCompile(`(?m)^- Campaign (\d+)`).FindAllStringSubmatch(m.Body, -1) {
		ids = append(ids, g[1])
	}
	return strings.Join(ids, ",")
}

// stMails answers the mail of every notice job, oldest first, as its worker
// renders it, and checks that each is the engine's mail to Ana.
func (w *world) stMails() []stMail {
	w.t.Helper()
	var out []stMail
	for _, m := range mailertest.Mails[boost.NoticeArgs](w.t, w.pool) {
		if m.To != "ana@example.com" || m.Subject != stSubject {
			w.t.Errorf("a mail to %q about %q, want the engine's mail to ana@example.com", m.To, m.Subject)
		}
		out = append(out, stMail{To: m.To, Subject: m.Subject, Body: m.Text})
	}
	return out
}

// stMailsListed answers the campaigns each mail lists, as "7,8 7".
func (w *world) stMailsListed() string {
	w.t.Helper()
	var s []string
	for _, m := range w.stMails() {
		s = append(s, m.stListed())
	}
	return strings.Join(s, " ")
}

// stMailBody is the body of the engine's mail listing lines (each "- Campaign …").
func stMailBody(lines ...string) string {
	return "adboost could not do all of its job for these campaigns:\n\n" + strings.Join(lines, "\n") +
		"\n\nEach campaign's state is shown in the dashboard. This mail is sent once per campaign and state in 24 hours."
}

// stEngineEntries answers the details of a campaign's `engine` history
// entries, oldest first.
func (w *world) stEngineEntries(campaign int64) []string {
	w.t.Helper()
	return w.stEntries(campaign, "engine")
}

// stEntries answers the details of a campaign's history entries of an
// action, oldest first.
func (w *world) stEntries(campaign int64, action string) []string {
	w.t.Helper()
	out := []string{}
	for _, h := range w.history(campaign) {
		if h["action"] == action {
			out = append(out, jsonString(h["details"]))
		}
	}
	return out
}

// stEntry is the details of an `engine` history entry.
func stEntry(state, message string) string {
	return jsonString(map[string]string{"state": state, "message": message})
}

// stRefusedEntry is an `engine` history entry of a state that network_a's
// refusal put the campaign in: its code, subcode (0: none) and trace id
// besides its words.
func stRefusedEntry(state, message string, code, subcode int) string {
	e := map[string]any{"state": state, "message": message, "code": code, "fbtrace_id": "AbCdEf0fake"}
	if subcode != 0 {
		e["subcode"] = subcode
	}
	return jsonString(e)
}

// stExpect checks a campaign's `engine` object on its detail and answers it.
func (w *world) stExpect(campaign int64, state, message string) engineObject {
	w.t.Helper()
	e := w.engineState(campaign)
	if e.State != state || e.Message != message {
		w.t.Errorf("campaign %d's engine: %q %q, want %q %q", campaign, e.State, e.Message, state, message)
	}
	return e
}

// stRaw sends a request to the API as Ana and answers its status and body.
func (w *world) stRaw(method, path string, body any) (int, string) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.api.URL+path, r)
	req.Header.Set("Authorization", "Bearer "+w.bearer)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// stSave saves a campaign through the API.
func (w *world) stSave(campaign int64, body map[string]any) {
	w.t.Helper()
	var ok bool
	w.call(http.MethodPost, fmt.Sprintf("/v1/boosted-pages/save/%d", campaign), body, &ok)
	if !ok {
		w.t.Fatalf("save/%d answered false", campaign)
	}
}

// stSourceEngine answers the `engine` of page 456's entry in sources (the
// newest campaign of the page) and of its source-detail.
func (w *world) stSourceEngine() (sources, detail engineObject) {
	w.t.Helper()
	var pages []struct {
		ID     int64        `json:"id"`
		PageID int64        `json:"page_id"`
		Engine engineObject `json:"engine"`
	}
	w.call(http.MethodPost, "/v1/boosted-pages/sources", map[string]any{}, &pages)
	if len(pages) != 1 || pages[0].ID != 8 || pages[0].PageID != 456 {
		w.t.Fatalf("sources: %+v, want campaign 8 of page 456", pages)
	}
	var one struct {
		ID     int64        `json:"id"`
		Engine engineObject `json:"engine"`
	}
	w.call(http.MethodGet, "/v1/boosted-pages/source-detail/456", nil, &one)
	if one.ID != 8 {
		w.t.Fatalf("source-detail/456 answered campaign %d, want 8", one.ID)
	}
	return pages[0].Engine, one.Engine
}

// stExec runs a statement on the world's database.
func (w *world) stExec(sql string, args ...any) {
	w.t.Helper()
	if _, err := w.pool.Exec(context.Background(), sql, args...); err != nil {
		w.t.Fatal(err)
	}
}

// stSignIn gives Ana a new working network_a token and signs her in with
// it (login-sn stores it, with the page's token).
func (w *world) stSignIn(token string) {
	w.t.Helper()
	w.fake.AddUser(networkafake.User{
		Token: token, ID: "5001", FirstName: "Ana", LastName: "Novak", Email: "ana@example.com",
		Pages:      []networkafake.Page{{ID: "456", Name: "Ana's Gym", Token: pageToken, Followers: 1000}},
		AdAccounts: []networkafake.AdAccount{{ID: "act_2", Status: 2, Currency: "USD"}, {ID: "act_1", Status: 1, Currency: "USD"}},
	})
	w.loginSN(token)
}

// stFailed checks that a cycle failed exactly the campaigns ids.
func (w *world) stFailed(err error, what string, ids ...int64) {
	w.t.Helper()
	var cycleErr *boost.CycleError
	if !errors.As(err, &cycleErr) {
		w.t.Fatalf("%s: cycle answered %v, want campaigns %v failed", what, err, ids)
	}
	var got []int64
	for id := range cycleErr.Failed {
		got = append(got, id)
	}
	slices.Sort(got)
	if !slices.Equal(got, ids) {
		w.t.Fatalf("%s: campaigns %v failed, want %v (%v)", what, got, ids, err)
	}
}

// stCreates counts the ad creates network_a was asked for a post (its id
// as network_a gives it), alone or in batches.
func (w *world) stCreates(postID string) int {
	n := 0
	for _, c := range w.fake.Calls() {
		form, _ := url.ParseQuery(c.Body)
		if c.Method == http.MethodPost && strings.HasSuffix(c.Path, "/ads") && strings.Contains(form.Get("creative"), `"`+postID+`"`) {
			n++
		}
	}
	return n
}

// stParse parses a TIME of the interface ("YYYY-MM-DD HH:MM:SS", UTC).
func (w *world) stParse(s string) time.Time {
	w.t.Helper()
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		w.t.Fatalf("time %q: %v", s, err)
	}
	return t
}

// Before any cycle an active campaign is `waiting` (since its creation,
// never checked); the first cycle that did its work makes it `running`
// (one history entry, no mail); a cycle in the same state keeps `since`,
// moves `checked_at` and adds nothing. Sources and source-detail answer
// the same `engine`.
func TestEngineStateWaitingThenRunning(t *testing.T) {
	w := newWorld(t)
	start := time.Now().UTC().Truncate(time.Second)
	var created string
	if err := w.pool.QueryRow(context.Background(), `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM campaign WHERE id = 7`).Scan(&created); err != nil {
		t.Fatal(err)
	}
	if e := w.stExpect(7, "waiting", ""); e.Since != created || e.CheckedAt != nil {
		t.Errorf("waiting: since %q (want the campaign's creation %q), checked_at %v (want null)", e.Since, created, e.CheckedAt)
	}
	if src, detail := w.stSourceEngine(); src.State != "waiting" || detail.State != "waiting" || src.CheckedAt != nil {
		t.Errorf("sources answer %+v, source-detail %+v; want waiting", src, detail)
	}
	if got := w.stEngineEntries(7); len(got) != 0 {
		t.Errorf("engine entries before any cycle: %v", got)
	}

	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	running := w.stExpect(7, "running", "")
	if running.CheckedAt == nil || *running.CheckedAt != running.Since {
		t.Fatalf("running: since %q, checked_at %v; want both the cycle's time", running.Since, running.CheckedAt)
	}
	if since := w.stParse(running.Since); since.Before(start) || since.After(time.Now().UTC().Add(time.Second)) {
		t.Errorf("running since %s, want during the cycle (after %s)", since, start)
	}
	w.stExpect(8, "running", "")
	if src, detail := w.stSourceEngine(); src.State != "running" || detail.State != "running" || src.CheckedAt == nil {
		t.Errorf("sources answer %+v, source-detail %+v; want running", src, detail)
	}
	want := []string{stEntry("running", "")}
	if got := w.stEngineEntries(7); !slices.Equal(got, want) {
		t.Errorf("engine entries of 7: %v, want %v", got, want)
	}

	time.Sleep(1100 * time.Millisecond) // checked_at has a resolution of a second
	w.cycle()
	again := w.stExpect(7, "running", "")
	if again.Since != running.Since || again.CheckedAt == nil || !w.stParse(*again.CheckedAt).After(w.stParse(*running.CheckedAt)) {
		t.Errorf("a second running cycle: since %q → %q, checked_at %v → %v; want since kept, checked_at later",
			running.Since, again.Since, *running.CheckedAt, again.CheckedAt)
	}
	if got := w.stEngineEntries(7); !slices.Equal(got, want) {
		t.Errorf("engine entries of 7 after a second cycle: %v, want %v", got, want)
	}
	if got := w.stMails(); len(got) != 0 {
		t.Errorf("mails for running campaigns: %v", got)
	}
}

// save active=false: a campaign that runs on network_a is `pausing` at once
// (the message says why), a pause network_a refuses keeps it `pausing` with
// network_a's message (no new entry, no mail), staying `pausing` 10 minutes
// mails the user once, and the pause network_a takes makes it `paused`. A
// campaign that never ran on network_a is `paused` at once.
func TestEngineStatePausingThenPaused(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	campaign := w.object("campaign", "adboost-7").ID

	w.stSave(7, map[string]any{"active": false})
	pausing := w.stExpect(7, "pausing", "deactivated: the pause is being sent to network_a")
	refusal := networkafake.Error{Code: 10, Message: "(#10) Application does not have permission for this action"}
	w.fake.FailCalls(http.MethodPost, campaign, 1, refusal)
	w.stFailed(w.engine.Cycle(context.Background()), "pause refused", 7)
	e := w.stExpect(7, "pausing", "deactivated: network_a did not take the pause yet: (#10) Application does not have permission for this action")
	if e.Since != pausing.Since {
		t.Errorf("pausing since %q after the refused pause, want %q (the save's)", e.Since, pausing.Since)
	}
	if c := w.object("campaign", "adboost-7"); c.Status != "ACTIVE" {
		t.Fatalf("network_a campaign %s, the fake should have refused the pause", c.Status)
	}
	want7 := []string{stEntry("running", ""), stEntry("pausing", "deactivated: the pause is being sent to network_a")}
	if got := w.stEngineEntries(7); !slices.Equal(got, want7) {
		t.Errorf("engine entries of 7: %v, want %v", got, want7)
	}
	if got := w.stMails(); len(got) != 0 {
		t.Fatalf("a mail before the campaign was pausing 10 minutes: %v", got)
	}

	// Ten minutes later the pause is still refused: one mail, once.
	w.stExec(`UPDATE engine_campaign SET since = since - interval '11 minutes' WHERE campaign_id = 7`)
	for i := range 2 {
		w.fake.FailCalls(http.MethodPost, campaign, 1, refusal)
		w.stFailed(w.engine.Cycle(context.Background()), fmt.Sprintf("pause refused after 10 minutes (%d)", i+1), 7)
		mails := w.stMails()
		if len(mails) != 1 {
			t.Fatalf("after %d cycles pausing for 10 minutes: %d mails, want 1", i+1, len(mails))
		}
		wantBody := stMailBody("- Campaign 7 (Ana's Gym): adboost could not pause the campaign on network_a for 10 minutes: pause it on network_a yourself to stop its spending\n" +
			"  network_a: deactivated: network_a did not take the pause yet: (#10) Application does not have permission for this action")
		if mails[0].Body != wantBody {
			t.Errorf("the mail:\n%s\nwant:\n%s", mails[0].Body, wantBody)
		}
	}

	w.cycle()
	w.stExpect(7, "paused", "")
	if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" {
		t.Errorf("network_a campaign %s, want PAUSED", c.Status)
	}
	if p := w.list(7)[0]; p.Active || p.Stopped == 0 {
		t.Errorf("post of the paused campaign: %+v", p)
	}
	want7 = append(want7, stEntry("paused", ""))
	if got := w.stEngineEntries(7); !slices.Equal(got, want7) {
		t.Errorf("engine entries of 7: %v, want %v", got, want7)
	}

	// Campaign 8 never made anything on network_a: paused at once.
	w.stSave(8, map[string]any{"active": false})
	w.stExpect(8, "paused", "")
	w.cycle()
	w.stExpect(7, "paused", "")
	w.stExpect(8, "paused", "")
	if got, want := w.stEngineEntries(8), []string{stEntry("running", ""), stEntry("paused", "")}; !slices.Equal(got, want) {
		t.Errorf("engine entries of 8: %v, want %v", got, want)
	}
	if got := w.stEngineEntries(7); !slices.Equal(got, want7) {
		t.Errorf("engine entries of 7 after another cycle: %v, want %v", got, want7)
	}
	if n := len(w.stMails()); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}
}

// network_a refuses the user's token: `token_refused`, one mail, none for
// the next cycle; a sign-in with a working token brings the campaign back.
func TestEngineStateTokenRefused(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`) // only 7 runs
	w.post("1", "#gym", time.Hour, 0)
	w.fake.ExpireToken(userToken)
	const message = "the connection to network_a expired; sign in again with network_a"
	for i := range 2 {
		w.cycle()
		w.stExpect(7, "token_refused", message)
		mails := w.stMails()
		if len(mails) != 1 {
			t.Fatalf("after cycle %d: %d mails, want 1", i+1, len(mails))
		}
		want := stMailBody("- Campaign 7 (Ana's Gym): network_a refused your sign-in: sign in again with network_a so that the campaign goes on\n  network_a: " + message)
		if mails[0].Body != want {
			t.Errorf("the mail:\n%s\nwant:\n%s", mails[0].Body, want)
		}
	}
	if got, want := w.stEngineEntries(7), []string{stRefusedEntry("token_refused", message, 190, 463)}; !slices.Equal(got, want) {
		t.Errorf("engine entries: %v, want %v", got, want)
	}
	if got := w.names("ad"); got != "" {
		t.Errorf("ads with a refused token: %s", got)
	}

	w.stSignIn("ana-token-2")
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads after the sign-in: %s", got)
	}
	if n := len(w.stMails()); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}
}

// The page's token refused by network_a, or none stored: every campaign of
// the page is `page_lost` (one mail listing both), on detail, sources and
// source-detail; a stored token brings them back.
func TestEngineStatePageLost(t *testing.T) {
	for _, c := range []struct {
		name, message string
		lose          func(w *world)
		restore       func(w *world)
	}{
		{"refused by network_a", "network_a refused the page's token: sign in again with network_a as an admin of the page",
			func(w *world) { w.fake.ExpireToken(pageToken) },
			func(w *world) {
				w.fake.UpdateUser(userToken, func(u *networkafake.User) {
					u.Pages = []networkafake.Page{{ID: "456", Name: "Ana's Gym", Token: "ana-page-456-token-2", Followers: 1000}}
				})
				w.loginSN(userToken)
			}},
		{"none stored", "the page has no network_a token: sign in again with network_a as an admin of the page",
			func(w *world) { w.stExec(`UPDATE source SET access_token = NULL WHERE id = 456`) },
			func(w *world) { w.loginSN(userToken) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.post("1", "#gym", time.Hour, 0)
			c.lose(w)
			for i := range 2 {
				w.cycle()
				w.stExpect(7, "page_lost", c.message)
				w.stExpect(8, "page_lost", c.message)
				if src, detail := w.stSourceEngine(); src.State != "page_lost" || src.Message != c.message || detail.State != "page_lost" {
					t.Errorf("sources answer %+v, source-detail %+v; want page_lost", src, detail)
				}
				mails := w.stMails()
				if len(mails) != 1 {
					t.Fatalf("after cycle %d: %d mails, want 1", i+1, len(mails))
				}
				line := "network_a no longer lets adboost read the page: sign in again with network_a, as an admin of the page\n  network_a: " + c.message
				if want := stMailBody("- Campaign 7 (Ana's Gym): "+line, "- Campaign 8 (Ana's Gym): "+line); mails[0].Body != want {
					t.Errorf("the mail:\n%s\nwant:\n%s", mails[0].Body, want)
				}
			}
			if got, want := w.stEngineEntries(7), []string{stEntry("page_lost", c.message)}; !slices.Equal(got, want) {
				t.Errorf("engine entries of 7: %v, want %v", got, want)
			}
			if got := w.names("ad"); got != "" {
				t.Errorf("ads without the page's token: %s", got)
			}

			c.restore(w)
			w.cycle()
			w.stExpect(7, "running", "")
			w.stExpect(8, "running", "")
			if got := w.names("ad"); got != "adboost-7-1" {
				t.Errorf("ads after the page's token came back: %s", got)
			}
			if n := len(w.stMails()); n != 1 {
				t.Errorf("%d mails, want 1", n)
			}
		})
	}
}

// A user without an active ad account: `no_ad_account` (one mail), and
// nothing made on network_a; an active account brings the campaign back.
// An ad account that stops being active after the first boost is
// `no_ad_account` too, not mailed again within 24 hours.
func TestEngineStateNoAdAccount(t *testing.T) {
	w := newWorld(t)
	accounts := func(status int) {
		w.fake.UpdateUser(userToken, func(u *networkafake.User) {
			u.AdAccounts = []networkafake.AdAccount{{ID: "act_2", Status: 2, DisableReason: 3, Currency: "USD"}, {ID: "act_1", Status: status, Currency: "USD"}}
		})
	}
	accounts(2)
	w.post("1", "#gym", time.Hour, 0)
	const none = "the user has no active network_a ad account: act_2 is disabled (reason: risky payment); act_1 is disabled"
	for range 2 {
		w.cycle()
		w.stExpect(7, "no_ad_account", none)
		w.stExpect(8, "running", "")
		if got := w.stMailsListed(); got != "7" {
			t.Fatalf("mails listing %q, want one listing 7", got)
		}
	}
	want := stMailBody("- Campaign 7 (Ana's Gym): you have no active network_a ad account: open or re-enable one on network_a\n  network_a: " + none)
	if m := w.stMails()[0]; m.Body != want {
		t.Errorf("the mail:\n%s\nwant:\n%s", m.Body, want)
	}
	if got := w.names(""); got != "" {
		t.Errorf("network_a objects without an active ad account: %s", got)
	}

	accounts(1)
	w.cycle()
	w.stExpect(7, "running", "")
	if c := w.object("campaign", "adboost-7"); c.AccountID != "act_1" {
		t.Errorf("campaign made in %s, want act_1", c.AccountID)
	}

	accounts(101) // closed
	w.post("2", "#gym again", time.Minute, 0)
	w.cycle()
	gone := "the campaign's ad account may not boost: act_1 is closed"
	w.stExpect(7, "no_ad_account", gone)
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q with the ad account closed, want 1", got)
	}
	wantEntries := []string{stEntry("no_ad_account", none), stEntry("running", ""), stEntry("no_ad_account", gone)}
	if got := w.stEngineEntries(7); !slices.Equal(got, wantEntries) {
		t.Errorf("engine entries: %v, want %v", got, wantEntries)
	}
	if got := w.stMailsListed(); got != "7" {
		t.Errorf("mails listing %q: the same campaign and state within 24 hours was mailed again", got)
	}
}

// What network_a requires is checked before any call that it would refuse:
// a CONVERSIONS campaign without promoted_object, a lifetime budget without
// end date: `needs_setup`, the message naming the field, one mail listing
// both, nothing created. Saving the field (through the API) lets the next
// cycle run: the ad set carries the promoted object as saved.
func TestEngineStateNeedsSetup(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET goal = 'CONVERSIONS' WHERE id = 7`)
	w.stExec(`UPDATE campaign SET end_date = NULL WHERE id = 8`)
	w.post("1", "#gym fitness", time.Hour, 300) // qualifies in both
	const (
		promoted = "promoted_object: a CONVERSIONS campaign needs the object it promotes"
		endDate  = "end_date: a lifetime budget needs an end date"
	)
	for range 2 {
		w.cycle()
		w.stExpect(7, "needs_setup", promoted)
		w.stExpect(8, "needs_setup", endDate)
		if got := w.stMailsListed(); got != "7,8" {
			t.Fatalf("mails listing %q, want one listing 7,8", got)
		}
	}
	line := "- Campaign %d (Ana's Gym): the campaign lacks what network_a requires: complete it in the dashboard\n  network_a: %s"
	if want := stMailBody(fmt.Sprintf(line, 7, promoted), fmt.Sprintf(line, 8, endDate)); w.stMails()[0].Body != want {
		t.Errorf("the mail:\n%s\nwant:\n%s", w.stMails()[0].Body, want)
	}
	for _, c := range w.fake.Calls() {
		if c.Method == http.MethodPost {
			t.Errorf("a create or update while setup is missing: %s %s %s", c.Method, c.Path, c.Body)
		}
	}
	if got := w.names(""); got != "" {
		t.Errorf("network_a objects while setup is missing: %s", got)
	}

	w.stSave(7, map[string]any{"promoted_object": map[string]any{"pixel_id": "123", "custom_event_type": "PURCHASE"}})
	w.cycle()
	w.stExpect(7, "running", "")
	w.stExpect(8, "needs_setup", endDate)
	if c := w.object("campaign", "adboost-7"); c.Fields["objective"] != "OUTCOME_SALES" {
		t.Errorf("campaign adboost-7's objective %v, want OUTCOME_SALES", c.Fields["objective"])
	}
	s := w.object("adset", "adboost-7")
	if got := jsonString(s.Fields["promoted_object"]) + " " + fmt.Sprint(s.Fields["optimization_goal"]); got != `{"custom_event_type":"PURCHASE","pixel_id":"123"} OFFSITE_CONVERSIONS` {
		t.Errorf("ad set adboost-7: promoted_object and optimization_goal %s", got)
	}
	if got := w.names("ad"); got != "adboost-7-1" {
		t.Errorf("ads %s, want adboost-7-1", got)
	}

	w.stSave(8, map[string]any{"end_date": w.endDate})
	w.cycle()
	w.stExpect(8, "running", "")
	if got := w.sortedNames("ad"); got != "adboost-7-1,adboost-8-1" {
		t.Errorf("ads %s", got)
	}
	if got, want := w.stEngineEntries(7), []string{stEntry("needs_setup", promoted), stEntry("running", "")}; !slices.Equal(got, want) {
		t.Errorf("engine entries of 7: %v, want %v", got, want)
	}
	if got := w.stMailsListed(); got != "7,8" {
		t.Errorf("mails listing %q, want one listing 7,8", got)
	}
}

// A refusal that is not the post's own (no valid payment method: code 200,
// subcode 1359188) puts the campaign in `refused` with network_a's message
// and one mail; the post is not `post_refused` and stays a candidate: once
// the payment method is back, the next cycle boosts it, once. The same
// whether the refusal comes at the ad's create or at the first create of
// all (the network_a campaign).
func TestEngineStateRefusedPayment(t *testing.T) {
	const message = "(#200) The ad account has no valid payment method. Add one in the account's payment settings."
	mailBody := stMailBody("- Campaign 7 (Ana's Gym): network_a refused the campaign: see its message, fix it on network_a (payment method, permissions), and adboost tries again\n  network_a: " + message)
	t.Run("at the ad", func(t *testing.T) { testRefusedPaymentAtTheAd(t, message, mailBody) })
	t.Run("at the first create", func(t *testing.T) { testRefusedPaymentAtTheFirstCreate(t, message, mailBody) })
}

// testRefusedPaymentAtTheAd: the payment refusal at the ad's create leaves
// the campaign refused, mailed once, the post a candidate boosted once the
// payment method is back.
func testRefusedPaymentAtTheAd(t *testing.T, message, mailBody string) {
	w := newWorld(t)
	w.post("1", "#gym", 2*time.Hour, 0)
	w.cycle()
	w.fake.SetPaymentMethod("act_1", false)
	w.post("2", "#gym again", time.Hour, 0)
	for i := range 2 {
		w.cycle()
		w.stExpect(7, "refused", message)
		if got := w.ids(w.list(7)); got != "1" {
			t.Fatalf("boosted %q without a payment method, want 1", got)
		}
		if n := w.stCreates("456_2"); n != i+1 {
			t.Errorf("after cycle %d, post 2's ad was asked %d times, want %d (it stays a candidate)", i+1, n, i+1)
		}
		if mails := w.stMails(); len(mails) != 1 || mails[0].Body != mailBody {
			t.Fatalf("after cycle %d, mails %v; want one:\n%s", i+1, mails, mailBody)
		}
	}
	if got := w.stEntries(7, "post_refused"); len(got) != 0 {
		t.Errorf("post_refused for a payment refusal: %v", got)
	}
	var attempts int
	if err := w.pool.QueryRow(context.Background(), `SELECT count(*) FROM network_a_attempt WHERE campaign_id = 7 AND post_id = 2`).Scan(&attempts); err != nil || attempts != 0 {
		t.Errorf("attempts left for post 2: %d %v, want none (network_a made nothing)", attempts, err)
	}

	w.fake.SetPaymentMethod("act_1", true)
	w.cycle()
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.ids(w.list(7)); got != "2,1" {
		t.Errorf("boosted %q after the payment method came back, want 2,1", got)
	}
	if got := w.names("ad"); got != "adboost-7-1,adboost-7-2" {
		t.Errorf("ads %s", got)
	}
	if got := len(w.boostedEntries(7)); got != 2 {
		t.Errorf("%d boosted entries, want 2", got)
	}
	want := []string{stEntry("running", ""), stRefusedEntry("refused", message, 200, 1359188), stEntry("running", "")}
	if got := w.stEngineEntries(7); !slices.Equal(got, want) {
		t.Errorf("engine entries: %v, want %v", got, want)
	}
	if n := len(w.stMails()); n != 1 {
		t.Errorf("%d mails, want 1", n)
	}
}

// testRefusedPaymentAtTheFirstCreate: the payment refusal at the network_a
// campaign's create makes nothing, mails once, and the post is boosted once
// the payment method is back.
func testRefusedPaymentAtTheFirstCreate(t *testing.T, message, mailBody string) {
	w := newWorld(t)
	w.fake.SetPaymentMethod("act_1", false)
	w.post("1", "#gym", time.Hour, 0)
	for range 2 {
		if err := w.engine.Cycle(context.Background()); err != nil {
			t.Errorf("a cycle whose campaign network_a refused: %v, want nil (the state says why)", err)
		}
		w.stExpect(7, "refused", message)
		if got := w.names(""); got != "" {
			t.Fatalf("network_a objects without a payment method: %s", got)
		}
		if mails := w.stMails(); len(mails) != 1 || mails[0].Body != mailBody {
			t.Fatalf("mails %v; want one:\n%s", mails, mailBody)
		}
	}
	w.fake.SetPaymentMethod("act_1", true)
	w.cycle()
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.names("campaign") + " " + w.names("adset") + " " + w.names("ad"); got != "adboost-7 adboost-7 adboost-7-1" {
		t.Errorf("objects after the payment method came back: %s", got)
	}
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q, want 1", got)
	}
	if got := w.stEntries(7, "post_refused"); len(got) != 0 {
		t.Errorf("post_refused for a payment refusal: %v", got)
	}
}

// The ad account throttled by network_a (code 80004, 5 minutes): the
// campaign is `throttled` until the time in the message (not mailed);
// once the time passed it runs again and boosts the post it held back.
func TestEngineStateThrottled(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	w.cycle()
	w.fake.ThrottleAccount("act_1", 80004, 5)
	w.post("2", "#gym again", time.Minute, 0)
	w.stFailed(w.engine.Cycle(context.Background()), "the throttled cycle", 7)
	if e := w.engineState(7); e.State != "throttled" || !strings.HasPrefix(e.Message, "network_a") {
		t.Errorf("campaign 7's engine after the throttle: %+v", e)
	}
	w.stFailed(w.engine.Cycle(context.Background()), "a cycle during the throttle", 7)
	var until time.Time
	if err := w.pool.QueryRow(context.Background(), `SELECT until FROM network_a_throttle WHERE scope = 'ad_account' AND key = '1'`).Scan(&until); err != nil {
		t.Fatal(err)
	}
	if left := time.Until(until); left < 4*time.Minute || left > 6*time.Minute {
		t.Errorf("throttled for %v more, want ≈ 5 minutes", left)
	}
	w.stExpect(7, "throttled", "network_a asked adboost to wait until "+until.UTC().Format(time.DateTime)+" UTC")
	w.stExpect(8, "running", "")
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q during the throttle, want 1", got)
	}
	if got := w.stMails(); len(got) != 0 {
		t.Errorf("mails about a throttle: %v", got)
	}
	entries := w.stEngineEntries(7)
	if len(entries) != 2 || entries[0] != stEntry("running", "") || !strings.Contains(entries[1], `"state":"throttled"`) {
		t.Errorf("engine entries: %v, want running then one throttled", entries)
	}

	w.fake.ThrottleAccount("act_1", 0, 0)
	w.pauseEnds()
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.ids(w.list(7)); got != "2,1" {
		t.Errorf("boosted %q after the throttle, want 2,1", got)
	}
	if n := len(w.stEngineEntries(7)); n != 3 {
		t.Errorf("%d engine entries, want 3", n)
	}
}

// One state at a time, by precedence: the page lost wins over a
// missing setup (and shows until the page is back); a campaign that never
// ran on network_a, deactivated, is `paused` whatever is wrong with the
// user's token.
func TestEngineStatePrecedence(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET goal = 'CONVERSIONS' WHERE id = 7`)
	w.stExec(`UPDATE source SET access_token = NULL WHERE id = 456`)
	w.cycle()
	lost := "the page has no network_a token: sign in again with network_a as an admin of the page"
	w.stExpect(7, "page_lost", lost)
	w.stExpect(8, "page_lost", lost)
	w.loginSN(userToken)
	w.cycle()
	w.stExpect(7, "needs_setup", "promoted_object: a CONVERSIONS campaign needs the object it promotes")
	w.stExpect(8, "running", "")
	if got := w.stMailsListed(); got != "7,8 7" {
		t.Errorf("mails listing %q, want 7,8 then 7", got)
	}

	w.stSave(8, map[string]any{"active": false})
	w.stExpect(8, "paused", "")
	w.stExec(`UPDATE app_user SET network_a_token_invalid_at = now() WHERE id = 100`)
	w.cycle()
	w.stExpect(8, "paused", "")
	w.stExpect(7, "token_refused", "network_a refused the user's token: sign in again with network_a")
}

// A campaign deactivated while its user's token is refused
// stays `pausing` across cycles, with that reason (not token_refused), and
// no pause reaches network_a; the other campaign is token_refused (one
// mail, listing it only). The sign-in that stores a working token lets the
// pause through, by Engine.Pause (the job login-sn enqueues) or by the next
// cycle: network_a's campaign is PAUSED and the state `paused`.
func TestEnginePausingWhileTokenRefused(t *testing.T) {
	for _, how := range []string{"Engine.Pause", "cycle"} {
		t.Run(how, func(t *testing.T) {
			w := newWorld(t)
			ctx := context.Background()
			w.post("1", "#gym", time.Hour, 0)
			w.cycle()
			campaign := w.object("campaign", "adboost-7").ID
			w.fake.ExpireToken(userToken)
			w.stSave(7, map[string]any{"active": false})
			saved := w.stExpect(7, "pausing", "deactivated: the pause is being sent to network_a")

			const why = "deactivated: the connection to network_a expired; sign in again with network_a to carry out the pause"
			for i := range 2 {
				w.cycle()
				if e := w.stExpect(7, "pausing", why); e.Since != saved.Since {
					t.Errorf("cycle %d: pausing since %q, want %q (the save's)", i+1, e.Since, saved.Since)
				}
				if c := w.object("campaign", "adboost-7"); c.Status != "ACTIVE" || len(c.Updates) != 0 {
					t.Fatalf("cycle %d: network_a campaign %s with updates %v: no pause can reach it with a refused token", i+1, c.Status, c.Updates)
				}
			}
			w.stExpect(8, "token_refused", "the connection to network_a expired; sign in again with network_a")
			if due, err := w.engine.Due(ctx); err != nil || !slices.Contains(due, 7) {
				t.Errorf("due %v %v: the pausing campaign dropped", due, err)
			}
			w.fake.ClearRequests()
			w.cycle()
			for _, c := range w.fake.Calls() {
				if c.Token == userToken {
					t.Errorf("the refused token was used again: %s %s", c.Method, c.Path)
				}
			}
			if got := w.stMailsListed(); got != "8" {
				t.Errorf("mails listing %q, want one listing 8", got)
			}

			w.stSignIn("ana-token-2")
			if how == "cycle" {
				w.cycle()
			} else if err := w.engine.Pause(ctx, 7); err != nil {
				t.Fatalf("Engine.Pause: %v", err)
			}
			c := w.object("campaign", "adboost-7")
			if c.Status != "PAUSED" || jsonString(c.Updates) != `[{"status":"PAUSED"}]` || c.ID != campaign {
				t.Errorf("network_a campaign %s %s, updates %s; want PAUSED once", c.ID, c.Status, jsonString(c.Updates))
			}
			w.stExpect(7, "paused", "")
			if p := w.list(7)[0]; p.Active || p.Stopped == 0 {
				t.Errorf("post after the pause: %+v", p)
			}
			w.cycle()
			w.stExpect(7, "paused", "")
			w.stExpect(8, "running", "")
			want := []string{stEntry("running", ""), stEntry("pausing", "deactivated: the pause is being sent to network_a"), stEntry("paused", "")}
			if got := w.stEngineEntries(7); !slices.Equal(got, want) {
				t.Errorf("engine entries of 7: %v, want %v", got, want)
			}
			if got := w.stMailsListed(); got != "8" {
				t.Errorf("mails listing %q, want one listing 8", got)
			}
		})
	}
}

// network_a stops delivering some ads (disapproved, deleted, archived, left
// out of the campaign's ads list) or no longer has a post: each such post
// gets active false, stopped = when the engine saw it, and `post_stopped`
// with the reason, once. Reactivating the campaign brings back only the
// posts its pause stopped.
func TestEngineDeliveryStopsPosts(t *testing.T) {
	w := newWorld(t)
	for i := 1; i <= 6; i++ {
		w.post(fmt.Sprint(i), fmt.Sprintf("#gym %d", i), time.Duration(7-i)*time.Hour, 0)
	}
	w.cycle()
	ad := map[int]string{}
	for i := 1; i <= 6; i++ {
		ad[i] = w.object("ad", fmt.Sprintf("adboost-7-%d", i)).ID
	}
	w.fake.SetAdReview(ad[1], networkafake.ReviewDisapproved)
	w.fake.SetObjectStatus(ad[2], "DELETED")
	w.fake.SetObjectStatus(ad[3], "ARCHIVED")
	state := w.fake.State() // ad 4 leaves network_a's list
	state.Objects = slices.DeleteFunc(state.Objects, func(o networkafake.Object) bool { return o.ID == ad[4] })
	w.fake.SetState(state)
	w.fake.DeletePost("456_5")
	seen := time.Now().Unix()
	w.cycle()

	posts := w.list(7)
	if got := w.ids(posts); got != "6,5,4,3,2,1" {
		t.Fatalf("posts of 7: %s", got)
	}
	stopped := map[int64]int64{}
	for _, p := range posts {
		stopped[p.ID] = p.Stopped
		switch {
		case p.ID == 6 && (!p.Active || p.Stopped != 0):
			t.Errorf("post 6, delivered, was stopped: %+v", p)
		case p.ID != 6 && (p.Active || p.Stopped < seen-1 || p.Stopped > time.Now().Unix()+1):
			t.Errorf("post %d: %+v, want active false and stopped when the engine saw it (≈ %d)", p.ID, p, seen)
		}
	}
	entry := func(post int, reason string) string {
		return jsonString(map[string]any{"post_id": post, "ad_id": ad[post], "reason": reason})
	}
	want := []string{
		entry(1, "the ad is disapproved on network_a"),
		entry(2, "the ad was deleted on network_a"),
		entry(3, "the ad is archived on network_a"),
		entry(4, "the ad was deleted on network_a"),
		entry(5, "the post is no longer on network_a"),
	}
	if got := w.stEntries(7, "post_stopped"); !slices.Equal(got, want) {
		t.Errorf("post_stopped entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w.stExpect(7, "running", "")

	time.Sleep(1100 * time.Millisecond)
	w.cycle()
	if got := w.stEntries(7, "post_stopped"); !slices.Equal(got, want) {
		t.Errorf("post_stopped entries after another cycle: %v", got)
	}
	w.stSave(7, map[string]any{"active": false})
	w.cycle()
	w.stSave(7, map[string]any{"active": true})
	w.cycle()
	w.stExpect(7, "running", "")
	for _, p := range w.list(7) {
		switch {
		case p.ID == 6 && (!p.Active || p.Stopped != 0):
			t.Errorf("post 6 after the campaign resumed: %+v, want active", p)
		case p.ID != 6 && (p.Active || p.Stopped != stopped[p.ID]):
			t.Errorf("post %d after the campaign resumed: %+v, want still stopped at %d", p.ID, p, stopped[p.ID])
		}
	}
	if got := w.stEntries(7, "post_stopped"); !slices.Equal(got, want) {
		t.Errorf("post_stopped entries after the resumption: %v", got)
	}
	if n := len(w.fake.Objects("ad")); n != 5 { // ad 4 is gone from network_a; nothing made again
		t.Errorf("%d ads on network_a, want 5: %s", n, w.names("ad"))
	}
	if n := len(w.boostedEntries(7)); n != 6 {
		t.Errorf("%d boosted entries, want 6", n)
	}
}

// A refusal of an ad's create with one of the subcodes that network_a
// gives about the post itself is `post_refused`, in network_a's words with
// its code, subcode and trace id: the post is never tried again, the
// campaign's other posts are boosted and the campaign is not `refused` (no
// mail).
func TestEnginePostRefusedSubcodes(t *testing.T) {
	for _, subcode := range []int{1487472, 1885557, 2446289, 2490155, 1885029, 1885183} {
		t.Run(strconv.Itoa(subcode), func(t *testing.T) {
			w := newWorld(t)
			w.post("1", "#gym first", 2*time.Hour, 0)
			w.post("2", "#gym second", time.Hour, 0)
			w.fake.FailCalls(http.MethodPost, "act_1/ads", 1, networkafake.Error{Code: 100, Subcode: subcode,
				Message: "Invalid parameter", UserTitle: "Post can't be boosted", UserMsg: "This post can't be boosted."})
			w.cycle()
			w.stExpect(7, "running", "")
			if got := w.ids(w.list(7)); got != "2" {
				t.Errorf("boosted %q, want 2", got)
			}
			want := []string{jsonString(map[string]any{"post_id": 1, "message": "Post can't be boosted: This post can't be boosted.",
				"code": 100, "subcode": subcode, "fbtrace_id": "AbCdEf0fake"})}
			for range 2 {
				w.cycle()
				if got := w.stEntries(7, "post_refused"); !slices.Equal(got, want) {
					t.Errorf("post_refused entries %v, want %v", got, want)
				}
			}
			if n := w.stCreates("456_1"); n != 1 {
				t.Errorf("post 1's ad asked %d times, want once", n)
			}
			if got := w.names("ad"); got != "adboost-7-2" {
				t.Errorf("ads %s", got)
			}
			if got, want := w.stEngineEntries(7), []string{stEntry("running", "")}; !slices.Equal(got, want) {
				t.Errorf("engine entries %v, want %v", got, want)
			}
			if got := w.stMails(); len(got) != 0 {
				t.Errorf("mails about a post refused: %v", got)
			}
		})
	}
}

// Code 100 with another subcode (network_a's generic "invalid parameter")
// at an ad's create is the campaign's: `refused` in network_a's words
// (error_user_title: error_user_msg), kept with code, subcode and trace id
// in the history and in the mail; the post is no post_refused and stays a
// candidate, boosted once network_a takes it.
func TestEnginePostGenericCode100IsTheCampaigns(t *testing.T) {
	w := newWorld(t)
	w.stExec(`UPDATE campaign SET active = false WHERE id = 8`)
	w.post("1", "#gym", time.Hour, 0)
	w.fake.FailCalls(http.MethodPost, "act_1/ads", 1, networkafake.Error{Code: 100, Subcode: 1487390, Message: "Invalid parameter",
		UserTitle: "Budget is too low", UserMsg: "Your ad set budget must be more than €1.00"})
	w.cycle()
	const words = "Budget is too low: Your ad set budget must be more than €1.00"
	w.stExpect(7, "refused", words)
	if got := w.stEntries(7, "post_refused"); len(got) != 0 {
		t.Errorf("post_refused for the campaign's refusal: %v", got)
	}
	if got, want := w.stEngineEntries(7), []string{stRefusedEntry("refused", words, 100, 1487390)}; !slices.Equal(got, want) {
		t.Errorf("engine entries %v, want %v", got, want)
	}
	mails := w.stMails()
	if len(mails) != 1 || !strings.Contains(mails[0].Body, "network_a: "+words) {
		t.Errorf("mails %v, want one with network_a's words", mails)
	}
	w.cycle()
	w.stExpect(7, "running", "")
	if got := w.ids(w.list(7)); got != "1" {
		t.Errorf("boosted %q once network_a took it, want 1", got)
	}
	if n := w.stCreates("456_1"); n != 2 {
		t.Errorf("post 1's ad asked %d times, want twice (it stayed a candidate)", n)
	}
}

// One mail per user per cycle, listing every campaign that entered a state
// needing the user; never the same campaign and state twice in 24 hours,
// even when it leaves and enters it again; another state is mailed; after
// 24 hours the same state is mailed again.
func TestEngineNoticeMailRule(t *testing.T) {
	w := newWorld(t)
	w.post("1", "#gym", time.Hour, 0)
	lose := func() { w.stExec(`UPDATE source SET access_token = NULL WHERE id = 456`) }
	const lost = "the page has no network_a token: sign in again with network_a as an admin of the page"
	lose()
	w.cycle()
	line := "network_a no longer lets adboost read the page: sign in again with network_a, as an admin of the page\n  network_a: " + lost
	mails := w.stMails()
	if want := stMailBody("- Campaign 7 (Ana's Gym): "+line, "- Campaign 8 (Ana's Gym): "+line); len(mails) != 1 || mails[0].Body != want {
		t.Fatalf("mails %v, want one:\n%s", mails, want)
	}

	// Leave and enter page_lost again within 24 hours: no mail.
	w.storeTokens(userToken, pageToken)
	w.cycle()
	w.stExpect(7, "running", "")
	lose()
	w.cycle()
	w.stExpect(7, "page_lost", lost)
	w.stExpect(8, "page_lost", lost)
	if got := w.stMailsListed(); got != "7,8" {
		t.Errorf("mails listing %q after page_lost again within 24 hours, want only the first", got)
	}
	wantEntries := []string{stEntry("page_lost", lost), stEntry("running", ""), stEntry("page_lost", lost)}
	if got := w.stEngineEntries(7); !slices.Equal(got, wantEntries) {
		t.Errorf("engine entries of 7: %v, want %v", got, wantEntries)
	}

	// Another state is mailed.
	refuse := func() { w.stExec(`UPDATE app_user SET network_a_token_invalid_at = now() WHERE id = 100`) }
	refuse()
	w.cycle()
	w.stExpect(7, "token_refused", "network_a refused the user's token: sign in again with network_a")
	if got := w.stMailsListed(); got != "7,8 7,8" {
		t.Errorf("mails listing %q, want 7,8 twice", got)
	}

	// 24 hours later the same campaign and state is mailed again.
	w.stExec(`UPDATE engine_campaign SET mailed = (SELECT coalesce(jsonb_object_agg(k, now() - interval '25 hours'), '{}')
		FROM jsonb_object_keys(mailed) AS k)`)
	w.storeTokens(userToken, pageToken)
	w.cycle()
	w.stExpect(7, "running", "")
	refuse()
	w.cycle()
	if got := w.stMailsListed(); got != "7,8 7,8 7,8" {
		t.Errorf("mails listing %q, want 7,8 three times", got)
	}
}

// delete-source of a page whose campaign runs on network_a: its campaigns
// are 404 at once and out of sources and count; the pause (by a cycle or by
// Engine.Pause, the job delete-source enqueues) makes network_a's campaign
// PAUSED, then the engine state goes; the history stays in the database.
func TestEngineDeleteSourcePauses(t *testing.T) {
	for _, how := range []string{"cycle", "Engine.Pause"} {
		t.Run(how, func(t *testing.T) {
			w := newWorld(t)
			ctx := context.Background()
			w.post("1", "#gym", time.Hour, 0)
			w.cycle()
			var res map[string]any
			w.call(http.MethodDelete, "/v1/boosted-pages/delete-source/456", nil, &res)
			if jsonString(res) != `{"success":true}` {
				t.Fatalf("delete-source answered %v", res)
			}
			for _, path := range []string{"/v1/boosted-pages/detail/7", "/v1/boosted-pages/detail/8", "/v1/boosted-pages/source-detail/456"} {
				if status, body := w.stRaw(http.MethodGet, path, nil); status != http.StatusNotFound {
					t.Errorf("GET %s after delete-source: %d %s, want 404", path, status, body)
				}
			}
			if status, body := w.stRaw(http.MethodPost, "/v1/boosted-pages/sources", map[string]any{}); status != http.StatusOK || strings.TrimSpace(body) != "[]" {
				t.Errorf("sources after delete-source: %d %s, want []", status, body)
			}
			if status, body := w.stRaw(http.MethodPost, "/v1/boosted-pages/count", map[string]any{}); status != http.StatusOK || strings.TrimSpace(body) != "0" {
				t.Errorf("count after delete-source: %d %s, want 0", status, body)
			}
			if got := w.stEngineRows(); got != "7 pausing deleted with its source: the pause is being sent to network_a" {
				t.Errorf("engine rows after delete-source: %q", got)
			}

			if how == "cycle" {
				w.cycle()
			} else if err := w.engine.Pause(ctx, 7); err != nil {
				t.Fatalf("Engine.Pause: %v", err)
			}
			c := w.object("campaign", "adboost-7")
			if c.Status != "PAUSED" || jsonString(c.Updates) != `[{"status":"PAUSED"}]` {
				t.Errorf("network_a campaign %s, updates %s; want PAUSED once", c.Status, jsonString(c.Updates))
			}
			if got := w.stEngineRows(); got != "" {
				t.Errorf("engine rows after the pause: %q, want none", got)
			}
			var active, stopped bool
			if err := w.pool.QueryRow(ctx, `SELECT active, stopped IS NOT NULL FROM boosted_post WHERE id = 1`).Scan(&active, &stopped); err != nil || active || !stopped {
				t.Errorf("post 1 after the pause: active %v, stopped %v, %v", active, stopped, err)
			}
			w.cycle()
			if got := w.stEngineRows(); got != "" {
				t.Errorf("engine rows after another cycle: %q, want none", got)
			}
			if c := w.object("campaign", "adboost-7"); c.Status != "PAUSED" || len(c.Updates) != 1 {
				t.Errorf("network_a campaign after another cycle: %s %s", c.Status, jsonString(c.Updates))
			}
			for id, want := range map[int64]string{7: "created,boosted,engine,deleted", 8: "created,engine,deleted"} {
				var got string
				if err := w.pool.QueryRow(ctx, `SELECT string_agg(action, ',' ORDER BY id) FROM campaign_history WHERE campaign_id = $1`, id).Scan(&got); err != nil || got != want {
					t.Errorf("history of %d in the database: %q %v, want %q", id, got, err, want)
				}
			}
			if got := w.stMails(); len(got) != 0 {
				t.Errorf("mails: %v", got)
			}
		})
	}
}

// stEngineRows answers the engine_campaign rows as "id state message" lines.
func (w *world) stEngineRows() string {
	w.t.Helper()
	var s string
	err := w.pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(campaign_id || ' ' || state || ' ' || message, E'\n' ORDER BY campaign_id), '') FROM engine_campaign`).Scan(&s)
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}
