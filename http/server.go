// Package httpapi is the JSON-over-HTTP interface of adboost: routes,
// handlers, middleware and the JSON conventions of the interface.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"adboost/auth"
	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/boost"
	"adboost/db/jobs"
	"adboost/db/report"
	"adboost/db/rules"
)

// Config is what the handlers need to know of the deployment.
type Config struct {
	// ServiceFixedFee is added to every preset price, a decimal as text.
	ServiceFixedFee string
	// PublicBaseURL makes stored relative image paths absolute.
	PublicBaseURL string
	// LoginWindow and LoginMaxFailures set the slow-down of password sign-in.
	LoginWindow      time.Duration
	LoginMaxFailures int
	// AdvertiserAccessEmail answers access-data for a campaign whose preset's
	// agency has no e-mail ('' when unset).
	AdvertiserAccessEmail string
	// Catalogue is the pool of the statements with optional filters
	// (presets/browse and presets/count beyond one filter, agencies/list),
	// opened with db.CustomPlans: prepared once per connection, planned for
	// each request's values. Nil: they run on the main pool unprepared
	// (perRequestPlans), parsed and planned for each request.
	Catalogue *pgxpool.Pool
	// OnePlan is the pool of the catalogue's statements that one plan
	// serves for every value (presets/browse's pages of one filter, of no
	// filter and of a vertical, the cards of every page, the count of a
	// title prefix), opened with db.GenericPlans: prepared and planned once
	// per connection. Nil: they run on the main pool, which PostgreSQL
	// plans for each execution.
	OnePlan *pgxpool.Pool
	// NetworkAAPIURL is the base URL of network_a's Graph-style API; empty
	// makes the social sign-in routes answer 503 unavailable.
	NetworkAAPIURL string
	// NetworkAApp is adboost's app on network_a (NETWORK_A_APP_ID,
	// NETWORK_A_APP_SECRET): with it signup-sn and login-sn exchange the
	// token they are given for a long-lived one; without it the token is
	// stored as given, its end unknown.
	NetworkAApp networka.App
	// NetworkATimeout bounds each request to network_a (default 5 s).
	NetworkATimeout time.Duration
	// SignInTimeout bounds a whole sign-up or sign-in, every network_a call
	// included (default 20 s); beyond it the answer is 503 unavailable.
	SignInTimeout time.Duration
	// TrustedProxies are the proxies whose X-Forwarded-For names the client
	// address (TRUSTED_PROXIES); none by default.
	TrustedProxies []netip.Prefix
	// BodyMemory bounds the bytes of request bodies held at once by all
	// requests together (default 16 MiB), and BodyWait how long a request
	// waits for room before it answers 503 (default 5 s); see bodyBudget.
	BodyMemory int64
	BodyWait   time.Duration
	// CORSAllowedOrigins may call the API from a browser (ParseOrigins).
	CORSAllowedOrigins []string
	// Metrics is the registry that GET /metrics answers (nil: a new one);
	// the server adds its request metrics to it.
	Metrics *prometheus.Registry
	// MetricsElsewhere leaves GET /metrics out of the routes, when
	// MetricsHandler is served on another address (METRICS_ADDR).
	MetricsElsewhere bool
	// UnsubscribeKey verifies the weekly report's unsubscribe links
	// (report.KeyFrom of the JWT secret); nil refuses every link.
	UnsubscribeKey report.Key
	// TokenCipher seals the network_a tokens that signup-sn and login-sn
	// store (TOKEN_ENCRYPTION_KEY); nil: no token is stored, sign-in still works.
	TokenCipher *auth.TokenCipher
	// Jobs is the process's River client, which inserts jobs in the
	// transactions of the handlers: the pauses of campaigns that stop, the
	// mails of e-mail changes. nil: an insert-only client of the server's
	// own, for tests and tools that make none.
	Jobs *jobs.Client
	// PostMaxAge is how old a post may be and still be boosted
	// (ENGINE_POST_MAX_AGE): a campaign's rules may not name an older post
	// age. 0 = rules.DefaultPostMaxAge.
	PostMaxAge time.Duration
}

