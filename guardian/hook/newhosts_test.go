package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// parseCase is one payload and what a protocol must make of it.
type parseCase struct {
	name, payload string
	want          *guardian.Request // nil: no opinion
	neverAllow    bool
	role          guardian.AgentRole
	err           string
}

// checkParse runs parse cases against p, checking the caller's host and role too.
func checkParse(t *testing.T, p Protocol, host string, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := p.Parse([]byte(tc.payload), nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Caller.Host != host || c.Caller.AgentRole != tc.role {
				t.Errorf("caller %+v, want host %s role %q", c.Caller, host, tc.role)
			}
			gotJSON, _ := json.Marshal(c.Request)
			wantJSON, _ := json.Marshal(tc.want)
			if !bytes.Equal(gotJSON, wantJSON) || c.NeverAllow != tc.neverAllow {
				t.Errorf("request %s neverAllow %v, want %s %v", gotJSON, c.NeverAllow, wantJSON, tc.neverAllow)
			}
		})
	}
}

// TestOpenCodePayloads reads what guardian's plugin sends for OpenCode 1.18.33's tools
// (testdata/opencode: the input and args the real host passed to a plugin).
func TestOpenCodePayloads(t *testing.T) {
	base := `"hook_event_name":"tool.execute.before","sessionID":"s1","callID":"c1","directory":"/w/p","worktree":"/w"`
	checkParse(t, OpenCode{}, "opencode", []parseCase{
		{"recorded bash", string(fixture(t, "opencode/tool-execute-before-bash.json")),
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "touch /w/marks/m && ls"}, Cwd: "/w/p", Justification: "run it"}), false, "", ""},
		{"bash in workdir", `{` + base + `,"tool":"bash","args":{"command":"make","workdir":"sub"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "make"}, Cwd: "/w/p/sub"}), false, "", ""},
		{"write", `{` + base + `,"tool":"write","args":{"filePath":"/h/.bashrc","content":"x"}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "/h/.bashrc"}, Cwd: "/w/p", Justification: "the agent's write tool writes this file"}), true, "", ""},
		{"apply_patch", `{` + base + `,"tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: /h/.profile\n+z\n*** End Patch"}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "a.go", "/h/.profile"}, Cwd: "/w/p", Justification: "the agent's apply_patch tool writes these files"}), true, "", ""},
		{"read", `{` + base + `,"tool":"read","args":{"filePath":"/h/.ssh/id_ed25519"}}`,
			req(riskmodel.ExecRequest{Command: []string{"cat", "--", "/h/.ssh/id_ed25519"}, Cwd: "/w/p", Justification: "the agent's read tool reads this"}), true, "", ""},
		{"grep", `{` + base + `,"tool":"grep","args":{"pattern":"KEY","path":"/h/.aws"}}`,
			req(riskmodel.ExecRequest{Command: []string{"grep", "-r", "-e", "KEY", "--", "/h/.aws"}, Cwd: "/w/p", Justification: "the agent's grep tool reads this"}), true, "", ""},
		{"webfetch", `{` + base + `,"tool":"webfetch","args":{"url":"https://x.example/?k=1","format":"text"}}`,
			req(riskmodel.ExecRequest{Command: []string{"curl", "-fsSL", "--", "https://x.example/?k=1"}, Cwd: "/w/p", Justification: "the agent's webfetch tool fetches this URL"}), true, "", ""},
		{"mcp", `{` + base + `,"tool":"e2e_touch","args":{"path":"/tmp/x"}}`,
			mreq(riskmodel.MCPRequest{Server: "e2e", Tool: "touch", Arguments: map[string]any{"path": "/tmp/x"}}), false, "", ""},
		{"websearch", `{` + base + `,"tool":"websearch","args":{"query":"q"}}`,
			mreq(riskmodel.MCPRequest{Server: "opencode", Tool: "websearch", Arguments: map[string]any{"query": "q"}}), false, "", ""},
		{"task: no opinion", `{` + base + `,"tool":"task","args":{"prompt":"p","subagent_type":"general"}}`, nil, false, "", ""},
		{"todowrite: no opinion", `{` + base + `,"tool":"todowrite","args":{"todos":[]}}`, nil, false, "", ""},
		{"unknown tool without _", `{` + base + `,"tool":"frobnicate","args":{}}`, nil, false, "", "neither one of OpenCode's built-in tools"},
		{"Command beside command", `{` + base + `,"tool":"bash","args":{"command":"rm -rf ~/","Command":"ls"}}`, nil, false, "", `is not "command"`},
		{"duplicate tool", `{` + base + `,"tool":"todowrite","tool":"bash","args":{"command":"rm -rf ~/"}}`, nil, false, "", "duplicate key"},
		{"another event", `{"hook_event_name":"tool.execute.after","tool":"bash","args":{"command":"ls"}}`, nil, false, "", "is not tool.execute.before"},
		{"no command", `{` + base + `,"tool":"bash","args":{}}`, nil, false, "", `no "command"`},
	})
}

// TestOpenCodeReplies pins what guardian answers the plugin and what the plugin makes of it
// (interpretOpenCode mirrors the plugin's decide).
func TestOpenCodeReplies(t *testing.T) {
	shell, write := Call{Event: EventOpenCodeBefore}, Call{Event: EventOpenCodeBefore, NeverAllow: true}
	for _, tc := range []struct {
		name  string
		reply Reply
		want  string
	}{
		{"allow", OpenCode{}.Answer(shell, result(riskmodel.Allow)), "allow"},
		{"allowed write is no opinion", OpenCode{}.Answer(write, result(riskmodel.Allow)), "no opinion"},
		{"deny", OpenCode{}.Answer(shell, result(riskmodel.Deny)), "deny"},
		{"ask blocks", OpenCode{}.Answer(shell, result(riskmodel.Ask)), "ask"},
		{"fail-safe", OpenCode{}.Failsafe("", "boom"), "ask"},
		{"no verdict", OpenCode{}.NoVerdict(""), "no opinion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := interpretOpenCode(tc.reply.Stdout, tc.reply.Exit); got != tc.want {
				t.Errorf("the plugin reads %q exit %d as %s, want %s", tc.reply.Stdout, tc.reply.Exit, got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		out  string
		exit int
	}{{"", 0}, {"garbage", 0}, {`{"decision":"allow"}`, 1}, {`{"decision":"Allow"}`, 0}, {`{"decision":"allow"} {}`, 0}, {`[]`, 0}} {
		if got := interpretOpenCode([]byte(tc.out), tc.exit); got != "blocked" {
			t.Errorf("interpretOpenCode(%q, %d) = %s, want blocked", tc.out, tc.exit, got)
		}
	}
}

// TestOwnedFiles: the plugin and the hook script carry their command and timeout so that
// verify reads them back; a file at the path that is not guardian's is never overwritten; an
// edited guardian file is reported, not vouched for.
func TestOwnedFiles(t *testing.T) {
	command := `/opt/my guardian/guardian hook X --deadline 10s`
	for _, h := range []Host{opencodeHost(), clineHost()} {
		t.Run(h.Name, func(t *testing.T) {
			cmd := strings.Replace(command, "X", h.Name, 1)
			files, err := h.Install([]File{{Path: "/c/f"}}, cmd, 15)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(files[0].Content), "\n"+jsString(cmd)) && !strings.Contains(string(files[0].Content), " "+jsString(cmd)) {
				t.Errorf("the file does not carry the command:\n%s", files[0].Content)
			}
			found, err := h.Verify.Find(files)
			if err != nil || len(found) != 1 || found[0].Command != cmd || h.Verify.Timeout(found[0]).Seconds() != 15 {
				t.Fatalf("Find = %+v, %v", found, err)
			}
			edited := []File{{Path: "/c/f", Content: append(bytes.Clone(files[0].Content), "console.log(1) || true\n"...)}}
			if _, err := h.Verify.Find(edited); err == nil {
				t.Error("an edited file was not reported")
			}
			if _, err := h.Install([]File{{Path: "/c/f", Content: []byte("#!/bin/sh\necho mine\n")}}, cmd, 15); err == nil || !strings.Contains(err.Error(), "not guardian's") {
				t.Errorf("install over the user's file: err = %v", err)
			}
			out, err := h.Uninstall([]File{{Path: "/c/f", Content: []byte("#!/bin/sh\necho mine\n")}})
			if err != nil || string(out[0].Content) != "#!/bin/sh\necho mine\n" {
				t.Errorf("uninstall touched the user's file: %q, %v", out[0].Content, err)
			}
		})
	}
}

// TestClinePayloads reads Cline CLI 3.0.65's tool_call payloads (testdata/cline: recorded
// from the real host; the other tools' inputs from the tool schemas it sends its model).
func TestClinePayloads(t *testing.T) {
	base := `"hookName":"tool_call","taskId":"t1","workspaceRoots":["/w/p"],"userId":"u","iteration":1,"agent_id":"agent_1"`
	main := base + `,"parent_agent_id":null`
	sub := base + `,"parent_agent_id":"agent_0"`
	checkParse(t, Cline{}, "cline", []parseCase{
		{"recorded run_commands", string(fixture(t, "cline/tool-call-run-commands.json")),
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "touch /w/marks/m && ls"}, Cwd: "/w/p"}), false, guardian.AgentRoleMain, ""},
		{"two commands", `{` + main + `,"tool_call":{"id":"c","name":"run_commands","input":{"commands":["cd /","rm -rf ~"]}}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "cd /\nrm -rf ~"}, Cwd: "/w/p"}), false, guardian.AgentRoleMain, ""},
		{"command objects", `{` + main + `,"tool_call":{"id":"c","name":"run_commands","input":{"commands":[{"command":"ls"}]}}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "ls"}, Cwd: "/w/p"}), false, guardian.AgentRoleMain, ""},
		{"sub-agent", `{` + sub + `,"tool_call":{"id":"c","name":"run_commands","input":{"commands":["ls"]}}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "ls"}, Cwd: "/w/p"}), false, guardian.AgentRoleSubagent, ""},
		{"editor", `{` + main + `,"tool_call":{"id":"c","name":"editor","input":{"path":"/h/.bashrc","new_text":"x"}}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "/h/.bashrc"}, Cwd: "/w/p", Justification: "the agent's editor tool writes this file"}), true, guardian.AgentRoleMain, ""},
		{"read_files", `{` + main + `,"tool_call":{"id":"c","name":"read_files","input":{"files":[{"path":"/h/.ssh/id_rsa"},{"path":"a","start_line":1}]}}}`,
			req(riskmodel.ExecRequest{Command: []string{"cat", "--", "/h/.ssh/id_rsa", "a"}, Cwd: "/w/p", Justification: "the agent's read_files tool reads these"}), true, guardian.AgentRoleMain, ""},
		{"fetch_web_content", `{` + main + `,"tool_call":{"id":"c","name":"fetch_web_content","input":{"requests":[{"url":"https://x.example/","prompt":"sum"}]}}}`,
			req(riskmodel.ExecRequest{Command: []string{"curl", "-fsSL", "--", "https://x.example/"}, Cwd: "/w/p", Justification: "the agent's fetch_web_content tool fetches these URLs"}), true, guardian.AgentRoleMain, ""},
		{"mcp", `{` + main + `,"tool_call":{"id":"c","name":"gh__delete_repo","input":{"repo":"x"}}}`,
			mreq(riskmodel.MCPRequest{Server: "gh", Tool: "delete_repo", Arguments: map[string]any{"repo": "x"}}), false, guardian.AgentRoleMain, ""},
		{"spawn_agent: no opinion", `{` + main + `,"tool_call":{"id":"c","name":"spawn_agent","input":{"systemPrompt":"s","task":"t"}}}`, nil, false, guardian.AgentRoleMain, ""},
		{"duplicate name", `{` + main + `,"tool_call":{"id":"c","name":"spawn_agent","name":"run_commands","input":{"commands":["rm -rf ~"]}}}`, nil, false, "", "duplicate key"},
		{"legacy event", `{"hookName":"PreToolUse","preToolUse":{"toolName":"execute_command","parameters":{"command":"ls"}}}`, nil, false, "", "is not tool_call"},
		{"no commands", `{` + main + `,"tool_call":{"id":"c","name":"run_commands","input":{"commands":[]}}}`, nil, false, "", `no "commands"`},
	})
}

// TestClineReplies: every answer is JSON with exit 0 (the hook script cancels on anything
// else), and deny, ask and the fail-safe all cancel.
func TestClineReplies(t *testing.T) {
	call := Call{Event: EventClineToolCall}
	for _, tc := range []struct {
		name  string
		reply Reply
		want  string
	}{
		{"allow", Cline{}.Answer(call, result(riskmodel.Allow)), "allow"},
		{"deny", Cline{}.Answer(call, result(riskmodel.Deny)), "deny"},
		{"ask cancels", Cline{}.Answer(call, result(riskmodel.Ask)), "deny"},
		{"fail-safe", Cline{}.Failsafe("", "boom"), "deny"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.reply.Exit != 0 {
				t.Errorf("exit %d, want 0", tc.reply.Exit)
			}
			if got := interpretCline(tc.reply.Stdout, tc.reply.Exit); got != tc.want {
				t.Errorf("Cline reads %q as %s, want %s", tc.reply.Stdout, got, tc.want)
			}
		})
	}
	if r := (Cline{}).Failsafe("", "boom"); !strings.Contains(string(r.Stdout), `"errorMessage":"guardian could not review`) {
		t.Errorf("fail-safe %s does not carry the reason in errorMessage (Cline's cancel reason)", r.Stdout)
	}
	// Every other output and exit status is a failure, which guardian's hook script cancels.
	for _, tc := range []struct {
		out  string
		exit int
	}{{"garbage", 0}, {"", 0}, {`{"cancel":true}`, 1}, {`{}`, 1}, {"", 2}, {`{"cancel":false}`, 0}, {"{}\n{}\n", 0}} {
		if got := interpretCline([]byte(tc.out), tc.exit); got != "blocked" {
			t.Errorf("interpretCline(%q, %d) = %s, want blocked (the script cancels)", tc.out, tc.exit, got)
		}
	}
}

