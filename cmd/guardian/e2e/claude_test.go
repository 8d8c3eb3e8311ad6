package e2e

import (
	"encoding/json"
	"testing"
)

// claudeHost drives Claude Code in -p (headless) mode against anthropicFake. In -p mode a
// hook's "ask" cannot be answered and acts as deny.
type claudeHost struct{ bin string }

// Name implements host.
func (claudeHost) Name() string { return "claude" }

// Shell implements host: a Bash tool call.
func (claudeHost) Shell(command string) toolCall {
	return toolCall{Name: "Bash", Input: map[string]any{"command": command, "description": "Run the scripted command"}}
}

// MCPCall implements host: Claude Code names MCP tools mcp__SERVER__TOOL.
func (claudeHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: "mcp__" + server + "__" + tool, Input: args}
}

// Prepare implements host: user settings with one key of the user's own, which the
// installer must keep.
func (claudeHost) Prepare(t *testing.T, w world) {
	t.Helper()
	writeFile(t, w.claudeSettings(), `{"env": {"E2E_USER_SETTING": "kept"}}`+"\n")
}

// Run implements host.
func (h claudeHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newAnthropicFake(t, call)
	args := []string{"-p", "Run the scripted tool call.", "--output-format", "json"}
	if o.Permissive {
		args = append(args, "--allowedTools", call.Name)
	}
	if len(o.MCP) > 0 {
		args = append(args, "--strict-mcp-config", "--mcp-config", h.mcpConfig(t, o.MCP))
	}
	args = append(args, o.Args...)
	env := w.env(append([]string{
		"ANTHROPIC_BASE_URL=" + fake.URL(), "ANTHROPIC_API_KEY=dummy",
		// Claude Code's background traffic, off (docs/hooks.md).
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// MCP tools in the model's tool list rather than behind ToolSearch, so the scripted
		// model can call one directly.
		"ENABLE_TOOL_SEARCH=false",
	}, o.Env...)...)
	r := start(t, w.project, env, h.bin, args...)
	res, got := fake.Result()
	return hostRun{run: r, Result: res, Got: got, Requests: fake.Requests()}
}

// mcpConfig is the --mcp-config JSON for servers.
func (claudeHost) mcpConfig(t *testing.T, servers []mcpServer) string {
	t.Helper()
	cfg := map[string]any{}
	for _, s := range servers {
		cfg[s.Name] = map[string]any{"type": "stdio", "command": s.Command, "args": nonNil(s.Args), "env": s.Env}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": cfg})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
