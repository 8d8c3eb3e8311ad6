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

// EventBeforeTool is Gemini CLI's tool hook event.
const EventBeforeTool = "BeforeTool"

// GeminiMatcher is the BeforeTool matcher guardian installs: the shell tool, the two
// file-writing tools and every MCP tool (named mcp_SERVER_TOOL). Gemini CLI tests the matcher
// as an unanchored JavaScript regular expression, so it is anchored here: "replace" alone would
// also select any tool whose name contains it.
const GeminiMatcher = "^(run_shell_command|write_file|replace|mcp_.+)$"

// Gemini is Gemini CLI's BeforeTool hook protocol (@google/gemini-cli 0.61.0). The payload is
// {session_id, transcript_path, cwd, hook_event_name, timestamp, tool_name, tool_input,
// mcp_context?, original_request_name?} (packages/core/src/hooks/hookEventHandler.ts,
// fireBeforeToolEvent); the reply is {"decision":"deny","reason":…} to block, and guardian
// prints {} (no decision) when it has no objection, so that Gemini's own approval mode still
// decides — guardian's allow never widens what the user let Gemini do.
//
// Gemini CLI runs the tool when a hook exits 1, times out or prints anything that is not JSON
// (packages/core/src/hooks/hookRunner.ts; docs/hosts.md has what a real run showed). So the
// fail-safe reply is a deny in JSON *and* exit status 2 with the reason on stderr, which
// Gemini also reads as a block. Gemini's "ask" hangs a headless run until it is killed, so
// guardian's ask is a deny whose reason says a human should decide. A guardian that cannot
// give even its fail-safe — hung, crashed, missing — is blocked by the fail-closed wrapper the
// installer puts around the command (geminiFailClosed).
type Gemini struct{}

// geminiPayload is Gemini CLI's BeforeTool payload.
type geminiPayload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Timestamp      string          `json:"timestamp"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	MCPContext     *struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context"`
}

// geminiShell is run_shell_command's tool_input.
type geminiShell struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
	DirPath     string  `json:"dir_path"`
}

// geminiFile is write_file's and replace's tool_input.
type geminiFile struct {
	FilePath string `json:"file_path"`
}

