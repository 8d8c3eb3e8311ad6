package server_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestMetricsEndpoint wires the server the way guardian serve does — one otel MeterProvider
// read by the Prometheus exporter, shared by the pipeline and the server — and checks that a
// scrape after one review shows the pipeline's and the HTTP metrics.
func TestMetricsEndpoint(t *testing.T) {
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		t.Fatal(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	p := guardian.New(an, guardian.WithMeterProvider(mp))
	h := server.New(p, server.WithMeterProvider(mp), server.WithMetrics(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))

	if w := do(t, h, "POST", "/v1/review", `{"kind":"exec","request":{"command":["rm","-rf","/"],"cwd":"/home/dev/proj"}}`, nil); w.Code != 200 {
		t.Fatalf("review: %d %s", w.Code, w.Body)
	}
	w := do(t, h, "GET", "/metrics", "", nil)
	if w.Code != 200 {
		t.Fatalf("metrics: %d", w.Code)
	}
	body := w.Body.String()
	for _, want := range []string{
		`(?m)^guardian_decisions_total\{.*decision="deny".*\} 1$`,
		`(?m)^guardian_review_duration_seconds_count\{.*\} 1$`,
		`(?m)^http_server_request_duration_seconds_count\{.*http_request_method="POST",http_response_status_code="200",http_route="/v1/review".*\} 1$`,
		`(?m)^http_server_request_duration_seconds_bucket\{.*le="0.0005".*\}`,
		`(?m)^http_server_active_requests\{.*http_route="/metrics".*\} 1$`,
	} {
		if !regexp.MustCompile(want).MatchString(body) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", body)
	}
}
