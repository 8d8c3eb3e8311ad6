package riskmodel

import (
	"context"
	"fmt"
)

// Analyzer is the embedded rule reviewer. It is safe for concurrent use: after New it holds
// only read-only state.
type Analyzer struct {
	policy Policy
	// rules returns every rule in evaluation order; the MCP-only families are built on its
	// first call (builtinSet).
	rules func() []*Rule
	// execRules and baseRules are the exec rules of rules, risk rules and baseline rules,
	// split once here rather than for every segment.
	execRules, baseRules []*Rule
	// noFlow turns the data-flow analysis off (flow.go), for tests that check it only ever
	// adds findings.
	noFlow bool
}

// New validates the policy and returns an analyzer with every built-in rule loaded.
func New(p Policy) (*Analyzer, error) {
	for k, m := range p.Mapping {
		if err := m.Validate(); err != nil {
			return nil, fmt.Errorf("policy mapping for %s: %w", k, err)
		}
	}
	for i, r := range p.Rules {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("policy rule %d (%s): %w", i+1, r.ID, err)
		}
	}
	b := newBuiltinSet()
	return newAnalyzerOf(p, b.early(), b.all), nil
}

func newAnalyzer(p Policy, rules []*Rule) *Analyzer {
	return newAnalyzerOf(p, rules, func() []*Rule { return rules })
}

// newAnalyzerOf returns an analyzer whose exec rules are those of early and whose rules are
// all's.
func newAnalyzerOf(p Policy, early []*Rule, all func() []*Rule) *Analyzer {
	a := &Analyzer{policy: p, rules: all}
	for _, r := range early {
		switch {
		case r.Kind != KindExec:
		case r.Baseline:
			a.baseRules = append(a.baseRules, r)
		default:
			a.execRules = append(a.execRules, r)
		}
	}
	return a
}

// Policy returns the policy the analyzer was built with.
func (a *Analyzer) Policy() Policy { return a.policy }

// Exec assesses a shell command request.
func (a *Analyzer) Exec(ctx context.Context, req ExecRequest) Verdict {
	return a.execVerdict(ctx, req)
}

// MCP assesses an MCP tool call request.
func (a *Analyzer) MCP(ctx context.Context, req MCPRequest) Verdict {
	return a.mcpVerdict(ctx, req)
}
