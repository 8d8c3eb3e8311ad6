package evals

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/guardianhq/guardian/riskmodel"
)

// allRightReport is a run in which every case got its label: nothing is wrong.
func allRightReport() Report {
	a, k, d := label{allow, low, none}, label{ask, high, riskmodel.CatNetworkEgress}, label{deny, critical, deletion}
	var runs []CaseRun
	for i, l := range []label{a, a, a, k, k, d, d, d, d} {
		runs = append(runs, run(mkCase("case-"+strconv.Itoa(i), "", l), got(l.d, l.l, l.c)))
	}
	return NewReport(RunInfo{Reviewer: "rules", Repeat: 1, Datasets: []DatasetInfo{{Path: "x.jsonl", Cases: len(runs)}}}, runs)
}

func parsePage(t *testing.T, r Report) *html.Node {
	t.Helper()
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestHTMLNothingWrong: when no category has a false allow or a false deny the page says so
// in a sentence, instead of drawing a wall of empty bars labelled 0.0%.
func TestHTMLNothingWrong(t *testing.T) {
	doc := parsePage(t, allRightReport())
	if byID(doc, "category-errors") != nil {
		t.Error("the category chart is drawn although nothing is wrong")
	}
	n := byID(doc, "category-errors-none")
	if n == nil || !strings.HasPrefix(text(n), "None: no labelled category has a false allow") {
		t.Fatalf("no 'none' statement for the category errors")
	}
	// The golden report has errors in some categories: the others get no empty bars either.
	bars := byID(parsePage(t, goldenReport()), "category-errors")
	for _, r := range elements(bars, "rect", "") {
		if attr(r, "width") == "0" || attr(r, "width") == "1" {
			t.Errorf("a bar %s wide stands for a zero rate", attr(r, "width"))
		}
	}
}

// TestHTMLConfusionContrast: every label on a confusion-matrix cell has a contrast ratio of at
// least 4.5:1 with the cell's shade (WCAG 2 AA for normal text), for every hue and share.
func TestHTMLConfusionContrast(t *testing.T) {
	hex := regexp.MustCompile(`^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$`)
	rgb := func(s string) [3]float64 {
		m := hex.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("colour %q is not #rrggbb", s)
		}
		var c [3]float64
		for i := range c {
			v, _ := strconv.ParseUint(m[i+1], 16, 8)
			c[i] = float64(v)
		}
		return c
	}
	if got := contrast([3]float64{0, 0, 0}, [3]float64{255, 255, 255}); got < 20.99 || got > 21.01 {
		t.Fatalf("contrast(black, white) = %v, want 21", got)
	}
	for _, r := range []Report{goldenReport(), allRightReport()} {
		cells := elements(byID(parsePage(t, r), "confusion-matrix"), "g", "cell")
		if len(cells) != 12 {
			t.Fatalf("%d cells", len(cells))
		}
		for _, c := range cells {
			bg := rgb(attr(elements(c, "rect", "")[0], "fill"))
			for _, tx := range elements(c, "text", "") {
				ink := rgb(strings.TrimPrefix(strings.SplitN(attr(tx, "style"), ";", 2)[0], "fill:"))
				if cr := contrast(ink, bg); cr < 4.5 {
					t.Errorf("cell %q: text %q on %s has contrast %.2f:1, below 4.5:1", text(elements(c, "title", "")[0]), text(tx), attr(elements(c, "rect", "")[0], "fill"), cr)
				}
			}
		}
	}
	// Every shade a cell can take.
	for _, hue := range [][3]float64{{46, 160, 67}, {227, 140, 30}, {87, 96, 106}, {207, 34, 46}} {
		for a := 0.0; a <= 0.921; a += 0.01 {
			bg := overWhite(hue, a)
			ink := [3]float64{0, 0, 0}
			if inkOn(bg) == "#ffffff" {
				ink = [3]float64{255, 255, 255}
			}
			if cr := contrast(ink, bg); cr < 4.5 {
				t.Errorf("hue %v at %.2f: contrast %.2f:1", hue, a, cr)
			}
		}
	}
}

// TestHTMLHistogramAxes: the latency histogram has a y axis with ticks from 0 to at least the
// tallest bar's count, and both axes are titled.
func TestHTMLHistogramAxes(t *testing.T) {
	r := goldenReport()
	hist := byID(parsePage(t, r), "latency-histogram")
	var ticks []int
	for _, g := range elements(hist, "g", "y-tick") {
		n, err := strconv.Atoi(text(g))
		if err != nil {
			t.Fatalf("tick label %q", text(g))
		}
		ticks = append(ticks, n)
	}
	top := 0
	re := regexp.MustCompile(`: (\d+) reviews$`)
	for _, g := range elements(hist, "g", "bar") {
		n, _ := strconv.Atoi(re.FindStringSubmatch(text(elements(g, "title", "")[0]))[1])
		top = max(top, n)
	}
	if len(ticks) < 2 || ticks[0] != 0 || ticks[len(ticks)-1] < top {
		t.Errorf("y ticks %v do not span 0 to the tallest bar (%d)", ticks, top)
	}
	if byID(hist, "y-axis") == nil || byID(hist, "x-axis") == nil {
		t.Error("an axis line is missing")
	}
	all := text(hist)
	for _, want := range []string{"reviews", "latency, ms"} {
		if !strings.Contains(all, want) {
			t.Errorf("the histogram lacks the axis title %q", want)
		}
	}
	for _, tt := range []struct{ n, want int }{{1, 1}, {2, 2}, {3, 3}, {7, 8}, {9, 10}, {11, 15}, {16, 20}, {134, 150}, {225, 250}, {457, 500}, {801, 1000}} {
		if got := niceCeil(tt.n); got != tt.want {
			t.Errorf("niceCeil(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestHTMLProvenance: the page says which config, reviewer, model and build produced it.
func TestHTMLProvenance(t *testing.T) {
	n := byID(parsePage(t, goldenReport()), "provenance")
	if n == nil {
		t.Fatal("no provenance table")
	}
	for _, want := range []string{"/home/dev/.config/guardian/config.toml", "sha256 " + strings.Repeat("cd", 32), "reviewer", "full", "model", "test", "replayed answers", "guardian (devel) go1.26"} {
		if !strings.Contains(text(n), want) {
			t.Errorf("provenance lacks %q: %s", want, text(n))
		}
	}
	n = byID(parsePage(t, allRightReport()), "provenance")
	if !strings.Contains(text(n), "no config file was read") {
		t.Errorf("a run without a config: %s", text(n))
	}
}

func TestYTicks(t *testing.T) {
	for _, tt := range []struct {
		top  int
		want string
	}{{1, "0 1"}, {3, "0 1 2 3"}, {5, "0 1 2 3 4 5"}, {8, "0 2 4 6 8"}, {15, "0 3 6 9 12 15"}, {250, "0 50 100 150 200 250"}, {1000, "0 200 400 600 800 1000"}} {
		var got []string
		for _, v := range yTicks(tt.top) {
			got = append(got, strconv.Itoa(v))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("yTicks(%d) = %v, want %s", tt.top, got, tt.want)
		}
	}
}
