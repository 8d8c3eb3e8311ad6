package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/strictjson"
	"github.com/guardianhq/guardian/riskmodel"
)

// EventCopilotPreToolUse is GitHub Copilot CLI's own (camelCase) tool hook event; the
// PascalCase PreToolUse is its VS Code-compatible form, which VS Code's agent hooks use too.
const EventCopilotPreToolUse = "preToolUse"

// Copilot is GitHub Copilot CLI's preToolUse hook protocol (@github/copilot 1.0.102), which
// also answers the VS Code-compatible PreToolUse event that VS Code's agent hooks send.
//
// A hooks file is {"version":1,"hooks":{"preToolUse":[{"type":"command","bash":…,
// "timeoutSec":…}]}} in ~/.copilot/hooks/ (github/docs:
// content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md). The camelCase event
// sends {sessionId, timestamp (ms), cwd, toolName, toolArgs}; the PascalCase one sends Claude
// Code's {session_id, cwd, hook_event_name, tool_name, tool_input, tool_use_id}. The reply
// {"permissionDecision":"deny|ask|allow","permissionDecisionReason":…} is read by Copilot CLI,
// and VS Code reads the same inside hookSpecificOutput, so guardian writes both in one object.
//
// guardian never prints allow: a Copilot hook's allow overrides the user's --deny-tool rules
// and Copilot's own path check, so "no objection" is {}, an output with no permissionDecision
// (every field of PreToolUseHookOutput is optional), which leaves Copilot's permissions in
// charge. It is not Copilot's other no-decision reply, no output, so that guardian's every
// answer is one JSON object and the fail-closed wrapper can read an empty stdout as a failure. Copilot runs the tool when a hook times out or prints anything but one
// JSON object (docs/hosts.md has what a real run showed); a hook that exits non-zero blocks,
// but then the model learns only that the hook failed. So the fail-safe is guardian's ask in
// JSON with exit 0 — given before the deadline, which sits below the host timeout — and an ask
// in -p mode is a deny that carries guardian's reason.
type Copilot struct{}

// copilotPayload is the camelCase preToolUse payload.
type copilotPayload struct {
	SessionID string          `json:"sessionId"`
	Timestamp json.RawMessage `json:"timestamp"`
	Cwd       string          `json:"cwd"`
	ToolName  string          `json:"toolName"`
	ToolArgs  json.RawMessage `json:"toolArgs"`
}

// copilotShell is the bash tool's arguments.
type copilotShell struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
}

// copilotFile is the create and edit tools' arguments.
type copilotFile struct {
	Path string `json:"path"`
}

// Parse reads either event. The camelCase payload is recognised by its toolName (it has no
// event name); bash → `bash -c COMMAND` in cwd, create and edit → a write to path; other tools
// (view, grep, web_fetch, task, MCP tools, …) get no opinion. toolArgs is an object in what
// 1.0.102 sends, and a JSON string in the reference's examples; both are read. The PascalCase
// payload is read as Claude Code's (Bash, Write, Edit, mcp__SERVER__TOOL). Neither form names
// the agent: Copilot's preToolUse carries no sub-agent identity, so the role stays unknown.
func (Copilot) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	var probe struct {
		HookEventName string `json:"hook_event_name"`
	}
	if err := strictjson.Unmarshal(stdin, &probe); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	if probe.HookEventName != "" {
		c, err := parsePayload("copilot", stdin, true, func(payload) bool { return false })
		if err == nil && c.Event != EventPreToolUse {
			return c, fmt.Errorf("hook event %q is not %s", c.Event, EventPreToolUse)
		}
		return c, err
	}
	var p copilotPayload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{Event: EventCopilotPreToolUse, Caller: guardian.Caller{Host: "copilot", Session: p.SessionID}}
	if p.ToolName == "" {
		return c, errors.New(`hook payload has neither "toolName" nor "hook_event_name"`)
	}
	args := p.ToolArgs
	var s string
	if json.Unmarshal(args, &s) == nil {
		args = []byte(s)
	}
	switch p.ToolName {
	case "bash":
		var in copilotShell
		if err := strictjson.Unmarshal(args, &in); err != nil {
			return c, fmt.Errorf("bash toolArgs: %w", err)
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return c, errors.New(`bash toolArgs has no "command"`)
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", *in.Command}, Cwd: p.Cwd, Justification: in.Description})
		c.Request = &r
	case "create", "edit":
		var in copilotFile
		if err := strictjson.Unmarshal(args, &in); err != nil {
			return c, fmt.Errorf("%s toolArgs: %w", p.ToolName, err)
		}
		if in.Path == "" {
			return c, fmt.Errorf("%s toolArgs has no path", p.ToolName)
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{
			Command: []string{"tee", "--", in.Path}, Cwd: p.Cwd,
			Justification: "the agent's " + p.ToolName + " tool writes this file",
		})
		c.Request, c.NeverAllow = &r, true
	}
	return c, nil
}

