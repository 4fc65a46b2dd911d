package dbtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// PlanNode is a node of EXPLAIN (FORMAT JSON); subplans and init plans are
// among its Plans.
type PlanNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	Rows      float64    `json:"Plan Rows"` // the rows the planner expects of the node
	Plans     []PlanNode `json:"Plans"`
}

// Walk calls fn on the node and every node below it, depth first.
func (n PlanNode) Walk(fn func(PlanNode)) {
	fn(n)
	for _, c := range n.Plans {
		c.Walk(fn)
	}
}

// ExplainPrepared answers EXPLAIN (FORMAT JSON) of sql run as a prepared
// statement executed with args (the arguments of a sqlc method, written as
// SQL by Literal), in the plan_cache_mode given: force_custom_plan (planned
// for the arguments, as PostgreSQL does for the first executions) or
// force_generic_plan (the plan a prepared statement may keep using). It runs
// in a transaction of its own on db, which it leaves as it found it.
func ExplainPrepared(t testing.TB, db interface {
	Begin(context.Context) (pgx.Tx, error)
}, mode, sql string, args []any) json.RawMessage {
	t.Helper()
	ctx := context.Background()
	literals := make([]string, len(args))
	for i, a := range args {
		literals[i] = Literal(t, a)
	}
	var raw []byte
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET LOCAL plan_cache_mode = "+mode); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "PREPARE explained AS "+sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			return err
		}
		explain := "EXPLAIN (FORMAT JSON) EXECUTE explained"
		if len(literals) > 0 {
			explain += "(" + strings.Join(literals, ", ") + ")"
		}
		if err := tx.QueryRow(ctx, explain, pgx.QueryExecModeSimpleProtocol).Scan(&raw); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DEALLOCATE explained", pgx.QueryExecModeSimpleProtocol)
		return err
	})
	if err != nil {
		t.Fatalf("explain %s: %v", sql, err)
	}
	return raw
}

// Plan decodes the one plan of an EXPLAIN (FORMAT JSON) answer.
func Plan(t testing.TB, raw []byte) PlanNode {
	t.Helper()
	var plans []struct {
		Plan PlanNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &plans); err != nil || len(plans) != 1 {
		t.Fatalf("explain output %s: %v", raw, err)
	}
	return plans[0].Plan
}

// Literal writes an argument of a sqlc method as SQL.
func Literal(t testing.TB, a any) string {
	t.Helper()
	switch v := a.(type) {
	case nil:
		return "NULL"
	case *int64:
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(*v)
	case *string:
		if v == nil {
			return "NULL"
		}
		return Literal(t, *v)
	case *bool:
		if v == nil {
			return "NULL"
		}
		return fmt.Sprint(*v)
	case int64, int32, int, bool:
		return fmt.Sprint(v)
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case pgtype.Date:
		if !v.Valid {
			return "NULL"
		}
		return "'" + v.Time.Format(time.DateOnly) + "'::date"
	case []int64:
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = fmt.Sprint(n)
		}
		return "'{" + strings.Join(parts, ",") + "}'"
	}
	t.Fatalf("no SQL literal for %T", a)
	return ""
}
