package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// heldHost is a host that announces each question it gets on arrived and answers it only once
// release is closed: accept, with the question's message as content, so the upstream's result
// shows which question was answered.
func heldHost(arrived chan<- string, release <-chan struct{}) *host {
	return &host{answer: func(q mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) {
		arrived <- q.Message
		<-release
		return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{
			Action: mcpgo.ElicitationResponseActionAccept, Content: map[string]any{"answered": q.Message}}}, nil
	}}
}

// asyncCall calls a tool on its own goroutine; the result (or error) arrives on the channel.
func asyncCall(c *client.Client, name string, args map[string]any) <-chan *mcpgo.CallToolResult {
	out := make(chan *mcpgo.CallToolResult, 1)
	go func() {
		res, err := c.CallTool(context.Background(), toolRequest(name, args))
		if err != nil {
			res = mcpgo.NewToolResultError("call failed: " + err.Error())
		}
		out <- res
	}()
	return out
}

// twoSessions connects two hosts (two HTTP sessions) to p, each holding its questions.
func twoSessions(t *testing.T, p *Proxy, era []client.ClientOption) (a, b *client.Client, arrivedA, arrivedB chan string, release chan struct{}) {
	arrivedA, arrivedB, release = make(chan string, 4), make(chan string, 4), make(chan struct{})
	a = connectHTTP(t, p, hostOpts(era, heldHost(arrivedA, release))...)
	b = connectHTTP(t, p, hostOpts(era, heldHost(arrivedB, release))...)
	return a, b, arrivedA, arrivedB, release
}

// TestConcurrentCallsEachGetTheirElicitation: two hosts call one upstream at once; each
// host is shown its own call's question and each answer reaches its own upstream request,
// on every upstream whose protocol ties an elicitation to its call.
func TestConcurrentCallsEachGetTheirElicitation(t *testing.T) {
	kinds := []upstreamKind{
		{"stdio-modern", func(_ *testing.T, n string) Upstream { return stdioUpstream(n, "tools") }},
		{"http-legacy", func(t *testing.T, n string) Upstream { return httpUpstream(t, n, true) }},
		{"http-modern", func(t *testing.T, n string) Upstream { return httpUpstream(t, n, false) }},
	}
	for _, uk := range kinds {
		for _, era := range eras {
			t.Run(uk.name+"/"+era.name, func(t *testing.T) {
				p, _ := newProxy(t, uk.spec(t, "fx"))
				a, b, arrivedA, arrivedB, release := twoSessions(t, p, era.opts)
				resA := asyncCall(a, "elicit", map[string]any{"message": "for A"})
				if got := recv(t, arrivedA, "question to host A"); got != "for A" {
					t.Fatalf("host A was asked %q", got)
				}
				resB := asyncCall(b, "elicit", map[string]any{"message": "for B"})
				if got := recv(t, arrivedB, "question to host B"); got != "for B" {
					t.Fatalf("host B was asked %q", got)
				}
				close(release)
				for who, res := range map[string]<-chan *mcpgo.CallToolResult{"A": resA, "B": resB} {
					got := upstreamSaw(t, recv(t, res, "result of call "+who))
					if c, _ := got["content"].(map[string]any); got["action"] != "accept" || c["answered"] != "for "+who {
						t.Errorf("call %s: upstream got %v", who, got)
					}
				}
			})
		}
	}
}

