package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// tail is an io.Writer that keeps the last max bytes written to it: the end
// of a process's output, quoted when the process fails, without holding all
// of what a long run logs.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps p's end and drops what falls out of the window.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLines answers the last n lines kept, indented for an error message.
func (t *tail) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(t.buf), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// printTable writes the results as a Markdown table, one row per cycle.
func printTable(w io.Writer, results []Result) {
	fmt.Fprintln(w, "| N | cycle | wall (s) | exit | ads created | requests | requests/campaign | calls/campaign | PG time (s) | peak RSS (MB) |")
	fmt.Fprintln(w, "|--:|:--|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range results {
		fmt.Fprintf(w, "| %d | %s | %.2f | %d | %d | %d | %.1f | %.1f | %.2f | %.1f |\n",
			r.N, r.Cycle, r.Wall.Seconds(), r.Exit, r.AdsCreated, r.Requests,
			r.RequestsPerCampaign(), r.CallsPerCampaign(), r.PGTime.Seconds(), float64(r.PeakRSSKiB)/1024)
	}
}
