package hook

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/strictjson"
	"github.com/guardianhq/guardian/riskmodel"
)

// QwenMatcher is the PreToolUse matcher guardian installs for Qwen Code: the shell tool, the
// file-writing tools and every MCP tool (mcp__SERVER__TOOL, as in Claude Code). Qwen Code tests
// a matcher as an unanchored JavaScript regular expression (hookPlanner's matchesHookPattern),
// so it is anchored: "edit" alone would also select notebook_edit and any MCP tool named *edit*.
const QwenMatcher = "^(run_shell_command|write_file|edit|notebook_edit|mcp__.+)$"

// Qwen is Qwen Code's PreToolUse hook protocol (@qwen-code/qwen-code 0.24.4). Qwen Code is a
// Gemini CLI fork whose hooks are Claude Code's: the payload is {session_id, transcript_path,
// cwd, hook_event_name, timestamp, permission_mode, agent_id?, tool_name, tool_input,
// tool_use_id, tool_call_id?} (packages/core/src/hooks/hookEventHandler.ts,
// firePreToolUseEvent and createBaseInput), and the reply is Claude Code's
// hookSpecificOutput.permissionDecision, which guardian writes for deny and ask (its allow is
// {}: see Answer).
//
// Two things differ from Claude Code. The tools are Gemini's (run_shell_command, write_file,
// edit, notebook_edit; MCP tools are mcp__SERVER__TOOL). And Qwen Code fires PreToolUse when a
// call is about to *execute*, after its own approval step, so a hook's allow never widens what
// the user let Qwen do. A hook that exits 1, times out or prints something that is not JSON
// lets the tool run (hookRunner: "non-blocking error"; firePreToolUseHook proceeds on any hook
// failure); "ask" is a TUI confirmation, and a deny where nothing can prompt (-p, background
// sub-agents). So guardian's fail-safe is Claude Code's: an ask in JSON with exit 0, or exit 2
// with the reason on stderr before the event is known — Qwen reads exit 2's stderr as a deny.
type Qwen struct{}

// qwenShell is run_shell_command's tool_input.
type qwenShell struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
	Directory   string  `json:"directory"`
}

// qwenFile is tool_input of the file-writing tools.
type qwenFile struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

// Parse reads a PreToolUse payload: run_shell_command → `bash -c COMMAND` in the payload's cwd
// (or its directory); write_file, edit, notebook_edit → a write to the path; mcp__SERVER__TOOL →
// an MCP review. agent_id is set only inside a sub-agent (createBaseInput spreads it from the
// agent context, which is empty at top level), so a payload without it is the main agent.
// Qwen sends no agent type.
func (Qwen) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	var p payload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{Event: p.HookEventName, Caller: guardian.Caller{Host: "qwen", Session: p.SessionID, Turn: p.ToolUseID}}
	identify(&c.Caller, p, func(payload) bool { return true })
	if p.HookEventName != EventPreToolUse {
		return c, fmt.Errorf("hook event %q is not %s", p.HookEventName, EventPreToolUse)
	}
	switch {
	case p.ToolName == "":
		return c, errors.New(`hook payload has no "tool_name"`)
	case p.ToolName == "run_shell_command":
		var in qwenShell
		if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
			return c, fmt.Errorf("run_shell_command tool_input: %w", err)
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return c, errors.New(`run_shell_command tool_input has no "command"`)
		}
		cwd := p.Cwd
		if in.Directory != "" {
			cwd = in.Directory
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(p.Cwd, cwd)
			}
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", *in.Command}, Cwd: cwd, Justification: in.Description})
		c.Request = &r
	case p.ToolName == "write_file" || p.ToolName == "edit" || p.ToolName == "notebook_edit":
		var in qwenFile
		if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
			return c, fmt.Errorf("%s tool_input: %w", p.ToolName, err)
		}
		path := in.FilePath
		if path == "" {
			path = in.NotebookPath
		}
		if path == "" {
			return c, fmt.Errorf("%s tool_input has no file_path", p.ToolName)
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{
			Command: []string{"tee", "--", path}, Cwd: p.Cwd,
			Justification: "the agent's " + p.ToolName + " tool writes this file",
		})
		c.Request, c.NeverAllow = &r, true
	case strings.HasPrefix(p.ToolName, "mcp__"):
		server, tool, ok := splitMCPName(p.ToolName, nil)
		if !ok {
			return c, fmt.Errorf("MCP tool name %q is not mcp__SERVER__TOOL", p.ToolName)
		}
		var args map[string]any
		if len(p.ToolInput) > 0 && string(p.ToolInput) != "null" {
			if err := strictjson.Unmarshal(p.ToolInput, &args); err != nil {
				return c, fmt.Errorf("%s tool_input is not a JSON object: %w", p.ToolName, err)
			}
		}
		r := guardian.MCPRequest(riskmodel.MCPRequest{Server: server, Tool: tool, Arguments: args})
		c.Request = &r
	}
	return c, nil
}

