package evals

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown: the same sections as the
// terminal table, with the wrong cases' summary and rationale. Text from requests is escaped
// (see mdText), so a case cannot inject markup, links or raw HTML into a rendered page.
func (r Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	row := func(cells ...string) { p("| %s |\n", strings.Join(cells, " | ")) }
	sep := func(n int, firstLeft bool) {
		cells := make([]string, n)
		for i := range cells {
			cells[i] = "---:"
		}
		if firstLeft {
			cells[0] = "---"
		}
		row(cells...)
	}
	m := r.Metrics
	p("# guardian eval\n\n%s.\n\nDatasets: %s.\n\nProduced by: %s.\n\n", mdText(runLine(r.Run, m), 0), mdText(datasetsLine(r.Run.Datasets), 0), mdText(provenanceLine(r.Run), 0))

	p("## Decisions\n\nRows: the labelled decision; columns: the decision received.\n\n")
	row(append(append([]string{"labelled"}, decisionsHeader()...), "total")...)
	sep(6, true)
	for _, cr := range confusionRows(m.Confusion) {
		cells := []string{"**" + cr.name + "**"}
		for _, n := range cr.cells {
			cells = append(cells, fmt.Sprint(n))
		}
		row(append(cells, fmt.Sprint(cr.total))...)
	}

	p("\n## Metrics\n\n")
	row("metric", "value", "counts")
	row("---", "---:", "---")
	for _, mr := range metricRows(m) {
		row("`"+mr.name+"`", mr.value, mdText(mr.detail, 0))
	}
	row("`statuses`", statusLine(m.Statuses), "")
	row("`latency_ms`", latencyLine(m.LatencyMS), "")
	row("`tokens`", fmt.Sprintf("%d in, %d out", m.Tokens.Input, m.Tokens.Output), fmt.Sprintf("%d reviews with token usage", m.Counts.ReviewsWithTokens))

	for _, bt := range r.breakdowns() {
		p("\n## %s\n\n", bt.title)
		row(append([]string{bt.key}, breakdownHeader()...)...)
		sep(len(breakdownHeader())+1, true)
		for _, name := range sortedGroups(bt.groups) {
			row(append([]string{mdText(name, maxRequestRunes)}, breakdownCells(bt.groups[name])...)...)
		}
	}

	wrong := r.Wrong()
	p("\n## Wrong cases (%d)\n\n", len(wrong))
	if len(wrong) == 0 {
		p("Every case got its labelled decision.\n")
	} else {
		row("id", "expected", "got", "level", "category", "status", "request", "summary", "rationale")
		row("---", "---", "---", "---", "---", "---", "---", "---", "---")
		for _, wc := range wrong {
			rv := wc.Review
			row(mdText(wc.Case.ID, maxRequestRunes), wc.Case.Expect.Decision.String(), rv.Decision,
				mdText(orDash(rv.RiskLevel), 0), mdText(orDash(rv.Category), 0), mdText(rv.Status, 0),
				mdText(wc.Case.Request, maxRequestRunes), mdText(rv.Summary, maxRationaleRunes), mdText(rv.Rationale, maxRationaleRunes))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report Markdown: %w", err)
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return dash
	}
	return s
}

// mdSpecial are the characters that can start Markdown syntax inside a paragraph or a table
// cell: emphasis, code spans, links and images, strikethrough, cell breaks and escapes.
const mdSpecial = "\\`*_[]|~"

// mdText makes untrusted text inert in Markdown: cleaned to one line of at most max runes (0:
// maxRationaleRunes), <, > and & written as entities so no raw HTML survives, and every
// Markdown punctuation character backslash-escaped, so no emphasis, link, code span or cell
// break can form.
func mdText(s string, max int) string {
	if max <= 0 {
		max = maxRationaleRunes
	}
	var b strings.Builder
	for _, r := range clean(s, max) {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
