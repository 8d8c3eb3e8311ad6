package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// notifications collects the notifications a client receives.
func notifications(c *client.Client) <-chan mcpgo.JSONRPCNotification {
	ch := make(chan mcpgo.JSONRPCNotification, 64)
	c.OnNotification(func(n mcpgo.JSONRPCNotification) { ch <- n })
	return ch
}

// TestRawSchemasSurvive: tools are served with the upstream's input and output schemas as
// written — keywords mcp-go's typed Tool drops (anyOf, a top-level description, $defs,
// $comment) included.
func TestRawSchemasSurvive(t *testing.T) {
	for _, uk := range upstreamKinds {
		t.Run(uk.name, func(t *testing.T) {
			p, _ := newProxy(t, uk.spec(t, "fx"))
			c := connectStdio(t, p, legacyHost...)
			resp, err := c.GetTransport().SendRequest(context.Background(), transport.JSONRPCRequest{
				JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId(int64(1000)), Method: string(mcpgo.MethodToolsList)})
			if err != nil || resp.Error != nil {
				t.Fatalf("tools/list: %v %+v", err, resp)
			}
			var list struct {
				Tools []map[string]json.RawMessage `json:"tools"`
			}
			if err := json.Unmarshal(resp.Result, &list); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, tool := range list.Tools {
				if string(tool["name"]) != `"schema"` {
					continue
				}
				found = true
				if !jsonEqual(t, string(tool["inputSchema"]), fixture.SchemaInput) {
					t.Errorf("inputSchema = %s\nwant %s", tool["inputSchema"], fixture.SchemaInput)
				}
				if !jsonEqual(t, string(tool["outputSchema"]), fixture.SchemaOutput) {
					t.Errorf("outputSchema = %s\nwant %s", tool["outputSchema"], fixture.SchemaOutput)
				}
			}
			if !found {
				t.Fatalf("no schema tool in %s", resp.Result)
			}
			// The structured result passes through too.
			res := callTool(t, c, "schema", map[string]any{"service": "api"})
			if !jsonEqual(t, mustString(res.StructuredContent), `{"found":true}`) {
				t.Errorf("structuredContent = %v", res.StructuredContent)
			}
		})
	}
}

// TestResourcesAndPrompts: resources, resource templates and prompts are listed and read
// through the proxy.
func TestResourcesAndPrompts(t *testing.T) {
	for _, uk := range upstreamKinds {
		for _, era := range eras {
			t.Run(uk.name+"/"+era.name, func(t *testing.T) {
				p, _ := newProxy(t, uk.spec(t, "fx"))
				c := connectStdio(t, p, era.opts...)
				ctx := context.Background()
				rs, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
				if err != nil || len(rs.Resources) != 1 || rs.Resources[0].URI != "fixture://readme" {
					t.Fatalf("resources: %v %+v", err, rs)
				}
				ts, err := c.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
				if err != nil || len(ts.ResourceTemplates) != 1 || ts.ResourceTemplates[0].URITemplate.Raw() != "fixture://items/{id}" {
					t.Fatalf("templates: %v %+v", err, ts)
				}
				for uri, want := range map[string]string{"fixture://readme": "fixture readme", "fixture://items/42": "item fixture://items/42"} {
					var req mcpgo.ReadResourceRequest
					req.Params.URI = uri
					res, err := c.ReadResource(ctx, req)
					if err != nil || len(res.Contents) != 1 {
						t.Fatalf("read %s: %v %+v", uri, err, res)
					}
					if tc, ok := res.Contents[0].(mcpgo.TextResourceContents); !ok || tc.Text != want {
						t.Errorf("read %s = %#v", uri, res.Contents[0])
					}
				}
				ps, err := c.ListPrompts(ctx, mcpgo.ListPromptsRequest{})
				if err != nil || len(ps.Prompts) != 2 || ps.Prompts[0].Name != "greet" || len(ps.Prompts[0].Arguments) != 1 {
					t.Fatalf("prompts: %v %+v", err, ps)
				}
				var gp mcpgo.GetPromptRequest
				gp.Params.Name, gp.Params.Arguments = "greet", map[string]string{"name": "Ada"}
				pr, err := c.GetPrompt(ctx, gp)
				if err != nil || len(pr.Messages) != 1 {
					t.Fatalf("get prompt: %v %+v", err, pr)
				}
				if tc, ok := pr.Messages[0].Content.(mcpgo.TextContent); !ok || tc.Text != "Hello, Ada" {
					t.Errorf("prompt message = %#v", pr.Messages[0].Content)
				}
			})
		}
	}
}

