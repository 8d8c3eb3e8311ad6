package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/mcp"
)

// mcpConnectTimeout bounds starting and initializing the upstreams: a server that never
// answers initialize must not leave the host waiting on a proxy that never answers either.
const mcpConnectTimeout = time.Minute

// mcpProxyFlags are the flags of `guardian mcp-proxy`.
type mcpProxyFlags struct {
	url       string
	name      string
	gate      bool
	listen    string
	tokenFile string
	workspace []string
}

func (a *app) mcpProxyCmd() *cobra.Command {
	var f mcpProxyFlags
	c := &cobra.Command{
		Use:   "mcp-proxy [flags] [-- CMD ARGS...]",
		Short: "Stand between an agent host and MCP servers, reviewing what they ask to be approved",
		Long: `Serve an agent host (Codex, Claude Code, any MCP client) the tools, resources and prompts
of one or more upstream MCP servers, and review what passes:

  - elicitations that opt in to review with Codex's approval _meta
    (codex_request_type "approval_request", codex_approval_kind "mcp_tool_call"): allow and
    deny are answered to the server without asking the host; ask forwards the question to
    the host with guardian's assessment appended;
  - Codex's exec-approval elicitations (Codex running as an MCP server): answered
    {"decision":"approved"} or {"decision":"denied"}, or put to the host;
  - with --gate, every tools/call before it is forwarded.

Everything else passes through unchanged. One upstream is a command after -- (a stdio
server; its stderr goes to guardian's) or --url (streamable HTTP); several come from the
user config's [[mcp.upstream]] tables, and then their tools are named NAME__tool.

The host talks to the proxy over stdin and stdout (stdout carries only the protocol; logs go
to stderr), or with --listen over streamable HTTP at ADDR, path /mcp. A non-loopback ADDR needs
a bearer token (GUARDIAN_TOKEN or --token-file). The proxy exits 0 when the host closes its
stdin (or on SIGTERM), and stops its upstream subprocesses.

Decisions use the same pipeline, audit log and metrics as guardian review: the user config
and the project file of the working directory; with no model configured, the embedded rules.

The workspace of a review (where the agent may change files freely) is the host's MCP roots,
when it declares them, together with --workspace and the upstream's workspace in the config;
never a directory the reviewed call names itself. See docs/mcp.md.`,
		Example: `  guardian mcp-proxy -- npx -y @modelcontextprotocol/server-github
  guardian mcp-proxy --gate --name posthog -- npx -y @posthog/mcp
  guardian mcp-proxy --url http://127.0.0.1:8080/mcp
  guardian mcp-proxy --listen 127.0.0.1:7421          # the user config's [[mcp.upstream]]`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.mcpProxy(cmd, f, args) },
	}
	fl := c.Flags()
	fl.StringVar(&f.url, "url", "", "a streamable-HTTP upstream at `URL`, instead of a command")
	fl.StringVar(&f.name, "name", "", "the upstream's `NAME` (default: the server's own name, else the package npx/uvx/docker runs, the command's base name or the URL's host)")
	fl.BoolVar(&f.gate, "gate", false, "review every tools/call to the upstream before forwarding it")
	fl.StringVar(&f.listen, "listen", "", "serve the host over streamable HTTP at `ADDR` (path /mcp) instead of stdio")
	fl.StringVar(&f.tokenFile, "token-file", "", "with --listen: read the bearer token from `FILE` (else $GUARDIAN_TOKEN)")
	fl.StringArrayVar(&f.workspace, "workspace", nil, "a `DIR` of the project the upstreams work on, beside the host's roots (repeatable; relative to the working directory)")
	return c
}

// mcpProxySetup is a validated mcp-proxy command line.
type mcpProxySetup struct {
	cmdline   []string     // the upstream after --, if any
	upstream  mcp.Upstream // the upstream of the flags, when cmdline or --url is given
	fromFlag  bool
	token     string
	workspace []string // --workspace, absolute
}

