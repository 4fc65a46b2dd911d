package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	httpapi "adboost/http"
)

// The ceiling of presets/available: its requests answered from memory.
//
// presets/available answers 500 to 1,000 Preset objects a request in the
// distinct mode. Writing such an answer, gzipping it and sending it costs
// CPU whatever the database does. The ceiling measures that part alone: a
// child process of this command (-answer-file) answers the route's own
// requests with the cards of its largest answer (page 1 of 1,000, read from
// adboost), the first `limit` of them copied into a new answer at each
// request and compressed by the API's own gzip (httpapi.Compress). No work
// of the database's can make the route faster than this line of the table
// on the same machine.

// ceilingOf is the route whose ceiling is measured after it.
const ceilingOf = "available (1,000)"

// ceilingRoute is r driven against the ceiling's server.
func ceilingRoute(r route) route {
	r.Name += ", from memory"
	return r
}

// startCeiling reads the route's largest answer from adboost at base,
// starts the ceiling's server on it and waits until it answers. It answers
// the server's base URL, its pid and a function that stops it.
func startCeiling(ctx context.Context, base, token string) (string, int, func(), error) {
	answer, err := largestAnswer(ctx, base, token)
	if err != nil {
		return "", 0, nil, err
	}
	dir, err := os.MkdirTemp("", "adboost-bench-ceiling")
	if err != nil {
		return "", 0, nil, err
	}
	file := filepath.Join(dir, "answer.json")
	addr, err := freeAddr()
	if err == nil {
		err = os.WriteFile(file, answer, 0o600)
	}
	self, errSelf := os.Executable()
	if err = errors.Join(err, errSelf); err != nil {
		os.RemoveAll(dir)
		return "", 0, nil, err
	}
	cmd := exec.CommandContext(ctx, self, "-answer-file", file, "-answer-addr", addr)
	cmd.Stderr = os.Stderr
	ceilingBase, stop, err := startServer(ctx, cmd, addr, func() { os.RemoveAll(dir) })
	if err != nil {
		return "", 0, nil, fmt.Errorf("the ceiling's server: %w", err)
	}
	return ceilingBase, cmd.Process.Pid, stop, nil
}

// largestAnswer is presets/available's page 1 of 1,000 as adboost answers
// it, not compressed.
func largestAnswer(ctx context.Context, base, token string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/presets/available?page=1&limit=1000", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("presets/available: status %d: %.200s", resp.StatusCode, body)
	}
	return body, err
}

// serveAnswer is the ceiling's server (-answer-file): answerHandler over
// the JSON array of Preset objects in file.
func serveAnswer(file, addr string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var cards []json.RawMessage
	if err := json.Unmarshal(b, &cards); err != nil || len(cards) == 0 {
		return fmt.Errorf("%s: not a JSON array of Preset objects (%v)", file, err)
	}
	srv := &http.Server{Addr: addr, ReadHeaderTimeout: 10 * time.Second, Handler: answerHandler(cards)}
	return srv.ListenAndServe()
}

// answerHandler answers every request with the first `limit` (1 to all;
// all when absent or invalid) of cards as a JSON array, written into a new
// answer each time as a handler writes one, through the API's gzip. It
// also answers waitReady's probe, whatever its path.
func answerHandler(cards []json.RawMessage) http.Handler {
	size := 2
	for _, c := range cards {
		size += len(c) + 1
	}
	return httpapi.Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(cards)
		if limit, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && limit > 0 {
			n = min(n, limit)
		}
		out := make([]byte, 0, size)
		out = append(out, '[')
		for i, c := range cards[:n] {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, c...)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(out, ']'))
	}))
}
