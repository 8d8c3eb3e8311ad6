package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/model/client"
)

// errNoModel is returned by `model check` when neither the config nor the environment names a
// model: guardian then reviews with the rules alone, which is not an error for `review`.
var errNoModel = errors.New("no model is configured: add a [model] table to the config (see docs/config.md) " +
	"or set GUARDIAN_MODEL_BASE_URL and GUARDIAN_MODEL")

func (a *app) modelCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "model",
		Short: "Check the configured model reviewer",
		Args:  cobra.ArbitraryArgs,
		RunE:  groupRunE,
	}
	c.AddCommand(a.modelCheckCmd())
	return c
}

// checkJSON is `model check --json`.
type checkJSON struct {
	Model            string          `json:"model"`
	BaseURL          string          `json:"base_url"`
	OK               bool            `json:"ok"`
	Error            string          `json:"error,omitempty"`
	LatencyMS        float64         `json:"latency_ms"`
	StructuredOutput bool            `json:"structured_output"`
	Format           string          `json:"response_format"`
	Attempts         int             `json:"attempts"`
	Profile          client.Profile  `json:"profile"`
	Changes          []client.Change `json:"changes,omitempty"`
	Outcome          string          `json:"outcome,omitempty"`
	RiskLevel        string          `json:"risk_level,omitempty"`
	Summary          string          `json:"summary,omitempty"`
	FinishReason     string          `json:"finish_reason,omitempty"`
	ReasoningChars   int             `json:"reasoning_chars,omitempty"`
	InputTokens      int             `json:"input_tokens"`
	CachedTokens     int             `json:"cached_tokens"`
	OutputTokens     int             `json:"output_tokens"`
	ReasoningTokens  int             `json:"reasoning_tokens"`
	DecidedBy        string          `json:"decided_by,omitempty"`
	Fix              *client.Advice  `json:"fix,omitempty"`
}

func (a *app) modelCheckCmd() *cobra.Command {
	var (
		asJSON  bool
		timeout time.Duration
	)
	c := &cobra.Command{
		Use:   "check [--json] [--timeout D]",
		Short: "Send one small review to the configured model and report what it accepts, its latency, tokens and verdict",
		Long: `Send one small review (git status) to the configured model endpoint and report:

  - the profile guardian settled on for it: structured output (json_schema, json_object or
    none), whether temperature and seed are sent, the token-limit field and budget, the
    reasoning effort; and what it had to change from the model family's defaults, with the
    server's own words;
  - the latency of the review and its tokens (prompt, cached, completion, reasoning);
  - the verdict, and how much reasoning was set aside before it;
  - when it fails, or is too slow for the review deadline, the one config line to change.

Exit 0 when the model answered with a valid verdict, 1 when it did not (unreachable, timed
out, bad output), 3 when no model is configured or the configuration is invalid.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := a.workdir()
			if err != nil {
				return err
			}
			cfg, err := a.loadConfig(cmd, dir)
			if err != nil {
				return err
			}
			rev, err := a.modelReviewer(cfg)
			if err != nil {
				return invalidError(err)
			}
			if rev == nil {
				return invalidError(errNoModel)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			res, cerr := rev.Check(ctx, cfg.Review.Deadline)
			out := checkJSON{Model: res.Model, BaseURL: res.BaseURL, OK: cerr == nil, LatencyMS: float64(res.Latency.Microseconds()) / 1000,
				StructuredOutput: res.StructuredOutput, Format: string(res.Format), Attempts: res.Attempts,
				Profile: res.Profile, Changes: res.Changes, FinishReason: res.FinishReason, ReasoningChars: len([]rune(res.Reasoning)),
				InputTokens: res.Usage.InputTokens, CachedTokens: res.Usage.CachedTokens,
				OutputTokens: res.Usage.OutputTokens, ReasoningTokens: res.Usage.ReasoningTokens, DecidedBy: res.DecidedBy}
			if res.Fix != (client.Advice{}) {
				out.Fix = &res.Fix
			}
			if cerr != nil {
				out.Error = cerr.Error()
			} else {
				out.Outcome, out.RiskLevel, out.Summary = res.Verdict.Outcome.String(), res.Verdict.RiskLevel.String(), res.Verdict.Summary
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(out); err != nil {
					return err
				}
			} else {
				writeCheck(w, out)
			}
			if cerr != nil {
				return &exitError{code: exitInternal, err: fmt.Errorf("model check failed: %w", cerr)}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write the result as one line of JSON")
	c.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the model (a first call may load it)")
	return c
}

// writeCheck prints a check result for a person.
func writeCheck(w io.Writer, out checkJSON) {
	p := out.Profile
	fmt.Fprintf(w, "model:             %s at %s\n", out.Model, orDefault(out.BaseURL, "the OpenAI API"))
	sampling := "temperature and seed sent"
	switch {
	case !p.Temperature && !p.Seed:
		sampling = "temperature and seed omitted"
	case !p.Temperature:
		sampling = "temperature omitted, seed sent"
	case !p.Seed:
		sampling = "temperature sent, seed omitted"
	}
	effort := ""
	if p.ReasoningEffort != "" {
		effort = ", reasoning_effort " + p.ReasoningEffort
	}
	if p.ThinkingOff {
		effort += ", enable_thinking false"
	}
	fmt.Fprintf(w, "profile:           %s: response_format %s, %s, %s %d%s\n", p.Family, p.Format, sampling, p.TokenField, p.MaxTokens, effort)
	for _, c := range out.Changes {
		fmt.Fprintf(w, "changed:           %s\n", c)
	}
	fmt.Fprintf(w, "latency:           %.0f ms over %d request(s)\n", out.LatencyMS, out.Attempts)
	fmt.Fprintf(w, "structured output: %v (response_format %s)\n", out.StructuredOutput, orDefault(out.Format, "none"))
	if out.OK {
		fmt.Fprintf(w, "verdict:           %s at %s risk: %s\n", out.Outcome, out.RiskLevel, out.Summary)
		if out.ReasoningChars > 0 {
			fmt.Fprintf(w, "reasoning:         %d characters set aside before the verdict (kept, redacted, in the audit record)\n", out.ReasoningChars)
		}
		fmt.Fprintf(w, "tokens:            %d prompt (%d cached), %d completion (%d reasoning)\n", out.InputTokens, out.CachedTokens, out.OutputTokens, out.ReasoningTokens)
		fmt.Fprintf(w, "decided by:        %s\n", out.DecidedBy)
	}
	if f := out.Fix; f != nil {
		if f.Line != "" {
			fmt.Fprintf(w, "fix:               in %s set  %s\n", f.Table, f.Line)
			fmt.Fprintf(w, "                   (%s)\n", f.Why)
		} else {
			fmt.Fprintf(w, "note:              %s\n", f.Why)
		}
	}
}

// modelReviewer builds the model reviewer the config and environment name, or nil when they
// name none (as oneshot.Env.ModelReviewer does, with the client's own type). A configured
// model that cannot be built is an error, never a silent fall back to rules only.
func (a *app) modelReviewer(cfg guardian.Config) (*client.Reviewer, error) {
	mc, ok, err := cfg.ModelFromEnv(a.getenv)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if !ok {
		return nil, nil
	}
	return a.newModelClient(cfg, mc)
}

// newModelClient builds the model client for an endpoint (online.Network.NewModelClient).
func (a *app) newModelClient(cfg guardian.Config, mc guardian.ModelConfig, extra ...client.Option) (*client.Reviewer, error) {
	return a.network().NewModelClient(cfg, mc, extra...)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