// TestToolListChanged: a tool the upstream adds is announced to the host and callable.
func TestToolListChanged(t *testing.T) {
	for _, uk := range upstreamKinds {
		t.Run(uk.name, func(t *testing.T) {
			p, _ := newProxy(t, uk.spec(t, "fx"))
			c := connectStdio(t, p, legacyHost...)
			notes := notifications(c)
			callTool(t, c, "add_tool", map[string]any{"name": "added"})
			for {
				waitNote(t, notes, "tools/list_changed listing the added tool", func(n mcpgo.JSONRPCNotification) bool {
					return n.Method == mcpgo.MethodNotificationToolsListChanged
				})
				tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				if hasTool(tools.Tools, "added") {
					break
				}
			}
			if got := text(t, callTool(t, c, "added", map[string]any{"message": "x"})); got != "x" {
				t.Fatalf("added tool answered %q", got)
			}
		})
	}
}

func hasTool(tools []mcpgo.Tool, name string) bool {
	for _, tool := range tools {
		if tool.Name == name {
			return true
		}
	}
	return false
}

// TestProgressIsRelayed: progress notifications of a call reach the host under the host's own
// token (the upstream saw the proxy's).
func TestProgressIsRelayed(t *testing.T) {
	for _, args := range []string{"tools -legacy", "tools"} {
		for _, era := range eras {
			t.Run(args+"/"+era.name, func(t *testing.T) {
				p, _ := newProxy(t, stdioUpstream("fx", args))
				c := connectStdio(t, p, era.opts...)
				notes := notifications(c)
				req := toolRequest("progress", map[string]any{"steps": 3})
				req.Params.Meta = &mcpgo.Meta{ProgressToken: "host-token"}
				res, err := c.CallTool(context.Background(), req)
				if err != nil || text(t, res) != "done" {
					t.Fatalf("progress: %v %+v", err, res)
				}
				// mcp-go writes notifications and results from different goroutines, so some
				// may come after the result; all three come.
				for i := 1; i <= 3; i++ {
					n := waitNote(t, notes, fmt.Sprintf("progress notification %d of 3", i), func(n mcpgo.JSONRPCNotification) bool {
						return n.Method == string(mcpgo.MethodNotificationProgress)
					})
					if tok := n.Params.AdditionalFields["progressToken"]; tok != "host-token" {
						t.Fatalf("progress token %v, want the host's", tok)
					}
				}
			})
		}
	}
}

// TestCancelReachesTheUpstream: a host cancelling its call cancels the forwarded call, and the
// upstream's log messages reach the host.
//
// That the cancel arrived is asked of the upstream (wait_cancelled), not read from its log
// line "wait_for_cancel: cancelled": over streamable HTTP, mcp-go hands a session's
// notifications to whichever of its streams reads first, and the POST stream of the call the
// host just dropped can take that line and lose it (a limit of the transport, not something
// the proxy can steer: SendNotificationToAllClients names no stream).
func TestCancelReachesTheUpstream(t *testing.T) {
	// An HTTP host listens on the GET stream, as hosts do, so that the session outlives its
	// requests.
	listening := func(t *testing.T, p *Proxy, opts ...client.ClientOption) *client.Client {
		return connectHTTPWith(t, p, "test-host", []transport.StreamableHTTPCOption{transport.WithContinuousListening()}, opts...)
	}
	for _, args := range []string{"tools -legacy", "tools"} {
		for _, dk := range []downstreamKind{{"stdio", connectStdio}, {"http", listening}} {
			t.Run(args+"/"+dk.name, func(t *testing.T) {
				p, _ := newProxy(t, stdioUpstream("fx", args))
				c := dk.connect(t, p, legacyHost...)
				notes := notifications(c)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() {
					_, err := c.CallTool(ctx, toolRequest("wait_for_cancel", nil))
					done <- err
				}()
				waitLog(t, notes, "wait_for_cancel: started")
				cancel()
				if err := recv(t, done, "return of the cancelled call"); err == nil {
					t.Error("the cancelled call returned no error")
				}
				// wait_cancelled blocks until the upstream's wait_for_cancel was cancelled: if
				// the cancel never reaches it, the bound ends the wait.
				wctx, stop := context.WithTimeout(context.Background(), waitBound)
				defer stop()
				res, err := c.CallTool(wctx, toolRequest("wait_cancelled", nil))
				if err != nil {
					t.Fatalf("the upstream's call was not cancelled: %v", err)
				}
				if got := text(t, res); got != "wait_for_cancel: cancelled" {
					t.Errorf("wait_cancelled = %q", got)
				}
			})
		}
	}
}

