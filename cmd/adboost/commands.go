package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
	"adboost/db/dataset"
	"adboost/db/outbox"
	httpapi "adboost/http"
)

// open connects to the configured database, creating the default local
// database when it is missing.
func open(ctx context.Context, cfg config) (*pgxpool.Pool, error) {
	if cfg.defaultDatabase {
		if err := db.EnsureDatabase(ctx, cfg.databaseURL); err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
	}
	pool, err := db.Open(ctx, cfg.databaseURL)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return pool, nil
}

func serve(ctx context.Context, cfg config, log *slog.Logger) error {
	tokens, err := cfg.tokens(log)
	if err != nil {
		return err
	}
	pool, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := db.MigrateUp(ctx, pool); err != nil {
		return err
	}
	mailer, err := outbox.New(pool, outbox.Config{SMTPURL: cfg.smtpURL, From: cfg.mailFrom}, log)
	if err != nil {
		return err
	}
	api := httpapi.New(httpapi.Config{
		ServiceFixedFee:       cfg.fixedFee,
		PublicBaseURL:         cfg.publicBaseURL,
		AdvertiserAccessEmail: cfg.advertiserAccessEmail,
		NetworkAAPIURL:        cfg.networkAURL,
	}, pool, tokens, log)
	if cfg.networkAURL == "" {
		log.Warn("NETWORK_A_API_URL is not set: social sign-up and sign-in answer 503")
	}
	srv := &http.Server{
		Addr:              cfg.httpAddr,
		Handler:           api.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// The mail sender runs until shutdown begins; it finishes the mail it is
	// sending (15 s at most, while requests in flight finish) and gives the
	// rest of its claim back.
	mailCtx, stopMail := context.WithCancel(ctx)
	mailDone := make(chan struct{})
	go func() { defer close(mailDone); mailer.Run(mailCtx) }()
	defer func() { stopMail(); <-mailDone }()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("serving", "addr", cfg.httpAddr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: waiting for requests in flight (15 s at most)")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func migrate(ctx context.Context, cfg config, direction string, stdout io.Writer) error {
	pool, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	m, err := db.NewMigrator(pool)
	if err != nil {
		return err
	}
	defer m.Close()
	switch direction {
	case "up":
		results, err := m.Up(ctx)
		for _, r := range results {
			fmt.Fprintf(stdout, "applied %s (%s)\n", r.Source.Path, r.Duration.Round(time.Millisecond))
		}
		if err != nil {
			return err
		}
		return db.GeoLoad(ctx, pool)
	case "down":
		r, err := m.Down(ctx)
		if r != nil {
			fmt.Fprintf(stdout, "rolled back %s\n", r.Source.Path)
		}
		return err
	case "status":
		statuses, err := m.Status(ctx)
		if err != nil {
			return err
		}
		for _, st := range statuses {
			when := "pending"
			if !st.AppliedAt.IsZero() {
				when = "applied " + st.AppliedAt.UTC().Format(time.DateTime)
			}
			fmt.Fprintf(stdout, "%-40s %s\n", st.Source.Path, when)
		}
		return nil
	}
	return usageError(fmt.Sprintf("migrate %q: use up, down or status", direction))
}

func importFile(ctx context.Context, cfg config, name string, stdin io.Reader, log *slog.Logger) error {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	pool, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := db.MigrateUp(ctx, pool); err != nil {
		return err
	}
	if err := dataset.Load(ctx, pool, r); err != nil {
		return fmt.Errorf("import %s: %w (nothing was written)", name, err)
	}
	log.Info("imported", "file", name)
	return nil
}

func demo(ctx context.Context, cfg config, log *slog.Logger) error {
	pool, err := open(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := db.MigrateUp(ctx, pool); err != nil {
		return err
	}
	if err := dataset.LoadDemo(ctx, pool); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	log.Info("demo data loaded", "user", "demo@adboost.example", "password", "demo-password")
	return nil
}
