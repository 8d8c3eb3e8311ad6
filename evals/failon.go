package evals

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Condition is one clause of --fail-on: a metric, a comparison and a threshold. The run fails
// when the condition holds.
type Condition struct {
	// Metric is the metric's JSON name in the report's "metrics" object; nested values use
	// dots: "false_allow", "statuses.timeout", "latency_ms.p95", "confusion.deny.allow".
	Metric string
	// Op is one of > >= < <= ==.
	Op        string
	Threshold float64
}

// String renders the condition as it is written on the command line.
func (c Condition) String() string {
	return c.Metric + c.Op + strconv.FormatFloat(c.Threshold, 'g', -1, 64)
}

// holds reports whether v satisfies the condition.
func (c Condition) holds(v float64) bool {
	switch c.Op {
	case ">":
		return v > c.Threshold
	case ">=":
		return v >= c.Threshold
	case "<":
		return v < c.Threshold
	case "<=":
		return v <= c.Threshold
	case "==":
		return v == c.Threshold
	}
	return false
}

// FailOn is a parsed --fail-on expression: the run fails when any condition holds.
type FailOn []Condition

// UnknownMetricError is a --fail-on clause naming a metric the report does not have; Known
// lists the names that exist, so the message can say what to write instead.
type UnknownMetricError struct {
	Metric string
	Known  []string
}

// Error names the metric and lists the known ones.
func (e *UnknownMetricError) Error() string {
	return fmt.Sprintf("--fail-on: unknown metric %q; known metrics: %s", e.Metric, strings.Join(e.Known, ", "))
}

// ParseFailOn parses "metric OP number[,metric OP number…]". Spaces around the parts are
// allowed. A metric that does not exist is an *UnknownMetricError; any other malformed clause
// is an error quoting the clause and the expected form.
func ParseFailOn(expr string) (FailOn, error) {
	if strings.TrimSpace(expr) == "" {
		return nil, nil
	}
	_, known := flattenMetrics(Metrics{})
	var out FailOn
	for _, clause := range strings.Split(expr, ",") {
		clause = strings.TrimSpace(clause)
		c, err := parseCondition(clause)
		if err != nil {
			return nil, err
		}
		if _, ok := known[c.Metric]; !ok {
			names, _ := flattenMetrics(Metrics{})
			return nil, &UnknownMetricError{Metric: c.Metric, Known: names}
		}
		out = append(out, c)
	}
	return out, nil
}

func parseCondition(clause string) (Condition, error) {
	form := "want METRIC OP NUMBER with OP one of > >= < <= ==, e.g. false_allow>0"
	if clause == "" {
		return Condition{}, fmt.Errorf("--fail-on: empty condition (a stray comma?): %s", form)
	}
	i := strings.IndexAny(clause, "<>=")
	if i < 0 {
		return Condition{}, fmt.Errorf("--fail-on: %q has no comparison: %s", clause, form)
	}
	var op string
	// Two-character operators first, so ">=" is not read as ">".
	for _, o := range []string{">=", "<=", "==", ">", "<"} {
		if strings.HasPrefix(clause[i:], o) {
			op = o
			break
		}
	}
	if op == "" {
		return Condition{}, fmt.Errorf("--fail-on: %q: unknown comparison at %q: %s", clause, clause[i:], form)
	}
	metric := strings.TrimSpace(clause[:i])
	num := strings.TrimSpace(clause[i+len(op):])
	if metric == "" {
		return Condition{}, fmt.Errorf("--fail-on: %q names no metric: %s", clause, form)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Condition{}, fmt.Errorf("--fail-on: %q: threshold %q is not a finite number: %s", clause, num, form)
	}
	return Condition{Metric: metric, Op: op, Threshold: v}, nil
}

// Failure is a condition that holds, with the metric's value.
type Failure struct {
	Condition Condition
	Value     float64
}

// String says which condition failed and with what value, for the error message.
func (f Failure) String() string {
	return fmt.Sprintf("%s holds: %s = %s", f.Condition, f.Condition.Metric, strconv.FormatFloat(f.Value, 'g', -1, 64))
}

// Check evaluates the conditions on m. A condition on a null metric (an empty denominator)
// cannot hold; it is returned in skipped so the caller can say so rather than pass silently.
func (f FailOn) Check(m Metrics) (failed []Failure, skipped []Condition) {
	_, values := flattenMetrics(m)
	for _, c := range f {
		v := values[c.Metric]
		switch {
		case v == nil:
			skipped = append(skipped, c)
		case c.holds(*v):
			failed = append(failed, Failure{Condition: c, Value: *v})
		}
	}
	return failed, skipped
}

// MetricNames returns every name --fail-on accepts, in the report's key order.
func MetricNames() []string {
	names, _ := flattenMetrics(Metrics{})
	return names
}

// flattenMetrics walks m's JSON form and returns the dotted name of every number (or null) in
// key order, and their values (nil for null). Going through the JSON keeps the names exactly
// the report's, by construction.
func flattenMetrics(m Metrics) ([]string, map[string]*float64) {
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("evals: marshal metrics: %v", err)) // plain numbers only: cannot fail
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var names []string
	values := map[string]*float64{}
	var walk func(path string)
	walk = func(path string) {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		switch t := tok.(type) {
		case json.Delim: // Metrics has objects but no arrays
			for dec.More() {
				key, _ := dec.Token()
				k, _ := key.(string)
				if path != "" {
					k = path + "." + k
				}
				walk(k)
			}
			_, _ = dec.Token() // the closing brace
		case json.Number:
			f, _ := t.Float64()
			names = append(names, path)
			values[path] = &f
		case nil:
			names = append(names, path)
			values[path] = nil
		}
	}
	walk("")
	return names, values
}
