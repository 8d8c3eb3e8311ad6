package mcp

import (
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/riskmodel"
)

// gated is the tools fixture behind the tool-call gate.
func gated(name, args string) Upstream {
	u := stdioUpstream(name, args)
	u.Gate = true
	return u
}

// TestGate: with the gate on, allow forwards, deny refuses without asking, ask puts the call
// to the host — accept forwards, anything else refuses.
func TestGate(t *testing.T) {
	cases := []struct {
		name   string
		tool   string
		args   map[string]any
		answer func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error)
		want   string // the result text, or its prefix for a refusal
		asked  bool
	}{
		{"allow", "echo", map[string]any{"message": "hi"}, nil, "hi", false},
		{"deny", "delete_repo", map[string]any{"repo": "acme/app"}, nil, "guardian denied the call to delete_repo on the MCP server fx: ", false},
		{"ask, host accepts", "deploy", map[string]any{"env": "prod"}, answerWith(mcpgo.ElicitationResponseActionAccept, nil), "deployed to prod", true},
		{"ask, host declines", "deploy", map[string]any{"env": "prod"}, answerWith(mcpgo.ElicitationResponseActionDecline, nil), "guardian denied the call to deploy on the MCP server fx: ", true},
		{"ask, host cancels", "deploy", map[string]any{"env": "prod"}, answerWith(mcpgo.ElicitationResponseActionCancel, nil), "guardian denied the call to deploy on the MCP server fx: ", true},
	}
	for _, dk := range downstreamKinds {
		for _, era := range eras {
			t.Run(dk.name+"/"+era.name, func(t *testing.T) {
				p, audit := newProxy(t, gated("fx", "tools -legacy"))
				h := &host{}
				c := dk.connect(t, p, hostOpts(era.opts, h)...)
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						h.expect(tc.answer)
						res := callTool(t, c, tc.tool, tc.args)
						got := text(t, res)
						refused := strings.HasPrefix(tc.want, "guardian denied")
						if !strings.HasPrefix(got, tc.want) || res.IsError != refused {
							t.Errorf("result %q (isError %v), want %q", got, res.IsError, tc.want)
						}
						if refused && (!strings.Contains(got, "The call was not run.") || !strings.Contains(got, "safer alternative")) {
							t.Errorf("refusal does not say what to do instead: %q", got)
						}
						q := h.questions()
						if (len(q) == 1) != tc.asked {
							t.Fatalf("host asked %d times, want asked=%v", len(q), tc.asked)
						}
						if tc.asked && !strings.HasPrefix(q[0].Message, "Allow the MCP server fx to run its tool deploy?\n\nguardian: ") {
							t.Errorf("host was asked %q", q[0].Message)
						}
					})
				}
				entries := audit.all()
				if len(entries) != len(cases) {
					t.Fatalf("audit has %d entries, want %d", len(entries), len(cases))
				}
				e := entries[0]
				if e.Request.Kind != riskmodel.KindMCP || e.Request.MCP.Server != "fx" || e.Request.MCP.Tool != "echo" ||
					e.Request.MCP.ToolDescription != "Echo a message back." || e.Request.MCP.Annotations == nil || !*e.Request.MCP.Annotations.ReadOnlyHint ||
					e.Caller.Host != "test-host" {
					t.Errorf("audit entry: %+v %+v", e.Caller, e.Request.MCP)
				}
			})
		}
	}
}

// TestGateHostCannotBeAsked: what the gate would ask about is refused, with the reason, when the
// host cannot take elicitations.
func TestGateHostCannotBeAsked(t *testing.T) {
	p, _ := newProxy(t, gated("fx", "tools"))
	c := connectStdio(t, p, legacyHost...)
	res := callTool(t, c, "deploy", map[string]any{"env": "prod"})
	got := text(t, res)
	if !res.IsError || !strings.HasPrefix(got, "guardian denied") || !strings.Contains(got, "cannot be asked") {
		t.Fatalf("result %q", got)
	}
	if res.Meta == nil || res.Meta.AdditionalFields["guardian/decision"] != "deny" {
		t.Errorf("refusal _meta = %+v", res.Meta)
	}
}

// TestGateOffByDefault: without the gate, tool calls are forwarded unreviewed.
func TestGateOffByDefault(t *testing.T) {
	p, audit := newProxy(t, stdioUpstream("fx", "tools"))
	c := connectStdio(t, p, legacyHost...)
	if got := text(t, callTool(t, c, "delete_repo", map[string]any{"repo": "acme/app"})); got != "deleted acme/app" {
		t.Fatalf("result %q", got)
	}
	if n := len(audit.all()); n != 0 {
		t.Errorf("%d reviews without the gate", n)
	}
}
