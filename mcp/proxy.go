package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"path"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
)

// DefaultInputTimeout is how long a call waits for a 2026-07-28 host to come back with the
// answer to a question (the retry of an input_required result) before the question is taken
// as cancelled and the call ends. Hosts on earlier protocol versions answer within their own
// request and need no such bound.
const DefaultInputTimeout = 10 * time.Minute

// stdioWorkers is how many tools/call requests a stdio downstream serves at once. A call that
// waits for the host (an elicitation) holds its worker, so there are plenty.
const stdioWorkers = 64

// Proxy is a running MCP proxy: an MCP server for the downstream host in front of connected
// upstream servers. It holds no package-level state; two Proxies in one process are
// independent, except that mcp-go allows one stdio downstream per process.
type Proxy struct {
	decider guardian.Decider
	srv     *server.MCPServer
	ups     []*upstream
	opts    options
	tel     *telemetry
	log     *slog.Logger
	stderr  io.Writer
	version string

	ctx     context.Context // the proxy's lifetime: upstream transports and calls end with it
	cancel  context.CancelFunc
	closing atomic.Bool    // Close has begun: upstream streams ending is expected
	wg      sync.WaitGroup // call and re-sync goroutines
	seq     atomic.Uint64

	parkMu sync.Mutex
	parked map[string]*parkedAsk // request state → a question waiting for a 2026-07-28 host's retry

	roots *hostRoots // each downstream session's roots: the workspace of its reviews
}

type options struct {
	tp           trace.TracerProvider
	mp           metric.MeterProvider
	log          *slog.Logger
	stderr       io.Writer
	version      string
	inputTimeout time.Duration
	rootsTimeout time.Duration
	workspace    []string
	host         *mcpgo.ClientCapabilities // the host's, when known before the upstreams connect
}

// Option configures a Proxy.
type Option func(*options)

// WithTracerProvider sets where the spans of forwarded calls and reviews go (default: none).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(o *options) { o.tp = tp } }

// WithMeterProvider sets where the proxy's metrics go (default: none).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(o *options) { o.mp = mp } }

// WithLogger sets the proxy's logger (default: discard). Never stdout: with a stdio
// downstream, stdout carries only the protocol.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithStderr sets where the stderr of upstream subprocesses goes (default: discarded).
func WithStderr(w io.Writer) Option { return func(o *options) { o.stderr = w } }

// WithVersion sets the version the proxy reports to the host and the upstreams.
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithInputTimeout bounds how long a call waits for a 2026-07-28 host to retry with the answer
// to a question (DefaultInputTimeout).
func WithInputTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.inputTimeout = d
		}
	}
}

// WithRootsTimeout bounds how long a call waits for its host to list its roots
// (DefaultRootsTimeout); afterwards its review goes on with the configured workspace.
func WithRootsTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.rootsTimeout = d
		}
	}
}

// WithWorkspace adds directories (absolute) to the workspace of every review, beside each
// upstream's own Workspace and the host's roots: the project the proxy was started for
// (guardian mcp-proxy --workspace).
func WithWorkspace(dirs ...string) Option {
	return func(o *options) { o.workspace = append(o.workspace, dirs...) }
}

// WithHostCapabilities tells the proxy what its host declared in initialize (PeekHost reads
// it from a stdio host), so that the upstreams are offered the same elicitation capability
// and modes, and nothing more: a server that adapts to a client unable to elicit must see
// one. Without it (hosts over HTTP connect after the upstreams) the proxy declares
// elicitation in form and URL mode, and a question for a host that cannot be asked is
// answered cancel.
func WithHostCapabilities(caps mcpgo.ClientCapabilities) Option {
	return func(o *options) { o.host = &caps }
}

// upstreamCapabilities are the client capabilities the proxy declares to its upstreams.
func (p *Proxy) upstreamCapabilities() mcpgo.ClientCapabilities {
	if p.opts.host != nil {
		return mcpgo.ClientCapabilities{Elicitation: p.opts.host.Elicitation}
	}
	return mcpgo.ClientCapabilities{Elicitation: &mcpgo.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}}
}

