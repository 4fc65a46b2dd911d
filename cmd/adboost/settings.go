package main

import (
	"fmt"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"adboost/db"
	"adboost/db/mailer"
)

// setting is one environment variable of adboost.
type setting struct {
	name    string
	def     string // the default, as Markdown (backquotes are dropped in the usage)
	meaning string // as Markdown
}

// settings is the one list of the environment variables that adboost reads:
// `adboost help` prints it, and a test keeps the README's configuration
// table and the variables the code reads the same as it. A new variable is
// a new row here (and in loadConfig).
var settings = []setting{
	{"DATABASE_URL", "`" + db.DefaultURL + "`", "pgx connection string; its database is created when missing and the user may; its `pool_max_conns` sizes the pool, else 4 connections a core (at least 8); its connections run without parallel workers and without JIT (`max_parallel_workers_per_gather=0`, `jit=off`: adboost's statements are short and many run at once) unless the URL sets them"},
	{"HTTP_ADDR", "`127.0.0.1:8080`", "listen address"},
	{"ADBOOST_ENV", "none", "`dev` lets `serve` run without `JWT_SECRET` (random key, with a warning)"},
	{"JWT_SECRET", "none: `serve` refuses to start unless `ADBOOST_ENV=dev`", "HS256 key, at least 32 bytes"},
	{"JWT_TTL", "`24h`", "lifetime of an access token"},
	{"SERVICE_FIXED_FEE", "`0.00`", "added to every preset `price` and `original_price`"},
	{"PUBLIC_BASE_URL", "`http://HTTP_ADDR`", "makes stored relative image paths absolute, and starts the links of verification mails"},
	{"NETWORK_A_API_URL", "none: social sign-up and sign-in answer 503 `unavailable`", "base URL of network_a's Graph-style API"},
	{"NETWORK_A_APP_ID", "none: the network_a token a sign-in gives is stored as given and may end within hours (`serve` warns)", "adboost's app id on network_a (digits); with `NETWORK_A_APP_SECRET`, `signup-sn` and `login-sn` exchange the token they are given for a long-lived one (60 days) and store its end"},
	{"NETWORK_A_APP_SECRET", "none", "the app's secret, set together with `NETWORK_A_APP_ID`; sent to network_a in the exchange only, never logged or answered"},
	{"SMTP_URL", "none: mails are logged instead of sent", "`smtp://user:pass@host:port` for outgoing mails (STARTTLS when offered)"},
	{"MAIL_FROM", "`" + mailer.DefaultFrom + "`", "sender of outgoing mails"},
	{"ADVERTISER_ACCESS_EMAIL", "none", "answer of `boosted-pages/access-data` when the campaign's preset has no agency e-mail"},
	{"DB_STATEMENT_TIMEOUT", "`5s`", "longest a request's SQL statement may run (PostgreSQL `statement_timeout` on the serving pool); beyond, `503 unavailable`. `0` turns it off; a `statement_timeout` in `DATABASE_URL` wins"},
	{"TRUSTED_PROXIES", "none: nobody's `X-Forwarded-For` is believed", "comma-separated CIDRs (or addresses) of the reverse proxies whose `X-Forwarded-For` names the client address, for the sign-in limit"},
	{"TOKEN_ENCRYPTION_KEY", "none: network_a tokens are not stored and the boosting engine is off (warning)", "32 bytes, standard base64 (`openssl rand -base64 32`): seals the network_a tokens that sign-up, login-sn and `import` store (AES-256-GCM)"},
	{"ENGINE_INTERVAL", "`5m`", "how often `serve` runs a boosting-engine cycle (at least `1s`); `0` = never (pauses of campaigns that stop are still carried out)"},
	{"ENGINE_POST_MAX_AGE", "`168h`", "how old a post may be and still be boosted; also the most a campaign's rules may name in `post_age_min_hours`/`post_age_max_hours` (whole hours)"},
	{"ENGINE_WORKERS", "`64`", "campaigns the boosting engine works on at once per process (`serve` and `adboost engine` alike): they wait on network_a, not on the CPU"},
	{"ENGINE_CALLS", "`16`", "network_a requests in flight per process; the engine's calls go out in batches of up to 50"},
	{"CORS_ALLOWED_ORIGINS", "none: no page of another origin may call the API", "comma-separated origins (`https://dash.example.com,http://localhost:3000`; `*` = any) that get CORS answers and preflights"},
	{"METRICS_ADDR", "none: `GET /metrics` on `HTTP_ADDR`", "serves `GET /metrics` on this address instead (e.g. `127.0.0.1:9090`, off the public listener)"},
	{"LOG_FORMAT", "`text`", "`text` or `json` (one object a line), on standard error"},
	{"GOGC", "`400` for `serve`, Go's `100` for the other commands", "Go's garbage collection target: `serve` collects when its heap has grown to five times what is alive, which spares the CPU that frequent collections take from requests under load, for a few tens of megabytes; a value here (or `off` with `GOMEMLIMIT`) is Go's own setting and wins"},
	{"LOG_LEVEL", "`info`", "`debug`, `info`, `warn` or `error`; repeated identical warnings and errors are written once per 10 s, with their count"},
}

// settingsText is the environment part of the usage.
func settingsText() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	plain := strings.NewReplacer("`", "")
	for _, s := range settings {
		fmt.Fprintf(tw, "  %s\t%s\n", s.name, plain.Replace(s.meaning))
		fmt.Fprintf(tw, "  \tdefault: %s\n", plain.Replace(s.def))
	}
	tw.Flush()
	return b.String()
}

// settingsMarkdown is the configuration table of README.md.
func settingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| variable | default | meaning |\n|---|---|---|\n")
	for _, s := range settings {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.name, s.def, s.meaning)
	}
	return b.String()
}

// version is the line of `adboost version`: the module's version and the
// VCS revision the binary was built from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "adboost (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	mod := info.Main.Version
	if mod == "" {
		mod = "(devel)"
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	rev := "revision unknown (built without VCS information)"
	if r := vcs["vcs.revision"]; r != "" {
		rev = "revision " + r
		if vcs["vcs.modified"] == "true" {
			rev += " (modified)"
		}
		if t := vcs["vcs.time"]; t != "" {
			rev += ", committed " + t
		}
	}
	path := info.Main.Path
	if path == "" {
		path = "adboost"
	}
	return fmt.Sprintf("%s %s, %s, %s", path, mod, rev, info.GoVersion)
}
