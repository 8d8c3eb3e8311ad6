package server_test

import (
	"context"
	"regexp"
	"strconv"
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

// TestMetricsReviewDurationBuckets scrapes /metrics after a rules-only review and checks that
// guardian_review_duration_seconds can tell it apart: its boundaries are seconds (from
// microseconds for the rules to a minute for a slow model, not otel's default 0…10000 meant
// for milliseconds), and the review lands in a bucket inside them — neither the first nor
// +Inf, and below 0.1 s.
func TestMetricsReviewDurationBuckets(t *testing.T) {
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
	// The first analysis compiles the expressions the rules need (riskmodel compiles them on
	// first use); warm them up so the review measured is a routine one.
	const body = `{"kind":"exec","request":{"command":["git","status"],"cwd":"/home/dev/proj"}}`
	an.Exec(context.Background(), riskmodel.ExecRequest{Command: []string{"git", "status"}, Cwd: "/home/dev/proj"})
	p := guardian.New(an, guardian.WithMeterProvider(mp))
	h := server.New(p, server.WithMeterProvider(mp), server.WithMetrics(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
	if w := do(t, h, "POST", "/v1/review", body, nil); w.Code != 200 {
		t.Fatalf("review: %d %s", w.Code, w.Body)
	}
	w := do(t, h, "GET", "/metrics", "", nil)
	if w.Code != 200 {
		t.Fatalf("metrics: %d", w.Code)
	}
	buckets := scrapeBuckets(t, w.Body.String(), "guardian_review_duration_seconds")
	if len(buckets) < 3 {
		t.Fatalf("guardian_review_duration_seconds has %d buckets, want boundaries to resolve a review:\n%s", len(buckets), w.Body)
	}
	bounds := buckets[:len(buckets)-1] // the last is +Inf
	if lo, hi := bounds[0].le, bounds[len(bounds)-1].le; lo > 0.0001 || hi > 300 {
		t.Errorf("boundaries %g … %g: want seconds, from at most 100 µs (a rules review) to at most 5 min (a model review)", lo, hi)
	}
	landed := -1
	for i, b := range buckets {
		if b.count > 0 {
			landed = i
			break
		}
	}
	switch {
	case landed < 0:
		t.Fatal("the review is in no bucket")
	case landed == 0:
		t.Errorf("the review landed in the first bucket (le=%g): the boundaries start too high to resolve a rules review", buckets[0].le)
	case landed == len(buckets)-1:
		t.Error("the review landed in +Inf")
	case buckets[landed].le > 0.1:
		t.Errorf("a rules-only review landed in le=%g: the boundaries are too coarse for sub-second reviews", buckets[landed].le)
	}
	t.Logf("a rules-only review landed in le=%g", buckets[landed].le)
}

type bucket struct {
	le    float64
	count uint64
}

// scrapeBuckets returns the cumulative buckets of the histogram name in a Prometheus text
// scrape, in order (one series expected), +Inf last.
func scrapeBuckets(t *testing.T, body, name string) []bucket {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + name + `_bucket\{.*le="([^"]+)".*\} ([0-9]+)$`)
	var out []bucket
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		le, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatalf("%s bucket le=%q: %v", name, m[1], err)
		}
		n, err := strconv.ParseUint(m[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bucket{le: le, count: n})
	}
	return out
}
