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
	// Agent names the agent that asked, as the host names it: the agent_type of Claude Code
	// ("Explore", "general-purpose", "fork", a custom agent's name) or of Codex ("default",
	// "explorer", a configured role). A main agent has a name only when the host runs it as a
	// named agent (claude --agent NAME); "" otherwise or when the host does not say.
	Agent string `json:"agent,omitempty"`
	// AgentRole says whether the host identified the caller as its main agent or as a
	// sub-agent; AgentRoleUnknown when it did not. The agent policy ([agents]) depends on it.
	AgentRole AgentRole `json:"agent_role,omitempty"`
	// AgentID is the host's id of the sub-agent instance (the payload's agent_id), so that
	// audit records of one sub-agent run can be told from those of another of the same type.
	AgentID string `json:"agent_id,omitempty"`
	// Monitor marks a call from a hook installed in monitor mode (`hook install HOST
	// --monitor`): the decision is recorded but the host was given no verdict, so its own
	// permission flow decided. It travels with the caller so that the audit record — written
	// in-process or by guardian serve — says the decision was not enforced.
	Monitor bool `json:"monitor,omitempty"`
}

// AgentRole is what a host says about the agent that asked: its main agent, a sub-agent the
// main agent started, or nothing. It is a claim of the host (or of an HTTP client), which
// guardian cannot check; the agent policy therefore gives an unknown role the least trust.
type AgentRole string

// The agent roles.
const (
	// AgentRoleUnknown is a caller whose host did not say which agent asked (the predicate
	// protocol, an HTTP client without Guardian-Agent-Role, a payload that proves nothing).
	AgentRoleUnknown AgentRole = ""
	// AgentRoleMain is the agent the user started and talks to.
	AgentRoleMain AgentRole = "main"
	// AgentRoleSubagent is an agent started by another agent (Claude Code's Agent tool,
	// Codex's spawn_agent); the host reports it with an agent_id.
	AgentRoleSubagent AgentRole = "subagent"
)

// String names the role for messages and telemetry: "main", "subagent" or "unknown".
func (r AgentRole) String() string {
	if r == AgentRoleUnknown {
		return "unknown"
	}
	return string(r)
}

// ParseAgentRole reads a role as written on the wire ("main", "subagent", or "" for unknown).
// Any other value is an error rather than unknown, so that a client's typo is reported
// instead of silently costing it its trust.
func ParseAgentRole(s string) (AgentRole, error) {
	switch r := AgentRole(s); r {
	case AgentRoleUnknown, AgentRoleMain, AgentRoleSubagent:
		return r, nil
	}
	return "", fmt.Errorf(`unknown agent role %q: use "main" (the agent the user talks to), "subagent" (an agent another agent started) or leave it out when unknown`, s)
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

// AuditEntry is one decision as handed to an Auditor: what was asked, by whom, what was
// decided and how long it took.
type AuditEntry struct {
	Time    time.Time
	Request Request
	Caller  Caller
	Result  Result
	Latency time.Duration
	// Policy is the digest of the user config the decision was made under ("sha256:<hex>"
	// of its bytes), when the caller knows it: guardian serve sets it, so a team can tell
	// which version of its shared policy answered.
	Policy string
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
