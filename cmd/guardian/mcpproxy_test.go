package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/mcp/fixture"
)

// proxyEnv is a hermetic environment for a guardian mcp-proxy subprocess: its own audit log,
// no user config from the real home.
func proxyEnv(t testing.TB, dir string) []string {
	t.Helper()
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GUARDIAN_") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=")
	})
	// With -race a process sleeps a second before it exits (GORACE atexit_sleep_ms), which
	// would make every shutdown here look slow.
	return append(env, "GUARDIAN_AUDIT_LOG="+filepath.Join(dir, "audit.jsonl"), "XDG_CONFIG_HOME="+filepath.Join(dir, ".config"), "GORACE=atexit_sleep_ms=0")
}

// writeConfig writes a user config into dir and returns its path.
func writeConfig(t testing.TB, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startStdio starts argv (found in $PATH, which the test binary's TestMain fills with
// guardian and mcp-fixture) in dir and returns an initialized client talking to it over its
// stdin and stdout, as a host does.
func startStdio(t testing.TB, dir string, env []string, argv []string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	tr := transport.NewStdioWithOptions(argv[0], nil, argv[1:], transport.WithCommandFunc(
		func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Dir, cmd.Env, cmd.Stderr = dir, env, testLog{t}
			return cmd, nil
		}))
	return startClient(t, client.NewClient(tr, opts...), "codex-mcp-client")
}

// startClient starts c and initializes it as the host name.
func startClient(t testing.TB, c *client.Client, name string) *client.Client {
	t.Helper()
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: name, Version: "1.0"}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		t.Fatal(err)
	}
	return c
}

// testLog sends a subprocess's stderr to the test log.
type testLog struct{ t testing.TB }

func (w testLog) Write(b []byte) (int, error) {
	w.t.Logf("stderr: %s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func call(t testing.TB, c *client.Client, name string, args map[string]any) *mcpgo.CallToolResult {
	t.Helper()
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func resultText(t testing.TB, res *mcpgo.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatalf("empty result %+v", res)
	}
	tc, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("not text: %#v", res.Content[0])
	}
	return tc.Text
}

