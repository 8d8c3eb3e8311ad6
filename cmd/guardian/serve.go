package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// envToken names the environment variable holding guardian serve's bearer token (and the one
// clients send). --token-file takes precedence.
const envToken = "GUARDIAN_TOKEN"

// minTokenLen is the shortest token accepted: a token guards every decision and the audit
// log, so it must not be guessable.
const minTokenLen = 16

// Limits on the serve flags, so a typo cannot turn into a server that refuses everything or
// reads without bound.
const (
	minBodyLimit   = 1 << 10
	maxBodyLimit   = 64 << 20
	maxConcurrency = 1 << 16
	maxDrain       = 10 * time.Minute
)

// serveFlags are the flags of `guardian serve`.
type serveFlags struct {
	addr        string
	socket      string
	tokenFile   string
	maxBody     string
	concurrency int
	drain       time.Duration
	logFormat   string
	approvals   approvalFlags
	team        teamFlags
	allowHosts  []string
}

func (a *app) serveCmd() *cobra.Command {
	f := serveFlags{addr: server.DefaultAddr, maxBody: "1MiB", concurrency: server.DefaultConcurrency, drain: server.DefaultDrainTimeout, logFormat: "text"}
	c := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--socket PATH|default] [--token-file FILE]",
		Short: "Answer review requests over HTTP, sharing one pipeline, cache and audit log",
		Long: `Answer review requests over HTTP until SIGINT or SIGTERM, then finish the reviews in
flight (for at most --drain) and close the audit log.

  POST /v1/review       one {"kind","request"} envelope in, the review --json result out
  GET  /v1/decisions    the newest audit records (?limit=N, default 50, at most 1000)
  GET  /healthz         liveness (never needs the token)
  GET  /readyz          readiness
  GET  /metrics         Prometheus metrics
  GET  /v1/events       decisions and breaker changes as server-sent events
  GET  /v1/stats        the day's counts; GET /v1/breakers, POST /v1/breakers/reset
  GET  /console         the console page: live decisions, filters, counts, breakers
  GET  /v1/pending      requests held for a person (guardian pending), and
  POST /v1/pending/ID/approve|deny, GET /v1/grants, DELETE /v1/grants/ID

It listens on 127.0.0.1:7420 by default, or on a unix socket with --socket (mode 0600; "default"
is $GUARDIAN_SOCKET, else $XDG_RUNTIME_DIR/guardian/guardian.sock, else
~/.local/state/guardian/guardian.sock); give --addr too to listen on both. A non-loopback
address needs a bearer token (GUARDIAN_TOKEN or --token-file): without one, guardian serve
refuses to start.

The user config (--config may be a file or an https URL) is re-read every --config-poll: a
new version that loads comes into force, a bad one is refused and the old one stays. The
project file (.guardian.toml) of each request's cwd applies as with guardian review, and is
re-read when it changes. With --store redis://… replicas share approvals, grants, breakers and cache (docs/team.md).
Logs go to stderr. See docs/serve.md for the API.`,
		Example: `  guardian serve
  guardian serve --socket default
  GUARDIAN_TOKEN=$(cat ~/.config/guardian/token) guardian serve --addr 0.0.0.0:7420
  curl -s localhost:7420/v1/review -d '{"kind":"exec","request":{"command":["rm","-rf","/"]}}'`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.serve(cmd, f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.addr, "addr", f.addr, "TCP `HOST:PORT` to listen on (alone unless --socket is given; without both flags, the default socket too)")
	fl.StringVar(&f.socket, "socket", "", "unix socket `PATH` to listen on, or \"default\"")
	fl.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from `FILE` (else $GUARDIAN_TOKEN)")
	fl.StringVar(&f.maxBody, "max-body", f.maxBody, "largest request body, e.g. 512KiB or 1MiB (`SIZE`)")
	fl.IntVar(&f.concurrency, "concurrency", f.concurrency, "reviews in flight at most; beyond, answer 503 (`N`)")
	fl.DurationVar(&f.drain, "drain", f.drain, "at shutdown, wait at most `D` for reviews in flight")
	fl.StringVar(&f.logFormat, "log-format", f.logFormat, "log lines as `text` or json")
	f.team.register(fl)
	fl.StringSliceVar(&f.allowHosts, "allow-host", nil, "a DNS `NAME` clients use in the Host header, beside IP addresses and localhost (repeatable)")
	f.approvals.register(fl)
	return c
}

