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

// EventOpenCodeBefore is the OpenCode plugin hook guardian's plugin runs in.
const EventOpenCodeBefore = "tool.execute.before"

// OpenCode is the protocol between guardian's OpenCode plugin and `guardian hook opencode`
// (opencode-ai 1.18.33). OpenCode has no command hooks: a plugin is a JavaScript module
// loaded in-process (~/.config/opencode/plugins/*.js), and its "tool.execute.before"
// function runs before every tool call, built-in, MCP and a sub-agent's alike, with
// {tool, sessionID, callID} and the call's {args}; a function that throws stops the call and
// the model is told the error's message (packages/opencode/src/session/tools.ts; docs/hosts.md
// has what the real host showed). OpenCode's own permission check runs after the plugin, in
// the tool, so a plugin that returns never widens what the user let OpenCode do.
//
// guardian's plugin (opencodePlugin) sends {hook_event_name, tool, sessionID, callID, args,
// directory, worktree} to this command's stdin and reads one JSON object back:
// {"decision":"allow"|"none"|"deny"|"ask","reason":…}. It returns only on allow or none; it
// throws on deny, on ask (OpenCode cannot ask from a plugin: the "permission.ask" plugin hook
// is never called), and on every failure: guardian missing or not starting, a non-zero exit,
// no answer within the timeout, output that is not exactly one such object. So the fail-safe
// here is any ask; the plugin is what makes every failure a block.
type OpenCode struct{}

// opencodePayload is what guardian's plugin sends.
type opencodePayload struct {
	HookEventName string          `json:"hook_event_name"`
	Tool          string          `json:"tool"`
	SessionID     string          `json:"sessionID"`
	CallID        string          `json:"callID"`
	Args          json.RawMessage `json:"args"`
	Directory     string          `json:"directory"`
	Worktree      string          `json:"worktree"`
}

// opencodeArgs are the arguments of OpenCode's built-in tools that guardian reads: bash
// {command, description, workdir}; write, edit, multiedit, read {filePath}; grep {pattern,
// path}; glob {pattern, path}; webfetch {url}; apply_patch {patchText}.
type opencodeArgs struct {
	Command     *string `json:"command"`
	Description string  `json:"description"`
	Workdir     string  `json:"workdir"`
	FilePath    string  `json:"filePath"`
	Pattern     *string `json:"pattern"`
	Path        string  `json:"path"`
	URL         string  `json:"url"`
	PatchText   string  `json:"patchText"`
}

// opencodeNoOpinion are OpenCode's built-in tools guardian leaves to OpenCode: they neither
// run commands, write files, read files nor reach the network by themselves (task starts a
// sub-agent, whose own tool calls come through the plugin too).
var opencodeNoOpinion = map[string]bool{
	"task": true, "todowrite": true, "todoread": true, "skill": true, "question": true, "invalid": true,
	"plan_enter": true, "plan_exit": true, "list": true, "lsp": true, "batch": true,
	"list_mcp_resources": true, "list_mcp_resource_templates": true,
}

