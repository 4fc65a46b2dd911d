package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DefaultShutdownGrace is how long a shutdown may take.
const DefaultShutdownGrace = 15 * time.Second

// Serve answers srv's requests on ln until ctx is done, then shuts down
// within grace: it stops accepting at once and lets the requests in flight
// finish until 2 s before the grace ends (half of it when it is shorter
// than 4 s); then it cancels the context of every request still running
// (the server's base context), so their statements and network_a calls stop
// and they answer 503; whatever is still open when the grace ends is
// closed. Serve sets srv.BaseContext.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	base, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
	srv.BaseContext = func(net.Listener) context.Context { return base }
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(shutdownCtx) }()
	// http.Server.Shutdown looks for idle connections at intervals that
	// grow to 500 ms; the margin leaves it time to see the cancelled
	// requests' connections go idle.
	margin := min(grace/2, 2*time.Second)
	cancelAt := time.NewTimer(grace - margin)
	defer cancelAt.Stop()
	var err error
	select {
	case err = <-done:
	case <-cancelAt.C:
		cancelRequests()
		err = <-done
	}
	if err != nil {
		_ = srv.Close()
		err = fmt.Errorf("shutdown: requests still running after %s were cut off: %w", time.Since(start).Round(time.Millisecond), err)
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
