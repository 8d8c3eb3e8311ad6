package mcp

import (
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// waitBound bounds each wait of these tests for something the proxy should deliver: what
// never comes fails the test, saying what it waited for, instead of hanging until the test
// binary's timeout. It is a guard, not a measure: far above any wait on a loaded machine.
const waitBound = 30 * time.Second

// recv returns the next value of ch, failing the test when none comes within waitBound.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	timer := time.NewTimer(waitBound)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("no %s within %v", what, waitBound)
		panic("unreachable")
	}
}

// waitNote returns the first notification on notes that match accepts, failing the test when
// none comes within waitBound.
func waitNote(t *testing.T, notes <-chan mcpgo.JSONRPCNotification, what string, match func(mcpgo.JSONRPCNotification) bool) mcpgo.JSONRPCNotification {
	t.Helper()
	timer := time.NewTimer(waitBound)
	defer timer.Stop()
	for {
		select {
		case n := <-notes:
			if match(n) {
				return n
			}
		case <-timer.C:
			t.Fatalf("no %s within %v", what, waitBound)
		}
	}
}

// waitLog waits for a notifications/message with data want, from the fixture's logger.
func waitLog(t *testing.T, notes <-chan mcpgo.JSONRPCNotification, want string) {
	t.Helper()
	n := waitNote(t, notes, "log message "+want, func(n mcpgo.JSONRPCNotification) bool {
		return n.Method == string(mcpgo.MethodNotificationMessage) && n.Params.AdditionalFields["data"] == want
	})
	if n.Params.AdditionalFields["logger"] != "fixture" {
		t.Errorf("log logger = %v", n.Params.AdditionalFields["logger"])
	}
}
