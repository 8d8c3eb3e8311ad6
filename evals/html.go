package evals

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

// The HTML report is one self-contained page: inline CSS, inline SVG charts, no script and no
// external asset, so it can be attached to a CI run or mailed and still render the same.
// html/template escapes every value for its context; the texts are also cleaned (see clean),
// because request text is untrusted.

//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is parsed once; it is immutable and safe for concurrent use.
var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// Chart geometry, in SVG user units.
const (
	heatLabelW = 90
	heatCellW  = 96
	heatCellH  = 46
	heatHeadH  = 30

	barLabelW = 250
	barMaxW   = 320
	barRowH   = 34
	barH      = 11

	histW      = 640
	histH      = 180
	histBottom = 40
)

// htmlView is what the template renders; every field is plain data computed here.
type htmlView struct {
	RunLine, Datasets string
	Metrics           []htmlMetric
	Statuses, Latency string
	Tokens            string
	Heat              heatMap
	Bars              barChart
	Hist              histogram
	Breakdowns        []htmlBreakdown
	BreakdownHeader   []string
	Wrong             []htmlWrong
}

type htmlMetric struct{ Name, Value, Detail string }

type heatMap struct {
	W, H    int
	Headers []svgText
	Cells   []heatCell
}

type svgText struct {
	X, Y   int
	Text   string
	Anchor string
}

type heatCell struct {
	X, Y, W, H int
	Fill       string
	Count      string
	Share      string
	TX, TY     int
	Title      string
}

type barChart struct {
	W, H int
	// X0 is where the bars start (0%), X100 where a full bar ends, LabelX where names end.
	X0, X100, LabelX int
	// AxisMax labels X100: the rate a full-width bar stands for.
	AxisMax string
	Rows    []barRow
}

type barRow struct {
	Y, TextY           int
	Name               string
	FAY, FDY           int
	FAW, FDW           int
	FALabel, FDLabel   string
	FALabelX, FDLabelX int
	FATextY, FDTextY   int
	FATitle, FDTitle   string
	HasFA, HasFD       bool
}

type histogram struct {
	W, H  int
	Base  int
	Bars  []histBar
	Empty bool
}

type histBar struct {
	X, Y, W, H int
	LabelX     int
	Label      string
	Title      string
}

type htmlBreakdown struct {
	Title, Key string
	Rows       [][]string
}

type htmlWrong struct {
	ID, Expected, Got, Level, Category, Status, Request, Summary, Rationale string
}

// WriteHTML writes the self-contained HTML report: headline metrics, a heat map of the
// confusion matrix, per-category bars of false-allow and false-deny rates, a latency histogram,
// the per-group tables and the wrong cases with their summary and rationale.
func (r Report) WriteHTML(w io.Writer) error {
	v := htmlView{
		RunLine:         runLine(r.Run, r.Metrics),
		Datasets:        datasetsLine(r.Run.Datasets),
		Statuses:        statusLine(r.Metrics.Statuses),
		Latency:         latencyLine(r.Metrics.LatencyMS),
		Tokens:          fmt.Sprintf("%d in, %d out (%d reviews with token usage)", r.Metrics.Tokens.Input, r.Metrics.Tokens.Output, r.Metrics.Counts.ReviewsWithTokens),
		Heat:            newHeatMap(r.Metrics.Confusion),
		Bars:            newBarChart(r.ByCategory),
		Hist:            newHistogram(r.Cases),
		BreakdownHeader: breakdownHeader(),
	}
	for _, m := range metricRows(r.Metrics) {
		v.Metrics = append(v.Metrics, htmlMetric{m.name, m.value, m.detail})
	}
	for _, b := range r.breakdowns() {
		hb := htmlBreakdown{Title: b.title, Key: b.key}
		for _, name := range sortedGroups(b.groups) {
			hb.Rows = append(hb.Rows, append([]string{clean(name, maxRequestRunes)}, breakdownCells(b.groups[name])...))
		}
		v.Breakdowns = append(v.Breakdowns, hb)
	}
	for _, wc := range r.Wrong() {
		rv := wc.Review
		got := rv.Decision
		if r.Run.Repeat > 1 {
			got += " (repeat " + strconv.Itoa(wc.Repeat) + ")"
		}
		v.Wrong = append(v.Wrong, htmlWrong{
			ID: clean(wc.Case.ID, maxRequestRunes), Expected: wc.Case.Expect.Decision.String(), Got: got,
			Level:    wc.Case.Expect.Level.String() + " → " + orDash(clean(rv.RiskLevel, 20)),
			Category: string(wc.Case.Expect.Category) + " → " + orDash(clean(rv.Category, 60)),
			Status:   clean(rv.Status, 40), Request: clean(wc.Case.Request, maxRequestRunes),
			Summary: clean(rv.Summary, maxRationaleRunes), Rationale: clean(rv.Rationale, maxRationaleRunes),
		})
	}
	if err := htmlTemplate.Execute(w, v); err != nil {
		return fmt.Errorf("write report HTML: %w", err)
	}
	return nil
}

