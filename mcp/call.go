package mcp

import (
	"context"
	"encoding/json"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// call is one tools/call forwarded to an upstream, from the moment the host sends it until
// the upstream's result is returned. It outlives a single downstream request when the host
// speaks protocol 2026-07-28: each question to the host ends that request with an
// input_required result, and the host's retry resumes the same call.
//
// The upstream side (gate, forwarding, elicitations from the upstream) runs on the call's own
// goroutine and context; the downstream side (drive) is the only code that talks to the host
// about the call. Questions for the host travel from one to the other through asks.
type call struct {
	seq  uint64 // start order: the oldest in-flight call wins when routing by session
	up   *upstream
	tool string // the tool's name at the upstream
	host hostInfo

	ctx    context.Context // the upstream side's context; cancelled when the call ends
	cancel context.CancelFunc
	asks   chan *hostAsk   // questions about this call for the host, read by drive
	line   *sessionLine    // questions for the call's session, read by drive too
	done   chan callResult // the final result, buffered: the goroutine never blocks on it

	mu sync.Mutex
	// round is the downstream request currently driving the call (nil between the rounds of
	// a multi round-trip exchange), and roundToken its progress token: progress notifications
	// from the upstream are relayed to it.
	round      context.Context
	roundToken mcpgo.ProgressToken
}

// callResult is how a call ended.
type callResult struct {
	res *mcpgo.CallToolResult
	err error
}

// question is what the proxy puts to a host: typed params, and the top-level params they
// cannot hold (mcp-go's ElicitationParams know only message, requestedSchema, mode, url and
// elicitationId), which a stdio host gets as they came.
type question struct {
	params mcpgo.ElicitationParams
	top    map[string]json.RawMessage
	// topInMeta carries top in the _meta where the transport cannot send it as is (an exec
	// approval's codex_* must reach the host somehow); otherwise it is dropped there.
	topInMeta bool
}

// typed returns the params to send where top-level extras cannot travel.
func (q question) typed() mcpgo.ElicitationParams {
	p := q.params
	if !q.topInMeta || len(q.top) == 0 {
		return p
	}
	fields := map[string]any{}
	if p.Meta != nil {
		for k, v := range p.Meta.AdditionalFields {
			fields[k] = v
		}
	}
	for k, v := range q.top {
		fields[k] = v
	}
	p.Meta = &mcpgo.Meta{AdditionalFields: fields}
	return p
}

// hostAsk is one question for the host and where its answer goes.
type hostAsk struct {
	q     question
	reply chan hostReply // buffered: the answering side never blocks
}

// hostReply is the host's answer to a question: nil res when the host cancelled, failed or
// could not be asked; raw is the result exactly as the host sent it, when the transport lets
// the proxy see it (a stdio host).
type hostReply struct {
	res *mcpgo.ElicitationResult
	raw json.RawMessage
}

// ask puts a question to the call's host about this very call and waits for the answer;
// no answer (a zero hostReply) when the host cannot be asked (it declared no elicitation
// capability), cancels, fails, or when ctx or the call ends first.
func (c *call) ask(ctx context.Context, q question) hostReply {
	if !c.host.canElicit {
		return hostReply{}
	}
	return put(ctx, c.ctx, c.asks, q)
}

// put sends a question down asks and waits for its answer, giving up when ctx or life ends
// first.
func put(ctx, life context.Context, asks chan<- *hostAsk, q question) hostReply {
	a := &hostAsk{q: q, reply: make(chan hostReply, 1)}
	select {
	case asks <- a:
	case <-ctx.Done():
		return hostReply{}
	case <-life.Done():
		return hostReply{}
	}
	select {
	case r := <-a.reply:
		return r
	case <-ctx.Done():
		return hostReply{}
	case <-life.Done():
		return hostReply{}
	}
}

// sessionLine carries the questions that can be tied to a downstream session but not to one
// of its calls (an elicitation from a legacy stdio upstream while several calls of the same
// session are in flight there). Whichever of the session's calls is being driven puts the
// question to the host — the same host whichever call carries it — and the answer goes back
// to the upstream's own request. It lives while the session has calls in flight to the
// upstream; a question still waiting when the last one ends is cancelled.
type sessionLine struct {
	asks   chan *hostAsk
	ctx    context.Context
	cancel context.CancelFunc
	calls  int
	host   hostInfo // the host of the session's first call, for the audit's caller
}

// ask puts a question to the session's host and waits for the answer (as call.ask).
func (l *sessionLine) ask(ctx context.Context, q question) hostReply {
	if !l.host.canElicit {
		return hostReply{}
	}
	return put(ctx, l.ctx, l.asks, q)
}

// attach makes ctx, a downstream request with progress token tok, the call's current round.
func (c *call) attach(ctx context.Context, tok mcpgo.ProgressToken) {
	c.mu.Lock()
	c.round, c.roundToken = ctx, tok
	c.mu.Unlock()
}

// detach ends the round of ctx, if it is still the current one.
func (c *call) detach(ctx context.Context) {
	c.mu.Lock()
	if c.round == ctx {
		c.round, c.roundToken = nil, nil
	}
	c.mu.Unlock()
}

// currentRound returns the downstream request driving the call and its progress token.
func (c *call) currentRound() (context.Context, mcpgo.ProgressToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.round, c.roundToken
}

// callKey is the context key under which the upstream side of a call carries it, so that an
// elicitation arriving on that context (multi round-trip, HTTP legacy, in-process) is routed
// to its call.
type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}
