package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"adboost/db/dbtest"
)

// cli runs adboost as main does and answers its exit code and output.
func cli(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = realMain(context.Background(), args, envOf(env), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelp: help, -h and --help print every variable with its default and
// exit 0; a command's -h prints its flags instead of running it.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}} {
		code, out, errOut := cli(t, nil, args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		for _, s := range settings {
			def := strings.ReplaceAll(s.def, "`", "")
			if !strings.Contains(out, "  "+s.name+" ") || !strings.Contains(out, "default: "+def+"\n") {
				t.Errorf("%v: the usage lacks %s or its default %q", args, s.name, def)
			}
		}
		for _, c := range []string{"serve [flags]", "migrate up|down|status", "import FILE", "demo", "version", "help [COMMAND]"} {
			if !strings.Contains(out, "\n  "+c+" ") {
				t.Errorf("%v: the usage lacks the command %q", args, c)
			}
		}
	}
	// serve -h does not serve: without JWT_SECRET and a database it would fail.
	unreachable := map[string]string{"DATABASE_URL": "postgres://postgres@" + freeAddr(t) + "/x"}
	for _, args := range [][]string{{"serve", "--help"}, {"serve", "-h"}, {"help", "serve"}} {
		code, out, errOut := cli(t, unreachable, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: adboost serve [flags]\n") ||
			!strings.Contains(out, "-addr host:port") || !strings.Contains(out, "overrides METRICS_ADDR") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	code, out, _ := cli(t, unreachable, "migrate", "-h")
	if code != 0 || !strings.HasPrefix(out, "usage: adboost migrate up|down|status\n") {
		t.Errorf("migrate -h: exit %d, %q", code, out)
	}
}

// TestExitCodes: a command line adboost does not understand exits 2 with the
// usage on stderr; a failure exits 1.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	unreachable := map[string]string{"DATABASE_URL": "postgres://postgres@" + freeAddr(t) + "/x", "JWT_SECRET": strings.Repeat("s", 32)}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{nil, 2, "no command given"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"--frobnicate"}, 2, `unknown command "--frobnicate"`},
		{[]string{"serve", "extra"}, 2, `serve takes no arguments, got ["extra"]`},
		{[]string{"serve", "-port", "80"}, 2, "flag provided but not defined: -port"},
		{[]string{"serve", "-addr"}, 2, "flag needs an argument: -addr"},
		{[]string{"migrate"}, 2, "migrate takes up|down|status, got []"},
		{[]string{"migrate", "sideways"}, 2, `migrate takes up|down|status, got ["sideways"]`},
		{[]string{"migrate", "up", "down"}, 2, "migrate takes up|down|status"},
		{[]string{"import"}, 2, "import takes FILE"},
		{[]string{"import", "a.json", "b.json"}, 2, "import takes FILE"},
		{[]string{"demo", "now"}, 2, "demo takes no arguments"},
		{[]string{"version", "x"}, 2, "version takes no arguments"},
		{[]string{"help", "frobnicate"}, 2, `help: unknown command "frobnicate"`},
		{[]string{"help", "serve", "demo"}, 2, "help takes at most one command"},
		{[]string{"migrate", "status"}, 1, "cannot reach PostgreSQL"},
	} {
		code, out, errOut := cli(t, unreachable, c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.says) {
			t.Errorf("%q: exit %d, stdout %q, stderr %.300q; want exit %d saying %q", c.args, code, out, errOut, c.code, c.says)
		}
		if c.code == 2 && !strings.Contains(errOut, "usage: adboost ") {
			t.Errorf("%q: stderr lacks the usage: %q", c.args, errOut)
		}
	}
	for env, says := range map[string]string{"LOG_LEVEL": "LOG_LEVEL", "LOG_FORMAT": "LOG_FORMAT"} {
		code, _, errOut := cli(t, map[string]string{env: "loud"}, "version")
		if code != 1 || !strings.Contains(errOut, says) {
			t.Errorf("%s=loud: exit %d, %q", env, code, errOut)
		}
	}
	if code, _, errOut := cli(t, map[string]string{"CORS_ALLOWED_ORIGINS": "dash.example.com"}, "migrate", "status"); code != 1 || !strings.Contains(errOut, "CORS_ALLOWED_ORIGINS") {
		t.Errorf("a bad CORS_ALLOWED_ORIGINS: exit %d, %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"version", "--version"} {
		code, out, _ := cli(t, nil, arg)
		if code != 0 || !strings.HasPrefix(out, "adboost ") || !strings.HasSuffix(out, ", "+runtime.Version()+"\n") {
			t.Errorf("%s: exit %d, %q", arg, code, out)
		}
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "adboost", Version: "v0.0.0-20261123094514-a46308f5a4b1"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "a46308f5a4b15c22cd368c1b01800f95a5d8ca20"},
			{Key: "vcs.time", Value: "2026-11-23T09:45:14Z"}, {Key: "vcs.modified", Value: "true"}}}
	want := "adboost v0.0.0-20261123094514-a46308f5a4b1, revision a46308f5a4b15c22cd368c1b01800f95a5d8ca20 (modified), committed 2026-11-23T09:45:14Z, go1.26.8"
	if got := versionOf(info); got != want {
		t.Errorf("versionOf = %q\nwant        %q", got, want)
	}
	info.Settings, info.Main.Version = nil, ""
	if got := versionOf(info); got != "adboost (devel), revision unknown (built without VCS information), go1.26.8" {
		t.Errorf("versionOf without VCS = %q", got)
	}
}