// newHeatMap lays out the confusion matrix: one cell per (labelled, got) pair, shaded by the
// share of the row it holds. Correct cells are green, allows of deny/ask cases red (the error
// that matters most), other errors amber, reviews without a decision grey.
func newHeatMap(c Confusion) heatMap {
	h := heatMap{W: heatLabelW + 4*heatCellW, H: heatHeadH + 3*heatCellH}
	for j, name := range decisionsHeader() {
		h.Headers = append(h.Headers, svgText{X: heatLabelW + j*heatCellW + heatCellW/2, Y: 20, Text: "got " + name, Anchor: "middle"})
	}
	for i, row := range confusionRows(c) {
		y := heatHeadH + i*heatCellH
		h.Headers = append(h.Headers, svgText{X: heatLabelW - 8, Y: y + heatCellH/2 + 5, Text: row.name, Anchor: "end"})
		for j, n := range row.cells {
			share := 0.0
			if row.total > 0 {
				share = float64(n) / float64(row.total)
			}
			rgb := "227,140,30" // amber: a wrong decision
			switch {
			case j == i:
				rgb = "46,160,67" // green: correct
			case j == 3:
				rgb = "110,118,129" // grey: no decision
			case j == 0:
				rgb = "207,34,46" // red: allowed what should have been asked or denied
			}
			alpha := 0.0
			if n > 0 {
				alpha = 0.12 + 0.8*share
			}
			sharePct := dash
			if row.total > 0 {
				sharePct = strconv.FormatFloat(share*100, 'f', 1, 64) + "%"
			}
			x := heatLabelW + j*heatCellW
			h.Cells = append(h.Cells, heatCell{
				X: x + 1, Y: y + 1, W: heatCellW - 2, H: heatCellH - 2,
				Fill:  fmt.Sprintf("rgba(%s,%.3f)", rgb, alpha),
				Count: strconv.Itoa(n), Share: sharePct, TX: x + heatCellW/2, TY: y + heatCellH/2,
				Title: fmt.Sprintf("labelled %s, got %s: %d of %d", row.name, decisionsHeader()[j], n, row.total),
			})
		}
	}
	return h
}

