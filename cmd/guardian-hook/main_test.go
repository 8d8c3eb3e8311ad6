package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian/oneshot"
)

// forbidden are the packages the hook's process must not link: each one's package
// initialisation runs in every hook call, and they are what made guardian's own start-up
// slower than the review (docs/hooks.md, "What a hook call costs"). A prefix ending in "/"
// covers the packages below it.
var forbidden = []string{
	"github.com/santhosh-tekuri/jsonschema/", // mcp-go's server: compiles five metaschemas at init
	"github.com/mark3labs/mcp-go/",           // its types package links jsonschema-go, whose init reflects over the schema types
	"github.com/google/jsonschema-go/",
	"github.com/prometheus/",
	"go.opentelemetry.io/otel/sdk",
	"go.opentelemetry.io/otel/exporters/",
	"google.golang.org/grpc",
	"google.golang.org/protobuf/",
	"github.com/guardianhq/guardian/evals",
	"github.com/guardianhq/guardian/mcp",
	"github.com/spf13/cobra",
	// No network client: a call that needs a serve or a model is handed to guardian
	// (handoff.go). net/http alone brought ~90 packages (TLS, x509, compress, hpack …)
	// whose init ran in every call.
	"net/http",
	"crypto/tls",
	"crypto/x509",
	"html/template",
	"github.com/sashabaranov/go-openai",
	"go.opentelemetry.io/otel/propagation",
	"github.com/guardianhq/guardian/guardian/server",
	"github.com/guardianhq/guardian/guardian/model/client",
	"github.com/guardianhq/guardian/guardian/oneshot/online",
}

// TestLeanDeps fails when the lean hook entry links a package whose start-up cost it exists
// to avoid: go list -deps is what the linker gets, so an import added anywhere on the hook's
// path (guardian, riskmodel, audit, hook, oneshot …) shows here.
func TestLeanDeps(t *testing.T) {
	out, err := exec.Command(goTool(t), "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), out)
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == strings.TrimSuffix(f, "/") || strings.HasPrefix(d, f) || !strings.HasSuffix(f, "/") && strings.HasPrefix(d, f+"/") {
				t.Errorf("guardian-hook links %s (forbidden: %s); find the import with: go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/guardian-hook", d, f)
			}
		}
	}
}

// goTool is the go command that runs the tests.
func goTool(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go command on PATH or in GOROOT (%s): TestLeanDeps needs it", runtime.GOROOT())
	}
	return p
}

// testEnv is a oneshot environment in a fresh home: no user config, no running serve.
func testEnv(t *testing.T) (oneshot.Env, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_RUNTIME_DIR": filepath.Join(home, "run"), "XDG_CONFIG_HOME": filepath.Join(home, "config")}
	var stderr bytes.Buffer
	return oneshot.Env{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return home, nil }, Stderr: &stderr}, &stderr
}

func claudePayload(command string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": "/home/dev/app", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_1",
	})
	return string(b)
}

// TestRun checks guardian-hook's command line: the forms the installers write answer as
// guardian hook does, and anything else is a usage error (exit 2) rather than an answer.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		env    map[string]string
		code   int
		stdout string // a substring; "" wants no output
		stderr string // a substring
	}{
		{name: "routine command allowed", args: []string{"hook", "claude", "--deadline", "10s"}, stdin: claudePayload("git status"), stdout: `"permissionDecision":"allow"`},
		{name: "dangerous command denied", args: []string{"hook", "claude", "--deadline=10s"}, stdin: claudePayload("rm -rf ~/"), stdout: `"permissionDecision":"deny"`},
		{name: "monitor gives no verdict", args: []string{"hook", "claude", "--deadline", "10s", "--monitor"}, stdin: claudePayload("rm -rf ~/")},
		{name: "predicate", args: []string{"predicate"}, env: map[string]string{"CODEX_COMMAND": "rm -rf ~/", "CODEX_HOST_CWD": "/home/dev/app"}, stdout: "deny"},
		{name: "config before the verb", args: []string{"--config", "/nonexistent/guardian.toml", "hook", "claude"}, stdin: claudePayload("git status"), stdout: `"permissionDecision":"ask"`},
		{name: "config after the host", args: []string{"hook", "claude", "--config=/nonexistent/guardian.toml"}, stdin: claudePayload("git status"), stdout: `"permissionDecision":"ask"`},
		{name: "malformed payload fails safe", args: []string{"hook", "claude"}, stdin: `{"tool_name":`, code: 2, stderr: "guardian could not review this tool call"},
		{name: "unknown host", args: []string{"hook", "vim"}, code: exitUsage, stderr: `unknown host "vim"`},
		{name: "other verb", args: []string{"review", "exec", "--", "ls"}, code: exitUsage, stderr: "want: hook HOST"},
		{name: "no verb", code: exitUsage, stderr: "want: hook HOST"},
		{name: "stray argument", args: []string{"hook", "claude", "extra"}, code: exitUsage, stderr: `unexpected argument "extra"`},
		{name: "unknown flag", args: []string{"predicate", "--monitor"}, code: exitUsage, stderr: "monitor"},
		{name: "config without a value", args: []string{"hook", "claude", "--config"}, code: exitUsage, stderr: "--config"},
		{name: "approvals host, no serve: reviewed in-process", args: []string{"hook", "claude", "--approvals", "host"}, stdin: claudePayload("git status"), stdout: `"permissionDecision":"allow"`},
		{name: "bad approvals mode", args: []string{"hook", "claude", "--approvals", "later"}, code: exitUsage, stderr: `--approvals "later"`},
		{name: "approvals is a hook flag", args: []string{"predicate", "--approvals", "queue"}, code: exitUsage, stderr: "approvals"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, stderr := testEnv(t)
			if tc.env != nil {
				base := env.Getenv
				env.Getenv = func(k string) string {
					if v, ok := tc.env[k]; ok {
						return v
					}
					return base(k)
				}
			}
			var stdout bytes.Buffer
			code := run(context.Background(), tc.args, env, strings.NewReader(tc.stdin), &stdout)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.stdout == "" && stdout.Len() > 0 || !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}
