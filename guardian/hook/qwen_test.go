package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestQwenPayloads reads PreToolUse payloads shaped as Qwen Code 0.24.4 sends them
// (packages/core/src/hooks/hookEventHandler.ts firePreToolUseEvent and createBaseInput; the
// shell tool's parameters from packages/core/src/tools/shell.ts), as the real-host test saw.
func TestQwenPayloads(t *testing.T) {
	base := `"session_id":"s1","transcript_path":"/h/.qwen/projects/p/chats/s1.jsonl","cwd":"/w/p","hook_event_name":"PreToolUse","timestamp":"2026-11-24T10:00:00.000Z","permission_mode":"yolo","tool_use_id":"call_1","tool_call_id":"call_1"`
	for _, tc := range []struct {
		name, payload string
		want          *guardian.Request // nil: no opinion
		neverAllow    bool
		role          guardian.AgentRole
		err           string
	}{
		{"shell", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"git status","description":"look","is_background":false}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "git status"}, Cwd: "/w/p", Justification: "look"}), false, guardian.AgentRoleMain, ""},
		{"shell in directory", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"make","directory":"sub"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "make"}, Cwd: "/w/p/sub"}), false, guardian.AgentRoleMain, ""},
		{"sub-agent", `{` + base + `,"agent_id":"general-purpose-1","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "ls"}, Cwd: "/w/p"}), false, guardian.AgentRoleSubagent, ""},
		{"edit", `{` + base + `,"tool_name":"edit","tool_input":{"file_path":"/h/.bashrc","old_string":"a","new_string":"b"}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "/h/.bashrc"}, Cwd: "/w/p", Justification: "the agent's edit tool writes this file"}), true, guardian.AgentRoleMain, ""},
		{"mcp", `{` + base + `,"tool_name":"mcp__gh__delete_repo","tool_input":{"repo":"x"}}`,
			mreq(riskmodel.MCPRequest{Server: "gh", Tool: "delete_repo", Arguments: map[string]any{"repo": "x"}}), false, guardian.AgentRoleMain, ""},
		{"read_file: no opinion", `{` + base + `,"tool_name":"read_file","tool_input":{"file_path":"a"}}`, nil, false, guardian.AgentRoleMain, ""},
		{"Command beside command", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/","Command":"ls"}}`, nil, false, "", "is not \"command\""},
		{"duplicate tool_name", `{` + base + `,"tool_name":"read_file","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/"}}`, nil, false, "", "duplicate key"},
		{"another event", `{"hook_event_name":"PostToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, nil, false, "", "is not PreToolUse"},
		{"no command", `{` + base + `,"tool_name":"run_shell_command","tool_input":{}}`, nil, false, "", "no \"command\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Qwen{}.Parse([]byte(tc.payload), nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Caller.Host != "qwen" || c.Caller.Session != "s1" || c.Caller.AgentRole != tc.role {
				t.Errorf("caller %+v, want role %q", c.Caller, tc.role)
			}
			gotJSON, _ := json.Marshal(c.Request)
			wantJSON, _ := json.Marshal(tc.want)
			if !bytes.Equal(gotJSON, wantJSON) || c.NeverAllow != tc.neverAllow {
				t.Errorf("request %s neverAllow %v, want %s %v", gotJSON, c.NeverAllow, wantJSON, tc.neverAllow)
			}
		})
	}
}

// TestQwenReplies pins what guardian prints for Qwen Code and what Qwen makes of it.
func TestQwenReplies(t *testing.T) {
	call := Call{Event: EventPreToolUse}
	for _, tc := range []struct {
		name  string
		reply Reply
		host  string // interpretQwen of the reply
	}{
		{"allow is {}", Qwen{}.Answer(call, result(riskmodel.Allow)), "allow"},
		{"deny", Qwen{}.Answer(call, result(riskmodel.Deny)), "deny"},
		{"ask", Qwen{}.Answer(call, result(riskmodel.Ask)), "ask"},
		{"file edit allowed: no opinion", Qwen{}.Answer(Call{Event: EventPreToolUse, NeverAllow: true}, result(riskmodel.Allow)), "allow"},
		{"no verdict", NoVerdict(Qwen{}, EventPreToolUse), "allow"},
		{"fail-safe", Qwen{}.Failsafe(EventPreToolUse, "boom"), "ask"},
		{"fail-safe before the event is known", Qwen{}.Failsafe("", "boom"), "blocked"},
		{"fail-safe for a PermissionRequest", Qwen{}.Failsafe(EventPermissionRequest, "boom"), "blocked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Every answer is printed (or exits 2): the fail-closed wrapper blocks an exit 0
			// with nothing on stdout as a guardian that failed.
			if tc.reply.Exit == 0 && len(bytes.TrimSpace(tc.reply.Stdout)) == 0 {
				t.Errorf("no output with exit 0")
			}
			// Never permissionDecision "allow", which would override another hook's deny.
			if bytes.Contains(tc.reply.Stdout, []byte(`"allow"`)) {
				t.Errorf("reply %s says allow", tc.reply.Stdout)
			}
			if got := interpretQwen(tc.reply.Stdout, tc.reply.Exit); got != tc.host {
				t.Errorf("Qwen reads %q exit %d as %s, want %s", tc.reply.Stdout, tc.reply.Exit, got, tc.host)
			}
		})
	}
	for _, tc := range []struct {
		out  string
		exit int
		want string
	}{
		{"", 1, "runs (fails open: exit status 1)"},
		{"garbage", 0, "runs (fails open: the reply is not one JSON object)"},
		{`{"hookSpecificOutput":{"permissionDecision":"deny"}}`, 2, "blocked"},
		{`{"hookSpecificOutput":{"permissionDecision":"Deny"}}`, 0, `runs (fails open: permissionDecision "Deny")`},
	} {
		if got := interpretQwen([]byte(tc.out), tc.exit); got != tc.want {
			t.Errorf("interpretQwen(%q, %d) = %s, want %s", tc.out, tc.exit, got, tc.want)
		}
	}
}
