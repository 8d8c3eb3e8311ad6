package client

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// InstrumentationName is the otel instrumentation scope of this package's spans and metrics.
const InstrumentationName = "github.com/guardianhq/guardian/guardian/model/client"

// SpanName is the name of the span around one model call (all its attempts).
const SpanName = "guardian.model.chat"

// Metric names. The counters and the histogram carry the outcome (ok, timeout, unavailable,
// bad_output) and the response format, so a dashboard can tell a slow model from a broken one.
const (
	MetricCalls    = "guardian.model.calls"
	MetricDuration = "guardian.model.call.duration"
	MetricTokens   = "guardian.model.tokens"
)

// GenAI semantic-convention attribute keys (and guardian's own), spelt out here rather than
// taken from a semconv package whose GenAI keys are still experimental and move between
// versions.
const (
	attrSystem        = attribute.Key("gen_ai.system")
	attrOperation     = attribute.Key("gen_ai.operation.name")
	attrRequestModel  = attribute.Key("gen_ai.request.model")
	attrResponseModel = attribute.Key("gen_ai.response.model")
	attrTemperature   = attribute.Key("gen_ai.request.temperature")
	attrSeed          = attribute.Key("gen_ai.request.seed")
	attrMaxTokens     = attribute.Key("gen_ai.request.max_tokens")
	attrInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	attrOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	attrFinish        = attribute.Key("gen_ai.response.finish_reasons")
	attrTokenType     = attribute.Key("gen_ai.token.type")
	attrAttempts      = attribute.Key("guardian.model.attempts")
	attrFormat        = attribute.Key("guardian.model.response_format")
	attrOutcome       = attribute.Key("guardian.model.outcome")
	attrTemplate      = attribute.Key("guardian.prompt.template")
)

// durationBuckets are the boundaries, in seconds, of MetricDuration: a model review takes
// 0.2–30 s with its retries and waits, a fast local model tens of milliseconds, and a call
// never outlasts its timeout (at most 60 s). otel's default boundaries (0, 5, 10 … 10000) are
// meant for milliseconds; on this seconds metric they put every call in one or two buckets.
var durationBuckets = []float64{0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120}

// telemetry holds the instruments, created once per Reviewer from the configured providers
// (the otel globals by default, which are no-ops unless the process installed an SDK).
type telemetry struct {
	tracer   trace.Tracer
	calls    metric.Int64Counter
	duration metric.Float64Histogram
	tokens   metric.Int64Counter
}

func newTelemetry(tp trace.TracerProvider, mp metric.MeterProvider) (*telemetry, error) {
	m := mp.Meter(InstrumentationName)
	calls, err := m.Int64Counter(MetricCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Model review calls, by outcome (ok, timeout, unavailable, bad_output) and response format."))
	if err != nil {
		return nil, fmt.Errorf("model telemetry: %s: %w", MetricCalls, err)
	}
	duration, err := m.Float64Histogram(MetricDuration, metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(durationBuckets...),
		metric.WithDescription("Duration of model review calls, all attempts and waits included."))
	if err != nil {
		return nil, fmt.Errorf("model telemetry: %s: %w", MetricDuration, err)
	}
	tokens, err := m.Int64Counter(MetricTokens, metric.WithUnit("{token}"),
		metric.WithDescription("Tokens used by model reviews, by gen_ai.token.type (input, output)."))
	if err != nil {
		return nil, fmt.Errorf("model telemetry: %s: %w", MetricTokens, err)
	}
	return &telemetry{tracer: tp.Tracer(InstrumentationName), calls: calls, duration: duration, tokens: tokens}, nil
}

// record adds one finished call to the metrics.
func (t *telemetry) record(ctx context.Context, base []attribute.KeyValue, outcome string, format ResponseFormat, d time.Duration, u Usage) {
	attrs := append(append([]attribute.KeyValue(nil), base...), attrOutcome.String(outcome), attrFormat.String(string(format)))
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	t.calls.Add(ctx, 1, set)
	t.duration.Record(ctx, d.Seconds(), set)
	if u.InputTokens > 0 {
		t.tokens.Add(ctx, int64(u.InputTokens), metric.WithAttributeSet(attribute.NewSet(append(base, attrTokenType.String("input"))...)))
	}
	if u.OutputTokens > 0 {
		t.tokens.Add(ctx, int64(u.OutputTokens), metric.WithAttributeSet(attribute.NewSet(append(base, attrTokenType.String("output"))...)))
	}
}
