package server

import (
	"fmt"
	"net/http"

	"github.com/guardianhq/guardian/guardian"
)

// The headers that carry a review's guardian.Caller. The body format is fixed (the request
// envelope), so who is asking travels beside it. All are optional.
const (
	HeaderHost      = "Guardian-Host"       // the entry point: claude, codex, predicate, mcp-proxy, …
	HeaderSession   = "Guardian-Session"    // the host's session id
	HeaderTurn      = "Guardian-Turn"       // the host's turn or tool-use id
	HeaderAgent     = "Guardian-Agent"      // the agent's name (the host's agent_type), when the host says
	HeaderAgentRole = "Guardian-Agent-Role" // "main" or "subagent"; absent: the host did not say
	HeaderAgentID   = "Guardian-Agent-Id"   // the host's id of the sub-agent instance
	HeaderMonitor   = "Guardian-Monitor"    // "1": a monitor-mode hook, whose host gets no verdict
)

// MaxCallerField is the most bytes kept of each caller header; longer values are cut.
const MaxCallerField = 256

// DefaultCallerHost is the Caller.Host of a review that does not name its entry point.
const DefaultCallerHost = "http"

// callerFrom reads the caller headers. They are untrusted and end up in the audit log and the
// server's log, so control characters are dropped and each value is capped. An agent role
// other than "main" or "subagent" is an error (the request is refused): taken as unknown it
// would silently cost the caller the trust the agent policy gives its real role.
func callerFrom(h http.Header) (guardian.Caller, error) {
	role, err := guardian.ParseAgentRole(sanitize(h.Get(HeaderAgentRole), MaxCallerField))
	if err != nil {
		return guardian.Caller{}, fmt.Errorf("header %s: %w", HeaderAgentRole, err)
	}
	c := CleanCaller(guardian.Caller{Host: h.Get(HeaderHost), Session: h.Get(HeaderSession), Turn: h.Get(HeaderTurn),
		Agent: h.Get(HeaderAgent), AgentRole: role, AgentID: h.Get(HeaderAgentID), Monitor: h.Get(HeaderMonitor) == "1"})
	if c.Host == "" {
		c.Host = DefaultCallerHost
	}
	return c, nil
}

// setCaller writes c as headers, sanitized the same way (a header value with a control
// character would make the request fail in transport), leaving empty fields out.
func setCaller(h http.Header, c guardian.Caller) {
	fields := [...]struct{ name, value string }{{HeaderHost, c.Host}, {HeaderSession, c.Session}, {HeaderTurn, c.Turn},
		{HeaderAgent, c.Agent}, {HeaderAgentRole, string(c.AgentRole)}, {HeaderAgentID, c.AgentID}}
	for _, f := range fields {
		if v := sanitize(f.value, MaxCallerField); v != "" {
			h.Set(f.name, v)
		}
	}
	if c.Monitor {
		h.Set(HeaderMonitor, "1")
	}
}

// CleanCaller returns c with control characters and invalid UTF-8 dropped from every field,
// surrounding space trimmed and each field capped at MaxCallerField bytes. A caller's fields
// come from the agent host (headers here, an MCP client's name in the proxy) and end up in the
// audit log and in log lines, so every entry point cleans them the same way.
func CleanCaller(c guardian.Caller) guardian.Caller {
	for _, f := range []*string{&c.Host, &c.Session, &c.Turn, &c.Agent, &c.AgentID} {
		*f = sanitize(*f, MaxCallerField)
	}
	return c
}
