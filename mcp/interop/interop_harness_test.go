//go:build unix

package interop_test

// The harness of the MCP interop suite (interop_test.go): it builds the guardian binary once,
// runs the Node client of testdata/interop (official MCP SDK) against `guardian mcp-proxy` or
// directly against the Node upstream, in a sandboxed environment, and decodes what the client
// reports. See docs/mcp-interop.md.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	// envInterop switches the suite on; `make interop` sets it. Unset, the tests skip.
	envInterop = "GUARDIAN_INTEROP"
	// envGuardianBin names a prebuilt guardian binary to test instead of building one.
	envGuardianBin = "GUARDIAN_BIN"
	// fixHint is what to do when the suite cannot run.
	fixHint = "run `make interop` (npm ci --prefix mcp/testdata/interop, then GUARDIAN_INTEROP=1 go test -race -run Interop ./mcp/)"
	// scenarioTimeout bounds one client run, so a hang fails with a message instead of
	// stalling the suite. It is a guard, not an assertion: the runs take about a second.
	scenarioTimeout = 3 * time.Minute
	// clientCallTimeout is the Node client's per-request timeout; the upstream's elicitation
	// timeout (upstream.mjs) is shorter, so a request the proxy never answers is reported by
	// the step that made it.
	clientCallTimeout = 30 * time.Second
	// dataRace is what the race detector prints when a race-built proxy races.
	dataRace = "WARNING: DATA RACE"
)

// interopSuite is what TestMain prepared for every test of the suite.
type interopSuite struct {
	enabled    bool   // GUARDIAN_INTEROP=1
	node       string // absolute path of node
	dir        string // absolute path of testdata/interop
	guardian   string // the binary under test
	everything string // server-everything's stdio entry point (its bin)
	setupErr   error  // why the suite cannot run; reported by every test
	proxyErr   error  // why the binary cannot proxy (no mcp-proxy verb); reported by every proxy phase
}

// suite is set once by TestMain before any test runs, and only read afterwards.
var suite interopSuite

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	if os.Getenv(envInterop) != "1" {
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "guardian-interop-bin-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "interop: temp dir: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	suite = setUpSuite(tmp)
	return m.Run()
}

// setUpSuite finds node and the installed npm packages, and builds guardian into tmp unless
// GUARDIAN_BIN names a binary to test.
func setUpSuite(tmp string) interopSuite {
	s := interopSuite{enabled: true}
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "interop"))
	if err != nil {
		s.setupErr = err
		return s
	}
	s.dir = dir
	s.everything = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if s.node, err = exec.LookPath("node"); err != nil {
		s.setupErr = fmt.Errorf("node is not on PATH (install Node.js 18 or newer), then %s: %w", fixHint, err)
		return s
	}
	for _, p := range []string{
		filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
		s.everything,
	} {
		if _, err := os.Stat(p); err != nil {
			s.setupErr = fmt.Errorf("the interop npm packages are not installed (%s is missing): %s", p, fixHint)
			return s
		}
	}
	if bin := os.Getenv(envGuardianBin); bin != "" {
		if s.guardian, err = filepath.Abs(bin); err != nil {
			s.setupErr = fmt.Errorf("%s=%q: %w", envGuardianBin, bin, err)
		}
	} else {
		s.guardian = filepath.Join(tmp, "guardian")
		s.setupErr = build(s.guardian)
	}
	if s.setupErr == nil {
		// Without the verb every proxied run would fail as "connection closed": say why once.
		// (cobra answers --help of an unknown verb with the root's help, so look at the usage.)
		out, err := exec.Command(s.guardian, "mcp-proxy", "--help").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "guardian mcp-proxy") {
			first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			s.proxyErr = fmt.Errorf("%s has no mcp-proxy verb (`guardian mcp-proxy --help` exits %v and says %q); "+
				"to try a proxy from another tree, build it and set %s", s.guardian, err, first, envGuardianBin)
		}
	}
	return s
}

