package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	Model            string  `json:"model"`
	BaseURL          string  `json:"base_url"`
	OK               bool    `json:"ok"`
	Error            string  `json:"error,omitempty"`
	LatencyMS        float64 `json:"latency_ms"`
	StructuredOutput bool    `json:"structured_output"`
	Format           string  `json:"response_format"`
	Attempts         int     `json:"attempts"`
	Outcome          string  `json:"outcome,omitempty"`
	RiskLevel        string  `json:"risk_level,omitempty"`
	Summary          string  `json:"summary,omitempty"`
	InputTokens      int     `json:"input_tokens"`
	OutputTokens     int     `json:"output_tokens"`
	DecidedBy        string  `json:"decided_by,omitempty"`
}

func (a *app) modelCheckCmd() *cobra.Command {
	var (
		asJSON  bool
		timeout time.Duration
	)
	c := &cobra.Command{
		Use:   "check [--json] [--timeout D]",
		Short: "Send one small review to the configured model and report latency, structured output and the verdict",
		Long: `Send one small review (git status) to the configured model endpoint and report the
latency, whether the server accepts structured output (response_format json_schema) or needs
the json_object fallback, and the verdict it returned.

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
			res, cerr := rev.Check(ctx)
			out := checkJSON{Model: res.Model, BaseURL: res.BaseURL, OK: cerr == nil, LatencyMS: float64(res.Latency.Microseconds()) / 1000,
				StructuredOutput: res.StructuredOutput, Format: string(res.Format), Attempts: res.Attempts,
				InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens, DecidedBy: res.DecidedBy}
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
				fmt.Fprintf(w, "model:             %s at %s\n", out.Model, orDefault(out.BaseURL, "the OpenAI API"))
				fmt.Fprintf(w, "latency:           %.0f ms over %d attempt(s)\n", out.LatencyMS, out.Attempts)
				fmt.Fprintf(w, "structured output: %v (response_format %s)\n", out.StructuredOutput, orDefault(out.Format, "none"))
				if cerr == nil {
					fmt.Fprintf(w, "verdict:           %s at %s risk: %s\n", out.Outcome, out.RiskLevel, out.Summary)
					fmt.Fprintf(w, "tokens:            %d in, %d out\n", out.InputTokens, out.OutputTokens)
					fmt.Fprintf(w, "decided by:        %s\n", out.DecidedBy)
				}
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

// modelReviewer builds the model reviewer the config and environment name, or nil when they
// name none (rules only). A configured model that cannot be built is an error, never a silent
// fall back to rules only.
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

// newModelClient builds the model client for an endpoint with the config's prompt policy and
// the CLI's telemetry; extra options (an HTTP client for record/replay) come last.
func (a *app) newModelClient(cfg guardian.Config, mc guardian.ModelConfig, extra ...client.Option) (*client.Reviewer, error) {
	opts := []client.Option{client.WithPolicy(cfg.Prompt.PromptPolicy())}
	if a.tracerProvider != nil {
		opts = append(opts, client.WithTracerProvider(a.tracerProvider))
	}
	if a.meterProvider != nil {
		opts = append(opts, client.WithMeterProvider(a.meterProvider))
	}
	return client.New(client.Config{BaseURL: mc.BaseURL, Model: mc.Model, APIKey: mc.APIKey, Azure: mc.Azure,
		AzureAPIVersion: mc.AzureAPIVersion, Timeout: mc.Timeout, MaxTokens: mc.MaxTokens, Seed: mc.Seed}, append(opts, extra...)...)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