// Answer is {} for allow (and for a file edit guardian has nothing against), a deny or an ask
// with the reason otherwise.
func (Copilot) Answer(c Call, res guardian.Result) Reply {
	switch {
	case res.Decision == riskmodel.Allow:
		return Copilot{}.NoVerdict(c.Event)
	case c.NeverAllow && res.Status == guardian.StatusAgentPolicy:
		return Copilot{}.NoVerdict(c.Event)
	case res.Decision == riskmodel.Deny:
		return copilotReply("deny", reason(res))
	}
	return copilotReply("ask", reason(res))
}

// Failsafe asks, in JSON, exit 0: Copilot asks the human, or denies with the reason in -p.
func (Copilot) Failsafe(_, why string) Reply {
	return copilotReply("ask", clean("guardian could not review this tool call, so it asks you: "+why))
}

// NoVerdict is {}: no permissionDecision, so Copilot's own permissions decide — and VS Code's,
// which reads an empty hookSpecificOutput the same way.
func (Copilot) NoVerdict(string) Reply { return Reply{Stdout: []byte("{}\n")} }

// copilotReply is one JSON object both Copilot CLI (top level) and VS Code
// (hookSpecificOutput) read.
func copilotReply(decision, why string) Reply {
	type output struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	}
	return jsonReply(struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		HookSpecificOutput       output `json:"hookSpecificOutput"`
	}{decision, why, output{EventPreToolUse, decision, why}})
}

// copilotEntry is one hook in a Copilot hooks file.
type copilotEntry struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// copilotFailClosed is the fail-closed wrapper for Copilot CLI, which runs the tool when a
// hook times out or prints anything but one JSON object: its block is guardian's fail-safe
// ask, and guardian's answers are {} (no objection) and a deny or an ask in JSON, with exit 0.
var copilotFailClosed = failClosed{
	protocol: Copilot{},
	event:    EventCopilotPreToolUse,
	accepted: []string{`'0:{}'`,
		`'0:{"permissionDecision":"deny","permissionDecisionReason":"'*'","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"'*'"}}'`,
		`'0:{"permissionDecision":"ask","permissionDecisionReason":"'*'","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"'*'"}}'`},
}

