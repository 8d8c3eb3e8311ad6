package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

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

// Parse reads Claude Code's hook payload. Bash, MCP tools, the file-writing tools (Write,
// Edit, MultiEdit, NotebookEdit), the file-reading tools (Read, Grep, Glob) and the web tools
// (WebFetch, WebSearch) are reviewed; other tools get no opinion. A call from a
// sub-agent carries agent_id and agent_type; a payload without agent_id is the main agent,
// as Claude Code's hook schema documents ("absent for the main thread, even in --agent
// sessions").
func (Claude) Parse(stdin []byte, _ func(string) string) (Call, error) {
	c, err := parsePayload("claude", stdin, true, func(payload) bool { return true })
	if err == nil {
		c.Outcome = claudeOutcomes[c.Event]
	}
	return c, err
}

// claudeOutcomes are the Claude Code events that report how a tool call ended, when guardian
// is also installed for them: the call ran (so a person approved guardian's ask at the
// prompt, or a permission rule let it through), or it was refused.
var claudeOutcomes = map[string]string{
	"PostToolUse":        OutcomeRan,
	"PostToolUseFailure": OutcomeRan,
	"PermissionDenied":   OutcomeDenied,
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

// claudeHost is Claude Code: a PreToolUse hook in settings.json, and hooks on the events
// that report how a call ended (ClaudeOutcomeEvents; docs/hooks.md).
func claudeHost() Host {
	return Host{
		Name:        "claude",
		Title:       "Claude Code",
		Summary:     "Claude Code PreToolUse (Bash, Write/Edit, mcp__* tools)",
		Protocol:    Claude{},
		ConfigFlag:  "settings",
		ConfigUsage: "Claude Code settings `FILE` (default ~/.claude/settings.json)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			home := getenv("HOME")
			if !filepath.IsAbs(home) {
				return nil, errors.New("$HOME is not set; pass --settings FILE")
			}
			return []string{filepath.Join(home, ".claude", "settings.json")}, nil
		},
		Install: func(files []File, command string, timeoutSec int) ([]File, error) {
			return editSettings(files, func(c []byte) ([]byte, bool, error) { return InstallClaude(c, command, timeoutSec) })
		},
		Uninstall: uninstallClaude,
		Done:      "check it with: guardian verify",
		Verify: Verifier{
			Event:          EventPreToolUse,
			Tools:          claudeReviewedTools,
			TimeoutUnit:    time.Second,
			DefaultTimeout: 60 * time.Second,
			Find: func(files []File) ([]Installed, error) {
				return FindInstalled(files[0].Content, EventPreToolUse, "claude")
			},
			Check: func(files []File, h Installed) []Finding {
				return append([]Finding{{
					OK: h.OnFailure == ClaudeOnFailure,
					Message: fmt.Sprintf(`onFailure is %q, want %q: otherwise Claude Code runs the tool when the hook crashes or times out`,
						h.OnFailure, ClaudeOnFailure),
				}}, claudeOutcomeFindings(files[0].Content, claudeReviewedTools)...)
			},
			Payload:   func(command, project string) string { return canaryPayload(EventPreToolUse, command, project) },
			Held:      "ask",
			Interpret: func(out []byte, code int) string { return interpretClaudeStyle("claude", out, code) },
		},
	}
}

// claudeReviewedTools are tool names guardian's Claude Code matchers must select.
var claudeReviewedTools = []string{"Bash", "mcp__example__tool", "Write", "Edit", "Read", "Grep", "Glob", "WebFetch", "WebSearch"}

// canaryPayload is a Bash call from the main agent as both Claude Code and Codex send it (a
// transcript named after the session, as the main thread's is).
func canaryPayload(event, command, project string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": "guardian-verify", "transcript_path": filepath.Join(project, "guardian-verify.jsonl"),
		"cwd": project, "hook_event_name": event, "tool_name": "Bash",
		"tool_input": map[string]any{"command": command, "description": "guardian verify canary"}, "tool_use_id": "guardian-verify",
	})
	return string(b)
}

// interpretClaudeStyle says what Claude Code or Codex makes of a hook's reply, as
// docs/hooks.md records: "allow", "deny", "ask", "blocked" (exit 2), "no verdict" (Codex: no
// output), or "runs (fails open: …)" for every reply the host would let the tool run on.
func interpretClaudeStyle(host string, out []byte, code int) string {
	if code == 2 {
		if host == "codex" {
			return "deny"
		}
		return "blocked"
	}
	if code != 0 {
		return fmt.Sprintf("runs (fails open: exit status %d)", code)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		if host == "codex" {
			return "no verdict"
		}
		return "no opinion"
	}
	var reply struct {
		HookSpecificOutput struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
			Decision           struct {
				Behavior string `json:"behavior"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&reply); err != nil || dec.More() {
		return "runs (fails open: the reply is not one JSON object)"
	}
	o := reply.HookSpecificOutput
	switch {
	case host == "claude" && o.HookEventName == EventPreToolUse:
		switch o.PermissionDecision {
		case "allow", "deny", "ask":
			return o.PermissionDecision
		}
		return fmt.Sprintf("runs (fails open: permissionDecision %q)", o.PermissionDecision)
	case o.HookEventName == EventPermissionRequest:
		switch o.Decision.Behavior {
		case "allow", "deny":
			return o.Decision.Behavior
		}
		return fmt.Sprintf("no verdict (behavior %q)", o.Decision.Behavior)
	}
	return fmt.Sprintf("runs (fails open: hookEventName %q)", o.HookEventName)
}
