package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/riskmodel"
)

// approvalMeta is the _meta of a Codex MCP tool-call approval request for tool with params,
// plus a key of the server's own that must travel unchanged.
func approvalMeta(tool string, params map[string]any) map[string]any {
	return map[string]any{
		"codex_request_type":  "approval_request",
		"codex_approval_kind": "mcp_tool_call",
		"tool_name":           tool,
		"tool_params":         params,
		"tool_description":    "a tool of the fixture",
		"persist":             "session",
		"example.com/trace":   "abc",
	}
}

// upstreamSaw decodes the elicit tool's report: the result the upstream received.
func upstreamSaw(t *testing.T, res *mcpgo.CallToolResult) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text(t, res)), &m); err != nil {
		t.Fatalf("elicit result is not JSON: %v: %s", err, text(t, res))
	}
	return m
}

func metaOf(m map[string]any) map[string]any {
	meta, _ := m["_meta"].(map[string]any)
	return meta
}

// elicitCase is one elicitation the upstream sends and what must come of it.
type elicitCase struct {
	name   string
	meta   map[string]any
	schema map[string]any
	answer func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) // the host's
	// modernAborts: a 2026-07-28 host whose handler fails abandons the call itself (its
	// client returns the error), so there is no upstream answer to check.
	modernAborts bool
	// check inspects what the upstream got and what the host was asked (nil: not asked).
	check func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams)
}

const askMessage = "Allow the fixture to act?"

var elicitCases = []elicitCase{
	{
		name: "allow answers accept without the host",
		meta: approvalMeta("read_file", map[string]any{"path": "README.md"}),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			meta := metaOf(got)
			if asked != nil || got["action"] != "accept" || meta["approvals_reviewer"] != "guardian" || meta["guardian/decision"] != "allow" {
				t.Errorf("allow: upstream got %v, host asked %v", got, asked != nil)
			}
			if c, ok := got["content"].(map[string]any); !ok || len(c) != 0 {
				t.Errorf("allow: content = %v, want {}", got["content"])
			}
		},
	},
	{
		name: "deny answers decline with the reason without the host",
		meta: approvalMeta("delete_repo", map[string]any{"repo": "acme/app"}),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			meta := metaOf(got)
			msg, _ := meta["message"].(string)
			if asked != nil || got["action"] != "decline" || meta["guardian/decision"] != "deny" || meta["approvals_reviewer"] != "guardian" || !strings.HasPrefix(msg, "guardian: ") || !strings.Contains(msg, "critical") {
				t.Errorf("deny: upstream got %v, host asked %v", got, asked != nil)
			}
		},
	},
	{
		name:   "ask forwards annotated and returns the host's answer as given",
		meta:   approvalMeta("deploy", map[string]any{"env": "prod"}),
		answer: answerWith(mcpgo.ElicitationResponseActionAccept, map[string]any{"confirm": true}),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			if asked == nil {
				t.Fatal("ask: the host was not asked")
			}
			if !strings.HasPrefix(asked.Message, askMessage+"\n\nguardian: ") || !strings.Contains(asked.Message, "[risk: high") {
				t.Errorf("ask: host message = %q", asked.Message)
			}
			fields := asked.Meta.AdditionalFields
			for k, v := range approvalMeta("deploy", map[string]any{"env": "prod"}) {
				if !jsonEqual(t, mustString(v), mustString(fields[k])) {
					t.Errorf("ask: _meta[%s] = %v, want %v verbatim", k, fields[k], v)
				}
			}
			a, _ := fields["guardian/assessment"].(map[string]any)
			if a["risk_level"] != "high" || a["summary"] == "" || a["category"] == "" || a["rationale"] == "" {
				t.Errorf("ask: guardian/assessment = %v", fields["guardian/assessment"])
			}
			if got["action"] != "accept" || !jsonEqual(t, mustString(got["content"]), `{"confirm":true}`) {
				t.Errorf("ask: upstream got %v, want the host's accept", got)
			}
		},
	},
	{
		name:   "ask answered cancel by the host",
		meta:   approvalMeta("deploy", map[string]any{"env": "prod"}),
		answer: answerWith(mcpgo.ElicitationResponseActionCancel, nil),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			if asked == nil || got["action"] != "cancel" {
				t.Errorf("host cancel: upstream got %v, host asked %v", got, asked != nil)
			}
		},
	},
	malformed("the wrong kind", map[string]any{"codex_approval_kind": "exec_command"}, `codex_approval_kind is "exec_command"`),
	malformed("no tool_name", map[string]any{"tool_name": nil}, "tool_name is missing or empty"),
	malformed("an empty tool_name", map[string]any{"tool_name": "  "}, "tool_name is missing or empty"),
	malformed("a tool_name that is no string", map[string]any{"tool_name": 7}, "tool_name is not a string"),
	malformed("tool_params that are no object", map[string]any{"tool_params": []any{1}}, "tool_params is not an object"),
	{
		name:   "not opted in passes untouched both ways",
		meta:   map[string]any{"example.com/origin": "fixture", "codex_request_type": "something_else"},
		schema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"}},
		answer: answerWith(mcpgo.ElicitationResponseActionAccept, map[string]any{"name": "Ada"}),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			if asked == nil {
				t.Fatal("untouched: the host was not asked")
			}
			if asked.Message != askMessage || !jsonEqual(t, mustString(asked.Meta.AdditionalFields), `{"example.com/origin":"fixture","codex_request_type":"something_else"}`) ||
				!jsonEqual(t, mustString(asked.RequestedSchema), `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`) {
				t.Errorf("untouched: host was asked %q %v %v", asked.Message, asked.Meta.AdditionalFields, mustString(asked.RequestedSchema))
			}
			if got["action"] != "accept" || !jsonEqual(t, mustString(got["content"]), `{"name":"Ada"}`) {
				t.Errorf("untouched: upstream got %v", got)
			}
		},
	},
	// Last: on a 2026-07-28 host over HTTP the abandoned call stays in flight (until the input
	// timeout), and a legacy stdio upstream's later elicitations could no longer be tied to
	// one session.
	{
		name:         "ask the host fails on is cancel",
		modernAborts: true,
		meta:         approvalMeta("deploy", map[string]any{"env": "prod"}),
		answer: func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) {
			return nil, errors.New("the user closed the dialog")
		},
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			if asked == nil || got["action"] != "cancel" || len(got) != 1 {
				t.Errorf("host failure: upstream got %v, want exactly {\"action\":\"cancel\"}", got)
			}
		},
	},
}

