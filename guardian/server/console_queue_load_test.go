package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// Append makes publishingAuditor the approval gate's recorder too, as guardian serve's
// auditor is: an answer is written, then shown live.
func (a *publishingAuditor) Append(ctx context.Context, rec audit.Record) (audit.Record, error) {
	out, err := a.log.Append(ctx, rec)
	if err != nil {
		return out, err
	}
	if b, err := json.Marshal(out); err == nil {
		a.hub.PublishDecision(b)
	}
	return out, nil
}

// consoleViewer is one console tab, as console.js behaves: it opens the event stream, loads
// the queue (GET /v1/pending) once the stream is open, reads every event, and when the server
// drops it for lagging it connects and loads again.
func consoleViewer(ctx context.Context, base string, events, reconnects *atomic.Int64) {
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+server.RouteEvents, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		if pr, err := http.NewRequestWithContext(ctx, http.MethodGet, base+server.RoutePending, nil); err == nil {
			if p, err := http.DefaultClient.Do(pr); err == nil {
				_, _ = io.Copy(io.Discard, p.Body)
				p.Body.Close()
			}
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: ") {
				events.Add(1)
			}
		}
		resp.Body.Close()
		reconnects.Add(1)
	}
}

// BenchmarkConsoleQueueLoad measures what a full approval queue watched by many consoles costs
// the reviews: the closed-loop and paced loads of BenchmarkServeLoad (rules-only reviews
// audited to a real log, fsync-batch, 64 clients) with nothing else, and with 1,000 requests
// held for a person (each a hook waiting on its connection, its held event pushed to every
// viewer) and 50 console viewers following the event stream and loading the queue on every
// (re)connect, as the page does. Compare the p50/p99 of the review sub-benchmarks between
// "none" and "pending=1000,viewers=50".
//
//	go test -run '^$' -bench ConsoleQueueLoad -benchtime 5s ./guardian/server/
func BenchmarkConsoleQueueLoad(b *testing.B) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		held, viewers int
	}{
		{"none", 0, 0},
		{"pending=1000,viewers=50", 1000, 50},
	} {
		b.Run(tc.name, func(b *testing.B) {
			log, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), audit.WithSync(audit.SyncBatch), audit.WithMaxSize(0))
			if err != nil {
				b.Fatal(err)
			}
			defer log.Close()
			hub := server.NewHub(0, 0)
			pub := &publishingAuditor{log: log, hub: hub}
			aud := &countingAuditor{next: pub}
			gate := approval.NewGate(approval.NewMemoryStore(), pub, approval.WithWait(approval.MaxWait), approval.WithChanges(hub.PublishApproval))
			srv := server.New(guardian.Audited(guardian.New(an), aud, time.Now), server.WithConcurrency(loadClients),
				server.WithEvents(hub), server.WithApprovals(gate))
			ln, err := server.Listen(context.Background(), "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, ln) }()
			base := "http://" + ln.Addr().String()
			c, _ := server.NewClient(base)
			hooks, _ := server.NewClient(base, server.WithApprovalMode(server.ApprovalQueue))

			var events, reconnects atomic.Int64
			var viewing sync.WaitGroup
			vctx, vcancel := context.WithCancel(ctx)
			for range tc.viewers {
				viewing.Go(func() { consoleViewer(vctx, base, &events, &reconnects) })
			}
			for hub.Subscribers() < tc.viewers {
				<-time.After(time.Millisecond) // pacing the poll of an observable count
			}

			// Hold the requests in waves of half the review slots, as BenchmarkPendingLoad does.
			var waiting sync.WaitGroup
			prune := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"docker", "system", "prune", "-f"}, Cwd: "/home/dev/proj"})
			for start := 0; start < tc.held; start += loadClients / 2 {
				end := min(start+loadClients/2, tc.held)
				for i := start; i < end; i++ {
					waiting.Go(func() {
						hctx, hcancel := context.WithTimeout(context.Background(), approval.MaxWait)
						defer hcancel()
						if _, err := hooks.Decide(hctx, prune, guardian.Caller{Host: "bench", Session: fmt.Sprint("s", i)}); err != nil {
							b.Errorf("held review %d: %v", i, err)
						}
					})
				}
				for {
					if n, _ := gate.Store().OpenCount(ctx); n == end {
						break
					}
					<-time.After(time.Millisecond) // pacing the poll of an observable count
				}
			}

			before := events.Load()
			b.Run("max", func(b *testing.B) { runLoad(b, c, aud, 0) })
			b.Run("500rps", func(b *testing.B) { runLoad(b, c, aud, 500) })
			if tc.viewers > 0 {
				b.Logf("%d viewers read %d events while the reviews ran; %d reconnects after being dropped for lagging (in all, holds included)",
					tc.viewers, events.Load()-before, reconnects.Load())
			}
			gate.Stop() // the held hooks get their ask back at once
			waiting.Wait()
			vcancel()
			cancel()
			if err := <-served; err != nil {
				b.Error(err)
			}
			viewing.Wait()
		})
	}
}
