package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/mcp/fixture"
	"github.com/guardianhq/guardian/riskmodel"
)

// envFixture makes the test binary run a fixture upstream instead of the tests: its value is
// the fixture's arguments ("tools -legacy", "codex").
const envFixture = "GUARDIAN_MCP_FIXTURE"

func TestMain(m *testing.M) {
	if args := os.Getenv(envFixture); args != "" {
		os.Exit(fixture.Main(context.Background(), strings.Fields(args), os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// upstreamKind is one way of reaching the tools fixture.
type upstreamKind struct {
	name string
	spec func(t *testing.T, name string) Upstream
}

// stdioUpstream runs the fixture args as a subprocess (this test binary).
func stdioUpstream(name, args string) Upstream {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	// With -race a process sleeps a second before it exits (GORACE atexit_sleep_ms): not here.
	return Upstream{Name: name, Command: []string{exe}, Env: []string{envFixture + "=" + args, "GORACE=atexit_sleep_ms=0"}}
}

// httpUpstream serves the tools fixture over streamable HTTP; legacy restricts it to the
// 2025-11-25 protocol.
func httpUpstream(t *testing.T, name string, legacy bool) Upstream {
	t.Helper()
	var opts []server.StreamableHTTPOption
	if legacy {
		opts = append(opts, server.WithStreamableHTTPProtocolVersions(mcpgo.ProtocolVersion20251125))
	}
	ts := httptest.NewServer(server.NewStreamableHTTPServer(fixture.NewServer(nil), opts...))
	t.Cleanup(ts.Close)
	return Upstream{Name: name, URL: ts.URL + "/mcp"}
}

// upstreamKinds are the four upstreams every protocol test runs against.
var upstreamKinds = []upstreamKind{
	{"stdio-legacy", func(_ *testing.T, n string) Upstream { return stdioUpstream(n, "tools -legacy") }},
	{"stdio-modern", func(_ *testing.T, n string) Upstream { return stdioUpstream(n, "tools") }},
	{"http-legacy", func(t *testing.T, n string) Upstream { return httpUpstream(t, n, true) }},
	{"http-modern", func(t *testing.T, n string) Upstream { return httpUpstream(t, n, false) }},
}

// memAudit records audit entries in memory.
type memAudit struct {
	mu      sync.Mutex
	entries []guardian.AuditEntry
}

func (a *memAudit) Audit(_ context.Context, e guardian.AuditEntry) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries = append(a.entries, e)
	return nil
}

func (a *memAudit) all() []guardian.AuditEntry {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]guardian.AuditEntry(nil), a.entries...)
}

// rulesDecider is the embedded rule reviewer behind the audit wrapper, as in production.
func rulesDecider(t *testing.T) (guardian.Decider, *memAudit) {
	t.Helper()
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	a := &memAudit{}
	return guardian.Audited(guardian.New(an), a, time.Now), a
}

// newProxy starts a proxy over specs with the rule reviewer and closes it at the end.
func newProxy(t *testing.T, specs ...Upstream) (*Proxy, *memAudit) {
	t.Helper()
	d, audit := rulesDecider(t)
	p, err := New(context.Background(), d, specs, WithStderr(testWriter{t}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Logf("close: %v", err)
		}
	})
	return p, audit
}

// testWriter sends upstream stderr to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Logf("upstream stderr: %s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// host is a scripted downstream host: it records the elicitations it is shown and answers
// each with answer (nil answer: cancel).
type host struct {
	mu     sync.Mutex
	asked  []mcpgo.ElicitationParams
	answer func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error)
}

func (h *host) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	h.mu.Lock()
	h.asked = append(h.asked, req.Params)
	answer := h.answer
	h.mu.Unlock()
	if answer == nil {
		return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: mcpgo.ElicitationResponseActionCancel}}, nil
	}
	return answer(req.Params)
}

// expect forgets the questions asked so far and answers the next ones with answer.
func (h *host) expect(answer func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked, h.answer = nil, answer
}

func (h *host) questions() []mcpgo.ElicitationParams {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]mcpgo.ElicitationParams(nil), h.asked...)
}

// answerWith returns an answer function that always gives action and content.
func answerWith(action mcpgo.ElicitationResponseAction, content any) func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) {
	return func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) {
		return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: action, Content: content}}, nil
	}
}

// downstreamKind is one way of connecting the host to the proxy.
type downstreamKind struct {
	name    string
	connect func(t *testing.T, p *Proxy, opts ...client.ClientOption) *client.Client
}

// Host protocol eras: a host pinned to 2025-11-25 (Codex, Claude Code today), and one on
// 2026-07-28 (multi round-trip).
var (
	legacyHost = []client.ClientOption{client.WithProtocolVersion(mcpgo.ProtocolVersion20251125)}
	modernHost []client.ClientOption
)

// downstreamKinds: stdio over pipes (as a host runs guardian mcp-proxy) and streamable HTTP
// (--listen).
var downstreamKinds = []downstreamKind{{"stdio", connectStdio}, {"http", connectHTTP}}

// connectStdio serves p over pipes and returns an initialized client. mcp-go keeps one stdio
// server session per process, so tests using it do not run in parallel.
func connectStdio(t *testing.T, p *Proxy, opts ...client.ClientOption) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.ServeStdio(ctx, inR, outW); outW.Close() }()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))), opts...)
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		<-done
		_ = c.Close()
	})
	initClient(t, c, "test-host")
	return c
}

// connectHTTP serves p over streamable HTTP and returns an initialized client.
func connectHTTP(t *testing.T, p *Proxy, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return connectHTTPAs(t, p, "test-host", opts...)
}

// connectHTTPAs is connectHTTP for a host that calls itself name.
func connectHTTPAs(t *testing.T, p *Proxy, name string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return connectHTTPWith(t, p, name, nil, opts...)
}

// connectHTTPWith is connectHTTPAs with transport options.
func connectHTTPWith(t *testing.T, p *Proxy, name string, topts []transport.StreamableHTTPCOption, opts ...client.ClientOption) *client.Client {
	t.Helper()
	ts := httptest.NewServer(p.Handler())
	t.Cleanup(ts.Close)
	tr, err := transport.NewStreamableHTTP(ts.URL+"/mcp", topts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	t.Cleanup(func() { _ = c.Close() })
	initClient(t, c, name)
	return c
}

func initClient(t *testing.T, c *client.Client, name string) {
	t.Helper()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: name, Version: "1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
}

// hostOpts returns client options for an era with the host's elicitation handler.
func hostOpts(era []client.ClientOption, h *host) []client.ClientOption {
	opts := append([]client.ClientOption(nil), era...)
	if h != nil {
		opts = append(opts, client.WithElicitationHandler(h))
	}
	return opts
}

// toolRequest is a tools/call of name with args.
func toolRequest(name string, args map[string]any) mcpgo.CallToolRequest {
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	return req
}

// callTool calls name with args and returns the result.
func callTool(t *testing.T, c *client.Client, name string, args map[string]any) *mcpgo.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), toolRequest(name, args))
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// text is the text of a result's first content.
func text(t *testing.T, res *mcpgo.CallToolResult) string {
	t.Helper()
	if res == nil || len(res.Content) == 0 {
		t.Fatalf("result has no content: %+v", res)
	}
	tc, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("first content is not text: %#v", res.Content[0])
	}
	return tc.Text
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
