package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardianhq/guardian/guardian"
)

// Upstream describes one MCP server behind the proxy: a command started as a subprocess and
// spoken to over its stdin and stdout, or a streamable-HTTP URL.
type Upstream struct {
	// Name identifies the upstream in tool-name prefixes (NAME__tool, with several upstreams),
	// reviews (the MCP request's server) and logs (see guardian.CheckMCPUpstreamName). ""
	// derives it once connected: the server's own serverInfo.name (ServerName), else the
	// package its launcher runs or its program or host (DefaultName). Several upstreams need
	// a name each.
	Name string
	// Command is the argv of a stdio upstream; its stderr goes to the proxy's.
	Command []string
	// Env is added to the proxy's environment for the subprocess ("KEY=VALUE").
	Env []string
	// URL is the endpoint of a streamable-HTTP upstream, instead of Command.
	URL string
	// Headers are sent with every HTTP request to URL (e.g. Authorization).
	Headers map[string]string
	// Gate reviews every tools/call to this upstream before it is forwarded.
	Gate bool
	// ProtocolVersion pins the MCP protocol version spoken to the upstream; "" negotiates the
	// newest both sides know.
	ProtocolVersion string
	// Workspace is the project this upstream works on, as absolute directories ([[mcp.upstream]]
	// workspace): part of the workspace of every review of its requests, with the host's roots.
	Workspace []string
}

// Validate checks the description and says how to fix it.
func (u Upstream) Validate() error {
	if u.Name != "" {
		if err := guardian.CheckMCPUpstreamName(u.Name); err != nil {
			return err
		}
	}
	switch {
	case len(u.Command) > 0 && u.URL != "":
		return fmt.Errorf("upstream %s: give a command or a URL, not both", u.Name)
	case len(u.Command) == 0 && u.URL == "":
		return fmt.Errorf("upstream %s: give a command (argv) or a streamable-HTTP URL", u.Name)
	case len(u.Command) > 0 && u.Command[0] == "":
		return fmt.Errorf("upstream %s: the command's program is empty", u.Name)
	}
	if u.URL != "" {
		if err := guardian.CheckMCPURL(u.URL); err != nil {
			return fmt.Errorf("upstream %s: %w", u.Name, err)
		}
	}
	if u.ProtocolVersion != "" && !mcpgo.IsValidProtocolVersion(u.ProtocolVersion) {
		return fmt.Errorf("upstream %s: unknown protocol version %q (known: %v)", u.Name, u.ProtocolVersion, mcpgo.ValidProtocolVersions)
	}
	for _, d := range u.Workspace {
		if err := checkWorkspace(d); err != nil {
			return fmt.Errorf("upstream %s: %w", u.Name, err)
		}
	}
	return nil
}

// upstream is a connected upstream server.
type upstream struct {
	p      *Proxy
	spec   Upstream
	name   string
	prefix string // "NAME__" when the proxy has several upstreams, else ""
	client *client.Client
	modern bool
	caps   mcpgo.ServerCapabilities
	info   mcpgo.Implementation
	instr  string

	syncMu sync.Mutex // one list re-sync at a time

	acked   chan struct{} // closed when a 2026-07-28 upstream acknowledges subscriptions/listen
	ackOnce sync.Once

	mu        sync.Mutex
	inflight  map[*call]struct{}
	byID      map[string]*call        // JSON-RPC id of a forwarded tools/call → its call
	byToken   map[string]*call        // progress token sent upstream → its call
	lines     map[string]*sessionLine // downstream session → its line (sessions with calls in flight)
	tools     map[string]mcpgo.Tool
	toolOrder []string // downstream tool names, in the upstream's order
	prompts   []string // downstream names registered for this upstream
	resources []string
	templates []server.ServerResourceTemplate
}

// connect starts the upstream (a subprocess lives as long as the proxy), performs the
// handshake and registers its tools, resources and prompts with the proxy's server.
func (u *upstream) connect(ctx context.Context) error {
	c, err := u.dial(ctx, false)
	if err != nil {
		return err
	}
	// A legacy HTTP upstream sends what is not the answer to one request on its GET stream:
	// list-changed notifications, and server-initiated requests it does not tie to the
	// tools/call that caused them (the TypeScript SDK's server.request, elicitInput) — an
	// elicitation sent there with no stream open is lost and the upstream's call hangs. mcp-go
	// opens that stream only with continuous listening, which rules out protocol 2026-07-28,
	// so now that the upstream turned out legacy, reconnect pinned to its version with it open.
	if u.spec.URL != "" && !u.modern {
		_ = c.Close()
		if c, err = u.dial(ctx, true); err != nil {
			return err
		}
	}
	u.client = c
	if u.spec.Name == "" {
		if n := ServerName(u.info.Name); n != "" && guardian.CheckMCPUpstreamName(n) == nil {
			u.name = n
		}
	}
	u.acked = make(chan struct{})
	c.OnNotification(u.onNotification)
	if err := u.syncAll(ctx); err != nil {
		return err
	}
	if u.modern && u.wantsListChanged() {
		return u.listen(ctx)
	}
	return nil
}