// auditRecords reads the audit log the proxy wrote.
func auditRecords(t *testing.T, dir string) []struct {
	Kind     string          `json:"kind"`
	Decision string          `json:"decision"`
	Caller   guardian.Caller `json:"caller"`
	Request  json.RawMessage `json:"request"`
} {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		Kind     string          `json:"kind"`
		Decision string          `json:"decision"`
		Caller   guardian.Caller `json:"caller"`
		Request  json.RawMessage `json:"request"`
	}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r struct {
			Kind     string          `json:"kind"`
			Decision string          `json:"decision"`
			Caller   guardian.Caller `json:"caller"`
			Request  json.RawMessage `json:"request"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("audit line %s: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// TestMCPProxyStdio runs the real `guardian mcp-proxy --gate -- mcp-fixture tools` as a host
// does (a subprocess on stdin and stdout), reviews through it, and checks that it exits 0 when
// the host closes its stdin and that its decisions are in the audit log.
func TestMCPProxyStdio(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "")
	accept := client.WithElicitationHandler(elicitFunc(func(mcpgo.ElicitationParams) *mcpgo.ElicitationResult {
		return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: mcpgo.ElicitationResponseActionAccept}}
	}))
	c := startStdio(t, dir, proxyEnv(t, dir),
		[]string{"guardian", "mcp-proxy", "--config", cfg, "--gate", "--", "mcp-fixture", fixture.KindTools, fixture.FlagLegacy},
		client.WithProtocolVersion(mcpgo.ProtocolVersion20251125), accept)
	if got := resultText(t, call(t, c, "echo", map[string]any{"message": "hi"})); got != "hi" {
		t.Errorf("echo = %q", got)
	}
	res := call(t, c, "delete_repo", map[string]any{"repo": "acme/app"})
	if got := resultText(t, res); !res.IsError || !strings.HasPrefix(got, "guardian denied the call to delete_repo on the MCP server guardian-fixture") {
		t.Errorf("delete_repo = %q", got)
	}
	res = call(t, c, "elicit", map[string]any{"message": "m", "meta": map[string]any{
		"codex_request_type": "approval_request", "codex_approval_kind": "mcp_tool_call",
		"tool_name": "read_file", "tool_params": map[string]any{"path": "README.md"}}})
	if got := resultText(t, res); !strings.Contains(got, `"approvals_reviewer":"guardian"`) || !strings.Contains(got, `"action":"accept"`) {
		t.Errorf("elicitation answer = %s", got)
	}
	// Closing stdin ends the proxy with status 0 (Close reports any other).
	if err := c.Close(); err != nil {
		t.Fatalf("the proxy did not exit 0: %v", err)
	}
	recs := auditRecords(t, dir)
	// The gate reviewed echo, delete_repo and elicit; the elicitation was reviewed too.
	var decisions []string
	for _, r := range recs {
		decisions = append(decisions, r.Decision)
		if r.Kind != "mcp" || r.Caller.Host != "codex-mcp-client" || r.Caller.Session != "stdio" {
			t.Errorf("audit record kind %s caller %+v", r.Kind, r.Caller)
		}
	}
	if strings.Join(decisions, " ") != "allow deny ask allow" {
		t.Errorf("audited decisions %v, want allow deny ask allow (echo, delete_repo, elicit, its elicitation)", decisions)
	}
}

// elicitFunc adapts a function to client.ElicitationHandler.
type elicitFunc func(mcpgo.ElicitationParams) *mcpgo.ElicitationResult

func (f elicitFunc) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	return f(req.Params), nil
}

// TestMCPProxyConfigUpstreams: without a command the upstreams come from [[mcp.upstream]],
// prefixed by name, and a Codex exec approval gets Codex's raw reply.
func TestMCPProxyConfigUpstreams(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, `
[[mcp.upstream]]
name = "tools"
command = ["mcp-fixture", "tools"]

[[mcp.upstream]]
name = "codex"
command = ["mcp-fixture", "codex"]
`)
	c := startStdio(t, dir, proxyEnv(t, dir), []string{"guardian", "mcp-proxy", "--config", cfg})
	tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "tools__echo") || !slices.Contains(names, "codex__codex") || slices.Contains(names, "echo") {
		t.Fatalf("tools = %v", names)
	}
	for argv, want := range map[string]string{"git status": `{"decision":"approved"}`, "rm -rf /": `{"decision":"denied"}`} {
		res := call(t, c, "codex__codex", map[string]any{"command": strings.Fields(argv), "cwd": dir})
		if got := resultText(t, res); got != want {
			t.Errorf("%s: Codex read %s, want %s", argv, got, want)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatalf("the proxy did not exit 0: %v", err)
	}
	recs := auditRecords(t, dir)
	if len(recs) != 2 || recs[0].Kind != "exec" || recs[1].Kind != "exec" {
		t.Fatalf("audit = %+v", recs)
	}
}

var listenRE = regexp.MustCompile(`msg="guardian mcp-proxy listening" listen=(\S+)`)

// TestMCPProxyListen: --listen serves streamable HTTP at /mcp behind the bearer token, and the
// proxy exits 0 on SIGTERM.
func TestMCPProxyListen(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "")
	const token = "0123456789abcdef0123456789abcdef"
	guardianPath, err := exec.LookPath("guardian")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(guardianPath, "mcp-proxy", "--config", cfg, "--listen", "127.0.0.1:0", "--", "mcp-fixture", fixture.KindTools)
	cmd.Dir, cmd.Env = dir, append(proxyEnv(t, dir), "GUARDIAN_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(stderr)
	addr := ""
	for addr == "" && lines.Scan() {
		t.Logf("stderr: %s", lines.Text())
		if m := listenRE.FindStringSubmatch(lines.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatal("the proxy never said where it listens")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	url := "http://" + addr + "/mcp"

	// Without the token: 401, before any MCP.
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "missing bearer token") {
		t.Fatalf("no token: %d %s", resp.StatusCode, body)
	}

	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, client.NewClient(tr), "http-host")
	if got := resultText(t, call(t, c, "echo", map[string]any{"message": "over http"})); got != "over http" {
		t.Errorf("echo = %q", got)
	}
	_ = c.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("exit status %d after SIGTERM, want 0", ee.ExitCode())
		}
		t.Fatal(err)
	}
}

// BenchmarkForwardStdio measures one tools/call of a trivial echo tool to a stdio upstream
// (a subprocess, legacy protocol as hosts speak it today), directly and through the real
// `guardian mcp-proxy` over stdio pipes, in one run. It reports the median and the 99th
// percentile per call; the difference of the medians is what the proxy adds.
//
//	go test ./cmd/guardian -run '^$' -bench ForwardStdio -benchtime 5000x
func BenchmarkForwardStdio(b *testing.B) {
	dir := b.TempDir()
	cfg := writeConfig(b, dir, "")
	upstream := []string{"mcp-fixture", fixture.KindTools, fixture.FlagLegacy}
	for _, bc := range []struct {
		name string
		argv []string
	}{
		{"direct", upstream},
		{"proxied", append([]string{"guardian", "mcp-proxy", "--config", cfg, "--"}, upstream...)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := startStdio(b, dir, proxyEnv(b, dir), bc.argv, client.WithProtocolVersion(mcpgo.ProtocolVersion20251125))
			defer c.Close()
			var req mcpgo.CallToolRequest
			req.Params.Name, req.Params.Arguments = "echo", map[string]any{"message": "ping"}
			for range 200 { // warm up: connections, caches, the scheduler
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if _, err := c.CallTool(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "median-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// staticRoots is a host's roots handler listing fixed roots.
type staticRoots []string

func (r staticRoots) ListRoots(context.Context, mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	res := &mcpgo.ListRootsResult{Roots: []mcpgo.Root{}}
	for _, u := range r {
		res.Roots = append(res.Roots, mcpgo.Root{URI: u})
	}
	return res, nil
}

// TestMCPProxyWorkspace: the reviews of the real proxy carry the host's roots, the upstream's
// configured workspace (~ expanded with the config's home) and --workspace (relative to the
// working directory); a host without roots gets the configured ones alone.
func TestMCPProxyWorkspace(t *testing.T) {
	cases := []struct {
		name  string
		roots staticRoots // nil: the host declares no roots
		want  func(dir string) []string
	}{
		{"host with roots", staticRoots{"file:///home/dev/proj", "https://example.com/x"},
			func(dir string) []string {
				return []string{"/home/dev/proj", "/home/dev/shared", filepath.Join(dir, "sub")}
			}},
		{"host without roots", nil,
			func(dir string) []string { return []string{"/home/dev/shared", filepath.Join(dir, "sub")} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, `
home = "/home/dev"

[[mcp.upstream]]
name = "tools"
command = ["mcp-fixture", "tools"]
gate = true
workspace = ["~/shared"]
`)
			// A host on 2025-11-25: protocol 2026-07-28 has no server-initiated roots/list.
			opts := []client.ClientOption{client.WithProtocolVersion(mcpgo.ProtocolVersion20251125)}
			if tc.roots != nil {
				opts = append(opts, client.WithRootsHandler(tc.roots))
			}
			c := startStdio(t, dir, proxyEnv(t, dir), []string{"guardian", "mcp-proxy", "--config", cfg, "--workspace", "sub"}, opts...)
			if got := resultText(t, call(t, c, "echo", map[string]any{"message": "hi"})); got != "hi" {
				t.Fatalf("echo: %q", got)
			}
			if err := c.Close(); err != nil {
				t.Fatalf("the proxy did not exit 0: %v", err)
			}
			recs := auditRecords(t, dir)
			if len(recs) != 1 {
				t.Fatalf("audit = %+v", recs)
			}
			var req struct {
				Workspace []string `json:"workspace"`
			}
			if err := json.Unmarshal(recs[0].Request, &req); err != nil {
				t.Fatal(err)
			}
			if want := tc.want(dir); !slices.Equal(req.Workspace, want) {
				t.Errorf("review workspace %q, want %q (request %s)", req.Workspace, want, recs[0].Request)
			}
		})
	}
}
