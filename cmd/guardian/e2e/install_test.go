package e2e

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/riskmodel"
)

// TestMCPCallReachesHook proves the installed matchers cover MCP tools: an MCP tool call of
// each real host reaches guardian's hook (an audit record of the call) and is stopped
// (guardian asks about an MCP deploy — the e2e server's deploy only creates the marker file:
// Claude Code in -p mode denies, Codex hands it to its own reviewer, which denies). A plain
// touch would not do: an MCP write of a scratch file is routine, as `touch /tmp/x` is.
func TestMCPCallReachesHook(t *testing.T) {
	s := need(t)
	for _, h := range hostsOf(s) {
		t.Run(h.Name(), func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.guardian)
			r := h.Run(t, w, h.MCPCall("e2e", "deploy", map[string]any{"path": w.mark("mcp")}),
				runOpts{Permissive: true, MCP: []mcpServer{s.touchServer("e2e")}})
			got := classify(h, r, w.marked("mcp"))
			t.Logf("%s MCP call: %s in %s; the model was told: %s", h.Name(), got, r.took, abbrev(r.Result.Text, 300))
			want := map[string]outcome{"claude": guardianDenied, "codex": noVerdict}[h.Name()]
			if got != want {
				t.Fatalf("outcome %q, want %q\n%s", got, want, r.describe())
			}
			recs := w.audited(t)
			if len(recs) != 1 || recs[0].Kind != riskmodel.KindMCP || !strings.Contains(string(recs[0].Request), `"tool":"deploy"`) ||
				recs[0].Caller.Host != h.Name() {
				t.Fatalf("want one audit record of the MCP call deploy from %s, got %+v", h.Name(), recs)
			}
			if h.Name() == "codex" && !hookAnswered(r.Hook) {
				t.Errorf("Codex reports its hook as %q, want it to have answered", r.Hook)
			}
		})
	}
}

// TestClaudeMatcherMismatch shows what a matcher that misses MCP tools costs — the MCP call
// runs without guardian ever seeing it — and that guardian verify reports the matcher.
func TestClaudeMatcherMismatch(t *testing.T) {
	s := need(t)
	h := claudeHost{bin: s.claude}
	w := preparedWorld(t, h)
	install(t, h, w, s.guardian)
	// A bare prefix: Claude Code matches the whole tool name, so this matches no MCP tool.
	setClaudeMatcher(t, w, "Bash|mcp__e2e")
	r := h.Run(t, w, h.MCPCall("e2e", "touch", map[string]any{"path": w.mark("mcp")}),
		runOpts{Permissive: true, MCP: []mcpServer{s.touchServer("e2e")}})
	if got := classify(h, r, w.marked("mcp")); got != ran {
		t.Fatalf("with the matcher Bash|mcp__e2e the MCP call: %q, want it to run unseen (is the matcher checked differently now?)\n%s", got, r.describe())
	}
	if recs := w.audited(t); len(recs) != 0 {
		t.Fatalf("guardian's hook saw the call through a matcher that should miss it: %+v", recs)
	}
	v := start(t, w.project, w.env(), s.guardian, "verify")
	t.Logf("guardian verify:\n%s", v.out)
	if v.code != 1 || !regexp.MustCompile(`FAIL  matcher covers .*misses mcp__example__tool`).MatchString(v.out) {
		t.Fatalf("guardian verify should fail on the matcher (exit 1, FAIL matcher covers … misses mcp__example__tool); exit %d:\n%s", v.code, v.out)
	}
}

// setClaudeMatcher rewrites the matcher of the first PreToolUse group in the world's Claude
// Code settings.
func setClaudeMatcher(t *testing.T, w world, matcher string) {
	t.Helper()
	var settings map[string]any
	if err := json.Unmarshal([]byte(readFile(t, w.claudeSettings())), &settings); err != nil {
		t.Fatal(err)
	}
	hooks, _ := settings["hooks"].(map[string]any)
	groups, _ := hooks["PreToolUse"].([]any)
	if len(groups) == 0 {
		t.Fatalf("no PreToolUse hook in %s", w.claudeSettings())
	}
	groups[0].(map[string]any)["matcher"] = matcher
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, w.claudeSettings(), string(b))
}