// serveSetup is a validated serve command line.
type serveSetup struct {
	addrs     []string // listen addresses: host:port or unix:PATH
	token     string
	bodyLimit int64
	logger    *slog.Logger
}

// serve runs guardian serve until the command's context is cancelled (SIGINT, SIGTERM).
func (a *app) serve(cmd *cobra.Command, f serveFlags) error {
	setup, err := a.checkServeFlags(cmd, f)
	if err != nil {
		return err
	}
	log := setup.logger
	ctx := cmd.Context()

	reg, mp, err := prometheusMetrics()
	if err != nil {
		return err
	}
	defer func() {
		if err := mp.Shutdown(context.WithoutCancel(ctx)); err != nil {
			log.Warn("metrics shutdown", "err", err)
		}
	}()
	a.meterProvider = mp

	src, err := a.serveConfigSource(cmd, f.team)
	if err != nil {
		return err
	}
	first, err := a.loadServeConfig(ctx, src)
	if err != nil {
		return err
	}
	user := first.Config
	store, err := openStateStore(ctx, f.team, user.Store, log)
	if err != nil {
		return err
	}
	if store != nil {
		defer store.Close()
	}
	var shared guardian.StateStore
	if store != nil {
		shared = store
	}
	shipper, err := a.openShipper(ctx, user.Audit.OTLP, mp, log)
	if err != nil {
		return err
	}
	if shipper != nil {
		defer func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if err := shipper.Close(sctx); err != nil {
				log.Warn("audit OTLP shipper shutdown", "err", err)
			}
		}()
	}

	lns, err := listenAll(ctx, setup.addrs)
	if err != nil {
		return err
	}
	audit, err := a.openAuditFor(cmd, user, shipper)
	if err != nil {
		closeAll(lns)
		return fmt.Errorf("open the audit log: %w", err)
	}

	notifier, err := a.notifier(user, log)
	if err != nil {
		_ = audit.Close()
		closeAll(lns)
		return err
	}
	defer func() {
		// Queued notifications get a few seconds to go out; the decisions are on record anyway.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := notifier.Close(cctx); err != nil {
			log.Warn("notifications", "err", err)
		}
	}()
	hub := server.NewHub(0, 0)
	auditor := &liveAuditor{log: audit, hub: hub, onRecord: func(rec auditRecord, raw []byte) {
		if rec.Decision == riskmodel.Deny {
			notifier.Notify(ctx, denyEvent(rec, raw))
		}
	}}
	// Build the user config's pipeline now: a policy that does not compile stops the start
	// instead of failing every request.
	gen, err := a.newPolicyGen(first, auditor, shared)
	if err != nil {
		audit.Close()
		closeAll(lns)
		return err
	}
	decider := &reloadingDecider{}
	decider.cur.Store(gen)
	defer func() { decider.cur.Load().pipelines.Close() }()
	if src != nil && f.team.configPoll > 0 {
		wctx, stopWatch := context.WithCancel(ctx)
		defer stopWatch()
		go a.watchConfig(wctx, src, f.team.configPoll, decider, auditor, shared, mp, log)
	}
	opts := []server.Option{
		server.WithBreakerOpened(func(body server.BreakersBody, opened []server.BreakerOpened) {
			for _, e := range breakerEvents(body, opened) {
				notifier.Notify(ctx, e)
			}
		}),
		server.WithEvents(hub),
		server.WithBreakers(decider),
		server.WithToken(setup.token),
		server.WithBodyLimit(setup.bodyLimit),
		server.WithConcurrency(f.concurrency),
		server.WithDrainTimeout(f.drain),
		server.WithAllowedHosts(f.allowHosts...),
		server.WithDecisions(audit),
		server.WithMetrics(promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)})),
		server.WithMeterProvider(mp),
		server.WithLogger(log),
		server.WithReady(func(ctx context.Context) error {
			if _, err := audit.Recent(ctx, 1); err != nil {
				return fmt.Errorf("audit log: %w", err)
			}
			return nil
		}),
	}
	if a.tracerProvider != nil {
		opts = append(opts, server.WithTracerProvider(a.tracerProvider))
	}
	gate, approver, closeGate, err := a.approvalGate(f.approvals, store, auditor, log, approvalChanges(ctx, hub, notifier))
	if err != nil {
		audit.Close()
		closeAll(lns)
		return err
	}
	defer closeGate()
	if gate != nil {
		opts = append(opts, server.WithApprovals(gate), server.WithApproverToken(approver))
	}
	srv := server.New(decider, opts...)

	auth, config := "none", "defaults"
	if setup.token != "" {
		auth = "bearer token"
	}
	if len(user.Sources) > 0 {
		config = strings.Join(user.Sources, ",")
	}
	attrs := []any{"auth", auth, "config", config, "concurrency", f.concurrency, "max_body", setup.bodyLimit, "approvals", f.approvals.mode}
	attrs = append(attrs, teamAttrs(first, store, shipper)...)
	for _, ln := range lns {
		attrs = append(attrs, "listen", listenerName(ln))
		if ln.Addr().Network() == "tcp" {
			attrs = append(attrs, "console", "http://"+listenerName(ln)+server.RouteConsole)
		}
	}
	log.Info("guardian serve listening", attrs...)
	serveErr := srv.Serve(ctx, lns...)
	// Nothing can reach the Decider any more: flush and close the audit log.
	closeErr := audit.Close()
	if closeErr != nil {
		closeErr = fmt.Errorf("close the audit log: %w", closeErr)
	}
	if err := errors.Join(serveErr, closeErr); err != nil {
		return err
	}
	log.Info("guardian serve stopped")
	return nil
}