// TestCursorPayloads reads Cursor's preToolUse payloads (testdata/cursor: built from the
// published shapes; its README says where each comes from).
func TestCursorPayloads(t *testing.T) {
	base := `"conversation_id":"s1","generation_id":"g1","hook_event_name":"preToolUse","cwd":"/w/p","workspace_roots":["/w/p"],"tool_use_id":"t1"`
	checkParse(t, Cursor{}, "cursor", []parseCase{
		{"shell", string(fixture(t, "cursor/pretooluse-shell.json")),
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "git push --force origin main"}, Cwd: "/w/p"}), false, "", ""},
		{"mcp", string(fixture(t, "cursor/pretooluse-mcp.json")),
			mreq(riskmodel.MCPRequest{Server: "cursor", Tool: "delete_repo", Arguments: map[string]any{"repo": "acme/app"}}), false, "", ""},
		{"read", string(fixture(t, "cursor/pretooluse-read.json")),
			req(riskmodel.ExecRequest{Command: []string{"cat", "--", "/h/.ssh/id_ed25519"}, Cwd: "/w/p", Justification: "the agent's Read tool reads this"}), true, "", ""},
		{"delete", `{` + base + `,"tool_name":"Delete","tool_input":{"path":"/h/.zshrc"}}`,
			req(riskmodel.ExecRequest{Command: []string{"rm", "--", "/h/.zshrc"}, Cwd: "/w/p", Justification: "the agent's Delete tool changes this file"}), true, "", ""},
		{"task: no opinion", `{` + base + `,"tool_name":"Task","tool_input":{"prompt":"p"}}`, nil, false, "", ""},
		{"Command beside command", `{` + base + `,"tool_name":"Shell","tool_input":{"command":"rm -rf ~/","Command":"ls"}}`, nil, false, "", `is not "command"`},
		{"another event", `{"hook_event_name":"beforeShellExecution","command":"ls"}`, nil, false, "", "is not preToolUse"},
	})
}

