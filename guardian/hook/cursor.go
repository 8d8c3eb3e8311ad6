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

// EventCursorPreToolUse is Cursor's generic tool hook event.
const EventCursorPreToolUse = "preToolUse"

// Cursor is Cursor's preToolUse hook protocol (the IDE agent and cursor-agent CLI; not run
// here — there is no installable Cursor — so it rests on the recorded payload shapes in
// testdata/cursor, whose README names their sources). A hooks file is {"version":1,
// "hooks":{"preToolUse":[{"command":…,"timeout":SECONDS,"failClosed":true}]}} in
// ~/.cursor/hooks.json. The payload is {conversation_id, generation_id, hook_event_name,
// cwd, workspace_roots, tool_name, tool_input, tool_use_id, …}: tool names Shell, Read, Write,
// Edit, Delete, Grep, Glob, WebFetch, Task, and MCP:TOOL. The reply is
// {"permission":"allow|deny|ask","user_message":…,"agent_message":…}.
//
// Without "failClosed" a hook that crashes, times out or prints something invalid lets the
// tool run; with it, each of those blocks, and guardian's installer always sets it. Cursor
// accepts "ask" but does not enforce it for preToolUse, so guardian's ask is a deny whose
// message says a human should decide; guardian's allow is {} (no opinion), which leaves
// Cursor's own permissions and sandbox in charge.
type Cursor struct{}

// cursorPayload is Cursor's preToolUse payload; other keys are accepted.
type cursorPayload struct {
	ConversationID string          `json:"conversation_id"`
	GenerationID   string          `json:"generation_id"`
	HookEventName  string          `json:"hook_event_name"`
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
}

// cursorInput are the tool_input keys guardian reads.
type cursorInput struct {
	Command    *string `json:"command"`
	Cwd        string  `json:"cwd"`
	FilePath   string  `json:"file_path"`
	Path       string  `json:"path"`
	TargetFile string  `json:"target_file"`
	Pattern    *string `json:"pattern"`
	URL        string  `json:"url"`
}

// Parse reads a preToolUse payload: Shell → `bash -c COMMAND` in its cwd; Write, Edit, Delete →
// a write to the file; Read, Grep, Glob → the shell command that reads the same; WebFetch →
// `curl` of the URL (reviewed only to be stopped); MCP:TOOL → an MCP review (Cursor does not
// name the server in preToolUse, so the server is "cursor"); every other tool (Task, …) → no
// opinion. Cursor's payload says nothing of sub-agents, so the role stays unknown.
func (Cursor) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	var p cursorPayload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{Event: p.HookEventName, Caller: guardian.Caller{Host: "cursor", Session: p.ConversationID, Turn: p.ToolUseID}}
	if p.HookEventName != EventCursorPreToolUse {
		return c, fmt.Errorf("hook event %q is not %s", p.HookEventName, EventCursorPreToolUse)
	}
	if p.ToolName == "" {
		return c, errors.New(`hook payload has no "tool_name"`)
	}
	cwd := p.Cwd
	if cwd == "" && len(p.WorkspaceRoots) > 0 {
		cwd = p.WorkspaceRoots[0]
	}
	if mcpTool, ok := strings.CutPrefix(p.ToolName, "MCP:"); ok {
		var args map[string]any
		if len(p.ToolInput) > 0 && string(p.ToolInput) != "null" {
			if err := strictjson.Unmarshal(p.ToolInput, &args); err != nil {
				return c, fmt.Errorf("%s tool_input is not a JSON object: %w", p.ToolName, err)
			}
		}
		if mcpTool == "" {
			return c, fmt.Errorf("MCP tool name %q names no tool", p.ToolName)
		}
		r := guardian.MCPRequest(riskmodel.MCPRequest{Server: "cursor", Tool: mcpTool, Arguments: args})
		c.Request = &r
		return c, nil
	}
	switch p.ToolName {
	case "Shell", "Write", "Edit", "Delete", "Read", "Grep", "Glob", "WebFetch":
	default:
		return c, nil
	}
	var in cursorInput
	if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
		return c, fmt.Errorf("%s tool_input: %w", p.ToolName, err)
	}
	path := in.FilePath
	if path == "" {
		path = in.Path
	}
	if path == "" {
		path = in.TargetFile
	}
	exec := func(argv []string, dir, why string, neverAllow bool) {
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: dir, Justification: why})
		c.Request, c.NeverAllow = &r, neverAllow
	}
	switch p.ToolName {
	case "Shell":
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return c, errors.New(`Shell tool_input has no "command"`)
		}
		dir := cwd
		if in.Cwd != "" {
			dir = in.Cwd
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(cwd, dir)
			}
		}
		exec([]string{"bash", "-c", *in.Command}, dir, "", false)
	case "Write", "Edit", "Delete":
		if path == "" {
			return c, fmt.Errorf("%s tool_input has no file path", p.ToolName)
		}
		argv := []string{"tee", "--", path}
		if p.ToolName == "Delete" {
			argv = []string{"rm", "--", path}
		}
		exec(argv, cwd, "the agent's "+p.ToolName+" tool changes this file", true)
	case "Read":
		if path == "" {
			return c, errors.New("Read tool_input has no file path")
		}
		exec([]string{"cat", "--", path}, cwd, "the agent's Read tool reads this", true)
	case "Grep", "Glob":
		if in.Pattern == nil || *in.Pattern == "" {
			return c, fmt.Errorf(`%s tool_input has no "pattern"`, p.ToolName)
		}
		dir := path
		if dir == "" {
			dir = "."
		}
		argv := []string{"grep", "-r", "-e", *in.Pattern, "--", dir}
		if p.ToolName == "Glob" {
			pattern := *in.Pattern
			if !filepath.IsAbs(pattern) {
				pattern = filepath.Join(dir, pattern)
			}
			argv = []string{"ls", "-d", "--", pattern}
		}
		exec(argv, cwd, "the agent's "+p.ToolName+" tool reads this", true)
	case "WebFetch":
		if in.URL == "" {
			return c, errors.New(`WebFetch tool_input has no "url"`)
		}
		exec([]string{"curl", "-fsSL", "--", in.URL}, cwd, "the agent's WebFetch tool fetches this URL", true)
	}
	return c, nil
}

