package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/riskmodel"
)

func (a *app) rulesCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "rules",
		Short: "List and test the built-in rules",
		Args:  cobra.ArbitraryArgs,
		RunE:  groupRunE,
	}
	c.AddCommand(a.rulesListCmd(), a.rulesTestCmd())
	return c
}

// ruleJSON is one rule in `rules list --json`.
type ruleJSON struct {
	ID       string             `json:"id"`
	Kind     riskmodel.Kind     `json:"kind"`
	Level    riskmodel.Level    `json:"level"`
	Category riskmodel.Category `json:"category"`
	Message  string             `json:"message"`
	// Certainty is "certain", "uncertain" or "certain when …"; Decision is what the default
	// mapping answers for the rule's (certain) matches.
	Certainty string             `json:"certainty"`
	Decision  riskmodel.Decision `json:"decision"`
}

func (a *app) rulesListCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the built-in rules in evaluation order: id, level, certainty, decision, category, message",
		Long: `List the built-in rules in evaluation order: id, level, certainty, the default mapping's
decision, category and message. A high rule is "certain" when its match establishes an effect
on the policy's deny list (denied), "uncertain" when it flags something that may be dangerous
but cannot be confirmed (asked about); "per-match" rules decide per match, and --json says
which matches are certain ("certain when …").

--json writes one JSON array of {"id","kind","level","category","message","certainty","decision"}.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			an, err := riskmodel.New(riskmodel.Policy{})
			if err != nil {
				return fmt.Errorf("build the rule reviewer: %w", err)
			}
			rules := an.Rules()
			out := cmd.OutOrStdout()
			if asJSON {
				list := make([]ruleJSON, 0, len(rules))
				for _, r := range rules {
					list = append(list, ruleJSON{ID: r.ID, Kind: r.Kind, Level: r.Level, Category: r.Category, Message: r.Message,
						Certainty: r.Certainty(), Decision: r.DefaultDecision()})
				}
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				return enc.Encode(list)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tLEVEL\tCERTAINTY\tDECISION\tCATEGORY\tMESSAGE")
			for _, r := range rules {
				cert := "-" // certainty matters only at high
				switch {
				case r.Level != riskmodel.High:
				case r.CertainWhen != "":
					cert = "per-match" // --json says which matches are certain
				default:
					cert = r.Certainty()
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Level, cert, r.DefaultDecision(), r.Category, strings.TrimSpace(r.Message))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write the rules as one JSON array")
	return c
}

func (a *app) rulesTestCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "test",
		Short: "Run every built-in rule's examples; exit 1 if any fails",
		Long: `Run every built-in rule's examples through a default-policy rule reviewer: each rule's
must-match examples must produce a finding with its id, and its must-not-match examples must
not. Failures are listed, then "N examples, M failures"; the exit status is 1 if any failed.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			fails, n := riskmodel.TestRules(cmd.Context())
			out := cmd.OutOrStdout()
			for _, f := range fails {
				fmt.Fprintf(out, "FAIL %s\n", f)
			}
			fmt.Fprintf(out, "%d examples, %d failures\n", n, len(fails))
			if len(fails) > 0 {
				return &exitError{code: exitInternal, err: fmt.Errorf("rules test: %d of %d rule examples failed", len(fails), n)}
			}
			return nil
		},
	}
}
