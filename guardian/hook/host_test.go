package hook

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestHostsRoundTrip installs and uninstalls guardian for every host on a config that already
// holds the user's own hooks: install adds exactly one guardian hook that verify's Find sees
// and whose matcher covers the host's tools; installing again changes nothing; uninstall gives
// back the user's hooks and keys, with no guardian entry left.
func TestHostsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	user := map[string][]string{
		"claude":  {`{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"lint.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"bell"}]}]}}`},
		"codex":   {`{"hooks":{"PermissionRequest":[{"matcher":".*","hooks":[{"type":"command","command":"mine.sh","timeout":5}]}]}}`, "model = \"gpt-5\"\n"},
		"gemini":  {`{"general":{"vimMode":true},"hooks":{"BeforeTool":[{"matcher":"read_file","hooks":[{"type":"command","command":"audit.sh","timeout":1000}]}]}}`},
		"copilot": {`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"audit.sh","timeoutSec":5}],"sessionStart":[{"type":"command","bash":"hello.sh"}]}}`},
		"qwen":    {`{"model":{"name":"qwen3-coder"},"hooks":{"PreToolUse":[{"matcher":"read_file","hooks":[{"type":"command","command":"audit.sh","timeout":1000}]}]}}`},
		"cursor":  {`{"version":1,"hooks":{"preToolUse":[{"command":"audit.sh","timeout":5}],"stop":[{"command":"bell.sh"}]}}`},
	}
	for _, h := range Hosts() {
		t.Run(h.Name, func(t *testing.T) {
			paths, err := h.Paths(filepath.Join(dir, h.Name, "settings.json"), func(k string) string { return map[string]string{"HOME": dir}[k] })
			if err != nil {
				t.Fatal(err)
			}
			if h.Name == "codex" {
				if paths, err = h.Paths(filepath.Join(dir, "codex"), nil); err != nil {
					t.Fatal(err)
				}
			}
			files := make([]File, len(paths))
			for i, p := range paths {
				files[i] = File{Path: p}
				if i < len(user[h.Name]) {
					files[i].Content = []byte(user[h.Name][i])
				}
			}
			command := "/usr/local/bin/guardian hook " + h.Name + " --deadline 10s"
			in, err := h.Install(files, command, 15)
			if err != nil {
				t.Fatal(err)
			}
			found, err := h.Verify.Find(in)
			if err != nil || len(found) != 1 || found[0].Command != command {
				t.Fatalf("Find after install = %+v, %v; want the one hook", found, err)
			}
			for _, tool := range h.Verify.Tools {
				if !found[0].Matches(tool) {
					t.Errorf("matcher %q misses %s", found[0].Matcher, tool)
				}
			}
			if got := h.Verify.Timeout(found[0]); got.Seconds() != 15 {
				t.Errorf("host timeout %s, want 15s", got)
			}
			if h.Verify.Check != nil {
				for _, f := range h.Verify.Check(in, found[0]) {
					if !f.OK {
						t.Errorf("check after install: %s", f.Message)
					}
				}
			}
			again, err := h.Install(in, command, 15)
			if err != nil {
				t.Fatal(err)
			}
			for i := range again {
				if !bytes.Equal(again[i].Content, in[i].Content) {
					t.Errorf("second install changed %s:\n%s", again[i].Path, again[i].Content)
				}
			}
			out, err := h.Uninstall(in)
			if err != nil {
				t.Fatal(err)
			}
			if found, _ := h.Verify.Find(out); len(found) != 0 {
				t.Errorf("guardian hook left after uninstall: %+v", found)
			}
			for i, f := range out {
				if strings.Contains(string(f.Content), "guardian") {
					t.Errorf("%s still mentions guardian:\n%s", f.Path, f.Content)
				}
				if i < len(user[h.Name]) && !sameJSONOrText(f.Content, []byte(user[h.Name][i])) {
					t.Errorf("%s after uninstall:\n%s\nwant the user's content:\n%s", f.Path, f.Content, user[h.Name][i])
				}
			}
			if again, _ := h.Uninstall(out); !bytes.Equal(again[0].Content, out[0].Content) {
				t.Error("a second uninstall changed the file")
			}
		})
	}
}

func sameJSONOrText(a, b []byte) bool {
	if json.Valid(b) {
		var va, vb any
		return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
	}
	return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
}

