package mcp

import (
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/mcp/fixture"
	"github.com/guardianhq/guardian/riskmodel"
)

// codexUpstream is the stand-in for codex mcp-server, as a subprocess.
func codexUpstream(name string) Upstream { return stdioUpstream(name, fixture.KindCodex) }

// TestExecApproval: Codex's exec-approval elicitations are reviewed as shell commands and
// answered in Codex's own shape, checked here as the raw JSON-RPC result the upstream read.
func TestExecApproval(t *testing.T) {
	cases := []struct {
		name    string
		command []string
		answer  func(mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error)
		want    string // the raw result
		asked   bool
	}{
		{"allow", []string{"git", "status"}, nil, `{"decision":"approved"}`, false},
		{"deny", []string{"rm", "-rf", "/"}, nil, `{"decision":"denied"}`, false},
		{"ask, host accepts", []string{"git", "push", "upstream", "feature"}, answerWith(mcpgo.ElicitationResponseActionAccept, nil), `{"decision":"approved"}`, true},
		{"ask, host declines", []string{"git", "push", "upstream", "feature"}, answerWith(mcpgo.ElicitationResponseActionDecline, nil), `{"decision":"denied"}`, true},
		{"ask, host cancels", []string{"git", "push", "upstream", "feature"}, answerWith(mcpgo.ElicitationResponseActionCancel, nil), `{"decision":"abort"}`, true},
	}
	for _, dk := range downstreamKinds {
		for _, era := range eras {
			t.Run(dk.name+"/"+era.name, func(t *testing.T) {
				p, audit := newProxy(t, codexUpstream("codex"))
				h := &host{}
				c := dk.connect(t, p, hostOpts(era.opts, h)...)
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						h.expect(tc.answer)
						res := callTool(t, c, fixture.CodexTool, map[string]any{"command": tc.command, "cwd": "/tmp/work"})
						if got := text(t, res); got != tc.want {
							t.Errorf("Codex read %s, want %s", got, tc.want)
						}
						q := h.questions()
						if (len(q) == 1) != tc.asked || len(q) > 1 {
							t.Fatalf("host asked %d times, want asked=%v", len(q), tc.asked)
						}
						if !tc.asked {
							return
						}
						msg := q[0].Message
						if !strings.HasPrefix(msg, "Allow Codex to run `git push upstream feature` in `/tmp/work`?\n\nguardian: ") || !strings.Contains(msg, "[risk: medium") {
							t.Errorf("host message = %q", msg)
						}
						// Every codex_* param travels: at the top level to a stdio host before
						// 2026-07-28 (TestExecApprovalRawStdioHost reads them there; mcp-go's
						// typed client drops them), in the _meta elsewhere (see docs/mcp.md).
						f := q[0].Meta.AdditionalFields
						if _, ok := f["guardian/assessment"]; !ok {
							t.Errorf("host _meta lacks guardian/assessment: %v", f)
						}
						inMeta := !(dk.name == "stdio" && !era.modern)
						for _, k := range []string{"codex_elicitation", "codex_command", "codex_cwd", "codex_call_id", "codex_event_id", "codex_mcp_tool_call_id", "codex_parsed_cmd", "threadId"} {
							if _, ok := f[k]; ok != inMeta {
								t.Errorf("host _meta has %s: %v, want %v", k, ok, inMeta)
							}
						}
						if _, ok := f[rawRefKey]; ok {
							t.Errorf("the host saw %s", rawRefKey)
						}
					})
				}
				entries := audit.all()
				if len(entries) != len(cases) {
					t.Fatalf("audit has %d entries, want %d", len(entries), len(cases))
				}
				for _, e := range entries {
					if e.Request.Kind != riskmodel.KindExec || e.Request.Exec.Cwd != "/tmp/work" || e.Caller.Host != "test-host" {
						t.Errorf("audit entry %+v %+v", e.Caller, e.Request.Exec)
					}
				}
			})
		}
	}
}

// TestExecApprovalHostCannotBeAsked: an exec approval guardian would ask about is aborted when
// the host declared no elicitation capability.
func TestExecApprovalHostCannotBeAsked(t *testing.T) {
	p, _ := newProxy(t, codexUpstream("codex"))
	c := connectStdio(t, p, legacyHost...)
	res := callTool(t, c, fixture.CodexTool, map[string]any{"command": []string{"git", "push", "upstream", "feature"}, "cwd": "/tmp/work"})
	if got := text(t, res); got != `{"decision":"abort"}` {
		t.Fatalf("Codex read %s", got)
	}
}