// malformed is an approval request with one thing wrong: the host is asked with guardian's
// note and its answer (accept) is returned — guardian itself never accepts it.
func malformed(name string, change map[string]any, why string) elicitCase {
	meta := approvalMeta("read_file", map[string]any{"path": "README.md"})
	for k, v := range change {
		if v == nil {
			delete(meta, k)
		} else {
			meta[k] = v
		}
	}
	return elicitCase{
		name:   "malformed: " + name,
		meta:   meta,
		answer: answerWith(mcpgo.ElicitationResponseActionDecline, nil),
		check: func(t *testing.T, got map[string]any, asked *mcpgo.ElicitationParams) {
			if asked == nil {
				t.Fatal("malformed: the host was not asked")
			}
			wantNote := "\n\nguardian: could not review this approval request: " + why
			if !strings.HasPrefix(asked.Message, askMessage+wantNote) {
				t.Errorf("malformed: host message = %q, want the note %q", asked.Message, wantNote)
			}
			if got["action"] != "decline" || metaOf(got)["guardian/decision"] != nil {
				t.Errorf("malformed: upstream got %v, want the host's decline", got)
			}
		},
	}
}

func mustString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestElicitationReview runs every elicitation case through every upstream kind, both
// downstream transports and both host protocol eras.
func TestElicitationReview(t *testing.T) {
	for _, uk := range upstreamKinds {
		for _, dk := range downstreamKinds {
			for _, era := range eras {
				t.Run(uk.name+"/"+dk.name+"/"+era.name, func(t *testing.T) {
					p, audit := newProxy(t, uk.spec(t, "fx"))
					h := &host{}
					c := dk.connect(t, p, hostOpts(era.opts, h)...)
					if got := c.ProtocolVersion(); mcpgo.IsModernProtocol(got) != era.modern {
						t.Fatalf("host negotiated %s", got)
					}
					if got := p.ups[0].client.ProtocolVersion(); mcpgo.IsModernProtocol(got) != strings.HasSuffix(uk.name, "modern") {
						t.Fatalf("upstream negotiated %s", got)
					}
					for _, tc := range elicitCases {
						t.Run(tc.name, func(t *testing.T) {
							h.expect(tc.answer)
							args := map[string]any{"message": askMessage, "meta": tc.meta}
							if tc.schema != nil {
								args["schema"] = tc.schema
							}
							if tc.modernAborts && era.modern {
								if _, err := c.CallTool(context.Background(), toolRequest("elicit", args)); err == nil {
									t.Fatal("the host's failure did not fail its call")
								}
								return
							}
							got := upstreamSaw(t, callTool(t, c, "elicit", args))
							var asked *mcpgo.ElicitationParams
							if q := h.questions(); len(q) == 1 {
								asked = &q[0]
							} else if len(q) > 1 {
								t.Fatalf("the host was asked %d times", len(q))
							}
							tc.check(t, got, asked)
						})
					}
					// Every reviewed approval request is in the audit log, with the host and its
					// session as the caller.
					entries := audit.all()
					if len(entries) != 5 {
						t.Fatalf("audit has %d entries, want the 5 reviewed requests", len(entries))
					}
					for _, e := range entries {
						// Stateless HTTP on 2026-07-28 has no session.
						sessionless := era.modern && dk.name == "http"
						if e.Caller.Host != "test-host" || (e.Caller.Session == "") != sessionless || e.Request.Kind != riskmodel.KindMCP || e.Request.MCP.Server != "fx" {
							t.Errorf("audit entry: caller %+v, request %+v", e.Caller, e.Request.MCP)
						}
					}
				})
			}
		}
	}
}

