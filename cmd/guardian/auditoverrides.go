package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/audit"
)

func (a *app) auditOverridesCmd() *cobra.Command {
	var (
		since  time.Duration
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "overrides [--since D] [--json]",
		Short: "Count per rule how often guardian asked and what people answered",
		Long: `Count the reviews since the start of today (or --since D ago) and, per rule that asked,
how often people approved, refused or did not answer: through guardian approve/deny, a
grant, or the host's own prompt (recorded when guardian is installed for Claude Code's
PostToolUse and PermissionDenied events, and by guardian mcp-proxy's elicitations).

A rule whose asks are nearly always approved asks for nothing: make it an allow
(guardian allow PATTERN) or narrow it. One asking nearly always refused may be a deny.`,
		Example: "  guardian audit overrides\n  guardian audit overrides --since 168h --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			files, err := a.auditFiles(cmd)
			if err != nil {
				return err
			}
			from := startOfDay(time.Now())
			if since > 0 {
				from = time.Now().Add(-since)
			} else if since < 0 {
				return usageErrorf("audit overrides: --since %s: want a positive duration, e.g. 24h", since)
			}
			s, err := audit.Summarize(cmd.Context(), files, from)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, s)
			}
			writeSummary(a.stdout, s)
			return nil
		},
	}
	c.Flags().DurationVar(&since, "since", 0, "count the records of the last `D` (default: since the start of today)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	return c
}

// startOfDay is midnight of t's day, in t's location.
func startOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// writeSummary prints the counts and a line per asking rule.
func writeSummary(w io.Writer, s audit.Summary) {
	fmt.Fprintf(w, "since %s: %s (%d allowed, %d asked, %d denied)\n", s.Since.Local().Format("2006-01-02 15:04"),
		count(s.Reviews, "review"), s.Allows, s.Asks, s.Denies)
	fmt.Fprintf(w, "answers to asks: %d approved, %d refused, %d unanswered\n", s.Approved, s.Refused, s.Unanswered)
	if len(s.Rules) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nASKED BY\tASKED\tAPPROVED\tREFUSED\tUNANSWERED\tAPPROVED %")
	for _, r := range s.Rules {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.0f%%\n", printable(r.Rule), r.Asked, r.Approved, r.Refused, r.Unanswered, 100*r.OverrideRate())
	}
	tw.Flush()
}
