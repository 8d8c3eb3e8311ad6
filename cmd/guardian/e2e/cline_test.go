package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clineHost drives Cline CLI's native binary headless: `cline auth -p openai-compatible` at
// chatFake, then `cline -P openai-compatible --auto-approve true --json PROMPT`, which runs
// every tool without asking, so without a hook's objection it would run the call. Cline's
// cancel does not refuse a call but stops the task (its JSON output ends in run_aborted), and
// the model is told nothing: such a run is Stopped. CLINE_SESSION_BACKEND_MODE=local keeps the
// session in the CLI's own process: by default ("auto") Cline starts a detached hub daemon
// (cline --cline-hub-daemon) that outlives the run.
type clineHost struct{ bin string }

// Name implements host.
func (clineHost) Name() string { return "cline" }

// StopsTask implements taskStopper.
func (clineHost) StopsTask() {}

// Shell implements host: a run_commands call.
func (clineHost) Shell(command string) toolCall {
	return toolCall{Name: "run_commands", Input: map[string]any{"commands": []string{command}}}
}

// MCPCall implements host; the suite does not drive Cline's MCP tools (docs/hosts.md).
func (clineHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: server + "__" + tool, Input: args}
}

// Prepare implements host: a hook of the user's own for another event, which the installer
// must leave alone.
func (clineHost) Prepare(t *testing.T, w world) {
	t.Helper()
	path := filepath.Join(w.home, ".cline", "hooks", "TaskStart")
	writeFile(t, path, "#!/bin/sh\necho '{}'\n")
	if err := os.Chmod(path, 0o700); err != nil {
		t.Fatal(err)
	}
}

// Run implements host.
func (h clineHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newChatFake(t, call)
	env := w.env(append([]string{"CLINE_NO_AUTO_UPDATE=1", "CLINE_SESSION_BACKEND_MODE=local"}, o.Env...)...)
	if a := start(t, w.project, env, h.bin, "auth", "-p", "openai-compatible", "-k", "dummy", "-m", "fake-model", "-b", fake.URL()); a.code != 0 {
		t.Fatalf("cline auth: exit %d\n%s", a.code, a.out)
	}
	args := append([]string{"-P", "openai-compatible", "-k", "dummy", "-m", "fake-model", "--auto-approve", "true", "--json"}, o.Args...)
	r := start(t, w.project, env, h.bin, append(args, "Run the scripted tool call.")...)
	res, got := fake.Result()
	hr := hostRun{run: r, Result: res, Got: got, Requests: fake.Requests()}
	if strings.Contains(r.out, `"type":"run_aborted"`) {
		hr.Stopped = true
	}
	return hr
}

// TestCline runs the command and fail-safe scenarios on the real Cline CLI with guardian
// installed by its installer: the destructive commands stop the task before they run (Cline's
// only way to refuse), the benign one runs, and every failure of guardian stops the task too.
// Cline reads only the hook's stdout (an empty one, garbage or a timeout runs the tool,
// whatever the exit status), so guardian answers JSON with exit 0, its fail-safe included, and
// the hook script the installer writes cancels on every failure guardian cannot answer for
// itself: a hook that crashes, prints garbage, hangs past the installed timeout, or is missing.
func TestCline(t *testing.T) {
	s := need(t)
	h := clineHost{bin: s.cline}
	t.Run("commands", func(t *testing.T) { runCommandTable(t, s, h, 1, runYoloUnguarded) })
	t.Run("failsafe", func(t *testing.T) { runFaults(t, s, h) })
	t.Run("hook failure", func(t *testing.T) { runHookFailures(t, s, h) })
	t.Run("install verify uninstall", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		if v := start(t, w.project, w.env(), s.guardian, "verify"); v.code != 0 {
			t.Fatalf("guardian verify exit %d:\n%s", v.code, v.out)
		}
		w.guardianCmd(t, s.guardian, nil, "hook", "uninstall", "cline", "--write")
		hooks := filepath.Join(w.home, ".cline", "hooks")
		if b := readFile(t, filepath.Join(hooks, "PreToolUse")); b != "" || readFile(t, filepath.Join(hooks, "TaskStart")) == "" {
			t.Fatalf("after uninstall PreToolUse holds %q, or the user's hook is gone", b)
		}
	})
}
