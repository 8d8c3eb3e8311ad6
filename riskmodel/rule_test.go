package riskmodel

import (
	"slices"
	"testing"
)

// TestMCPFamiliesHoldOnlyMCPRules checks what lets an analyzer build the MCP-only families on
// its first MCP review: none of them holds an exec rule (an exec review would miss it), and
// the rule set built in two steps is the one built at once, in the same order.
func TestMCPFamiliesHoldOnlyMCPRules(t *testing.T) {
	var want []string
	for _, f := range ruleFamilies() {
		for _, r := range f.build() {
			if f.mcp && r.Kind != KindMCP {
				t.Errorf("rule %s (kind %q) is in an MCP-only family", r.ID, r.Kind)
			}
			want = append(want, r.ID)
		}
	}
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range a.Rules() {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules in two steps %v, at once %v", got, want)
	}
}
