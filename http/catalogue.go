package httpapi

import (
	"context"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"adboost/db"
)

// paging is the page and limit of presets/browse and agencies/list: page ≥ 1,
// default 1; limit 1..50, default 50. A limit above 50 acts as 50, which the
// queries apply (least(limit, 50)); below 1 is a 400.
type paging struct {
	Page  Int `json:"page"`
	Limit Int `json:"limit"`
}

func (p *paging) check() error {
	if p.Page.Set && (p.Page.V < 1 || p.Page.V > math.MaxInt32) {
		return badRequest("page must be an integer from 1 to %d", math.MaxInt32)
	}
	if p.Limit.Set && p.Limit.V < 1 {
		return badRequest("limit must be an integer from 1 to 50 (larger values act as 50)")
	}
	return nil
}

// number is the 1-based page to answer.
func (p *paging) number() int32 { return int32(p.Page.Or(1)) }

// size is the limit as sent (at least 1 once checked); the queries cap it at 50.
func (p *paging) size() int32 { return int32(min(p.Limit.Or(50), math.MaxInt32)) }

// optionalText is a text filter of a request: "" is absent.
// PostgreSQL text cannot hold NUL, so a NUL is a 400 rather than a failed
// query.
func optionalText(field, s string) (*string, error) {
	if s == "" {
		return nil, nil
	}
	if err := textLimit(field, s); err != nil {
		return nil, err
	}
	if err := noNUL(field, s); err != nil {
		return nil, err
	}
	return &s, nil
}

// maxFilterText is the longest text filter or search field, in characters:
// longer ones are refused before they reach a query, whose cost grows with
// them.
const maxFilterText = 255

// textLimit refuses a text filter of more than maxFilterText characters.
func textLimit(field, s string) error {
	if len(s) > maxFilterText && utf8.RuneCountInString(s) > maxFilterText {
		return badRequest("%s must be at most %d characters long", field, maxFilterText)
	}
	return nil
}

func noNUL(field, s string) error {
	if strings.ContainsRune(s, 0) {
		return badRequest("%s must not contain NUL characters", field)
	}
	return nil
}

// optionalID is an id filter of a request: absent, or a positive integer.
func optionalID(field string, n Int) (*int64, error) {
	if n.Set && n.V < 1 {
		return nil, badRequest("%s must be a positive integer", field)
	}
	return n.Ptr(), nil
}

// perRequestPlans has PostgreSQL plan each statement for the values it is
// run with. The catalogue's list queries take every filter as an optional
// parameter (`@x IS NULL OR column = @x`). Planned with their values, the
// absent filters fold away and the given ones use their indexes; but a
// prepared statement that PostgreSQL switches to its generic plan (it may
// after five runs) keeps every filter as a runtime check and reads the whole
// table: at a million presets, 3.6 s instead of a few milliseconds for a
// location that matches nothing. pgx's QueryExecModeCacheDescribe runs a
// statement as the unnamed statement, which is planned for each execution,
// still in one round trip (its description is cached per connection).
// Batches and COPY pass through as they are.
type perRequestPlans struct{ db.DBTX }

func withPlanMode(args []any) []any {
	return append([]any{pgx.QueryExecModeCacheDescribe}, args...)
}

func (p perRequestPlans) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return p.DBTX.Exec(ctx, sql, withPlanMode(args)...)
}

func (p perRequestPlans) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return p.DBTX.Query(ctx, sql, withPlanMode(args)...)
}

func (p perRequestPlans) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return p.DBTX.QueryRow(ctx, sql, withPlanMode(args)...)
}

// planned answers the queries run with per-request plans: on the catalogue
// pool when the server has one (Config.Catalogue), else unprepared on the
// main pool.
func (s *Server) planned() *db.Queries {
	if s.cfg.Catalogue != nil {
		return db.New(s.cfg.Catalogue)
	}
	return db.New(perRequestPlans{s.pool})
}

// onePlan answers the queries that one generic plan serves: on the pool of
// generic plans when the server has one (Config.OnePlan), else on the main
// pool.
func (s *Server) onePlan() *db.Queries {
	if s.cfg.OnePlan != nil {
		return db.New(s.cfg.OnePlan)
	}
	return s.q
}

// titlesBytewise tells whether the catalogue's titles sort by code point
// (CatalogueTitlesBytewise), asked of the database once and then
// remembered: the collation of a column does not change while the server
// runs. An error is not remembered; the next request asks again.
func (s *Server) titlesBytewise(ctx context.Context) (bool, error) {
	switch s.titleOrder.Load() {
	case titleOrderBytewise:
		return true, nil
	case titleOrderCollated:
		return false, nil
	}
	bytewise, err := s.q.CatalogueTitlesBytewise(ctx)
	if err != nil {
		return false, err
	}
	if bytewise {
		s.titleOrder.Store(titleOrderBytewise)
	} else {
		s.titleOrder.Store(titleOrderCollated)
	}
	return bytewise, nil
}

// The values of Server.titleOrder: not yet asked, code point order, another
// collation.
const (
	titleOrderUnknown int32 = iota
	titleOrderBytewise
	titleOrderCollated
)
