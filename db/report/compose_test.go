package report_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"net/textproto"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"adboost/db"
	"adboost/db/report"
)

// twoWeeks is user 1 (Europe/Prague) with a EUR and a USD campaign, days in
// week 2026-W43 (19 to 25 October), in the week before, and around them;
// user 2's campaign spends the same week.
func twoWeeks(t *testing.T) *world {
	w := newWorld(t)
	w.user(1, "Dana")
	w.user(2, "Otto")
	w.campaign(11, 1, "EUR", "Europe/Prague")
	w.campaign(12, 1, "USD", "America/New_York")
	w.campaign(13, 1, "USD", "Europe/Prague") // no days: not in the report
	w.campaign(21, 2, "EUR", "")
	for id, name := range map[int64]string{101: "Spin class at dawn", 102: "New mats", 103: "Summer   timetable\nout now", 104: "Trainer of the month"} {
		w.post(id, 1, name)
	}
	w.post(201, 2, "Otto's post")
	w.days(
		day{campaign: 11, post: 101, date: "2026-10-19", impressions: 1000, reach: 800, engagement: 50, clicks: 10, spend: "12.500", conversions: 1},
		day{campaign: 11, post: 102, date: "2026-10-20", reach: 400, engagement: 120, clicks: 5, spend: "7.255"},
		day{campaign: 11, post: 101, date: "2026-10-25", reach: 100, engagement: 10, clicks: 2, spend: "0.245", conversions: 1},
		day{campaign: 11, post: 101, date: "2026-10-26", reach: 999, engagement: 999, clicks: 99, spend: "99.000"}, // the week after
		day{campaign: 11, post: 101, date: "2026-10-12", reach: 1000, engagement: 100, clicks: 20, spend: "10.000"},
		day{campaign: 11, post: 102, date: "2026-10-11", reach: 5000, engagement: 500, clicks: 50, spend: "50.000"}, // two weeks before
		day{campaign: 12, post: 103, date: "2026-10-21", reach: 300, engagement: 200, clicks: 30, spend: "5.000"},
		day{campaign: 12, post: 104, date: "2026-10-22", reach: 50, engagement: 30, clicks: 1, spend: "1.000"},
		day{campaign: 21, post: 201, date: "2026-10-21", reach: 7000, engagement: 7000, clicks: 700, spend: "70.000"},
	)
	return w
}

func composer(w *world) *report.Composer {
	return report.NewComposer(db.New(w.pool), "https://api.adboost.test", report.KeyFrom([]byte("secret")))
}

func week43(t *testing.T) report.Week {
	wk, err := report.ParseWeek("2026-W43")
	if err != nil {
		t.Fatal(err)
	}
	return wk
}

