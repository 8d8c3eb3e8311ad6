package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// signalDelay is how long a hook process runs before it starts catching SIGINT and SIGTERM.
// A routine call is answered and the process gone within a few milliseconds; a call still
// running after signalDelay is one that waits on something (a model review, a serve holding
// an ask, a slow disk), which is when a host or a person interrupts it.
const signalDelay = 20 * time.Millisecond

// interruptible returns a context that is cancelled when the process receives SIGINT or
// SIGTERM after delay has passed, so that hook.Run answers with the fail-safe reply ("interrupted
// before a decision") and records it, instead of the process dying without a reply.
//
// Catching a signal is not free in Go: the first signal.Notify starts a goroutine locked to its
// own thread (and the runtime's template thread with it) and a goroutine blocked in the
// signal queue, on a thread of its own. In a process that lives 4 ms, those threads cost about
// a tenth of it (docs/hooks.md, "What a hook call costs"), so they are started only by a call
// that lasts. A signal before delay ends the process as Go's default does — no reply, which
// hosts treat as a failed hook. The hosts send these signals only to cancel the call, and
// nothing is lost to an attacker: SIGKILL, which no process can catch, does the same.
func interruptible(parent context.Context, delay time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	var (
		mu      sync.Mutex
		stopped bool
		unarm   func()
	)
	t := time.AfterFunc(delay, func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			unarm = armSignals(ctx, cancel)
		}
	})
	return ctx, func() {
		t.Stop()
		mu.Lock()
		stopped = true
		if unarm != nil {
			unarm()
		}
		mu.Unlock()
		cancel()
	}
}

// armSignals calls cancel when the process receives SIGINT or SIGTERM while ctx lasts. The
// function it returns stops catching them.
func armSignals(ctx context.Context, cancel context.CancelFunc) (unarm func()) {
	sctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(sctx, cancel)
	return stop
}