// NoVerdict is {}: Cursor's own permissions decide.
func (Cursor) NoVerdict(string) Reply { return Reply{Stdout: []byte("{}\n")} }

// Answer is {} for allow (and for what is reviewed only to be stopped), a deny with the reason
// otherwise; guardian's ask is a deny too, as Cursor does not enforce ask for preToolUse.
func (Cursor) Answer(c Call, res guardian.Result) Reply {
	switch {
	case res.Decision == riskmodel.Allow:
		return Cursor{}.NoVerdict("")
	case c.NeverAllow && res.Status == guardian.StatusAgentPolicy:
		return Cursor{}.NoVerdict("")
	case res.Decision == riskmodel.Deny:
		return cursorDeny(reason(res))
	}
	return cursorDeny(clean("guardian asks a human to decide, and Cursor does not ask from a preToolUse hook, so it is blocked: " + reason(res)))
}

// Failsafe denies in JSON with exit 0 (failClosed would also block a crash, but then the agent
// would not learn why).
func (Cursor) Failsafe(_, why string) Reply {
	return cursorDeny(clean("guardian could not review this tool call, so it is blocked: " + why))
}

// cursorDeny puts the reason in both messages: what reaches the model has been reported to be
// user_message rather than agent_message, so both carry it.
func cursorDeny(why string) Reply {
	return jsonReply(struct {
		Permission   string `json:"permission"`
		UserMessage  string `json:"user_message"`
		AgentMessage string `json:"agent_message"`
	}{"deny", why, why})
}

// cursorEntry is one hook in Cursor's hooks.json.
type cursorEntry struct {
	Command    string `json:"command"`
	Timeout    int    `json:"timeout,omitempty"`
	FailClosed bool   `json:"failClosed"`
}