// patchFileRE finds the files an apply_patch patch touches.
var patchFileRE = lazyRegexp(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$`)

// Parse reads the plugin's payload. bash → `bash -c COMMAND` in workdir (else the session's
// directory); write, edit, multiedit, apply_patch → a write to the files; read, grep, glob →
// the shell command that reads the same (reviewed only to be stopped, like Claude Code's
// Read); webfetch → `curl` of the URL; websearch and codesearch → a call of that tool with its
// arguments; the tools in opencodeNoOpinion → no opinion. Every other tool is an MCP tool,
// which OpenCode names SERVER_TOOL (its sanitised server and tool names joined by "_"): the
// first "_" ends the server name. A tool OpenCode adds in a later release is so reviewed as an
// MCP call rather than waved through. The plugin hook says nothing of which agent calls, so
// the role stays unknown.
func (OpenCode) Parse(stdin []byte, _ func(string) string) (Call, error) {
	if len(bytes.TrimSpace(stdin)) == 0 {
		return Call{}, errors.New("empty input: the plugin sent no payload on stdin")
	}
	var p opencodePayload
	if err := strictjson.Unmarshal(stdin, &p); err != nil {
		return Call{}, fmt.Errorf("plugin payload is not a JSON object as the plugin wrote it: %w", err)
	}
	c := Call{Event: p.HookEventName, Caller: guardian.Caller{Host: "opencode", Session: p.SessionID, Turn: p.CallID}}
	if p.HookEventName != EventOpenCodeBefore {
		return c, fmt.Errorf("plugin event %q is not %s", p.HookEventName, EventOpenCodeBefore)
	}
	if p.Tool == "" {
		return c, errors.New(`plugin payload has no "tool"`)
	}
	if opencodeNoOpinion[p.Tool] {
		return c, nil
	}
	var a opencodeArgs
	builtin := true
	switch p.Tool {
	case "bash", "write", "edit", "multiedit", "apply_patch", "patch", "read", "grep", "glob", "webfetch":
		if err := strictjson.Unmarshal(p.Args, &a); err != nil {
			return c, fmt.Errorf("%s args: %w", p.Tool, err)
		}
	default:
		builtin = false
	}
	exec := func(argv []string, cwd, why string, neverAllow bool) {
		r := guardian.ExecRequest(riskmodel.ExecRequest{Command: argv, Cwd: cwd, Justification: why})
		c.Request, c.NeverAllow = &r, neverAllow
	}
	switch {
	case p.Tool == "bash":
		if a.Command == nil || strings.TrimSpace(*a.Command) == "" {
			return c, errors.New(`bash args have no "command"`)
		}
		cwd := p.Directory
		if a.Workdir != "" {
			cwd = a.Workdir
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(p.Directory, cwd)
			}
		}
		exec([]string{"bash", "-c", *a.Command}, cwd, a.Description, false)
	case p.Tool == "write" || p.Tool == "edit" || p.Tool == "multiedit":
		if a.FilePath == "" {
			return c, fmt.Errorf(`%s args have no "filePath"`, p.Tool)
		}
		exec([]string{"tee", "--", a.FilePath}, p.Directory, "the agent's "+p.Tool+" tool writes this file", true)
	case p.Tool == "apply_patch" || p.Tool == "patch":
		argv := []string{"tee", "--"}
		for _, m := range patchFileRE().FindAllStringSubmatch(a.PatchText, -1) {
			argv = append(argv, strings.TrimSpace(m[1]+m[2]))
		}
		if len(argv) == 2 {
			return c, fmt.Errorf("%s args: the patch names no file", p.Tool)
		}
		exec(argv, p.Directory, "the agent's "+p.Tool+" tool writes these files", true)
	case p.Tool == "read":
		if a.FilePath == "" {
			return c, errors.New(`read args have no "filePath"`)
		}
		exec([]string{"cat", "--", a.FilePath}, p.Directory, "the agent's read tool reads this", true)
	case p.Tool == "grep" || p.Tool == "glob":
		if a.Pattern == nil || (p.Tool == "glob" && *a.Pattern == "") {
			return c, fmt.Errorf(`%s args have no "pattern"`, p.Tool)
		}
		dir := a.Path
		if dir == "" {
			dir = "."
		}
		argv := []string{"grep", "-r", "-e", *a.Pattern, "--", dir}
		if p.Tool == "glob" {
			pattern := *a.Pattern
			if !filepath.IsAbs(pattern) {
				pattern = filepath.Join(dir, pattern)
			}
			argv = []string{"ls", "-d", "--", pattern}
		}
		exec(argv, p.Directory, "the agent's "+p.Tool+" tool reads this", true)
	case p.Tool == "webfetch":
		if a.URL == "" {
			return c, errors.New(`webfetch args have no "url"`)
		}
		exec([]string{"curl", "-fsSL", "--", a.URL}, p.Directory, "the agent's webfetch tool fetches this URL", true)
	case !builtin:
		args, err := opencodeMCPArgs(p)
		if err != nil {
			return c, err
		}
		server, tool := "opencode", p.Tool
		if p.Tool != "websearch" && p.Tool != "codesearch" {
			s, t, found := strings.Cut(p.Tool, "_")
			if !found || s == "" || t == "" {
				return c, fmt.Errorf("tool %q is neither one of OpenCode's built-in tools nor an MCP tool SERVER_TOOL", p.Tool)
			}
			server, tool = s, t
		}
		r := guardian.MCPRequest(riskmodel.MCPRequest{Server: server, Tool: tool, Arguments: args})
		c.Request = &r
	}
	return c, nil
}

// opencodeMCPArgs is an MCP call's args as an object.
func opencodeMCPArgs(p opencodePayload) (map[string]any, error) {
	var args map[string]any
	if len(p.Args) > 0 && string(p.Args) != "null" {
		if err := strictjson.Unmarshal(p.Args, &args); err != nil {
			return nil, fmt.Errorf("%s args are not a JSON object: %w", p.Tool, err)
		}
	}
	return args, nil
}

// opencodeReply is what the plugin reads.
type opencodeReply struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// NoVerdict is {"decision":"none"}: the plugin returns and OpenCode's own permissions decide.
// (An empty answer would make the plugin block.)
func (OpenCode) NoVerdict(string) Reply { return jsonReply(opencodeReply{Decision: "none"}) }

// Answer is allow, none for a read or a write guardian has nothing against, deny with the
// reason, or ask — which the plugin turns into a block whose message says a human should
// decide.
func (OpenCode) Answer(c Call, res guardian.Result) Reply {
	switch {
	case c.NeverAllow && res.Decision == riskmodel.Allow,
		c.NeverAllow && res.Status == guardian.StatusAgentPolicy:
		return jsonReply(opencodeReply{Decision: "none"})
	case res.Decision == riskmodel.Allow:
		return jsonReply(opencodeReply{Decision: "allow"})
	case res.Decision == riskmodel.Deny:
		return jsonReply(opencodeReply{"deny", reason(res)})
	}
	return jsonReply(opencodeReply{"ask", clean("guardian asks a human to decide, and OpenCode cannot ask from a plugin, so it is blocked: " + reason(res))})
}

// Failsafe is an ask, which the plugin blocks, with the reason; exit 0 so that the model is
// told the reason rather than that the hook failed.
func (OpenCode) Failsafe(_, why string) Reply {
	return jsonReply(opencodeReply{"ask", clean("guardian could not review this tool call, so it is blocked: " + why)})
}

// opencodePluginMarker is the first line of guardian's plugin file.
const opencodePluginMarker = "// guardian's OpenCode plugin (guardian hook install opencode). Do not edit: reinstall instead."

// opencodePlugin is the plugin file. It depends on nothing but node:child_process (OpenCode
// runs plugins under Bun, which provides it), so it loads without the network; the factory
// itself does no work, so that loading cannot fail on the user's machine. All of the work is
// inside the async hook function, where any exception — a spawn error, a timeout, a broken
// answer, guardian's deny — rejects its promise, which OpenCode reads as "do not run".
func opencodePlugin(command string, timeoutMS int) []byte {
	return []byte(opencodePluginMarker + `
//
// Before every tool call (built-in, MCP, sub-agents' too) this runs guardian's hook command
// with the call on stdin and lets the call through only when guardian answers allow or
// "none" (no objection: OpenCode's own permissions still decide). It throws, which stops the
// call and tells the model why, on guardian's deny, on its ask (OpenCode cannot ask from a
// plugin), and on every failure: guardian missing, a crash, a non-zero exit, no answer within
// the timeout, an answer that is not guardian's. Remove it with:
//   guardian hook uninstall opencode --write
import { spawn } from "node:child_process";

const COMMAND = ` + jsString(command) + `;
const TIMEOUT_MS = ` + fmt.Sprint(timeoutMS) + `;

function fail(why) {
  return new Error("guardian could not review this tool call, so it is blocked: " + why);
}

function runHook(payload, cwd) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", COMMAND], { cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    } catch (err) {
      reject(fail("the hook command did not start: " + err.message));
      return;
    }
    let out = "";
    let errOut = "";
    let settled = false;
    const settle = (f, v) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        f(v);
      }
    };
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, "SIGKILL"); } catch {}
      settle(reject, fail("no answer within " + TIMEOUT_MS + " ms"));
    }, TIMEOUT_MS);
    child.on("error", (err) => settle(reject, fail("the hook command did not start: " + err.message)));
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { errOut += d; });
    child.on("close", (code, signal) => {
      if (code !== 0) {
        settle(reject, fail("the hook command exited with " + (signal ? "signal " + signal : "status " + code) + ": " + errOut.trim().slice(-500)));
        return;
      }
      settle(resolve, out);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

function decide(out) {
  let reply;
  try {
    reply = JSON.parse(out);
  } catch {
    throw fail("the answer is not JSON: " + JSON.stringify(out.slice(0, 200)));
  }
  if (reply === null || typeof reply !== "object" || Array.isArray(reply)) {
    throw fail("the answer is not a JSON object");
  }
  switch (reply.decision) {
    case "allow":
    case "none":
      return;
    case "deny":
    case "ask":
      throw new Error(typeof reply.reason === "string" && reply.reason ? reply.reason : "guardian: blocked (no reason given)");
    default:
      throw fail("the answer has no known decision: " + JSON.stringify(reply.decision));
  }
}

export const GuardianPlugin = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = {
      hook_event_name: "tool.execute.before",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: output.args ?? null,
      directory: directory ?? "",
      worktree: worktree ?? "",
    };
    decide(await runHook(payload, directory || process.cwd()));
  },
});
`)
}

// opencodeFile is guardian's plugin as an owned file.
var opencodeFile = ownedFile{
	host:      "opencode",
	marker:    opencodePluginMarker,
	render:    opencodePlugin,
	commandRE: lazyRegexp(`(?m)^const COMMAND = (".*");$`),
	timeoutRE: lazyRegexp(`(?m)^const TIMEOUT_MS = ([0-9]+);$`),
}

// opencodeHost is OpenCode: guardian's plugin file in the global plugin directory,
// $XDG_CONFIG_HOME/opencode/plugins (else ~/.config/opencode/plugins), which OpenCode loads at
// start-up in every project.
func opencodeHost() Host {
	return Host{
		Name:        "opencode",
		Title:       "OpenCode",
		Summary:     "OpenCode plugin tool.execute.before (bash, write, edit, read, grep, glob, webfetch, MCP tools)",
		Protocol:    OpenCode{},
		ConfigFlag:  "opencode-plugin",
		ConfigUsage: "OpenCode plugin `FILE` (default $XDG_CONFIG_HOME/opencode/plugins/guardian.js, else ~/.config/opencode/plugins/guardian.js)",
		Paths: func(flag string, getenv func(string) string) ([]string, error) {
			if flag != "" {
				return []string{flag}, nil
			}
			dir, err := homeDir("", "XDG_CONFIG_HOME", ".config", getenv)
			if err != nil {
				return nil, fmt.Errorf("%w (pass --opencode-plugin FILE)", err)
			}
			return []string{filepath.Join(dir, "opencode", "plugins", "guardian.js")}, nil
		},
		Owned:     true,
		Install:   opencodeFile.install,
		Uninstall: opencodeFile.uninstall,
		Done:      "OpenCode loads the plugin when it starts (every project, every agent, sub-agents too); check it with: guardian verify",
		Verify: Verifier{
			Event:          EventOpenCodeBefore,
			Tools:          []string{"bash", "write", "edit", "read", "example_tool"},
			TimeoutUnit:    time.Millisecond,
			DefaultTimeout: 15 * time.Second,
			Find:           opencodeFile.find,
			Payload: func(command, project string) string {
				b, _ := marshalNoEscape(map[string]any{"hook_event_name": EventOpenCodeBefore, "tool": "bash",
					"sessionID": "guardian-verify", "callID": "guardian-verify",
					"args":      map[string]any{"command": command, "description": "guardian verify canary"},
					"directory": project, "worktree": project})
				return string(b)
			},
			Held:      "ask",
			Interpret: interpretOpenCode,
		},
	}
}

// interpretOpenCode says what guardian's plugin does with a hook's stdout and exit status: it
// mirrors the plugin's decide, so verify checks the command the plugin runs as the plugin
// reads it. A non-zero exit and anything but one object with a known decision block.
func interpretOpenCode(out []byte, code int) string {
	if code != 0 {
		return "blocked"
	}
	var reply opencodeReply
	dec := json.NewDecoder(bytes.NewReader(out))
	if dec.Decode(&reply) != nil || dec.More() {
		return "blocked"
	}
	switch reply.Decision {
	case "allow", "deny", "ask":
		return reply.Decision
	case "none":
		return "no opinion"
	}
	return "blocked"
}
