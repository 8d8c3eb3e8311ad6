package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// The http.Server limits Serve applies. A slow or malicious client cannot hold a connection
// (or one of the review slots) forever, and the write timeout still leaves room for the
// longest review deadline a config allows (60 s).
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 90 * time.Second
	IdleTimeout       = 120 * time.Second
	MaxHeaderBytes    = 64 << 10
)

// Serve answers requests on every listener until ctx is cancelled, then shuts down
// gracefully: the listeners are closed at once (new connections are refused), idle
// connections are closed, and in-flight requests — reviews included — are let finish, for at
// most the drain timeout (WithDrainTimeout). It returns nil after a clean drain; the caller
// then closes what the Decider writes to (the audit log), which no request can reach any
// more. Requests still running at the drain timeout are cut off — their contexts cancelled, their
// handlers waited for — and reported in the error.
//
// Request contexts are not cancelled by ctx: a review in flight at shutdown is finished and
// audited, not abandoned.
func (s *Server) Serve(ctx context.Context, lns ...net.Listener) error {
	if len(lns) == 0 {
		return errors.New("serve: no listener")
	}
	var handlers inflight
	if s.hub != nil {
		if err := s.counts.seed(ctx, s.decisions); err != nil {
			s.logger.LogAttrs(ctx, slog.LevelWarn, "the day's counts start from zero: the audit log could not be read", slog.String("err", err.Error()))
		}
	}
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handlers.enter()
			defer handlers.leave()
			s.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	// Event streams never end by themselves: end them as shutdown begins, so they do not hold
	// the drain up.
	hs.RegisterOnShutdown(s.hub.Close)
	errc := make(chan error, len(lns))
	for _, ln := range lns {
		go func() { errc <- hs.Serve(ln) }()
	}
	running := len(lns)
	var failed error
	select {
	case err := <-errc: // a listener broke before shutdown was asked for
		running--
		failed = fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	dctx, cancel := context.WithTimeout(context.Background(), s.drain)
	defer cancel()
	s.logger.LogAttrs(ctx, slog.LevelInfo, "draining", slog.Duration("timeout", s.drain))
	shutdownErr := hs.Shutdown(dctx)
	for ; running > 0; running-- {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) && failed == nil {
			failed = fmt.Errorf("serve: %w", err)
		}
	}
	if shutdownErr != nil {
		// Cut the connections off, which cancels their requests' contexts, and wait for the
		// handlers to return: the caller closes the audit log next, and no review may still
		// be writing to it then.
		_ = hs.Close()
		err := fmt.Errorf("drain: requests still in flight after %s were cut off (raise the drain timeout, --drain): %w", s.drain, shutdownErr)
		select {
		case <-handlers.idle():
		case <-time.After(cutOffGrace):
			err = fmt.Errorf("%w; %d of them ignored the cancellation for %s more and are still running", err, handlers.count(), cutOffGrace)
		}
		return errors.Join(failed, err)
	}
	return failed
}

// cutOffGrace is how long Serve waits, after the drain timeout, for cut-off requests to
// return. A review's context is cancelled then, so the pipeline returns within moments.
const cutOffGrace = 5 * time.Second

// inflight counts the handlers running, so Serve can wait for them after cutting their
// connections off (http.Server.Close does not wait).
type inflight struct {
	mu      sync.Mutex
	n       int
	waiters []chan struct{}
}

func (f *inflight) enter() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inflight) leave() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n--; f.n == 0 {
		for _, w := range f.waiters {
			close(w)
		}
		f.waiters = nil
	}
}

// idle returns a channel closed once no handler runs.
func (f *inflight) idle() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan struct{})
	if f.n == 0 {
		close(ch)
	} else {
		f.waiters = append(f.waiters, ch)
	}
	return ch
}

func (f *inflight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}
