package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/guardianhq/guardian/guardian"
	gserver "github.com/guardianhq/guardian/guardian/server"
)

// CallerHost is the guardian.Caller host of a decision when the downstream client did not
// name itself, or when the request that asked cannot be tied to one downstream call.
const CallerHost = "mcp-proxy"

// hostInfo is what the proxy knows about the downstream host behind one request.
type hostInfo struct {
	name      string // the client's name from initialize (or the request's _meta), sanitized
	session   string // the downstream session id
	canElicit bool   // the client declared the elicitation capability
	modern    bool   // the request uses protocol 2026-07-28: questions go as input_required results
	roots     bool   // the client declared the roots capability
	// workspace is the host's roots as local directories, when the proxy could list them
	// (see Proxy.rootsOf); filled in when a call starts.
	workspace []string
}

// hostOf reads the host behind a downstream request: from the request's own _meta on protocol
// 2026-07-28, from the session's initialize on earlier versions.
func hostOf(ctx context.Context) hostInfo {
	var h hostInfo
	var caps *mcpgo.ClientCapabilities
	var info *mcpgo.Implementation
	sess := server.ClientSessionFromContext(ctx)
	if sess != nil {
		h.session = sess.SessionID()
	}
	if pi := server.RequestProtocolInfoFromContext(ctx); pi != nil && pi.Modern {
		h.modern = true
		caps, info = pi.ClientCapabilities, pi.ClientInfo
	} else if ci, ok := sess.(server.SessionWithClientInfo); ok && sess != nil {
		c, i := ci.GetClientCapabilities(), ci.GetClientInfo()
		caps, info = &c, &i
	}
	h.modern = h.modern || mcpgo.IsModernProtocol(server.RequestProtocolVersion(ctx))
	if caps != nil {
		h.canElicit = caps.Elicitation != nil
		h.roots = caps.Roots != nil
	}
	if info != nil {
		h.name = info.Name
	}
	return h
}

// caller is the guardian.Caller of a decision taken for this host: its name (CallerHost when
// it gave none) and session, cleaned as every caller field is before it reaches the audit log.
func (h hostInfo) caller() guardian.Caller {
	c := guardian.Caller{Host: h.name, Session: h.session}
	c = gserver.CleanCaller(c)
	if c.Host == "" {
		c.Host = CallerHost
	}
	return c
}
