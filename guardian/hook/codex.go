package hook

import (
	"path/filepath"
	"strings"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Codex is Codex's tool-hook protocol. Its PermissionRequest hook answers
// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow|deny","message":"…"}}}
// or nothing ("no verdict": Codex's auto-review or its prompt decides), so guardian's ask is
// no output. Its PreToolUse hook honours only deny, which guardian gives as exit status 2 with
// the reason on stderr (Codex's documented block, also read as deny by Claude Code).
//
// Codex treats a silent hook, exit 1, a timeout or garbage as "no verdict", so the fail-safe
// reply is no output: the human (or Codex's own reviewer) decides, never guardian's allow.
type Codex struct{}

// Parse reads Codex's hook payload: Bash (shell and exec commands, with the model's
// justification as description) and mcp__SERVER__TOOL (Codex's own approval of an MCP call).
// Codex has no file-writing tool hook; apply_patch and others get no opinion.
//
// A call from a sub-agent (spawn_agent) carries agent_id (the sub-agent's thread id) and
// agent_type (its role). Codex does not document that agent_id is absent only for the main
// agent, so a payload without it counts as the main agent only when its transcript is the
// session's own (the main thread's rollout file is named after session_id; a sub-agent's
// after its own thread id); else the agent stays unknown.
func (Codex) Parse(stdin []byte, _ func(string) string) (Call, error) {
	return parsePayload("codex", stdin, false, codexMain)
}

// codexMain reports whether a payload without agent_id is the main agent's.
func codexMain(p payload) bool {
	return p.SessionID != "" && strings.Contains(filepath.Base(p.TranscriptPath), p.SessionID)
}

// Answer renders res in the call's event format.
func (Codex) Answer(c Call, res guardian.Result) Reply {
	switch c.Event {
	case EventPermissionRequest:
		return permissionRequest(res.Decision, reason(res))
	case EventPreToolUse:
		if res.Decision == riskmodel.Deny {
			return Reply{Exit: 2, Stderr: reason(res) + "\n"}
		}
	}
	return Reply{}
}

// Failsafe gives no verdict, whatever the event.
func (Codex) Failsafe(_, why string) Reply {
	return Reply{Stderr: clean("guardian could not review this request, leaving it to you: "+why) + "\n"}
}
