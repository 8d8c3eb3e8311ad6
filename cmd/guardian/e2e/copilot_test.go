package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copilotHost drives GitHub Copilot CLI's native binary headless: `copilot -p …
// --allow-all-tools --allow-all-paths`, so that without a hook's objection it would run the
// shell tool (without --allow-all-paths Copilot's own path check refuses a marker outside the
// project). The model is anthropicFake through Copilot's bring-your-own-key provider
// (COPILOT_PROVIDER_TYPE=anthropic), with COPILOT_OFFLINE=true: no GitHub login, no GitHub
// traffic. The binary unpacks its JavaScript into $XDG_CACHE_HOME/copilot on first run, so
// every world shares one cache beside the installed hosts rather than unpacking 235 MB per run.
type copilotHost struct{ bin, cache string }

// Name implements host.
func (copilotHost) Name() string { return "copilot" }

// Shell implements host: a bash tool call.
func (copilotHost) Shell(command string) toolCall {
	return toolCall{Name: "bash", Input: map[string]any{"command": command, "description": "Run the scripted command"}}
}

// MCPCall implements host; the suite does not drive Copilot's MCP tools (guardian does not
// review them: see docs/hosts.md).
func (copilotHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: server + "-" + tool, Input: args}
}

// Prepare implements host: a hooks file of the user's own in ~/.copilot/hooks, which the
// installer must leave alone (guardian writes guardian.json beside it).
func (copilotHost) Prepare(t *testing.T, w world) {
	t.Helper()
	writeFile(t, filepath.Join(w.home, ".copilot", "hooks", "mine.json"), `{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"true"}]}}`+"\n")
}

// Run implements host.
func (h copilotHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newAnthropicFake(t, call)
	args := []string{"-p", "Run the scripted tool call.", "--allow-all-tools", "--allow-all-paths", "--no-auto-update", "--stream", "off"}
	args = append(args, o.Args...)
	env := w.env(append([]string{"XDG_CACHE_HOME=" + h.cache,
		"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_TYPE=anthropic", "COPILOT_PROVIDER_BASE_URL=" + fake.URL(),
		"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=claude-sonnet-4.5"}, o.Env...)...)
	r := start(t, w.project, env, h.bin, args...)
	res, got := fake.Result()
	return hostRun{run: r, Result: res, Got: got, Requests: fake.Requests()}
}

// TestCopilot runs the command and fail-safe scenarios on the real Copilot CLI with guardian
// installed by its installer: the destructive commands are denied with guardian's reason, the
// benign one runs, and every failure of guardian stops the call with a reason — Copilot runs
// the tool when a hook times out or prints anything but one JSON object, so guardian's
// fail-safe is an ask in JSON (a deny in -p mode), given before its own deadline.
func TestCopilot(t *testing.T) {
	s := need(t)
	h := copilotHost{bin: s.copilot, cache: filepath.Join(os.Getenv(envHosts), ".copilot-cache")}
	t.Run("commands", func(t *testing.T) { runCommandTable(t, s, h, timingRounds, runYoloUnguarded) })
	t.Run("failsafe", func(t *testing.T) { runFaults(t, s, h) })
	t.Run("hook failure", func(t *testing.T) { runHookFailures(t, s, h) })
	t.Run("no objection keeps deny-tool", func(t *testing.T) { copilotDenyTool(t, s, h) })
	t.Run("user hooks kept", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		if b := readFile(t, filepath.Join(w.home, ".copilot", "hooks", "mine.json")); !strings.Contains(b, "sessionStart") {
			t.Fatalf("the user's hooks file after install:\n%s", b)
		}
		if v := start(t, w.project, w.env(), s.guardian, "verify"); v.code != 0 {
			t.Fatalf("guardian verify exit %d:\n%s", v.code, v.out)
		}
		w.guardianCmd(t, s.guardian, nil, "hook", "uninstall", "copilot", "--write")
		if found := fmt.Sprint(readFile(t, filepath.Join(w.home, ".copilot", "hooks", "guardian.json"))); strings.Contains(found, "guardian") {
			t.Fatalf("guardian.json after uninstall:\n%s", found)
		}
	})
}

// copilotDenyTool shows why guardian's "no objection" to Copilot is {} and never allow: with
// the user's --deny-tool 'shell(touch)', a call guardian has nothing against is still refused
// by Copilot (guardian's {} leaves Copilot's permissions in charge), while a hook of the
// user's own that prints {"permissionDecision":"allow"} makes Copilot run it.
func copilotDenyTool(t *testing.T, s suite, h copilotHost) {
	t.Helper()
	deny := runOpts{Permissive: true, Args: []string{"--deny-tool", "shell(touch)"}}
	for _, c := range []struct {
		name    string
		prepare func(world)
		want    outcome
	}{
		{"guardian's {}", func(w world) { install(t, h, w, s.guardian) }, hostRefused},
		{"a hook's allow", func(w world) {
			writeFile(t, filepath.Join(w.home, ".copilot", "hooks", "allow.json"),
				`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"cat >/dev/null; echo '{\"permissionDecision\":\"allow\"}'"}]}}`+"\n")
		}, ran},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			c.prepare(w)
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), deny)
			got := classify(h, r, w.marked("ran"))
			t.Logf("copilot --deny-tool shell(touch), %s: %s in %s; the model was told: %s", c.name, got, r.took, abbrev(r.Result.Text, 300))
			if got != c.want {
				t.Fatalf("outcome %q, want %q\n%s", got, c.want, r.describe())
			}
		})
	}
}
