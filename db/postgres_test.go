package db_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"adboost/db/dbtest"
)

// json and jsonb values reach a json.RawMessage as PostgreSQL wrote them
// (jsonb normalised, json as stored), NULL as a nil RawMessage, and any
// other target unmarshalled; each row's value is its own copy (pgx reuses
// its read buffer for the next row).
func TestJSONIntoRawMessage(t *testing.T) {
	t.Parallel()
	pool := dbtest.New(t)
	ctx := t.Context()
	var b, j, null json.RawMessage
	var m map[string]any
	if err := pool.QueryRow(ctx, `SELECT '{"b": [1, 2.50], "a": "é\u00e9"}'::jsonb, '{"b":1,  "a":2}'::json,
		NULL::jsonb, '{"k": "v"}'::jsonb`).Scan(&b, &j, &null, &m); err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"a": "éé", "b": [1, 2.50]}`; got != want {
		t.Errorf("jsonb = %s, want %s", got, want)
	}
	if got, want := string(j), `{"b":1,  "a":2}`; got != want {
		t.Errorf("json = %s, want %s", got, want)
	}
	if null != nil {
		t.Errorf("NULL = %q, want nil", null)
	}
	if m["k"] != "v" {
		t.Errorf("map = %v", m)
	}

	rows, err := pool.Query(ctx, `SELECT jsonb_build_object('n', g) FROM generate_series(1, 3) AS g`)
	if err != nil {
		t.Fatal(err)
	}
	var got []json.RawMessage
	for rows.Next() {
		var v json.RawMessage
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	for i, v := range got {
		if want := fmt.Sprintf(`{"n": %d}`, i+1); string(v) != want {
			t.Errorf("row %d = %s, want %s", i+1, v, want)
		}
	}
}
