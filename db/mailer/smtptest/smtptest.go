// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp) for
// tests: it speaks the protocol, asks for AUTH PLAIN when given credentials,
// and keeps every message it accepts.
package smtptest

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one accepted mail.
type Message struct {
	From string
	To   []string
	Data []byte
	User string // who authenticated, if anyone
	TLS  bool   // whether the conversation was encrypted
}

// Server is a running SMTP server.
type Server struct {
	Addr string

	user, password string
	srv            *smtp.Server
	mu             sync.Mutex
	msgs           []Message
	delay          time.Duration
}

// Start listens on addr ("" picks a free port of 127.0.0.1) until the test
// ends. With a user, every mail needs AUTH PLAIN with user and password.
func Start(t testing.TB, addr, user, password string) *Server {
	t.Helper()
	return StartTLS(t, addr, user, password, nil)
}

// StartTLS is Start with STARTTLS offered under cfg; AUTH is then accepted
// only after STARTTLS.
func StartTLS(t testing.TB, addr, user, password string, cfg *tls.Config) *Server {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("smtptest: %v", err)
	}
	s := &Server{Addr: ln.Addr().String(), user: user, password: password}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{s: s, conn: c}, nil
	}))
	s.srv.Domain = "smtptest.local"
	s.srv.AllowInsecureAuth = cfg == nil
	s.srv.TLSConfig = cfg
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(s.Close)
	return s
}

// FreeAddr answers an address of 127.0.0.1 where nothing listens (yet).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Close stops the server.
func (s *Server) Close() { _ = s.srv.Close() }

// SetDelay makes the server wait this long before accepting each message.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Messages answers the accepted mails, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type session struct {
	s    *Server
	conn *smtp.Conn
	user string
	msg  Message
}

func (x *session) AuthMechanisms() []string {
	if x.s.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (x *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, user, password string) error {
		if user != x.s.user || password != x.s.password {
			return smtp.ErrAuthFailed
		}
		x.user = user
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.user != "" && x.user == "" {
		return smtp.ErrAuthRequired
	}
	_, encrypted := x.conn.TLSConnectionState()
	x.msg = Message{From: from, User: x.user, TLS: encrypted}
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(x.msg.To) == 0 {
		return errors.New("no recipient")
	}
	x.s.mu.Lock()
	delay := x.s.delay
	x.s.mu.Unlock()
	time.Sleep(delay)
	x.msg.Data = data
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, x.msg)
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.msg = Message{} }
func (x *session) Logout() error { return nil }
