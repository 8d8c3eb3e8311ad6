package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// host is one real agent host as the suite drives it: headless, against its fake model, in a
// world (temporary HOME and project), with or without guardian as its hook.
type host interface {
	// Name is "claude" or "codex": guardian's hook and installer verb for the host.
	Name() string
	// Shell is the host's shell tool call for command — for Codex an escalation request,
	// since only those reach its PermissionRequest hook.
	Shell(command string) toolCall
	// MCPCall is the host's call of tool on the MCP server named server.
	MCPCall(server, tool string, args map[string]any) toolCall
	// Prepare writes the host's own config into the world (before any hook is installed).
	Prepare(t *testing.T, w world)
	// Run starts the host's fake model scripted with call, runs the host once, and reports
	// what happened.
	Run(t *testing.T, w world, call toolCall, o runOpts) hostRun
}

// runOpts are the knobs of one host run.
type runOpts struct {
	// Env is added to the host's environment; the hook inherits it.
	Env []string
	// Permissive makes the host willing to run the call without the hook's consent, so a
	// hook that fails open lets the marker appear (Claude: --allowedTools for the tool;
	// Codex's escalations always ask, so it needs nothing).
	Permissive bool
	// MCP servers the host starts.
	MCP []mcpServer
	// Args are extra host arguments (Claude Code: --permission-mode MODE).
	Args []string
}

// hostRun is what came of one host run.
type hostRun struct {
	run
	// Result is what the host told the model about the scripted call; Got says whether it
	// told it anything.
	Result toolResult
	Got    bool
	// Stopped says the host stopped the whole task at the hook (Cline's cancel), so no tool
	// result was ever sent.
	Stopped bool
	// AutoReviews counts Codex's own reviewer's requests (always 0 for Claude Code).
	AutoReviews int
	// Hook is what Codex said of its PermissionRequest hook: "Completed" (it answered by
	// itself: allow or no verdict), "Blocked" (it denied), "Failed" (it timed out or
	// crashed), "" (it never ran: no hook, or one Codex does not trust). Claude Code says
	// nothing of its hooks; it is "" there.
	Hook string
	// Requests made to the fake model, for failure messages.
	Requests []string
}

// describe is a run for a failure message.
func (r hostRun) describe() string {
	return "tool result: " + abbrev(r.Result.Text, 800) + "\nmodel requests:\n  " + strings.Join(r.Requests, "\n  ") + "\nhost output:\n" + abbrev(r.out, 4000)
}

// install runs guardian's real installer for h in w: `guardian hook install HOST --write`
// with the world's HOME (and CODEX_HOME), plus args.
// When guardian-hook lies beside bin (make e2e builds it beside guardian, as make build does),
// the installer must write it into the host's config, as it does for users: the hosts then run
// the lean entry, and the suite proves it.
func install(t *testing.T, h host, w world, bin string, args ...string) string {
	t.Helper()
	out := w.guardianCmd(t, bin, nil, append([]string{"hook", "install", h.Name(), "--write"}, args...)...)
	lean := filepath.Join(filepath.Dir(bin), leanHook)
	if _, err := os.Stat(lean); err == nil && !slices.Contains(args, "--command") && !worldMentions(t, w, lean) {
		t.Fatalf("guardian hook install %s wrote no hook command running %s, which lies beside %s", h.Name(), lean, bin)
	}
	return out
}

// worldMentions reports whether a file under the world's root holds s.
func worldMentions(t *testing.T, w world, s string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(w.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found || !d.Type().IsRegular() {
			return err
		}
		if info, err := d.Info(); err != nil || info.Size() > 1<<20 {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), s) {
			found = true
		}
		return err
	})
	if err != nil {
		t.Fatalf("search %s for %s: %v", w.root, s, err)
	}
	return found
}

// preparedWorld is a new world holding the host's own config.
func preparedWorld(t *testing.T, h host) world {
	t.Helper()
	w := newWorld(t)
	h.Prepare(t, w)
	return w
}
