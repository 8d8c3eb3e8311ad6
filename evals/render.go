package evals

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/guardianhq/guardian/riskmodel"
)

// Format is an output format of the report.
type Format string

// The report formats. JSON is the stable, comparable one; the others are for people.
const (
	FormatTable    Format = "table"
	FormatJSON     Format = "json"
	FormatMarkdown Format = "md"
	FormatHTML     Format = "html"
)

// Formats lists every format, in the order --format documents them.
func Formats() []Format { return []Format{FormatTable, FormatJSON, FormatMarkdown, FormatHTML} }

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want table, json, md or html)", s)
}

// Ext is the file extension of the format in --out DIR: report.txt, .json, .md, .html.
func (f Format) Ext() string {
	if f == FormatTable {
		return "txt"
	}
	return string(f)
}

// Render writes the report in format f.
func (r Report) Render(w io.Writer, f Format) error {
	switch f {
	case FormatTable:
		return r.WriteTable(w)
	case FormatJSON:
		return r.WriteJSON(w)
	case FormatMarkdown:
		return r.WriteMarkdown(w)
	case FormatHTML:
		return r.WriteHTML(w)
	}
	return fmt.Errorf("unknown format %q", f)
}

// dash stands for a value whose denominator is empty, in every human format.
const dash = "—"

// pct renders a rate as a percentage with one decimal, or the dash.
func pct(v *float64) string {
	if v == nil {
		return dash
	}
	return strconv.FormatFloat(*v*100, 'f', 1, 64) + "%"
}

// num renders a plain number with up to 3 decimals, or the dash.
func num(v *float64) string {
	if v == nil {
		return dash
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// fixed renders v with d decimals, or the dash.
func fixed(v *float64, d int) string {
	if v == nil {
		return dash
	}
	return strconv.FormatFloat(*v, 'f', d, 64)
}

// metricRow is one line of the headline metrics: name (the JSON name), value, and the counts
// behind it.
type metricRow struct{ name, value, detail string }

// metricRows lists the headline metrics of m in the order the reports show them.
func metricRows(m Metrics) []metricRow {
	c := m.Counts
	frac := func(n, d int) string { return fmt.Sprintf("%d of %d", n, d) }
	flip := frac(c.Flipped, c.RepeatedCases) + " cases"
	if c.RepeatedCases == 0 {
		flip = "needs --repeat 2 or more"
	}
	hostile := frac(c.FalseAllowHostile, c.HostileGraded) + " labelled deny got allow under a model that allows everything"
	if c.HostileGraded == 0 {
		hostile = "not graded (no deny-labelled case, or no hostile grading)"
	}
	cost := "no --price-per-1k-* given"
	if m.Cost != nil {
		cost = fmt.Sprintf("%d input + %d output tokens", m.Tokens.Input, m.Tokens.Output)
	}
	return []metricRow{
		{"false_allow", pct(m.FalseAllow), frac(c.FalseAllow, c.ExpectedDeny) + " labelled deny got allow"},
		{"false_allow_any", pct(m.FalseAllowAny), frac(c.FalseAllowAny, c.ExpectedDeny+c.ExpectedAsk) + " labelled deny or ask got allow"},
		{"false_allow_hostile", pct(m.FalseAllowHostile), hostile},
		{"deny_rated_high", pct(m.DenyRatedHigh), frac(c.DenyRatedHigh, c.ExpectedDeny) + " labelled deny rated high or critical"},
		{"false_deny", pct(m.FalseDeny), frac(c.FalseDeny, c.ExpectedAllow) + " labelled allow got deny"},
		{"ask_rate_on_allow", pct(m.AskRateOnAllow), frac(c.AskOnAllow, c.ExpectedAllow) + " labelled allow got ask"},
		{"accuracy", pct(m.Accuracy), frac(c.Correct, m.Reviews) + " decisions equal the label"},
		{"level_accuracy", pct(m.LevelAccuracy), frac(c.LevelCorrect, m.Reviews) + " risk levels equal the label"},
		{"level_mae", fixed(m.LevelMAE, 3), fmt.Sprintf("mean |level error| over %d reviews with a level", c.LevelGraded)},
		{"category_accuracy", pct(m.CategoryAccuracy), frac(c.CategoryCorrect, m.Reviews) + " categories equal the label"},
		{"flip_rate", pct(m.FlipRate), flip},
		{"cost", fixed(m.Cost, 4), cost},
	}
}

// statusLine lists the non-zero status counts, e.g. "rule 400, ok 50, timeout 7".
func statusLine(s StatusCounts) string {
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{{"ok", s.OK}, {"rule", s.Rule}, {"cached", s.Cached}, {"timeout", s.Timeout}, {"unavailable", s.Unavailable},
		{"bad_output", s.BadOutput}, {"breaker_open", s.BreakerOpen}, {"replay_miss", s.ReplayMiss}, {"error", s.Error}, {"other", s.Other}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p.name, p.n))
		}
	}
	if len(parts) == 0 {
		return dash
	}
	return strings.Join(parts, ", ")
}

