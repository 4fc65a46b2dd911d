// Package dataset loads data files into the database: one JSON
// object whose keys name tables, each an array of rows with the caller's ids.
// A file is loaded all-or-nothing in one transaction; the first invalid row
// stops it with an error that names the key, the row's index and the field.
package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth"
	"adboost/db"
	"adboost/db/rules"
)

// A section loads the rows of one key of a data file.
type section struct {
	key  string
	load func(ctx context.Context, q *db.Queries, raw json.RawMessage) error
	// loadWith, when set, is used instead of load: the key needs the options.
	loadWith func(ctx context.Context, q *db.Queries, raw json.RawMessage, o Options) error
}

// Options change how data files are loaded; the zero value is what Load and
// LoadFiles use.
type Options struct {
	// TokenCipher seals sources[].access_token (TOKEN_ENCRYPTION_KEY). nil:
	// a file that carries a token is refused, since it could not be stored.
	TokenCipher *auth.TokenCipher
	// PostMaxAge is ENGINE_POST_MAX_AGE, the bound of the post ages that
	// rules may name; 0 = rules.DefaultPostMaxAge.
	PostMaxAge time.Duration
}

// sectionOrder is the order in which keys are loaded, so that rows can refer
// to rows of earlier keys in the same file.
var sectionOrder = []string{
	"verticals", "services", "industries", "agencies", "users",
	"presets", "reviews", "sources", "boosted_pages", "boosted_posts", "post_days", "billing",
}

var sections = map[string]section{}

// register makes a key loadable. Each table's file registers its key.
func register(s section) {
	if !slices.Contains(sectionOrder, s.key) {
		panic("dataset: key " + s.key + " has no place in sectionOrder")
	}
	sections[s.key] = s
}

// RowError is an invalid row of a data file.
type RowError struct {
	Key   string // the file's key, e.g. "users"
	Index int    // the row's index in that key's array
	Field string // the offending field, when known
	Err   error
}

func (e *RowError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s[%d].%s: %v", e.Key, e.Index, e.Field, e.Err)
	}
	return fmt.Sprintf("%s[%d]: %v", e.Key, e.Index, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// fieldError is what a row's own checks return; the loader adds key and index.
type fieldError struct {
	field string
	msg   string
}

func (e *fieldError) Error() string { return e.msg }

func invalid(field, format string, args ...any) error {
	return &fieldError{field: field, msg: fmt.Sprintf(format, args...)}
}

// Load reads one data file and writes it in one transaction.
func Load(ctx context.Context, pool *pgxpool.Pool, r io.Reader) error {
	return Options{}.Load(ctx, pool, r)
}

// LoadFiles writes several parsed data files, in order, in one transaction.
func LoadFiles(ctx context.Context, pool *pgxpool.Pool, files ...map[string]json.RawMessage) error {
	return Options{}.LoadFiles(ctx, pool, files...)
}

// Load reads one data file and writes it in one transaction, with the options.
func (o Options) Load(ctx context.Context, pool *pgxpool.Pool, r io.Reader) error {
	var file map[string]json.RawMessage
	dec := json.NewDecoder(r)
	if err := dec.Decode(&file); err != nil {
		return fmt.Errorf("data file: not a JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data file: unexpected data after the JSON object")
	}
	return o.LoadFiles(ctx, pool, file)
}

// LoadFiles writes several parsed data files, in order, in one transaction,
// with the options.
func (o Options) LoadFiles(ctx context.Context, pool *pgxpool.Pool, files ...map[string]json.RawMessage) error {
	for _, file := range files {
		for key := range file {
			if _, ok := sections[key]; !ok {
				return fmt.Errorf("data file: unknown key %q (known: %s)", key, strings.Join(knownKeys(), ", "))
			}
		}
	}
	return db.InTx(ctx, pool, func(q *db.Queries) error {
		for _, file := range files {
			for _, key := range sectionOrder {
				raw, ok := file[key]
				if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
					continue
				}
				sec := sections[key]
				var err error
				if sec.loadWith != nil {
					err = sec.loadWith(ctx, q, raw, o)
				} else {
					err = sec.load(ctx, q, raw)
				}
				if err != nil {
					return err
				}
			}
		}
		if err := q.IdentitySync(ctx); err != nil {
			return err
		}
		if err := q.PresetTitleBucketRebalanceSkewed(ctx); err != nil {
			return err
		}
		return q.PresetCardReorderAfterImport(ctx, presetsIn(files))
	})
}