// TestCodexTrust proves that the trust entry guardian's installer writes is the one Codex
// requires: with it Codex runs the hook; with the entry altered or removed Codex skips the
// hook without a word (its own reviewer decides, guardian records nothing), and guardian
// verify reports the hook as untrusted.
func TestCodexTrust(t *testing.T) {
	s := need(t)
	h := codexHost{bin: s.codex, path: s.codexPath}
	config := func(w world) string { return filepath.Join(w.codexHome(), "config.toml") }
	trusted := regexp.MustCompile(`(?m)^trusted_hash = "sha256:[0-9a-f]{64}"$`)
	cases := []struct {
		name   string
		edit   func(string) string
		verify string // verify's complaint
	}{
		{"as-installed", func(c string) string { return c }, ""},
		{"hash-altered", func(c string) string {
			return trusted.ReplaceAllString(c, `trusted_hash = "sha256:`+strings.Repeat("0", 64)+`"`)
		}, "FAIL  trusted: the trusted_hash in .* is for another hook"},
		{"entry-removed", func(c string) string {
			return regexp.MustCompile(`(?m)^\[hooks\.state\..*\]\n`+trusted.String()[4:]+`\n?`).ReplaceAllString(c, "")
		}, `FAIL  trusted: no \[hooks.state.".*hooks.json:permission_request:0:0"\]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := preparedWorld(t, h)
			install(t, h, w, s.guardian)
			before := readFile(t, config(w))
			after := c.edit(before)
			if c.verify != "" && after == before {
				t.Fatalf("the edit changed nothing in:\n%s", before)
			}
			writeFile(t, config(w), after)
			r := h.Run(t, w, h.Shell("touch "+w.mark("push")+" && git push --force origin main"), runOpts{})
			got := classify(h, r, w.marked("push"))
			recs := w.audited(t)
			v := start(t, w.project, w.env(), s.guardian, "verify")
			t.Logf("trust %s: %s, hook %q, %d audit record(s); guardian verify exit %d", c.name, got, r.Hook, len(recs), v.code)
			if c.verify == "" {
				if got != guardianDenied || !hookAnswered(r.Hook) || len(recs) != 1 {
					t.Fatalf("trusted hook: outcome %q, hook %q, %d audit records; want guardian's deny from a completed hook\n%s", got, r.Hook, len(recs), r.describe())
				}
				if v.code != 0 {
					t.Fatalf("guardian verify fails on a hook as installed:\n%s", v.out)
				}
				return
			}
			if got != noVerdict || r.Hook != "" || len(recs) != 0 {
				t.Fatalf("untrusted hook: outcome %q, hook %q, %d audit records; want Codex to skip the hook silently and its reviewer to decide\n%s",
					got, r.Hook, len(recs), r.describe())
			}
			if v.code != 1 || !regexp.MustCompile(c.verify).MatchString(v.out) {
				t.Fatalf("guardian verify: exit %d, want 1 with %q:\n%s", v.code, c.verify, v.out)
			}
		})
	}
}

// TestInstallTwice checks the installers on the real files once: the user's own settings
// survive with a backup of them, and a second install changes nothing (no new backup).
func TestInstallTwice(t *testing.T) {
	s := need(t)
	for _, h := range hostsOf(s) {
		t.Run(h.Name(), func(t *testing.T) {
			w := preparedWorld(t, h)
			file, userLine := w.claudeSettings(), `"E2E_USER_SETTING": "kept"`
			if h.Name() == "codex" {
				file, userLine = filepath.Join(w.codexHome(), "config.toml"), `model_provider = "fake"`
			}
			first := install(t, h, w, s.guardian)
			if !strings.Contains(first, "previous content saved as "+file+".guardian-backup-") {
				t.Errorf("first install: no backup of %s reported:\n%s", file, first)
			}
			content := readFile(t, file)
			if !strings.Contains(content, userLine) {
				t.Errorf("the user's %s is gone from %s:\n%s", userLine, file, content)
			}
			second := install(t, h, w, s.guardian)
			if !strings.Contains(second, "already installed") {
				t.Errorf("second install did not say it was already installed:\n%s", second)
			}
			if again := readFile(t, file); again != content {
				t.Errorf("second install changed %s:\n%s", file, again)
			}
			backups, err := filepath.Glob(file + ".guardian-backup-*")
			if err != nil || len(backups) != 1 {
				t.Errorf("backups of %s: %v (%v), want exactly one", file, backups, err)
			}
			if v := start(t, w.project, w.env(), s.guardian, "verify"); v.code != 0 {
				t.Errorf("guardian verify after installing twice: exit %d\n%s", v.code, v.out)
			}
		})
	}
}
