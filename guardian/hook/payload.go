package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/strictjson"
	"github.com/guardianhq/guardian/riskmodel"
)

// The hook events guardian answers.
const (
	EventPreToolUse        = "PreToolUse"
	EventPermissionRequest = "PermissionRequest"
)

// payload is the JSON both hosts write to a tool hook's stdin (docs/hooks.md).
// Unknown keys are ignored: hosts add fields between releases, and a hook that rejected a new
// field would fail every call.
type payload struct {
	SessionID      string          `json:"session_id"`
	TurnID         string          `json:"turn_id"` // Codex
	TranscriptPath string          `json:"transcript_path"`
	AgentID        string          `json:"agent_id"`   // both hosts: set only for a sub-agent
	AgentType      string          `json:"agent_type"` // both hosts: the agent's type (see identify)
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	MCPServer      *mcpServer      `json:"mcp_server"` // Claude Code, MCP tools only
}

// mcpServer is Claude Code's mcp_server object of an MCP tool call.
type mcpServer struct {
	Name string `json:"name"`
}

// shellInput is tool_input of a shell tool: Claude Code's Bash (command, description, timeout,
// run_in_background) and Codex's Bash (command, description = the model's justification).
type shellInput struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
}

// fileInput is tool_input of Claude Code's file-writing tools.
type fileInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

// fileTools are Claude Code's tools that write a file; guardian reviews where they write.
var fileTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// readToolInput is tool_input of Claude Code's Read, Grep and Glob (Read: file_path, offset,
// limit, pages; Grep: pattern, path, glob, output_mode, …; Glob: pattern, path). Only the
// fields that say what is read are taken; the others are ignored, as in every payload.
type readToolInput struct {
	FilePath string  `json:"file_path"`
	Pattern  *string `json:"pattern"`
	Path     string  `json:"path"`
}

// webInput is tool_input of Claude Code's WebFetch (url, prompt) and WebSearch (query,
// allowed_domains, blocked_domains).
type webInput struct {
	URL    string  `json:"url"`
	Prompt string  `json:"prompt"`
	Query  *string `json:"query"`
}

// claudeBuiltinServer is the MCP server name a Claude Code WebSearch call is reviewed under:
// the tool is Claude Code's own, not a configured server's.
const claudeBuiltinServer = "claude-code"

// parsePayload reads a hook payload and builds the call: Bash → an exec review of
// `bash -c COMMAND` in the payload's cwd; mcp__SERVER__TOOL → an MCP review of the call's
// arguments; the file tools (when files is set) → an exec review of a write to the path
// (`tee -- PATH`), which the rules judge by where it lands; anything else → no opinion.
//
// isMain says whether a payload without agent_id proves that the main agent asked (see
// identify); each host's adapter knows what its host guarantees.
func parsePayload(host string, stdin []byte, files bool, isMain func(payload) bool) (Call, error) {
	var p payload
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	// Keys are matched exactly and a repeated key is refused (strictjson): the host reads
	// the payload case-sensitively, and guardian must review the command the host runs.
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{
		Event:  p.HookEventName,
		Caller: guardian.Caller{Host: host, Session: p.SessionID, Turn: p.ToolUseID},
	}
	if c.Caller.Turn == "" {
		c.Caller.Turn = p.TurnID
	}
	identify(&c.Caller, p, isMain)
	c.Headless = p.PermissionMode == "dontAsk"
	if p.HookEventName == "" {
		return c, errors.New(`hook payload has no "hook_event_name"`)
	}
	if p.ToolName == "" {
		return c, errors.New(`hook payload has no "tool_name"`)
	}
	switch {
	case p.ToolName == "Bash":
		var in shellInput
		if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
			return c, fmt.Errorf("Bash tool_input: %w", err)
		}
		if in.Command == nil || strings.TrimSpace(*in.Command) == "" {
			return c, errors.New(`Bash tool_input has no "command"`)
		}
		r := guardian.ExecRequest(riskmodel.ExecRequest{
			Command:       []string{"bash", "-c", *in.Command},
			Cwd:           p.Cwd,
			Justification: in.Description,
		})
		c.Request = &r
	case strings.HasPrefix(p.ToolName, "mcp__"):
		server, tool, ok := splitMCPName(p.ToolName, p.MCPServer)
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
	case files && fileTools[p.ToolName]:
		var in fileInput
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
			Command:       []string{"tee", "--", path},
			Cwd:           p.Cwd,
			Justification: "the agent's " + p.ToolName + " tool writes this file",
		})
		c.Request, c.NeverAllow = &r, true
	case files && (p.ToolName == "Read" || p.ToolName == "Grep" || p.ToolName == "Glob"):
		r, err := readRequest(p)
		if err != nil {
			return c, err
		}
		c.Request, c.NeverAllow = &r, true
	case files && (p.ToolName == "WebFetch" || p.ToolName == "WebSearch"):
		r, err := webRequest(p)
		if err != nil {
			return c, err
		}
		c.Request, c.NeverAllow = &r, true
	}
	return c, nil
}

