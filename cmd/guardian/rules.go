package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/riskmodel"
	"github.com/guardianhq/guardian/riskmodel/catalog"
)

func (a *app) rulesCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "rules",
		Short: "List and test the built-in rules",
		Args:  cobra.ArbitraryArgs,
		RunE:  groupRunE,
	}
	c.AddCommand(a.rulesListCmd(), a.rulesTestCmd(), a.rulesCatalogCmd())
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
	// Class is the rule's row of the certainty table for rules that can rate high
	// ("deny-list", "contextual", "cannot-follow"); Policy is the line of docs/policy.md
	// that puts it there.
	Class  string `json:"certainty_class,omitempty"`
	Policy string `json:"policy,omitempty"`
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
which matches are certain ("certain when …"). Certainty follows the class of the effect
(riskmodel/certainty.go): "deny-list" rules (the effect is known and on the policy's deny
list) are certain; "contextual" rules (the policy's ask row) and "cannot-follow" rules (code
or a binary the analysis cannot see into) are asked about, except the matches their
condition makes certain.

--json writes one JSON array of {"id","kind","level","category","message","certainty",
"decision","certainty_class","policy"}; the last two for rules that can rate high.`,
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
						Certainty: r.Certainty(), Decision: r.DefaultDecision(), Class: r.CertaintyClass, Policy: r.CertaintyPolicy})
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
	var verbose bool
	c := &cobra.Command{
		Use:   "test [-v]",
		Short: "Run every built-in rule's examples; exit 1 if any fails",
		Long: `Run every built-in rule's examples (riskmodel/examples/*.toml, one file per rule family)
through a default-policy rule reviewer: each rule's must-match examples must produce a finding
with its id, and its must-not-match examples must not. Each failing rule is reported with its
examples file and the examples that failed, then "N examples, M failures"; -v also lists every
rule that passed with its counts. The exit status is 1 if any failed.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			n, nf := 0, 0
			for _, r := range riskmodel.TestRulesReport(cmd.Context()) {
				n += r.Match + r.NoMatch
				nf += len(r.Failures)
				file := r.File
				if file == "" {
					file = "no examples file"
				}
				switch {
				case len(r.Failures) > 0:
					fmt.Fprintf(out, "FAIL %s (%s): %d of %d examples failed\n", r.RuleID, file, len(r.Failures), r.Match+r.NoMatch)
					for _, f := range r.Failures {
						fmt.Fprintf(out, "     %s\n", f)
					}
				case verbose:
					fmt.Fprintf(out, "ok   %s (%s): %d match, %d no_match\n", r.RuleID, file, r.Match, r.NoMatch)
				}
			}
			fmt.Fprintf(out, "%d examples, %d failures\n", n, nf)
			if nf > 0 {
				return &exitError{code: exitInternal, err: fmt.Errorf("rules test: %d of %d rule examples failed", nf, n)}
			}
			return nil
		},
	}
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "also list every rule that passed")
	return c
}

// catalogJSON is `rules catalog --json`: the catalogue's paths, vendor hosts, sensitive
// loopback services and everyday commands, each with its source.
type catalogJSON struct {
	Paths    []catalog.PathEntry `json:"paths"`
	Vendors  []catalog.Vendor    `json:"vendors"`
	Services []catalog.Service   `json:"services"`
	Commands []catalog.Command   `json:"commands"`
}

func (a *app) rulesCatalogCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "catalog [--json]",
		Short: "List the catalogue the rules judge paths, hosts and commands by: class, patterns, source",
		Long: `List the embedded catalogue (riskmodel/catalog) that the exec and MCP analyses share:
each path entry with its class (credential store, agent configuration, persistence, security
configuration, system), its patterns (home-relative ones apply to any user's home) and the
source it was taken from; then the vendor installer hosts, the sensitive services that
listen on loopback ports, and the commands the rules know by class (read_only, build,
workspace_write, local_net, opener; tunnel for the tunnels, relays and listeners that
expose this machine) with the subcommands each entry covers and the arguments that take a
use out of it.

--json writes {"paths":[…],"vendors":[…],"services":[…],"commands":[…]}.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat := catalog.Default()
			out := cmd.OutOrStdout()
			if asJSON {
				v := catalogJSON{Vendors: cat.Vendors(), Services: cat.Services(), Commands: catalog.DefaultCommands().All()}
				for _, e := range cat.Entries("") {
					v.Paths = append(v.Paths, e)
				}
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				return enc.Encode(v)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "CLASS\tID\tPATTERNS\tSOURCE")
			for _, e := range cat.Entries("") {
				var pats []string
				for _, h := range e.Home {
					pats = append(pats, "~/"+strings.TrimPrefix(h, "~/"))
				}
				pats = append(append(append(pats, e.Abs...), e.Any...), e.Base...)
				if len(pats) > 6 { // the table stays readable; --json has them all
					pats = append(pats[:6], fmt.Sprintf("…(+%d)", len(pats)-6))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Class, e.ID, strings.Join(pats, " "), e.Source)
			}
			fmt.Fprintln(tw, "\nVENDOR HOST\tPATHS\tSOURCE\t")
			for _, v := range cat.Vendors() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t\n", v.Host, strings.Join(v.Paths, " "), v.Source)
			}
			fmt.Fprintln(tw, "\nLOOPBACK PORT\tSERVICE\tSOURCE\t")
			for _, sv := range cat.Services() {
				fmt.Fprintf(tw, "%d\t%s\t%s\t\n", sv.Port, sv.What, sv.Source)
			}
			fmt.Fprintln(tw, "\nCOMMAND\tCLASS\tCOVERS\tSOURCE")
			for _, e := range catalog.DefaultCommands().All() {
				covers := "every use"
				if len(e.Subcommands) > 0 {
					covers = strings.Join(e.Subcommands, ", ")
					if len(e.Subcommands) > 6 {
						covers = strings.Join(e.Subcommands[:6], ", ") + fmt.Sprintf(", …(+%d)", len(e.Subcommands)-6)
					}
				}
				if len(e.Args) > 0 {
					if covers == "every use" {
						covers = "uses"
					}
					covers += " with " + strings.Join(e.Args[:min(len(e.Args), 3)], " ")
					if len(e.Args) > 3 {
						covers += " …"
					}
				}
				if len(e.Exclude) > 0 {
					covers += " (not with " + strings.Join(e.Exclude[:min(len(e.Exclude), 4)], " ")
					if len(e.Exclude) > 4 {
						covers += " …"
					}
					covers += ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.Class, covers, e.Source)
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "write the catalogue as one JSON object")
	return c
}
