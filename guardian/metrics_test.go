package guardian

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/guardianhq/guardian/riskmodel"
)

func collect(t *testing.T, r *sdkmetric.ManualReader) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != meterName {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

func TestMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	rev := newFuncReviewer(failing(StatusUnavailable))
	p := newPipeline(t, WithMeterProvider(mp), WithReviewer(rev), WithCache(time.Hour, 8, "v"),
		WithModelBreaker(ModelBreakerConfig{Failures: 1}), WithDenialsBreaker(DenialsBreakerConfig{Consecutive: 3, Window: -1}))
	for _, cmd := range []string{"rm -rf ~/", "rm -rf ~/", "ls", "frobnicate", "frobnicate"} {
		if _, err := p.Review(context.Background(), execReq(cmd)); err != nil {
			t.Fatal(err)
		}
	}
	got := collect(t, reader)

	type key struct{ decision, status, by string }
	want := map[key]int64{
		{"deny", "rule", "rule"}:           1,
		{"deny", "cached", "cache"}:        1,
		{"allow", "rule", "rule"}:          1,
		{"ask", "unavailable", "fallback"}: 1,
		{"ask", "breaker_open", "breaker"}: 1,
	}
	sum, ok := got[MetricDecisions].(metricdata.Sum[int64])
	if !ok || !sum.IsMonotonic {
		t.Fatalf("%s: %T", MetricDecisions, got[MetricDecisions])
	}
	seen := map[key]int64{}
	for _, dp := range sum.DataPoints {
		if dp.Attributes.Len() != 3 {
			t.Errorf("want exactly decision, status and decided_by: %v", dp.Attributes.ToSlice())
		}
		v := func(k string) string { x, _ := dp.Attributes.Value(attribute.Key(k)); return x.AsString() }
		seen[key{v("decision"), v("status"), v("decided_by")}] += dp.Value
	}
	if len(seen) != len(want) {
		t.Errorf("series %v, want %v", seen, want)
	}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("%+v: %d, want %d", k, seen[k], n)
		}
	}

	hist, ok := got[MetricReviewDuration].(metricdata.Histogram[float64])
	if !ok {
		t.Fatalf("%s: %T", MetricReviewDuration, got[MetricReviewDuration])
	}
	var count uint64
	for _, dp := range hist.DataPoints {
		count += dp.Count
	}
	if count != 5 {
		t.Errorf("duration recorded %d times, want 5", count)
	}

	gauge, ok := got[MetricBreakerState].(metricdata.Gauge[int64])
	if !ok {
		t.Fatalf("%s: %T", MetricBreakerState, got[MetricBreakerState])
	}
	states := map[string]int64{}
	for _, dp := range gauge.DataPoints {
		b, _ := dp.Attributes.Value("breaker")
		states[b.AsString()] = dp.Value
	}
	if states["denials"] != int64(CircuitClosed) || states["model"] != int64(CircuitOpen) || len(states) != 2 {
		t.Errorf("breaker gauge %v", states)
	}

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if g, ok := collect(t, reader)[MetricBreakerState].(metricdata.Gauge[int64]); ok && len(g.DataPoints) != 0 {
		t.Errorf("gauge still observed after Close: %v", g.DataPoints)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestMetricsDefaultProviderIsNoop(t *testing.T) {
	p := newPipeline(t) // the global provider: a no-op unless a program installs one
	if res, err := p.Review(context.Background(), execReq("ls")); err != nil || res.Decision != riskmodel.Allow {
		t.Fatalf("%+v %v", res, err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestDeciderKind(t *testing.T) {
	for s, want := range map[Status]string{StatusRule: "rule", StatusOK: "model", StatusCached: "cache", StatusBreakerOpen: "breaker",
		StatusTimeout: "fallback", StatusUnavailable: "fallback", StatusBadOutput: "fallback", StatusAgentPolicy: "agent_policy", "weird": "other"} {
		if got := deciderKind(s); got != want {
			t.Errorf("%s: %s, want %s", s, got, want)
		}
	}
}
