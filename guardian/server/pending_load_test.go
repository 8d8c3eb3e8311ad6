package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// BenchmarkPendingLoad measures what a full approval queue costs everyone else: with 0 and
// with 1,000 requests held for a person (each a hook waiting on its own connection), the same
// review load as BenchmarkServeLoad/max (loadClients clients, the audit log in batch mode),
// listing the queue (GET /v1/pending, as guardian pending and the console do), and answering
// (POST /v1/pending/{id}/approve, until the queue is empty, which releases the held hooks).
//
//	go test -run '^$' -bench PendingLoad -benchtime 3s ./guardian/server/
func BenchmarkPendingLoad(b *testing.B) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	for _, held := range []int{0, 1000} {
		b.Run(fmt.Sprintf("pending=%d", held), func(b *testing.B) {
			log, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), audit.WithSync(audit.SyncBatch), audit.WithMaxSize(0))
			if err != nil {
				b.Fatal(err)
			}
			defer log.Close()
			aud := &countingAuditor{next: log}
			gate := approval.NewGate(approval.NewMemoryStore(), log, approval.WithWait(approval.MaxWait))
			srv := server.New(guardian.Audited(guardian.New(an), aud, time.Now), server.WithConcurrency(loadClients), server.WithApprovals(gate))
			ln, err := server.Listen(context.Background(), "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, ln) }()
			defer func() {
				cancel()
				if err := <-served; err != nil {
					b.Error(err)
				}
			}()
			base := "http://" + ln.Addr().String()
			c, _ := server.NewClient(base)
			hooks, _ := server.NewClient(base, server.WithApprovalMode(server.ApprovalQueue))

			// Hold `held` requests: each a hook of its own session waiting for an answer. They
			// arrive in waves of half the review slots: all at once they would find every slot
			// taken by the others' reviews and get 503, as a real burst of hooks would.
			var waiting sync.WaitGroup
			prune := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"docker", "system", "prune", "-f"}, Cwd: "/home/dev/proj"})
			for start := 0; start < held; start += loadClients / 2 {
				end := min(start+loadClients/2, held)
				for i := start; i < end; i++ {
					waiting.Go(func() {
						hctx, hcancel := context.WithTimeout(context.Background(), approval.MaxWait)
						defer hcancel()
						if res, err := hooks.Decide(hctx, prune, guardian.Caller{Host: "bench", Session: fmt.Sprint("s", i)}); err != nil || res.Status != guardian.StatusHuman {
							b.Errorf("held review %d: %v %s", i, err, res.Status)
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

			b.Run("review", func(b *testing.B) { runLoad(b, c, aud, 0) })
			b.Run("list", func(b *testing.B) {
				lat := make([]time.Duration, 0, b.N)
				for range b.N {
					t0 := time.Now()
					ps, err := c.Pending(ctx, false)
					lat = append(lat, time.Since(t0))
					if err != nil || len(ps) != held {
						b.Fatalf("pending: %d, %v", len(ps), err)
					}
				}
				reportLatency(b, lat)
			})
			if held > 0 {
				ps, _ := c.Pending(ctx, false)
				lat := make([]time.Duration, 0, len(ps))
				for _, p := range ps {
					t0 := time.Now()
					if _, _, err := c.Approve(ctx, p.ID, server.AnswerRequest{By: "bench"}); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
				}
				waiting.Wait()
				slices.Sort(lat)
				b.Logf("approve %d held requests one by one: p50 %.3f ms, p99 %.3f ms", len(lat),
					float64(lat[len(lat)/2].Microseconds())/1000, float64(lat[len(lat)*99/100].Microseconds())/1000)
			}
		})
	}
}

// reportLatency reports the p50 and p99 of lat in ms.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}
