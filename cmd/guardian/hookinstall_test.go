package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookInstallRefusesTemporaryBinaries: a binary that go run built (in the build cache or
// a go-build work directory) or that lies in a temp dir can vanish before the next tool call,
// and a hook that cannot start fails open; install refuses it and says how to install.
func TestHookInstallRefusesTemporaryBinaries(t *testing.T) {
	for _, tc := range []struct {
		name, exe string
		env       map[string]string
		goCache   string
		refused   bool
	}{
		{"go run work dir", "/tmp/go-build123456/b001/exe/guardian", nil, "", true},
		{"go-build anywhere", "/var/folders/x/go-build99/b001/exe/guardian", nil, "", true},
		{"system temp dir", "/tmp/guardian", nil, "", true},
		{"TMPDIR", "/scratch/tmp/x/guardian", map[string]string{"TMPDIR": "/scratch/tmp"}, "", true},
		{"GOCACHE from the environment", "/home/dev/.gocache/ab/guardian", map[string]string{"GOCACHE": "/home/dev/.gocache"}, "", true},
		{"go env GOCACHE", "/home/dev/.cache/gobuild/ab/guardian", nil, "/home/dev/.cache/gobuild", true},
		{"go install", "/home/dev/go/bin/guardian", nil, "/home/dev/.cache/go-build", false},
		{"make build", "/home/dev/src/guardian/bin/guardian", nil, "/home/dev/.cache/go-build", false},
		{"a sibling of the temp dir", "/tmpfoo/guardian", nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, out, _ := testDeps("")
			env := map[string]string{"HOME": t.TempDir()}
			for k, v := range tc.env {
				env[k] = v
			}
			d.getenv = func(k string) string { return env[k] }
			d.executable = func() (string, error) { return tc.exe, nil }
			d.goCache = func() string { return tc.goCache }
			root := newRootCmd(d)
			root.SetArgs([]string{"hook", "install", "claude"})
			err := root.ExecuteContext(context.Background())
			if !tc.refused {
				if err != nil || !strings.Contains(out.String(), tc.exe+" hook claude") {
					t.Fatalf("err %v, output %q: want the hook printed", err, out)
				}
				return
			}
			if err == nil {
				t.Fatalf("installed %s: %s", tc.exe, out)
			}
			if got := exitCode(err); got != exitUsage {
				t.Errorf("exit code %d, want %d", got, exitUsage)
			}
			for _, want := range []string{"go install ./cmd/guardian", "make build", "bin/guardian"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// TestHookInstallOwnedFiles: for hosts whose hook is a file of guardian's own (OpenCode's
// plugin, Cline's script), install writes it (executable for Cline) with no backup beside it,
// where the host would load a copy as a second hook, and uninstall removes it.
func TestHookInstallOwnedFiles(t *testing.T) {
	for _, tc := range []struct {
		host, path string
		exec       bool
	}{
		{"opencode", ".config/opencode/plugins/guardian.js", false},
		{"cline", ".cline/hooks/PreToolUse", true},
	} {
		t.Run(tc.host, func(t *testing.T) {
			home := t.TempDir()
			run := func(args ...string) string {
				d, out, _ := testDeps("")
				d.getenv = func(k string) string { return map[string]string{"HOME": home}[k] }
				d.executable = func() (string, error) { return "/usr/local/bin/guardian", nil }
				root := newRootCmd(d)
				root.SetArgs(args)
				if err := root.ExecuteContext(context.Background()); err != nil {
					t.Fatalf("guardian %v: %v\n%s", args, err, out)
				}
				return out.String()
			}
			path := filepath.Join(home, tc.path)
			for range 2 { // the second install rewrites nothing
				run("hook", "install", tc.host, "--write", "--timeout", "9")
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Mode().Perm()&0o100 != 0; got != tc.exec {
				t.Errorf("mode %v, want executable %v", st.Mode(), tc.exec)
			}
			b, _ := os.ReadFile(path)
			if !strings.Contains(string(b), "/usr/local/bin/guardian hook "+tc.host+" --deadline 4s") {
				t.Errorf("%s does not run the hook:\n%s", path, b)
			}
			if out := run("hook", "uninstall", tc.host, "--write"); !strings.Contains(out, "removed "+path) {
				t.Errorf("uninstall said %q", out)
			}
			left, _ := os.ReadDir(filepath.Dir(path))
			if len(left) != 0 {
				t.Errorf("files left beside the hook: %v", left)
			}
			if out := run("hook", "uninstall", tc.host, "--write"); !strings.Contains(out, "nothing to remove") {
				t.Errorf("second uninstall said %q", out)
			}
		})
	}
}

// TestHookBinary: the installers write guardian-hook, the lean entry, when it lies beside
// guardian and can be run; guardian itself otherwise.
func TestHookBinary(t *testing.T) {
	for _, tc := range []struct {
		name string
		lean os.FileMode // guardian-hook's mode; 0: absent
		dir  bool        // guardian-hook is a directory
		want string
	}{
		{"beside guardian", 0o755, false, leanHookName},
		{"absent", 0, false, "guardian"},
		{"not executable", 0o644, false, "guardian"},
		{"a directory", 0, true, "guardian"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			exe := filepath.Join(dir, "guardian")
			if err := os.WriteFile(exe, nil, 0o755); err != nil {
				t.Fatal(err)
			}
			lean := filepath.Join(dir, leanHookName)
			switch {
			case tc.dir:
				if err := os.Mkdir(lean, 0o755); err != nil {
					t.Fatal(err)
				}
			case tc.lean != 0:
				if err := os.WriteFile(lean, nil, tc.lean); err != nil {
					t.Fatal(err)
				}
			}
			if got := hookBinary(exe); got != filepath.Join(dir, tc.want) {
				t.Errorf("hookBinary = %s, want %s", got, filepath.Join(dir, tc.want))
			}
		})
	}
}