// eras are the host protocol eras.
var eras = []struct {
	name   string
	opts   []client.ClientOption
	modern bool
}{{"2025-11-25", legacyHost, false}, {"2026-07-28", modernHost, true}}

// TestElicitationHostCannotBeAsked: a host without the elicitation capability is never sent
// one; what guardian would have asked it about is cancelled, what it decides stands.
func TestElicitationHostCannotBeAsked(t *testing.T) {
	p, _ := newProxy(t, stdioUpstream("fx", "tools -legacy"))
	c := connectStdio(t, p, legacyHost...)
	for _, tc := range []struct {
		meta map[string]any
		want string
	}{
		{approvalMeta("deploy", map[string]any{"env": "prod"}), "cancel"},
		{map[string]any{"example.com/x": 1}, "cancel"},
		{approvalMeta("read_file", map[string]any{"path": "README.md"}), "accept"},
		{approvalMeta("delete_repo", map[string]any{"repo": "acme/app"}), "decline"},
	} {
		got := upstreamSaw(t, callTool(t, c, "elicit", map[string]any{"message": askMessage, "meta": tc.meta}))
		if got["action"] != tc.want {
			t.Errorf("%v: upstream got %v, want %s", tc.meta["tool_name"], got, tc.want)
		}
	}
}

// TestApprovalConnectorIsTheServer: the reviewed MCP request names the connector when the
// _meta gives one.
func TestApprovalConnectorIsTheServer(t *testing.T) {
	p, audit := newProxy(t, stdioUpstream("fx", "tools"))
	c := connectStdio(t, p, legacyHost...)
	meta := approvalMeta("read_file", map[string]any{"path": "README.md"})
	meta["connector_id"] = "conn-1"
	meta["connector_name"] = "GitHub"
	callTool(t, c, "elicit", map[string]any{"message": askMessage, "meta": meta})
	e := audit.all()
	if len(e) != 1 || e[0].Request.MCP.Server != "GitHub" || e[0].Request.MCP.Tool != "read_file" || e[0].Request.MCP.Message != askMessage {
		t.Fatalf("audit = %+v", e)
	}
}
