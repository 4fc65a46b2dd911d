package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"adboost/db/mailer"
)

// ChartContentID is the Content-ID of the chart, which the HTML part shows
// as cid:chart@adboost.
const ChartContentID = "chart@adboost"

// Change is how a figure moved against the week before: a signed percentage
// with one decimal, "new" when the week before had none, "0%" when neither
// week had any.
func Change(cur, prev float64) string {
	switch {
	case prev == 0 && cur == 0:
		return "0%"
	case prev == 0:
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", (cur-prev)/prev*100)
}

// spendChange is Change of two amounts written with two decimals.
func spendChange(cur, prev string) string {
	c, _ := strconv.ParseFloat(cur, 64)
	p, _ := strconv.ParseFloat(prev, 64)
	return Change(c, p)
}

// Row is one figure of a campaign as the report writes it.
type Row struct {
	Name, Value, Change string
}

// Rows are the campaign's five figures with their changes.
func (c Campaign) Rows() []Row {
	n := Count
	ch := func(cur, prev int64) string { return Change(float64(cur), float64(prev)) }
	return []Row{
		{"Spend", c.Week.Spend + " " + c.Currency, spendChange(c.Week.Spend, c.Prev.Spend)},
		{"Reach", n(c.Week.Reach), ch(c.Week.Reach, c.Prev.Reach)},
		{"Clicks", n(c.Week.Clicks), ch(c.Week.Clicks, c.Prev.Clicks)},
		{"Engagement", n(c.Week.Engagement), ch(c.Week.Engagement, c.Prev.Engagement)},
		{"Conversions", n(c.Week.Conversions), ch(c.Week.Conversions, c.Prev.Conversions)},
	}
}

// Count writes a count with a comma between thousands: 12,345.
func Count(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Title names the campaign: its id and its page or account.
func (c Campaign) Title() string {
	if c.SourceName == "" {
		return "Campaign " + strconv.FormatInt(c.ID, 10)
	}
	return "Campaign " + strconv.FormatInt(c.ID, 10) + " – " + c.SourceName
}

// Span is the week's dates in words.
func (m *Mail) Span() string {
	return m.Week.Monday().Format("Monday 2 January") + " to " + m.Week.Day(6).Format("Sunday 2 January 2006")
}

// Greeting opens the mail.
func (m *Mail) Greeting() string {
	if m.FirstName == "" {
		return "Hello,"
	}
	return "Hello " + m.FirstName + ","
}

func (m *Mail) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nhere is what your boosted posts did from %s (week %s), against the week before.\n",
		m.Greeting(), m.Span(), m.Week)
	if len(m.Campaigns) == 0 {
		b.WriteString("\nNo campaign had statistics in these two weeks.\n")
	}
	for _, c := range m.Campaigns {
		fmt.Fprintf(&b, "\n%s (%s)\n", c.Title(), c.Currency)
		for _, r := range c.Rows() {
			fmt.Fprintf(&b, "  %-12s %s (%s)\n", r.Name+":", r.Value, r.Change)
		}
	}
	if len(m.Top) > 0 {
		b.WriteString("\nYour posts with the most engagement:\n")
		for i, p := range m.Top {
			fmt.Fprintf(&b, "%d. %s: %s engagements, reach %s, %s clicks\n", i+1, oneLine(p.Name), Count(p.Engagement), Count(p.Reach), Count(p.Clicks))
			if p.Link != "" {
				fmt.Fprintf(&b, "   %s\n", p.Link)
			}
		}
	}
	b.WriteString("\nThe HTML version of this mail charts each day's spend and engagement.\n")
	fmt.Fprintf(&b, "\nTo stop these weekly reports, open %s\n", m.UnsubscribeURL)
	return b.String()
}

