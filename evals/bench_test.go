package evals

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// devCopies returns n cases made by cycling through dev.jsonl, each copy with its own id and
// a justification that differs per copy, so no two requests are identical.
func devCopies(b *testing.B, n int) []Case {
	b.Helper()
	dev, err := ReadFile("testdata/dev.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	out := make([]Case, n)
	for i := range out {
		c := dev[i%len(dev)]
		copyNo := i / len(dev)
		c.ID = fmt.Sprintf("%s-copy%d", c.ID, copyNo)
		if c.Request.Exec != nil {
			e := *c.Request.Exec
			e.Justification = fmt.Sprintf("%s (copy %d)", e.Justification, copyNo)
			c.Request = guardian.ExecRequest(e)
		} else {
			m := *c.Request.MCP
			m.Message = fmt.Sprintf("%s (copy %d)", m.Message, copyNo)
			c.Request = guardian.MCPRequest(m)
		}
		out[i] = c
	}
	return out
}

// BenchmarkEvalRules10k grades 10,000 cases (dev.jsonl repeated and varied) with the rule
// reviewer at the CLI's default concurrency, report included. Target: under 5 s per op on the
// 2-core machine.
//
//	go test -run '^$' -bench EvalRules10k -benchtime 3x ./evals
func BenchmarkEvalRules10k(b *testing.B) {
	cases := devCopies(b, 10000)
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	p := guardian.New(an)
	r, err := NewRunner(p, WithConcurrency(8))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		runs, err := r.Run(context.Background(), cases)
		if err != nil {
			b.Fatal(err)
		}
		rep := NewReport(RunInfo{Reviewer: "rules", Concurrency: 8, Repeat: 1}, runs)
		if rep.Metrics.Reviews != len(cases) {
			b.Fatalf("graded %d reviews, want %d", rep.Metrics.Reviews, len(cases))
		}
	}
	b.ReportMetric(float64(len(cases))*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}

// BenchmarkEvalFakeModel1k grades 1,000 cases that the rules leave open, so each goes to a fake
// model (httptest, OpenAI wire format) that answers after 200 ms, with 32 reviews in flight.
// The floor is 1000/32 × 200 ms ≈ 6.3 s; target: under 10 s per op.
//
//	go test -run '^$' -bench EvalFakeModel1k -benchtime 1x ./evals
func BenchmarkEvalFakeModel1k(b *testing.B) {
	fake := newFakeModel(b, 200*time.Millisecond)
	var names []string
	for i := range 1000 {
		names = append(names, fmt.Sprintf("tool%04d", i))
	}
	cases := unknownCases(names...)
	p := modelPipeline(b, fake.srv.URL, nil)
	r, err := NewRunner(p, WithConcurrency(32))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		runs, err := r.Run(context.Background(), cases)
		if err != nil {
			b.Fatal(err)
		}
		rep := NewReport(RunInfo{Reviewer: "full", Model: "fake-model", Concurrency: 32, Repeat: 1}, runs)
		if rep.Metrics.Statuses.OK != len(cases) {
			b.Fatalf("statuses %+v: want every review answered by the model", rep.Metrics.Statuses)
		}
	}
	b.ReportMetric(float64(len(cases))*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}