// TestConcurrentExecApprovalsRouteByToolCallID: Codex names the tools/call an exec approval
// belongs to, so even over legacy stdio two hosts' approvals go to the right host.
func TestConcurrentExecApprovalsRouteByToolCallID(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			p, _ := newProxy(t, codexUpstream("codex"))
			a, b, arrivedA, arrivedB, release := twoSessions(t, p, era.opts)
			push := []string{"git", "push", "upstream", "feature"}
			resA := asyncCall(a, fixture.CodexTool, map[string]any{"command": push, "cwd": "/tmp/a"})
			if got := recv(t, arrivedA, "question to host A"); !strings.Contains(got, "in `/tmp/a`") {
				t.Fatalf("host A was asked %q", got)
			}
			resB := asyncCall(b, fixture.CodexTool, map[string]any{"command": push, "cwd": "/tmp/b"})
			if got := recv(t, arrivedB, "question to host B"); !strings.Contains(got, "in `/tmp/b`") {
				t.Fatalf("host B was asked %q", got)
			}
			close(release)
			for who, res := range map[string]<-chan *mcpgo.CallToolResult{"A": resA, "B": resB} {
				if got := text(t, recv(t, res, "result of call "+who)); got != `{"decision":"approved"}` {
					t.Errorf("call %s: Codex read %s", who, got)
				}
			}
		})
	}
}

// TestLegacyStdioAmbiguity: a legacy stdio upstream's elicitation names no call. With calls
// of two sessions in flight it is shown to neither host: what guardian would ask a host about
// is cancelled, what guardian decides stands.
func TestLegacyStdioAmbiguity(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			p, _ := newProxy(t, stdioUpstream("fx", "tools -legacy"))
			a, b, arrivedA, arrivedB, release := twoSessions(t, p, era.opts)
			resA := asyncCall(a, "elicit", map[string]any{"message": "for A"})
			if got := recv(t, arrivedA, "question to host A"); got != "for A" {
				t.Fatalf("host A was asked %q (one session in flight: its line)", got)
			}
			// A is in flight; B's elicitations cannot be told from A's.
			got := upstreamSaw(t, callTool(t, b, "elicit", map[string]any{"message": "for B"}))
			if len(got) != 1 || got["action"] != "cancel" {
				t.Errorf("ambiguous plain elicitation: upstream got %v, want cancel", got)
			}
			got = upstreamSaw(t, callTool(t, b, "elicit", map[string]any{"message": "for B", "meta": approvalMeta("deploy", map[string]any{"env": "prod"})}))
			if len(got) != 1 || got["action"] != "cancel" {
				t.Errorf("ambiguous ask: upstream got %v, want cancel", got)
			}
			got = upstreamSaw(t, callTool(t, b, "elicit", map[string]any{"message": "for B", "meta": approvalMeta("read_file", map[string]any{"path": "README.md"})}))
			if got["action"] != "accept" || metaOf(got)["guardian/decision"] != "allow" {
				t.Errorf("ambiguous allow: upstream got %v, want guardian's accept", got)
			}
			select {
			case q := <-arrivedB:
				t.Errorf("host B was shown %q", q)
			default:
			}
			close(release)
			if got := upstreamSaw(t, recv(t, resA, "result of call A")); got["action"] != "accept" {
				t.Errorf("call A: upstream got %v", got)
			}
		})
	}
}

// TestOneSessionConcurrentLegacyStdio: with one session (a stdio host) and a legacy stdio
// upstream, two calls in flight both get their questions to the host, and each answer goes
// back to the upstream request that asked.
func TestOneSessionConcurrentLegacyStdio(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			p, _ := newProxy(t, stdioUpstream("fx", "tools -legacy"))
			arrived, release := make(chan string, 4), make(chan struct{})
			c := connectStdio(t, p, hostOpts(era.opts, heldHost(arrived, release))...)
			res1 := asyncCall(c, "elicit", map[string]any{"message": "one"})
			first := recv(t, arrived, "first question")
			res2 := asyncCall(c, "elicit", map[string]any{"message": "two"})
			second := recv(t, arrived, "second question")
			if first+" "+second != "one two" {
				t.Fatalf("host was asked %q then %q", first, second)
			}
			close(release)
			for msg, res := range map[string]<-chan *mcpgo.CallToolResult{"one": res1, "two": res2} {
				got := upstreamSaw(t, recv(t, res, "result of call "+msg))
				if c, _ := got["content"].(map[string]any); c["answered"] != msg {
					t.Errorf("call %q: upstream got %v", msg, got)
				}
			}
		})
	}
}
