package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestSpans: each request is a server span named after its route, child of the client's
// span when the client sends a traceparent (server.Client does).
func TestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	target := serve(t, server.New(&fixed{res: askResult()}, server.WithTracerProvider(tp)), "127.0.0.1:0")
	c, err := server.NewClient(target)
	if err != nil {
		t.Fatal(err)
	}
	ctx, parent := tp.Tracer("test").Start(context.Background(), "hook")
	if _, err := c.Decide(ctx, guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{}); err != nil {
		t.Fatal(err)
	}
	parent.End()
	var got sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "POST /v1/review" {
			got = s
		}
	}
	if got == nil {
		t.Fatalf("no POST /v1/review span among %d", len(rec.Ended()))
	}
	if got.SpanKind() != trace.SpanKindServer || got.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("span kind %v, parent %v; want a server span under the client's span %v", got.SpanKind(), got.Parent().SpanID(), parent.SpanContext().SpanID())
	}
	attrs := map[attribute.Key]attribute.Value{}
	for _, kv := range got.Attributes() {
		attrs[kv.Key] = kv.Value
	}
	if attrs["http.route"].AsString() != "/v1/review" || attrs["http.response.status_code"].AsInt64() != 200 || attrs["guardian.decision"].AsString() != "ask" {
		t.Errorf("span attributes %v", attrs)
	}
}

// TestLogLines: one line per request with route, code, duration and decision — and nothing of
// the request's text.
func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	h := server.New(&fixed{res: askResult()}, server.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	hdr := http.Header{}
	hdr.Set(server.HeaderHost, "claude\x1b[2J")
	do(t, h, "POST", "/v1/review", `{"kind":"exec","request":{"command":["cat","/home/dev/.aws/credentials"],"justification":"TOPSECRET-justification"}}`, hdr)
	do(t, h, "POST", "/v1/review", `{"kind":"exec","request":{"cmd":["TOPSECRET-typo"]}}`, nil)
	h = server.New(&fixed{err: errDisk}, server.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	do(t, h, "POST", "/v1/review", execBody, nil)

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3:\n%s", len(lines), buf.String())
	}
	if strings.Contains(buf.String(), "TOPSECRET") || strings.Contains(buf.String(), ".aws") || strings.Contains(buf.String(), "\\u001b") {
		t.Errorf("request text or control characters in the log:\n%s", buf.String())
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "request", "route": "/v1/review", "code": 200.0, "decision": "ask", "status": "rule", "decided_by": "rule:test", "host": "claude[2J"},
		{"level": "INFO", "route": "/v1/review", "code": 400.0, "error": "bad_request"},
		{"level": "ERROR", "route": "/v1/review", "code": 500.0, "error": "internal", "cause": errDisk.Error()},
	}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		for k, v := range want[i] {
			if got[k] != v {
				t.Errorf("line %d: %s = %v, want %v (%s)", i+1, k, got[k], v, line)
			}
		}
		if _, ok := got["duration_ms"]; !ok {
			t.Errorf("line %d has no duration: %s", i+1, line)
		}
	}
}