// checkMCPProxyFlags validates the command line before anything is started.
func (a *app) checkMCPProxyFlags(cmd *cobra.Command, f mcpProxyFlags, args []string) (mcpProxySetup, error) {
	var s mcpProxySetup
	if dash := cmd.ArgsLenAtDash(); dash != 0 && len(args) > 0 {
		return s, usageErrorf("mcp-proxy: unexpected argument %q: put the upstream server's command after --, e.g. guardian mcp-proxy -- npx -y @modelcontextprotocol/server-github", args[0])
	}
	s.cmdline = args
	switch {
	case len(s.cmdline) > 0 && f.url != "":
		return s, usageErrorf("mcp-proxy: give the upstream as a command after -- or as --url, not both")
	case len(s.cmdline) > 0 && s.cmdline[0] == "":
		return s, usageErrorf("mcp-proxy: the upstream command after -- is empty")
	case len(s.cmdline) == 0 && f.url == "" && (f.name != "" || f.gate):
		return s, usageErrorf("mcp-proxy: --name and --gate describe the upstream given after -- or with --url; for [[mcp.upstream]] tables set name and gate there")
	}
	if f.url != "" {
		if err := guardian.CheckMCPURL(f.url); err != nil {
			return s, usageErrorf("mcp-proxy: --url: %v", err)
		}
	}
	if f.url != "" || len(s.cmdline) > 0 {
		s.fromFlag = true
		// Without --name the proxy names the upstream once connected: its serverInfo.name,
		// else the package its launcher runs (docs/mcp.md).
		s.upstream = mcp.Upstream{Name: f.name, Command: s.cmdline, URL: f.url, Gate: f.gate}
		if err := s.upstream.Validate(); err != nil {
			return s, usageErrorf("mcp-proxy: %v", err)
		}
	}
	for _, w := range f.workspace {
		if strings.TrimSpace(w) == "" {
			return s, usageErrorf("mcp-proxy: --workspace needs a directory, e.g. --workspace ~/src/app")
		}
		if !filepath.IsAbs(w) {
			wd, err := a.workdir()
			if err != nil {
				return s, err
			}
			w = filepath.Join(wd, w)
		}
		w = filepath.Clean(w)
		if w == "/" {
			return s, usageErrorf("mcp-proxy: --workspace /: / is never a workspace (everything would be inside it); name the project's directory")
		}
		s.workspace = append(s.workspace, w)
	}
	if f.tokenFile != "" && f.listen == "" {
		return s, usageErrorf("mcp-proxy: --token-file applies to --listen: over stdio the host is the process that started the proxy")
	}
	if f.listen != "" {
		if _, ok := server.SocketPath(f.listen); !ok {
			if _, _, err := net.SplitHostPort(f.listen); err != nil {
				return s, usageErrorf("mcp-proxy: --listen %q: want HOST:PORT, e.g. 127.0.0.1:7421: %v", f.listen, err)
			}
		}
		tok, err := a.bearerToken("mcp-proxy", f.tokenFile)
		if err != nil {
			return s, err
		}
		if tok == "" && !server.IsLoopback(f.listen) {
			return s, usageErrorf("mcp-proxy: refusing to listen on %s without a token: anyone who can reach it could call the upstream servers' tools. "+
				"Set one with %s or --token-file FILE (e.g. openssl rand -hex 32 > ~/.config/guardian/token && chmod 600 ~/.config/guardian/token), "+
				"or listen on loopback (127.0.0.1) or a unix socket", f.listen, envToken)
		}
		s.token = tok
	}
	return s, nil
}

