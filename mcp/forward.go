package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// inputID is the key of the proxy's question in an input_required result.
const inputID = "guardian"

// toolHandler forwards tools/call for the upstream tool of that name.
func (p *Proxy) toolHandler(u *upstream, tool string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if state := req.Params.RequestState; state != "" {
			c, err := p.resume(state, req.Params.InputResponses)
			if err != nil {
				return mcpgo.NewToolResultError(err.Error()), nil
			}
			return p.drive(ctx, c, progressToken(req.Params.Meta))
		}
		c := p.start(ctx, u, tool, req)
		return p.drive(ctx, c, progressToken(req.Params.Meta))
	}
}

// start begins a call: its upstream side runs on its own goroutine and context (a child of
// the proxy's, so it can outlive a 2026-07-28 request that ends in input_required).
func (p *Proxy) start(ctx context.Context, u *upstream, tool string, req mcpgo.CallToolRequest) *call {
	c := &call{
		seq:  p.seq.Add(1),
		up:   u,
		tool: tool,
		host: hostOf(ctx),
		asks: make(chan *hostAsk),
		done: make(chan callResult, 1),
	}
	// The roots are listed now, on the host's own request: over HTTP that request's stream is
	// where the host can be asked, and the gate and elicitations later run on the call's
	// context, which has none.
	c.host.workspace = p.rootsOf(ctx, c.host)
	c.ctx, c.cancel = context.WithCancel(p.ctx)
	upToken := ""
	if progressToken(req.Params.Meta) != nil {
		upToken = fmt.Sprintf("guardian-%d", c.seq)
	}
	untrack := u.track(c, upToken)
	// The request is the call's round before the upstream hears of the call: a fast upstream's
	// progress would otherwise find no round to go to and be dropped (drive attaches it again).
	c.attach(ctx, progressToken(req.Params.Meta))
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer c.cancel()
		defer untrack()
		res, err := p.run(c, req, upToken)
		c.done <- callResult{res: res, err: err}
	}()
	return c
}

// run is the upstream side of a call: the gate, when on, then the forwarded tools/call.
func (p *Proxy) run(c *call, req mcpgo.CallToolRequest, upToken string) (*mcpgo.CallToolResult, error) {
	ctx, span := p.tel.startCall(c.ctx, c)
	defer span.End()
	ctx = withCall(ctx, c)
	outcome := "forwarded"
	defer func() { p.tel.countCall(ctx, c.up.name, outcome) }()
	if c.up.spec.Gate {
		if denied := p.gate(ctx, c, req); denied != nil {
			outcome = "denied"
			return denied, nil
		}
	}
	var up mcpgo.CallToolRequest
	up.Params.Name = c.tool
	up.Params.Arguments = req.Params.Arguments
	if len(req.Params.RawArguments) > 0 {
		up.Params.Arguments = req.Params.RawArguments // integers above 2^53 stay exact
	}
	var tok mcpgo.ProgressToken
	if upToken != "" {
		tok = upToken
	}
	up.Params.Meta = forwardMeta(req.Params.Meta, tok)
	res, err := c.up.client.CallTool(ctx, up)
	switch {
	case err == nil:
		return res, nil
	case c.ctx.Err() != nil:
		outcome = "cancelled"
		return nil, c.ctx.Err()
	}
	outcome = "error"
	span.RecordError(err)
	var terr *transport.Error
	if !errors.As(err, &terr) {
		return nil, err // the upstream's own JSON-RPC error (unknown tool, invalid params…)
	}
	return mcpgo.NewToolResultError(fmt.Sprintf("guardian: the upstream MCP server %q failed: %v", c.up.name, err)), nil
}

// drive is the downstream side of a call for one request: it waits for the call's result and
// puts the call's questions to the host — as elicitation/create requests to a host on a
// protocol before 2026-07-28, or by ending the request with an input_required result that the
// host answers by retrying (multi round-trip). It returns when the call ends, when such a
// question is handed to the host, or when the request is cancelled (which cancels the call
// upstream).
func (p *Proxy) drive(ctx context.Context, c *call, tok mcpgo.ProgressToken) (*mcpgo.CallToolResult, error) {
	c.attach(ctx, tok)
	defer c.detach(ctx)
	modern := hostOf(ctx).modern
	for {
		select {
		case r := <-c.done:
			return r.res, r.err
		case a := <-c.asks:
			if modern {
				return p.park(c, a), nil
			}
			a.reply <- p.askLegacy(ctx, c, a)
		case a := <-c.line.asks:
			if modern {
				return p.park(c, a), nil
			}
			a.reply <- p.askLegacy(ctx, c, a)
		case <-ctx.Done():
			c.cancel()
			return nil, ctx.Err()
		}
	}
}

