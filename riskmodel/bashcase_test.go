package riskmodel

import (
	"context"
	"slices"
	"testing"
)

// bashCase is a `bash -c` line with the decision docs/policy.md gives it, the level when it
// matters (0: not checked; a high ask is the floor under a model), a rule that must be among
// the findings ("": none required), and why — the source or reason, quoted when it fails.
type bashCase struct {
	src      string
	decision Decision
	level    Level
	rule     string
	why      string
}

// runBashCases runs each case in the project directory cwd with the built-in rules.
func runBashCases(t *testing.T, cwd string, cases []bashCase) {
	t.Helper()
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", tc.src}, Cwd: cwd})
			ids := ruleIDs(v)
			if v.Decision != tc.decision {
				t.Errorf("decision = %s at %s (rules %v), want %s (%s)", v.Decision, v.Assessment.Level, ids, tc.decision, tc.why)
			}
			if tc.level != 0 && v.Assessment.Level != tc.level {
				t.Errorf("level = %s (rules %v), want %s (%s)", v.Assessment.Level, ids, tc.level, tc.why)
			}
			if tc.rule != "" && !slices.Contains(ids, tc.rule) {
				t.Errorf("rules = %v, want %s among them (%s)", ids, tc.rule, tc.why)
			}
		})
	}
}