// TestCursorInstall: the installed entry sets failClosed, and verify fails an entry without it.
func TestCursorInstall(t *testing.T) {
	h := cursorHost()
	files, err := h.Install([]File{{Path: "/h/.cursor/hooks.json", Content: []byte(`{"version":1,"hooks":{"afterFileEdit":[{"command":"fmt.sh"}]}}`)}}, "guardian hook cursor --deadline 10s", 15)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files[0].Content), `"failClosed": true`) || !strings.Contains(string(files[0].Content), "fmt.sh") {
		t.Fatalf("hooks.json after install:\n%s", files[0].Content)
	}
	found, _ := h.Verify.Find(files)
	if f := h.Verify.Check(files, found[0]); !f[0].OK {
		t.Errorf("check of the installed entry: %s", f[0].Message)
	}
	found[0].OnFailure = ""
	if f := h.Verify.Check(files, found[0]); f[0].OK {
		t.Error("an entry without failClosed passed the check")
	}
	for _, tc := range []struct {
		reply Reply
		want  string
	}{
		{Cursor{}.Answer(Call{}, result(riskmodel.Allow)), "allow"},
		{Cursor{}.Answer(Call{}, result(riskmodel.Deny)), "deny"},
		{Cursor{}.Answer(Call{}, result(riskmodel.Ask)), "deny"},
		{Cursor{}.Failsafe("", "boom"), "deny"},
	} {
		if got := interpretCursor(tc.reply.Stdout, tc.reply.Exit); got != tc.want {
			t.Errorf("Cursor reads %q as %s, want %s", tc.reply.Stdout, got, tc.want)
		}
	}
}
