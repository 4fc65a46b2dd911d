package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	httpapi "adboost/http"
)

// newLogger is the logger of LOG_FORMAT (text or json) and LOG_LEVEL (debug,
// info, warn or error), writing to w. Repeated warnings and errors are
// limited (see repeatLimiter).
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lvl slog.Level
	switch strings.ToLower(level) {
	case "", "info":
		lvl = slog.LevelInfo
	case "debug":
		lvl = slog.LevelDebug
	case "warn":
		lvl = slog.LevelWarn
	case "error":
		lvl = slog.LevelError
	default:
		return nil, fmt.Errorf("LOG_LEVEL %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	var h slog.Handler
	switch strings.ToLower(format) {
	case "", "text":
		h = slog.NewTextHandler(w, opts)
	case "json":
		h = slog.NewJSONHandler(w, opts)
	default:
		return nil, fmt.Errorf("LOG_FORMAT %q is not text or json", format)
	}
	return slog.New(newRepeatLimiter(h, 10*time.Second)), nil
}

// repeatLimiter keeps an outage from flooding the log. A warning or an error
// whose message and "err" repeat one written less than window ago is not
// written but counted; once the window has passed, a line says how many were
// left out ("repeated": N), and the next such record is written again. Lines
// below warn (one a request) pass as they are. Records of a request also get
// its request_id.
type repeatLimiter struct {
	next   slog.Handler
	window time.Duration
	state  *repeatState
}

type repeatState struct {
	mu        sync.Mutex
	now       func() time.Time
	seen      map[repeatKey]*repeated
	nextSweep time.Time
}

type repeatKey struct {
	level    slog.Level
	msg, err string
}

type repeated struct {
	until   time.Time // identical records before then are counted, not written
	dropped int
	record  slog.Record // the last one written, for the summary
	handler slog.Handler
}

// maxRepeatKeys bounds the memory of the limiter; beyond it records pass.
const maxRepeatKeys = 10000

func newRepeatLimiter(next slog.Handler, window time.Duration) *repeatLimiter {
	return &repeatLimiter{next: next, window: window,
		state: &repeatState{now: time.Now, seen: map[repeatKey]*repeated{}}}
}

func (h *repeatLimiter) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *repeatLimiter) WithAttrs(as []slog.Attr) slog.Handler {
	return &repeatLimiter{next: h.next.WithAttrs(as), window: h.window, state: h.state}
}

func (h *repeatLimiter) WithGroup(name string) slog.Handler {
	return &repeatLimiter{next: h.next.WithGroup(name), window: h.window, state: h.state}
}

func (h *repeatLimiter) Handle(ctx context.Context, r slog.Record) error {
	st := h.state
	st.mu.Lock()
	now := st.now()
	summaries := st.sweep(now)
	write := true
	if r.Level >= slog.LevelWarn {
		key := repeatKey{level: r.Level, msg: r.Message}
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" {
				key.err = a.Value.String()
				return false
			}
			return true
		})
		if rep := st.seen[key]; rep != nil && now.Before(rep.until) {
			rep.dropped++
			write = false
		} else if len(st.seen) < maxRepeatKeys {
			st.seen[key] = &repeated{until: now.Add(h.window), record: r.Clone(), handler: h.next}
			if now.Add(h.window).Before(st.nextSweep) {
				st.nextSweep = now.Add(h.window)
			}
		}
	}
	st.mu.Unlock()

	for _, s := range summaries {
		_ = s.handler.Handle(ctx, s.summary(h.window))
	}
	if !write {
		return nil
	}
	if id := httpapi.RequestID(ctx); id != "" && r.Level >= slog.LevelWarn {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.next.Handle(ctx, r)
}

// sweep forgets the records whose window has passed, answering those that
// were repeated meanwhile, for their summary line.
func (st *repeatState) sweep(now time.Time) []*repeated {
	if now.Before(st.nextSweep) {
		return nil
	}
	var done []*repeated
	next := now.Add(time.Hour)
	for k, rep := range st.seen {
		if now.Before(rep.until) {
			if rep.until.Before(next) {
				next = rep.until
			}
			continue
		}
		delete(st.seen, k)
		if rep.dropped > 0 {
			done = append(done, rep)
		}
	}
	st.nextSweep = next
	return done
}

// summary is the line that says how often the record was repeated.
func (rep *repeated) summary(window time.Duration) slog.Record {
	s := slog.NewRecord(time.Now(), rep.record.Level, rep.record.Message, 0)
	rep.record.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			s.AddAttrs(a)
		}
		return true
	})
	s.AddAttrs(slog.Int("repeated", rep.dropped), slog.Duration("within", window))
	return s
}
