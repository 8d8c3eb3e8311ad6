package evals

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// Shorthands for hand-made test sets.
const (
	allow = riskmodel.Allow
	ask   = riskmodel.Ask
	deny  = riskmodel.Deny

	low      = riskmodel.Low
	medium   = riskmodel.Medium
	high     = riskmodel.High
	critical = riskmodel.Critical
)

// label is a case's expected decision, level and category.
type label struct {
	d riskmodel.Decision
	l riskmodel.Level
	c riskmodel.Category
}

// mkCase builds an exec case (kind exec unless id starts with "mcp") with the given label.
func mkCase(id, source string, want label) Case {
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"echo", id}, Cwd: "/home/dev/project"})
	kind := riskmodel.KindExec
	if len(id) >= 3 && id[:3] == "mcp" {
		req = guardian.MCPRequest(riskmodel.MCPRequest{Server: "srv", Tool: id})
		kind = riskmodel.KindMCP
	}
	return Case{ID: id, Kind: kind, Request: req, Source: source, Expect: Expect{Decision: want.d, Level: want.l, Category: want.c}}
}

// got is one outcome: the decision, level and category received, status rule, 1 ms.
func got(d riskmodel.Decision, l riskmodel.Level, c riskmodel.Category) Outcome {
	return Outcome{
		Result: guardian.Result{Decision: d, Status: guardian.StatusRule, DecidedBy: "rules",
			Assessment: riskmodel.Assessment{Level: l, Category: c, Summary: "summary of " + string(c), Rationale: "because"}},
		Status: guardian.StatusRule, Latency: time.Millisecond,
	}
}

// errored is an outcome whose review failed with an error.
func errored() Outcome { return Outcome{Status: StatusError, Err: "boom", Latency: time.Millisecond} }

// run pairs a case with its outcomes.
func run(c Case, os ...Outcome) CaseRun { return CaseRun{Case: c, Outcomes: os} }

// f64 is a pointer to v, for expected rates.
func f64(v float64) *float64 { return &v }

// checkGolden compares got with testdata/golden/name, rewriting it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./evals -run %s -update to create it)", err, t.Name())
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs from the golden file (-want +got); if the change is intended, run with -update:\n%s", name, d)
	}
}
