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

// EventClineToolCall is the hookName of Cline's PreToolUse hook as the CLI sends it.
const EventClineToolCall = "tool_call"

// Cline is Cline CLI's PreToolUse hook protocol (cline 3.0.65 on @cline/core 0.0.86). A hook
// is an executable file named after its event, PreToolUse, in $CLINE_DIR/hooks (else
// ~/.cline/hooks); Cline runs it before every tool call with {hookName:"tool_call",
// clineVersion, timestamp, taskId, sessionContext, workspaceRoots, userId, agent_id,
// parent_agent_id, iteration, tool_call:{id, name, input}, preToolUse:{toolName,
// parameters}} on stdin and reads {"cancel":true,"errorMessage":…} to stop (anything else,
// {} included, lets the call run).
//
// Cline has no "ask" from a hook (review is parsed but not acted on), and its cancel does not
// refuse one call: it aborts the whole task ("aborted by another client"), and the model is
// told nothing. Cline reads only the hook's stdout: nothing, something that is not JSON, or
// running past Cline's 120 s limit lets the tool run, whatever the exit status (docs/hosts.md
// has what the real host showed). So every answer guardian gives is JSON with exit 0 — a deny
// and an ask are a cancel, and the fail-safe is a cancel too, given before guardian's own
// deadline — and the hook script the installer writes (clineScript) cancels on every failure
// guardian cannot answer for itself.
type Cline struct{}

// clinePayload is the part of Cline's payload guardian reads; every other key is accepted.
type clinePayload struct {
	HookName       string   `json:"hookName"`
	TaskID         string   `json:"taskId"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	AgentID        string   `json:"agent_id"`
	ParentAgentID  *string  `json:"parent_agent_id"`
	ToolCall       *struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_call"`
}

// clineInput are the arguments of Cline's built-in tools guardian reads: run_commands
// {commands: [string]}, editor {path, …}, read_files {files: [{path}]}, fetch_web_content
// {requests: [{url, prompt}]}, search_codebase {queries}.
type clineInput struct {
	Commands []json.RawMessage `json:"commands"`
	Path     string            `json:"path"`
	Files    []struct {
		Path string `json:"path"`
	} `json:"files"`
	Requests []struct {
		URL string `json:"url"`
	} `json:"requests"`
	Queries []string `json:"queries"`
}

// clineNoOpinion are Cline's built-in tools guardian leaves to Cline: asking the user, and
// starting and coordinating sub-agents (whose own tool calls reach the hook too).
func clineNoOpinion(tool string) bool {
	return tool == "ask_question" || tool == "spawn_agent" || strings.HasPrefix(tool, "team_")
}

// Parse reads a tool_call payload: run_commands → `bash -c` of the commands, one a line, in
// the first workspace root; editor → a write to path; read_files → `cat` of the files;
// search_codebase → `grep -r -E` of the queries in the workspace; fetch_web_content → `curl` of
// the URLs (reviewed only to be stopped, like Claude Code's file and web tools); the tools in
// clineNoOpinion → no opinion; any other tool → an MCP review (server and tool split at the
// first "__", else server "cline"). parent_agent_id null is the main agent, a value a
// sub-agent whose id is agent_id.
func (Cline) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the host sent no hook payload on stdin")
	}
	var p clinePayload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("hook payload is not a JSON object as the host reads it: %w", err)
	}
	c := Call{Event: p.HookName, Caller: guardian.Caller{Host: "cline", Session: p.TaskID}}
	if p.HookName != EventClineToolCall {
		return c, fmt.Errorf("hook %q is not %s (PreToolUse)", p.HookName, EventClineToolCall)
	}
	if p.ToolCall == nil || p.ToolCall.Name == "" {
		return c, errors.New(`hook payload has no "tool_call" with a name`)
	}
	c.Caller.Turn = p.ToolCall.ID
	switch {
	case p.ParentAgentID != nil && *p.ParentAgentID != "":
		c.Caller.AgentRole, c.Caller.AgentID = guardian.AgentRoleSubagent, p.AgentID
	case p.AgentID != "":
		c.Caller.AgentRole = guardian.AgentRoleMain
	}
	tool := p.ToolCall.Name
	if clineNoOpinion(tool) {
		return c, nil
	}
	cwd := ""
	if len(p.WorkspaceRoots) > 0 {
		cwd = p.WorkspaceRoots[0]
	}
	exec := func(argv []string, why string, neverAllow bool) {
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: cwd, Justification: why})
		c.Request, c.NeverAllow = &r, neverAllow
	}
	var in clineInput
	switch tool {
	case "run_commands", "editor", "read_files", "fetch_web_content", "search_codebase":
		if err := strictjson.Unmarshal(p.ToolCall.Input, &in); err != nil {
			return c, fmt.Errorf("%s input: %w", tool, err)
		}
	}
	switch tool {
	case "run_commands":
		var lines []string
		for _, raw := range in.Commands {
			cmd, err := clineCommand(raw)
			if err != nil {
				return c, err
			}
			lines = append(lines, cmd)
		}
		if len(lines) == 0 {
			return c, errors.New(`run_commands input has no "commands"`)
		}
		exec([]string{"bash", "-c", strings.Join(lines, "\n")}, "", false)
	case "editor":
		if in.Path == "" {
			return c, errors.New(`editor input has no "path"`)
		}
		exec([]string{"tee", "--", in.Path}, "the agent's editor tool writes this file", true)
	case "read_files":
		argv := []string{"cat", "--"}
		for _, f := range in.Files {
			argv = append(argv, f.Path)
		}
		if len(argv) == 2 {
			return c, errors.New(`read_files input has no "files"`)
		}
		exec(argv, "the agent's read_files tool reads these", true)
	case "search_codebase":
		argv := []string{"grep", "-r", "-E"}
		for _, q := range in.Queries {
			argv = append(argv, "-e", q)
		}
		exec(append(argv, "--", "."), "the agent's search_codebase tool searches the workspace", true)
	case "fetch_web_content":
		argv := []string{"curl", "-fsSL", "--"}
		for _, r := range in.Requests {
			argv = append(argv, r.URL)
		}
		if len(argv) == 3 {
			return c, errors.New(`fetch_web_content input has no "requests"`)
		}
		exec(argv, "the agent's fetch_web_content tool fetches these URLs", true)
	default:
		var args map[string]any
		if len(p.ToolCall.Input) > 0 && string(p.ToolCall.Input) != "null" {
			if err := strictjson.Unmarshal(p.ToolCall.Input, &args); err != nil {
				return c, fmt.Errorf("%s input is not a JSON object: %w", tool, err)
			}
		}
		server, name, found := strings.Cut(tool, "__")
		if !found || server == "" || name == "" {
			server, name = "cline", tool
		}
		r := guardian.MCPRequest(riskmodel.MCPRequest{Server: server, Tool: name, Arguments: args})
		c.Request = &r
	}
	return c, nil
}

