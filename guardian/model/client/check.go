package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model"
	"github.com/guardianhq/guardian/prompts"
	"github.com/guardianhq/guardian/riskmodel"
)

// CheckResult is what `guardian model check` reports about the configured endpoint.
type CheckResult struct {
	// Model and BaseURL name the endpoint checked.
	Model   string
	BaseURL string
	// Latency is the wall time of the check review, retries and adaptations included.
	Latency time.Duration
	// StructuredOutput is true when the server accepted response_format json_schema.
	StructuredOutput bool
	// Format is the response format that produced the answer (or was last tried).
	Format ResponseFormat
	// Attempts counts the HTTP requests sent.
	Attempts int
	// Profile is what guardian settled on for this endpoint; Changes what it had to change
	// from the model family's starting point during the check, and why.
	Profile Profile
	Changes []Change
	// Verdict is the model's parsed answer (zero on failure); Reasoning the reasoning set
	// aside before it, redacted and capped.
	Verdict   model.Verdict
	Reasoning string
	// FinishReason is the answer's finish reason.
	FinishReason string
	// Usage is the token usage the server reported.
	Usage Usage
	// DecidedBy is the decided_by a real review would carry.
	DecidedBy string
	// Fix is the config change that would most likely make a failed check pass; empty when
	// the check passed or no config change can help.
	Fix Advice
}

// Advice is one change to make to the config, and why.
type Advice struct {
	// Line is the TOML line to set, in Table ("[model]" or "[review]").
	Table string
	Line  string
	// Why says what the check saw.
	Why string
}

// Check sends one small exec review (`git status` in a workspace) to the endpoint and reports
// latency, the profile the reviewer settled on (structured output, sampling parameters, token
// field and budget, reasoning controls) and the verdict, so that an operator can test a
// configuration before relying on it. deadline is the review deadline the operator's config
// sets, for the advice on a slow model. The error is the review's *guardian.ReviewError; the
// result still carries latency, attempts, the profile and the advice then.
func (r *Reviewer) Check(ctx context.Context, deadline time.Duration) (CheckResult, error) {
	exec := riskmodel.ExecRequest{
		Command:       []string{"git", "status"},
		Cwd:           "/home/dev/project",
		Justification: "guardian model check: show the working tree status",
		SandboxReason: "guardian model check",
	}
	in := prompts.Input{Kind: riskmodel.KindExec, Exec: &exec, Rules: riskmodel.Verdict{Decision: riskmodel.Ask}, Policy: r.policy}
	det, err := r.review(ctx, in)
	res := CheckResult{
		Model: r.cfg.Model, BaseURL: r.cfg.BaseURL, Latency: det.Duration, Format: det.Format,
		StructuredOutput: err == nil && det.Format == FormatJSONSchema,
		Attempts:         det.Attempts, Profile: r.Profile(), Changes: det.Changes,
		Verdict: det.Verdict, Reasoning: det.Reasoning, FinishReason: det.FinishReason,
		Usage: det.Usage, DecidedBy: det.Review.DecidedBy,
	}
	if err != nil {
		res.Fix = advise(err, r.cfg, res.Profile)
	} else if deadline > 0 && det.Duration > deadline*3/4 {
		res.Fix = Advice{Table: "[review]", Line: fmt.Sprintf("deadline = %q", suggestDeadline(det.Duration).String()),
			Why: fmt.Sprintf("this review took %s, close to or over the %s review deadline; keep the deadline below your host's hook timeout", det.Duration.Round(time.Millisecond), deadline)}
	}
	return res, err
}

// advise maps a failed check to the config line most likely to fix it.
func advise(err error, cfg Config, p Profile) Advice {
	var cut *CutOffError
	var re *guardian.ReviewError
	errors.As(err, &re)
	switch {
	case errors.As(err, &cut):
		return Advice{Table: "[model]", Line: fmt.Sprintf("max_tokens = %d", SuggestedBudget(cut.Budget)),
			Why: "the answer was cut off at the token budget; a reasoning model spends it thinking before it answers"}
	case re != nil && re.Status == guardian.StatusTimeout:
		return Advice{Table: "[review]", Line: `deadline = "20s"`,
			Why: "the model did not answer within the review deadline; a local or reasoning model may need longer (and `guardian model check --timeout` for its first, cold call). Keep the deadline below your host's hook timeout"}
	}
	switch code := httpStatus(err); {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return Advice{Table: "[model]", Line: `api_key_env = "YOUR_KEY_VARIABLE"`,
			Why: fmt.Sprintf("the server refused the API key (HTTP %d): name the environment variable that holds a valid key (default GUARDIAN_API_KEY, then OPENAI_API_KEY)", code)}
	case code == http.StatusNotFound:
		return Advice{Table: "[model]", Line: fmt.Sprintf("model = %q", cfg.Model),
			Why: "the server answered 404: the model name is wrong or not pulled/deployed there, or base_url lacks its /v1 (e.g. http://127.0.0.1:11434/v1)"}
	case code == http.StatusTooManyRequests:
		return Advice{Why: "the server is rate limiting (HTTP 429); no config change fixes that, but [review] breaker settings keep guardian from waiting on it"}
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return Advice{Table: "[model]", Line: fmt.Sprintf("base_url = %q", cfg.BaseURL),
			Why: "nothing listens there: start the server, or correct base_url (Ollama listens on localhost:11434, llama.cpp on :8080, LM Studio on :1234, vLLM on :8000; each under /v1)"}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return Advice{Table: "[model]", Line: fmt.Sprintf("base_url = %q", cfg.BaseURL), Why: "the host name of base_url does not resolve"}
	}
	if _, ok := rejectionOf(err); ok {
		return Advice{Why: fmt.Sprintf("the server refused a request guardian could not adapt further (profile %s, response_format %s); the error names the parameter", p.Family, p.Format)}
	}
	if model.IsBadOutput(err) {
		return Advice{Why: "the model did not answer with the verdict JSON; a model that follows instructions better, or one with structured-output support, will"}
	}
	return Advice{}
}

// suggestDeadline rounds a latency up to a deadline with room for a slower call.
func suggestDeadline(d time.Duration) time.Duration {
	return (d*2 + time.Second).Round(time.Second)
}