// askLegacy puts a question to a host before protocol 2026-07-28: an elicitation/create
// request on the session of the request driving c. A stdio host gets the question's
// top-level params as they came and its raw answer is kept. No answer when the host fails to
// give one.
func (p *Proxy) askLegacy(ctx context.Context, c *call, a *hostAsk) hostReply {
	params, ref, raw := a.q.typed(), "", stdioRawFrom(ctx)
	if raw != nil && len(a.q.top) > 0 {
		ref = randomState()
		raw.register(ref, a.q.top)
		params = a.q.params
		fields := map[string]any{rawRefKey: ref}
		if params.Meta != nil {
			for k, v := range params.Meta.AdditionalFields {
				fields[k] = v
			}
		}
		params.Meta = &mcpgo.Meta{AdditionalFields: fields}
	}
	res, err := p.srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{
		Request: mcpgo.Request{Method: string(mcpgo.MethodElicitationCreate)},
		Params:  params,
	})
	var got json.RawMessage
	if ref != "" {
		got = raw.take(ref)
	}
	if err != nil {
		p.log.Warn("the host did not answer an elicitation", "upstream", c.up.name, "tool", c.tool, "err", err)
		return hostReply{}
	}
	return hostReply{res: res, raw: got}
}

// parkedAsk is a question handed to a 2026-07-28 host, waiting for its retry.
type parkedAsk struct {
	c     *call
	a     *hostAsk
	timer *time.Timer
}

// park hands a question to a 2026-07-28 host: the request ends with an input_required result
// whose request state names the waiting call. Without a retry within the input timeout the
// question counts as cancelled and the call is cancelled.
func (p *Proxy) park(c *call, a *hostAsk) *mcpgo.CallToolResult {
	state := randomState()
	pa := &parkedAsk{c: c, a: a}
	p.parkMu.Lock()
	p.parked[state] = pa
	pa.timer = time.AfterFunc(p.opts.inputTimeout, func() {
		if p.unpark(state) != nil {
			a.reply <- hostReply{}
			c.cancel()
		}
	})
	p.parkMu.Unlock()
	return server.NewInputRequestBuilder(state).Elicit(inputID, a.q.typed()).ToolResult()
}

// unpark removes and returns the parked question of state, nil when there is none.
func (p *Proxy) unpark(state string) *parkedAsk {
	p.parkMu.Lock()
	defer p.parkMu.Unlock()
	pa := p.parked[state]
	delete(p.parked, state)
	return pa
}

// resume takes up a parked call on a 2026-07-28 host's retry: the answer in responses goes
// back to whoever asked, and the retry drives the call on.
func (p *Proxy) resume(state string, responses mcpgo.InputResponses) (*call, error) {
	pa := p.unpark(state)
	if pa == nil {
		return nil, errors.New("guardian: this retry's request state is unknown or expired (the question timed out or was answered); call the tool again")
	}
	pa.timer.Stop()
	pa.a.reply <- hostReply{res: server.ElicitationResponse(responses, inputID)}
	return pa.c, nil
}

// randomState is an unguessable request state: on stateless HTTP it is all that ties a retry
// to its call.
func randomState() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// progressToken is the progress token of a request's _meta, nil when it asks for none.
func progressToken(m *mcpgo.Meta) mcpgo.ProgressToken {
	if m == nil {
		return nil
	}
	return m.ProgressToken
}

// protocolMetaPrefix marks the _meta keys protocol 2026-07-28 uses for the protocol version,
// client info and capabilities of each request. They describe the downstream connection, not
// the call: forwarded upstream they would contradict the upstream connection's own (an HTTP
// upstream rejects a version that differs from its header; a legacy stdio upstream refuses
// server-initiated requests to a "2026-07-28" request).
const protocolMetaPrefix = "io.modelcontextprotocol/"

// forwardMeta is the _meta to send upstream for a downstream request's m: every key but the
// protocol's own, and the progress token tok (the proxy's, not the host's) when the host asked
// for progress. nil when nothing is left.
func forwardMeta(m *mcpgo.Meta, tok mcpgo.ProgressToken) *mcpgo.Meta {
	out := &mcpgo.Meta{ProgressToken: tok}
	if m != nil {
		for k, v := range m.AdditionalFields {
			if strings.HasPrefix(k, protocolMetaPrefix) {
				continue
			}
			if out.AdditionalFields == nil {
				out.AdditionalFields = map[string]any{}
			}
			out.AdditionalFields[k] = v
		}
	}
	if out.ProgressToken == nil && len(out.AdditionalFields) == 0 {
		return nil
	}
	return out
}
