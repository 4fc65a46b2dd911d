package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Error is a failure with its HTTP status and the API's error envelope:
// {"error": Code, "message": Message}.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter int // seconds, for 429
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func newError(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, "bad_request", format, args...)
}

func notFound(format string, args ...any) *Error {
	return newError(http.StatusNotFound, "not_found", format, args...)
}

func conflict(format string, args ...any) *Error {
	return newError(http.StatusConflict, "conflict", format, args...)
}

func unauthorized(format string, args ...any) *Error {
	return newError(http.StatusUnauthorized, "unauthorized", format, args...)
}

func unavailable(format string, args ...any) *Error {
	return newError(http.StatusServiceUnavailable, "unavailable", format, args...)
}

var errInternal = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error"}

// toError maps any error of a handler to the error it answers. This is the one
// place where failures meet status codes.
func toError(ctx context.Context, log *slog.Logger, err error) *Error {
	var e *Error
	var pgErr *pgconn.PgError
	var connErr *pgconn.ConnectError
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, pgx.ErrNoRows):
		return notFound("not found")
	case errors.As(err, &pgErr) && pgErr.Code == pgerrcode.ForeignKeyViolation && strings.HasSuffix(pgErr.ConstraintName, "_user_id_fkey"):
		// A valid token of an account that was deleted since.
		return unauthorized("the account of this access token no longer exists")
	case errors.As(err, &pgErr) && pgErr.ConstraintName == "campaign_id_not_reused":
		// A campaign sequence moved back by hand below a deleted campaign's
		// id (00097): the failed insert moved it on, so a retry gets another.
		log.ErrorContext(ctx, "a new campaign got a deleted campaign's id: check the campaign id sequence", "err", err)
		return conflict("the new boosted page got an id in use by a deleted one; send the request again")
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		// The client went away, or the server is shutting down.
		return unavailable("the request was cancelled")
	case errors.As(err, &pgErr) && pgErr.Code == pgerrcode.QueryCanceled, // DB_STATEMENT_TIMEOUT
		errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil: // the request's own deadline
		log.WarnContext(ctx, "request took too long", "err", err)
		return unavailable("the request took longer than its time limit; try again later")
	case errors.As(err, &connErr), errors.Is(err, context.DeadlineExceeded):
		log.ErrorContext(ctx, "database unreachable", "err", err)
		return unavailable("the database is unreachable, try again later")
	case errors.As(err, &pgErr) && pgErr.Code == pgerrcode.AdminShutdown,
		errors.As(err, &pgErr) && pgErr.Code == "57P03": // cannot_connect_now
		log.ErrorContext(ctx, "database unavailable", "err", err)
		return unavailable("the database is unavailable, try again later")
	}
	log.ErrorContext(ctx, "request failed", "err", err)
	return errInternal
}

func writeError(w http.ResponseWriter, e *Error) {
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status, envelope{Error: e.Code, Message: e.Message})
}

type envelope struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
