package mcp

import (
	"context"
	"slices"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/guardianhq/guardian/mcp/fixture"
)

// TestListsKeepUpstreamOrder: tools and prompts reach the host in the order the upstreams
// list them (upstream by upstream), not sorted by name.
func TestListsKeepUpstreamOrder(t *testing.T) {
	wantTools := []string{"echo", "elicit", "deploy", "delete_repo", "progress", "wait_for_cancel", "wait_cancelled", "add_tool", "schema", "client_capabilities"}
	wantPrompts := []string{"greet", "explain"}
	prefixed := func(p string, names []string) []string {
		var out []string
		for _, n := range names {
			out = append(out, p+n)
		}
		return out
	}
	for _, tt := range []struct {
		name         string
		specs        []Upstream
		tools, promp []string
	}{
		{"one upstream", []Upstream{stdioUpstream("fx", fixture.KindTools)}, wantTools, wantPrompts},
		// "zeta" comes first in the config, so its tools come first.
		{"two upstreams", []Upstream{stdioUpstream("zeta", fixture.KindTools), stdioUpstream("alpha", fixture.KindTools)},
			append(prefixed("zeta__", wantTools), prefixed("alpha__", wantTools)...),
			append(prefixed("zeta__", wantPrompts), prefixed("alpha__", wantPrompts)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := newProxy(t, tt.specs...)
			c := connectStdio(t, p, legacyHost...)
			tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tl := range tools.Tools {
				got = append(got, tl.Name)
			}
			if !slices.Equal(got, tt.tools) {
				t.Errorf("tools/list: %q\nwant %q", got, tt.tools)
			}
			prompts, err := c.ListPrompts(context.Background(), mcpgo.ListPromptsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			got = nil
			for _, pr := range prompts.Prompts {
				got = append(got, pr.Name)
			}
			if !slices.Equal(got, tt.promp) {
				t.Errorf("prompts/list: %q\nwant %q", got, tt.promp)
			}
		})
	}
}