// copilotHost is GitHub Copilot CLI: guardian's own hooks file, guardian.json, in
// $COPILOT_HOME/hooks (else ~/.copilot/hooks), where Copilot loads every *.json. A repository's
// .github/hooks would also work, but Copilot ignores those silently in an untrusted folder.
func copilotHost() Host {
	return Host{
		Name:        "copilot",
		Title:       "GitHub Copilot CLI",
		Summary:     "GitHub Copilot CLI preToolUse (bash, create, edit; VS Code's PreToolUse too)",
		Protocol:    Copilot{},
		ConfigFlag:  "copilot-hooks",
		ConfigUsage: "Copilot CLI hooks `FILE` (default $COPILOT_HOME/hooks/guardian.json, else ~/.copilot/hooks/guardian.json)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			dir, err := homeDir("", "COPILOT_HOME", ".copilot", getenv)
			if err != nil {
				return nil, fmt.Errorf("%w (pass --copilot-hooks FILE)", err)
			}
			return []string{filepath.Join(dir, "hooks", "guardian.json")}, nil
		},
		Install: func(files []File, command string, timeoutSec int) ([]File, error) {
			out, err := editCopilotHooks(files[0].Content, &copilotEntry{Type: "command", Bash: copilotFailClosed.wrap(command, wrapperSeconds(timeoutSec)), TimeoutSec: timeoutSec})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", files[0].Path, err)
			}
			if sameJSON(files[0].Content, out) {
				out = files[0].Content
			}
			return withContents(files, out), nil
		},
		Uninstall: func(files []File) ([]File, error) {
			if len(bytes.TrimSpace(files[0].Content)) == 0 {
				return files, nil
			}
			found, err := findCopilot(files[0].Content)
			if err != nil || len(found) == 0 {
				return files, err
			}
			out, err := editCopilotHooks(files[0].Content, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", files[0].Path, err)
			}
			return withContents(files, out), nil
		},
		Done: "Copilot CLI loads every hooks file in that directory, in every permission mode (--allow-all-tools too); check it with: guardian verify",
		Verify: Verifier{
			Event:          EventCopilotPreToolUse,
			Tools:          []string{"bash", "create", "edit"},
			TimeoutUnit:    time.Second,
			DefaultTimeout: 30 * time.Second,
			Find: func(files []File) ([]Installed, error) {
				hooks, err := findCopilot(files[0].Content)
				return copilotFailClosed.unwrapInstalled(hooks), err
			},
			Check: func(_ []File, h Installed) []Finding {
				return []Finding{copilotFailClosed.finding(copilotHost().Verify, h, "copilot")}
			},
			Payload: func(command, project string) string {
				args, _ := marshalNoEscape(map[string]any{"command": command, "description": "guardian verify canary"})
				b, _ := marshalNoEscape(map[string]any{"sessionId": "guardian-verify", "timestamp": 1767225600000, "cwd": project,
					"toolName": "bash", "toolArgs": json.RawMessage(args)})
				return string(b)
			},
			Held:      "ask",
			Interpret: interpretCopilot,
		},
	}
}

// editCopilotHooks puts e (nil: nothing) in place of guardian's preToolUse hooks in a hooks
// file, keeping every other key and hook; an event left empty is removed.
func editCopilotHooks(content []byte, e *copilotEntry) ([]byte, error) {
	var mine json.RawMessage
	if e != nil {
		b, err := marshalNoEscape(e)
		if err != nil {
			return nil, err
		}
		mine = b
	}
	return editHookList(content, EventCopilotPreToolUse, mine, func(raw json.RawMessage) bool {
		var old copilotEntry
		return json.Unmarshal(raw, &old) == nil && IsGuardianCommand(old.Bash, "copilot")
	})
}

// findCopilot lists guardian's preToolUse hooks in a hooks file; Copilot has no matcher, so a
// hook sees every tool.
func findCopilot(content []byte) ([]Installed, error) {
	if len(content) == 0 {
		return nil, nil
	}
	var cfg struct {
		Hooks map[string][]copilotEntry `json:"hooks"`
	}
	if err := json.Unmarshal(content, &cfg); err != nil {
		return nil, fmt.Errorf("not a Copilot hooks file: %w", err)
	}
	var out []Installed
	for i, h := range cfg.Hooks[EventCopilotPreToolUse] {
		if IsGuardianCommand(h.Bash, "copilot") {
			out = append(out, Installed{Command: h.Bash, Timeout: h.TimeoutSec, Index: i})
		}
	}
	return out, nil
}

// interpretCopilot says what Copilot CLI 1.0.102 makes of a preToolUse hook's reply
// (docs/hosts.md): a non-zero exit blocks; no output, or one JSON object with no
// permissionDecision ({}, guardian's no objection), leaves Copilot's own permissions to decide,
// which verify reads as allow; exactly one JSON object decides by its case-sensitive
// permissionDecision; anything else runs the tool.
func interpretCopilot(out []byte, code int) string {
	if code != 0 {
		return "blocked"
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return "allow"
	}
	var reply struct {
		PermissionDecision string `json:"permissionDecision"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if dec.Decode(&reply) != nil || dec.More() {
		return "runs (fails open: the reply is not one JSON object)"
	}
	switch reply.PermissionDecision {
	case "":
		return "allow"
	case "allow", "deny", "ask":
		return reply.PermissionDecision
	}
	return fmt.Sprintf("runs (fails open: permissionDecision %q)", reply.PermissionDecision)
}