// readRequest reviews Claude Code's file-reading tools as the shell command that reads the
// same thing, so that the rules judge a secret store (~/.ssh/id_*, ~/.aws/credentials, .env)
// read by Read or searched by Grep exactly as they judge cat or grep of it: Read is
// `cat -- FILE`, Grep `grep -r -e PATTERN -- PATH` and Glob, which only lists names,
// `ls -d -- PATH/PATTERN` (PATH defaults to the cwd). These are reviewed only to be stopped:
// an allow is "no opinion" (NeverAllow), so Claude Code's own read permissions still decide.
func readRequest(p payload) (guardian.Request, error) {
	var in readToolInput
	if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
		return guardian.Request{}, fmt.Errorf("%s tool_input: %w", p.ToolName, err)
	}
	dir := in.Path
	if dir == "" {
		dir = "."
	}
	var argv []string
	switch p.ToolName {
	case "Read":
		if in.FilePath == "" {
			return guardian.Request{}, errors.New(`Read tool_input has no "file_path"`)
		}
		argv = []string{"cat", "--", in.FilePath}
	case "Grep":
		if in.Pattern == nil {
			return guardian.Request{}, errors.New(`Grep tool_input has no "pattern"`)
		}
		argv = []string{"grep", "-r", "-e", *in.Pattern, "--", dir}
	default: // Glob
		if in.Pattern == nil || *in.Pattern == "" {
			return guardian.Request{}, errors.New(`Glob tool_input has no "pattern"`)
		}
		pattern := *in.Pattern
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(dir, pattern)
		}
		argv = []string{"ls", "-d", "--", pattern}
	}
	return guardian.ExecRequest(riskmodel.ExecRequest{
		Command: argv, Cwd: p.Cwd,
		Justification: "the agent's " + p.ToolName + " tool reads this",
	}), nil
}

// webRequest reviews Claude Code's web tools for what they carry out. WebFetch GETs its url
// (the prompt stays with Claude Code's own model), so it is reviewed as `curl -fsSL -- URL`:
// a secret or local data in the URL is exfiltration by the same rules as for curl. WebSearch
// sends its query to a search provider; it is reviewed as a call of the tool WebSearch with
// the query as its argument, which the MCP rules search for secrets.
func webRequest(p payload) (guardian.Request, error) {
	var in webInput
	if err := strictjson.Unmarshal(p.ToolInput, &in); err != nil {
		return guardian.Request{}, fmt.Errorf("%s tool_input: %w", p.ToolName, err)
	}
	if p.ToolName == "WebFetch" {
		if in.URL == "" {
			return guardian.Request{}, errors.New(`WebFetch tool_input has no "url"`)
		}
		return guardian.ExecRequest(riskmodel.ExecRequest{
			Command: []string{"curl", "-fsSL", "--", in.URL}, Cwd: p.Cwd,
			Justification: "the agent's WebFetch tool fetches this URL",
		}), nil
	}
	if in.Query == nil {
		return guardian.Request{}, errors.New(`WebSearch tool_input has no "query"`)
	}
	return guardian.MCPRequest(riskmodel.MCPRequest{
		Server: claudeBuiltinServer, Tool: "WebSearch",
		Arguments: map[string]any{"query": *in.Query},
	}), nil
}

// splitMCPName splits mcp__SERVER__TOOL. A server name may itself contain "__"; Claude Code
// names the server in mcp_server, which settles it, and otherwise the first "__" ends the
// server name.
func splitMCPName(name string, srv *mcpServer) (server, tool string, ok bool) {
	rest := strings.TrimPrefix(name, "mcp__")
	if srv != nil && srv.Name != "" {
		if t, found := strings.CutPrefix(rest, srv.Name+"__"); found && t != "" {
			return srv.Name, t, true
		}
	}
	server, tool, found := strings.Cut(rest, "__")
	if !found || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// identify fills the caller's agent fields from the payload. Both hosts put agent_id (the
// sub-agent's instance) and agent_type (its type: "Explore", "general-purpose", "fork", a custom
// agent's name; Codex's "default", "explorer", a configured role) into the payload of every
// tool call a sub-agent makes, and leave agent_id out for the main agent (testdata/README.md).
// Claude Code also sets agent_type without agent_id on the main thread of a session started
// with --agent NAME. The environment is the same for both, so the payload is the only source.
//
// A payload without agent_id is the main agent only when isMain says the host guarantees it;
// otherwise the role stays unknown, which the agent policy trusts least.
func identify(c *guardian.Caller, p payload, isMain func(payload) bool) {
	c.Agent = p.AgentType
	switch {
	case p.AgentID != "":
		c.AgentRole, c.AgentID = guardian.AgentRoleSubagent, p.AgentID
	case isMain(p):
		c.AgentRole = guardian.AgentRoleMain
	}
}
