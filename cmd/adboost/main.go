// Command adboost serves the adboost API and manages its database.
//
//	adboost serve                   apply pending migrations, then serve the API
//	adboost migrate up|down|status  goose migrations embedded in the binary
//	adboost import FILE             load a data file (- for standard input)
//	adboost demo                    load the built-in demo data set
//
// Configuration comes from the environment; see README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: adboost <command>

commands:
  serve                   apply pending migrations, then serve the API
  migrate up|down|status  apply, roll back one, or list the migrations
  import FILE             load a data file (- reads standard input)
  demo                    load the built-in demo data set
`

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, log); err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprint(os.Stderr, usage)
		}
		log.Error("adboost failed", "err", err)
		os.Exit(1)
	}
}

type usageError string

func (e usageError) Error() string { return string(e) }

// run executes one command; it is main without the process around it.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return usageError("no command given")
	}
	cfg, err := loadConfig(getenv, log)
	if err != nil {
		return err
	}
	switch args[0] {
	case "serve":
		return serve(ctx, cfg, log)
	case "migrate":
		if len(args) != 2 {
			return usageError("migrate takes one of up, down, status")
		}
		return migrate(ctx, cfg, args[1], stdout)
	case "import":
		if len(args) != 2 {
			return usageError("import takes one file name, or - for standard input")
		}
		return importFile(ctx, cfg, args[1], stdin, log)
	case "demo":
		return demo(ctx, cfg, log)
	}
	return usageError(fmt.Sprintf("unknown command %q", args[0]))
}