// presetsIn answers how many presets the files hold (each file is checked
// when its presets are loaded; one that is not a list counts none).
func presetsIn(files []map[string]json.RawMessage) int64 {
	var n int64
	for _, file := range files {
		var items []json.RawMessage
		if json.Unmarshal(file["presets"], &items) == nil {
			n += int64(len(items))
		}
	}
	return n
}

// parseRules checks a rules object of a data file (absent or null: none)
// and answers its stored form; an invalid rule names field.RULE, e.g.
// boosting_condition.rules.hours.timezone.
func parseRules(field string, raw json.RawMessage, o Options) (json.RawMessage, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	r, err := rules.Parse(raw, rules.Limits{PostMaxAge: o.PostMaxAge})
	var re *rules.Error
	if errors.As(err, &re) {
		return nil, invalid(re.In(field), "%s", re.Msg)
	}
	if err != nil {
		return nil, err
	}
	return r.JSON(), nil
}

func knownKeys() []string {
	var keys []string
	for _, k := range sectionOrder {
		if _, ok := sections[k]; ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// rows decodes the array of one key into T, one row at a time, so that an
// error names the row.
func rows[T any](key string, raw json.RawMessage) ([]T, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: must be an array of objects", key)
	}
	out := make([]T, len(items))
	for i, item := range items {
		dec := json.NewDecoder(bytes.NewReader(item))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out[i]); err != nil {
			return nil, &RowError{Key: key, Index: i, Field: jsonField(err), Err: err}
		}
	}
	return out, nil
}

func jsonField(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	return ""
}

// check runs a row's own validation and names the row on failure.
func check[T any](key string, items []T, validate func(i int, row *T) error) error {
	for i := range items {
		if err := validate(i, &items[i]); err != nil {
			return rowError(key, i, err)
		}
	}
	return nil
}

// batchErr is the first error of a sqlc :batchexec batch, named by row.
type batchErr struct {
	key   string
	first error
}

func (b *batchErr) record(i int, err error) {
	if err != nil && b.first == nil {
		b.first = rowError(b.key, i, err)
	}
}

// rowError names the row and, where it can tell, the field of an error: a
// row check names it, PostgreSQL names the column or the constraint (whose
// name is table_column_kind by default).
func rowError(key string, i int, err error) error {
	re := &RowError{Key: key, Index: i, Err: err}
	var fe *fieldError
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &fe):
		re.Field = fe.field
	case errors.As(err, &pgErr):
		re.Err = errors.New(pgErr.Message)
		re.Field = pgErr.ColumnName
		if re.Field == "" {
			re.Field = constraintField(pgErr.TableName, pgErr.ConstraintName)
		}
		if pgErr.Detail != "" {
			re.Err = fmt.Errorf("%s (%s)", pgErr.Message, pgErr.Detail)
		}
	case errors.Is(err, pgx.ErrNoRows):
		re.Err = errors.New("refers to a row that does not exist")
	}
	return re
}

// fileFields names the field of the data file that a constraint checks, where
// it is not the column that the constraint's name carries.
var fileFields = map[string]string{
	"agency_service_service_id_fkey":         "services",
	"agency_industry_industry_id_fkey":       "industries",
	"source_network_b_check":                 "network_b_id",
	"source_network_b_key":                   "network_b_id",
	"source_access_token_platform_check":     "access_token",
	"campaign_user_id_key":                   "user_id",
	"boosted_post_campaign_campaign_id_fkey": "boosted_page_ids",
	"boosted_post_campaign_post_id_fkey":     "id",
	"campaign_hashtag_tag_check":             "hashtag",
	"campaign_id_not_reused":                 "id",
}

// constraintField reads the field out of a constraint name: the file's own
// name where fileFields has one, else the column of a default constraint name
// such as app_user_email_check.
func constraintField(table, constraint string) string {
	if f, ok := fileFields[constraint]; ok {
		return f
	}
	name := strings.TrimPrefix(constraint, table+"_")
	for _, suffix := range []string{"_check", "_fkey", "_key", "_idx"} {
		if s, ok := strings.CutSuffix(name, suffix); ok {
			return s
		}
	}
	return name
}
