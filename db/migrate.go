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

// MigrateUp applies every pending migration, then loads the geographic data
// when its tables are empty.
func MigrateUp(ctx context.Context, pool *pgxpool.Pool) error {
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
