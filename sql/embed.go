// Package sqlfiles embeds the goose migrations of sql/migrations, so that the
// adboost binary carries its own schema.
package sqlfiles

import "embed"

// Migrations holds the goose migrations, under "migrations/".
//
//go:embed migrations/*.sql
var Migrations embed.FS
