package mcp

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestTelemetry: forwarded calls, gate reviews and elicitations are spans, and are counted by
// upstream and outcome on the injected providers.
func TestTelemetry(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	d, _ := rulesDecider(t)
	p, err := New(context.Background(), d, []Upstream{gated("fx", "tools")}, WithTracerProvider(tp), WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	// The gate asks about elicit (its effect is unknown); the host accepts.
	c := connectStdio(t, p, hostOpts(legacyHost, &host{answer: answerWith("accept", nil)})...)
	callTool(t, c, "echo", map[string]any{"message": "hi"})
	callTool(t, c, "delete_repo", map[string]any{"repo": "acme/app"})
	callTool(t, c, "elicit", map[string]any{"message": "m", "meta": approvalMeta("read_file", map[string]any{"path": "x"})})

	names := map[string]int{}
	for _, s := range spans.GetSpans() {
		names[s.Name]++
	}
	if names["mcp.tools/call"] != 3 || names["mcp.gate"] != 3 || names["mcp.elicitation"] != 1 {
		t.Errorf("spans = %v", names)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok {
				continue
			}
			for _, dp := range sum.DataPoints {
				got[m.Name+" "+attr(dp.Attributes, "outcome")] += dp.Value
			}
		}
	}
	want := map[string]int64{
		MetricToolCalls + " forwarded": 2, // echo, and elicit (allowed by the gate)
		MetricToolCalls + " denied":    1,
		MetricElicitations + " allow":  1,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
}

func attr(s attribute.Set, key string) string {
	v, _ := s.Value(attribute.Key(key))
	return v.AsString()
}
