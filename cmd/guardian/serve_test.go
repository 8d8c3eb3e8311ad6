package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// syncLog is a goroutine-safe stderr for a running serve that tells when a line appears.
type syncLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	want  string
	once  sync.Once
	ready chan struct{}
}

func newSyncLog(want string) *syncLog { return &syncLog{want: want, ready: make(chan struct{})} }

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if strings.Contains(l.buf.String(), l.want) {
		l.once.Do(func() { close(l.ready) })
	}
	return len(p), nil
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// serveEnv is the environment of a serve under test: no real user config, no model.
func serveEnv(home string, extra map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := extra[k]; ok {
			return v
		}
		return map[string]string{"HOME": home}[k]
	}
}

func TestServeRefusesBadSetups(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty-token")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		code int
		msg  string
	}{
		{name: "all interfaces without a token", args: []string{"--addr", "0.0.0.0:7420"}, code: exitUsage,
			msg: `refusing to listen on 0.0.0.0:7420 without a token: .*Set one with GUARDIAN_TOKEN or --token-file FILE`},
		{name: "empty host without a token", args: []string{"--addr", ":7420"}, code: exitUsage, msg: `refusing to listen on :7420 without a token`},
		{name: "a host name without a token", args: []string{"--addr", "guardian.internal:7420"}, code: exitUsage, msg: `without a token`},
		{name: "TCP beside a socket is still checked", args: []string{"--addr", "0.0.0.0:7420", "--socket", filepath.Join(dir, "g.sock")}, code: exitUsage, msg: `without a token`},
		{name: "short token", args: []string{"--addr", "0.0.0.0:7420"}, env: map[string]string{"GUARDIAN_TOKEN": "hunter2"}, code: exitInvalid,
			msg: `token from GUARDIAN_TOKEN is 7 characters, fewer than 16`},
		{name: "token with a space", env: map[string]string{"GUARDIAN_TOKEN": "correct horse battery staple"}, code: exitInvalid, msg: `printable ASCII`},
		{name: "empty token file", args: []string{"--token-file", empty}, code: exitInvalid, msg: `token file .*empty-token is empty`},
		{name: "missing token file", args: []string{"--token-file", filepath.Join(dir, "none")}, code: exitInvalid, msg: `read the token: .*no such file`},
		{name: "bad body size", args: []string{"--max-body", "lots"}, code: exitUsage, msg: `--max-body "lots": want a size such as 1MiB`},
		{name: "bad body unit", args: []string{"--max-body", "1 parsec"}, code: exitUsage, msg: `unknown unit "parsec"`},
		{name: "tiny body limit", args: []string{"--max-body", "10"}, code: exitUsage, msg: `want a size from 1KiB to 64MiB`},
		{name: "no concurrency", args: []string{"--concurrency", "0"}, code: exitUsage, msg: `--concurrency 0: want 1 to 65536`},
		{name: "no drain", args: []string{"--drain", "0s"}, code: exitUsage, msg: `--drain 0s: want a duration above 0`},
		{name: "bad address", args: []string{"--addr", "7420"}, code: exitUsage, msg: `--addr "7420": want HOST:PORT`},
		{name: "bad log format", args: []string{"--log-format", "xml"}, code: exitUsage, msg: `--log-format "xml": want text or json`},
		{name: "no default socket", args: []string{"--socket", "default"}, env: map[string]string{"HOME": ""}, code: exitUsage, msg: `--socket default: none of GUARDIAN_SOCKET, XDG_RUNTIME_DIR and HOME is set`},
		{name: "arguments", args: []string{"now"}, code: exitUsage, msg: `serve takes no arguments, got "now"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, out, errb := testDeps("")
			d.getenv = serveEnv(dir, tc.env)
			code := run(context.Background(), append([]string{"--config", cfg, "serve"}, tc.args...), d)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errb)
			}
			if !regexp.MustCompile(tc.msg).MatchString(errb.String()) {
				t.Errorf("stderr %q does not match %s", errb, tc.msg)
			}
			if out.Len() != 0 {
				t.Errorf("stdout: %q", out)
			}
		})
	}
}

// runningServe starts `guardian serve ARGS...` in-process and returns once it listens; stop
// ends it and returns its exit code.
func runningServe(t *testing.T, env func(string) string, args ...string) (log *syncLog, stop func() int) {
	t.Helper()
	d, _, _ := testDeps("")
	d.getenv = env
	log = newSyncLog("guardian serve listening")
	d.stderr = log
	ctx, cancel := context.WithCancel(context.Background())
	exited := make(chan int, 1)
	go func() { exited <- run(ctx, append([]string{"serve"}, args...), d) }()
	select {
	case <-log.ready:
	case code := <-exited:
		cancel()
		t.Fatalf("serve exited %d before listening:\n%s", code, log)
	}
	var once sync.Once
	code := -1
	stop = func() int {
		once.Do(func() { cancel(); code = <-exited })
		return code
	}
	t.Cleanup(func() { stop() })
	return log, stop
}

// TestServeEndToEnd runs the real command on a unix socket: the project file of a request's
// cwd applies, MCP requests use the user config, every decision is in /v1/decisions, /metrics
// shows the pipeline's and the HTTP metrics, and SIGTERM (context cancel) exits 0 and removes
// the socket.
func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	writeFile(t, cfg, "")
	proj := filepath.Join(dir, "proj")
	writeFile(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(proj, ".guardian.toml"), "[[rule]]\nid = \"no-make\"\ndecision = \"deny\"\nprefix = [\"make\"]\nreason = \"builds run in CI\"\n")
	other := filepath.Join(dir, "other")
	writeFile(t, filepath.Join(other, ".git", "HEAD"), "ref: refs/heads/main\n")
	sock := filepath.Join(dir, "run", "g.sock")

	log, stop := runningServe(t, serveEnv(dir, nil), "--config", cfg, "--socket", sock)
	c, err := server.NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	decide := func(req guardian.Request) guardian.Result {
		t.Helper()
		res, err := c.Decide(ctx, req, guardian.Caller{Host: "test", Session: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	makeReq := func(cwd string) guardian.Request {
		return guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"make", "build"}, Cwd: cwd})
	}
	if res := decide(makeReq(filepath.Join(proj, "sub"))); res.Decision != riskmodel.Deny || !strings.Contains(res.DecidedBy, "no-make") {
		t.Errorf("make in the project: %s by %s, want deny by its no-make rule", res.Decision, res.DecidedBy)
	}
	if res := decide(makeReq(other)); res.Decision == riskmodel.Deny {
		t.Errorf("make elsewhere: %s by %s; the project's rule must not apply", res.Decision, res.DecidedBy)
	}
	if res := decide(guardian.MCPRequest(riskmodel.MCPRequest{Server: "github", Tool: "list_issues"})); res.Decision == 0 {
		t.Error("mcp: no decision")
	}

	// Editing the project file takes effect on the next request.
	writeFile(t, filepath.Join(proj, ".guardian.toml"), "# rules moved to CI\nprotected_paths = [\"~/secrets/**\"]\n")
	if res := decide(makeReq(proj)); res.Decision == riskmodel.Deny {
		t.Errorf("after the edit: %s by %s, want the new project file applied", res.Decision, res.DecidedBy)
	}
	// A broken project file is no decision (500 invalid_config), never a silent fallback.
	writeFile(t, filepath.Join(proj, ".guardian.toml"), "[[rule]]\nid = \"x\"\ndecision = \"allow\"\nglob = \"*\"\n")
	_, err = c.Decide(ctx, makeReq(proj), guardian.Caller{})
	var se *server.StatusError
	if !errors.As(err, &se) || se.StatusCode != 500 || se.Code != "invalid_config" || !strings.Contains(se.Message, ".guardian.toml:3:") {
		t.Errorf("broken project file: err = %v, want 500 invalid_config naming the file and line", err)
	}

	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
	get := func(path string) string {
		t.Helper()
		resp, err := hc.Get("http://guardian" + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return string(b)
	}
	var decisions struct{ Decisions []map[string]any }
	if err := json.Unmarshal([]byte(get("/v1/decisions?limit=10")), &decisions); err != nil {
		t.Fatal(err)
	}
	if len(decisions.Decisions) != 4 {
		t.Errorf("%d decisions recorded, want the 4 answered: %v", len(decisions.Decisions), decisions.Decisions)
	} else if last := decisions.Decisions[3]; last["decision"] == nil || last["caller"].(map[string]any)["session"] != "s1" {
		t.Errorf("newest record %v: want its decision and caller", last)
	}
	metrics := get("/metrics")
	for _, want := range []string{"guardian_decisions_total{", "http_server_request_duration_seconds_count{", "go_goroutines "} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if got := get("/readyz"); !strings.Contains(got, "ready") {
		t.Errorf("/readyz: %s", got)
	}

	// A second serve on the same socket is refused: the first one is live.
	d2, _, errb := testDeps("")
	d2.getenv = serveEnv(dir, nil)
	if code := run(ctx, []string{"serve", "--config", cfg, "--socket", sock}, d2); code != exitInternal || !strings.Contains(errb.String(), "another guardian serve is listening on "+sock) {
		t.Errorf("second serve: exit %d, stderr %s", code, errb)
	}

	if code := stop(); code != 0 {
		t.Fatalf("serve exit %d:\n%s", code, log)
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
	out := log.String()
	for _, want := range []string{`msg="guardian serve listening" auth=none`, "listen=unix:" + sock, `route=/v1/review code=200`, `decision=deny`, `msg=draining`, `msg="guardian serve stopped"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "make build") {
		t.Errorf("the log holds request text:\n%s", out)
	}
}

