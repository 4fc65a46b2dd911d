package db

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	sqlfiles "adboost/sql"
)

// Migrator runs the goose migrations embedded in the binary. Close it after
// use.
type Migrator struct {
	*goose.Provider
	sqlDB *sql.DB
}

// NewMigrator returns a migrator over the pool. A session lock keeps several
// instances that start at once from migrating at the same time.
func NewMigrator(pool *pgxpool.Pool) (*Migrator, error) {
	migrations, err := fs.Sub(sqlfiles.Migrations, "migrations")
	if err != nil {
		return nil, err
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, err
	}
	sqlDB := stdlib.OpenDBFromPool(pool)
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations, goose.WithSessionLocker(locker))
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return &Migrator{Provider: p, sqlDB: sqlDB}, nil
}

// Close releases the migrator's connection.
func (m *Migrator) Close() error { return m.sqlDB.Close() }

// MigrateUp applies River's migrations (MigrateRiver), then every pending
// goose migration, then loads the geographic data when its tables are
// empty.
func MigrateUp(ctx context.Context, pool *pgxpool.Pool) error {
	if err := MigrateRiver(ctx, pool); err != nil {
		return err
	}
	m, err := NewMigrator(pool)
	if err != nil {
		return err
	}
	defer m.Close()
	if _, err := m.Up(ctx); err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	return GeoLoad(ctx, pool)
}

// MigrateRiver applies River's own migrations (its river_* tables, which
// River's version brings), under a session lock so that instances starting
// at once take turns. They come before goose's: migration 00140 moves the
// mails of the outbox into River's job table.
func MigrateRiver(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	q := New(conn)
	if err := q.EngineMigrationLock(ctx); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	defer q.EngineMigrationUnlock(context.WithoutCancel(ctx))
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	return nil
}