// checkServeFlags validates the flags and the environment before anything is opened.
func (a *app) checkServeFlags(cmd *cobra.Command, f serveFlags) (serveSetup, error) {
	var s serveSetup
	var err error
	if s.logger, err = newLogger(a.stderr, f.logFormat); err != nil {
		return s, err
	}
	if s.addrs, err = a.serveAddrs(cmd, f); err != nil {
		return s, err
	}
	if s.token, err = a.bearerToken("serve", f.tokenFile); err != nil {
		return s, err
	}
	if f.tokenFile != "" {
		if st, err := os.Stat(f.tokenFile); err == nil && st.Mode().Perm()&0o077 != 0 {
			s.logger.Warn("the token file is readable by other users: chmod 600 it", "file", f.tokenFile, "mode", fmt.Sprintf("%04o", st.Mode().Perm()))
		}
	}
	if s.token == "" {
		for _, addr := range s.addrs {
			if !server.IsLoopback(addr) {
				return s, usageErrorf("serve: refusing to listen on %s without a token: anyone who can reach it could ask for decisions and read the audit log. "+
					"Set one with %s or --token-file FILE (e.g. openssl rand -hex 32 > ~/.config/guardian/token && chmod 600 ~/.config/guardian/token), "+
					"or listen on loopback (127.0.0.1) or a unix socket", addr, envToken)
			}
		}
	}
	if s.bodyLimit, err = parseSize(f.maxBody); err != nil {
		return s, usageErrorf("serve: --max-body %q: %v", f.maxBody, err)
	}
	if s.bodyLimit < minBodyLimit || s.bodyLimit > maxBodyLimit {
		return s, usageErrorf("serve: --max-body %q: want a size from 1KiB to 64MiB, e.g. 1MiB", f.maxBody)
	}
	if f.concurrency < 1 || f.concurrency > maxConcurrency {
		return s, usageErrorf("serve: --concurrency %d: want 1 to %d", f.concurrency, maxConcurrency)
	}
	if err := f.approvals.check(); err != nil {
		return s, err
	}
	if err := f.team.check(); err != nil {
		return s, err
	}
	if f.drain <= 0 || f.drain > maxDrain {
		return s, usageErrorf("serve: --drain %s: want a duration above 0 and at most %s, e.g. 30s", f.drain, maxDrain)
	}
	return s, nil
}

