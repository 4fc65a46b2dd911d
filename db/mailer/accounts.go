package mailer

import (
	"context"
	"fmt"
	"strconv"

	"github.com/riverqueue/river"
)

// The kinds of this package's mails.
const (
	KindEmailVerification = "adboost_mail_email_verification"
	KindEmailChangeNotice = "adboost_mail_email_change_notice"
	KindPrepared          = "adboost_mail_prepared"
)

// EmailChange is what both mails of an e-mail change say: who asked, from
// which address to which, and how long the link works.
type EmailChange struct {
	FirstName  string `json:"first_name"`
	OldEmail   string `json:"old_email"`
	NewEmail   string `json:"new_email"`
	ValidHours int    `json:"valid_hours"`
}

// Greeting opens a mail to the user: "Hello Ana," or "Hello,".
func Greeting(firstName string) string {
	if firstName == "" {
		return "Hello,"
	}
	return "Hello " + firstName + ","
}

// EmailVerificationArgs is the mail to the new address of an e-mail change,
// with the link that confirms it. The link is a secret until the mail is
// sent: the job forgets it then (Worker.Work).
type EmailVerificationArgs struct {
	EmailChange
	Link string `json:"link"`
}

// Kind is the job's kind.
func (EmailVerificationArgs) Kind() string { return KindEmailVerification }

// InsertOpts: a mail job.
func (EmailVerificationArgs) InsertOpts() river.InsertOpts { return InsertOpts() }

// Mail is the mail, to the new address.
func (a EmailVerificationArgs) Mail() Message {
	body := fmt.Sprintf(`%s

you asked to change the e-mail address of your adboost account from
%s to %s.

Open this link within %d hours to confirm the new address:

%s

The link works once. If you did not ask for this change, ignore this
e-mail: your address stays %s.

adboost
`, Greeting(a.FirstName), a.OldEmail, a.NewEmail, a.ValidHours, a.Link, a.OldEmail)
	return Message{To: a.NewEmail, Subject: "Confirm your new e-mail address for adboost", Text: body}
}

// EmailChangeNoticeArgs is the mail to the current address when a change of
// the e-mail address is asked for (a stolen token must not change it
// unnoticed): it carries no link, only the news.
type EmailChangeNoticeArgs struct {
	EmailChange
}

// Kind is the job's kind.
func (EmailChangeNoticeArgs) Kind() string { return KindEmailChangeNotice }

// InsertOpts: a mail job.
func (EmailChangeNoticeArgs) InsertOpts() river.InsertOpts { return InsertOpts() }

// Mail is the mail, to the current address.
func (a EmailChangeNoticeArgs) Mail() Message {
	body := fmt.Sprintf(`%s

someone signed in to your adboost account asked to change its e-mail
address from %s to %s.
The change takes effect only when the link sent to the new address is
opened, within %d hours.

If this was not you, sign in and change your password now: that ends
every session of your account and cancels the pending change.

adboost
`, Greeting(a.FirstName), a.OldEmail, a.NewEmail, a.ValidHours)
	return Message{To: a.OldEmail, Subject: "Your adboost e-mail address is being changed", Text: body}
}

// PreparedArgs is a mail rendered before it became a River job: one of
// those that migration 00140 moved, as they were, out of the table
// mail_outbox. Its Message-ID keeps the outbox's id, so that a mail sent
// just before the move and again after it is recognisable as the same.
type PreparedArgs struct {
	OutboxID int64  `json:"outbox_id"`
	To       string `json:"to"`
	Subject  string `json:"subject"`
	Body     string `json:"body"`
	// MIMEType and MIMEBody: a whole MIME body and its Content-Type, sent
	// instead of Body; empty for a plain text mail.
	MIMEType string `json:"mime_type,omitempty"`
	MIMEBody string `json:"mime_body,omitempty"`
}

// Kind is the job's kind.
func (PreparedArgs) Kind() string { return KindPrepared }

// InsertOpts: a mail job.
func (PreparedArgs) InsertOpts() river.InsertOpts { return InsertOpts() }

// Mail is the mail as it was prepared.
func (a PreparedArgs) Mail() Message {
	m := Message{To: a.To, Subject: a.Subject, Text: a.Body, ID: "outbox-" + strconv.FormatInt(a.OutboxID, 10)}
	if a.MIMEType != "" {
		m.ContentType, m.Body = a.MIMEType, []byte(a.MIMEBody)
	}
	return m
}

// mailer is an args type whose mail needs nothing but its arguments.
type mailer interface {
	river.JobArgs
	Mail() Message
}

// render is the Render of an args type whose mail needs nothing else.
func render[T mailer](_ context.Context, args T) (Message, error) { return args.Mail(), nil }

// AddWorkers adds the workers of this package's mails, sent by s.
func AddWorkers(workers *river.Workers, s *Sender) {
	river.AddWorker(workers, NewWorker(s, render[EmailVerificationArgs]))
	river.AddWorker(workers, NewWorker(s, render[EmailChangeNoticeArgs]))
	river.AddWorker(workers, NewWorker(s, render[PreparedArgs]))
}