// TestTwoUpstreamsArePrefixed: with two upstreams, every tool and prompt is NAME__name, and
// each call reaches its own upstream.
func TestTwoUpstreamsArePrefixed(t *testing.T) {
	b := stdioUpstream("beta", "tools")
	b.Gate = true
	p, audit := newProxy(t, stdioUpstream("alpha", "tools -legacy"), b)
	h := &host{answer: answerWith(mcpgo.ElicitationResponseActionAccept, nil)}
	c := connectStdio(t, p, hostOpts(legacyHost, h)...)
	tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"alpha__echo", "beta__echo", "alpha__schema", "beta__deploy"} {
		if !hasTool(tools.Tools, want) {
			t.Errorf("no tool %s", want)
		}
	}
	for _, tool := range tools.Tools {
		if !strings.HasPrefix(tool.Name, "alpha__") && !strings.HasPrefix(tool.Name, "beta__") {
			t.Errorf("unprefixed tool %s", tool.Name)
		}
	}
	ps, err := c.ListPrompts(context.Background(), mcpgo.ListPromptsRequest{})
	if err != nil || len(ps.Prompts) != 4 {
		t.Fatalf("prompts: %v %+v", err, ps)
	}
	// Both offer fixture://readme: served once, by the first.
	rs, err := c.ListResources(context.Background(), mcpgo.ListResourcesRequest{})
	if err != nil || len(rs.Resources) != 1 || rs.Resources[0].URI != "fixture://readme" {
		t.Fatalf("resources: %v %+v", err, rs)
	}
	if !p.ups[0].offersResource("fixture://readme") || p.ups[1].offersResource("fixture://readme") {
		t.Error("fixture://readme is not served by the first upstream")
	}
	if got := text(t, callTool(t, c, "alpha__echo", map[string]any{"message": "a"})); got != "a" {
		t.Errorf("alpha__echo = %q", got)
	}
	// beta is gated, alpha is not: only beta's call is reviewed, as server "beta".
	if got := text(t, callTool(t, c, "beta__deploy", map[string]any{"env": "prod"})); got != "deployed to prod" {
		t.Errorf("beta__deploy = %q", got)
	}
	callTool(t, c, "alpha__deploy", map[string]any{"env": "prod"})
	if e := audit.all(); len(e) != 1 || e[0].Request.MCP.Server != "beta" || e[0].Request.MCP.Tool != "deploy" {
		t.Errorf("audit = %+v", e)
	}
	// Elicitations are reviewed under their own upstream's name.
	got := upstreamSaw(t, callTool(t, c, "alpha__elicit", map[string]any{"message": "m", "meta": approvalMeta("read_file", map[string]any{"path": "x"})}))
	if got["action"] != "accept" {
		t.Errorf("alpha elicitation: %v", got)
	}
	if e := audit.all(); len(e) != 2 || e[1].Request.MCP.Server != "alpha" {
		t.Errorf("audit = %+v", e)
	}
}

// TestUpstreamFailureIsAToolError: a transport failure is reported to the model as a tool
// error naming the upstream, not as a protocol error.
func TestUpstreamFailureIsAToolError(t *testing.T) {
	up := httpUpstream(t, "fx", true)
	p, _ := newProxy(t, up)
	c := connectStdio(t, p, legacyHost...)
	// Stop answering: every HTTP request to the upstream now fails.
	p.ups[0].client.GetTransport().(*httpTap).http.Close()
	res := callTool(t, c, "echo", map[string]any{"message": "hi"})
	if got := text(t, res); !res.IsError || !strings.HasPrefix(got, `guardian: the upstream MCP server "fx" failed: `) {
		t.Fatalf("result %q (isError %v)", got, res.IsError)
	}
}

// TestCallerHostIsCleaned: the host's self-reported name is cleaned of control characters
// before it reaches the audit log.
func TestCallerHostIsCleaned(t *testing.T) {
	p, audit := newProxy(t, stdioUpstream("fx", "tools"))
	c := connectHTTPAs(t, p, "evil\nhost\x1b[31m", legacyHost...)
	callTool(t, c, "elicit", map[string]any{"message": "m", "meta": approvalMeta("read_file", map[string]any{"path": "x"})})
	e := audit.all()
	if len(e) != 1 || e[0].Caller.Host != "evilhost[31m" {
		t.Fatalf("caller = %+v", e)
	}
}
