package dbtest

import (
	"context"
	"errors"
	"os"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
)

// DefaultImage is the PostgreSQL image for machines that reach a registry.
const DefaultImage = "postgres:15"

var errNoDocker = errors.New("no Docker engine answers")

func containerImage() string {
	if img := os.Getenv("TEST_POSTGRES_IMAGE"); img != "" {
		return img
	}
	return DefaultImage
}

// startContainer starts one PostgreSQL container for this test binary and
// answers its connection string and a function that stops it.
func startContainer(ctx context.Context) (string, func(), error) {
	if !dockerAnswers(ctx) {
		return "", nil, errNoDocker
	}
	ctr, err := postgres.Run(ctx, containerImage(),
		postgres.WithDatabase("postgres"),
		postgres.WithUsername("postgres"),
		postgres.WithPassword("postgres"),
		postgres.BasicWaitStrategies(),
		// The data directory (PGDATA of postgres:15 and of our image) in
		// memory: every test creates and drops a database of a few thousand
		// files, and on a disk's file system such as ext4 each new file's
		// inode is searched for past the many that were just freed.
		testcontainers.WithTmpfs(map[string]string{"/var/lib/postgresql/data": "rw"}),
	)
	if err != nil {
		if ctr != nil {
			_ = testcontainers.TerminateContainer(ctr)
		}
		return "", nil, err
	}
	url, err := ctr.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return "", nil, err
	}
	return url, func() { _ = testcontainers.TerminateContainer(ctr) }, nil
}

// dockerAnswers tells whether a Docker engine is reachable.
func dockerAnswers(ctx context.Context) (ok bool) {
	defer func() {
		if recover() != nil { // testcontainers panics on some broken setups
			ok = false
		}
	}()
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		return false
	}
	defer cli.Close()
	_, err = cli.Ping(ctx, client.PingOptions{})
	return err == nil
}
