package e2e

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// codexHost drives `codex exec --approve-for-me` against responsesFake: the one headless mode
// in which approvals exist, and so the PermissionRequest hook runs (docs/hooks.md). Shell
// calls ask for escalation, which needs approval: the hook's verdict, else Codex's own
// reviewer (the fake, which denies).
type codexHost struct{ bin, path string }

// Name implements host.
func (codexHost) Name() string { return "codex" }

// Shell implements host: exec_command asking to run outside the sandbox.
func (codexHost) Shell(command string) toolCall {
	return toolCall{Name: "exec_command", Input: map[string]any{
		"cmd": command, "sandbox_permissions": "require_escalated", "justification": "run the scripted command",
	}}
}

// MCPCall implements host: Codex offers each MCP server's tools in a namespace mcp__SERVER.
func (codexHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: tool, Namespace: "mcp__" + server, Input: args}
}

// codexConfig is the user's own Codex config: the fake provider (its base_url is set per run
// with -c) and everything that would reach outside hosts at start switched off.
const codexConfig = `# the user's own settings, which guardian's installer must keep
model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false
web_search = "disabled"

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
tool_suggest = false
`

// Prepare implements host.
func (codexHost) Prepare(t *testing.T, w world) {
	t.Helper()
	writeFile(t, filepath.Join(w.codexHome(), "config.toml"), codexConfig)
}

// Run implements host.
func (h codexHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newResponsesFake(t, call)
	args := []string{"exec", "--approve-for-me", "--skip-git-repo-check", "-C", w.project,
		"-c", "model_providers.fake.base_url=" + tomlString(fake.URL())}
	for _, s := range o.MCP {
		args = append(args, h.mcpArgs(s)...)
	}
	args = append(append(args, o.Args...), "Run the scripted tool call.")
	// The last PATH wins: Codex finds its bundled helpers (rg) first.
	env := w.env(append([]string{"PATH=" + h.path + ":" + basePathList}, o.Env...)...)
	r := start(t, w.project, env, h.bin, args...)
	res, got := fake.Result()
	return hostRun{run: r, Result: res, Got: got, AutoReviews: fake.AutoReviews(), Requests: fake.Requests(), Hook: hookStatus(r.out)}
}

// hookAnswered reports whether Codex saw its hook answer by itself: "Completed" (no verdict,
// or allow) or "Blocked" (deny) — not "Failed" (a timeout, a crash) and not skipped.
func hookAnswered(status string) bool { return status == "Completed" || status == "Blocked" }

// hookStatus reads Codex's report of its PermissionRequest hook from its output: it prints
// "hook: PermissionRequest" when it starts the hook and "hook: PermissionRequest Completed"
// or "… Failed" when the hook ends.
func hookStatus(out string) string {
	status := ""
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "hook: PermissionRequest"); ok {
			status = strings.TrimSpace(rest)
			if status == "" {
				status = "started"
			}
		}
	}
	return status
}

// mcpArgs configures one MCP server with -c overrides of [mcp_servers.NAME].
func (codexHost) mcpArgs(s mcpServer) []string {
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = tomlString(a)
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env := make([]string, len(keys))
	for i, k := range keys {
		env[i] = tomlString(k) + " = " + tomlString(s.Env[k])
	}
	p := "mcp_servers." + s.Name + "."
	return []string{
		"-c", p + "command=" + tomlString(s.Command),
		"-c", p + "args=[" + strings.Join(args, ", ") + "]",
		"-c", p + "env={" + strings.Join(env, ", ") + "}",
	}
}

// tomlString quotes s as a TOML basic string (JSON's string syntax is a subset of it).
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
