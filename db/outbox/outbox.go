// Package outbox delivers the mails of the mail_outbox table over SMTP.
//
// Handlers write a mail into mail_outbox in the transaction of the change it
// reports; a Sender, run by `adboost serve`, claims due mails (FOR UPDATE SKIP
// LOCKED, with a lease), sends them and marks them sent, or records the
// failure and retries later with an exponential backoff. A mail is never lost
// while the SMTP server is down, and senders of several `serve` instances
// never claim the same mail. Delivery is at least once: a sender that dies
// after the server accepted a mail but before marking it sent leaves it to be
// sent again when its lease ends.
package outbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
)

// Config tunes a Sender; zero fields take the defaults.
type Config struct {
	// SMTPURL is smtp://[user:password@]host[:port] (port 25 by default).
	// Empty: every mail is written to the log, at info level, and marked
	// sent, for development.
	SMTPURL string
	// From is the sender of every mail (default "adboost <no-reply@localhost>").
	From string
	// HelloName is the name given in EHLO (default "localhost").
	HelloName string
	// TLS is used for STARTTLS when the server offers it; nil verifies the
	// server's certificate against the system's roots.
	TLS *tls.Config

	Batch       int           // mails claimed at once (default 10)
	Lease       time.Duration // how long a claim keeps other senders off a mail (default 10 min)
	Poll        time.Duration // wait between looks when nothing is due (default 2 s)
	Timeout     time.Duration // one SMTP delivery at most (default 15 s)
	BackoffBase time.Duration // wait after the first failed attempt (default 30 s)
	BackoffMax  time.Duration // longest wait between attempts (default 1 h)
}

// DefaultFrom is the sender of the mails when Config.From is empty.
const DefaultFrom = "adboost <no-reply@localhost>"

// Sender delivers the outbox.
type Sender struct {
	q    *db.Queries
	cfg  Config
	log  *slog.Logger
	from *mail.Address
	smtp *server // nil: log the mails
}

// server is where mails go: parsed SMTP_URL.
type server struct {
	addr     string // host:port
	host     string
	user     string
	password string
	auth     bool
}

// CheckSMTPURL tells what is wrong with an SMTP_URL, or nil.
func CheckSMTPURL(raw string) error {
	_, err := parseSMTPURL(raw)
	return err
}

func parseSMTPURL(raw string) (*server, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, errors.New("SMTP_URL: want smtp://[user:password@]host[:port]")
	}
	s := &server{host: u.Hostname(), addr: u.Host}
	if u.Port() == "" {
		s.addr = net.JoinHostPort(u.Hostname(), "25")
	}
	if u.User != nil {
		s.auth = true
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	return s, nil
}

// New returns a sender of the outbox of the pool's database.
func New(pool *pgxpool.Pool, cfg Config, log *slog.Logger) (*Sender, error) {
	if cfg.From == "" {
		cfg.From = DefaultFrom
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail sender %q: %w", cfg.From, err)
	}
	if cfg.HelloName == "" {
		cfg.HelloName = "localhost"
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 10
	}
	def(&cfg.Lease, 10*time.Minute)
	def(&cfg.Poll, 2*time.Second)
	def(&cfg.Timeout, 15*time.Second)
	def(&cfg.BackoffBase, 30*time.Second)
	def(&cfg.BackoffMax, time.Hour)
	// A claim must outlast the deliveries of its whole batch, or another
	// sender could take a mail this one is still sending.
	if least := time.Duration(cfg.Batch)*cfg.Timeout + time.Minute; cfg.Lease < least {
		cfg.Lease = least
	}
	s := &Sender{q: db.New(pool), cfg: cfg, log: log, from: from}
	if cfg.SMTPURL != "" {
		if s.smtp, err = parseSMTPURL(cfg.SMTPURL); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Run delivers the outbox until ctx is done. A mail being sent then is
// finished (at most Config.Timeout); claimed mails not yet tried are given
// back at once for another sender.
func (s *Sender) Run(ctx context.Context) {
	if s.smtp == nil {
		s.log.Warn("SMTP_URL is not set: mails are written to this log instead of being sent")
	}
	for {
		n, err := s.RunOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.log.Error("mail outbox", "err", err)
		}
		if n == s.cfg.Batch && err == nil {
			continue // there may be more due
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.cfg.Poll):
		}
	}
}