// oneLine is a post's text on one line, at most 100 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		return string(r[:99]) + "…"
	}
	return s
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"oneLine": oneLine, "count": Count,
}).Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: Arial, sans-serif; color: #222; max-width: 640px;">
<p>{{.Greeting}}</p>
<p>here is what your boosted posts did from {{.Span}} (week {{.Week}}), against the week before.</p>
<p><img src="cid:` + ChartContentID + `" width="600" alt="Each day's spend and engagement of week {{.Week}}"></p>
{{- if not .Campaigns}}
<p>No campaign had statistics in these two weeks.</p>
{{- end}}
{{- range .Campaigns}}
<h3>{{.Title}} ({{.Currency}})</h3>
<table cellpadding="4" style="border-collapse: collapse;">
<tr><th align="left">This week</th><th align="right"></th><th align="right">Against the week before</th></tr>
{{- range .Rows}}
<tr><td>{{.Name}}</td><td align="right">{{.Value}}</td><td align="right">{{.Change}}</td></tr>
{{- end}}
</table>
{{- end}}
{{- if .Top}}
<h3>Your posts with the most engagement</h3>
<ol>
{{- range .Top}}
<li>{{if .Link}}<a href="{{.Link}}">{{oneLine .Name}}</a>{{else}}{{oneLine .Name}}{{end}}: {{count .Engagement}} engagements, reach {{count .Reach}}, {{count .Clicks}} clicks</li>
{{- end}}
</ol>
{{- end}}
<p style="font-size: small; color: #666;">You get this mail every Monday.
<a href="{{.UnsubscribeURL}}">Stop these weekly reports</a>.</p>
</body></html>
`))

func (m *Mail) html() (string, error) {
	var b strings.Builder
	if err := htmlTemplate.Execute(&b, m); err != nil {
		return "", err
	}
	return b.String(), nil
}

// MIME answers the mail's body and its Content-Type: multipart/alternative
// of the text/plain part and a multipart/related of the text/html part and
// the chart (image/png, by Content-ID).
func (m *Mail) MIME() (contentType string, body []byte, err error) {
	var related bytes.Buffer
	rw := multipart.NewWriter(&related)
	if err := qpPart(rw, "text/html; charset=utf-8", m.HTML); err != nil {
		return "", nil, err
	}
	png, err := rw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"image/png"},
		"Content-Transfer-Encoding": {"base64"},
		"Content-Id":                {"<" + ChartContentID + ">"},
		"Content-Disposition":       {`inline; filename="chart.png"`},
	})
	if err != nil {
		return "", nil, err
	}
	writeBase64(png, m.PNG)
	if err := rw.Close(); err != nil {
		return "", nil, err
	}
	var all bytes.Buffer
	aw := multipart.NewWriter(&all)
	if err := qpPart(aw, "text/plain; charset=utf-8", m.Text); err != nil {
		return "", nil, err
	}
	part, err := aw.CreatePart(textproto.MIMEHeader{
		"Content-Type": {mime.FormatMediaType("multipart/related", map[string]string{
			"boundary": rw.Boundary(), "type": "text/html"})},
	})
	if err != nil {
		return "", nil, err
	}
	if _, err := part.Write(related.Bytes()); err != nil {
		return "", nil, err
	}
	if err := aw.Close(); err != nil {
		return "", nil, err
	}
	return "multipart/alternative; boundary=" + aw.Boundary(), all.Bytes(), nil
}

// qpPart writes a quoted-printable part of a UTF-8 text.
func qpPart(w *multipart.Writer, contentType, text string) error {
	p, err := w.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {contentType},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	if err != nil {
		return err
	}
	qp := quotedprintable.NewWriter(p)
	if _, err := qp.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n"))); err != nil {
		return err
	}
	return qp.Close()
}

// writeBase64 writes data in base64 lines of 76 characters.
func writeBase64(w io.Writer, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		_, _ = w.Write([]byte(enc[:76] + "\r\n"))
		enc = enc[76:]
	}
	_, _ = w.Write([]byte(enc + "\r\n"))
}

// EML is the whole message as a mail file, with the headers the mail jobs
// send it with (mailer.Format, without a Message-ID): from is its sender,
// "name <address>".
func (m *Mail) EML(from string, now time.Time) ([]byte, error) {
	sender, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail sender %q: %w", from, err)
	}
	contentType, body, err := m.MIME()
	if err != nil {
		return nil, err
	}
	return mailer.Format(sender, mailer.Message{To: m.To, Subject: m.Subject, ContentType: contentType, Body: body}, "", now), nil
}