// Parse reads a BeforeTool payload: run_shell_command → `bash -c COMMAND` in the payload's cwd
// (or its dir_path); write_file and replace → a write to file_path; mcp_SERVER_TOOL → an MCP
// review (mcp_context names server and tool exactly; without it the first "_" after mcp_ ends
// the server name). Gemini says nothing about sub-agents, so the agent stays unknown.
func (Gemini) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	var p geminiPayload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{Event: p.HookEventName, Caller: guardian.Caller{Host: "gemini", Session: p.SessionID}}
	if p.HookEventName != EventBeforeTool {
		return c, fmt.Errorf("hook event %q is not %s", p.HookEventName, EventBeforeTool)
	}
	switch {
	case p.ToolName == "":
		return c, errors.New(`hook payload has no "tool_name"`)
	case p.ToolName == "run_shell_command":
		var in geminiShell
		if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
			return c, fmt.Errorf("run_shell_command tool_input: %w", err)
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return c, errors.New(`run_shell_command tool_input has no "command"`)
		}
		cwd := p.Cwd
		if in.DirPath != "" {
			cwd = in.DirPath
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(p.Cwd, cwd)
			}
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", *in.Command}, Cwd: cwd, Justification: in.Description})
		c.Request = &r
	case p.ToolName == "write_file" || p.ToolName == "replace":
		var in geminiFile
		if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
			return c, fmt.Errorf("%s tool_input: %w", p.ToolName, err)
		}
		if in.FilePath == "" {
			return c, fmt.Errorf("%s tool_input has no file_path", p.ToolName)
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{
			Command: []string{"tee", "--", in.FilePath}, Cwd: p.Cwd,
			Justification: "the agent's " + p.ToolName + " tool writes this file",
		})
		c.Request, c.NeverAllow = &r, true
	case strings.HasPrefix(p.ToolName, "mcp_"):
		server, tool, found := strings.Cut(strings.TrimPrefix(p.ToolName, "mcp_"), "_")
		if p.MCPContext != nil && p.MCPContext.ToolName != "" {
			server, tool, found = p.MCPContext.ServerName, p.MCPContext.ToolName, true
		}
		if !found || tool == "" {
			return c, fmt.Errorf("MCP tool name %q is not mcp_SERVER_TOOL", p.ToolName)
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

// NoVerdict is {}: Gemini's "no decision", so its own approval mode decides.
func (Gemini) NoVerdict(string) Reply { return Reply{Stdout: []byte("{}\n")} }

// Answer is {} for allow (and for a file edit guardian has nothing against), a deny with the
// reason otherwise.
func (Gemini) Answer(c Call, res guardian.Result) Reply {
	switch {
	case res.Decision == riskmodel.Allow:
		return Reply{Stdout: []byte("{}\n")}
	case c.NeverAllow && res.Status == guardian.StatusAgentPolicy:
		return Reply{Stdout: []byte("{}\n")}
	case res.Decision == riskmodel.Deny:
		return geminiDeny(reason(res), 0)
	}
	return geminiDeny(clean("guardian asks a human to decide, and Gemini CLI cannot ask from a hook, so it is blocked: "+reason(res)), 0)
}

// Failsafe blocks twice over: a deny in JSON and exit status 2 with the reason on stderr.
func (Gemini) Failsafe(_, why string) Reply {
	r := geminiDeny(clean("guardian could not review this tool call, so it is blocked: "+why), 2)
	r.Stderr = string(bytes.TrimSpace(r.Stdout)) + "\n"
	return r
}

func geminiDeny(why string, exit int) Reply {
	r := jsonReply(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{"deny", why})
	if r.Exit == 0 {
		r.Exit = exit
	}
	return r
}

// geminiFailClosed is the fail-closed wrapper for Gemini CLI, which runs the tool when a hook
// exits 1, prints something that is not JSON or times out: its block is guardian's fail-safe
// deny (JSON, exit 2), and guardian's answers are {} and a deny, with exit 0 or (the fail-safe)
// exit 2.
var geminiFailClosed = failClosed{
	protocol: Gemini{},
	event:    EventBeforeTool,
	accepted: []string{`'0:{}'`, `[02]':{"decision":"deny","reason":"'*'"}'`},
}

// geminiHost is Gemini CLI: a BeforeTool hook in the user's settings.json
// ($GEMINI_CLI_HOME/.gemini, else ~/.gemini); the timeout is in milliseconds.
func geminiHost() Host {
	return Host{
		Name:        "gemini",
		Title:       "Gemini CLI",
		Summary:     "Gemini CLI BeforeTool (run_shell_command, write_file, replace, mcp_* tools)",
		Protocol:    Gemini{},
		ConfigFlag:  "gemini-settings",
		ConfigUsage: "Gemini CLI settings `FILE` (default $GEMINI_CLI_HOME/.gemini/settings.json, else ~/.gemini/settings.json)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			home := getenv("GEMINI_CLI_HOME")
			if home == "" {
				home = getenv("HOME")
			}
			if !filepath.IsAbs(home) {
				return nil, errors.New("neither $GEMINI_CLI_HOME nor $HOME is set; pass --gemini-settings FILE")
			}
			return []string{filepath.Join(home, ".gemini", "settings.json")}, nil
		},
		Install:   installSettingsHook(EventBeforeTool, "gemini", GeminiMatcher, geminiFailClosed),
		Uninstall: uninstallSettingsHook(EventBeforeTool, "gemini"),
		Done:      "Gemini CLI runs BeforeTool hooks in every approval mode; check it with: guardian verify",
		Verify: Verifier{
			Event:          EventBeforeTool,
			Tools:          []string{"run_shell_command", "write_file", "replace", "mcp_example_tool"},
			TimeoutUnit:    time.Millisecond,
			DefaultTimeout: 60 * time.Second,
			Find: func(files []File) ([]Installed, error) {
				hooks, err := FindInstalled(files[0].Content, EventBeforeTool, "gemini")
				return geminiFailClosed.unwrapInstalled(hooks), err
			},
			Check: func(_ []File, h Installed) []Finding {
				return []Finding{geminiFailClosed.finding(geminiHost().Verify, h, "gemini")}
			},
			Payload: func(command, project string) string {
				b, _ := json.Marshal(map[string]any{
					"session_id": "guardian-verify", "transcript_path": filepath.Join(project, "guardian-verify.json"),
					"cwd": project, "hook_event_name": EventBeforeTool, "timestamp": "2026-01-01T00:00:00.000Z",
					"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command, "description": "guardian verify canary"},
				})
				return string(b)
			},
			Held:      "deny",
			Interpret: interpretGemini,
		},
	}
}

// interpretGemini says what Gemini CLI 0.61.0 makes of a hook's reply (docs/hosts.md): JSON on
// stdout decides whatever the exit status; without it exit 2 (or above, with output) blocks,
// and exit 0 with garbage, exit 1 and a silent exit ≥ 3 run the tool.
func interpretGemini(out []byte, code int) string {
	var reply struct {
		Decision string `json:"decision"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if len(bytes.TrimSpace(out)) > 0 && dec.Decode(&reply) == nil && !dec.More() {
		switch reply.Decision {
		case "deny", "block":
			return "deny"
		case "", "allow", "approve":
			return "allow"
		}
		return fmt.Sprintf("decision %q", reply.Decision)
	}
	switch {
	case code >= 2 && len(bytes.TrimSpace(out)) > 0, code == 2:
		return "blocked"
	case code == 0 && len(bytes.TrimSpace(out)) == 0:
		return "allow"
	}
	return fmt.Sprintf("runs (fails open: exit status %d, stdout not JSON)", code)
}
