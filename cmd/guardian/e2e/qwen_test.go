package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// qwenHost drives Qwen Code (a JavaScript bundle run by node) headless: `qwen -p … --yolo
// --auth-type openai` against chatFake, so that without a hook's objection it would run the
// shell tool. What the host told the model is the role "tool" message of the second request.
type qwenHost struct{ script string }

// Name implements host.
func (qwenHost) Name() string { return "qwen" }

// Shell implements host: a run_shell_command call.
func (qwenHost) Shell(command string) toolCall {
	return toolCall{Name: "run_shell_command", Input: map[string]any{"command": command, "description": "Run the scripted command", "is_background": false}}
}

// MCPCall implements host: Qwen Code names MCP tools mcp__SERVER__TOOL.
func (qwenHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: "mcp__" + server + "__" + tool, Input: args}
}

// Prepare implements host: user settings ($QWEN_HOME = ~/.qwen) with background traffic off
// (usage statistics, telemetry, update checks) and one key of the user's own, which the
// installer must keep.
func (qwenHost) Prepare(t *testing.T, w world) {
	t.Helper()
	writeFile(t, filepath.Join(w.home, ".qwen", "settings.json"),
		`{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false,"disableAutoUpdate":true,"disableUpdateNag":true},"ui":{"theme":"e2e-kept"}}`+"\n")
}

// Run implements host.
func (h qwenHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	fake := newChatFake(t, call)
	args := []string{h.script, "-p", "Run the scripted tool call.", "--yolo", "--auth-type", "openai"}
	args = append(args, o.Args...)
	env := w.env(append([]string{"OPENAI_API_KEY=dummy", "OPENAI_BASE_URL=" + fake.URL(), "OPENAI_MODEL=fake-model",
		"QWEN_CODE_NO_RELAUNCH=true", "QWEN_TELEMETRY_ENABLED=false"}, o.Env...)...)
	r := start(t, w.project, env, "node", args...)
	res, got := fake.Result()
	return hostRun{run: r, Result: res, Got: got, Requests: fake.Requests()}
}

// TestQwen runs the command and fail-safe scenarios on the real Qwen Code with guardian
// installed by its installer: the destructive commands are denied with guardian's reason, the
// benign one runs, and every failure of guardian stops the call with a reason — Qwen Code runs
// the tool when a hook exits 1, times out or prints garbage, so guardian's fail-safe is an ask
// (a deny in -p mode) or exit 2.
func TestQwen(t *testing.T) {
	s := need(t)
	h := qwenHost{script: s.qwen}
	t.Run("commands", func(t *testing.T) { runCommandTable(t, s, h, timingRounds, runYoloUnguarded) })
	t.Run("failsafe", func(t *testing.T) { runFaults(t, s, h) })
	t.Run("hook failure", func(t *testing.T) { runHookFailures(t, s, h) })
	t.Run("user's deny hook kept", func(t *testing.T) { qwenOtherHookDenies(t, s, h) })
	t.Run("user settings kept", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		if b := readFile(t, filepath.Join(w.home, ".qwen", "settings.json")); !strings.Contains(b, "e2e-kept") || !strings.Contains(b, "PreToolUse") {
			t.Fatalf("settings after install:\n%s", b)
		}
		if v := start(t, w.project, w.env(), s.guardian, "verify"); v.code != 0 {
			t.Fatalf("guardian verify exit %d:\n%s", v.code, v.out)
		}
	})
}

// qwenOtherHookDenies runs a call guardian has nothing against (`touch MARK && ls`) with a
// PreToolUse hook of the user's own, listed first, that denies every shell call. Qwen Code runs
// the hooks of one event together and merges their hookSpecificOutput key by key, the last
// hook's value winning (HookAggregator.mergeWithOrLogic), so a later hook that answers
// permissionDecision "allow" overrides the user's deny (the control: such a hook in place of
// guardian, and the call runs); guardian's allow is {}, which adds no key, and the user's deny
// stands.
func qwenOtherHookDenies(t *testing.T, s suite, h qwenHost) {
	t.Helper()
	const reason = "the user hook says no"
	hook := func(decision string) string {
		return `{"type":"command","command":"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"` + decision + `\",\"permissionDecisionReason\":\"` + reason + `\"}}'"}`
	}
	settings := func(hooks string) string {
		return `{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false,"disableAutoUpdate":true,"disableUpdateNag":true},` +
			`"hooks":{"PreToolUse":[{"matcher":"^run_shell_command$","hooks":[` + hooks + `]}]}}` + "\n"
	}
	for _, c := range []struct {
		name    string
		hooks   string
		install bool
		want    outcome
	}{
		{"guardian after it", hook("deny"), true, hostRefused},
		{"a hook's allow after it", hook("deny") + "," + hook("allow"), false, ran},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			writeFile(t, filepath.Join(w.home, ".qwen", "settings.json"), settings(c.hooks))
			if c.install {
				install(t, h, w, s.guardian)
			}
			r := h.Run(t, w, h.Shell(fmt.Sprintf("touch %s && ls", w.mark("ran"))), runOpts{Permissive: true})
			got := classify(h, r, w.marked("ran"))
			t.Logf("qwen, the user's deny hook, then %s: %s in %s; the model was told: %s", c.name, got, r.took, abbrev(r.Result.Text, 300))
			if got != c.want || (c.want == hostRefused && !strings.Contains(r.Result.Text, reason)) {
				t.Fatalf("outcome %q, want %q\n%s", got, c.want, r.describe())
			}
		})
	}
}
