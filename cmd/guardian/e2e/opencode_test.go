package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/riskmodel"
)

// opencodeHost drives OpenCode's native binary headless: `opencode run --model fake/fake-model
// --auto …` against chatFake (a custom @ai-sdk/openai-compatible provider at the fake, given in
// OPENCODE_CONFIG_CONTENT), so that without the plugin's objection it would run the call
// (--auto approves every permission not explicitly denied). Background traffic is off: the
// models.dev fetch, the update check, LSP downloads and sharing by environment, and the
// config directory's background npm install of @opencode-ai/plugin by a lockfile that already
// lists it (Prepare). OpenCode needs ripgrep on PATH (else it downloads one); the suite lends
// it the rg that Codex's package ships.
type opencodeHost struct{ bin, rgPath string }

// Name implements host.
func (opencodeHost) Name() string { return "opencode" }

// Shell implements host: a bash tool call.
func (opencodeHost) Shell(command string) toolCall {
	return toolCall{Name: "bash", Input: map[string]any{"command": command, "description": "Run the scripted command"}}
}

// MCPCall implements host: OpenCode names MCP tools SERVER_TOOL.
func (opencodeHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: server + "_" + tool, Input: args}
}

// Prepare implements host: the config directory as OpenCode leaves it once its own
// dependency (@opencode-ai/plugin, for plugins' types) is installed, so that it does not try
// npm without a network (70 s of retries), and a plugin of the user's own beside guardian's.
func (opencodeHost) Prepare(t *testing.T, w world) {
	t.Helper()
	dir := filepath.Join(w.home, ".config", "opencode")
	writeFile(t, filepath.Join(dir, "package-lock.json"), `{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}`+"\n")
	writeFile(t, filepath.Join(dir, "node_modules", ".keep"), "")
	writeFile(t, filepath.Join(dir, "plugins", "mine.js"), "export const Mine = async () => ({});\n")
}

// Run implements host.
func (h opencodeHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newChatFake(t, call)
	cfg := map[string]any{
		"provider": map[string]any{"fake": map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "fake",
			"options": map[string]any{"baseURL": fake.URL(), "apiKey": "dummy"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "fake-model", "tool_call": true}}}},
		"share": "disabled", "autoupdate": false,
	}
	if len(o.MCP) > 0 {
		servers := map[string]any{}
		for _, m := range o.MCP {
			servers[m.Name] = map[string]any{"type": "local", "command": append([]string{m.Command}, m.Args...), "environment": m.Env, "enabled": true}
		}
		cfg["mcp"] = servers
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--model", "fake/fake-model"}
	if o.Permissive {
		args = append(args, "--auto")
	}
	args = append(append(args, o.Args...), "Run the scripted tool call.")
	env := w.env(append([]string{"OPENCODE_CONFIG_CONTENT=" + string(b), "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1", "PATH=" + basePathList + ":" + h.rgPath}, o.Env...)...)
	r := start(t, w.project, env, h.bin, args...)
	res, got := fake.Result()
	return hostRun{run: r, Result: res, Got: got, Requests: fake.Requests()}
}

// TestOpenCode runs the scenarios on the real OpenCode with guardian's plugin installed by its
// installer: the destructive commands are blocked with guardian's reason, the benign one runs,
// an MCP call is reviewed, every failure of guardian's own stops the call (guardian answers
// its fail-safe ask, which the plugin blocks), and so does every failure guardian cannot
// answer for — a hook that hangs, crashes, prints garbage or is not there — because the plugin
// throws on each.
func TestOpenCode(t *testing.T) {
	s := need(t)
	h := opencodeHost{bin: s.opencode, rgPath: s.codexPath}
	t.Run("commands", func(t *testing.T) { runCommandTable(t, s, h, 1, runYoloUnguarded) })
	t.Run("failsafe", func(t *testing.T) { runFaults(t, s, h) })
	t.Run("plugin", func(t *testing.T) {
		for _, c := range []struct {
			name string
			args []string
			env  []string
			want string // in what the model is told
		}{
			{"hang", []string{"--timeout", "7"}, []string{"GUARDIAN_FAULT=start:hang"}, "no answer within 7000 ms"},
			{"crash", nil, []string{"GUARDIAN_FAULT=start:exit1"}, "exited with status 1"},
			{"garbage", nil, []string{"GUARDIAN_FAULT=start:garbage"}, "the answer is not JSON"},
			{"missing", []string{"--command", "/nonexistent/guardian hook opencode --deadline 10s"}, nil, "exited with status 127"},
		} {
			t.Run(c.name, func(t *testing.T) {
				w := preparedWorld(t, h)
				install(t, h, w, s.faults, c.args...)
				r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), runOpts{Permissive: true, Env: c.env})
				got := classify(h, r, w.marked("ran"))
				t.Logf("%s: %s in %s; the model was told: %s", c.name, got, r.took, abbrev(r.Result.Text, 300))
				if got != guardianDenied || !strings.Contains(r.Result.Text, c.want) {
					t.Fatalf("outcome %q, want the plugin to block with %q\n%s", got, c.want, r.describe())
				}
			})
		}
	})
	t.Run("mcp", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		// deploy, not touch: guardian asks about a deploy; an MCP write of a scratch file is routine.
		r := h.Run(t, w, h.MCPCall("e2e", "deploy", map[string]any{"path": w.mark("mcp")}),
			runOpts{Permissive: true, MCP: []mcpServer{s.touchServer("e2e")}})
		got := classify(h, r, w.marked("mcp"))
		t.Logf("MCP call: %s in %s; the model was told: %s", got, r.took, abbrev(r.Result.Text, 300))
		if got != guardianDenied {
			t.Fatalf("outcome %q, want guardian's ask to block the MCP call\n%s", got, r.describe())
		}
		recs := w.audited(t)
		if len(recs) != 1 || recs[0].Kind != riskmodel.KindMCP || !strings.Contains(string(recs[0].Request), `"tool":"deploy"`) {
			t.Fatalf("want one audit record of the MCP call deploy, got %+v", recs)
		}
	})
	t.Run("install verify uninstall", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		if v := start(t, w.project, w.env(), s.guardian, "verify"); v.code != 0 {
			t.Fatalf("guardian verify exit %d:\n%s", v.code, v.out)
		}
		w.guardianCmd(t, s.guardian, nil, "hook", "uninstall", "opencode", "--write")
		plugins := filepath.Join(w.home, ".config", "opencode", "plugins")
		if b := readFile(t, filepath.Join(plugins, "guardian.js")); b != "" || readFile(t, filepath.Join(plugins, "mine.js")) == "" {
			t.Fatalf("after uninstall guardian.js holds %q, or the user's plugin is gone", b)
		}
		r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && rm -rf ~", w.mark("ran"))), runOpts{Permissive: true})
		if got := classify(h, r, w.marked("ran")); got != ran {
			t.Fatalf("after uninstall: outcome %q, want the call to run without guardian\n%s", got, r.describe())
		}
	})
}