// RunOnce claims one batch of due mails and delivers it, and answers how many
// mails it claimed.
func (s *Sender) RunOnce(ctx context.Context) (int, error) {
	claimed, err := s.q.MailOutboxClaim(ctx, db.MailOutboxClaimParams{
		LeaseSeconds: s.cfg.Lease.Seconds(), Batch: int32(s.cfg.Batch),
	})
	if err != nil {
		return 0, err
	}
	// What happened to a mail is recorded even when ctx ends meanwhile.
	record, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for i, m := range claimed {
		if ctx.Err() != nil {
			ids := make([]int64, 0, len(claimed)-i)
			for _, rest := range claimed[i:] {
				ids = append(ids, rest.ID)
			}
			return len(claimed), s.q.MailOutboxRelease(record, ids)
		}
		if err := s.deliver(ctx, m); err != nil {
			s.log.Warn("mail not delivered; will retry", "id", m.ID, "attempts", m.Attempts, "err", err)
			if err := s.q.MailOutboxFailed(record, db.MailOutboxFailedParams{
				ID: m.ID, LastError: err.Error(),
				BaseSeconds: s.cfg.BackoffBase.Seconds(), MaxSeconds: s.cfg.BackoffMax.Seconds(),
			}); err != nil {
				return len(claimed), err
			}
			continue
		}
		if err := s.q.MailOutboxSent(record, m.ID); err != nil {
			return len(claimed), err
		}
	}
	return len(claimed), nil
}

// deliver sends one mail, or logs it when no SMTP server is configured.
func (s *Sender) deliver(ctx context.Context, m db.MailOutboxClaimRow) error {
	if s.smtp == nil {
		// Development only: the body (and any link in it) is logged so that
		// a developer can follow it.
		s.log.Info("mail (SMTP_URL is not set: logged, not sent)",
			"id", m.ID, "to", m.Recipient, "subject", m.Subject, "body", m.Body)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
	defer cancel()
	return s.send(ctx, m.Recipient, s.message(m, time.Now()))
}

// send is one SMTP conversation: EHLO, STARTTLS when offered, AUTH PLAIN
// when the URL has credentials, MAIL, RCPT, DATA. Once the server accepted
// the data the mail counts as sent, whatever QUIT answers.
func (s *Sender) send(ctx context.Context, to string, msg []byte) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.smtp.addr)
	if err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	c, err := smtp.NewClient(conn, s.smtp.host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if err := c.Hello(s.cfg.HelloName); err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		cfg := &tls.Config{ServerName: s.smtp.host}
		if s.cfg.TLS != nil {
			cfg = s.cfg.TLS.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName = s.smtp.host
			}
		}
		if err := c.StartTLS(cfg); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	}
	if s.smtp.auth {
		// PlainAuth sends the password only over TLS or to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.smtp.user, s.smtp.password, s.smtp.host)); err != nil {
			return fmt.Errorf("AUTH: %w", err)
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	_ = c.Quit()
	return nil
}

// message is the mail as sent: headers and a quoted-printable UTF-8 body,
// or, for a mail prepared whole (mime_body), its Content-Type and that body
// as it is. The Message-ID follows from the outbox id, so a mail sent again
// after a crash is recognisable as the same.
func (s *Sender) message(m db.MailOutboxClaimRow, now time.Time) []byte {
	domain := "localhost"
	if at := strings.LastIndexByte(s.from.Address, '@'); at >= 0 {
		domain = s.from.Address[at+1:]
	}
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", s.from.String())
	header("To", (&mail.Address{Address: m.Recipient}).String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", fmt.Sprintf("<outbox-%d@%s>", m.ID, domain))
	header("MIME-Version", "1.0")
	if m.MimeBody != nil && m.MimeType != nil {
		header("Content-Type", *m.MimeType)
		b.WriteString("\r\n")
		b.WriteString(*m.MimeBody)
		return b.Bytes()
	}
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(m.Body))
	_ = qp.Close()
	return b.Bytes()
}
