package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/riskmodel"
)

// envCapture names a directory where TestClaudeOutcome copies the real payloads Claude Code
// gave its outcome hooks (the fixtures in guardian/hook/testdata come from there).
const envCapture = "GUARDIAN_E2E_CAPTURE"

// promptTools are the suite MCP server's permission-prompt tools: Claude Code's
// --permission-prompt-tool asks one of them when a call needs a person's approval in -p mode
// (guardian's ask included). approve answers allow, refuse answers deny.
func promptTools() []any {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"tool_name": map[string]any{"type": "string"}, "input": map[string]any{"type": "object"}, "tool_use_id": map[string]any{"type": "string"},
	}}
	return []any{
		map[string]any{"name": "approve", "description": "Permission prompt: approves every request.", "inputSchema": schema},
		map[string]any{"name": "refuse", "description": "Permission prompt: refuses every request.", "inputSchema": schema},
	}
}

// answerPrompt is a permission-prompt tool's reply: the JSON text Claude Code reads as the
// person's answer ({"behavior":"allow","updatedInput":…} or {"behavior":"deny","message":…}).
func answerPrompt(tool string, params json.RawMessage) (string, bool) {
	var p struct {
		Arguments struct {
			Input json.RawMessage `json:"input"`
		} `json:"arguments"`
	}
	_ = json.Unmarshal(params, &p)
	var v any
	switch tool {
	case "approve":
		v = map[string]any{"behavior": "allow", "updatedInput": p.Arguments.Input}
	case "refuse":
		v = map[string]any{"behavior": "deny", "message": "refused at the permission prompt"}
	default:
		return "", false
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// TestClaudeOutcome: guardian asks about a command (the rules ask about chmod -R 777),
// Claude Code's own permission logic in -p mode answers — a --permission-prompt-tool that
// approves or refuses, or no prompt at all (an ask nobody can answer) — and the outcome hooks
// guardian install registers tell guardian what happened: the audit log holds the host's
// answer against guardian's ask, and guardian audit overrides counts it. A refusal reaches no
// hook in Claude Code 2.1.328, so it stays an ask without a recorded answer (docs/hosts.md).
func TestClaudeOutcome(t *testing.T) {
	s := need(t)
	h := claudeHost{bin: s.claude}
	for _, tc := range []struct {
		name     string
		command  string // run after touching the marker; the rules ask about it
		prompt   string // the permission-prompt tool, "" for none
		event    string // the outcome event Claude Code sends, "" for none
		marked   bool
		answered bool // the host reports an outcome guardian records
		allowed  bool
	}{
		{name: "prompt approves", command: "chmod -R 777 .", prompt: "approve", event: "PostToolUse", marked: true, answered: true, allowed: true},
		// The approved command runs and fails (the directory does not exist).
		{name: "prompt approves a failing command", command: "chmod -R 777 ./no-such-dir", prompt: "approve", event: "PostToolUseFailure", marked: true, answered: true, allowed: true},
		{name: "prompt refuses", command: "chmod -R 777 .", prompt: "refuse"},
		{name: "no prompt", command: "chmod -R 777 ."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.guardian)
			capture := filepath.Join(w.root, "capture")
			addCaptureHooks(t, w, capture)
			var o runOpts
			o.MCP = []mcpServer{s.touchServer("e2e")}
			if tc.prompt != "" {
				o.Args = []string{"--permission-prompt-tool", "mcp__e2e__" + tc.prompt}
			}
			cmd := fmt.Sprintf("touch %s && %s", w.mark("prune"), tc.command)
			r := h.Run(t, w, h.Shell(cmd), o)
			if got := w.marked("prune"); got != tc.marked {
				t.Fatalf("the command ran = %v, want %v\n%s", got, tc.marked, r.describe())
			}
			events := capturedEvents(t, capture, tc.name)
			t.Logf("outcome events Claude Code sent: %v", events)
			if got := strings.Join(events, ","); got != tc.event {
				t.Errorf("outcome events %q, want %q", got, tc.event)
			}

			var ask, answer *struct{ decision riskmodel.Decision }
			for _, rec := range w.audited(t) {
				switch {
				case rec.Decision == riskmodel.Ask && rec.AskedBy == "" && rec.Caller.Host == "claude":
					ask = &struct{ decision riskmodel.Decision }{rec.Decision}
				case rec.Status == guardian.StatusHost && rec.AskedBy != "":
					answer = &struct{ decision riskmodel.Decision }{rec.Decision}
				}
			}
			if ask == nil {
				t.Fatalf("audit log: no ask by guardian\n%s", r.describe())
			}
			if (answer != nil) != tc.answered {
				t.Fatalf("audit log: host's answer recorded = %v, want %v (events %v)", answer != nil, tc.answered, events)
			}
			if answer != nil && (answer.decision == riskmodel.Allow) != tc.allowed {
				t.Errorf("recorded answer %s, want allowed = %v", answer.decision, tc.allowed)
			}
			out := w.guardianCmd(t, s.guardian, nil, "audit", "overrides", "--json")
			var sum struct{ Approved, Refused, Unanswered int }
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("guardian audit overrides --json: %v\n%s", err, out)
			}
			// Claude Code 2.1.328 sends no event when its prompt or -p mode refuses a call
			// (PermissionDenied is its auto mode classifier's): the ask stays without an answer.
			want := struct{ Approved, Refused, Unanswered int }{}
			if tc.answered {
				want = struct{ Approved, Refused, Unanswered int }{Approved: 1}
			}
			if sum != want {
				t.Errorf("guardian audit overrides: %+v, want %+v\n%s", sum, want, out)
			}
		})
	}
}

// addCaptureHooks puts a second hook beside guardian's on each outcome event that copies
// the payload into dir, one file per event.
func addCaptureHooks(t *testing.T, w world, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal([]byte(readFile(t, w.claudeSettings())), &settings); err != nil {
		t.Fatal(err)
	}
	hooks := settings["hooks"].(map[string]any)
	for _, event := range hook.ClaudeOutcomeEvents {
		groups, _ := hooks[event].([]any)
		hooks[event] = append(groups, map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{
			"type": "command", "command": "cat > " + filepath.Join(dir, event+".json"),
		}}})
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, w.claudeSettings(), string(b)+"\n")
}

// capturedEvents lists the outcome events whose payloads were captured, copying them to
// $GUARDIAN_E2E_CAPTURE when set.
func capturedEvents(t *testing.T, dir, scenario string) []string {
	t.Helper()
	var events []string
	for _, event := range hook.ClaudeOutcomeEvents {
		b, err := os.ReadFile(filepath.Join(dir, event+".json"))
		if err != nil {
			continue
		}
		events = append(events, event)
		if out := os.Getenv(envCapture); out != "" {
			name := "claude-" + strings.ToLower(event) + "-" + strings.ReplaceAll(scenario, " ", "-") + ".json"
			if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return events
}
