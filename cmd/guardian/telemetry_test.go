package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestTelemetryExportsToOTLP: with OTEL_EXPORTER_OTLP_ENDPOINT set, a CLI review's span and
// metrics reach an OTLP/HTTP collector when the command flushes; unset, nothing is exported.
func TestTelemetryExportsToOTLP(t *testing.T) {
	var mu sync.Mutex
	paths := map[string]int{}
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.URL.Path]++
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer collector.Close()

	env := map[string]string{"HOME": "/home/dev", "OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL}
	tel, err := newTelemetry(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	d, _, errb := testDeps("")
	d.tracerProvider, d.meterProvider = tel.tp, tel.mp
	if code := run(context.Background(), []string{"review", "exec", "--", "ls"}, d); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if err := tel.flush(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if paths["/v1/traces"] == 0 || paths["/v1/metrics"] == 0 {
		t.Errorf("collector saw %v, want /v1/traces and /v1/metrics", paths)
	}

	off, err := newTelemetry(context.Background(), func(string) string { return "" })
	if err != nil || off.flush() != nil {
		t.Fatalf("no endpoint: %v", err)
	}
	if _, err := newTelemetry(context.Background(), func(string) string { return "localhost:4318" }); err == nil {
		t.Error("an endpoint without a scheme must be refused")
	}
}