// clineCommand is one entry of run_commands: a string, or {"command": …} as older releases
// sent.
func clineCommand(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return "", errors.New("run_commands has an empty command")
		}
		return s, nil
	}
	var o struct {
		Command *string `json:"command"`
	}
	if err := strictjson.Unmarshal(raw, &o); err != nil || o.Command == nil || strings.TrimSpace(*o.Command) == "" {
		return "", fmt.Errorf("run_commands entry %s is neither a command string nor {\"command\": …}", abbreviate(string(raw)))
	}
	return *o.Command, nil
}

func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// NoVerdict is {}: Cline goes on with its own approval settings.
func (Cline) NoVerdict(string) Reply { return Reply{Stdout: []byte("{}\n")} }

// Answer is {} for allow (and for a read, write or fetch guardian has nothing against), a
// cancel with the reason otherwise: Cline cannot ask, so guardian's ask is a cancel too.
func (Cline) Answer(c Call, res guardian.Result) Reply {
	switch {
	case res.Decision == riskmodel.Allow:
		return Cline{}.NoVerdict("")
	case c.NeverAllow && res.Status == guardian.StatusAgentPolicy:
		return Cline{}.NoVerdict("")
	case res.Decision == riskmodel.Deny:
		return clineCancel(reason(res))
	}
	return clineCancel(clean("guardian asks a human to decide, and Cline cannot ask from a hook, so the task is stopped: " + reason(res)))
}

// Failsafe cancels, in JSON with exit 0, so that the script passes guardian's reason on.
func (Cline) Failsafe(_, why string) Reply {
	return clineCancel(clean("guardian could not review this tool call, so the task is stopped: " + why))
}

func clineCancel(why string) Reply {
	return jsonReply(struct {
		Cancel       bool   `json:"cancel"`
		ErrorMessage string `json:"errorMessage"`
	}{true, why})
}

// clineScriptMarker opens guardian's hook script.
const clineScriptMarker = "#!/bin/sh\n# guardian's Cline PreToolUse hook (guardian hook install cline). Do not edit: reinstall instead."

