package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const cmdClaude = "'/usr/local/bin/guardian' hook claude --deadline 8s"

func TestInstallClaude(t *testing.T) {
	existing := `{
  "model": "opus",
  "hooks": {
    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "log.sh"}]}],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint-commands.sh"}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/old/guardian hook claude", "timeout": 5}]},
      {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "guardian hook claude"}]}
    ]
  },
  "env": {"A": "1"}
}`
	out, changed, err := InstallClaude([]byte(existing), cmdClaude, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !changed {
		t.Error("changed = false for a replaced hook")
	}
	s := string(out)
	// Key order and unrelated hooks survive; the old guardian groups become one, in place.
	if i, j, k := strings.Index(s, `"model"`), strings.Index(s, `"hooks"`), strings.Index(s, `"env"`); !(i < j && j < k) {
		t.Errorf("top-level key order changed:\n%s", s)
	}
	var got struct {
		Hooks struct {
			PreToolUse  []hookGroup
			PostToolUse []hookGroup
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	pre := got.Hooks.PreToolUse
	if len(pre) != 2 || pre[0].Hooks[0].Command != "lint-commands.sh" || pre[1].Matcher != ClaudeMatcher ||
		pre[1].Hooks[0] != (hookEntry{Type: "command", Command: cmdClaude, Timeout: 10, OnFailure: "block"}) {
		t.Errorf("PreToolUse = %+v", pre)
	}
	post := got.Hooks.PostToolUse
	if len(post) != 2 || post[0].Hooks[0].Command != "log.sh" ||
		post[1].Hooks[0] != (hookEntry{Type: "command", Command: cmdClaude, Timeout: 10}) {
		t.Errorf("PostToolUse = %+v: want the user's hook, then guardian's (no onFailure)", post)
	}
	again, changed, err := InstallClaude(out, cmdClaude, 10)
	if err != nil || changed || string(again) != string(out) {
		t.Errorf("second install: changed=%v err=%v; want the same content", changed, err)
	}
}

func TestInstallClaudeNewFile(t *testing.T) {
	out, changed, err := InstallClaude(nil, "guardian hook claude", 10)
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	// The golden file is the whole new settings file: PreToolUse with onFailure "block", and
	// the outcome events without it (their hooks must never stop the host).
	want, err := os.ReadFile(filepath.Join("testdata", "claude-settings-new.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Errorf("new settings:\n%s\nwant:\n%s", out, want)
	}
}

func TestInstallClaudeRejectsBadSettings(t *testing.T) {
	for _, in := range []string{`[1]`, `{"hooks": []}`, `{"hooks": {"PreToolUse": {}}}`, `{"a": 1} x`, `{"a":`} {
		if _, _, err := InstallClaude([]byte(in), "guardian hook claude", 10); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

// TestClaudeMatcher: the matcher is matched as a whole-name regex by Claude Code.
func TestClaudeMatcher(t *testing.T) {
	re := regexp.MustCompile("^(?:" + ClaudeMatcher + ")$")
	for _, name := range []string{"Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Grep", "Glob", "WebFetch", "WebSearch",
		"mcp__e2e__touch", "mcp__github__create_issue"} {
		if !re.MatchString(name) {
			t.Errorf("matcher misses %s", name)
		}
	}
	for _, name := range []string{"bash", "Task", "TodoWrite", "ReadMcpResource", "LS"} {
		if re.MatchString(name) {
			t.Errorf("matcher covers %s", name)
		}
	}
}

func TestCodexTrustHash(t *testing.T) {
	// Expected values computed independently: sha256 of Python's
	// json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
	tests := []struct {
		matcher, command string
		timeout          int
		want             string
	}{
		{".*", "'/usr/local/bin/guardian' hook codex --deadline 8s", 10, "sha256:eb1acb55f04535349665e86c299448c3ec82047c39baa21581747eb1b7faf29c"},
		{"", "a && b > c", 0, "sha256:38432bf60d9d51bf8df9ac5532a70b57031e56c3314229402b722940f647e0a5"},
	}
	for _, tc := range tests {
		got, err := CodexTrustHash(tc.matcher, tc.command, tc.timeout)
		if err != nil || got != tc.want {
			t.Errorf("CodexTrustHash(%q, %q, %d) = %s, %v; want %s", tc.matcher, tc.command, tc.timeout, got, err, tc.want)
		}
	}
}

func TestInstallCodex(t *testing.T) {
	const cmd = "'/usr/local/bin/guardian' hook codex --deadline 8s"
	hooks := `{"hooks":{"PermissionRequest":[{"matcher":"Bash","hooks":[{"type":"command","command":"other.sh"}]}]}}`
	config := "# my settings\nmodel = \"gpt-5\" # inline comment\n\n[analytics]\nenabled = false\n"
	res, err := InstallCodex([]byte(hooks), "/home/dev/.codex/hooks.json", []byte(config), cmd, 10)
	if err != nil {
		t.Fatal(err)
	}
	if res.TrustKey != "/home/dev/.codex/hooks.json:permission_request:1:0" {
		t.Errorf("trust key %q: guardian's group is the second one", res.TrustKey)
	}
	if res.TrustHash != "sha256:eb1acb55f04535349665e86c299448c3ec82047c39baa21581747eb1b7faf29c" {
		t.Errorf("trust hash %s", res.TrustHash)
	}
	cfg := string(res.ConfigTOML)
	if !strings.HasPrefix(cfg, config) || !strings.Contains(cfg, `[hooks.state."/home/dev/.codex/hooks.json:permission_request:1:0"]`+"\ntrusted_hash = \""+res.TrustHash+"\"\n") {
		t.Errorf("config.toml:\n%s", cfg)
	}
	// Reinstalling with another timeout replaces the hash line in place.
	again, err := InstallCodex(res.HooksJSON, "/home/dev/.codex/hooks.json", res.ConfigTOML, cmd, 20)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(again.ConfigTOML), "trusted_hash") != 1 || strings.Contains(string(again.ConfigTOML), res.TrustHash) {
		t.Errorf("reinstall did not replace the hash:\n%s", again.ConfigTOML)
	}
	if got, _ := CodexTrustedHash(again.ConfigTOML, again.TrustKey); got != again.TrustHash {
		t.Errorf("trusted hash read back %q, want %q", got, again.TrustHash)
	}
	same, err := InstallCodex(again.HooksJSON, "/home/dev/.codex/hooks.json", again.ConfigTOML, cmd, 20)
	if err != nil || string(same.HooksJSON) != string(again.HooksJSON) || string(same.ConfigTOML) != string(again.ConfigTOML) {
		t.Errorf("third install changed the files (err %v)", err)
	}
}

func TestInstallCodexRefusesInlineHooksTable(t *testing.T) {
	_, err := InstallCodex(nil, "/c/hooks.json", []byte("hooks = { state = {} }\n"), "guardian hook codex", 10)
	if err == nil || !strings.Contains(err.Error(), "add these lines yourself") {
		t.Errorf("err = %v, want instructions to add the entry by hand", err)
	}
}

func TestFindInstalled(t *testing.T) {
	settings, _, err := InstallClaude([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"x"}]}]}}`), "/bin/guardian hook claude --deadline 10s", 15)
	if err != nil {
		t.Fatal(err)
	}
	found, err := FindInstalled(settings, "PreToolUse", "claude")
	if err != nil || len(found) != 1 {
		t.Fatalf("found %+v, %v", found, err)
	}
	h := found[0]
	if h.Group != 1 || h.Index != 0 || h.Timeout != 15 || h.OnFailure != "block" {
		t.Errorf("hook %+v", h)
	}
	if d, err := h.Deadline(); err != nil || d.String() != "10s" {
		t.Errorf("deadline %s, %v", d, err)
	}
	if !h.Matches("Bash") || !h.Matches("mcp__db__drop") || !h.Matches("Read") || h.Matches("TodoWrite") {
		t.Errorf("matcher %q", h.Matcher)
	}
	if d, _ := (Installed{Command: "guardian hook claude"}).Deadline(); d != DefaultDeadline {
		t.Errorf("no flag: %s", d)
	}
	if got, _ := FindInstalled(settings, "PreToolUse", "codex"); len(got) != 0 {
		t.Errorf("found a codex hook in claude settings: %+v", got)
	}
}
