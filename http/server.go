// Package httpapi is the JSON-over-HTTP interface of adboost: routes,
// handlers, middleware and the JSON conventions of the interface.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/db"
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
}

// Server holds the dependencies of the handlers.
type Server struct {
	cfg    Config
	pool   *pgxpool.Pool
	q      *db.Queries
	tokens *auth.Tokens
	log    *slog.Logger
	routes []Route
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
	return &Server{cfg: cfg, pool: pool, q: db.New(pool), tokens: tokens, log: log}
}

// Routes lists every registered route.
func (s *Server) Routes() []Route { return s.routes }

// Handler returns the whole HTTP interface.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes = nil
	s.register(mux)
	return s.logRequests(limitBody(envelopeMuxErrors(mux)))
}

// public registers a route that needs no credential.
func (s *Server) public(mux *http.ServeMux, pattern string, h http.Handler) {
	s.routes = append(s.routes, Route{Pattern: pattern})
	mux.Handle(pattern, h)
}

// bearer registers a route that needs a valid access token.
func (s *Server) bearer(mux *http.ServeMux, pattern string, h http.Handler) {
	s.routes = append(s.routes, Route{Pattern: pattern, Bearer: true})
	mux.Handle(pattern, s.requireUser(h))
}

// register lists the routes of the interface.
func (s *Server) register(mux *http.ServeMux) {
	s.public(mux, "GET /healthz", http.HandlerFunc(s.healthz))
	s.public(mux, "GET /readyz", http.HandlerFunc(s.readyz))

	// Documentation: the OpenAPI document (http/openapi.yaml) and the page that renders it.
	s.public(mux, "GET /v1/openapi.yaml", http.HandlerFunc(s.openAPIYAML))
	s.public(mux, "GET /v1/openapi.json", http.HandlerFunc(s.openAPIJSON))
	s.public(mux, "GET /docs", http.HandlerFunc(s.docsPage))
	s.public(mux, "GET /docs/{asset}", http.HandlerFunc(s.docsAsset))

	s.public(mux, "POST /v1/user/login-password", s.handler(endpoint[loginPasswordRequest, userWithToken](s.userLoginPassword)))
	s.bearer(mux, "GET /v1/user/detail", s.handler(endpoint[empty, db.UserProfileRow](s.userDetail)))
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