// latencyLine renders the latency summary in milliseconds.
func latencyLine(l Latency) string {
	return fmt.Sprintf("p50 %s  p95 %s  p99 %s  max %s  mean %s", fixed(l.P50, 3), fixed(l.P95, 3), fixed(l.P99, 3), fixed(l.Max, 3), fixed(l.Mean, 3))
}

// breakdownHeader is the header of the per-group tables.
func breakdownHeader() []string {
	return []string{"reviews", "accuracy", "false_allow", "false_allow_any", "false_deny", "ask_rate_on_allow", "level_accuracy", "category_accuracy"}
}

// breakdownCells renders one group's row (after its name).
func breakdownCells(m Metrics) []string {
	return []string{strconv.Itoa(m.Reviews), pct(m.Accuracy), pct(m.FalseAllow), pct(m.FalseAllowAny), pct(m.FalseDeny),
		pct(m.AskRateOnAllow), pct(m.LevelAccuracy), pct(m.CategoryAccuracy)}
}

// breakdown is one titled per-group table.
type breakdownTable struct {
	title, key string
	groups     map[string]Metrics
}

func (r Report) breakdowns() []breakdownTable {
	return []breakdownTable{
		{"By labelled category", "category", r.ByCategory},
		{"By kind", "kind", r.ByKind},
		{"By labelled risk level", "risk_level", r.ByLevel},
		{"By source", "source", r.BySource},
	}
}

// sortedGroups returns the group names in a stable order: risk levels by severity, everything
// else alphabetically.
func sortedGroups(groups map[string]Metrics) []string {
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	rank := func(s string) int {
		if l, err := riskmodel.ParseLevel(s); err == nil {
			return int(l)
		}
		return 0
	}
	slices.SortFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return names
}

// decisionsHeader is the column order of the confusion matrix.
func decisionsHeader() []string { return []string{"allow", "ask", "deny", "none"} }

// confRow is one row of the confusion matrix: the labelled decision and what its reviews got,
// in decisionsHeader() order.
type confRow struct {
	name  string
	cells [4]int
	total int
}

// confusionRows returns the matrix rows in allow, ask, deny order.
func confusionRows(c Confusion) []confRow {
	var rows []confRow
	for _, d := range []riskmodel.Decision{riskmodel.Allow, riskmodel.Ask, riskmodel.Deny} {
		row := c.Row(d)
		rows = append(rows, confRow{d.String(), [4]int{row.Allow, row.Ask, row.Deny, row.None}, row.Total()})
	}
	return rows
}

// runLine describes the run in one sentence.
func runLine(info RunInfo, m Metrics) string {
	rev := info.Reviewer
	switch {
	case info.Model != "":
		rev += " (model " + info.Model
		if info.ModelAnswers != "" {
			rev += ", " + info.ModelAnswers + " answers"
		}
		rev += ")"
	default:
		rev += " (rules only, no model)"
	}
	return fmt.Sprintf("%d cases × %d repeat(s) = %d reviews, reviewer %s, concurrency %d, %.2f s",
		m.Cases, max(info.Repeat, 1), m.Reviews, rev, info.Concurrency, info.WallSeconds)
}

// provenanceLine says what produced the run: the config (path and the start of its sha256),
// the reviewer and model, and the guardian build.
func provenanceLine(info RunInfo) string {
	cfg := "none (built-in defaults)"
	if c := info.Config; c != nil {
		cfg = clean(c.Path, maxRequestRunes) + " (sha256 " + clean(shortHash(c.SHA256), 20) + ")"
	}
	model := "no model"
	if info.Model != "" {
		model = "model " + clean(info.Model, 100)
	}
	version := info.GuardianVersion
	if version == "" {
		version = dash
	}
	return fmt.Sprintf("config %s, reviewer %s, %s, %s", cfg, clean(info.Reviewer, 20), model, clean(version, 100))
}

// shortHash is the first 12 hex digits of a sha256 (enough to tell configs apart at a glance;
// the JSON report has all of it).
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// datasetsLine lists the datasets with their case counts.
func datasetsLine(ds []DatasetInfo) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s (%d cases)", clean(d.Path, maxRequestRunes), d.Cases)
	}
	return strings.Join(parts, ", ")
}
