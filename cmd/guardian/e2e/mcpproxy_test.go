package e2e

import (
	"strings"
	"testing"

	"github.com/guardianhq/guardian/riskmodel"
)

// TestMCPProxyElicitation puts guardian mcp-proxy between each real host and an MCP server
// whose tools ask a Codex-style approval elicitation before they act. No hook is installed
// and the host lets the call through, so the proxy alone decides, without asking the host:
// touch_marker (an empty file in a temporary directory) is accepted and its marker appears;
// wipe_marker (a recursive delete of /) is declined and its marker does not. Each decision
// is in the audit log.
func TestMCPProxyElicitation(t *testing.T) {
	s := need(t)
	tests := []struct {
		tool       string
		decision   riskmodel.Decision
		wantMarker bool
		answer     string // the elicitation answer the server reports back to the model
	}{
		{"touch_marker", riskmodel.Allow, true, `"action":"accept"`},
		{"wipe_marker", riskmodel.Deny, false, `"action":"decline"`},
	}
	for _, h := range hostsOf(s) {
		for _, tc := range tests {
			t.Run(h.Name()+"/"+tc.tool, func(t *testing.T) {
				w := preparedWorld(t, h)
				var args []string
				if h.Name() == "codex" {
					// Codex's own approval of the MCP call would otherwise go to its
					// reviewer (the fake, which denies) before the server is reached.
					args = []string{"-c", `mcp_servers.e2e.default_tools_approval_mode="approve"`}
				}
				r := h.Run(t, w, h.MCPCall("e2e", tc.tool, map[string]any{"path": w.mark(tc.tool)}),
					runOpts{Permissive: true, MCP: []mcpServer{s.proxiedServer("e2e")}, Args: args})
				t.Logf("%s %s: marker %v in %s; the model was told: %s", h.Name(), tc.tool, w.marked(tc.tool), r.took, abbrev(r.Result.Text, 300))
				if w.marked(tc.tool) != tc.wantMarker {
					t.Fatalf("marker exists = %v, want %v\n%s", w.marked(tc.tool), tc.wantMarker, r.describe())
				}
				if !strings.Contains(r.Result.Text, tc.answer) || !strings.Contains(r.Result.Text, "guardian") {
					t.Errorf("the tool result does not show guardian's answer %s:\n%s", tc.answer, r.describe())
				}
				recs := w.audited(t)
				if len(recs) != 1 || recs[0].Kind != riskmodel.KindMCP || recs[0].Decision != tc.decision ||
					!strings.Contains(string(recs[0].Request), `"tool":"`+tc.tool+`"`) {
					t.Fatalf("want one audit record: %s of the MCP request %s; got %+v", tc.decision, tc.tool, recs)
				}
			})
		}
	}
}