// Server holds the dependencies of the handlers.
type Server struct {
	cfg    Config
	pool   *pgxpool.Pool
	q      *db.Queries
	tokens *auth.Tokens
	log    *slog.Logger
	routes []Route
	// metrics count the requests (nil in some unit tests).
	metrics *requestMetrics
	// networkA is nil when NetworkAAPIURL is not set.
	networkA *networka.Client
	// passwordChecks counts the passwords compared with a stored hash.
	passwordChecks atomic.Int64
	// afterPasswordCheck, when set (tests only), runs between a successful
	// password check of login-password and the token it issues.
	afterPasswordCheck func()
	// afterCredentialsCheck, when set (tests only), runs in user/save
	// between the check of current_password and the write.
	afterCredentialsCheck func()
	// bodies bounds the memory of the request bodies being read.
	bodies *bodyBudget
	// answers keeps the answers about each user's campaigns per campaign
	// version.
	answers *answerCache
	// adAccounts keeps each user's network_a ad accounts for a minute.
	adAccounts *adAccountCache
	// titleOrder remembers whether the catalogue's titles sort by code
	// point (titlesBytewise).
	titleOrder atomic.Int32
}

// Route is one registered route, for the documentation and its tests.
type Route struct {
	Pattern string // e.g. "GET /v1/user/detail"
	Bearer  bool   // needs an access token
}

// New returns the server's handlers over the pool.
func New(cfg Config, pool *pgxpool.Pool, tokens *auth.Tokens, log *slog.Logger) *Server {
	if cfg.ServiceFixedFee == "" {
		cfg.ServiceFixedFee = "0.00"
	}
	if cfg.LoginWindow == 0 {
		cfg.LoginWindow = 15 * time.Minute
	}
	if cfg.LoginMaxFailures == 0 {
		cfg.LoginMaxFailures = 10
	}
	if cfg.SignInTimeout <= 0 {
		cfg.SignInTimeout = 20 * time.Second
	}
	if cfg.NetworkATimeout <= 0 {
		cfg.NetworkATimeout = 5 * time.Second
	}
	if cfg.BodyMemory <= 0 {
		cfg.BodyMemory = 16 << 20
	}
	if cfg.BodyWait <= 0 {
		cfg.BodyWait = 5 * time.Second
	}
	if cfg.Metrics == nil {
		cfg.Metrics = prometheus.NewRegistry()
	}
	if cfg.PostMaxAge <= 0 {
		cfg.PostMaxAge = rules.DefaultPostMaxAge
	}
	if cfg.Jobs == nil {
		client, err := jobs.InsertOnly(pool)
		if err != nil {
			log.Error("no River client: the handlers that insert jobs fail", "err", err)
		}
		cfg.Jobs = client
	}
	s := &Server{cfg: cfg, pool: pool, q: db.New(pool), tokens: tokens, log: log,
		metrics: newRequestMetrics(cfg.Metrics), bodies: newBodyBudget(cfg.BodyMemory, cfg.BodyWait),
		answers: newAnswerCache(), adAccounts: newAdAccountCache()}
	if cfg.NetworkAAPIURL != "" {
		n, err := networka.New(cfg.NetworkAAPIURL, networka.Options{Timeout: cfg.NetworkATimeout})
		if err != nil {
			log.Error("social sign-in is off", "err", err)
		}
		s.networkA = n
	}
	return s
}

// Routes lists every registered route.
func (s *Server) Routes() []Route { return s.routes }

// Handler returns the whole HTTP interface.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes = nil
	s.register(mux)
	// clientAddress and withRequestID copy the request into a new context, so
	// they stand outside logRequests, which reads the pattern the mux sets.
	return withRequestID(s.clientAddress(s.logRequests(s.edge(mux, limitBody(envelopeMuxErrors(mux))))))
}

