// Command adboost-bench-engine is the engine benchmark
// (`make bench-engine`). For every N it makes a fresh database of N users,
// each with a network_a page and a campaign on it, serves an in-memory
// network_a (auth/networkafake) that answers every request after a delay and
// has 20 qualifying posts on each page (and as many media on the network_b
// account that -share-b links to a share of the pages and campaigns), and
// runs `adboost engine` three times: a first cycle that boosts every post
// and media, a steady cycle with nothing new (which records the reviews of
// the new ads), and one more steady cycle. It
// prints a Markdown table of the cycles per N: wall time, exit code, ads
// created, network_a requests, requests and calls per campaign, PostgreSQL's
// active time and the engine's peak RSS.
//
//	adboost-bench-engine -adboost .cache/adboost [-n 10000] [-posts 20] [-delay 50ms]
//	    [-workers W] [-calls C] [-share-b 0] [-server URL] [-database adboost_bench_engine]
//
// The logic is Run, in harness.go, which the package's test drives on a small N.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "adboost-bench-engine:", err)
		os.Exit(1)
	}
}

// run reads the flags and runs the benchmark: progress on standard error,
// the table on standard output.
func run() error {
	ns := flag.String("n", "10000", "the numbers of campaigns, comma-separated: one round each")
	posts := flag.Int("posts", 20, "qualifying posts on each page")
	delay := flag.Duration("delay", 50*time.Millisecond, "how long network_a takes to answer each request")
	bin := flag.String("adboost", ".cache/adboost", "the adboost binary")
	server := flag.String("server", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server (maintenance connection)")
	name := flag.String("database", "adboost_bench_engine", "the benchmark's database, dropped and made again for every N")
	workers := flag.String("workers", "", "ENGINE_WORKERS for the engine (empty: the engine's default)")
	calls := flag.String("calls", "", "ENGINE_CALLS for the engine (empty: the engine's default)")
	shareB := flag.Float64("share-b", 0, "the share of campaigns that also name a network_b account")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(flag.Args(), " "))
	}
	counts, err := parseNs(*ns)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err = Run(ctx, Config{
		Ns: counts, Posts: *posts, Delay: *delay, Adboost: *bin, Server: *server, Database: *name,
		Workers: *workers, Calls: *calls, ShareB: *shareB, Progress: os.Stderr,
	}, os.Stdout)
	return err
}

// parseNs reads the -n flag: positive integers separated by commas.
func parseNs(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n %q: give positive integers separated by commas", s)
		}
		out = append(out, n)
	}
	return out, nil
}
