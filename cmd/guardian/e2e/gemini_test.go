package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geminiHost drives Gemini CLI (a JavaScript bundle run by node) headless: `gemini -p …
// --approval-mode yolo`, so that without a hook's objection it would run the shell tool (in
// -p mode without yolo the shell tool is not offered at all). The model is Gemini's own
// scripted one (--fake-responses, a JSONL of generateContentStream answers), so no server is
// needed; what the host told the model is read from the session transcript Gemini writes
// (~/.gemini/tmp/PROJECT/chats/session-*.jsonl): the functionResponse of the scripted call.
type geminiHost struct{ script string }

// Name implements host.
func (geminiHost) Name() string { return "gemini" }

// Shell implements host: a run_shell_command call.
func (geminiHost) Shell(command string) toolCall {
	return toolCall{Name: "run_shell_command", Input: map[string]any{"command": command, "description": "Run the scripted command"}}
}

// MCPCall implements host: Gemini names MCP tools mcp_SERVER_TOOL.
func (geminiHost) MCPCall(server, tool string, args map[string]any) toolCall {
	return toolCall{Name: "mcp_" + server + "_" + tool, Input: args}
}

// Prepare implements host: user settings with background traffic off (usage statistics,
// telemetry, update checks) and one key of the user's own, which the installer must keep.
func (geminiHost) Prepare(t *testing.T, w world) {
	t.Helper()
	writeFile(t, filepath.Join(w.home, ".gemini", "settings.json"),
		`{"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},"ui":{"theme":"e2e-kept"}}`+"\n")
}

// Run implements host. Gemini CLI runs in the world's project, trusted by environment
// (GEMINI_CLI_TRUST_WORKSPACE: an untrusted folder forces the default approval mode), with
// an explicit model (the default "auto" spends a scripted answer on routing).
func (h geminiHost) Run(t *testing.T, w world, call toolCall, o runOpts) hostRun {
	t.Helper()
	script := filepath.Join(w.root, "gemini-responses.jsonl")
	answer := func(part map[string]any) string {
		b, err := json.Marshal(map[string]any{"method": "generateContentStream", "response": []any{map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	writeFile(t, script, answer(map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.Input}})+"\n"+
		answer(map[string]any{"text": "done"})+"\n")
	args := []string{h.script, "-p", "Run the scripted tool call.", "--approval-mode", "yolo", "-m", "gemini-2.5-flash", "--fake-responses", script}
	args = append(args, o.Args...)
	env := w.env(append([]string{"GEMINI_API_KEY=dummy", "GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_TELEMETRY_ENABLED=false"}, o.Env...)...)
	r := start(t, w.project, env, "node", args...)
	res, got := geminiResult(t, w, call.Name)
	return hostRun{run: r, Result: res, Got: got}
}

// geminiResult reads the functionResponse of tool from the session transcripts in w.
func geminiResult(t *testing.T, w world, tool string) (toolResult, bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(w.home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			var rec struct {
				Content []struct {
					FunctionResponse *struct {
						Name     string `json:"name"`
						Response struct {
							Output string `json:"output"`
							Error  string `json:"error"`
						} `json:"response"`
					} `json:"functionResponse"`
				} `json:"content"`
			}
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			for _, p := range rec.Content {
				if fr := p.FunctionResponse; fr != nil && fr.Name == tool {
					if fr.Response.Error != "" {
						return toolResult{Text: fr.Response.Error, IsError: true}, true
					}
					return toolResult{Text: fr.Response.Output}, true
				}
			}
		}
	}
	return toolResult{}, false
}

// TestGemini runs the command and fail-safe scenarios on the real Gemini CLI with guardian
// installed by its installer: the destructive commands are denied with guardian's reason, the
// benign one runs, and every failure of guardian stops the call with a reason — Gemini runs
// the tool when a hook exits 1, times out or prints garbage, so guardian's fail-safe is a
// deny in JSON plus exit status 2.
func TestGemini(t *testing.T) {
	s := need(t)
	if s.gemini == "" {
		t.Fatalf("Gemini CLI is not installed in %s (npm ci of cmd/guardian/e2e/testdata/hosts)", os.Getenv(envHosts))
	}
	h := geminiHost{script: s.gemini}
	t.Run("commands", func(t *testing.T) {
		runCommandTable(t, s, h, timingRounds, func(t *testing.T, _ host, sc commandScenario) hostRun { return runGeminiUnguarded(t, h, sc) })
	})
	t.Run("failsafe", func(t *testing.T) { runFaults(t, s, h) })
	t.Run("hook failure", func(t *testing.T) { runHookFailures(t, s, h) })
	t.Run("user settings kept", func(t *testing.T) {
		w := preparedWorld(t, h)
		install(t, h, w, s.guardian)
		if b := readFile(t, filepath.Join(w.home, ".gemini", "settings.json")); !strings.Contains(b, "e2e-kept") || !strings.Contains(b, "BeforeTool") {
			t.Fatalf("settings after install:\n%s", b)
		}
		if v := start(t, w.project, w.env("GEMINI_CLI_HOME="), s.guardian, "verify"); v.code != 0 {
			t.Fatalf("guardian verify exit %d:\n%s", v.code, v.out)
		}
	})
}

// runGeminiUnguarded runs a command scenario with no hook: in yolo mode Gemini runs it (the
// commands are harmless here: no network, a temporary HOME), which shows that the hook is what
// stops the destructive ones.
func runGeminiUnguarded(t *testing.T, h geminiHost, sc commandScenario) hostRun {
	t.Helper()
	w := preparedWorld(t, h)
	r := h.Run(t, w, h.Shell(fmt.Sprintf(sc.command, w.mark(sc.name))), runOpts{})
	if got := classify(h, r, w.marked(sc.name)); got != ran {
		t.Fatalf("without a hook: outcome %q, want %q\n%s", got, ran, r.describe())
	}
	return r
}
