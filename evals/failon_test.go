package evals

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFailOn(t *testing.T) {
	tests := []struct {
		in   string
		want FailOn
	}{
		{"", nil},
		{"false_allow>0", FailOn{{"false_allow", ">", 0}}},
		{" false_allow > 0 , ask_rate_on_allow>=0.15 ", FailOn{{"false_allow", ">", 0}, {"ask_rate_on_allow", ">=", 0.15}}},
		{"accuracy<0.9,accuracy<=0.95,statuses.timeout==0", FailOn{{"accuracy", "<", 0.9}, {"accuracy", "<=", 0.95}, {"statuses.timeout", "==", 0}}},
		{"latency_ms.p95>2e3,confusion.deny.allow>0", FailOn{{"latency_ms.p95", ">", 2000}, {"confusion.deny.allow", ">", 0}}},
	}
	for _, tc := range tests {
		got, err := ParseFailOn(tc.in)
		if err != nil {
			t.Errorf("ParseFailOn(%q): %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("ParseFailOn(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

func TestParseFailOnErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"false_allow", "has no comparison"},
		{"false_allow=>0", "unknown comparison"},
		{"false_allow>", "not a finite number"},
		{"false_allow>NaN", "not a finite number"},
		{"false_allow>1,", "empty condition"},
		{">0", "names no metric"},
		{"false_alow>0", `unknown metric "false_alow"; known metrics: reviews, cases, accuracy, false_allow,`},
	}
	for _, tc := range tests {
		_, err := ParseFailOn(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFailOn(%q) error %v, want it to contain %q", tc.in, err, tc.want)
		}
	}
	var ue *UnknownMetricError
	if _, err := ParseFailOn("nope>1"); !errors.As(err, &ue) || ue.Metric != "nope" {
		t.Errorf("unknown metric error %v, want *UnknownMetricError for nope", err)
	}
}

// TestMetricNamesAreTheJSONNames: --fail-on names are exactly the report's JSON names.
func TestMetricNamesAreTheJSONNames(t *testing.T) {
	names := MetricNames()
	for _, want := range []string{"false_allow", "false_allow_any", "false_deny", "ask_rate_on_allow", "accuracy", "level_accuracy",
		"level_mae", "category_accuracy", "flip_rate", "cost", "counts.false_allow", "confusion.deny.allow", "statuses.timeout",
		"statuses.replay_miss", "latency_ms.p95", "tokens.input"} {
		if !slices.Contains(names, want) {
			t.Errorf("MetricNames lacks %s", want)
		}
	}
	if names[0] != "reviews" {
		t.Errorf("names start with %s, want the JSON order (reviews first)", names[0])
	}
}

func TestFailOnCheck(t *testing.T) {
	// decisionSet: false_allow 1/3, ask_rate_on_allow 1/4, accuracy 0.4; flip_rate null.
	m := Compute(decisionSet(), nil)
	fo, err := ParseFailOn("false_allow>0,ask_rate_on_allow>0.3,accuracy<0.5,counts.false_deny==1,flip_rate>0")
	if err != nil {
		t.Fatal(err)
	}
	failed, skipped := fo.Check(m)
	var got []string
	for _, f := range failed {
		got = append(got, f.String())
	}
	want := []string{
		"false_allow>0 holds: false_allow = 0.333333",
		"accuracy<0.5 holds: accuracy = 0.4",
		"counts.false_deny==1 holds: counts.false_deny = 1",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
	if len(skipped) != 1 || skipped[0].Metric != "flip_rate" {
		t.Errorf("skipped %v, want flip_rate (null without --repeat)", skipped)
	}
}