// listenAckTimeout bounds the wait for a 2026-07-28 upstream to acknowledge the list-changed
// subscription; without the acknowledgement the proxy goes on, warned that changes made in
// the meantime may be missed.
const listenAckTimeout = 10 * time.Second

// listen subscribes to a 2026-07-28 upstream's list-changed notifications (subscriptions/
// listen; earlier versions send them unasked). Changes made before the subscription is
// acknowledged would be lost, so the lists are synced once more after it.
func (u *upstream) listen(ctx context.Context) error {
	filter := mcpgo.SubscriptionFilter{
		ToolsListChanged:     u.caps.Tools != nil && u.caps.Tools.ListChanged,
		PromptsListChanged:   u.caps.Prompts != nil && u.caps.Prompts.ListChanged,
		ResourcesListChanged: u.caps.Resources != nil && u.caps.Resources.ListChanged,
	}
	if _, err := u.client.ListenAsync(u.p.ctx, filter, func(err error) {
		if !u.p.closing.Load() {
			u.p.log.Warn("upstream list-changed stream ended", "upstream", u.name, "err", err)
		}
	}); err != nil {
		u.p.log.Warn("upstream list-changed notifications unavailable", "upstream", u.name, "err", err)
		return nil
	}
	t := time.NewTimer(listenAckTimeout)
	defer t.Stop()
	select {
	case <-u.acked:
		return u.syncAll(ctx)
	case <-t.C:
		u.p.log.Warn("upstream did not acknowledge the list-changed subscription; changes may be missed", "upstream", u.name)
		return nil
	case <-ctx.Done():
		return fmt.Errorf("upstream %s: subscriptions/listen: %w", u.name, ctx.Err())
	}
}

