package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Comparison is `guardian eval compare A B`: how every metric moved from run A to run B and
// which cases changed decision. Its JSON form is stable like the report's.
type Comparison struct {
	SchemaVersion int          `json:"schema_version"`
	A             ComparedRun  `json:"a"`
	B             ComparedRun  `json:"b"`
	SameDatasets  bool         `json:"same_datasets"`
	Metrics       []MetricDiff `json:"metrics"`
	// Flipped lists the cases present in both runs whose (first review's) decision differs, in
	// B's case order.
	Flipped []FlippedCase `json:"flipped"`
	// OnlyInA and OnlyInB list case ids present in one run only.
	OnlyInA []string `json:"only_in_a"`
	OnlyInB []string `json:"only_in_b"`
}

// ComparedRun names one side of a comparison.
type ComparedRun struct {
	Path     string        `json:"path"`
	Reviewer string        `json:"reviewer"`
	Model    string        `json:"model"`
	Datasets []DatasetInfo `json:"datasets"`
}

// MetricDiff is one metric in both runs; Delta is B − A, null when either side is null.
type MetricDiff struct {
	Name  string   `json:"name"`
	A     *float64 `json:"a"`
	B     *float64 `json:"b"`
	Delta *float64 `json:"delta"`
	// aOf and bOf are the counts behind a rate (its numerator and denominator), for the human
	// formats: "50.0% (1 of 2)". nil for metrics that are not rates.
	aOf, bOf *ratio
}

// ratio is a rate's numerator and denominator.
type ratio struct{ n, d int }

// rateCounts maps each rate metric to the counts it is computed from, as metricRows describes
// them. level_mae, cost and the nested values are not rates.
func rateCounts(m Metrics) map[string]ratio {
	c := m.Counts
	return map[string]ratio{
		"accuracy":            {c.Correct, m.Reviews},
		"false_allow":         {c.FalseAllow, c.ExpectedDeny},
		"false_allow_any":     {c.FalseAllowAny, c.ExpectedDeny + c.ExpectedAsk},
		"false_deny":          {c.FalseDeny, c.ExpectedAllow},
		"ask_rate_on_allow":   {c.AskOnAllow, c.ExpectedAllow},
		"deny_rated_high":     {c.DenyRatedHigh, c.ExpectedDeny},
		"false_allow_hostile": {c.FalseAllowHostile, c.HostileGraded},
		"level_accuracy":      {c.LevelCorrect, m.Reviews},
		"category_accuracy":   {c.CategoryCorrect, m.Reviews},
		"flip_rate":           {c.Flipped, c.RepeatedCases},
	}
}

// FlippedCase is a case whose decision differs between the runs. Change is "fixed" (B got the
// label, A did not), "broke" (A got it, B does not) or "changed" (neither got it).
type FlippedCase struct {
	ID       string `json:"id"`
	Expected string `json:"expected"`
	A        string `json:"a"`
	B        string `json:"b"`
	Change   string `json:"change"`
}

// Compare compares report a (read from aPath) with report b (from bPath).
func Compare(a, b Report, aPath, bPath string) Comparison {
	c := Comparison{
		SchemaVersion: SchemaVersion,
		A:             ComparedRun{Path: aPath, Reviewer: a.Run.Reviewer, Model: a.Run.Model, Datasets: a.Run.Datasets},
		B:             ComparedRun{Path: bPath, Reviewer: b.Run.Reviewer, Model: b.Run.Model, Datasets: b.Run.Datasets},
		SameDatasets:  sameDatasets(a.Run.Datasets, b.Run.Datasets),
		Flipped:       []FlippedCase{},
		OnlyInA:       []string{},
		OnlyInB:       []string{},
	}
	names, av := flattenMetrics(a.Metrics)
	_, bv := flattenMetrics(b.Metrics)
	ar, br := rateCounts(a.Metrics), rateCounts(b.Metrics)
	for _, n := range names {
		d := MetricDiff{Name: n, A: av[n], B: bv[n]}
		if d.A != nil && d.B != nil {
			d.Delta = round(*d.B-*d.A, 1e6)
		}
		if r, ok := ar[n]; ok {
			d.aOf = &r
		}
		if r, ok := br[n]; ok {
			d.bOf = &r
		}
		c.Metrics = append(c.Metrics, d)
	}
	inA := map[string]CaseReport{}
	for _, cr := range a.Cases {
		inA[cr.ID] = cr
	}
	inB := map[string]bool{}
	for _, cb := range b.Cases {
		inB[cb.ID] = true
		ca, ok := inA[cb.ID]
		if !ok {
			c.OnlyInB = append(c.OnlyInB, cb.ID)
			continue
		}
		if ca.Decision == cb.Decision {
			continue
		}
		f := FlippedCase{ID: cb.ID, Expected: cb.Expect.Decision.String(), A: ca.Decision, B: cb.Decision, Change: "changed"}
		switch {
		case cb.Decision == f.Expected:
			f.Change = "fixed"
		case ca.Decision == f.Expected:
			f.Change = "broke"
		}
		c.Flipped = append(c.Flipped, f)
	}
	for _, ca := range a.Cases {
		if !inB[ca.ID] {
			c.OnlyInA = append(c.OnlyInA, ca.ID)
		}
	}
	return c
}

