package evals

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/riskmodel"
)

func TestCompare(t *testing.T) {
	a, k, d := label{allow, low, none}, label{ask, high, none}, label{deny, critical, none}
	g := func(dec riskmodel.Decision) Outcome { return got(dec, low, none) }
	before := NewReport(RunInfo{Reviewer: "rules", Datasets: []DatasetInfo{{Path: "x", SHA256: "1"}}}, []CaseRun{
		run(mkCase("fixed", "", d), g(allow)), // wrong in A, right in B
		run(mkCase("broke", "", a), g(allow)), // right in A, wrong in B
		run(mkCase("moved", "", k), g(allow)), // wrong in both, differently
		run(mkCase("same", "", a), g(allow)),  // unchanged
		run(mkCase("gone", "", a), g(allow)),  // only in A
	})
	after := NewReport(RunInfo{Reviewer: "full", Model: "m", Datasets: []DatasetInfo{{Path: "x", SHA256: "1"}}}, []CaseRun{
		run(mkCase("new", "", a), g(allow)), // only in B
		run(mkCase("fixed", "", d), g(deny)),
		run(mkCase("broke", "", a), g(ask)),
		run(mkCase("moved", "", k), g(deny)),
		run(mkCase("same", "", a), g(allow)),
	})
	c := Compare(before, after, "a.json", "b.json")
	wantFlipped := []FlippedCase{
		{ID: "fixed", Expected: "deny", A: "allow", B: "deny", Change: "fixed"},
		{ID: "broke", Expected: "allow", A: "allow", B: "ask", Change: "broke"},
		{ID: "moved", Expected: "ask", A: "allow", B: "deny", Change: "changed"},
	}
	if d := cmp.Diff(wantFlipped, c.Flipped); d != "" {
		t.Errorf("flipped (-want +got):\n%s", d)
	}
	if !slices.Equal(c.OnlyInA, []string{"gone"}) || !slices.Equal(c.OnlyInB, []string{"new"}) || !c.SameDatasets {
		t.Errorf("only in A %v, only in B %v, same datasets %v", c.OnlyInA, c.OnlyInB, c.SameDatasets)
	}
	diffs := map[string]MetricDiff{}
	for _, md := range c.Metrics {
		diffs[md.Name] = md
	}
	// A: 5 reviews, correct broke+same+gone = 3 → 0.6. B: correct new+fixed+same = 3 of 5 → 0.6.
	// false_allow: A 1/1 (fixed got allow), B 0/1 → delta −1.
	checkRate(t, "accuracy delta", diffs["accuracy"].Delta, f64(0))
	checkRate(t, "false_allow.a", diffs["false_allow"].A, f64(1))
	checkRate(t, "false_allow delta", diffs["false_allow"].Delta, f64(-1))
	// flip_rate is null on both sides: so is its delta.
	checkRate(t, "flip_rate delta", diffs["flip_rate"].Delta, nil)

	for _, f := range []Format{FormatTable, FormatMarkdown, FormatJSON} {
		var buf bytes.Buffer
		if err := c.Render(&buf, f); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, want := range []string{"false_allow", "fixed", "broke", "moved"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s comparison lacks %q:\n%s", f, want, out)
			}
		}
		if f == FormatJSON && !json.Valid(buf.Bytes()) {
			t.Errorf("invalid JSON comparison")
		}
	}
	if err := c.Render(&bytes.Buffer{}, FormatHTML); err == nil {
		t.Error("compare rendered HTML, which it does not support")
	}
}

func TestCompareWarnsOnDifferentDatasets(t *testing.T) {
	a := NewReport(RunInfo{Datasets: []DatasetInfo{{SHA256: "1"}}}, nil)
	b := NewReport(RunInfo{Datasets: []DatasetInfo{{SHA256: "2"}}}, nil)
	var buf bytes.Buffer
	if err := Compare(a, b, "a", "b").Render(&buf, FormatTable); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "different datasets") {
		t.Errorf("no warning:\n%s", buf.String())
	}
}

// TestCompareShowsPercentages: the human formats print each rate as a percentage with the
// counts behind it, and its change in percentage points — not raw fractions like 0.333333.
func TestCompareShowsPercentages(t *testing.T) {
	a, d := label{allow, low, none}, label{deny, critical, none}
	g := func(dec riskmodel.Decision) Outcome { return got(dec, low, none) }
	ds := []DatasetInfo{{Path: "x", SHA256: "1"}}
	before := NewReport(RunInfo{Reviewer: "rules", Datasets: ds}, []CaseRun{
		run(mkCase("d1", "", d), g(allow)), run(mkCase("d2", "", d), g(deny)), run(mkCase("d3", "", d), g(deny)),
		run(mkCase("a1", "", a), g(allow)),
	})
	after := NewReport(RunInfo{Reviewer: "rules", Datasets: ds}, []CaseRun{
		run(mkCase("d1", "", d), g(deny)), run(mkCase("d2", "", d), g(deny)), run(mkCase("d3", "", d), g(deny)),
		run(mkCase("a1", "", a), g(allow)),
	})
	c := Compare(before, after, "a.json", "b.json")
	for _, f := range []Format{FormatTable, FormatMarkdown} {
		var buf bytes.Buffer
		if err := c.Render(&buf, f); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, want := range []string{"33.3% (1 of 3)", "0.0% (0 of 3)", "-33.3 pp", "75.0% (3 of 4)", "100.0% (4 of 4)", "+25.0 pp"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s comparison lacks %q:\n%s", f, want, out)
			}
		}
		for _, raw := range []string{"0.333333", "0.75 ", "-0.333333"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s comparison prints the raw fraction %q:\n%s", f, raw, out)
			}
		}
	}
	// The JSON form keeps the fractions: it is for programs.
	var buf bytes.Buffer
	if err := c.Render(&buf, FormatJSON); err != nil || !strings.Contains(buf.String(), `"a": 0.333333`) {
		t.Errorf("JSON comparison: %v\n%s", err, buf.String())
	}
}