// serveAddrs turns --addr and --socket into listen addresses: the socket alone with --socket,
// the TCP address alone with --addr, both when both are given. Without either, both the
// default TCP address and the default socket, when its path can be resolved: the hook
// adapters look for a serve on that socket, so a plain `guardian serve` is found.
func (a *app) serveAddrs(cmd *cobra.Command, f serveFlags) ([]string, error) {
	var addrs []string
	addrSet := cmd.Flags().Changed("addr")
	if !addrSet && f.socket == "" {
		addrSet = true // the default address, and the default socket beside it
		f.socket = server.DefaultSocketPath(a.getenv)
	}
	if f.addr == "" {
		return nil, usageErrorf("serve: --addr is empty: give HOST:PORT, e.g. 127.0.0.1:7420")
	}
	if f.socket == "" || addrSet {
		if _, ok := server.SocketPath(f.addr); !ok {
			if _, _, err := net.SplitHostPort(f.addr); err != nil {
				return nil, usageErrorf("serve: --addr %q: want HOST:PORT, e.g. 127.0.0.1:7420: %v", f.addr, err)
			}
		}
		addrs = append(addrs, f.addr)
	}
	if f.socket != "" {
		path := f.socket
		if path == "default" {
			if path = server.DefaultSocketPath(a.getenv); path == "" {
				return nil, usageErrorf("serve: --socket default: none of GUARDIAN_SOCKET, XDG_RUNTIME_DIR and HOME is set; give a PATH")
			}
		}
		addrs = append(addrs, "unix:"+path)
	}
	return addrs, nil
}

// bearerToken reads the bearer token of an HTTP face (guardian serve, guardian mcp-proxy
// --listen) from file, else from $GUARDIAN_TOKEN; "" means none. verb prefixes the errors.
func (a *app) bearerToken(verb, file string) (string, error) {
	src := envToken
	tok := a.getenv(envToken)
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", invalidError(fmt.Errorf("%s: read the token: %w", verb, err))
		}
		src, tok = file, string(b)
		if strings.TrimSpace(tok) == "" {
			return "", invalidError(fmt.Errorf("%s: the token file %s is empty: write a token into it, e.g. openssl rand -hex 32 > %s", verb, file, file))
		}
	}
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", nil
	}
	for _, r := range tok {
		if r < 0x21 || r > 0x7e {
			return "", invalidError(fmt.Errorf("%s: the token from %s has a space or a character outside printable ASCII: it must fit in an HTTP header (e.g. openssl rand -hex 32)", verb, src))
		}
	}
	if len(tok) < minTokenLen {
		return "", invalidError(fmt.Errorf("%s: the token from %s is %d characters, fewer than %d: use a random one, e.g. openssl rand -hex 32", verb, src, len(tok), minTokenLen))
	}
	return tok, nil
}

