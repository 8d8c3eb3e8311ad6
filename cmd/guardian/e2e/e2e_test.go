package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian/audit"
)

// The environment make e2e hands the suite.
const (
	envE2E       = "GUARDIAN_E2E"        // "1": run; unset: skip
	envHosts     = "GUARDIAN_E2E_HOSTS"  // the npm project holding the installed hosts
	envGuardian  = "GUARDIAN_E2E_BIN"    // the guardian binary under test
	envFaults    = "GUARDIAN_E2E_FAULTS" // guardian built with -tags guardian_faults
	envRole      = "GUARDIAN_E2E_ROLE"   // set when the test binary is re-executed as a helper
	roleMCP      = "mcp-server"          // …as a stdio MCP server
	runTimeout   = 90 * time.Second      // one host run, far above any hook timeout used here
	makeE2EHint  = "run make e2e"
	basePathList = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	leanHook     = "guardian-hook" // the lean hook entry the installers prefer when it lies beside guardian
)

// TestMain lets the test binary double as the helpers the hosts start (a stdio MCP server).
func TestMain(m *testing.M) {
	if os.Getenv(envRole) == roleMCP {
		os.Exit(serveMCP(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// suite is what every end-to-end test needs: the two guardian binaries and the two hosts.
type suite struct {
	guardian, faults string // guardian, and guardian with fault injection
	claude           string // Claude Code's native binary
	codex            string // Codex's native binary
	codexPath        string // the directory of helper tools Codex expects on PATH (rg)
	gemini           string // Gemini CLI's bundle (run by node)
	qwen             string // Qwen Code's entry script (run by node)
	copilot          string // Copilot CLI's native binary
	opencode         string // OpenCode's native binary
	cline            string // Cline CLI's native binary
	self             string // this test binary, re-executed as a helper
}

// need returns the suite, skipping the test unless GUARDIAN_E2E=1; with it set, a missing
// prerequisite fails the test with the fix. It also checks that the process runs in a
// network namespace whose only interface is the loopback: the hosts must not reach anything
// but the fakes on 127.0.0.1.
func need(t *testing.T) suite {
	t.Helper()
	if os.Getenv(envE2E) != "1" {
		t.Skipf("end-to-end tests against the real Claude Code and Codex: %s", makeE2EHint)
	}
	var problems []string
	file := func(what, path, fix string) string {
		if path == "" {
			problems = append(problems, fmt.Sprintf("%s: not given (%s)", what, fix))
			return ""
		}
		if st, err := os.Stat(path); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			problems = append(problems, fmt.Sprintf("%s: %s is not an executable file (%s)", what, path, fix))
		}
		return path
	}
	s := suite{
		guardian: file("guardian", os.Getenv(envGuardian), "set "+envGuardian+" to a guardian binary, or "+makeE2EHint),
		faults:   file("guardian with faults", os.Getenv(envFaults), "set "+envFaults+" to a binary built with go build -tags guardian_faults, or "+makeE2EHint),
	}
	// The hosts run guardian-hook, as users' do: make e2e builds it beside guardian. The
	// faults binary must stand alone, or its installs would run guardian-hook, which has no
	// faults to inject.
	if s.guardian != "" {
		file("guardian-hook", filepath.Join(filepath.Dir(s.guardian), leanHook), "build it beside guardian: CGO_ENABLED=0 go build -o "+filepath.Dir(s.guardian)+"/"+leanHook+" ./cmd/guardian-hook, or "+makeE2EHint)
	}
	if s.faults != "" {
		if _, err := os.Stat(filepath.Join(filepath.Dir(s.faults), leanHook)); err == nil {
			problems = append(problems, fmt.Sprintf("guardian with faults: %s has %s beside it, which its installs would run instead; put it in a directory of its own (%s)", s.faults, leanHook, makeE2EHint))
		}
	}
	hosts := os.Getenv(envHosts)
	claudePkg, codexTriple, err := platformPackages()
	switch {
	case err != nil:
		problems = append(problems, err.Error())
	case hosts == "":
		problems = append(problems, fmt.Sprintf("hosts: %s is not set (it names the directory where npm ci installed cmd/guardian/e2e/testdata/hosts; %s)", envHosts, makeE2EHint))
	default:
		fix := "npm ci in " + hosts + " (a copy of cmd/guardian/e2e/testdata/hosts), or " + makeE2EHint
		s.claude = file("Claude Code", filepath.Join(hosts, "node_modules", "@anthropic-ai", claudePkg, "claude"), fix)
		vendor := filepath.Join(hosts, "node_modules", "@openai", "codex-"+strings.TrimPrefix(claudePkg, "claude-code-"), "vendor", codexTriple)
		s.codex = file("Codex", filepath.Join(vendor, "bin", "codex"), fix)
		s.codexPath = filepath.Join(vendor, "codex-path")
		s.gemini = filepath.Join(hosts, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
		if _, err := os.Stat(s.gemini); err != nil {
			problems = append(problems, fmt.Sprintf("Gemini CLI: %v (%s)", err, fix))
		}
		s.qwen = filepath.Join(hosts, "node_modules", "@qwen-code", "qwen-code", "cli-entry.js")
		if _, err := os.Stat(s.qwen); err != nil {
			problems = append(problems, fmt.Sprintf("Qwen Code: %v (%s)", err, fix))
		}
		s.copilot = file("Copilot CLI", filepath.Join(hosts, "node_modules", "@github", "copilot-"+strings.TrimPrefix(claudePkg, "claude-code-"), "copilot"), fix)
		s.opencode = file("OpenCode", filepath.Join(hosts, "node_modules", "opencode-"+strings.TrimPrefix(claudePkg, "claude-code-"), "bin", "opencode"), fix)
		s.cline = file("Cline CLI", filepath.Join(hosts, "node_modules", "@cline", "cli-"+strings.TrimPrefix(claudePkg, "claude-code-"), "bin", "cline"), fix)
		if _, err := exec.LookPath("node"); err != nil {
			problems = append(problems, "Gemini CLI: node is not on PATH (it runs Gemini's JavaScript bundle)")
		}
	}
	if s.self, err = os.Executable(); err != nil {
		problems = append(problems, fmt.Sprintf("this test binary: %v", err))
	}
	if err := loopbackOnly(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		t.Fatalf("%s=1 but the end-to-end suite cannot run:\n  %s", envE2E, strings.Join(problems, "\n  "))
	}
	return s
}

// platformPackages names the hosts' native packages for this machine: Claude Code's
// @anthropic-ai/claude-code-linux-ARCH and the target triple inside @openai/codex-linux-ARCH.
func platformPackages() (claudePkg, codexTriple string, err error) {
	if runtime.GOOS != "linux" {
		return "", "", fmt.Errorf("the end-to-end suite runs on Linux only (network namespaces), not %s", runtime.GOOS)
	}
	switch runtime.GOARCH {
	case "amd64":
		return "claude-code-linux-x64", "x86_64-unknown-linux-musl", nil
	case "arm64":
		return "claude-code-linux-arm64", "aarch64-unknown-linux-musl", nil
	}
	return "", "", fmt.Errorf("no native host packages for linux/%s", runtime.GOARCH)
}

// loopbackOnly checks that the only network interface is an up loopback: what a fresh
// network namespace (unshare -n, then ip link set lo up) has.
func loopbackOnly() error {
	ifs, err := net.Interfaces()
	if err != nil {
		return fmt.Errorf("list network interfaces: %w", err)
	}
	var names []string
	for _, i := range ifs {
		names = append(names, i.Name)
	}
	if len(ifs) != 1 || ifs[0].Flags&net.FlagLoopback == 0 {
		return fmt.Errorf("network: interfaces %v; the hosts must run where only the loopback exists — run the test binary "+
			"in a new network namespace: unshare -n sh -c 'ip link set lo up && exec ./e2e.test -test.v' (%s)", names, makeE2EHint)
	}
	if ifs[0].Flags&net.FlagUp == 0 {
		return fmt.Errorf("network: the loopback %s is down, so the fake model servers cannot listen: ip link set lo up first (%s)", ifs[0].Name, makeE2EHint)
	}
	return nil
}

// world is one scenario's sandbox: a temporary HOME (the hosts' and guardian's config and
// state), the project the agent works in, and a directory for marker files, outside both.
type world struct {
	root, home, project, marks string
}

func newWorld(t *testing.T) world {
	t.Helper()
	root := t.TempDir()
	w := world{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), marks: filepath.Join(root, "marks")}
	for _, d := range []string{w.home, w.project, w.marks} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w.project, "README"), []byte("a project for guardian's e2e suite\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

// mark is the path of the marker file name.
func (w world) mark(name string) string { return filepath.Join(w.marks, name) }

// marked reports whether the marker file name exists: the command that creates it ran.
func (w world) marked(name string) bool {
	_, err := os.Stat(w.mark(name))
	return err == nil
}

// env is the base environment of everything a scenario starts: nothing from the outer
// environment, so a developer's GUARDIAN_*, XDG_* or API keys cannot leak in.
func (w world) env(extra ...string) []string {
	return append([]string{"HOME=" + w.home, "CODEX_HOME=" + w.codexHome(), "PATH=" + basePathList, "LANG=C.UTF-8", "TMPDIR=" + w.root, "USER=root", "SHELL=/bin/bash"}, extra...)
}

// claudeSettings is Claude Code's user settings file in the world.
func (w world) claudeSettings() string { return filepath.Join(w.home, ".claude", "settings.json") }

// codexHome is Codex's home in the world (CODEX_HOME).
func (w world) codexHome() string { return filepath.Join(w.home, ".codex") }

// auditLog is where the in-process hook appends its decisions for this world.
func (w world) auditLog() string {
	return filepath.Join(w.home, ".local", "state", "guardian", "audit.jsonl")
}

// audited reads the decisions the in-process hook recorded in the world's audit log: a
// decision in it proves that guardian's hook ran and decided.
func (w world) audited(t *testing.T) []audit.Record {
	t.Helper()
	f, err := os.Open(w.auditLog())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []audit.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), audit.MaxRecordBytes)
	for sc.Scan() {
		var r audit.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", w.auditLog(), err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// run is one finished process.
type run struct {
	out  string // stdout and stderr
	code int
	took time.Duration
}

// start runs a command to completion (or runTimeout) with stdin /dev/null, in dir, with env.
func start(t *testing.T, dir string, env []string, name string, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	begin := time.Now()
	err := cmd.Run()
	r := run{out: out.String(), took: time.Since(begin)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s did not finish within %s:\n%s", filepath.Base(name), runTimeout, r.out)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", name, err)
	}
	return r
}

// guardianCmd runs a guardian binary in the world and fails the test unless it exits 0.
func (w world) guardianCmd(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	r := start(t, w.project, w.env(env...), bin, args...)
	if r.code != 0 {
		t.Fatalf("guardian %s: exit %d\n%s", strings.Join(args, " "), r.code, r.out)
	}
	return r.out
}

// writeFile writes content to path, creating its directory.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readFile reads path ("" when it does not exist).
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(b)
}
