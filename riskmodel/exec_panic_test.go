package riskmodel

import (
	"context"
	"strings"
	"testing"
)

// TestRulePanicBecomesFinding checks that a check that panics yields a high finding for its
// rule and that the rules after it still run, for risk rules and for baseline rules (where
// the failure counts as the first match).
func TestRulePanicBecomesFinding(t *testing.T) {
	hit := func(id string, base bool) *Rule {
		return &Rule{ID: id, Kind: KindExec, Level: Medium, Baseline: base, Message: id,
			exec: func(c *execCtx, s *Segment) (string, bool) { return "", true }}
	}
	boom := func(id string, base bool) *Rule {
		return &Rule{ID: id, Kind: KindExec, Level: Low, Baseline: base, Message: id,
			exec: func(c *execCtx, s *Segment) (string, bool) { panic("boom") }}
	}
	miss := &Rule{ID: "miss", Kind: KindExec, Level: Low, exec: func(c *execCtx, s *Segment) (string, bool) { return "", false }}
	for _, tc := range []struct {
		name  string
		rules []*Rule
		want  []string // rule IDs of the findings, in order
	}{
		{"risk rules go on", []*Rule{boom("p1", false), hit("a", false), boom("p2", false), miss, hit("b", false)}, []string{"p1", "a", "p2", "b"}},
		{"panic last", []*Rule{hit("a", false), boom("p1", false)}, []string{"a", "p1"}},
		{"baseline stops at a panic", []*Rule{miss, boom("p1", true), hit("base", true)}, []string{"p1"}},
		{"baseline after a risk panic is skipped", []*Rule{boom("p1", false), hit("base", true)}, []string{"p1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAnalyzer(Policy{}, tc.rules)
			v := a.Exec(context.Background(), ExecRequest{Command: []string{"true"}, Cwd: "/home/dev/project"})
			var got []string
			for _, f := range v.Assessment.Findings {
				got = append(got, f.RuleID)
				if strings.HasPrefix(f.RuleID, "p") && (f.Level != High || !strings.Contains(f.Message, "failed on this command")) {
					t.Errorf("finding %+v: want a high 'failed on this command' finding", f)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
		})
	}
}
