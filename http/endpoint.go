package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"adboost/auth"
)

// An endpoint answers one route: it gets the decoded request Req and answers
// the body Resp, or an error that toError maps to its status.
type endpoint[Req, Resp any] func(ctx context.Context, req *Req) (Resp, error)

// binder is implemented by requests that read path or query values.
type binder interface {
	bind(r *http.Request) error
}

// validator is implemented by requests with rules beyond their JSON types.
type validator interface {
	validate() error
}

// access is who may call a route.
type access int

const (
	// public routes need no credential.
	public access = iota
	// bearer routes need a valid access token of the user's current token
	// generation (requireUser), which puts the user's id in the context.
	bearer
)

// mounting is what a registration declares besides its pattern, access and
// endpoint.
type mounting struct {
	status      int  // of a success
	signIn      bool // bounded by Config.SignInTimeout
	revalidated bool // answers with an ETag (revalidated)
}

// A mountOption declares something of a route at its registration.
type mountOption func(*mounting)

// withStatus makes a route answer status on success; without it, 200.
func withStatus(status int) mountOption {
	return func(m *mounting) { m.status = status }
}

// withSignInDeadline bounds a sign-up or sign-in route by
// Config.SignInTimeout (signInDeadline).
func withSignInDeadline() mountOption {
	return func(m *mounting) { m.signIn = true }
}

// withETag serves a public GET with a validator (revalidated).
func withETag() mountOption {
	return func(m *mounting) { m.revalidated = true }
}

// mount registers fn as the JSON endpoint of pattern for who: the request and
// answer types are fn's, inferred by the compiler, so a handler of another
// shape does not compile. Every endpoint is served by serveEndpoint, so every
// failure gets the same envelope.
func mount[Req, Resp any](mux *http.ServeMux, s *Server, who access, pattern string, fn endpoint[Req, Resp], opts ...mountOption) {
	m := mounting{status: http.StatusOK}
	for _, opt := range opts {
		opt(&m)
	}
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveEndpoint(s, w, r, m.status, fn)
	})
	if m.revalidated {
		h = revalidated(h)
	}
	if m.signIn {
		h = s.signInDeadline(h)
	}
	mountHandler(mux, s, who, pattern, h)
}

// mountHandler registers a route that is not a JSON endpoint (health,
// metrics, the documentation, an HTML page) as the plain handler h, and
// records it among the server's routes.
func mountHandler(mux *http.ServeMux, s *Server, who access, pattern string, h http.Handler) {
	s.routes = append(s.routes, Route{Pattern: pattern, Bearer: who == bearer})
	if who == bearer {
		h = s.requireUser(h)
	}
	mux.Handle(pattern, h)
}

// serveEndpoint adapts an endpoint to net/http: decode the body, bind the
// path and query, validate, call, encode the answer with status.
func serveEndpoint[Req, Resp any](s *Server, w http.ResponseWriter, r *http.Request, status int, fn endpoint[Req, Resp]) {
	release, err := s.bodies.acquire(r)
	if err != nil {
		writeError(w, toError(r.Context(), s.log, err))
		return
	}
	defer release()
	resp, err := callEndpoint(r, fn)
	if err != nil {
		writeError(w, toError(r.Context(), s.log, err))
		return
	}
	switch body := any(resp).(type) {
	case encodedJSON:
		writeEncodedJSON(w, r, status, body)
		return
	case jsonAnswer:
		writeJSONAnswer(w, status, body)
		return
	}
	writeJSON(w, status, resp)
}

// callEndpoint decodes the request of fn from r (body, then path and query,
// then its own rules) and calls fn with it.
func callEndpoint[Req, Resp any](r *http.Request, fn endpoint[Req, Resp]) (Resp, error) {
	var req Req
	var zero Resp
	if err := decodeBody(r, &req); err != nil {
		return zero, err
	}
	if b, ok := any(&req).(binder); ok {
		if err := b.bind(r); err != nil {
			return zero, err
		}
	}
	if v, ok := any(&req).(validator); ok {
		if err := v.validate(); err != nil {
			return zero, err
		}
	}
	return fn(r.Context(), &req)
}

// userID answers the id of the signed-in user of a Bearer route.
func userID(ctx context.Context) int64 {
	id, ok := auth.UserID(ctx)
	if !ok {
		panic("httpapi: userID on a route without the Bearer middleware")
	}
	return id
}

// pathID is the {id} of a route: a positive integer in plain digits, else 400.
type pathID struct {
	id int64
}

// positiveID parses an id as written in a path or a list: 1 to 19 ASCII
// digits (no sign, spaces or exponent) that make a positive int64.
func positiveID(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

func (p *pathID) bind(r *http.Request) error {
	raw := r.PathValue("id")
	id, ok := positiveID(raw)
	if !ok {
		return badRequest("id must be a positive integer, not %q", raw)
	}
	p.id = id
	return nil
}

// empty is the request of a route that reads nothing.
type empty struct{}