// cursorHost is Cursor: a preToolUse entry with failClosed in the user's ~/.cursor/hooks.json.
func cursorHost() Host {
	return Host{
		Name:        "cursor",
		Title:       "Cursor",
		Summary:     "Cursor preToolUse with failClosed (Shell, Write, Edit, Delete, Read, Grep, Glob, WebFetch, MCP:* tools)",
		Protocol:    Cursor{},
		ConfigFlag:  "cursor-hooks",
		ConfigUsage: "Cursor hooks `FILE` (default ~/.cursor/hooks.json)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			dir, err := homeDir("", "", ".cursor", getenv)
			if err != nil {
				return nil, fmt.Errorf("%w (pass --cursor-hooks FILE)", err)
			}
			return []string{filepath.Join(dir, "hooks.json")}, nil
		},
		Install: func(files []File, command string, timeoutSec int) ([]File, error) {
			return editSettings(files, func(c []byte) ([]byte, bool, error) {
				out, err := editCursorHooks(c, &cursorEntry{Command: command, Timeout: timeoutSec, FailClosed: true})
				return out, err == nil && !sameJSON(c, out), err
			})
		},
		Uninstall: func(files []File) ([]File, error) {
			found, err := findCursor(files[0].Content)
			if err != nil || len(found) == 0 {
				return files, err
			}
			return editSettings(files, func(c []byte) ([]byte, bool, error) {
				out, err := editCursorHooks(c, nil)
				return out, true, err
			})
		},
		Done: "Cursor runs preToolUse hooks before every tool call of its agent; failClosed makes a crash or a timeout block. Check it with: guardian verify",
		Verify: Verifier{
			Event:          EventCursorPreToolUse,
			Tools:          []string{"Shell", "Write", "Edit", "Read", "MCP:example"},
			TimeoutUnit:    time.Second,
			DefaultTimeout: 30 * time.Second,
			Find:           func(files []File) ([]Installed, error) { return findCursor(files[0].Content) },
			Check: func(files []File, h Installed) []Finding {
				return []Finding{{OK: h.OnFailure == "failClosed", Message: `failClosed is set (without it a hook that crashes or times out lets the tool run)`}}
			},
			Payload: func(command, project string) string {
				b, _ := marshalNoEscape(map[string]any{"conversation_id": "guardian-verify", "generation_id": "guardian-verify",
					"hook_event_name": EventCursorPreToolUse, "cwd": project, "workspace_roots": []string{project},
					"tool_name": "Shell", "tool_input": map[string]any{"command": command, "cwd": project}, "tool_use_id": "guardian-verify"})
				return string(b)
			},
			Held:      "deny",
			Interpret: interpretCursor,
		},
	}
}

// editCursorHooks puts e (nil: nothing) in place of guardian's preToolUse entries in a hooks
// file, keeping every other key and entry; an event left empty is removed.
func editCursorHooks(content []byte, e *cursorEntry) ([]byte, error) {
	var mine json.RawMessage
	if e != nil {
		b, err := marshalNoEscape(e)
		if err != nil {
			return nil, err
		}
		mine = b
	}
	return editHookList(content, EventCursorPreToolUse, mine, func(raw json.RawMessage) bool {
		var old cursorEntry
		return json.Unmarshal(raw, &old) == nil && IsGuardianCommand(old.Command, "cursor")
	})
}

// findCursor lists guardian's preToolUse entries; OnFailure is "failClosed" when the entry has
// it set. An entry has no matcher here, so it sees every tool.
func findCursor(content []byte) ([]Installed, error) {
	if len(bytes.TrimSpace(content)) == 0 {
		return nil, nil
	}
	var cfg struct {
		Hooks map[string][]cursorEntry `json:"hooks"`
	}
	if err := json.Unmarshal(content, &cfg); err != nil {
		return nil, fmt.Errorf("not a Cursor hooks file: %w", err)
	}
	var out []Installed
	for i, h := range cfg.Hooks[EventCursorPreToolUse] {
		if IsGuardianCommand(h.Command, "cursor") {
			in := Installed{Command: h.Command, Timeout: h.Timeout, Index: i}
			if h.FailClosed {
				in.OnFailure = "failClosed"
			}
			out = append(out, in)
		}
	}
	return out, nil
}

// interpretCursor says what Cursor does with a preToolUse hook's reply with failClosed set, as
// its documentation and Rampart's notes describe it (not observed here): a non-zero exit or
// output that is not one JSON object blocks; "deny" denies; "ask" is not enforced for
// preToolUse (the tool runs); {} or "allow" lets Cursor's own permissions decide.
func interpretCursor(out []byte, code int) string {
	if code != 0 {
		return "blocked"
	}
	var reply struct {
		Permission string `json:"permission"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if dec.Decode(&reply) != nil || dec.More() {
		return "blocked"
	}
	switch reply.Permission {
	case "deny":
		return "deny"
	case "ask":
		return "runs (ask is not enforced for preToolUse)"
	case "", "allow":
		return "allow"
	}
	return "blocked"
}