// Answer is Claude Code's PreToolUse reply for deny and ask (hookSpecificOutput.permissionDecision
// with the reason), and {} — no decision — for allow and for a file write guardian has nothing
// against. Qwen Code 0.24.4 never tells a hook's allow apart from no decision when it runs a
// tool (firePreToolUseHook proceeds on both; nothing calls PreToolUseHookOutput.isAllowed), but
// it merges the outputs of an event's hooks key by key with the last hook winning
// (HookAggregator.mergeWithOrLogic), so an "allow" from guardian, installed after a user's own
// hook, would override that hook's deny (TestQwen/user's_deny_hook_kept showed it on the real
// host). {} adds no key. And it is never the empty reply, which the fail-closed wrapper reads
// as a guardian that failed.
func (Qwen) Answer(c Call, res guardian.Result) Reply {
	if res.Decision == riskmodel.Allow || (c.NeverAllow && res.Status == guardian.StatusAgentPolicy) {
		return Qwen{}.NoVerdict(c.Event)
	}
	r := Claude{}.Answer(c, res)
	if len(r.Stdout) == 0 && r.Exit == 0 {
		return Qwen{}.NoVerdict(c.Event)
	}
	return r
}

// Failsafe is Claude Code's: ask in JSON (a deny where Qwen cannot prompt), or exit 2 with the
// reason on stderr for any other event (Claude Code's empty reply to a PermissionRequest would
// be no decision, and Qwen's PermissionRequest is not guardian's hook).
func (Qwen) Failsafe(event, why string) Reply {
	if event == EventPermissionRequest {
		event = ""
	}
	return Claude{}.Failsafe(event, why)
}

// NoVerdict is {}: Qwen Code parses it as a hook output with no decision and runs the tool
// (firePreToolUseHook proceeds when the output is neither deny, ask nor continue:false), as it
// does for no output — which Qwen counts as a hook that returned nothing, and which the
// fail-closed wrapper reads as a failure. It is guardian's allow as well (Answer).
func (Qwen) NoVerdict(string) Reply { return Reply{Stdout: []byte("{}\n")} }

// qwenFailClosed is the fail-closed wrapper for Qwen Code, which runs the tool when a hook
// exits with a status other than 0 or 2, prints nothing or something that is not JSON, or
// times out: its block is guardian's fail-safe ask, and guardian's answers are {} (allow, no
// objection), a deny or an ask permissionDecision in JSON (exit 0), and exit 2 (the fail-safe
// before the event is known), which Qwen reads as a block whatever is on stdout.
var qwenFailClosed = failClosed{
	protocol: Qwen{},
	event:    EventPreToolUse,
	accepted: []string{`'0:{}'`,
		`'0:{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"'*'"}}'`,
		`'0:{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"'*'"}}'`,
		`'2:'*`},
}

