package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
	"adboost/db/report"
)

// The report command's flags, kept in config.flags under these names.
const (
	reportUserFlag = "report -user"
	reportWeekFlag = "report -week"
	reportOutFlag  = "report -out"
)

// reportCmd is `adboost report`: a user's weekly report written to files.
var reportCmd = command{
	name:    "report",
	summary: "write a user's weekly report mail (.eml), its HTML and its chart (.png) into -out, without sending it",
	flags: func(fs *flag.FlagSet, set func(string, string)) {
		fs.Func("user", "the adboost user `ID` (or network_a id) of the report (required)", func(v string) error { set(reportUserFlag, v); return nil })
		fs.Func("week", "the ISO week `YYYY-Www` (default: the last whole week, Monday to Sunday, in the user's time zone)", func(v string) error { set(reportWeekFlag, v); return nil })
		fs.Func("out", "the `DIR` the files go into (default: the current folder)", func(v string) error { set(reportOutFlag, v); return nil })
	},
	argsOK: func(a []string) bool { return len(a) == 0 },
	run: func(ctx context.Context, cfg config, _ []string, _ io.Reader, stdout io.Writer, log *slog.Logger) error {
		return writeReport(ctx, cfg, stdout, time.Now())
	},
}

// writeReport writes `<ID>-<YYYY-Www>.eml`, `.html` and `.png` of the user's
// report into the -out folder and prints their paths.
func writeReport(ctx context.Context, cfg config, stdout io.Writer, now time.Time) error {
	idText := cfg.flags[reportUserFlag]
	id, err := strconv.ParseInt(idText, 10, 64)
	if idText == "" || err != nil || id <= 0 {
		return fmt.Errorf("report: -user takes a user id, got %q (adboost report -h)", idText)
	}
	var week report.Week
	if w := cfg.flags[reportWeekFlag]; w != "" {
		if week, err = report.ParseWeek(w); err != nil {
			return fmt.Errorf("report: -week: %w", err)
		}
	}
	out := cfg.flags[reportOutFlag]
	if out == "" {
		out = "."
	}
	pool, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	m, err := composeReport(ctx, pool, cfg, id, week, now)
	if err != nil {
		return err
	}
	eml, err := m.EML(cfg.mailFrom, now)
	if err != nil {
		return err
	}
	base := filepath.Join(out, fmt.Sprintf("%d-%s", id, m.Week))
	for ext, data := range map[string][]byte{".eml": eml, ".html": []byte(m.HTML), ".png": m.PNG} {
		if err := os.WriteFile(base+ext, data, 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	_, err = fmt.Fprintf(stdout, "%s.eml\n%s.html\n%s.png\n", base, base, base)
	return err
}

// composeReport makes the report of user id (an adboost user id, else a
// network_a id) for week, or the last whole week in the user's zone.
func composeReport(ctx context.Context, pool *pgxpool.Pool, cfg config, id int64, week report.Week, now time.Time) (*report.Mail, error) {
	q := db.New(pool)
	c := report.NewComposer(q, cfg.publicBaseURL, report.KeyFrom(cfg.jwtSecret))
	loc, err := c.TimeZone(ctx, id)
	if errors.Is(err, report.ErrNoUser) {
		if byNetworkA, lookErr := q.UserIDBySnid(ctx, id); lookErr == nil {
			id = byNetworkA
			loc, err = c.TimeZone(ctx, id)
		}
	}
	if errors.Is(err, report.ErrNoUser) {
		return nil, fmt.Errorf("report: no user %d", id)
	}
	if err != nil {
		return nil, err
	}
	if week.IsZero() {
		week = report.LastWholeWeek(now, loc)
	}
	return c.Compose(ctx, id, week)
}

// unsubscribeKey is the key of the report's unsubscribe links, from
// JWT_SECRET; without one (ADBOOST_ENV=dev) a random key of this process.
func (c config) unsubscribeKey() (report.Key, error) {
	secret := c.jwtSecret
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	return report.KeyFrom(secret), nil
}
