package httpapi

import (
	"context"
	"net/http"
	"regexp"
	"strconv"

	"adboost/auth"
)

// An endpoint answers one route: it gets the decoded request R and answers the
// body T, or an error that toError maps to its status.
type endpoint[R, T any] func(ctx context.Context, req *R) (T, error)

// binder is implemented by requests that read path or query values.
type binder interface {
	bind(r *http.Request) error
}

// validator is implemented by requests with rules beyond their JSON types.
type validator interface {
	validate() error
}

// handler adapts an endpoint to net/http: decode the body, bind the path and
// query, validate, call, encode. Every endpoint goes through here, so every
// failure gets the same envelope.
func (s *Server) handler(fn any) http.Handler {
	h, ok := fn.(interface {
		serve(s *Server, w http.ResponseWriter, r *http.Request)
	})
	if !ok {
		panic("httpapi: not an endpoint")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.serve(s, w, r) })
}

func (e endpoint[R, T]) serve(s *Server, w http.ResponseWriter, r *http.Request) {
	release, err := s.bodies.acquire(r)
	if err != nil {
		writeError(w, toError(r.Context(), s.log, err))
		return
	}
	defer release()
	var req R
	err = decodeBody(r, &req)
	if err == nil {
		if b, ok := any(&req).(binder); ok {
			err = b.bind(r)
		}
	}
	if err == nil {
		if v, ok := any(&req).(validator); ok {
			err = v.validate()
		}
	}
	var resp T
	if err == nil {
		resp, err = e(r.Context(), &req)
	}
	if err != nil {
		writeError(w, toError(r.Context(), s.log, err))
		return
	}
	if body, ok := any(resp).(encodedJSON); ok {
		writeEncodedJSON(w, r, body)
		return
	}
	writeJSON(w, http.StatusOK, resp)
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

var pathIDDigits = regexp.MustCompile(`^[0-9]{1,19}$`)

func (p *pathID) bind(r *http.Request) error {
	raw := r.PathValue("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if !pathIDDigits.MatchString(raw) || err != nil || id <= 0 {
		return badRequest("id must be a positive integer, not %q", raw)
	}
	p.id = id
	return nil
}

// empty is the request of a route that reads nothing.
type empty struct{}
