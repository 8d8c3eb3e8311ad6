package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// publishingAuditor is guardian serve's auditor: append to the audit log, then publish the
// record as stored on the hub.
type publishingAuditor struct {
	log *audit.Log
	hub *server.Hub
}

func (a *publishingAuditor) Audit(ctx context.Context, e guardian.AuditEntry) error {
	rec, err := audit.NewRecord(e)
	if err != nil {
		return err
	}
	out, err := a.log.Append(ctx, rec)
	if err != nil {
		return err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	a.hub.PublishDecision(b)
	return nil
}

// BenchmarkConsoleViewers measures what console viewers cost the reviews: the load of
// BenchmarkServeLoad (rules-only reviews, audited to a real log with fsync-batch, 64 clients)
// with 0 and with 50 event-stream viewers reading every decision as it is made, both closed
// loop (max) and paced at 500 reviews/s. It logs the share of decisions that reached every
// viewer (a viewer that lags is dropped, never waited for).
//
//	go test -run '^$' -bench ConsoleViewers -benchtime 5s ./guardian/server/
func BenchmarkConsoleViewers(b *testing.B) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	for _, viewers := range []int{0, 50} {
		b.Run(map[int]string{0: "viewers=0", 50: "viewers=50"}[viewers], func(b *testing.B) {
			log, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), audit.WithSync(audit.SyncBatch), audit.WithMaxSize(0))
			if err != nil {
				b.Fatal(err)
			}
			defer log.Close()
			hub := server.NewHub(0, 0)
			aud := &countingAuditor{next: &publishingAuditor{log: log, hub: hub}}
			srv := server.New(guardian.Audited(guardian.New(an), aud, time.Now), server.WithConcurrency(loadClients), server.WithEvents(hub))
			ln, err := server.Listen(context.Background(), "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, ln) }()
			base := "http://" + ln.Addr().String()

			var delivered atomic.Int64
			var wg sync.WaitGroup
			for range viewers {
				resp, err := http.Get(base + server.RouteEvents)
				if err != nil {
					b.Fatal(err)
				}
				sc := bufio.NewScanner(resp.Body)
				sc.Buffer(make([]byte, 64<<10), 1<<20)
				for sc.Scan() && !strings.HasPrefix(sc.Text(), ": guardian events") {
				}
				wg.Go(func() {
					defer resp.Body.Close()
					for sc.Scan() {
						if strings.HasPrefix(sc.Text(), "event: decision") {
							delivered.Add(1)
						}
					}
				})
			}
			c, err := server.NewClient(base)
			if err != nil {
				b.Fatal(err)
			}
			before := aud.len()
			b.Run("max", func(b *testing.B) { runLoad(b, c, aud, 0) })
			b.Run("500rps", func(b *testing.B) { runLoad(b, c, aud, 500) })
			published := aud.len() - before
			cancel() // ends the streams (Serve closes the hub), then drains
			if err := <-served; err != nil {
				b.Error(err)
			}
			wg.Wait()
			if viewers > 0 {
				b.Logf("%d viewers got %d of the %d decisions each on average (%.2f%%)", viewers, delivered.Load()/int64(viewers), published,
					100*float64(delivered.Load())/float64(published*viewers))
			}
		})
	}
}