// newBarChart draws, per labelled category, the false-allow rate (red) and the false-deny rate
// (amber) as bars. The axis runs from 0 to the smallest of 10%, 25%, 50% and 100% that holds the
// largest rate, so that small rates stay visible; the axis label says which. A rate with an
// empty denominator has no bar and reads "—".
func newBarChart(groups map[string]Metrics) barChart {
	names := sortedGroups(groups)
	top := 0.0
	for _, m := range groups {
		for _, v := range []*float64{m.FalseAllow, m.FalseDeny} {
			if v != nil {
				top = math.Max(top, *v)
			}
		}
	}
	scale := 1.0
	for _, s := range []float64{0.1, 0.25, 0.5} {
		if top <= s {
			scale = s
			break
		}
	}
	bc := barChart{W: barLabelW + barMaxW + 120, H: 24 + len(names)*barRowH, X0: barLabelW, X100: barLabelW + barMaxW,
		LabelX: barLabelW - 10, AxisMax: strconv.FormatFloat(scale*100, 'f', -1, 64) + "%"}
	for i, name := range names {
		m := groups[name]
		y := 24 + i*barRowH
		row := barRow{Y: y, TextY: y + barH + 5, Name: clean(name, 60), FAY: y + 2, FDY: y + 2 + barH + 2}
		row.FATextY, row.FDTextY = row.FAY+barH-1, row.FDY+barH-1
		width := func(v *float64) int {
			if v == nil {
				return 0
			}
			return max(int(math.Round(*v/scale*barMaxW)), 1)
		}
		row.HasFA, row.HasFD = m.FalseAllow != nil, m.FalseDeny != nil
		row.FAW, row.FDW = width(m.FalseAllow), width(m.FalseDeny)
		row.FALabel = "false_allow " + pct(m.FalseAllow)
		row.FDLabel = "false_deny " + pct(m.FalseDeny)
		row.FALabelX, row.FDLabelX = barLabelW+row.FAW+6, barLabelW+row.FDW+6
		row.FATitle = fmt.Sprintf("%s: %d of %d labelled deny got allow", name, m.Counts.FalseAllow, m.Counts.ExpectedDeny)
		row.FDTitle = fmt.Sprintf("%s: %d of %d labelled allow got deny", name, m.Counts.FalseDeny, m.Counts.ExpectedAllow)
		bc.Rows = append(bc.Rows, row)
	}
	return bc
}

// histEdges returns the lower bucket edges of the latency histogram in milliseconds: a 1-2-5
// series from 1 µs to 50 s, so rule reviews (microseconds) and model reviews (seconds) both
// land in readable buckets. The last bucket is open-ended.
func histEdges() []float64 {
	var e []float64
	for p := -3; p <= 4; p++ {
		for _, m := range []float64{1, 2, 5} {
			e = append(e, m*math.Pow(10, float64(p)))
		}
	}
	return e
}

// histBucket returns the index of the bucket of edges holding ms: the last edge at or below it
// (0 for anything under the first edge).
func histBucket(edges []float64, ms float64) int {
	i := 0
	for j, e := range edges {
		if ms >= e*(1-1e-9) {
			i = j
		}
	}
	return i
}

// newHistogram counts every review's latency into histEdges buckets and draws the buckets
// from the first to the last non-empty one.
func newHistogram(cases []CaseReport) histogram {
	edges := histEdges()
	counts := make([]int, len(edges))
	n := 0
	for _, c := range cases {
		for _, rv := range c.Reviews {
			counts[histBucket(edges, rv.LatencyMS)]++
			n++
		}
	}
	h := histogram{W: histW, H: histH + histBottom, Base: histH}
	if n == 0 {
		h.Empty = true
		return h
	}
	lo, hi, top := len(counts), 0, 0
	for i, c := range counts {
		if c > 0 {
			lo, hi, top = min(lo, i), max(hi, i), max(top, c)
		}
	}
	nb := hi - lo + 1
	bw := histW / max(nb, 1)
	for i := lo; i <= hi; i++ {
		bh := int(math.Round(float64(counts[i]) / float64(top) * (histH - 10)))
		if counts[i] > 0 {
			bh = max(bh, 1)
		}
		x := (i - lo) * bw
		rng := "≥ " + msLabel(edges[i]) + " ms"
		if i+1 < len(edges) {
			rng = msLabel(edges[i]) + "–" + msLabel(edges[i+1]) + " ms"
		}
		h.Bars = append(h.Bars, histBar{X: x + 2, Y: histH - bh, W: bw - 4, H: bh, LabelX: x + bw/2,
			Label: msLabel(edges[i]), Title: fmt.Sprintf("%s: %d reviews", rng, counts[i])})
	}
	return h
}

// msLabel renders a bucket edge compactly: 0.001, 0.5, 20, 5000.
func msLabel(ms float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(ms, 'f', -1, 64), ".0")
}