// TestUninstallCodexKeepsLaterHooksTrusted: Codex keys trust by position, so removing
// guardian's group ahead of the user's moves the user's trust entry with it.
func TestUninstallCodexKeepsLaterHooksTrusted(t *testing.T) {
	hooksPath := "/c/hooks.json"
	mine := hookEntry{Type: "command", Command: "mine.sh", Timeout: 5}
	hooksJSON := `{"hooks":{"PermissionRequest":[{"matcher":".*","hooks":[{"type":"command","command":"guardian hook codex --deadline 10s","timeout":15}]},{"matcher":".*","hooks":[{"type":"command","command":"mine.sh","timeout":5}]}]}}`
	myHash, _ := CodexTrustHash(".*", mine.Command, mine.Timeout)
	config, err := SetCodexTrust([]byte("model = \"m\"\n"), CodexTrustKey(hooksPath, 0, 0), "sha256:guardian")
	if err != nil {
		t.Fatal(err)
	}
	config, err = SetCodexTrust(config, CodexTrustKey(hooksPath, 1, 0), myHash)
	if err != nil {
		t.Fatal(err)
	}
	out, err := uninstallCodex([]File{{hooksPath, []byte(hooksJSON)}, {"/c/config.toml", config}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := CodexTrustedHash(out[1].Content, CodexTrustKey(hooksPath, 0, 0)); got != myHash {
		t.Errorf("the user's hook, now group 0, is trusted as %q, want %q:\n%s", got, myHash, out[1].Content)
	}
	if strings.Contains(string(out[1].Content), "sha256:guardian") || strings.Contains(string(out[1].Content), ":1:0") {
		t.Errorf("guardian's trust entry or the old key survived:\n%s", out[1].Content)
	}
	if !strings.HasPrefix(string(out[1].Content), "model = \"m\"\n") {
		t.Errorf("the user's config changed:\n%s", out[1].Content)
	}
}

// TestGeminiPayloads reads BeforeTool payloads shaped as Gemini CLI 0.61.0 sends them
// (packages/core/src/hooks/hookEventHandler.ts fireBeforeToolEvent and createBaseInput; the
// shell tool's args from packages/core/src/tools/shell.ts), as observed by the real-host test.
func TestGeminiPayloads(t *testing.T) {
	base := `"session_id":"s1","transcript_path":"/h/.gemini/tmp/p/chats/session-1.json","cwd":"/w/p","hook_event_name":"BeforeTool","timestamp":"2026-11-24T10:00:00.000Z"`
	for _, tc := range []struct {
		name, payload string
		want          *guardian.Request // nil: no opinion
		neverAllow    bool
		err           string
	}{
		{"shell", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"git status","description":"look"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "git status"}, Cwd: "/w/p", Justification: "look"}), false, ""},
		{"shell in dir_path", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"make","dir_path":"sub"}}`,
			req(riskmodel.ExecRequest{Command: []string{"bash", "-c", "make"}, Cwd: "/w/p/sub"}), false, ""},
		{"write_file", `{` + base + `,"tool_name":"write_file","tool_input":{"file_path":"/h/.bashrc","content":"x"}}`,
			req(riskmodel.ExecRequest{Command: []string{"tee", "--", "/h/.bashrc"}, Cwd: "/w/p", Justification: "the agent's write_file tool writes this file"}), true, ""},
		{"mcp with context", `{` + base + `,"tool_name":"mcp_my_srv_delete_repo","tool_input":{"repo":"x"},"mcp_context":{"server_name":"my_srv","tool_name":"delete_repo","command":"node"}}`,
			mreq(riskmodel.MCPRequest{Server: "my_srv", Tool: "delete_repo", Arguments: map[string]any{"repo": "x"}}), false, ""},
		{"read_file: no opinion", `{` + base + `,"tool_name":"read_file","tool_input":{"file_path":"a"}}`, nil, false, ""},
		{"Command beside command", `{` + base + `,"tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/","Command":"ls"}}`, nil, false, "is not \"command\""},
		{"duplicate tool_name", `{` + base + `,"tool_name":"read_file","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~/"}}`, nil, false, "duplicate key"},
		{"another event", `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, nil, false, "is not BeforeTool"},
		{"no command", `{` + base + `,"tool_name":"run_shell_command","tool_input":{}}`, nil, false, "no \"command\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Gemini{}.Parse([]byte(tc.payload), nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Caller.Host != "gemini" || c.Caller.Session != "s1" || c.Caller.AgentRole != "" {
				t.Errorf("caller %+v", c.Caller)
			}
			gotJSON, _ := json.Marshal(c.Request)
			wantJSON, _ := json.Marshal(tc.want)
			if !bytes.Equal(gotJSON, wantJSON) || c.NeverAllow != tc.neverAllow {
				t.Errorf("request %s neverAllow %v, want %s %v", gotJSON, c.NeverAllow, wantJSON, tc.neverAllow)
			}
		})
	}
}

func req(e riskmodel.ExecRequest) *guardian.Request { r := guardian.ExecRequest(e); return &r }
func mreq(m riskmodel.MCPRequest) *guardian.Request { r := guardian.MCPRequest(m); return &r }

// TestGeminiReplies pins what guardian prints for Gemini CLI and what Gemini makes of it.
func TestGeminiReplies(t *testing.T) {
	call := Call{Event: EventBeforeTool}
	for _, tc := range []struct {
		name  string
		reply Reply
		exit  int
		host  string // interpretGemini of the reply
	}{
		{"allow is no objection", Gemini{}.Answer(call, result(riskmodel.Allow)), 0, "allow"},
		{"deny", Gemini{}.Answer(call, result(riskmodel.Deny)), 0, "deny"},
		{"ask is a deny", Gemini{}.Answer(call, result(riskmodel.Ask)), 0, "deny"},
		{"fail-safe", Gemini{}.Failsafe("", "boom"), 2, "deny"},
		{"fail-safe before the event is known", Gemini{}.Failsafe(EventBeforeTool, "boom"), 2, "deny"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.reply.Exit != tc.exit {
				t.Errorf("exit %d, want %d", tc.reply.Exit, tc.exit)
			}
			if got := interpretGemini(tc.reply.Stdout, tc.reply.Exit); got != tc.host {
				t.Errorf("Gemini reads %q exit %d as %s, want %s", tc.reply.Stdout, tc.reply.Exit, got, tc.host)
			}
		})
	}
	for _, tc := range []struct {
		out  string
		exit int
		want string
	}{
		{"", 1, "runs (fails open: exit status 1, stdout not JSON)"},
		{"garbage", 0, "runs (fails open: exit status 0, stdout not JSON)"},
		{"", 2, "blocked"},
		{"oops", 3, "blocked"},
		{"", 3, "runs (fails open: exit status 3, stdout not JSON)"},
		{`{"decision":"allow"}`, 2, "allow"},
	} {
		if got := interpretGemini([]byte(tc.out), tc.exit); got != tc.want {
			t.Errorf("interpretGemini(%q, %d) = %s, want %s", tc.out, tc.exit, got, tc.want)
		}
	}
}
