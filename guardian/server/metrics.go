package server

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// The server's metric names, from OpenTelemetry's HTTP semantic conventions, so dashboards
// built for any otel HTTP server work. http.server.request.duration's count is the number of
// requests by route, method and status code.
const (
	MetricRequestDuration = "http.server.request.duration" // histogram, s: http.route, http.request.method, http.response.status_code
	MetricActiveRequests  = "http.server.active_requests"  // up-down counter: http.route, http.request.method
)

// httpMetrics are the server's instruments.
type httpMetrics struct {
	duration metric.Float64Histogram
	active   metric.Int64UpDownCounter
}

func newHTTPMetrics(mp metric.MeterProvider) *httpMetrics {
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	meter := mp.Meter(instrumentation)
	m := &httpMetrics{}
	var err error
	// The buckets suit a service whose rules-only answers take about a millisecond and whose
	// model reviews take seconds (otel's default buckets are for milliseconds).
	m.duration, err = meter.Float64Histogram(MetricRequestDuration,
		metric.WithDescription("Duration of HTTP requests to guardian serve, by route, method and status code."),
		metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))
	if err != nil {
		otel.Handle(err)
		m.duration = noop.Float64Histogram{}
	}
	m.active, err = meter.Int64UpDownCounter(MetricActiveRequests,
		metric.WithDescription("HTTP requests to guardian serve in flight, by route and method."),
		metric.WithUnit("{request}"))
	if err != nil {
		otel.Handle(err)
		m.active = noop.Int64UpDownCounter{}
	}
	return m
}