// build builds guardian into path, with the race detector when this test binary has it, so
// a racing proxy fails the suite.
func build(path string) error {
	args := []string{"build"}
	if raceEnabled {
		args = append(args, "-race")
	}
	args = append(args, "-o", path, "./cmd/guardian")
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..") // the module root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// requireSuite skips the test when the suite is off and fails it when the suite is on but
// cannot run, both with the fix in the message.
func requireSuite(t *testing.T) interopSuite {
	t.Helper()
	if !suite.enabled {
		t.Skipf("MCP interop suite: set %s=1 to run it; %s", envInterop, fixHint)
	}
	if suite.setupErr != nil {
		t.Fatalf("MCP interop suite cannot run: %v", suite.setupErr)
	}
	return suite
}

// requireProxy fails a proxy phase at once when the binary under test cannot proxy.
func (s interopSuite) requireProxy(t *testing.T) {
	t.Helper()
	if s.proxyErr != nil {
		t.Fatal(s.proxyErr)
	}
}

// parallelSuite is the start of every top-level test: the suite (or a skip), the test marked
// parallel, and a fresh sandbox.
func parallelSuite(t *testing.T) (interopSuite, sandbox) {
	t.Helper()
	s := requireSuite(t)
	t.Parallel()
	return s, newSandbox(t)
}

// sandbox is the environment every process of one test runs in: a fresh HOME and XDG dirs
// (so no user config, audit log or guardian serve socket of the developer is used), no
// model settings, and the working directory (the proxy reads the project file of its own).
type sandbox struct {
	env []string
	dir string
}

func newSandbox(t *testing.T) sandbox {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{".config", ".local/state", "run", "work"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return sandbox{
		env: []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
			"XDG_RUNTIME_DIR=" + filepath.Join(home, "run"),
			"LANG=C.UTF-8",
		},
		dir: filepath.Join(home, "work"),
	}
}

// command builds a command in sb, in its own process group so that everything it starts
// (the proxy, the upstream) is killed with it when ctx ends or the run is over.
func (sb sandbox) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = sb.env
	cmd.Dir = sb.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// killGroup kills the process group of a started cmd; a group that is already gone is fine.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// --- what client.mjs prints ----------------------------------------------------------------

type report struct {
	Scenario   string        `json:"scenario"`
	Transport  string        `json:"transport"`
	Server     *serverInfo   `json:"server"`
	Listing    *listing      `json:"listing"`
	Steps      []step        `json:"steps"`
	Unexpected []elicitation `json:"unexpected_elicitations"`
	Error      string        `json:"error"`
}

type serverInfo struct {
	Info         map[string]any `json:"info"`
	Capabilities map[string]any `json:"capabilities"`
	Instructions any            `json:"instructions"`
}

type listing struct {
	Tools             listResult `json:"tools"`
	Resources         listResult `json:"resources"`
	ResourceTemplates listResult `json:"resourceTemplates"`
	Prompts           listResult `json:"prompts"`
}

type listResult struct {
	Items    []map[string]any `json:"items"`
	SDKValid *bool            `json:"sdk_valid"`
	SDKError string           `json:"sdk_error"`
	Error    *rpcError        `json:"error"`
}

type rpcError struct {
	Code    *int   `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) String() string {
	if e == nil {
		return "<nil>"
	}
	if e.Code == nil {
		return e.Message
	}
	return fmt.Sprintf("%d %s", *e.Code, e.Message)
}

type step struct {
	Name         string         `json:"name"`
	Op           string         `json:"op"`
	Tool         string         `json:"tool"`
	URI          string         `json:"uri"`
	Prompt       string         `json:"prompt"`
	Arguments    map[string]any `json:"arguments"`
	Answer       map[string]any `json:"answer"`
	Result       map[string]any `json:"result"`
	Value        any            `json:"value"`
	Error        *rpcError      `json:"error"`
	SDKValid     *bool          `json:"sdk_valid"`
	SDKError     string         `json:"sdk_error"`
	Elicitations []elicitation  `json:"elicitations"`
}

type elicitation struct {
	Params          map[string]any `json:"params"`
	Message         string         `json:"message"`
	Meta            map[string]any `json:"_meta"`
	RequestedSchema any            `json:"requestedSchema"`
	Extra           map[string]any `json:"extra"`
	SDKValid        bool           `json:"sdk_valid"`
	SDKError        string         `json:"sdk_error"`
	Answer          map[string]any `json:"answer"`
}

// step returns the step called name, failing the test when the report has none.
func (r *report) step(t *testing.T, name string) step {
	t.Helper()
	for _, s := range r.Steps {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("scenario %s: no step %q in the client's report", r.Scenario, name)
	return step{}
}

// --- running the client --------------------------------------------------------------------

// clientRun is one run of client.mjs.
type clientRun struct {
	scenario string
	marker   string   // --marker, for the markers scenario
	url      string   // --url: connect over streamable HTTP
	command  []string // -- CMD ARGS…: the server to start over stdio
}

// run runs c in sb and returns the client's report. stderr (the client's, the proxy's and
// the upstream's) is attached to every failure and checked for data races.
func (c clientRun) run(t *testing.T, s interopSuite, sb sandbox) *report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	args := []string{filepath.Join(s.dir, "client.mjs"), "--scenario", c.scenario,
		"--timeout-ms", strconv.FormatInt(clientCallTimeout.Milliseconds(), 10)}
	if c.marker != "" {
		args = append(args, "--marker", c.marker)
	}
	if c.url != "" {
		args = append(args, "--url", c.url)
	} else {
		args = append(append(args, "--"), c.command...)
	}
	cmd := sb.command(ctx, s.node, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	_ = killGroup(cmd) // whatever the run left behind
	desc := "node " + strings.Join(args, " ")
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %s (a hang in the proxy or the scripts?)\nstderr:\n%s", desc, scenarioTimeout, &stderr)
	}
	if strings.Contains(stderr.String(), dataRace) {
		t.Errorf("%s: the race detector reported a data race:\n%s", desc, &stderr)
	}
	var r report
	if derr := json.Unmarshal(stdout.Bytes(), &r); derr != nil {
		t.Fatalf("%s: exit %v; stdout is not the client's JSON report (%v):\n%s\nstderr:\n%s", desc, err, derr, &stdout, &stderr)
	}
	if err != nil || r.Error != "" {
		t.Fatalf("%s: exit %v: %s\nstderr:\n%s", desc, err, r.Error, &stderr)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s — stderr of the run:\n%s", desc, &stderr)
		}
	})
	return &r
}

// upstreamCmd is the stdio command line of the Node upstream.
func (s interopSuite) upstreamCmd() []string {
	return []string{s.node, filepath.Join(s.dir, "upstream.mjs")}
}

// everythingCmd is the stdio command line of @modelcontextprotocol/server-everything: its
// bin (dist/index.js) with the transport argument "stdio". It needs no network unless a
// tool that fetches is called, and none is.
func (s interopSuite) everythingCmd() []string {
	return []string{s.node, s.everything, "stdio"}
}

// proxyCmd is `guardian mcp-proxy [flags] -- upstream…`.
func (s interopSuite) proxyCmd(flags []string, upstream ...string) []string {
	cmd := append([]string{s.guardian, "mcp-proxy"}, flags...)
	if len(upstream) > 0 {
		cmd = append(append(cmd, "--"), upstream...)
	}
	return cmd
}

// --- long-running servers ------------------------------------------------------------------

// watchedOutput is a goroutine-safe stderr that tells when some text has appeared in it.
type watchedOutput struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	want  string
	once  sync.Once
	found chan struct{}
}

func newWatchedOutput(want string) *watchedOutput {
	return &watchedOutput{want: want, found: make(chan struct{})}
}

func (w *watchedOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.found) })
	}
	return len(p), nil
}

func (w *watchedOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startServer starts a server that runs until the test ends, and returns once its stderr
// contains ready (its "listening" line), with that stderr. It fails the test if the server
// exits first or ready does not appear within scenarioTimeout. At cleanup the server's
// process group is killed and its stderr checked for data races.
func startServer(t *testing.T, sb sandbox, ready string, name string, args ...string) *watchedOutput {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := sb.command(ctx, name, args...)
	out := newWatchedOutput(ready)
	cmd.Stdout, cmd.Stderr = io.Discard, out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
		if strings.Contains(out.String(), dataRace) {
			t.Errorf("%s: the race detector reported a data race:\n%s", strings.Join(args, " "), out)
		}
		if t.Failed() {
			t.Logf("stderr of %s %s:\n%s", name, strings.Join(args, " "), out)
		}
	})
	timer := time.NewTimer(scenarioTimeout)
	defer timer.Stop()
	select {
	case <-out.found:
		return out
	case err := <-exited:
		exited <- err // for the cleanup
		t.Fatalf("%s %s exited (%v) before its stderr said %q:\n%s", name, strings.Join(args, " "), err, ready, out)
	case <-timer.C:
		t.Fatalf("%s %s: its stderr did not say %q within %s:\n%s", name, strings.Join(args, " "), ready, scenarioTimeout, out)
	}
	return nil
}

// freeLoopbackAddr returns 127.0.0.1:PORT for a port that was free a moment ago.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// --- the oracle ----------------------------------------------------------------------------

// verdict is what `guardian review --json` says about a request.
type verdict struct {
	Decision   string `json:"decision"`
	Assessment struct {
		Summary   string `json:"summary"`
		RiskLevel string `json:"risk_level"`
		Category  string `json:"category"`
		Rationale string `json:"rationale"`
	} `json:"assessment"`
}

// review asks `guardian review --json -` about req in sb: the contract says mcp-proxy decides
// with the same pipeline, so this is what the proxy must decide.
func review(t *testing.T, s interopSuite, sb sandbox, req map[string]any) verdict {
	t.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	cmd := sb.command(ctx, s.guardian, "review", "--json", "-")
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && (exit.ExitCode() == 10 || exit.ExitCode() == 20)) {
		t.Fatalf("guardian review --json - <<< %s: %v\n%s", body, err, &stderr)
	}
	var v verdict
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
		t.Fatalf("guardian review --json: %v\n%s", err, &stdout)
	}
	return v
}
