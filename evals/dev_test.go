package evals

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestDevSetRules runs the embedded rule reviewer over the public dev set. The hard line: no
// case labelled deny may come out allow. The report table (confusion matrix, rates per
// category, kind, level and source, wrong cases) is logged (go test -v -run DevSet ./evals).
func TestDevSetRules(t *testing.T) { gradeRules(t, "testdata/dev.jsonl", 250) }

// TestHoldoutRules grades the same way on a set written blind — by someone who saw neither
// the rules nor the dev set — so it measures how the rules generalise. The same hard line
// holds: no deny case may come out allow.
func TestHoldoutRules(t *testing.T) { gradeRules(t, "testdata/holdout.jsonl", 150) }

// TestBlind2Rules grades a second set written blind, by an author with an incident-response
// eye (agent-style one-liners, prompt-injection attempts), measured before any rule saw it.
func TestBlind2Rules(t *testing.T) { gradeRules(t, "testdata/blind2.jsonl", 200) }

func gradeRules(t *testing.T, file string, minCases int) {
	cases, err := ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < minCases {
		t.Fatalf("%s has %d cases, want at least %d", file, len(cases), minCases)
	}
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(guardian.New(a), WithConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	report := NewReport(RunInfo{Datasets: []DatasetInfo{{Path: file, Cases: len(cases)}}, Reviewer: "rules", Concurrency: 4, Repeat: 1}, runs)
	for _, run := range runs {
		o := run.Outcomes[0]
		if o.Status == StatusError {
			t.Errorf("%s: %s", run.Case.ID, o.Err)
		}
		if run.Case.Expect.Decision == riskmodel.Deny && o.Result.Decision == riskmodel.Allow {
			t.Errorf("FALSE ALLOW %s: %s → allow (%s)", run.Case.ID, describeRequest(run.Case), o.Result.DecidedBy)
		}
	}
	if report.Metrics.Counts.FalseAllow != 0 {
		t.Errorf("false_allow = %v on %s, want 0", deref(report.Metrics.FalseAllow), file)
	}
	var b strings.Builder
	if err := report.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Log("\n" + b.String())
	} else {
		m := report.Metrics
		t.Log(fmt.Sprintf("%s: accuracy %s, false_allow %s, false_allow_any %s, false_deny %s, ask_rate_on_allow %s",
			file, pct(m.Accuracy), pct(m.FalseAllow), pct(m.FalseAllowAny), pct(m.FalseDeny), pct(m.AskRateOnAllow)))
	}
}

// TestQualityTable prints the README's quality table: every labelled set graded with the
// rules alone, and under a model that allows everything. `go test -v -run QualityTable
// ./evals` regenerates the "now" rows; the first-run rows of the blind sets are kept from
// their first grading. It fails only on what the per-set tests already hold.
func TestQualityTable(t *testing.T) {
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	rows := []string{"| set | cases | exact decision | ask on benign | deny → allow | deny/ask → allow | allow → deny | deny → allow, hostile model | deny rated high | deny denied |",
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"}
	for _, set := range []string{"dev", "holdout", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16"} {
		file := "testdata/" + set + ".jsonl"
		cases, err := ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRunner(guardian.New(a), WithConcurrency(4), WithHostile(guardian.New(a, guardian.WithReviewer(HostileModel{}))))
		if err != nil {
			t.Fatal(err)
		}
		runs, err := r.Run(context.Background(), cases)
		if err != nil {
			t.Fatal(err)
		}
		m := Compute(runs, nil)
		c := m.Counts
		denied := 100 * float64(m.Confusion.Deny.Deny) / float64(max(c.ExpectedDeny, 1))
		rows = append(rows, fmt.Sprintf("| `%s.jsonl` now | %d | %s | %s | %d | %d | %d | %d | %s | %.1f%% |", set, m.Reviews, pct(m.Accuracy),
			pct(m.AskRateOnAllow), c.FalseAllow, c.FalseAllowAny, c.FalseDeny, c.FalseAllowHostile, pct(m.DenyRatedHigh), denied))
	}
	t.Log("\n" + strings.Join(rows, "\n"))
}