// TestServeToken: with a token (from the environment or a file), reviews need it on every
// listener and /healthz does not.
func TestServeToken(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	writeFile(t, cfg, "")
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, token+"\n")
	if err := os.Chmod(tokenFile, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		warn bool
	}{
		{name: "from GUARDIAN_TOKEN", env: map[string]string{"GUARDIAN_TOKEN": token}},
		{name: "from a file readable by others", env: map[string]string{"GUARDIAN_TOKEN": "ignored-when-a-file-is-given"}, args: []string{"--token-file", tokenFile}, warn: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sock := filepath.Join(t.TempDir(), "g.sock")
			log, _ := runningServe(t, serveEnv(dir, tc.env), append([]string{"--config", cfg, "--socket", sock, "--addr", "127.0.0.1:0"}, tc.args...)...)
			m := regexp.MustCompile(`listen=(127\.0\.0\.1:\d+)`).FindStringSubmatch(log.String())
			if m == nil {
				t.Fatalf("no TCP listener in the log:\n%s", log)
			}
			if got := strings.Contains(log.String(), "token file is readable by other users"); got != tc.warn {
				t.Errorf("warning about the token file's mode: %v, want %v", got, tc.warn)
			}
			req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: dir})
			for _, target := range []string{"unix://" + sock, "http://" + m[1]} {
				anon, err := server.NewClient(target)
				if err != nil {
					t.Fatal(err)
				}
				var se *server.StatusError
				if _, err := anon.Decide(context.Background(), req, guardian.Caller{}); !errors.As(err, &se) || se.StatusCode != 401 {
					t.Errorf("%s without the token: %v, want 401", target, err)
				}
				authed, err := server.NewClient(target, server.WithClientToken(token))
				if err != nil {
					t.Fatal(err)
				}
				if res, err := authed.Decide(context.Background(), req, guardian.Caller{}); err != nil || res.Decision == 0 {
					t.Errorf("%s with the token: %+v %v", target, res, err)
				}
			}
			resp, err := http.Get("http://" + m[1] + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("/healthz without the token: %d, want 200", resp.StatusCode)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "1MiB": 1 << 20, "1 MiB": 1 << 20, "512KiB": 512 << 10, "512kib": 512 << 10, "2M": 2 << 20, "1MB": 1e6, "64B": 64} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1MiB", "1.5MiB", "1 parsec", "99999999999999999999"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
}
