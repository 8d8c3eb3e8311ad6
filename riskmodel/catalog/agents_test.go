package catalog

import "testing"

// The coding_agent class: an agent's entry matches only the options that switch its
// approvals or sandbox off, and a package runner's name for it finds the same entry.
func TestCodingAgentEntries(t *testing.T) {
	c := DefaultCommands()
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"codex", []string{"exec", "--dangerously-bypass-approvals-and-sandbox", "task"}, true},
		{"codex", []string{"exec", "-s", "danger-full-access", "task"}, true},
		{"codex", []string{"exec", "--sandbox=danger-full-access"}, true},
		{"codex", []string{"exec", "--full-auto", "task"}, false},
		{"claude-code", []string{"-p", "x", "--dangerously-skip-permissions"}, true},
		{"claude", []string{"--permission-mode", "bypassPermissions"}, true},
		{"claude", []string{"--permission-mode", "acceptEdits"}, false},
		{"gemini-cli", []string{"--approval-mode=yolo"}, true},
		{"aider-chat", []string{"--yes-always"}, true},
		{"aider", []string{"--message", "--yes-always is a flag"}, false},
	} {
		e, ok := c.LookupPackage(tc.name, tc.args)
		got := false
		if ok {
			_, got = e.Unsandboxed(tc.args)
		}
		if got != tc.want {
			t.Errorf("%s %v: unsandboxed = %v, want %v", tc.name, tc.args, got, tc.want)
		}
	}
	if _, ok := c.Lookup("claude-code", nil); ok {
		t.Error("Lookup found a package name as a command")
	}
}

// A coding_agent entry without the options that make it unsandboxed, and a package name
// that is also a command's, are refused when the catalogue loads.
func TestCodingAgentValidation(t *testing.T) {
	for _, data := range []string{
		"[[command]]\nname = \"agentx\"\nclass = \"coding_agent\"\nwhat = \"w\"\nsource = \"s\"\n",
		"[[command]]\nname = \"agentx\"\nclass = \"coding_agent\"\nargs = [\"--yolo\"]\npackages = [\"@scope/agentx\"]\nwhat = \"w\"\nsource = \"s\"\n",
		"[[command]]\nname = \"ls\"\nclass = \"read_only\"\nwhat = \"w\"\nsource = \"s\"\n[[command]]\nname = \"agentx\"\nclass = \"coding_agent\"\nargs = [\"--yolo\"]\npackages = [\"ls\"]\nwhat = \"w\"\nsource = \"s\"\n",
		"[[command]]\nname = \"lsx\"\nclass = \"read_only\"\nargs = [\"--yolo\"]\nwhat = \"w\"\nsource = \"s\"\n",
	} {
		if _, err := loadCommands([]byte(data)); err == nil {
			t.Errorf("loadCommands accepted:\n%s", data)
		}
	}
}
