// Command adboost serves the adboost API and manages its database.
//
//	adboost serve                   apply pending migrations, then serve the API
//	adboost migrate up|down|status  goose migrations embedded in the binary
//	adboost import FILE             load a data file (- for standard input)
//	adboost demo                    load the built-in demo data set
//	adboost engine                  run one cycle of the boosting engine
//	adboost report -user ID         write a user's weekly report mail to files, unsent
//	adboost version                 print the module version and VCS revision
//	adboost help [COMMAND]          print the usage, with every environment variable
//
// Configuration comes from the environment (the table settings, in
// settings.go); a command's flags override some of it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := realMain(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// realMain is main without the process around it: it answers the exit code,
// 0 on success (help included), 2 for a command line it does not understand
// (with the usage on stderr), 1 for any other failure.
func realMain(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	log, err := newLogger(stderr, getenv("LOG_FORMAT"), getenv("LOG_LEVEL"))
	if err != nil {
		fmt.Fprintln(stderr, "adboost:", err)
		return 1
	}
	err = run(ctx, args, getenv, stdin, stdout, log)
	var u usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "adboost: %s\n\n%s", err, u.usage)
		return 2
	}
	log.Error("adboost failed", "err", err)
	return 1
}

// usageError is a command line that adboost does not understand; usage is
// the text that helps.
type usageError struct {
	msg   string
	usage string
}

func (e usageError) Error() string { return e.msg }

func usagef(usage, format string, args ...any) error {
	return usageError{msg: fmt.Sprintf(format, args...), usage: usage}
}

// command is one subcommand of adboost.
type command struct {
	name    string
	args    string // synopsis of the arguments after the flags
	summary string
	// flags defines the command's flags; set(variable, value) overrides an
	// environment variable of the settings table, or keeps a flag of the
	// command's own (config.flags).
	flags func(fs *flag.FlagSet, set func(variable, value string))
	// argsOK checks the arguments after the flags.
	argsOK func(args []string) bool
	run    func(ctx context.Context, cfg config, args []string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error
}

// commands lists the subcommands, in the order of the usage.
var commands = []command{
	{
		name: "serve", summary: "apply pending migrations, then serve the API until SIGINT/SIGTERM",
		flags: func(fs *flag.FlagSet, set func(string, string)) {
			fs.Func("addr", "listen address `host:port` (overrides HTTP_ADDR)", func(v string) error { set("HTTP_ADDR", v); return nil })
			fs.Func("metrics-addr", "serve GET /metrics on `host:port` instead (overrides METRICS_ADDR)", func(v string) error { set("METRICS_ADDR", v); return nil })
		},
		argsOK: func(a []string) bool { return len(a) == 0 },
		run: func(ctx context.Context, cfg config, _ []string, _ io.Reader, _ io.Writer, log *slog.Logger) error {
			return serve(ctx, cfg, log)
		},
	},
	{
		name: "migrate", args: "up|down|status", summary: "apply all, roll back one, or list the migrations",
		argsOK: func(a []string) bool { return len(a) == 1 && (a[0] == "up" || a[0] == "down" || a[0] == "status") },
		run: func(ctx context.Context, cfg config, args []string, _ io.Reader, stdout io.Writer, _ *slog.Logger) error {
			return migrate(ctx, cfg, args[0], stdout)
		},
	},
	{
		name: "import", args: "FILE", summary: "load a data file in one transaction (- reads standard input)",
		argsOK: func(a []string) bool { return len(a) == 1 },
		run: func(ctx context.Context, cfg config, args []string, stdin io.Reader, _ io.Writer, log *slog.Logger) error {
			return importFile(ctx, cfg, args[0], stdin, log)
		},
	},
	{
		name: "demo", summary: "load the built-in demo data set (idempotent)",
		argsOK: func(a []string) bool { return len(a) == 0 },
		run: func(ctx context.Context, cfg config, _ []string, _ io.Reader, _ io.Writer, log *slog.Logger) error {
			return demo(ctx, cfg, log)
		},
	},
	{
		name: "engine", summary: "run one cycle of the boosting engine over every campaign (exit 1 naming the campaigns that failed)",
		argsOK: func(a []string) bool { return len(a) == 0 },
		run: func(ctx context.Context, cfg config, _ []string, _ io.Reader, _ io.Writer, log *slog.Logger) error {
			return runEngine(ctx, cfg, log)
		},
	},
	reportCmd,
}

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// run executes one command line; it is main without the process and the
// exit code around it.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return usagef(usage(), "no command given")
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 2 {
			return usagef(usage(), "help takes at most one command")
		}
		if len(args) == 2 && args[0] == "help" {
			c := findCommand(args[1])
			if c == nil {
				return usagef(usage(), "help: unknown command %q", args[1])
			}
			_, err := io.WriteString(stdout, c.usage())
			return err
		}
		_, err := io.WriteString(stdout, usage())
		return err
	case "version", "-version", "--version":
		if len(args) > 1 {
			return usagef(usage(), "version takes no arguments")
		}
		_, err := fmt.Fprintln(stdout, version())
		return err
	}
	c := findCommand(args[0])
	if c == nil {
		return usagef(usage(), "unknown command %q", args[0])
	}
	fs := flag.NewFlagSet("adboost "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the errors are ours to print
	overrides := map[string]string{}
	if c.flags != nil {
		c.flags(fs, func(k, v string) { overrides[k] = v })
	}
	switch err := fs.Parse(args[1:]); {
	case errors.Is(err, flag.ErrHelp):
		_, err := io.WriteString(stdout, c.usage())
		return err
	case err != nil:
		return usagef(c.usage(), "%s: %v", c.name, err)
	}
	if !c.argsOK(fs.Args()) {
		if c.args == "" {
			return usagef(c.usage(), "%s takes no arguments, got %q", c.name, fs.Args())
		}
		return usagef(c.usage(), "%s takes %s, got %q", c.name, c.args, fs.Args())
	}
	env := func(k string) string {
		if v, ok := overrides[k]; ok {
			return v
		}
		return getenv(k)
	}
	cfg, err := loadConfig(env, log)
	if err != nil {
		return err
	}
	cfg.flags = overrides
	return c.run(ctx, cfg, fs.Args(), stdin, stdout, log)
}

// usage is the text of `adboost help`: the commands and every environment
// variable with its default.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: adboost <command> [flags] [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-30s %s\n", strings.Join(strings.Fields(c.name+" "+c.flagSynopsis()+" "+c.args), " "), c.summary)
	}
	fmt.Fprintf(&b, "  %-30s %s\n", "version", "print the module version and VCS revision")
	fmt.Fprintf(&b, "  %-30s %s\n", "help [COMMAND]", "print this text, or a command's flags (also -h, --help)")
	b.WriteString("\nenvironment (flags override it):\n")
	b.WriteString(settingsText())
	return b.String()
}

// flagSynopsis is "[flags]" for a command that has some.
func (c *command) flagSynopsis() string {
	if c.flags == nil {
		return ""
	}
	return "[flags]"
}

// usage is the text of `adboost help COMMAND` and `adboost COMMAND -h`.
func (c *command) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: adboost %s\n\n%s.\n", strings.Join(strings.Fields(c.name+" "+c.flagSynopsis()+" "+c.args), " "), c.summary)
	if c.flags != nil {
		b.WriteString("\nflags:\n")
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs, func(string, string) {})
		fs.SetOutput(&b)
		fs.PrintDefaults()
	}
	b.WriteString("\nThe environment variables are listed by `adboost help`.\n")
	return b.String()
}
