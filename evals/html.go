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

	histW      = 640 // the plot, right of the y axis
	histH      = 180
	histLeft   = 56 // the y axis: its tick labels and title
	histBottom = 48 // the x axis: bucket labels and title
)

// htmlView is what the template renders; every field is plain data computed here.
type htmlView struct {
	RunLine, Datasets string
	Provenance        []htmlMetric // what produced the run: config, reviewer, model, build
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
	Fill       string // opaque: the shade over the white page, so its contrast is known
	Ink        string // the text colour: whichever of dark and white contrasts more with Fill
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
	// None: no category has a false allow or a false deny; the chart gives way to a sentence.
	None bool
	// Clean are the categories without either error, named under the chart instead of drawn
	// as rows of empty bars.
	Clean []string
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
	Left  int // x of the y axis
	Base  int // y of the x axis
	Right int // x where the plot ends
	Bars  []histBar
	Ticks []histTick // the y axis: review counts, with grid lines
	Empty bool
	// YTitleX, YTitleY place the rotated y-axis title; XTitleX, XTitleY the x-axis title.
	YTitleX, YTitleY, XTitleX, XTitleY int
}

type histTick struct {
	Y     int
	Label string
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
		Provenance:      provenanceRows(r.Run),
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
			rgb := [3]float64{227, 140, 30} // amber: a wrong decision
			switch {
			case j == i:
				rgb = [3]float64{46, 160, 67} // green: correct
			case j == 3:
				rgb = [3]float64{87, 96, 106} // grey: no decision
			case j == 0:
				rgb = [3]float64{207, 34, 46} // red: allowed what should have been asked or denied
			}
			alpha := 0.0
			if n > 0 {
				alpha = 0.12 + 0.8*share
			}
			fill := overWhite(rgb, alpha)
			sharePct := dash
			if row.total > 0 {
				sharePct = strconv.FormatFloat(share*100, 'f', 1, 64) + "%"
			}
			x := heatLabelW + j*heatCellW
			h.Cells = append(h.Cells, heatCell{
				X: x + 1, Y: y + 1, W: heatCellW - 2, H: heatCellH - 2,
				Fill: hexColor(fill), Ink: inkOn(fill),
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
	positive := func(v *float64) bool { return v != nil && *v > 0 }
	var names []string
	var cleanNames []string
	for _, name := range sortedGroups(groups) {
		if m := groups[name]; positive(m.FalseAllow) || positive(m.FalseDeny) {
			names = append(names, name)
		} else {
			cleanNames = append(cleanNames, clean(name, 60))
		}
	}
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
		LabelX: barLabelW - 10, AxisMax: strconv.FormatFloat(scale*100, 'f', -1, 64) + "%",
		None: len(names) == 0, Clean: cleanNames}
	for i, name := range names {
		m := groups[name]
		y := 24 + i*barRowH
		row := barRow{Y: y, TextY: y + barH + 5, Name: clean(name, 60), FAY: y + 2, FDY: y + 2 + barH + 2}
		row.FATextY, row.FDTextY = row.FAY+barH-1, row.FDY+barH-1
		width := func(v *float64) int {
			if !positive(v) {
				return 0
			}
			return max(int(math.Round(*v/scale*barMaxW)), 1)
		}
		row.HasFA, row.HasFD = positive(m.FalseAllow), positive(m.FalseDeny)
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
	h := histogram{W: histLeft + histW + 8, H: 8 + histH + histBottom, Left: histLeft, Base: 8 + histH, Right: histLeft + histW,
		YTitleX: 14, YTitleY: 8 + histH/2, XTitleX: histLeft + histW/2, XTitleY: 8 + histH + 38}
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
	axisTop := niceCeil(top)
	for _, v := range yTicks(axisTop) {
		h.Ticks = append(h.Ticks, histTick{Y: h.Base - int(math.Round(float64(v)/float64(axisTop)*histH)), Label: strconv.Itoa(v)})
	}
	for i := lo; i <= hi; i++ {
		bh := int(math.Round(float64(counts[i]) / float64(axisTop) * histH))
		if counts[i] > 0 {
			bh = max(bh, 1)
		}
		x := histLeft + (i-lo)*bw
		rng := "≥ " + msLabel(edges[i]) + " ms"
		if i+1 < len(edges) {
			rng = msLabel(edges[i]) + "–" + msLabel(edges[i+1]) + " ms"
		}
		h.Bars = append(h.Bars, histBar{X: x + 2, Y: h.Base - bh, W: bw - 4, H: bh, LabelX: x + bw/2,
			Label: msLabel(edges[i]), Title: fmt.Sprintf("%s: %d reviews", rng, counts[i])})
	}
	return h
}

// msLabel renders a bucket edge compactly: 0.001, 0.5, 20, 5000.
func msLabel(ms float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(ms, 'f', -1, 64), ".0")
}

// niceCeil is the top of the y axis for a tallest bar of n (n ≥ 1): the smallest whole 1,
// 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k at or above it, so the bar fills most of the plot.
func niceCeil(n int) int {
	for p := 1; ; p *= 10 {
		for _, tenths := range []int{10, 15, 20, 25, 30, 40, 50, 60, 80} {
			if v := tenths * p; v%10 == 0 && v/10 >= n {
				return v / 10
			}
		}
	}
}

// yTicks are the y-axis ticks from 0 to top (a niceCeil value): five or fewer, evenly spaced.
func yTicks(top int) []int {
	step := top
	if top <= 5 {
		step = 1 // every count, when there are few
	}
	for _, div := range []int{5, 4, 2} {
		if step < top {
			break
		}
		if top%div == 0 && top/div >= 1 {
			step = top / div
			break
		}
	}
	var out []int
	for v := 0; v <= top; v += step {
		out = append(out, v)
	}
	return out
}

// provenanceRows say what produced the run, for the page's header table.
func provenanceRows(info RunInfo) []htmlMetric {
	cfg := htmlMetric{Name: "config", Value: "none", Detail: "no config file was read: the built-in defaults"}
	if c := info.Config; c != nil {
		cfg = htmlMetric{Name: "config", Value: clean(c.Path, maxRequestRunes), Detail: "sha256 " + clean(c.SHA256, 80)}
	}
	model, answers := dash, ""
	if info.Model != "" {
		model, answers = clean(info.Model, 100), clean(info.ModelAnswers, 20)
		if answers != "" {
			answers += " answers"
		}
	}
	return []htmlMetric{
		cfg,
		{Name: "reviewer", Value: clean(info.Reviewer, 20), Detail: map[string]string{"rules": "the rule reviewer alone", "full": "the configured pipeline"}[info.Reviewer]},
		{Name: "model", Value: model, Detail: answers},
		{Name: "guardian", Value: orDash(clean(info.GuardianVersion, 100)), Detail: "started " + orDash(clean(info.StartedAt, 40))},
	}
}

// WCAG 2 colour arithmetic, so that every label on a shaded cell keeps a contrast ratio of
// at least 4.5:1 (level AA for normal text) whatever the shade.

// The text colours of shaded cells: black and white, because between them every background
// gets at least 4.58:1 (the page's #1f2328 and white leave a band of mid tones below 4.5).
var (
	inkDark  = [3]float64{0, 0, 0}
	inkLight = [3]float64{0xff, 0xff, 0xff}
)

// overWhite is rgb at opacity alpha over the white page.
func overWhite(rgb [3]float64, alpha float64) [3]float64 {
	var out [3]float64
	for i, c := range rgb {
		out[i] = math.Round(c*alpha + 255*(1-alpha))
	}
	return out
}

func hexColor(c [3]float64) string {
	return fmt.Sprintf("#%02x%02x%02x", int(c[0]), int(c[1]), int(c[2]))
}

// luminance is the WCAG relative luminance of an sRGB colour.
func luminance(c [3]float64) float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
}

// contrast is the WCAG contrast ratio of two colours, 1 to 21.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// inkOn is the text colour for a background: dark or white, whichever contrasts more.
func inkOn(bg [3]float64) string {
	if contrast(inkDark, bg) >= contrast(inkLight, bg) {
		return hexColor(inkDark)
	}
	return hexColor(inkLight)
}
