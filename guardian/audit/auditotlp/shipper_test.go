package auditotlp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	collectorlogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/protobuf/proto"

	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/audit/auditotlp"
	"github.com/guardianhq/guardian/riskmodel"
)

// received is what an OTLP/HTTP collector in the test process got.
type received struct {
	mu      sync.Mutex
	bodies  []string
	attrs   []map[string]string
	exports int
}

func (rc *received) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/logs" || r.Header.Get("Authorization") != "Bearer team-token" {
		http.Error(w, "wrong path or token", http.StatusUnauthorized)
		return
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req collectorlogs.ExportLogsServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.exports++
	for _, rl := range req.ResourceLogs {
		for _, sl := range rl.ScopeLogs {
			for _, lr := range sl.LogRecords {
				rc.bodies = append(rc.bodies, lr.Body.GetStringValue())
				m := map[string]string{}
				for _, kv := range lr.Attributes {
					m[kv.Key] = kv.Value.GetStringValue()
				}
				rc.attrs = append(rc.attrs, m)
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&collectorlogs.ExportLogsServiceResponse{})
	w.Write(out)
}

const (
	secret = "hunter2-s3cr3t-value"
	token  = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
)

// TestEveryDecisionArrivesOnceInOrderRedacted appends decisions from concurrent reviews to a
// real audit log that ships to an OTLP/HTTP receiver: each record arrives once, in the
// chain's order (each prev is the hash before it), byte for byte the redacted line on disk.
func TestEveryDecisionArrivesOnceInOrderRedacted(t *testing.T) {
	rc := &received{}
	coll := httptest.NewServer(rc)
	defer coll.Close()
	ctx := context.Background()
	sh, err := auditotlp.NewHTTP(ctx, coll.URL, map[string]string{"Authorization": "Bearer team-token"}, true,
		auditotlp.WithBatchSize(7), auditotlp.WithInterval(10*time.Millisecond), auditotlp.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path, audit.WithSync(audit.SyncBatch), audit.WithOnCommit(sh.Ship))
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"mysql", "--password", secret, "-e", fmt.Sprint("select ", i)}, Cwd: "/src"})
			res := guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:x",
				Assessment: riskmodel.Assessment{Summary: "runs mysql as token " + token, Level: riskmodel.Medium, Category: riskmodel.CatNone, Rationale: "r"}}
			e := guardian.AuditEntry{Time: time.Now(), Request: req, Result: res, Caller: guardian.Caller{Host: "test"}, Policy: "sha256:abc"}
			if err := log.Audit(ctx, e); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sh.Close(ctx); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, audit.MaxRecordBytes)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.bodies) != n || len(lines) != n {
		t.Fatalf("received %d records, the log has %d; want %d each", len(rc.bodies), len(lines), n)
	}
	prev := ""
	for i, body := range rc.bodies {
		if body != lines[i] {
			t.Fatalf("record %d differs from line %d of the log:\n got %s\nwant %s", i, i+1, body, lines[i])
		}
		if strings.Contains(body, secret) || strings.Contains(body, token) {
			t.Fatalf("record %d carries the secret: %s", i, body)
		}
		a := rc.attrs[i]
		if a["guardian.audit.prev"] != prev {
			t.Fatalf("record %d: prev %s, want %s (out of order or missing)", i, a["guardian.audit.prev"], prev)
		}
		if a["guardian.decision"] != "ask" || a["guardian.policy"] != "sha256:abc" || a["guardian.caller.host"] != "test" {
			t.Errorf("record %d attributes: %v", i, a)
		}
		prev = a["guardian.audit.hash"]
	}
	t.Logf("%d records in %d exports", n, rc.exports)
}

// stuck is an exporter that blocks until released: a collector that does not answer.
type stuck struct{ release chan struct{} }

func (s stuck) Export(ctx context.Context, _ []sdklog.Record) error {
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return nil
}
func (stuck) Shutdown(context.Context) error   { return nil }
func (stuck) ForceFlush(context.Context) error { return nil }

// TestOverloadDropsAndCounts: with the collector stuck, Ship never blocks; what does not fit
// in the queue is dropped and counted.
func TestOverloadDropsAndCounts(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	exp := stuck{release: make(chan struct{})}
	sh := auditotlp.New(exp, auditotlp.WithQueueSize(4), auditotlp.WithBatchSize(1), auditotlp.WithMeterProvider(mp))
	rec := audit.Record{ID: "0", Kind: riskmodel.KindExec, Decision: riskmodel.Allow}
	for range 50 {
		sh.Ship(rec, []byte(`{"id":"0"}`)) // would hang here if Ship blocked
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var dropped int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == auditotlp.MetricDropped {
				for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
					dropped += dp.Value
				}
			}
		}
	}
	// One record is in the stuck export, at most 4 queued: the rest are dropped.
	if dropped < 50-1-4 {
		t.Fatalf("dropped = %d, want at least %d", dropped, 50-1-4)
	}
	close(exp.release)
	if err := sh.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}