// mcpProxy runs guardian mcp-proxy until the host goes away or a signal arrives.
func (a *app) mcpProxy(cmd *cobra.Command, f mcpProxyFlags, args []string) error {
	setup, err := a.checkMCPProxyFlags(cmd, f, args)
	if err != nil {
		return err
	}
	wd, err := a.workdir()
	if err != nil {
		return err
	}
	user, err := a.loadConfig(cmd, "")
	if err != nil {
		return err
	}
	ups := []mcp.Upstream{setup.upstream}
	if !setup.fromFlag {
		if ups, err = a.configUpstreams(user); err != nil {
			return err
		}
	}
	log := slog.New(slog.NewTextHandler(a.stderr, nil))

	// The same pipelines, cache and audit log as guardian serve: built once, project file of
	// the working directory for MCP requests (exec approvals use their own cwd's).
	build, err := a.sharedReviewerBuild(user)
	if err != nil {
		return err
	}
	pipelines := newProjectPipelines(user, a.getenv("HOME"), maxProjectPipelines, build)
	defer pipelines.Close()
	if _, err := pipelines.forDir(wd); err != nil {
		return invalidError(err)
	}
	auditLog, err := a.openAudit(cmd, user)
	if err != nil {
		return fmt.Errorf("open the audit log: %w", err)
	}
	defer auditLog.Close()
	decider := guardian.Audited(pipelines.inDir(wd), auditLog, time.Now)

	ctx := cmd.Context()
	opts := []mcp.Option{mcp.WithLogger(log), mcp.WithStderr(a.stderr), mcp.WithVersion(moduleVersion()), mcp.WithWorkspace(setup.workspace...)}
	if a.tracerProvider != nil {
		opts = append(opts, mcp.WithTracerProvider(a.tracerProvider))
	}
	if a.meterProvider != nil {
		opts = append(opts, mcp.WithMeterProvider(a.meterProvider))
	}
	in := a.stdin
	if f.listen == "" {
		// The upstreams are offered the elicitation capability the host declares, so its
		// initialize is read before they start.
		caps, rest, ok := peekHost(ctx, a.stdin)
		if !ok {
			return nil // a signal before the host said anything
		}
		in = rest
		if caps != nil {
			opts = append(opts, mcp.WithHostCapabilities(*caps))
		}
	}
	cctx, cancel := context.WithTimeout(ctx, mcpConnectTimeout)
	p, err := mcp.New(cctx, decider, ups, opts...)
	cancel()
	if err != nil {
		return err
	}
	defer func() {
		if err := p.Close(); err != nil {
			log.Warn("upstream shutdown", "err", err)
		}
	}()
	if f.listen == "" {
		err = p.ServeStdio(ctx, in, a.stdout)
	} else {
		err = a.serveMCPHTTP(ctx, p, f.listen, setup.token, log)
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// peekHost is mcp.PeekHost, given up (ok false) when ctx ends first.
func peekHost(ctx context.Context, r io.Reader) (caps *mcpgo.ClientCapabilities, rest io.Reader, ok bool) {
	type peeked struct {
		caps *mcpgo.ClientCapabilities
		rest io.Reader
	}
	done := make(chan peeked, 1)
	go func() {
		c, r := mcp.PeekHost(r)
		done <- peeked{c, r}
	}()
	select {
	case p := <-done:
		return p.caps, p.rest, true
	case <-ctx.Done():
		return nil, nil, false
	}
}

// configUpstreams turns the user config's [[mcp.upstream]] tables into upstreams, reading the
// bearer tokens they name from the environment.
func (a *app) configUpstreams(user guardian.Config) ([]mcp.Upstream, error) {
	if len(user.MCP.Upstreams) == 0 {
		where := "the user config"
		if len(user.Sources) > 0 {
			where = user.Sources[0]
		}
		return nil, usageErrorf("mcp-proxy: no upstream MCP server: give its command after -- (guardian mcp-proxy -- npx -y @modelcontextprotocol/server-github), or --url URL, or add [[mcp.upstream]] tables to %s (see docs/config.md)", where)
	}
	home := user.Policy.Home
	if home == "" {
		home = a.getenv("HOME")
	}
	var ups []mcp.Upstream
	for _, c := range user.MCP.Upstreams {
		u := mcp.Upstream{Name: c.Name, Command: c.Command, Env: c.EnvList(), URL: c.URL, Gate: c.Gate, ProtocolVersion: c.Protocol}
		for _, w := range c.Workspace {
			if w == "~" || strings.HasPrefix(w, "~/") {
				if !filepath.IsAbs(home) {
					return nil, invalidError(fmt.Errorf("config: upstream %s: workspace %q: the home directory is unknown (set home in the config, or $HOME)", c.Name, w))
				}
				w = filepath.Join(home, strings.TrimPrefix(w, "~"))
			}
			u.Workspace = append(u.Workspace, filepath.Clean(w))
		}
		if c.BearerTokenEnv != "" {
			tok := strings.TrimSpace(a.getenv(c.BearerTokenEnv))
			if tok == "" {
				return nil, invalidError(fmt.Errorf("config: upstream %s: bearer_token_env names %s, which is not set; export the token in it", c.Name, c.BearerTokenEnv))
			}
			u.Headers = map[string]string{"Authorization": "Bearer " + tok}
		}
		ups = append(ups, u)
	}
	return ups, nil
}

// serveMCPHTTP serves the host over streamable HTTP at addr, path /mcp, until ctx ends.
func (a *app) serveMCPHTTP(ctx context.Context, p *mcp.Proxy, addr, token string, log *slog.Logger) error {
	ln, err := server.Listen(ctx, addr)
	if err != nil {
		return fmt.Errorf("mcp-proxy: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewBearerToken(token).Require(p.Handler()))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	auth := "none"
	if token != "" {
		auth = "bearer token"
	}
	log.Info("guardian mcp-proxy listening", "listen", listenerName(ln), "path", "/mcp", "auth", auth)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mcp-proxy: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	return nil
}
