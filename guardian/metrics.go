package guardian

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// meterName is the instrumentation scope of the pipeline's metrics.
const meterName = "github.com/guardianhq/guardian/guardian"

// The metric names, stable for dashboards and alerts.
const (
	MetricDecisions      = "guardian.decisions"       // counter: decision, status, decided_by
	MetricReviewDuration = "guardian.review.duration" // histogram, seconds: decided_by
	MetricBreakerState   = "guardian.breaker.state"   // gauge: breaker = denials|model; 0 closed, 1 open, 2 half-open
	MetricStoreErrors    = "guardian.store.errors"    // counter: op = breakers|update|cache_get|cache_put
)

// reviewDurationBuckets are the boundaries, in seconds, of guardian.review.duration: a
// rules-only review takes tens of microseconds (a cached one a few), a model review 0.2–30 s,
// and a review never outlasts its deadline (at most 60 s). otel's default boundaries
// (0, 5, 10 … 10000) are meant for milliseconds; on this seconds metric they put every review
// in one bucket.
var reviewDurationBuckets = []float64{
	0.000005, 0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
	0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60,
}

// pipelineMetrics holds the otel instruments of one Pipeline. With no MeterProvider given they
// are no-ops, so recording costs next to nothing.
type pipelineMetrics struct {
	decisions metric.Int64Counter
	duration  metric.Float64Histogram
	storeErrs metric.Int64Counter
	reg       metric.Registration // the breaker gauge's callback; nil when not registered
}

func newPipelineMetrics(mp metric.MeterProvider, p *Pipeline) *pipelineMetrics {
	if mp == nil {
		// Not otel's global provider: the otel package links its propagators, and with them
		// net/http, into every program that imports this one — the lean hook entry among
		// them (cmd/guardian-hook, TestLeanDeps). No program of this module installs a
		// global provider; each passes its own with WithMeterProvider.
		mp = noop.NewMeterProvider()
	}
	meter := mp.Meter(meterName)
	// An instrument that cannot be created becomes a no-op. Creation fails only for an invalid
	// name, unit or option, and these are constants, which metrics_test creates through the
	// SDK; otel.Handle, which used to log such an error, is the otel package this avoids.
	m := &pipelineMetrics{}
	var err error
	m.decisions, err = meter.Int64Counter(MetricDecisions,
		metric.WithDescription("Review decisions by decision, status and kind of decider (rule, model, fallback, cache, breaker, agent_policy)."),
		metric.WithUnit("{decision}"))
	if err != nil {
		m.decisions = noop.Int64Counter{}
	}
	m.duration, err = meter.Float64Histogram(MetricReviewDuration,
		metric.WithDescription("Duration of one review through the pipeline, rules and model included."),
		metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(reviewDurationBuckets...))
	if err != nil {
		m.duration = noop.Float64Histogram{}
	}
	m.storeErrs, err = meter.Int64Counter(MetricStoreErrors,
		metric.WithDescription("State store operations that failed, by op; each one fell back to the replica's local state (breakers) or a fresh review (cache)."),
		metric.WithUnit("{error}"))
	if err != nil {
		m.storeErrs = noop.Int64Counter{}
	}
	gauge, err := meter.Int64ObservableGauge(MetricBreakerState,
		metric.WithDescription("Circuit breaker state by breaker (denials, model): 0 closed, 1 open, 2 half-open."))
	if err != nil {
		return m
	}
	denials := metric.WithAttributes(attribute.String("breaker", "denials"))
	model := metric.WithAttributes(attribute.String("breaker", "model"))
	m.reg, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := p.BreakerState()
		o.ObserveInt64(gauge, int64(s.Denials), denials)
		o.ObserveInt64(gauge, int64(s.Model), model)
		return nil
	}, gauge)
	if err != nil {
		m.reg = nil
	}
	return m
}

// record counts one result and its duration. The decider is reduced to its kind so the series
// stay few: rule ids and model versions belong in the audit log, not in metric labels.
func (m *pipelineMetrics) record(ctx context.Context, res Result, took time.Duration) {
	kind := deciderKind(res.Status)
	m.decisions.Add(ctx, 1, metric.WithAttributes(
		attribute.String("decision", res.Decision.String()),
		attribute.String("status", string(res.Status)),
		attribute.String("decided_by", kind)))
	m.duration.Record(ctx, took.Seconds(), metric.WithAttributes(attribute.String("decided_by", kind)))
}

// storeError counts one failed state store operation.
func (m *pipelineMetrics) storeError(ctx context.Context, op string) {
	m.storeErrs.Add(ctx, 1, metric.WithAttributes(attribute.String("op", op)))
}

// deciderKind derives the kind of decider from the status, which the pipeline sets itself,
// rather than from DecidedBy, which a reviewer chooses.
func deciderKind(s Status) string {
	switch s {
	case StatusRule:
		return "rule"
	case StatusOK:
		return "model"
	case StatusCached:
		return "cache"
	case StatusBreakerOpen:
		return "breaker"
	case StatusAgentPolicy:
		return "agent_policy"
	case StatusTimeout, StatusUnavailable, StatusBadOutput:
		return "fallback"
	}
	return "other"
}
