package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"adboost/auth"
	"adboost/db"
	"adboost/db/outbox"
)

// config is the environment of CONTRACT §1.
type config struct {
	databaseURL     string
	defaultDatabase bool // DATABASE_URL unset: create the local database if missing
	httpAddr        string
	env             string
	jwtSecret       []byte
	jwtTTL          time.Duration
	fixedFee        string
	publicBaseURL   string
	// advertiserAccessEmail answers access-data when the campaign's preset
	// names no agency e-mail.
	advertiserAccessEmail string
	networkAURL           string // NETWORK_A_API_URL: empty turns social sign-in off
	smtpURL               string // SMTP_URL: empty logs mails instead of sending them
	mailFrom              string // MAIL_FROM: the sender of outgoing mails
}

var decimal = regexp.MustCompile(`^[0-9]{1,8}(\.[0-9]{1,2})?$`)

// emailAddress is the shape the schema accepts for agency e-mails.
var emailAddress = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

func loadConfig(getenv func(string) string, log *slog.Logger) (config, error) {
	c := config{
		databaseURL:   getenv("DATABASE_URL"),
		httpAddr:      or(getenv("HTTP_ADDR"), "127.0.0.1:8080"),
		env:           getenv("ADBOOST_ENV"),
		jwtSecret:     []byte(getenv("JWT_SECRET")),
		fixedFee:      or(getenv("SERVICE_FIXED_FEE"), "0.00"),
		publicBaseURL: strings.TrimRight(getenv("PUBLIC_BASE_URL"), "/"),

		advertiserAccessEmail: strings.TrimSpace(getenv("ADVERTISER_ACCESS_EMAIL")),
		networkAURL:           getenv("NETWORK_A_API_URL"),
		smtpURL:               getenv("SMTP_URL"),
		mailFrom:              or(getenv("MAIL_FROM"), outbox.DefaultFrom),
	}
	if c.databaseURL == "" {
		c.databaseURL, c.defaultDatabase = db.DefaultURL, true
	}
	if c.publicBaseURL == "" {
		c.publicBaseURL = "http://" + c.httpAddr
	}
	if !decimal.MatchString(c.fixedFee) {
		return c, fmt.Errorf("SERVICE_FIXED_FEE %q is not a non-negative decimal with at most two decimals", c.fixedFee)
	}
	if c.advertiserAccessEmail != "" && !emailAddress.MatchString(c.advertiserAccessEmail) {
		return c, fmt.Errorf("ADVERTISER_ACCESS_EMAIL %q is not an e-mail address", c.advertiserAccessEmail)
	}
	ttl, err := time.ParseDuration(or(getenv("JWT_TTL"), "24h"))
	if err != nil || ttl <= 0 {
		return c, fmt.Errorf("JWT_TTL %q is not a positive duration such as 24h", getenv("JWT_TTL"))
	}
	c.jwtTTL = ttl
	if c.networkAURL != "" {
		if _, err := auth.NewNetworkA(c.networkAURL, 0); err != nil {
			return c, fmt.Errorf("NETWORK_A_API_URL: %w", err)
		}
	}
	if c.smtpURL != "" {
		if err := outbox.CheckSMTPURL(c.smtpURL); err != nil {
			return c, err
		}
	}
	if _, err := mail.ParseAddress(c.mailFrom); err != nil {
		return c, fmt.Errorf("MAIL_FROM %q is not an e-mail address: %w", c.mailFrom, err)
	}
	return c, nil
}

// tokens answers the token issuer, refusing to run without a secret outside
// of development.
func (c config) tokens(log *slog.Logger) (*auth.Tokens, error) {
	secret := c.jwtSecret
	if len(secret) == 0 {
		if c.env != "dev" {
			return nil, errors.New("JWT_SECRET is not set (set ADBOOST_ENV=dev to run with a random one)")
		}
		secret = []byte(rand.Text() + rand.Text())
		log.Warn("JWT_SECRET is not set: using a random secret; tokens will not survive a restart (ADBOOST_ENV=dev)")
	}
	return auth.NewTokens(secret, c.jwtTTL)
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