func TestComposeFigures(t *testing.T) {
	w := twoWeeks(t)
	m, err := composer(w).Compose(context.Background(), 1, week43(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []report.Campaign{
		{ID: 11, SourceName: "Dana's Page", Currency: "EUR",
			Week: report.Figures{Spend: "20.00", Reach: 1300, Clicks: 17, Engagement: 180, Conversions: 2},
			Prev: report.Figures{Spend: "10.00", Reach: 1000, Clicks: 20, Engagement: 100, Conversions: 0}},
		{ID: 12, SourceName: "Dana's Page", Currency: "USD",
			Week: report.Figures{Spend: "6.00", Reach: 350, Clicks: 31, Engagement: 230, Conversions: 0},
			Prev: report.Figures{Spend: "0.00"}},
	}
	if !reflect.DeepEqual(m.Campaigns, want) {
		t.Errorf("campaigns:\n got %+v\nwant %+v", m.Campaigns, want)
	}
	top := []report.Post{
		{ID: 103, Name: "Summer   timetable\nout now", Link: "https://network-a.example/posts/103", Engagement: 200, Reach: 300, Clicks: 30},
		{ID: 102, Name: "New mats", Link: "https://network-a.example/posts/102", Engagement: 120, Reach: 400, Clicks: 5},
		{ID: 101, Name: "Spin class at dawn", Link: "https://network-a.example/posts/101", Engagement: 60, Reach: 900, Clicks: 12},
	}
	if !reflect.DeepEqual(m.Top, top) {
		t.Errorf("top posts:\n got %+v\nwant %+v", m.Top, top)
	}
	if m.To != "user1@example.com" || m.Subject != "Your boosted posts, week 2026-W43" || !m.Wanted {
		t.Errorf("to %q, subject %q, wanted %v", m.To, m.Subject, m.Wanted)
	}
	token := report.KeyFrom([]byte("secret")).UnsubscribeToken(1)
	wantText := `Hello Dana,

here is what your boosted posts did from Monday 19 October to Sunday 25 October 2026 (week 2026-W43), against the week before.

Campaign 11 – Dana's Page (EUR)
  Spend:       20.00 EUR (+100.0%)
  Reach:       1,300 (+30.0%)
  Clicks:      17 (-15.0%)
  Engagement:  180 (+80.0%)
  Conversions: 2 (new)

Campaign 12 – Dana's Page (USD)
  Spend:       6.00 USD (new)
  Reach:       350 (new)
  Clicks:      31 (new)
  Engagement:  230 (new)
  Conversions: 0 (0%)

Your posts with the most engagement:
1. Summer timetable out now: 200 engagements, reach 300, 30 clicks
   https://network-a.example/posts/103
2. New mats: 120 engagements, reach 400, 5 clicks
   https://network-a.example/posts/102
3. Spin class at dawn: 60 engagements, reach 900, 12 clicks
   https://network-a.example/posts/101

The HTML version of this mail charts each day's spend and engagement.

To stop these weekly reports, open https://api.adboost.test/v1/user/unsubscribe?token=` + token + "\n"
	if m.Text != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", m.Text, wantText)
	}
	for _, s := range []string{
		`<img src="cid:chart@adboost" width="600"`,
		`<td>Spend</td><td align="right">20.00 EUR</td><td align="right">&#43;100.0%</td>`,
		`<td>Conversions</td><td align="right">0</td><td align="right">0%</td>`,
		`<a href="https://network-a.example/posts/103">Summer timetable out now</a>: 200 engagements`,
		`<a href="https://api.adboost.test/v1/user/unsubscribe?token=` + token + `">`,
	} {
		if !strings.Contains(m.HTML, s) {
			t.Errorf("HTML lacks %s:\n%s", s, m.HTML)
		}
	}
	if strings.Contains(m.Text+m.HTML, "Otto") || strings.Contains(m.Text, "Trainer of the month") {
		t.Error("the report names another user's or a fourth post")
	}
}

func TestChartPNG(t *testing.T) {
	w := twoWeeks(t)
	m, err := composer(w).Compose(context.Background(), 1, week43(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(m.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != report.ChartWidthPx || b.Dy() != report.ChartHeightPx || b.Dx() != 800 || b.Dy() != 560 {
		t.Errorf("PNG of %dx%d, want 800x560", b.Dx(), b.Dy())
	}
	if out := os.Getenv("REPORT_PNG"); out != "" {
		if err := os.WriteFile(out, m.PNG, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// parsed is a report mail's parts as a client reads them.
type parsed struct {
	text, html, pngType, pngID string
	png                        []byte
}

// parseReport reads a multipart/alternative { text/plain,
// multipart/related { text/html, image/png } } and fails on any other shape.
func parseReport(t *testing.T, contentType string, body []byte) parsed {
	t.Helper()
	var p parsed
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil || media != "multipart/alternative" {
		t.Fatalf("Content-Type %q: %v", contentType, err)
	}
	parts := readParts(t, bytes.NewReader(body), params["boundary"])
	if len(parts) != 2 || parts[0].media != "text/plain" || parts[1].media != "multipart/related" {
		t.Fatalf("alternative parts: %+v", parts)
	}
	if parts[1].params["type"] != "text/html" {
		t.Errorf("related type %q", parts[1].params["type"])
	}
	p.text = string(parts[0].body)
	related := readParts(t, bytes.NewReader(parts[1].body), parts[1].params["boundary"])
	if len(related) != 2 || related[0].media != "text/html" || related[1].media != "image/png" {
		t.Fatalf("related parts: %+v", related)
	}
	p.html, p.png, p.pngID = string(related[0].body), related[1].body, related[1].header.Get("Content-Id")
	return p
}

type part struct {
	media  string
	params map[string]string
	header textproto.MIMEHeader
	body   []byte
}

func (p part) String() string { return p.media }

func readParts(t *testing.T, r io.Reader, boundary string) []part {
	t.Helper()
	mr := multipart.NewReader(r, boundary)
	var out []part
	for {
		p, err := mr.NextPart() // decodes quoted-printable; base64 below
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		media, params, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		if p.Header.Get("Content-Transfer-Encoding") == "base64" {
			body = decodeBase64(t, body)
		}
		out = append(out, part{media: media, params: params, header: p.Header, body: body})
	}
}

func TestMIMEStructure(t *testing.T) {
	w := twoWeeks(t)
	m, err := composer(w).Compose(context.Background(), 1, week43(t))
	if err != nil {
		t.Fatal(err)
	}
	contentType, body, err := m.MIME()
	if err != nil {
		t.Fatal(err)
	}
	p := parseReport(t, contentType, body)
	if p.text != strings.ReplaceAll(m.Text, "\n", "\r\n") || p.html != strings.ReplaceAll(m.HTML, "\n", "\r\n") {
		t.Errorf("the text or HTML part differs from the report")
	}
	if p.pngID != "<chart@adboost>" || !bytes.Equal(p.png, m.PNG) {
		t.Errorf("image Content-ID %q, %d bytes (want %d)", p.pngID, len(p.png), len(m.PNG))
	}
	eml, err := m.EML("adboost <no-reply@adboost.test>", time.Date(2026, 10, 26, 8, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(eml))
	if err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(msg.Body)
	if msg.Header.Get("To") != "<user1@example.com>" || msg.Header.Get("Subject") != m.Subject {
		t.Errorf("eml headers %v", msg.Header)
	}
	if again := parseReport(t, msg.Header.Get("Content-Type"), rest); again.text != p.text || !bytes.Equal(again.png, m.PNG) {
		t.Error("the .eml's parts differ from the report's")
	}
}

// A campaign the engine never ran (no network_a_campaign) counts its posts'
// imported days, in their currency; one the engine runs counts only its
// ads' days.
func TestImportedDaysOfACampaignTheEngineNeverRan(t *testing.T) {
	w := newWorld(t)
	w.user(1, "Dana")
	w.exec(`INSERT INTO campaign (id, user_id, page_id, campaign_budget_value) VALUES (31, 1, 501, 10)`)
	w.campaign(32, 1, "EUR", "")
	w.post(301, 1, "Imported post")
	w.exec(`INSERT INTO boosted_post_campaign (user_id, campaign_id, post_id) VALUES (1, 31, 301), (1, 32, 301)`)
	w.exec(`INSERT INTO boosted_post_day (user_id, post_id, currency, day, reach, engagement, clicks, spend, conversions)
	        VALUES (1, 301, 'CZK', '2026-10-21', 100, 10, 1, 250.5, 0), (1, 301, 'CZK', '2026-10-14', 50, 5, 1, 100, 1)`)
	w.days(day{campaign: 32, post: 301, date: "2026-10-22", reach: 7, engagement: 3, clicks: 1, spend: "1.000"})
	m, err := composer(w).Compose(context.Background(), 1, week43(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []report.Campaign{
		{ID: 31, SourceName: "Dana's Page", Currency: "CZK",
			Week: report.Figures{Spend: "250.50", Reach: 100, Clicks: 1, Engagement: 10},
			Prev: report.Figures{Spend: "100.00", Reach: 50, Clicks: 1, Engagement: 5, Conversions: 1}},
		{ID: 32, SourceName: "Dana's Page", Currency: "EUR",
			Week: report.Figures{Spend: "1.00", Reach: 7, Clicks: 1, Engagement: 3},
			Prev: report.Figures{Spend: "0.00"}},
	}
	if !reflect.DeepEqual(m.Campaigns, want) {
		t.Errorf("campaigns:\n got %+v\nwant %+v", m.Campaigns, want)
	}
}
