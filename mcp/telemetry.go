package mcp

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// scope is the instrumentation scope of the proxy's spans and metrics.
const scope = "github.com/guardianhq/guardian/mcp"

// The metric names, stable for dashboards and alerts.
const (
	// MetricToolCalls counts tools/call requests by upstream and outcome: forwarded, denied
	// (by the gate), error (the upstream failed), cancelled.
	MetricToolCalls = "guardian.mcp.tool_calls"
	// MetricElicitations counts elicitations from upstreams by upstream, family (approval,
	// exec, plain) and outcome (allow, deny, host_accept, host_decline, host_cancel, no_host).
	MetricElicitations = "guardian.mcp.elicitations"
)

// telemetry holds the proxy's tracer and instruments; with no providers given they are
// no-ops (no globals are consulted).
type telemetry struct {
	tracer       trace.Tracer
	calls        metric.Int64Counter
	elicitations metric.Int64Counter
}

func newTelemetry(tp trace.TracerProvider, mp metric.MeterProvider) *telemetry {
	if tp == nil {
		tp = tracenoop.NewTracerProvider()
	}
	if mp == nil {
		mp = metricnoop.NewMeterProvider()
	}
	t := &telemetry{tracer: tp.Tracer(scope)}
	meter := mp.Meter(scope)
	var err error
	if t.calls, err = meter.Int64Counter(MetricToolCalls,
		metric.WithDescription("tools/call requests through the MCP proxy, by upstream and outcome (forwarded, denied, error, cancelled)."),
		metric.WithUnit("{call}")); err != nil {
		t.calls = metricnoop.Int64Counter{}
	}
	if t.elicitations, err = meter.Int64Counter(MetricElicitations,
		metric.WithDescription("Elicitations from upstream MCP servers, by upstream, family (approval, exec, plain) and outcome."),
		metric.WithUnit("{elicitation}")); err != nil {
		t.elicitations = metricnoop.Int64Counter{}
	}
	return t
}

// startCall starts the span of one forwarded tools/call.
func (t *telemetry) startCall(ctx context.Context, c *call) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "mcp.tools/call", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("mcp.upstream", c.up.name),
		attribute.String("mcp.tool", c.tool),
		attribute.Bool("guardian.gate", c.up.spec.Gate),
		attribute.String("mcp.client", c.host.name),
	))
}

func (t *telemetry) countCall(ctx context.Context, upstream, outcome string) {
	t.calls.Add(ctx, 1, metric.WithAttributes(attribute.String("upstream", upstream), attribute.String("outcome", outcome)))
}

// startElicitation starts the span of one elicitation from an upstream.
func (t *telemetry) startElicitation(ctx context.Context, upstream string, f family, routing string) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "mcp.elicitation", trace.WithAttributes(
		attribute.String("mcp.upstream", upstream),
		attribute.String("guardian.elicitation.family", f.String()),
		attribute.String("guardian.elicitation.routing", routing),
	))
}

func (t *telemetry) endElicitation(ctx context.Context, span trace.Span, upstream string, f family, outcome string) {
	span.SetAttributes(attribute.String("guardian.outcome", outcome))
	if outcome == outcomeNoHost {
		span.SetStatus(codes.Error, "no host could be asked")
	}
	t.elicitations.Add(ctx, 1, metric.WithAttributes(
		attribute.String("upstream", upstream), attribute.String("family", f.String()), attribute.String("outcome", outcome)))
}

// startGate starts the span of one tool-call review.
func (t *telemetry) startGate(ctx context.Context, c *call) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "mcp.gate", trace.WithAttributes(
		attribute.String("mcp.upstream", c.up.name), attribute.String("mcp.tool", c.tool)))
}

func (t *telemetry) endGate(span trace.Span, outcome string) {
	span.SetAttributes(attribute.String("guardian.outcome", outcome))
}
