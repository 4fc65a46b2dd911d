package mailer

import (
	"bytes"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strconv"
	"strings"
	"time"
)

// Message is a mail as a job renders it.
type Message struct {
	To, Subject string
	// Text is the plain text of the mail, sent quoted-printable, and what
	// the log shows of it.
	Text string
	// ContentType, when set, is the type of Body, a whole MIME body
	// (multipart) prepared by the job and sent as it is instead of Text.
	ContentType string
	Body        []byte
	// ID is the local part of the Message-ID; empty: "mail-" and the job's
	// id, so that a mail sent again after a crash is recognisable as the
	// same.
	ID string
}

// messageID is the Message-ID of job id's mail m: its ID, or one made of
// the job's id, at the sender's domain.
func (s *Sender) messageID(id int64, m Message) string {
	domain := "localhost"
	if at := strings.LastIndexByte(s.from.Address, '@'); at >= 0 {
		domain = s.from.Address[at+1:]
	}
	local := m.ID
	if local == "" {
		local = "mail-" + strconv.FormatInt(id, 10)
	}
	return "<" + local + "@" + domain + ">"
}

// Format is the message as sent: its headers (From, To, Subject, Date,
// Message-ID unless messageID is empty, MIME-Version, Content-Type) and its
// body, the prepared one as it is or the text in quoted-printable UTF-8.
func Format(from *mail.Address, m Message, messageID string, now time.Time) []byte {
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", from.String())
	header("To", (&mail.Address{Address: m.To}).String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	if messageID != "" {
		header("Message-ID", messageID)
	}
	header("MIME-Version", "1.0")
	if m.ContentType != "" {
		header("Content-Type", m.ContentType)
		b.WriteString("\r\n")
		b.Write(m.Body)
		return b.Bytes()
	}
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(m.Text))
	_ = qp.Close()
	return b.Bytes()
}
