package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// tap sits between mcp-go's client and the transport to an upstream, where it sees the JSON-RPC
// messages that the client's typed API hides:
//
//   - elicitation/create requests from the upstream reach the proxy with their raw params and
//     are answered with a raw result. mcp-go's ElicitationHandler receives typed
//     ElicitationParams, which drop Codex's top-level codex_* params, and can only answer
//     with an ElicitResult, while Codex reads {"decision": …};
//   - the JSON-RPC id of every forwarded tools/call is recorded against its call, because
//     Codex names it (codex_mcp_tool_call_id) in the exec approvals it sends during the call;
//   - the raw result of a tools/list is captured when the context asks for it, so tools are
//     re-served with their input and output schemas byte for byte (mcp.Tool keeps only some
//     schema keywords).
//
// Every other request and notification passes through unchanged.
type tap struct {
	transport.Interface
	bidi transport.BidirectionalInterface // nil when the transport takes no requests from the server
	// elicit answers an elicitation/create; its error becomes a JSON-RPC error response.
	elicit func(ctx context.Context, params []byte) (json.RawMessage, error)
	// sent and finished register and forget the JSON-RPC id of a forwarded tools/call.
	sent     func(id string, c *call)
	finished func(id string)

	mu    sync.RWMutex
	inner transport.RequestHandler // the client's own handler (ping, sampling, roots)
}

// newTap wraps tr. It returns the same kinds of transport mcp-go's client looks for: an HTTP
// connection stays one (the client mirrors the negotiated protocol version into its headers,
// and cancels HTTP requests by closing them, not with notifications/cancelled).
func newTap(tr transport.Interface, t *tap) transport.Interface {
	t.Interface = tr
	t.bidi, _ = tr.(transport.BidirectionalInterface)
	if h, ok := tr.(*transport.StreamableHTTP); ok {
		return &httpTap{tap: t, http: h}
	}
	return t
}

// SetRequestHandler keeps the client's handler for everything but elicitation/create, and
// installs the tap's own on the transport.
func (t *tap) SetRequestHandler(h transport.RequestHandler) {
	t.mu.Lock()
	t.inner = h
	t.mu.Unlock()
	if t.bidi != nil {
		t.bidi.SetRequestHandler(t.handle)
	}
}

// handle answers a request from the upstream.
func (t *tap) handle(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method != string(mcpgo.MethodElicitationCreate) {
		t.mu.RLock()
		inner := t.inner
		t.mu.RUnlock()
		if inner == nil {
			return nil, fmt.Errorf("unsupported request method: %s", req.Method)
		}
		return inner(ctx, req)
	}
	params, err := json.Marshal(req.Params)
	if err != nil {
		return nil, fmt.Errorf("elicitation/create: unreadable params: %w", err)
	}
	res, err := t.elicit(ctx, params)
	if err != nil {
		return nil, err
	}
	return transport.NewJSONRPCResultResponse(req.ID, res), nil
}

// SendRequest forwards a request to the upstream, recording the id of a forwarded tools/call
// and capturing raw results the context asks for.
func (t *tap) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcpgo.MethodToolsCall) {
		if c := callFrom(ctx); c != nil {
			id := fmt.Sprint(req.ID.Value())
			t.sent(id, c)
			defer t.finished(id)
		}
	}
	resp, err := t.Interface.SendRequest(ctx, req)
	if err == nil && resp != nil && resp.Error == nil {
		if s := sinkFrom(ctx); s != nil && s.method == req.Method {
			s.pages = append(s.pages, resp.Result)
		}
	}
	return resp, err
}

// httpTap is a tap over streamable HTTP: it keeps the methods mcp-go's client asks an HTTP
// transport for.
type httpTap struct {
	*tap
	http *transport.StreamableHTTP
}

// SetProtocolVersion implements transport.HTTPConnection.
func (h *httpTap) SetProtocolVersion(v string) { h.http.SetProtocolVersion(v) }

// RequiresLegacyProtocol reports whether the transport was set up so that only the initialize
// handshake can work (continuous listening).
func (h *httpTap) RequiresLegacyProtocol() bool { return h.http.RequiresLegacyProtocol() }

var (
	_ transport.BidirectionalInterface = (*tap)(nil)
	_ transport.HTTPConnection         = (*httpTap)(nil)
)

// rawSink collects the raw result pages of one method sent on a context.
type rawSink struct {
	method string
	pages  []json.RawMessage
}

type sinkKey struct{}

func withSink(ctx context.Context, s *rawSink) context.Context {
	return context.WithValue(ctx, sinkKey{}, s)
}

func sinkFrom(ctx context.Context) *rawSink {
	s, _ := ctx.Value(sinkKey{}).(*rawSink)
	return s
}
