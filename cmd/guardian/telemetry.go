package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// telemetry holds the providers reviews report to. Without OTEL_EXPORTER_OTLP_ENDPOINT they
// are no-ops: nothing is exported and nothing dials out (the OTLP exporters would otherwise
// default to localhost:4318). The providers are handed to the pipeline and the model client
// explicitly; the otel globals are left alone.
type telemetry struct {
	tp       trace.TracerProvider
	mp       metric.MeterProvider
	shutdown func(context.Context) error
}

// newTelemetry builds OTLP/HTTP trace and metric exporters when getenv names an endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://127.0.0.1:4318), else no-op providers.
func newTelemetry(ctx context.Context, getenv func(string) string) (*telemetry, error) {
	endpoint := strings.TrimRight(strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")), "/")
	if endpoint == "" {
		return &telemetry{tp: tracenoop.NewTracerProvider(), mp: metricnoop.NewMeterProvider(), shutdown: func(context.Context) error { return nil }}, nil
	}
	if !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT=%q: want an http(s) URL such as http://127.0.0.1:4318", endpoint)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "guardian"))
	texp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter for %s: %w", endpoint, err)
	}
	mexp, err := otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpointURL(endpoint+"/v1/metrics"))
	if err != nil {
		return nil, fmt.Errorf("OTLP metric exporter for %s: %w", endpoint, err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(texp), sdktrace.WithResource(res))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(mexp)), sdkmetric.WithResource(res))
	return &telemetry{tp: tp, mp: mp, shutdown: func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}}, nil
}

// flush exports what is buffered, bounded so a collector that is down cannot hold up the
// command's exit (a hook's reply has already been written by then).
func (t *telemetry) flush() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return t.shutdown(ctx)
}