// dial opens the transport and performs the handshake.
func (u *upstream) dial(ctx context.Context, listen bool) (*client.Client, error) {
	var tr transport.Interface
	if len(u.spec.Command) > 0 {
		tr = transport.NewStdioWithOptions(u.spec.Command[0], u.spec.Env, u.spec.Command[1:],
			transport.WithCommandStderrWriter(u.p.stderr), transport.WithCommandLogger(u.p.log))
	} else {
		opts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(u.p.log)}
		if len(u.spec.Headers) > 0 {
			opts = append(opts, transport.WithHTTPHeaders(u.spec.Headers))
		}
		if listen {
			opts = append(opts, transport.WithContinuousListening())
		}
		h, err := transport.NewStreamableHTTP(u.spec.URL, opts...)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: %w", u.name, err)
		}
		tr = h
	}
	t := newTap(tr, &tap{
		elicit:   func(ctx context.Context, params []byte) (json.RawMessage, error) { return u.p.elicit(ctx, u, params) },
		sent:     u.sentCall,
		finished: u.finishedCall,
	})
	caps := u.p.upstreamCapabilities()
	opts := []client.ClientOption{client.WithClientCapabilities(caps)}
	if caps.Elicitation != nil {
		// mcp-go declares elicitation to whoever has a handler: only when the host can.
		opts = append(opts, client.WithElicitationHandler(mrtrElicitation{u}))
	}
	version := u.spec.ProtocolVersion
	if listen && version == "" {
		version = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(t, opts...)
	// The transport (and a subprocess) lives as long as the proxy, not as long as ctx.
	if err := c.Start(u.p.ctx); err != nil {
		return nil, fmt.Errorf("upstream %s: start %s: %w", u.name, u.where(), err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: "guardian-mcp-proxy", Version: u.p.version}
	init.Params.ProtocolVersion = version
	res, err := c.Initialize(ctx, init)
	if err != nil {
		_ = c.Close()
		hint := ""
		if len(u.spec.Command) > 0 {
			hint = " (the server's own stderr, if it wrote any, is above)"
		}
		return nil, fmt.Errorf("upstream %s: initialize %s: %w%s", u.name, u.where(), err, hint)
	}
	u.modern = mcpgo.IsModernProtocol(c.ProtocolVersion())
	u.caps, u.info, u.instr = res.Capabilities, res.ServerInfo, res.Instructions
	return c, nil
}

// where names the upstream's command or URL for error messages.
func (u *upstream) where() string {
	if len(u.spec.Command) > 0 {
		return fmt.Sprintf("%q", u.spec.Command)
	}
	return u.spec.URL
}

func (u *upstream) wantsListChanged() bool {
	return (u.caps.Tools != nil && u.caps.Tools.ListChanged) ||
		(u.caps.Prompts != nil && u.caps.Prompts.ListChanged) ||
		(u.caps.Resources != nil && u.caps.Resources.ListChanged)
}

// ---- lists -----------------------------------------------------------------------------------

// syncAll registers every tool, resource, resource template and prompt the upstream offers.
func (u *upstream) syncAll(ctx context.Context) error {
	for _, f := range []func(context.Context) error{u.syncTools, u.syncResources, u.syncPrompts} {
		if err := f(ctx); err != nil {
			return err
		}
	}
	return nil
}

// syncTools lists the upstream's tools and (re-)registers them. The raw tools/list pages are
// captured so each tool is served with its input and output schemas exactly as the upstream
// wrote them.
func (u *upstream) syncTools(ctx context.Context) error {
	if u.caps.Tools == nil {
		return nil
	}
	u.syncMu.Lock()
	defer u.syncMu.Unlock()
	sink := &rawSink{method: string(mcpgo.MethodToolsList)}
	res, err := u.client.ListTools(withSink(ctx, sink), mcpgo.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("upstream %s: tools/list: %w", u.name, err)
	}
	schemas := rawSchemas(sink.pages)
	tools := map[string]mcpgo.Tool{}
	var served []server.ServerTool
	var order []string
	for _, t := range res.Tools {
		if s, ok := schemas[t.Name]; ok {
			if len(s.in) > 0 {
				t.InputSchema, t.RawInputSchema = mcpgo.ToolInputSchema{}, s.in
			}
			if len(s.out) > 0 {
				t.OutputSchema, t.RawOutputSchema = mcpgo.ToolOutputSchema{}, s.out
			}
		}
		tools[t.Name] = t
		st := t
		st.Name = u.prefix + t.Name
		served = append(served, server.ServerTool{Tool: st, Handler: u.p.toolHandler(u, t.Name)})
		order = append(order, st.Name)
	}
	u.mu.Lock()
	var gone []string
	for name := range u.tools {
		if _, ok := tools[name]; !ok {
			gone = append(gone, u.prefix+name)
		}
	}
	u.tools, u.toolOrder = tools, order
	u.mu.Unlock()
	if len(gone) > 0 {
		u.p.srv.DeleteTools(gone...)
	}
	if len(served) > 0 {
		u.p.srv.AddTools(served...)
	}
	return nil
}

// toolSchemas are one tool's raw schemas.
type toolSchemas struct{ in, out json.RawMessage }

// rawSchemas reads the input and output schemas of every tool in raw tools/list results.
func rawSchemas(pages []json.RawMessage) map[string]toolSchemas {
	out := map[string]toolSchemas{}
	for _, page := range pages {
		var p struct {
			Tools []struct {
				Name         string          `json:"name"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		}
		if json.Unmarshal(page, &p) != nil {
			continue
		}
		for _, t := range p.Tools {
			s := toolSchemas{}
			if !isNull(t.InputSchema) {
				s.in = t.InputSchema
			}
			if !isNull(t.OutputSchema) {
				s.out = t.OutputSchema
			}
			out[t.Name] = s
		}
	}
	return out
}

// tool returns the upstream's tool of that (upstream) name.
func (u *upstream) tool(name string) (mcpgo.Tool, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	t, ok := u.tools[name]
	return t, ok
}

// syncResources lists the upstream's resources and resource templates and (re-)registers
// them. URIs are not renamed: with several upstreams, the first (in order) to offer a URI
// serves it.
func (u *upstream) syncResources(ctx context.Context) error {
	if u.caps.Resources == nil {
		return nil
	}
	u.syncMu.Lock()
	defer u.syncMu.Unlock()
	rs, err := u.client.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		return fmt.Errorf("upstream %s: resources/list: %w", u.name, err)
	}
	var served []server.ServerResource
	var uris []string
	for _, r := range rs.Resources {
		if u.p.offeredBefore(u, r.URI) {
			continue
		}
		served = append(served, server.ServerResource{Resource: r, Handler: u.readResource})
		uris = append(uris, r.URI)
	}
	ts, err := u.client.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil {
		return fmt.Errorf("upstream %s: resources/templates/list: %w", u.name, err)
	}
	var tpls []server.ServerResourceTemplate
	for _, t := range ts.ResourceTemplates {
		tpls = append(tpls, server.ServerResourceTemplate{Template: t, Handler: u.readResource})
	}
	u.mu.Lock()
	gone := missing(u.resources, uris)
	u.resources, u.templates = uris, tpls
	u.mu.Unlock()
	if len(gone) > 0 {
		u.p.srv.DeleteResources(gone...)
	}
	if len(served) > 0 {
		u.p.srv.AddResources(served...)
	}
	u.p.setTemplates()
	return nil
}

// offersResource reports whether this upstream serves uri.
func (u *upstream) offersResource(uri string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Contains(u.resources, uri)
}

// resourceTemplates returns the templates registered for this upstream.
func (u *upstream) resourceTemplates() []server.ServerResourceTemplate {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.templates)
}

// readResource forwards resources/read.
func (u *upstream) readResource(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
	var r mcpgo.ReadResourceRequest
	r.Params.URI, r.Params.Arguments = req.Params.URI, req.Params.Arguments
	r.Params.Meta = forwardMeta(req.Params.Meta, nil)
	res, err := u.client.ReadResource(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("upstream %s: resources/read %s: %w", u.name, req.Params.URI, err)
	}
	return res.Contents, nil
}

// syncPrompts lists the upstream's prompts and (re-)registers them, prefixed like tools.
func (u *upstream) syncPrompts(ctx context.Context) error {
	if u.caps.Prompts == nil {
		return nil
	}
	u.syncMu.Lock()
	defer u.syncMu.Unlock()
	ps, err := u.client.ListPrompts(ctx, mcpgo.ListPromptsRequest{})
	if err != nil {
		return fmt.Errorf("upstream %s: prompts/list: %w", u.name, err)
	}
	var served []server.ServerPrompt
	var names []string
	for _, pr := range ps.Prompts {
		upName := pr.Name
		pr.Name = u.prefix + pr.Name
		served = append(served, server.ServerPrompt{Prompt: pr, Handler: u.getPrompt(upName)})
		names = append(names, pr.Name)
	}
	u.mu.Lock()
	gone := missing(u.prompts, names)
	u.prompts = names
	u.mu.Unlock()
	if len(gone) > 0 {
		u.p.srv.DeletePrompts(gone...)
	}
	if len(served) > 0 {
		u.p.srv.AddPrompts(served...)
	}
	return nil
}

// getPrompt forwards prompts/get for the upstream prompt of that name.
func (u *upstream) getPrompt(name string) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		var r mcpgo.GetPromptRequest
		r.Params.Name, r.Params.Arguments = name, req.Params.Arguments
		r.Params.Meta = forwardMeta(req.Params.Meta, nil)
		res, err := u.client.GetPrompt(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: prompts/get %s: %w", u.name, name, err)
		}
		return res, nil
	}
}

// missing returns the entries of old that are not in now.
func missing(old, now []string) []string {
	var out []string
	for _, o := range old {
		if !slices.Contains(now, o) {
			out = append(out, o)
		}
	}
	return out
}

// ---- notifications ---------------------------------------------------------------------------

// onNotification handles a notification from the upstream. It runs on the transport's reading
// goroutine, so anything that sends requests (a re-sync) runs on its own.
func (u *upstream) onNotification(n mcpgo.JSONRPCNotification) {
	switch n.Method {
	case mcpgo.MethodNotificationToolsListChanged:
		u.resync(u.syncTools)
	case mcpgo.MethodNotificationResourcesListChanged:
		u.resync(u.syncResources)
	case mcpgo.MethodNotificationPromptsListChanged:
		u.resync(u.syncPrompts)
	case string(mcpgo.MethodNotificationProgress):
		u.relayProgress(n.Params.AdditionalFields)
	case string(mcpgo.MethodNotificationMessage):
		u.p.relayLog(u, n.Params.AdditionalFields)
	case mcpgo.MethodNotificationResourceUpdated:
		u.p.srv.SendNotificationToAllClients(n.Method, n.Params.AdditionalFields)
	case mcpgo.MethodNotificationSubscriptionsAcknowledged:
		u.ackOnce.Do(func() { close(u.acked) })
	}
}

// resync runs one list re-sync off the notification goroutine; a failure is logged (the old
// list stays).
func (u *upstream) resync(f func(context.Context) error) {
	u.p.wg.Add(1)
	go func() {
		defer u.p.wg.Done()
		if err := f(u.p.ctx); err != nil && u.p.ctx.Err() == nil {
			u.p.log.Warn("upstream list re-sync failed", "upstream", u.name, "err", err)
		}
	}()
}

// relayProgress passes a progress notification on to the downstream request of the call it
// belongs to, under the token that request chose.
func (u *upstream) relayProgress(params map[string]any) {
	tok, _ := params["progressToken"].(string)
	u.mu.Lock()
	c := u.byToken[tok]
	u.mu.Unlock()
	if c == nil {
		return
	}
	ctx, orig := c.currentRound()
	if ctx == nil || orig == nil {
		return
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		out[k] = v
	}
	out["progressToken"] = orig
	_ = u.p.srv.SendNotificationToClient(ctx, string(mcpgo.MethodNotificationProgress), out)
}

// ---- in-flight calls -------------------------------------------------------------------------

// track registers a call as in flight, on its session's line, until the returned function
// is called.
func (u *upstream) track(c *call, token string) func() {
	u.mu.Lock()
	if u.inflight == nil {
		u.inflight, u.byToken, u.lines = map[*call]struct{}{}, map[string]*call{}, map[string]*sessionLine{}
	}
	u.inflight[c] = struct{}{}
	if token != "" {
		u.byToken[token] = c
	}
	// A request without a session (stateless HTTP on protocol 2026-07-28) is a session of its
	// own: nothing says two of them come from the same host.
	key := "session:" + c.host.session
	if c.host.session == "" {
		key = fmt.Sprintf("call:%d", c.seq)
	}
	line := u.lines[key]
	if line == nil {
		line = &sessionLine{asks: make(chan *hostAsk), host: c.host}
		line.ctx, line.cancel = context.WithCancel(u.p.ctx)
		u.lines[key] = line
	}
	line.calls++
	c.line = line
	u.mu.Unlock()
	return func() {
		u.mu.Lock()
		delete(u.inflight, c)
		if token != "" {
			delete(u.byToken, token)
		}
		if line.calls--; line.calls == 0 {
			line.cancel()
			delete(u.lines, key)
		}
		u.mu.Unlock()
	}
}

func (u *upstream) sentCall(id string, c *call) {
	u.mu.Lock()
	if u.byID == nil {
		u.byID = map[string]*call{}
	}
	u.byID[id] = c
	u.mu.Unlock()
}

func (u *upstream) finishedCall(id string) {
	u.mu.Lock()
	delete(u.byID, id)
	u.mu.Unlock()
}

// asker is where a question about an upstream's elicitation goes: the call it belongs to, or
// the line of the one downstream session it can belong to.
type asker interface {
	ask(ctx context.Context, q question) hostReply
	hostInfo() hostInfo
}

func (c *call) hostInfo() hostInfo        { return c.host }
func (l *sessionLine) hostInfo() hostInfo { return l.host }

// route finds where an elicitation from this upstream belongs, and says how it was found. In
// order:
//
//  1. the context it arrived on carries its call (multi round-trip upstreams, legacy HTTP
//     upstreams that send it on the call's own stream, in-process upstreams);
//  2. Codex's codex_mcp_tool_call_id names the JSON-RPC id of a forwarded tools/call;
//  3. every call in flight to this upstream comes from one downstream session: that session's
//     line, so the question reaches the one host it can be about.
//
// Otherwise (no call in flight, or calls from several sessions) nil: the elicitation is never
// shown to a host it may not be about.
func (u *upstream) route(ctx context.Context, e *elicitation) (asker, string) {
	if c := callFrom(ctx); c != nil && c.up == u {
		return c, "context"
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if e.toolCallID != "" {
		if c := u.byID[e.toolCallID]; c != nil {
			return c, "tool_call_id"
		}
	}
	switch len(u.lines) {
	case 0:
		return nil, "no_call"
	case 1:
		for _, l := range u.lines {
			return l, "session"
		}
	}
	return nil, "ambiguous"
}

// mrtrElicitation receives the elicitations of a 2026-07-28 upstream, which arrive inside an
// input_required tools/call (or prompts/get, resources/read) result: mcp-go's client hands
// them over typed, on the call's own context.
type mrtrElicitation struct{ u *upstream }

// Elicit implements client.ElicitationHandler.
func (h mrtrElicitation) Elicit(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	params, err := json.Marshal(req.Params)
	if err != nil {
		return nil, err
	}
	raw, err := h.u.p.elicit(ctx, h.u, params)
	if err != nil {
		return nil, err
	}
	var res mcpgo.ElicitationResult
	if err := json.Unmarshal(raw, &res); err != nil || res.Action == "" {
		return nil, errors.New("guardian: this elicitation's answer has no MCP form (an exec approval over multi round-trip)")
	}
	return &res, nil
}