// register lists the routes of the interface: each JSON endpoint through
// mount, which takes its request and answer types from its handler and
// declares who may call it, its pattern and, where they differ from the
// rest, its success status (200 otherwise) and its wrappers; the routes that
// answer something else (health, metrics, documentation, an HTML page)
// through mountHandler.
func (s *Server) register(mux *http.ServeMux) {
	mountHandler(mux, s, public, "GET /healthz", http.HandlerFunc(s.healthz))
	mountHandler(mux, s, public, "GET /readyz", http.HandlerFunc(s.readyz))
	if !s.cfg.MetricsElsewhere {
		mountHandler(mux, s, public, "GET /metrics", MetricsHandler(s.cfg.Metrics, s.log))
	}

	// Documentation: the OpenAPI document (http/openapi.yaml) and the page that renders it.
	mountHandler(mux, s, public, "GET /v1/openapi.yaml", http.HandlerFunc(s.openAPIYAML))
	mountHandler(mux, s, public, "GET /v1/openapi.json", http.HandlerFunc(s.openAPIJSON))
	mountHandler(mux, s, public, "GET /docs", http.HandlerFunc(s.docsPage))
	mountHandler(mux, s, public, "GET /docs/{asset}", http.HandlerFunc(s.docsAsset))

	mount(mux, s, public, "POST /v1/user/login-password", s.userLoginPassword, withSignInDeadline())
	mount(mux, s, bearer, "GET /v1/user/detail", s.userDetail)

	// Catalogue: presets, reviews and the agency directory.
	mount(mux, s, public, "POST /v1/presets/browse", s.presetBrowse)
	mount(mux, s, public, "POST /v1/presets/count", s.presetCount)
	mount(mux, s, bearer, "GET /v1/presets/available", s.presetAvailable)
	mount(mux, s, public, "GET /v1/presets/optimization-goals", s.presetOptimizationGoals, withETag())
	mount(mux, s, bearer, "POST /v1/reviews/submit", s.reviewSubmit)
	mount(mux, s, bearer, "POST /v1/agencies/list", s.agencyList)
	mount(mux, s, public, "GET /v1/agencies/detail/{id}", s.agencyDetail, withETag())
	mount(mux, s, bearer, "GET /v1/agencies/services", s.agencyServices)

	// Campaigns: boosted pages, boosted posts and their insights, geographic targeting.
	mount(mux, s, bearer, "GET /v1/ad-accounts", s.adAccountsList)
	mount(mux, s, bearer, "GET /v1/boosted-pages/detail/{id}", s.boostedPageDetail)
	mount(mux, s, bearer, "POST /v1/boosted-pages/save/{id}", s.boostedPageSave)
	mount(mux, s, bearer, "POST /v1/boosted-pages/create", s.boostedPageCreate)
	mount(mux, s, bearer, "POST /v1/boosted-pages/sources", s.boostedPageSources)
	mount(mux, s, bearer, "POST /v1/boosted-pages/count", s.boostedPageCount)
	mount(mux, s, bearer, "GET /v1/boosted-pages/source-detail/{id}", s.boostedPageSourceDetail)
	mount(mux, s, bearer, "DELETE /v1/boosted-pages/delete-source/{id}", s.boostedPageDeleteSource)
	mount(mux, s, bearer, "GET /v1/boosted-pages/history/{id}", s.boostedPageHistory)
	mount(mux, s, bearer, "GET /v1/boosted-pages/access-data/{id}", s.boostedPageAccessData)
	mount(mux, s, public, "POST /v1/boosted-pages/geo-locations-by-code", s.geoLocationsByCode)
	mount(mux, s, public, "POST /v1/boosted-pages/geo-locations", s.geoLocations)
	mount(mux, s, bearer, "POST /v1/boosted-posts/list", s.boostedPostList)
	mount(mux, s, bearer, "POST /v1/boosted-posts/count", s.boostedPostCount)
	mount(mux, s, bearer, "POST /v1/boosted-pages/stats", s.boostedPageStats)
	mount(mux, s, bearer, "POST /v1/boosted-posts/batch-insights", s.boostedPostBatchInsights)

	// Accounts: social sign-up and sign-in over network_a, profile changes, billing details.
	mount(mux, s, public, "POST /v1/user/pre-signup-sn", s.userPreSignupSn, withSignInDeadline())
	mount(mux, s, public, "POST /v1/user/signup-sn", s.userSignupSn, withSignInDeadline())
	mount(mux, s, public, "POST /v1/user/login-sn", s.userLoginSn, withSignInDeadline())
	mount(mux, s, bearer, "POST /v1/user/save", s.userSave)
	mountHandler(mux, s, public, "GET /v1/user/unsubscribe", http.HandlerFunc(s.userUnsubscribe))
	mount(mux, s, public, "GET /v1/user/verify-email", s.userVerifyEmail)
	mount(mux, s, bearer, "GET /v1/billing/detail", s.billingDetail)
	mount(mux, s, bearer, "POST /v1/billing/save", s.billingSave)
	mount(mux, s, bearer, "GET /v1/billing/countries", s.billingCountries)
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.pool.Ping(ctx); err != nil {
		writeError(w, unavailable("the database is unreachable"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// inTx runs fn in one transaction, with its queries and the transaction
// itself (for the pauses enqueued in it).
func (s *Server) inTx(ctx context.Context, fn func(tx pgx.Tx, q *db.Queries) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(tx, db.New(tx)) })
}

// enqueuePauses enqueues the pauses of the campaigns in tx, for the
// engine.
func (s *Server) enqueuePauses(ctx context.Context, tx pgx.Tx, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.cfg.Jobs.InsertManyTx(ctx, tx, boost.PauseJobs(ids))
	return err
}
