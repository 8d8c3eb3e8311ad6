package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestCopilotPayloads reads preToolUse payloads shaped as Copilot CLI 1.0.102 sends them
// (camelCase, toolArgs an object, as the real-host test saw; toolArgs a JSON string, as in
// github/docs content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md) and the
// VS Code-compatible PascalCase PreToolUse (Claude Code's shape, same reference; VS Code's
// code.visualstudio.com/docs/agents/reference/hooks-reference).
func TestCopilotPayloads(t *testing.T) {
	camel := `"sessionId":"s1","timestamp":1767225600000,"cwd":"/w/p"`
	for _, tc := range []struct {
		name, payload string
		want          *guardian.Request // nil: no opinion
		neverAllow    bool
		event, err    string
	}{
		{"bash, args an object", `{` + camel + `,"toolName":"bash","toolArgs":{"command":"git status","description":"look","mode":"sync"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "git status"}, Cwd: "/w/p", Justification: "look"}), false, EventCopilotPreToolUse, ""},
		{"bash, args a JSON string", `{` + camel + `,"toolName":"bash","toolArgs":"{\"command\":\"rm -rf ~/\"}"}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "rm -rf ~/"}, Cwd: "/w/p"}), false, EventCopilotPreToolUse, ""},
		{"create", `{` + camel + `,"toolName":"create","toolArgs":{"path":"/h/.bashrc","file_text":"x"}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "/h/.bashrc"}, Cwd: "/w/p", Justification: "the agent's create tool writes this file"}), true, EventCopilotPreToolUse, ""},
		{"view: no opinion", `{` + camel + `,"toolName":"view","toolArgs":{"path":"a"}}`, nil, false, EventCopilotPreToolUse, ""},
		{"VS Code PreToolUse", `{"hook_event_name":"PreToolUse","session_id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w/p","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "ls"}, Cwd: "/w/p"}), false, EventPreToolUse, ""},
		{"Command beside command", `{` + camel + `,"toolName":"bash","toolArgs":{"command":"rm -rf ~/","Command":"ls"}}`, nil, false, "", "is not \"command\""},
		{"toolname in the wrong case", `{` + camel + `,"toolName":"view","ToolName":"bash","toolArgs":{"command":"rm -rf ~/"}}`, nil, false, "", "is not \"toolName\""},
		{"duplicate toolName", `{` + camel + `,"toolName":"view","toolName":"bash","toolArgs":{"command":"rm -rf ~/"}}`, nil, false, "", "duplicate key"},
		{"another event", `{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`, nil, false, "", "is not PreToolUse"},
		{"no tool", `{` + camel + `}`, nil, false, "", "neither"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Copilot{}.Parse([]byte(tc.payload), nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Caller.Host != "copilot" || c.Caller.Session != "s1" || c.Caller.AgentRole != "" || c.Event != tc.event {
				t.Errorf("caller %+v event %q, want session s1, no role, event %q", c.Caller, c.Event, tc.event)
			}
			gotJSON, _ := json.Marshal(c.Request)
			wantJSON, _ := json.Marshal(tc.want)
			if !bytes.Equal(gotJSON, wantJSON) || c.NeverAllow != tc.neverAllow {
				t.Errorf("request %s neverAllow %v, want %s %v", gotJSON, c.NeverAllow, wantJSON, tc.neverAllow)
			}
		})
	}
}

// TestCopilotReplies pins what guardian prints for Copilot CLI (and VS Code) and what Copilot
// makes of it: allow is no output, never Copilot's allow, which would override the user's
// deny rules; every reply carries the decision in both hosts' places.
func TestCopilotReplies(t *testing.T) {
	call := Call{Event: EventCopilotPreToolUse}
	for _, tc := range []struct {
		name  string
		reply Reply
		host  string
	}{
		{"allow is {}", Copilot{}.Answer(call, result(riskmodel.Allow)), "allow"},
		{"deny", Copilot{}.Answer(call, result(riskmodel.Deny)), "deny"},
		{"ask", Copilot{}.Answer(call, result(riskmodel.Ask)), "ask"},
		{"fail-safe", Copilot{}.Failsafe("", "boom"), "ask"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.reply.Exit != 0 {
				t.Errorf("exit %d, want 0", tc.reply.Exit)
			}
			if got := interpretCopilot(tc.reply.Stdout, tc.reply.Exit); got != tc.host {
				t.Errorf("Copilot reads %q as %s, want %s", tc.reply.Stdout, got, tc.host)
			}
			if tc.name == "allow is {}" {
				// Never "allow": Copilot's allow overrides the user's --deny-tool rules. Never
				// empty: the fail-closed wrapper reads that as a guardian that failed.
				if string(tc.reply.Stdout) != "{}\n" {
					t.Errorf("allow printed %q, want {}", tc.reply.Stdout)
				}
				return
			}
			var vscode struct {
				HookSpecificOutput struct {
					HookEventName, PermissionDecision string
				} `json:"hookSpecificOutput"`
			}
			if json.Unmarshal(tc.reply.Stdout, &vscode) != nil || vscode.HookSpecificOutput.PermissionDecision != tc.host ||
				vscode.HookSpecificOutput.HookEventName != EventPreToolUse {
				t.Errorf("VS Code's hookSpecificOutput is missing or differs: %s", tc.reply.Stdout)
			}
		})
	}
	for _, tc := range []struct {
		out  string
		exit int
		want string
	}{
		{"", 1, "blocked"},
		{"", 0, "allow"},
		{"{}", 0, "allow"},
		{`{"permissionDecision":"allow"}`, 1, "blocked"},
		{"garbage", 0, "runs (fails open: the reply is not one JSON object)"},
		{`{"permissionDecision":"Deny"}`, 0, `runs (fails open: permissionDecision "Deny")`},
		{"{\"permissionDecision\":\"deny\"}\n{}", 0, "runs (fails open: the reply is not one JSON object)"},
	} {
		if got := interpretCopilot([]byte(tc.out), tc.exit); got != tc.want {
			t.Errorf("interpretCopilot(%q, %d) = %s, want %s", tc.out, tc.exit, got, tc.want)
		}
	}
}
