package client

import (
	"context"
	"time"

	"github.com/guardianhq/guardian/guardian/model"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// CheckResult is what `guardian model check` reports about the configured endpoint.
type CheckResult struct {
	// Model and BaseURL name the endpoint checked.
	Model   string
	BaseURL string
	// Latency is the wall time of the check review, retries and fallback included.
	Latency time.Duration
	// StructuredOutput is true when the server accepted response_format json_schema; false
	// when guardian had to fall back to json_object (it then remembers that for this Reviewer).
	StructuredOutput bool
	// Format is the response format that produced the answer.
	Format ResponseFormat
	// Attempts counts the HTTP requests sent.
	Attempts int
	// Verdict is the model's parsed answer (zero on failure).
	Verdict model.Verdict
	// Usage is the token usage the server reported.
	Usage Usage
	// DecidedBy is the decided_by a real review would carry.
	DecidedBy string
}

// Check sends one small exec review (`git status` in a workspace) to the endpoint and reports
// latency, whether structured output (json_schema) works, and the verdict, so that an operator
// can test a configuration before relying on it. It always tries json_schema first, even when
// this Reviewer already fell back, so the answer reflects the server today. The error is the
// review's *guardian.ReviewError; the result still carries latency and attempts then.
func (r *Reviewer) Check(ctx context.Context) (CheckResult, error) {
	exec := riskmodel.ExecRequest{
		Command:       []string{"git", "status"},
		Cwd:           "/home/dev/project",
		Justification: "guardian model check: show the working tree status",
		SandboxReason: "guardian model check",
	}
	in := prompts.Input{Kind: riskmodel.KindExec, Exec: &exec, Rules: riskmodel.Verdict{Decision: riskmodel.Ask}, Policy: r.policy}
	det, err := r.review(ctx, in, true)
	res := CheckResult{
		Model: r.cfg.Model, BaseURL: r.cfg.BaseURL, Latency: det.Duration, Format: det.Format,
		StructuredOutput: err == nil && det.Format == FormatJSONSchema,
		Attempts:         det.Attempts, Verdict: det.Verdict, Usage: det.Usage, DecidedBy: det.Review.DecidedBy,
	}
	return res, err
}
