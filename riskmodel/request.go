package riskmodel

import "fmt"

// Kind says which analysis a request gets and which level→decision mapping applies.
type Kind string

// The two request kinds of docs/design.md.
const (
	KindExec Kind = "exec"
	KindMCP  Kind = "mcp"
)

// ParseKind checks s against the known kinds.
func ParseKind(s string) (Kind, error) {
	switch Kind(s) {
	case KindExec, KindMCP:
		return Kind(s), nil
	}
	return "", fmt.Errorf("unknown request kind %q (want exec or mcp)", s)
}

// ExecRequest is a shell command an agent's sandbox blocked. Its JSON form is the "request"
// object of docs/formats.md's request envelope, so datasets, the CLI and the HTTP API share it.
type ExecRequest struct {
	// Command is the argv the agent wants to run, e.g. ["git","status"] or
	// ["bash","-lc","rm -rf build && make"]. Shell wrappers are unwrapped by the analysis.
	Command []string `json:"command"`
	// Cwd is the directory the command runs in; relative paths resolve against it, and it is
	// the workspace unless it is "/" or the home directory itself.
	Cwd string `json:"cwd,omitempty"`
	// Justification is the agent's own reason. It is untrusted text: it is shown and passed on
	// as data, never used to lower a risk.
	Justification string `json:"justification,omitempty"`
	// SandboxReason is why the sandbox blocked the command (network, write outside workspace…).
	SandboxReason string `json:"sandbox_reason,omitempty"`
}

// MCPRequest is an MCP tool call (or an elicitation about one) that needs approval.
type MCPRequest struct {
	Server          string           `json:"server"`
	Tool            string           `json:"tool"`
	Title           string           `json:"title,omitempty"`
	Arguments       map[string]any   `json:"arguments,omitempty"`
	ToolDescription string           `json:"tool_description,omitempty"`
	Annotations     *ToolAnnotations `json:"annotations,omitempty"`
	// Message is the human-facing question of an elicitation ("Allow posthog to run …?").
	Message string `json:"message,omitempty"`
	// Workspace is the project the call belongs to, as absolute directories: the MCP host's
	// roots or the project the proxy was configured with. It comes from the host and the
	// operator, never from the call, so a path the call itself names cannot widen what counts
	// as the workspace. Empty: the policy's workspaces, else a guess from the arguments.
	// Relative paths, "/" and the home directory itself are never a workspace and are ignored.
	Workspace []string `json:"workspace,omitempty"`
}

// ToolAnnotations are the MCP tool hints. They are claims made by the server, so a read-only
// hint lowers risk only when nothing in the call contradicts it, and a destructive hint always
// raises it.
type ToolAnnotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}
