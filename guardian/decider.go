package guardian

import (
	"context"
	"fmt"
	"time"
)

// Caller says who asked for a decision: the entry point and the agent session behind it. It is
// not part of what is judged (two callers asking the same thing get the same answer); it is
// recorded with the decision so that an audit record can be traced back to a host, a session
// and, where the host says so, the sub-agent that asked.
type Caller struct {
	// Host is the entry point: "claude", "codex", "predicate", "http", "cli", "mcp-proxy", ….
	Host string `json:"host,omitempty"`
	// Session is the host's session id (Claude Code session_id, CODEX_SESSION_ID, …).
	Session string `json:"session,omitempty"`
	// Turn is the host's turn or tool-use id within the session, when it has one.
	Turn string `json:"turn,omitempty"`
	// Agent names the agent that asked when the host distinguishes the main agent from
	// sub-agents ("" for the main agent or when the host does not say).
	Agent string `json:"agent,omitempty"`
}

// Decider answers one request for a caller. The in-process pipeline (wrapped by Audited) and a
// client of a running `guardian serve` are both Deciders, so an adapter does not care which of
// the two answers it. As with Pipeline.Review, the error is non-nil only when no decision was
// made; every adapter maps that error to its host's fail-safe answer, never to allow.
type Decider interface {
	Decide(ctx context.Context, req Request, c Caller) (Result, error)
}

// DeciderFunc adapts a function to the Decider interface.
type DeciderFunc func(ctx context.Context, req Request, c Caller) (Result, error)

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, req Request, c Caller) (Result, error) {
	return f(ctx, req, c)
}

// Decide reviews req; the pipeline itself has no use for the caller.
func (p *Pipeline) Decide(ctx context.Context, req Request, _ Caller) (Result, error) {
	return p.Review(ctx, req)
}

// AuditEntry is one decision as handed to an Auditor: what was asked, by whom, what was
// decided and how long it took.
type AuditEntry struct {
	Time    time.Time
	Request Request
	Caller  Caller
	Result  Result
	Latency time.Duration
}

// Auditor records decisions. Audit returns only once the entry is as durable as the auditor
// promises (the audit log: on disk), so a decision that has been answered has been recorded.
type Auditor interface {
	Audit(ctx context.Context, e AuditEntry) error
}

// Audited returns a Decider that asks d and records every decision with a before returning it.
// A decision that cannot be recorded is not returned: the error goes to the caller, whose
// fail-safe (ask, defer) applies — guardian never answers what it did not audit. now is the
// clock (time.Now in production).
func Audited(d Decider, a Auditor, now func() time.Time) Decider {
	return DeciderFunc(func(ctx context.Context, req Request, c Caller) (Result, error) {
		start := now()
		res, err := d.Decide(ctx, req, c)
		if err != nil {
			return Result{}, err
		}
		e := AuditEntry{Time: start, Request: req, Caller: c, Result: res, Latency: now().Sub(start)}
		if err := a.Audit(ctx, e); err != nil {
			return Result{}, fmt.Errorf("audit the %s decision: %w", res.Decision, err)
		}
		return res, nil
	})
}