// TestEveryVariableInUsage: each environment variable that the code of
// cmd/adboost reads (getenv("X"), os.Getenv("X"), a flag's set("X", v)) is a
// row of settings, so `adboost help` lists it, and each row is read.
func TestEveryVariableInUsage(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var fn string
			switch f := call.Fun.(type) {
			case *ast.Ident:
				fn = f.Name
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			}
			// A name is read where it is the first argument of a getter, or
			// follows the getter handed to a helper: duration(getenv, "X", …).
			for i, arg := range call.Args {
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				getter := i == 0 && (fn == "getenv" || fn == "Getenv" || fn == "LookupEnv" || fn == "env" || fn == "set")
				if i > 0 {
					if id, ok := call.Args[i-1].(*ast.Ident); ok && id.Name == "getenv" {
						getter = true
					}
				}
				if getter {
					v, _ := strconv.Unquote(lit.Value)
					read[v] = fset.Position(lit.Pos()).String()
				}
			}
			return true
		})
	}
	if len(read) < 10 {
		t.Fatalf("found only %d variables read: %v", len(read), read)
	}
	listed := map[string]bool{}
	_, out, _ := cli(t, nil, "help")
	for _, s := range settings {
		listed[s.name] = true
		if _, ok := read[s.name]; !ok {
			t.Errorf("settings lists %s, which cmd/adboost does not read", s.name)
		}
	}
	for v, where := range read {
		if !listed[v] || !strings.Contains(out, "  "+v+" ") {
			t.Errorf("%s reads %s, which is not in settings (settings.go) and the usage", where, v)
		}
	}
}

// TestREADMEConfiguration: the README's configuration table is the one made
// from settings.
func TestREADMEConfiguration(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := settingsMarkdown(); !strings.Contains(string(readme), want) {
		t.Errorf("README.md's configuration table is not the one of settings.go; it should read:\n\n%s", want)
	}
}

// TestDatabaseCreatedWhenMissing: a database that any DATABASE_URL names
// (pool parameters included) is created when missing; a user who may not
// create it is told what to do.
func TestDatabaseCreatedWhenMissing(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(dbtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	name := "adboost_created_" + strings.ToLower(rand.Text()[:10])
	u.Path = "/" + name
	q := u.Query()
	q.Set("pool_max_conns", "3")
	u.RawQuery = q.Encode()
	defer func() { // before admin closes
		if _, err := admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	}()
	code, out, errOut := cli(t, map[string]string{"DATABASE_URL": u.String()}, "migrate", "status")
	if code != 0 || !pendingMigration.MatchString(out) {
		t.Fatalf("migrate status on a missing database: exit %d, %q %q", code, out, errOut)
	}
	var exists bool
	if err := admin.QueryRow(context.Background(), "SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil || !exists {
		t.Fatalf("database %s was not created (%v)", name, err)
	}

	// A user without CREATEDB.
	role := "adboost_nocreate_" + strings.ToLower(rand.Text()[:10])
	// A password, for servers that ask for one (the test container does).
	if _, err := admin.Exec(context.Background(), "CREATE ROLE "+role+" LOGIN NOCREATEDB PASSWORD 'nocreate-password'"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if _, err := admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+role); err != nil {
			t.Error(err)
		}
	}()
	u.User = url.UserPassword(role, "nocreate-password")
	u.Path = "/" + name + "_other"
	code, _, errOut = cli(t, map[string]string{"DATABASE_URL": u.String()}, "migrate", "status")
	errOut = strings.ReplaceAll(errOut, `\"`, `"`) // the log line quotes the error
	for _, want := range []string{`database "` + name + `_other" does not exist`, `user "` + role + `" may not create it`, "set DATABASE_URL"} {
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("missing database, user without CREATEDB: exit %d, stderr lacks %q:\n%s", code, want, errOut)
		}
	}
}

// TestDatabaseUnreachable: the error names the address and what to do.
func TestDatabaseUnreachable(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	code, _, errOut := cli(t, map[string]string{"DATABASE_URL": "postgres://postgres:secret-pw@" + addr + "/adboost"}, "demo")
	for _, want := range []string{"cannot reach PostgreSQL at " + addr, "start PostgreSQL there, or set DATABASE_URL"} {
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d; stderr lacks %q:\n%s", code, want, errOut)
		}
	}
	if strings.Contains(errOut, "secret-pw") {
		t.Errorf("the error shows the password: %s", errOut)
	}
}
