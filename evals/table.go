package evals

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// maxTableText bounds the request and summary columns of the terminal table, so a row fits
// a wide terminal; the JSON, Markdown and HTML reports carry the longer text.
const maxTableText = 60

// WriteTable writes the report for a terminal: the run, the confusion matrix, the headline
// metrics with their counts, the per-group tables and the wrong cases. Empty denominators
// print as "—".
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	m := r.Metrics
	p("guardian eval: %s\n", runLine(r.Run, m))
	p("datasets: %s\n", datasetsLine(r.Run.Datasets))
	p("produced by: %s\n\n", provenanceLine(r.Run))

	p("decisions (rows: labelled, columns: got)\n")
	p("labelled\t%s\ttotal\n", strings.Join(decisionsHeader(), "\t"))
	for _, row := range confusionRows(m.Confusion) {
		p("%s", row.name)
		for _, n := range row.cells {
			p("\t%d", n)
		}
		p("\t%d\n", row.total)
	}
	p("\nmetric\tvalue\tcounts\n")
	for _, row := range metricRows(m) {
		p("%s\t%s\t%s\n", row.name, row.value, row.detail)
	}
	p("statuses\t\t%s\n", statusLine(m.Statuses))
	p("latency_ms\t\t%s\n", latencyLine(m.LatencyMS))
	p("tokens\t\t%d in, %d out (%d reviews with token usage)\n", m.Tokens.Input, m.Tokens.Output, m.Counts.ReviewsWithTokens)

	for _, b := range r.breakdowns() {
		p("\n%s\n%s\t%s\n", b.title, b.key, strings.Join(breakdownHeader(), "\t"))
		for _, name := range sortedGroups(b.groups) {
			p("%s\t%s\n", cellText(name, maxTableText), strings.Join(breakdownCells(b.groups[name]), "\t"))
		}
	}

	wrong := r.Wrong()
	p("\nwrong cases: %d\n", len(wrong))
	if len(wrong) > 0 {
		p("id\texpected\tgot\tstatus\trequest\tsummary\n")
		for _, wc := range wrong {
			got := wc.Review.Decision
			if r.Run.Repeat > 1 {
				got += " (repeat " + strconv.Itoa(wc.Repeat) + ")"
			}
			p("%s\t%s\t%s\t%s\t%s\t%s\n", cellText(wc.Case.ID, maxTableText), wc.Case.Expect.Decision, got, wc.Review.Status,
				cellText(wc.Case.Request, maxTableText), cellText(wc.Review.Summary, maxTableText))
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write report table: %w", err)
	}
	return nil
}

// cellText makes text one safe, bounded table cell: cleaned (it may come from a report file
// rather than from NewReport) and without tabs, which would split the cell.
func cellText(s string, max int) string { return clean(s, max) }
