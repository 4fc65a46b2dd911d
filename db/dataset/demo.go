package dataset

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// demoFiles is the demo data set: data files loaded in name order, one per
// part of the service, all in one transaction. Loading it again updates the
// same rows, so it is idempotent.
//
//go:embed demo/*.json
var demoFiles embed.FS

// LoadDemo loads the demo data set, with 60 days of statistics of its
// posts ending yesterday.
func LoadDemo(ctx context.Context, pool *pgxpool.Pool) error {
	names, err := fs.Glob(demoFiles, "demo/*.json")
	if err != nil {
		return err
	}
	files := make([]map[string]json.RawMessage, 0, len(names))
	for _, name := range names {
		b, err := demoFiles.ReadFile(name)
		if err != nil {
			return err
		}
		var file map[string]json.RawMessage
		if err := json.Unmarshal(b, &file); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files = append(files, file)
	}
	days, err := demoPostDays(files, time.Now().UTC())
	if err != nil {
		return err
	}
	return LoadFiles(ctx, pool, append(files, days)...)
}