// clineScript is the hook script. Cline reads only the hook's stdout, never its exit status
// (@cline/core's beforeTool: an empty stdout, output that is not JSON and a timeout all let the
// call run), so a guardian that cannot answer — missing, crashing, killed, printing garbage —
// would let every call through. The script is what closes that, as OpenCode's plugin does: it
// runs the hook command (itself again with --run, so that the command stays on a line of its
// own, exactly as installed) inside guardian's fail-closed program (clineFailClosed), under
// coreutils' timeout where there is one, which prints the command's output only when the
// command exits 0 with one line that is one of guardian's two answers, {} or a cancel, and a
// cancel of its own on anything else. The command is repeated as a JSON string in a comment,
// which is what verify and the installers read back.
func clineScript(command string, timeoutMS int) []byte {
	sec := (timeoutMS + 999) / 1000
	return []byte(clineScriptMarker + `
# Cline runs this before every tool call with the call on stdin. It prints guardian's answer,
# {} to let the call run or {"cancel":true,…} to stop the task, and a cancel of its own on any
# failure: guardian missing, crashing or killed, no answer within the timeout, an answer that is
# not guardian's (Cline would run the tool on each). Remove it with:
#   guardian hook uninstall cline --write
# command: ` + jsString(command) + `
# timeout-ms: ` + fmt.Sprint(timeoutMS) + `
if [ "${1-}" = --run ]; then
` + command + `
exit
fi
` + clineFailClosed.check(`/bin/sh "$0" --run`, fmt.Sprint(sec), Installed{Command: command}.Monitor()))
}

// clineFailClosed is the fail-closed program for Cline: its cancel is the block, and guardian's
// answers are {} and a cancel, with exit 0.
var clineFailClosed = failClosed{
	protocol: Cline{},
	event:    EventClineToolCall,
	accepted: []string{`'0:{}'`, `'0:{"cancel":true,"errorMessage":"'*'"}'`},
}

// clineFile is guardian's hook script as an owned file.
var clineFile = ownedFile{
	host:      "cline",
	marker:    clineScriptMarker,
	render:    clineScript,
	commandRE: lazyRegexp(`(?m)^# command: (".*")$`),
	timeoutRE: lazyRegexp(`(?m)^# timeout-ms: ([0-9]+)$`),
}

// clineHost is Cline CLI: guardian's executable PreToolUse script in $CLINE_DIR/hooks (else
// ~/.cline/hooks). Cline's tool-hook timeout is fixed at 120 s; the installed --timeout only
// sets guardian's own deadline, which is what answers first.
func clineHost() Host {
	return Host{
		Name:        "cline",
		Title:       "Cline CLI",
		Summary:     "Cline CLI PreToolUse (run_commands, editor, read_files, search_codebase, fetch_web_content, MCP tools)",
		Protocol:    Cline{},
		ConfigFlag:  "cline-hook",
		ConfigUsage: "Cline hook script `FILE` (default $CLINE_DIR/hooks/PreToolUse, else ~/.cline/hooks/PreToolUse)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			dir, err := homeDir("", "CLINE_DIR", ".cline", getenv)
			if err != nil {
				return nil, fmt.Errorf("%w (pass --cline-hook FILE)", err)
			}
			return []string{filepath.Join(dir, "hooks", "PreToolUse")}, nil
		},
		Owned:      true,
		Executable: true,
		Install:    clineFile.install,
		Uninstall:  clineFile.uninstall,
		Done:       "Cline runs the PreToolUse hook before every tool call (not with --yolo, which turns hooks off); check it with: guardian verify",
		Verify: Verifier{
			Event:          "PreToolUse",
			Tools:          []string{"run_commands", "editor", "read_files", "example__tool"},
			TimeoutUnit:    time.Millisecond,
			DefaultTimeout: 120 * time.Second,
			Find:           clineFile.find,
			Payload: func(command, project string) string {
				commands, _ := marshalNoEscape([]string{command})
				b, _ := marshalNoEscape(map[string]any{"clineVersion": "", "hookName": EventClineToolCall, "timestamp": "2026-01-01T00:00:00.000Z",
					"taskId": "guardian-verify", "workspaceRoots": []string{project}, "userId": "guardian-verify",
					"agent_id": "guardian-verify", "parent_agent_id": nil, "iteration": 1,
					"tool_call":  map[string]any{"id": "guardian-verify", "name": "run_commands", "input": map[string]any{"commands": []string{command}}},
					"preToolUse": map[string]any{"toolName": "run_commands", "parameters": map[string]any{"commands": string(commands)}}})
				return string(b)
			},
			Held:      "deny",
			Interpret: interpretCline,
		},
	}
}

// interpretCline says what Cline CLI 3.0.65, running guardian's script, makes of the hook
// command's stdout and exit status: it mirrors the script, so verify checks the command the
// script runs as the script reads it. {} runs the tool; one line that is guardian's cancel
// stops the task ("deny": Cline has nothing else, so guardian's ask reads the same); a non-zero
// exit and any other output make the script cancel ("blocked").
func interpretCline(out []byte, code int) string {
	reply := bytes.TrimRight(out, "\n") // as the script's $(…) reads it
	switch {
	case code != 0 || bytes.Contains(reply, []byte("\n")):
		return "blocked"
	case string(reply) == "{}":
		return "allow"
	case bytes.HasPrefix(reply, []byte(`{"cancel":true,"errorMessage":"`)) && bytes.HasSuffix(reply, []byte(`"}`)):
		return "deny"
	}
	return "blocked"
}
