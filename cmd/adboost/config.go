package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"adboost/auth"
	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/boost"
	"adboost/db/mailer"
	httpapi "adboost/http"
)

// config is the environment adboost reads (settings.go lists it).
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
	// networkAApp exchanges sign-in tokens for long-lived ones
	// (NETWORK_A_APP_ID, NETWORK_A_APP_SECRET); unset: tokens are stored as
	// given.
	networkAApp networka.App
	smtpURL     string // SMTP_URL: empty logs mails instead of sending them
	mailFrom    string // MAIL_FROM: the sender of outgoing mails
	// statementTimeout bounds each statement of the serving pool
	// (DB_STATEMENT_TIMEOUT, default 5s; 0 turns it off).
	statementTimeout time.Duration
	// trustedProxies may name the client in X-Forwarded-For (TRUSTED_PROXIES).
	trustedProxies []netip.Prefix

	// corsOrigins may call the API from a browser (CORS_ALLOWED_ORIGINS).
	corsOrigins []string
	// metricsAddr serves GET /metrics instead of HTTP_ADDR (METRICS_ADDR).
	metricsAddr string
	// tokenCipher seals and opens network_a tokens (TOKEN_ENCRYPTION_KEY);
	// nil: tokens are not stored and the boosting engine is off.
	tokenCipher *auth.TokenCipher
	// engineInterval is how often serve runs a cycle of the boosting engine
	// (ENGINE_INTERVAL; 0 = never).
	engineInterval time.Duration
	// enginePostMaxAge is how old a post may be and still be boosted
	// (ENGINE_POST_MAX_AGE).
	enginePostMaxAge time.Duration
	// engineWorkers bounds the campaigns in flight per process
	// (ENGINE_WORKERS), engineCalls the network_a requests in flight
	// (ENGINE_CALLS); the same in serve and `adboost engine`.
	engineWorkers, engineCalls int
	// flags are the values of the command's flags, by the name its flags
	// function gave set (the settings' overrides among them).
	flags map[string]string
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
		smtpURL:               getenv("SMTP_URL"),
		mailFrom:              or(getenv("MAIL_FROM"), mailer.DefaultFrom),
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
	st, err := time.ParseDuration(or(getenv("DB_STATEMENT_TIMEOUT"), "5s"))
	if err != nil || st < 0 {
		return c, fmt.Errorf("DB_STATEMENT_TIMEOUT %q is not a duration such as 5s (0 turns the limit off)", getenv("DB_STATEMENT_TIMEOUT"))
	}
	c.statementTimeout = st
	if c.trustedProxies, err = httpapi.ParseTrustedProxies(getenv("TRUSTED_PROXIES")); err != nil {
		return c, err
	}
	if c.networkAURL, c.networkAApp, err = networkASettings(getenv); err != nil {
		return c, err
	}
	if c.smtpURL != "" {
		if err := mailer.CheckSMTPURL(c.smtpURL); err != nil {
			return c, err
		}
	}
	c.metricsAddr = getenv("METRICS_ADDR")
	if c.corsOrigins, err = httpapi.ParseOrigins(getenv("CORS_ALLOWED_ORIGINS")); err != nil {
		return c, fmt.Errorf("CORS_ALLOWED_ORIGINS: %w", err)
	}
	if _, err := mail.ParseAddress(c.mailFrom); err != nil {
		return c, fmt.Errorf("MAIL_FROM %q is not an e-mail address: %w", c.mailFrom, err)
	}
	if key := getenv("TOKEN_ENCRYPTION_KEY"); key != "" {
		if c.tokenCipher, err = auth.NewTokenCipher(key); err != nil {
			return c, err
		}
	}
	if c.engineInterval, err = duration(getenv, "ENGINE_INTERVAL", boost.DefaultInterval, true); err != nil {
		return c, err
	}
	if c.engineInterval > 0 && c.engineInterval < boost.MinInterval {
		return c, fmt.Errorf("ENGINE_INTERVAL %s is shorter than %s (0 turns the cycles off)", c.engineInterval, boost.MinInterval)
	}
	if c.enginePostMaxAge, err = duration(getenv, "ENGINE_POST_MAX_AGE", boost.DefaultPostMaxAge, false); err != nil {
		return c, err
	}
	if c.engineWorkers, err = count(getenv, "ENGINE_WORKERS", boost.DefaultWorkers, 10000); err != nil {
		return c, err
	}
	if c.engineCalls, err = count(getenv, "ENGINE_CALLS", boost.DefaultCalls, 1000); err != nil {
		return c, err
	}
	return c, nil
}

// appID is the shape of a network_a app id.
var appID = regexp.MustCompile(`^[0-9]{1,32}$`)

// networkASettings reads NETWORK_A_API_URL, and NETWORK_A_APP_ID with
// NETWORK_A_APP_SECRET: both or neither. An error never shows the secret.
func networkASettings(getenv func(string) string) (apiURL string, app networka.App, err error) {
	apiURL = getenv("NETWORK_A_API_URL")
	if apiURL != "" {
		if _, err := networka.New(apiURL, networka.Options{}); err != nil {
			return "", app, fmt.Errorf("NETWORK_A_API_URL: %w", err)
		}
	}
	app = networka.App{ID: strings.TrimSpace(getenv("NETWORK_A_APP_ID")), Secret: getenv("NETWORK_A_APP_SECRET")}
	switch {
	case app.ID == "" && app.Secret == "":
		return apiURL, app, nil
	case app.ID == "":
		return "", app, errors.New("NETWORK_A_APP_SECRET is set without NETWORK_A_APP_ID: set both, or neither")
	case app.Secret == "":
		return "", app, errors.New("NETWORK_A_APP_ID is set without NETWORK_A_APP_SECRET: set both, or neither")
	case !appID.MatchString(app.ID):
		return "", app, fmt.Errorf("NETWORK_A_APP_ID %q is not a network_a app id (digits)", app.ID)
	case len(app.Secret) > 256 || strings.IndexFunc(app.Secret, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0:
		return "", app, errors.New("NETWORK_A_APP_SECRET is not an app secret: at most 256 characters, no spaces or control characters")
	}
	return apiURL, app, nil
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

// duration reads a duration variable (e.g. 5m, 168h); 0 only when zeroOK.
func duration(getenv func(string) string, name string, def time.Duration, zeroOK bool) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		if zeroOK {
			return 0, fmt.Errorf("%s %q is not a duration such as 5m (0 turns it off)", name, v)
		}
		return 0, fmt.Errorf("%s %q is not a positive duration such as 168h", name, v)
	}
	return d, nil
}

// count reads a whole number variable from 1 to most.
func count(getenv func(string) string, name string, def, most int) (int, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > most {
		return 0, fmt.Errorf("%s %q is not a whole number from 1 to %d", name, v, most)
	}
	return n, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
