package hook

import (
	"encoding/json"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// Claude is Claude Code's tool-hook protocol (PreToolUse; PermissionRequest too, when the
// user wires guardian to that event). PreToolUse replies are
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow|deny|ask","permissionDecisionReason":"…"}};
// no output means no opinion.
//
// Claude Code runs the tool when a hook fails in almost any way (exit 1, garbage, JSON without
// the right hookEventName). The fail-safe reply is therefore "ask" in the event's own format,
// or — when the event is not known, so no JSON could be trusted to match it — exit status 2
// with the reason on stderr, which Claude Code treats as a block for every tool event.
type Claude struct{}

// Parse reads Claude Code's hook payload. Bash, MCP tools and the file-writing tools (Write,
// Edit, MultiEdit, NotebookEdit) are reviewed; other tools get no opinion. A call from a
// sub-agent carries agent_id and agent_type; a payload without agent_id is the main agent,
// as Claude Code's hook schema documents ("absent for the main thread, even in --agent
// sessions").
func (Claude) Parse(stdin []byte, _ func(string) string) (Call, error) {
	return parsePayload("claude", stdin, true, func(payload) bool { return true })
}

// Answer renders res in the call's event format.
//
// A call marked NeverAllow (a file edit) gets no opinion where guardian had nothing against it:
// its allow, and an allow the agent policy held back — guardian never approves those edits
// anyway, so the policy must not turn every edit into a prompt.
func (Claude) Answer(c Call, res guardian.Result) Reply {
	if c.NeverAllow && (res.Decision == riskmodel.Allow || res.Status == guardian.StatusAgentPolicy) {
		return Reply{}
	}
	switch c.Event {
	case EventPreToolUse:
		return preToolUse(res.Decision, reason(res))
	case EventPermissionRequest:
		return permissionRequest(res.Decision, reason(res))
	}
	return Claude{}.Failsafe(c.Event, "unsupported hook event "+c.Event)
}

// Failsafe asks the human (PreToolUse), leaves the dialog to the human (PermissionRequest),
// or blocks with exit status 2 when the event is unknown.
func (Claude) Failsafe(event, why string) Reply {
	msg := clean("guardian could not review this tool call, so it asks you: " + why)
	switch event {
	case EventPreToolUse:
		return preToolUse(riskmodel.Ask, msg)
	case EventPermissionRequest:
		return Reply{} // no decision: Claude Code shows its permission dialog
	}
	return Reply{Exit: 2, Stderr: msg + "\n"}
}

// preToolUse is the PreToolUse reply: one JSON object and exit 0.
func preToolUse(d riskmodel.Decision, why string) Reply {
	type output struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	}
	dec := "ask" // an invalid decision must not become allow
	switch d {
	case riskmodel.Allow:
		dec = "allow"
	case riskmodel.Deny:
		dec = "deny"
	}
	return jsonReply(struct {
		HookSpecificOutput output `json:"hookSpecificOutput"`
	}{output{EventPreToolUse, dec, why}})
}

// permissionRequest is the PermissionRequest reply of both hosts: allow or deny with a message;
// ask is no output, which leaves the request to the host's prompt.
func permissionRequest(d riskmodel.Decision, why string) Reply {
	type decision struct {
		Behavior string `json:"behavior"`
		Message  string `json:"message,omitempty"`
	}
	type output struct {
		HookEventName string   `json:"hookEventName"`
		Decision      decision `json:"decision"`
	}
	var dd decision
	switch d {
	case riskmodel.Allow:
		dd = decision{Behavior: "allow"}
	case riskmodel.Deny:
		dd = decision{Behavior: "deny", Message: why}
	default:
		return Reply{}
	}
	return jsonReply(struct {
		HookSpecificOutput output `json:"hookSpecificOutput"`
	}{output{EventPermissionRequest, dd}})
}

// jsonReply encodes v as the single line a hook prints. The values are plain strings, so
// encoding cannot fail; if it ever did, the reply blocks (exit 2) rather than print nothing.
func jsonReply(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return Reply{Exit: 2, Stderr: "guardian: cannot encode the hook reply: " + err.Error() + "\n"}
	}
	return Reply{Stdout: append(b, '\n')}
}
