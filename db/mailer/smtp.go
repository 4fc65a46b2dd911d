package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Config tunes a Sender; zero fields take the defaults.
type Config struct {
	// SMTPURL is smtp://[user:password@]host[:port] (port 25 by default).
	// Empty: every mail is written to the log, at info level, for
	// development.
	SMTPURL string
	// From is the sender of every mail (default DefaultFrom).
	From string
	// HelloName is the name given in EHLO (default "localhost").
	HelloName string
	// TLS is used for STARTTLS when the server offers it; nil verifies the
	// server's certificate against the system's roots.
	TLS *tls.Config

	Timeout     time.Duration // one SMTP delivery at most (default 15 s)
	BackoffBase time.Duration // wait after the first failed attempt (default 30 s)
	BackoffMax  time.Duration // longest wait between attempts (default 1 h)
}

// DefaultFrom is the sender of the mails when Config.From is empty.
const DefaultFrom = "adboost <no-reply@localhost>"

// Sender is adboost's one SMTP client: it sends the mails that the mail
// jobs render, or logs them when no SMTP server is configured.
type Sender struct {
	pool *pgxpool.Pool
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

// New returns the sender of the mail jobs of the pool's database.
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
	def(&cfg.Timeout, 15*time.Second)
	def(&cfg.BackoffBase, 30*time.Second)
	def(&cfg.BackoffMax, time.Hour)
	s := &Sender{pool: pool, cfg: cfg, log: log, from: from}
	if cfg.SMTPURL != "" {
		if s.smtp, err = parseSMTPURL(cfg.SMTPURL); err != nil {
			return nil, err
		}
	} else {
		log.Warn("SMTP_URL is not set: mails are written to this log instead of being sent")
	}
	return s, nil
}

// Backoff is how long a mail waits after its attempt-th failed attempt:
// BackoffBase after the first, doubling with each, at most BackoffMax.
func (s *Sender) Backoff(attempt int) time.Duration {
	wait := s.cfg.BackoffBase
	for i := 1; i < attempt && wait < s.cfg.BackoffMax; i++ {
		wait *= 2
	}
	return min(wait, s.cfg.BackoffMax)
}

// Send delivers the mail of job id, or logs it when no SMTP server is
// configured. The conversation outlives the end of ctx (at most
// Config.Timeout), so that a stopping process finishes the mail it sends.
func (s *Sender) Send(ctx context.Context, id int64, m Message) error {
	if s.smtp == nil {
		// Development only: the body (and any link in it) is logged so that
		// a developer can follow it.
		s.log.Info("mail (SMTP_URL is not set: logged, not sent)",
			"job", id, "to", m.To, "subject", m.Subject, "body", m.Text)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
	defer cancel()
	return s.send(ctx, m.To, Format(s.from, m, s.messageID(id, m), time.Now()))
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
	if err := s.hello(c); err != nil {
		return err
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

// hello opens the conversation: EHLO, STARTTLS when the server offers it,
// and AUTH PLAIN when the URL has credentials.
func (s *Sender) hello(c *smtp.Client) error {
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
	return nil
}
