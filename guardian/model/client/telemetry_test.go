package client_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/guardianhq/guardian/guardian/model/client"
)

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestTelemetry(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })

	f := newFake(t, func(w http.ResponseWriter, _ *http.Request, n int, _ map[string]any) {
		switch n {
		case 0:
			apiError(w, http.StatusTooManyRequests, "slow down", "")
		case 1:
			writeJSON(w, http.StatusOK, completion(verdictJSON("allow", "low")))
		default:
			apiError(w, http.StatusForbidden, "forbidden", "")
		}
	})
	rev := newReviewer(t, f, client.WithTracerProvider(tp), client.WithMeterProvider(mp))
	if _, err := review(t, rev, 2*time.Second, execRequest("git", "status")); err != nil {
		t.Fatal(err)
	}
	if _, err := review(t, rev, 2*time.Second, execRequest("git", "status")); err == nil {
		t.Fatal("want the 403 to fail")
	}

	spans := sr.Ended()
	if len(spans) != 2 {
		t.Fatalf("spans = %d, want 2", len(spans))
	}
	ok, failed := spans[0], spans[1]
	a := attrs(ok.Attributes())
	if ok.Name() != client.SpanName || a["gen_ai.system"].AsString() != "openai" || a["gen_ai.request.model"].AsString() != "test-model" ||
		a["gen_ai.usage.input_tokens"].AsInt64() != 120 || a["gen_ai.usage.output_tokens"].AsInt64() != 45 ||
		a["guardian.model.attempts"].AsInt64() != 2 || a["gen_ai.response.finish_reasons"].AsStringSlice()[0] != "stop" {
		t.Errorf("ok span: %s %v", ok.Name(), a)
	}
	if ok.Status().Code == codes.Error || len(ok.Events()) != 1 || ok.Events()[0].Name != "retry" {
		t.Errorf("ok span status %v, events %v", ok.Status(), ok.Events())
	}
	if failed.Status().Code != codes.Error || failed.Status().Description != "unavailable" || len(failed.Events()) == 0 || failed.Events()[len(failed.Events())-1].Name != "exception" {
		t.Errorf("failed span: status %v, events %v", failed.Status(), failed.Events())
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	calls := map[string]int64{}
	var tokens, durations int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range d.DataPoints {
					switch m.Name {
					case client.MetricCalls:
						v, _ := dp.Attributes.Value("guardian.model.outcome")
						calls[v.AsString()] += dp.Value
					case client.MetricTokens:
						tokens += dp.Value
					}
				}
			case metricdata.Histogram[float64]:
				for _, dp := range d.DataPoints {
					durations += int64(dp.Count)
					checkDurationBuckets(t, dp)
				}
			}
		}
	}
	if calls["ok"] != 1 || calls["unavailable"] != 1 || tokens != 165 || durations != 2 {
		t.Errorf("calls %v, tokens %d, durations %d", calls, tokens, durations)
	}
}

// checkDurationBuckets checks that the model call durations are bucketed in seconds, from
// tens of milliseconds to a couple of minutes (otel's default 0 … 10000 is for milliseconds),
// and that a call lands inside the boundaries, not in +Inf.
func checkDurationBuckets(t *testing.T, dp metricdata.HistogramDataPoint[float64]) {
	t.Helper()
	b := dp.Bounds
	if len(b) < 5 || b[0] > 0.1 || b[len(b)-1] < 30 || b[len(b)-1] > 300 {
		t.Errorf("%s boundaries %v: want seconds, from at most 0.1 s to between 30 s and 5 min", client.MetricDuration, b)
	}
	if n := len(dp.BucketCounts); n > 0 && dp.BucketCounts[n-1] > 0 {
		t.Errorf("%s: %d calls in +Inf (bounds %v)", client.MetricDuration, dp.BucketCounts[n-1], b)
	}
}
