package main

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestArmSignals checks that once armed, SIGINT and SIGTERM cancel the hook's context (hook.Run
// then answers with the fail-safe reply) instead of ending the process.
func TestArmSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			unarm := armSignals(ctx, cancel)
			defer unarm()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatalf("%v did not cancel the context", sig)
			}
		})
	}
}

// TestInterruptibleStop checks that stopping before the delay leaves nothing armed and cancels
// the context.
func TestInterruptibleStop(t *testing.T) {
	ctx, stop := interruptible(context.Background(), time.Hour)
	stop()
	if ctx.Err() == nil {
		t.Fatal("stop did not cancel the context")
	}
}
