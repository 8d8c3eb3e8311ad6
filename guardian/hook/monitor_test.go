package hook

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestMonitor: in monitor mode every host gets its no-verdict reply — for a deny, an allow and
// a review that failed — while the decider still sees the call, marked Monitor, so the
// decision is recorded.
func TestMonitor(t *testing.T) {
	payloads := map[string]string{
		"claude":   `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~/"}}`,
		"codex":    `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf ~/"}}`,
		"gemini":   `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/"}}`,
		"qwen":     `{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/"}}`,
		"copilot":  `{"sessionId":"s1","timestamp":1767225600000,"cwd":"/w/p","toolName":"bash","toolArgs":{"command":"rm -rf ~/"}}`,
		"opencode": `{"hook_event_name":"tool.execute.before","tool":"bash","sessionID":"s1","callID":"c1","args":{"command":"rm -rf ~/"},"directory":"/w/p"}`,
		"cline":    `{"hookName":"tool_call","taskId":"t1","agent_id":"a1","parent_agent_id":null,"tool_call":{"id":"c1","name":"run_commands","input":{"commands":["rm -rf ~/"]}}}`,
		"cursor":   `{"hook_event_name":"preToolUse","conversation_id":"s1","tool_name":"Shell","tool_input":{"command":"rm -rf ~/"}}`,
	}
	outcomes := []struct {
		name   string
		decide func(context.Context, Call) (guardian.Result, error)
	}{
		{"deny", func(context.Context, Call) (guardian.Result, error) { return result(riskmodel.Deny), nil }},
		{"allow", func(context.Context, Call) (guardian.Result, error) { return result(riskmodel.Allow), nil }},
		{"error", func(context.Context, Call) (guardian.Result, error) {
			return guardian.Result{}, errors.New("serve down")
		}},
	}
	for _, h := range Hosts() {
		for _, o := range outcomes {
			t.Run(h.Name+"/"+o.name, func(t *testing.T) {
				var seen guardian.Caller
				r := Run(context.Background(), Monitor(h.Protocol), Input{Stdin: strings.NewReader(payloads[h.Name])},
					func(ctx context.Context, c Call) (guardian.Result, error) {
						seen = c.Caller
						return o.decide(ctx, c)
					}, DefaultDeadline)
				if !seen.Monitor {
					t.Errorf("decider saw caller %+v, want Monitor", seen)
				}
				if r.Exit != 0 || r.Stderr != "" {
					t.Errorf("exit %d stderr %q, want exit 0 and nothing on stderr", r.Exit, r.Stderr)
				}
				// Claude Code: no output ("no opinion"); Codex: no output ("no verdict"); Qwen
				// Code and Copilot CLI: {} (no decision: their own rules decide; never empty, which
				// their fail-closed wrapper reads as a failure); Gemini: {} (no decision: its
				// approval mode decides); OpenCode's plugin: "none" (it blocks on an empty answer);
				// Cline and Cursor: {} (go on with the host's own settings).
				want := map[string]string{"claude": "", "codex": "", "gemini": "{}\n", "qwen": "{}\n", "copilot": "{}\n",
					"opencode": "{\"decision\":\"none\"}\n", "cline": "{}\n", "cursor": "{}\n"}[h.Name]
				if _, ok := payloads[h.Name]; !ok {
					t.Fatalf("no monitor payload for host %s: add one", h.Name)
				}
				if string(r.Stdout) != want {
					t.Errorf("reply %q, want the host's no-verdict reply %q", r.Stdout, want)
				}
				if o.name == "error" && (r.Failsafe == "" || r.Call == nil || !r.Call.Caller.Monitor) {
					t.Errorf("a failed review in monitor mode must still be recorded as a fail-safe of a monitored call: %+v", r)
				}
			})
		}
	}
}