// New connects every upstream and returns the proxy serving them. Every decision goes through
// d (a pipeline wrapped with the audit log, as for every entry point). With several upstreams
// their tools and prompts are named NAME__tool; with one they keep their names. ctx bounds the
// connection attempts only; the proxy runs until Close. On error every upstream started so
// far is stopped.
func New(ctx context.Context, d guardian.Decider, ups []Upstream, opts ...Option) (*Proxy, error) {
	o := options{version: "devel", inputTimeout: DefaultInputTimeout, rootsTimeout: DefaultRootsTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.stderr == nil {
		o.stderr = io.Discard
	}
	if len(ups) == 0 {
		return nil, errors.New("mcp proxy: no upstream server: give a command, a URL, or [[mcp.upstream]] tables in the config")
	}
	for i, d := range o.workspace {
		if err := checkWorkspace(d); err != nil {
			return nil, fmt.Errorf("mcp proxy: %w", err)
		}
		o.workspace[i] = path.Clean(d)
	}
	seen := map[string]bool{}
	for _, u := range ups {
		if err := u.Validate(); err != nil {
			return nil, fmt.Errorf("mcp proxy: %w", err)
		}
		if u.Name == "" && len(ups) > 1 {
			return nil, fmt.Errorf("mcp proxy: upstream %s has no name: with several upstreams give each its own (the prefix of its tools)", DefaultName(u.Command, u.URL))
		}
		if seen[u.Name] {
			return nil, fmt.Errorf("mcp proxy: two upstreams are named %q: give each its own name", u.Name)
		}
		seen[u.Name] = true
	}
	p := &Proxy{decider: d, opts: o, log: o.log, stderr: o.stderr, version: o.version, parked: map[string]*parkedAsk{}, roots: newHostRoots()}
	p.tel = newTelemetry(o.tp, o.mp)
	p.ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	for _, spec := range ups {
		u := &upstream{p: p, spec: spec, name: spec.Name}
		if u.name == "" {
			u.name = DefaultName(spec.Command, spec.URL) // until the server names itself
		}
		if len(ups) > 1 {
			u.prefix = spec.Name + "__"
		}
		p.ups = append(p.ups, u)
	}
	p.srv = server.NewMCPServer("guardian-mcp-proxy", o.version,
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithHooks(p.sessionHooks()),
		server.WithToolFilter(func(_ context.Context, ts []mcpgo.Tool) []mcpgo.Tool { return inUpstreamOrder(p.toolRanks(), ts) }),
		server.WithPromptFilter(func(_ context.Context, ps []mcpgo.Prompt) []mcpgo.Prompt { return inUpstreamOrder(p.promptRanks(), ps) }),
	)
	p.srv.AddNotificationHandler(mcpgo.MethodNotificationRootsListChanged, p.onRootsChanged)
	for _, u := range p.ups {
		if err := u.connect(ctx); err != nil {
			p.Close()
			return nil, err
		}
		p.log.Info("upstream connected", "upstream", u.name, "named", u.namedBy(), "server", u.info.Name, "protocol", u.client.ProtocolVersion(), "gate", u.spec.Gate)
	}
	if len(p.ups) == 1 && p.ups[0].instr != "" {
		server.WithInstructions(p.ups[0].instr)(p.srv)
	}
	return p, nil
}

// Server is the MCP server the downstream host talks to, for serving it over a transport of
// the caller's choice (tests use mcp-go's in-process client).
func (p *Proxy) Server() *server.MCPServer { return p.srv }

// ServeStdio serves the downstream host over r and w (the process's stdin and stdout) until r
// ends or ctx is cancelled. mcp-go allows one stdio downstream per process.
func (p *Proxy) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	raw := newRawStdio()
	s := server.NewStdioServer(p.srv)
	server.WithWorkerPoolSize(stdioWorkers)(s)
	server.WithStdioContextFunc(func(ctx context.Context) context.Context { return withStdioRaw(ctx, raw) })(s)
	s.SetErrorLogger(log.New(slogWriter{p.log}, "", 0))
	out := rawWriter{r: raw, w: w, mu: &sync.Mutex{}}
	return s.Listen(ctx, &rawReader{r: raw, in: bufio.NewReader(r), reply: out}, out)
}

// Handler serves the downstream host over streamable HTTP (mount it at /mcp). Authentication
// is the caller's (guardian mcp-proxy wraps it with the bearer-token check).
func (p *Proxy) Handler() http.Handler {
	return server.NewStreamableHTTPServer(p.srv, server.WithStreamableHTTPLogger(p.log))
}

// Close stops every upstream (a subprocess gets its stdin closed, then SIGTERM, then SIGKILL),
// cancels the calls in flight and waits for them to end.
func (p *Proxy) Close() error {
	p.closing.Store(true)
	var errs []error
	for _, u := range p.ups {
		if u.client != nil {
			if err := u.client.Close(); err != nil {
				errs = append(errs, fmt.Errorf("upstream %s: %w", u.name, err))
			}
		}
	}
	p.cancel()
	p.parkMu.Lock()
	for state, pa := range p.parked {
		pa.timer.Stop()
		delete(p.parked, state)
	}
	p.parkMu.Unlock()
	p.wg.Wait()
	return errors.Join(errs...)
}

// offeredBefore reports whether an upstream listed before u serves the resource uri.
func (p *Proxy) offeredBefore(u *upstream, uri string) bool {
	for _, o := range p.ups {
		if o == u {
			return false
		}
		if o.offersResource(uri) {
			return true
		}
	}
	return false
}

// setTemplates registers the resource templates of every upstream (mcp-go can only replace
// the whole set).
func (p *Proxy) setTemplates() {
	var all []server.ServerResourceTemplate
	for _, u := range p.ups {
		all = append(all, u.resourceTemplates()...)
	}
	p.srv.SetResourceTemplates(all...)
}

// relayLog passes an upstream's log message on to every downstream session, naming the
// upstream as its logger when it gave none.
func (p *Proxy) relayLog(u *upstream, params map[string]any) {
	out := make(map[string]any, len(params)+1)
	for k, v := range params {
		out[k] = v
	}
	if l, _ := out["logger"].(string); l == "" {
		out["logger"] = u.name
	}
	p.srv.SendNotificationToAllClients("notifications/message", out)
}

// slogWriter turns mcp-go's log.Logger lines into warnings of the proxy's logger.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(b []byte) (int, error) {
	w.l.Warn(string(trimNewline(b)))
	return len(b), nil
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