// sharedReviewerBuild returns the function that compiles an effective config into a pipeline
// for projectPipelines. The model reviewer of the user config is built once and shared by
// every pipeline whose config names the same model and prompt policy; a trusted project with
// a model or prompt of its own gets its own reviewer.
// extra adds options to each pipeline (guardian serve's state store).
func (a *app) sharedReviewerBuild(user guardian.Config, extra ...func(guardian.Config, string) []guardian.Option) (func(guardian.Config, string) (*guardian.Pipeline, error), error) {
	type reviewerKey struct {
		model  guardian.ModelConfig
		on     bool
		prompt prompts.Policy
	}
	keyOf := func(cfg guardian.Config) (reviewerKey, error) {
		m, on, err := cfg.ModelFromEnv(a.getenv)
		if err != nil {
			return reviewerKey{}, fmt.Errorf("model: %w", err)
		}
		return reviewerKey{model: m, on: on, prompt: cfg.Prompt.PromptPolicy()}, nil
	}
	reviewerOf := func(cfg guardian.Config) (guardian.Reviewer, error) {
		rev, err := a.modelReviewer(cfg)
		if err != nil || rev == nil {
			return nil, err
		}
		return rev, nil
	}
	userKey, err := keyOf(user)
	if err != nil {
		return nil, invalidError(err)
	}
	userRev, err := reviewerOf(user)
	if err != nil {
		return nil, invalidError(err)
	}
	return func(cfg guardian.Config, home string) (*guardian.Pipeline, error) {
		key, err := keyOf(cfg)
		if err != nil {
			return nil, err
		}
		rev := userRev
		if key != userKey {
			if rev, err = reviewerOf(cfg); err != nil {
				return nil, err
			}
		}
		var opts []guardian.Option
		for _, e := range extra {
			opts = append(opts, e(cfg, home)...)
		}
		return a.newPipeline(cfg, home, rev, opts...)
	}, nil
}

// prometheusMetrics returns the registry /metrics serves and the otel MeterProvider that
// feeds it through the Prometheus exporter. guardian serve hands the provider to the
// pipelines, the model client and the HTTP server, so one scrape shows them all, beside the
// Go runtime and process metrics.
func prometheusMetrics() (*prometheus.Registry, *sdkmetric.MeterProvider, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: prometheus exporter: %w", err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp),
		sdkmetric.WithResource(resource.NewSchemaless(attribute.String("service.name", "guardian"))))
	return reg, mp, nil
}

// listenAll opens every address, closing the ones already open if one fails.
func listenAll(ctx context.Context, addrs []string) ([]net.Listener, error) {
	var lns []net.Listener
	for _, addr := range addrs {
		ln, err := server.Listen(ctx, addr)
		if err != nil {
			closeAll(lns)
			return nil, fmt.Errorf("serve: %w", err)
		}
		lns = append(lns, ln)
	}
	return lns, nil
}

func closeAll(lns []net.Listener) {
	for _, ln := range lns {
		_ = ln.Close()
	}
}

// listenerName is how a listener is shown in the log and used by clients: host:port, or
// unix:PATH.
func listenerName(ln net.Listener) string {
	if ln.Addr().Network() == "unix" {
		return "unix:" + ln.Addr().String()
	}
	return ln.Addr().String()
}

// newLogger returns the server's slog logger on w.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, usageErrorf("serve: --log-format %q: want text or json", format)
}

// sizeRE is a byte size: a number and an optional unit.
var sizeRE = regexp.MustCompile(`^(\d+)\s*([A-Za-z]*)$`)

// parseSize reads a byte size such as 1048576, 512KiB, 1MiB or 1MB.
func parseSize(s string) (int64, error) {
	m := sizeRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, errors.New("want a size such as 1MiB, 512KiB or 1048576")
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a size such as 1MiB: %w", err)
	}
	units := map[string]int64{"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "kb": 1e3, "mb": 1e6, "gb": 1e9}
	mult, ok := units[strings.ToLower(m[2])]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q: use B, KiB, MiB or GiB", m[2])
	}
	if n > (1<<62)/mult {
		return 0, errors.New("too large")
	}
	return n * mult, nil
}
