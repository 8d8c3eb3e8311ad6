package riskmodel

import (
	"context"
	"strings"
	"testing"
)

// TestRuleExamples runs every built-in rule's own examples: each must-match example produces
// a finding with the rule's id and each must-not-match example does not.
func TestRuleExamples(t *testing.T) {
	fails, n := TestRules(context.Background())
	if n == 0 {
		t.Fatal("no rule examples ran")
	}
	for _, f := range fails {
		if strings.HasPrefix(f.RuleID, "mcp.") {
			continue // covered by TestMCPRuleExamples
		}
		t.Error(f)
	}
}