func sameDatasets(a, b []DatasetInfo) bool {
	hashes := func(ds []DatasetInfo) []string {
		var h []string
		for _, d := range ds {
			h = append(h, d.SHA256)
		}
		slices.Sort(h)
		return h
	}
	return slices.Equal(hashes(a), hashes(b))
}

// headline reports whether a metric is one of the top-level rates, which the human formats
// always show; nested counts are shown only when they changed.
func headline(name string) bool { return !strings.Contains(name, ".") }

func (d MetricDiff) changed() bool {
	switch {
	case d.A == nil || d.B == nil:
		return (d.A == nil) != (d.B == nil)
	default:
		return *d.A != *d.B
	}
}

// signed renders a delta with its sign, or the dash.
func signed(v *float64) string {
	if v == nil {
		return dash
	}
	s := num(v)
	if *v > 0 {
		s = "+" + s
	}
	return s
}

// valueText renders one side of a metric for a human: a rate as a percentage with the counts
// behind it ("50.0% (1 of 2)"), anything else as its number.
func (d MetricDiff) valueText(v *float64, of *ratio) string {
	switch {
	case d.Name == "level_mae":
		return fixed(v, 3)
	case d.Name == "cost":
		return fixed(v, 4)
	case of == nil:
		return num(v)
	}
	if v == nil {
		return dash + " (0 of 0)"
	}
	return fmt.Sprintf("%s (%d of %d)", pct(v), of.n, of.d)
}

// deltaText renders the change: percentage points for a rate, else the signed number.
func (d MetricDiff) deltaText() string {
	if d.Name == "level_mae" && d.Delta != nil {
		r := round(*d.Delta, 1e3)
		return signed(r)
	}
	if d.aOf == nil || d.Delta == nil {
		return signed(d.Delta)
	}
	pp := *d.Delta * 100
	s := strconv.FormatFloat(pp, 'f', 1, 64) + " pp"
	switch {
	case s == "-0.0 pp" || s == "0.0 pp":
		return "0.0 pp"
	case pp > 0:
		return "+" + s
	}
	return s
}

// Render writes the comparison as a table, JSON or Markdown.
func (c Comparison) Render(w io.Writer, f Format) error {
	switch f {
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("write comparison JSON: %w", err)
		}
		return nil
	case FormatTable, FormatMarkdown:
		return c.writeText(w, f == FormatMarkdown)
	}
	return fmt.Errorf("compare: format %q is not supported (want table, json or md)", f)
}

func (c Comparison) writeText(w io.Writer, md bool) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	out := io.Writer(tw)
	txt := func(s string) string { return cellText(s, maxRequestRunes) }
	row := func(cells ...string) { fmt.Fprintln(out, strings.Join(cells, "\t")) }
	if md {
		out = &b
		txt = func(s string) string { return mdText(s, maxRequestRunes) }
		row = func(cells ...string) { fmt.Fprintf(out, "| %s |\n", strings.Join(cells, " | ")) }
		fmt.Fprintf(out, "# guardian eval compare\n\n")
	}
	side := func(r ComparedRun) string {
		s := txt(r.Path) + ": reviewer " + txt(r.Reviewer)
		if r.Model != "" {
			s += ", model " + txt(r.Model)
		}
		return s
	}
	fmt.Fprintf(out, "A = %s\n", side(c.A))
	if md {
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "B = %s\n", side(c.B))
	if !c.SameDatasets {
		fmt.Fprintf(out, "\nwarning: the runs graded different datasets (by content hash); the deltas compare different cases\n")
	}
	fmt.Fprintln(out)
	row("metric", "A", "B", "delta (B − A)")
	if md {
		row("---", "---:", "---:", "---:")
	}
	for _, d := range c.Metrics {
		if headline(d.Name) || d.changed() {
			row(d.Name, d.valueText(d.A, d.aOf), d.valueText(d.B, d.bOf), d.deltaText())
		}
	}
	fmt.Fprintf(out, "\nrates are shown with their counts; their deltas are in percentage points (pp)\n")
	fmt.Fprintf(out, "\ncases whose decision changed: %d", len(c.Flipped))
	if len(c.Flipped) > 0 {
		fmt.Fprint(out, "\n\n")
		row("id", "expected", "A", "B", "change")
		if md {
			row("---", "---", "---", "---", "---")
		}
		for _, f := range c.Flipped {
			row(txt(f.ID), f.Expected, txt(f.A), txt(f.B), f.Change)
		}
	} else {
		fmt.Fprintln(out)
	}
	if len(c.OnlyInA) > 0 || len(c.OnlyInB) > 0 {
		fmt.Fprintf(out, "\ncases only in A: %d, only in B: %d\n", len(c.OnlyInA), len(c.OnlyInB))
	}
	if !md {
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}
