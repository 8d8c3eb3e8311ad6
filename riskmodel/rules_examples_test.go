package riskmodel

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
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

// The examples loader refuses what would silently drop examples: unknown keys, tables
// without an id, and one rule's examples split over two tables.
func TestParseExamples(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // substring of the error; "" for none
	}{
		{"valid", map[string]string{"examples/a.toml": "[[rule]]\nid = 'x'\nmatch = ['ls']\nno_match = ['rm']\n"}, ""},
		{"unknown key", map[string]string{"examples/a.toml": "[[rule]]\nid = 'x'\nmatches = ['ls']\n"}, "riskmodel/examples/a.toml:3:1"},
		{"no id", map[string]string{"examples/a.toml": "[[rule]]\nmatch = ['ls']\n"}, "without an id"},
		{"duplicate", map[string]string{"examples/a.toml": "[[rule]]\nid = 'x'\n", "examples/b.toml": "[[rule]]\nid = 'x'\n"},
			"riskmodel/examples/b.toml: examples for x are also in riskmodel/examples/a.toml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, body := range tc.files {
				fsys[n] = &fstest.MapFile{Data: []byte(body)}
			}
			got, err := parseExamples(fsys)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			case tc.want == "" && len(got["x"].Match) != 1:
				t.Fatalf("examples not loaded: %+v", got)
			}
		})
	}
}

// Every rule that can match under the default policy has examples in a file of its own
// family, and the report names that file.
func TestRuleExamplesReport(t *testing.T) {
	reps := TestRulesReport(context.Background())
	if len(reps) == 0 {
		t.Fatal("empty report")
	}
	a, _ := New(Policy{})
	byID := map[string]Rule{}
	for _, r := range a.Rules() {
		byID[r.ID] = r
	}
	for _, rep := range reps {
		r, ok := byID[rep.RuleID]
		if !ok {
			t.Errorf("report for unknown rule %s: %v", rep.RuleID, rep.Failures)
			continue
		}
		if !r.PolicyOnly && (rep.File == "" || rep.Match == 0 || rep.NoMatch == 0) {
			t.Errorf("%s: file %q, %d match, %d no_match", rep.RuleID, rep.File, rep.Match, rep.NoMatch)
		}
		if rep.File != r.ExamplesFile {
			t.Errorf("%s: report says %s, Rules says %s", rep.RuleID, rep.File, r.ExamplesFile)
		}
	}
}