// qwenHost is Qwen Code: a PreToolUse hook in the user's settings.json ($QWEN_HOME, else
// ~/.qwen); the timeout is in milliseconds, as in Gemini CLI.
func qwenHost() Host {
	return Host{
		Name:        "qwen",
		Title:       "Qwen Code",
		Summary:     "Qwen Code PreToolUse (run_shell_command, write_file, edit, notebook_edit, mcp__* tools)",
		Protocol:    Qwen{},
		ConfigFlag:  "qwen-settings",
		ConfigUsage: "Qwen Code settings `FILE` (default $QWEN_HOME/settings.json, else ~/.qwen/settings.json)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			dir, err := homeDir("", "QWEN_HOME", ".qwen", getenv)
			if err != nil {
				return nil, fmt.Errorf("%w (pass --qwen-settings FILE)", err)
			}
			return []string{filepath.Join(dir, "settings.json")}, nil
		},
		Install:   installSettingsHook(EventPreToolUse, "qwen", QwenMatcher, qwenFailClosed),
		Uninstall: uninstallSettingsHook(EventPreToolUse, "qwen"),
		Done:      "Qwen Code runs PreToolUse hooks in every approval mode (unless disableAllHooks is set); check it with: guardian verify",
		Verify: Verifier{
			Event:          EventPreToolUse,
			Tools:          []string{"run_shell_command", "write_file", "edit", "mcp__example__tool"},
			TimeoutUnit:    time.Millisecond,
			DefaultTimeout: 60 * time.Second,
			Find: func(files []File) ([]Installed, error) {
				hooks, err := FindInstalled(files[0].Content, EventPreToolUse, "qwen")
				return qwenFailClosed.unwrapInstalled(hooks), err
			},
			Check: func(_ []File, h Installed) []Finding {
				return []Finding{qwenFailClosed.finding(qwenHost().Verify, h, "qwen")}
			},
			Payload:   qwenPayload,
			Held:      "ask",
			Interpret: interpretQwen,
		},
	}
}

// qwenPayload is a run_shell_command call from the main agent as Qwen Code sends it.
func qwenPayload(command, project string) string {
	b, _ := marshalNoEscape(map[string]any{
		"session_id": "guardian-verify", "transcript_path": filepath.Join(project, "guardian-verify.jsonl"),
		"cwd": project, "hook_event_name": EventPreToolUse, "timestamp": "2026-01-01T00:00:00.000Z",
		"permission_mode": "default", "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": command, "description": "guardian verify canary"}, "tool_use_id": "guardian-verify",
	})
	return string(b)
}

// interpretQwen says what Qwen Code 0.24.4 makes of a hook's reply (hookRunner's close
// handler, docs/hosts.md): exit 2 blocks with stderr as the reason (stdout is not read); exit 0
// with a JSON object decides by its permissionDecision, and with no decision in it ({}), or no
// output at all, runs the tool as an allow does — Qwen fires PreToolUse after its own approval
// and reads no allow apart from no decision, so both are "allow"; exit 0 with other text, exit
// 1 and any other status run the tool too, failing open.
func interpretQwen(out []byte, code int) string {
	switch {
	case code == 2:
		return "blocked"
	case code != 0:
		return fmt.Sprintf("runs (fails open: exit status %d)", code)
	case len(bytes.TrimSpace(out)) == 0:
		return "allow"
	}
	var reply struct {
		Decision           string `json:"decision"`
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if strictjson.Unmarshal(bytes.TrimSpace(out), &reply) != nil {
		return "runs (fails open: the reply is not one JSON object)"
	}
	switch d := reply.HookSpecificOutput.PermissionDecision; d {
	case "allow", "deny", "ask":
		return d
	case "":
		if reply.Decision == "deny" || reply.Decision == "block" {
			return "deny"
		}
		return "allow"
	default:
		return fmt.Sprintf("runs (fails open: permissionDecision %q)", d)
	}
}
