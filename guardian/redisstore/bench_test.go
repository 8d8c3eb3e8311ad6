package redisstore_test

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/redisstore/redistest"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// benchClients is the number of concurrent clients, as in BenchmarkServeLoad.
const benchClients = 64

// BenchmarkReplicas compares one guardian serve with its state in memory to two replicas on
// loopback sharing theirs in a real redis-server: rules-only reviews of a mix the rules
// allow, ask about and deny, each decision appended to the replica's own audit log (batch
// fsync) before it is answered, from 64 keep-alive clients split over the replicas, each
// sending its next review as soon as the last is answered. All run on the same machine.
//
//   - local/1-replica: the default, no store;
//   - redis/2-replicas: the denials breaker on (each decision changes its shared counters:
//     a read before the review and an optimistic transaction after it) and the cache on;
//   - redis/2-replicas-cache-only: no denials breaker, so the only shared state is the cache.
//
// It reports reviews/s and the p50 and p99 latency a client sees (ms).
//
//	go test -run '^$' -bench Replicas -benchtime 20000x ./guardian/redisstore/
func BenchmarkReplicas(b *testing.B) {
	srv := redistest.Start(b)
	breaker := guardian.WithDenialsBreaker(guardian.DenialsBreakerConfig{Consecutive: 1 << 20, Window: -1})
	cache := guardian.WithCache(10*time.Minute, 4096, "policy-v1")
	for _, bc := range []struct {
		name     string
		replicas int
		shared   bool
		opts     []guardian.Option
	}{
		{"local/1-replica", 1, false, []guardian.Option{breaker, cache}},
		{"redis/2-replicas", 2, true, []guardian.Option{breaker, cache}},
		{"redis/2-replicas-cache-only", 2, true, []guardian.Option{cache}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if err := redisFlush(b, srv.URL); err != nil {
				b.Fatal(err)
			}
			var clients []*server.Client
			for range bc.replicas {
				opts := bc.opts
				if bc.shared {
					st, err := redisstore.New(srv.URL, redisstore.WithLogger(quiet()))
					if err != nil {
						b.Fatal(err)
					}
					defer st.Close()
					opts = append(slices.Clone(opts), guardian.WithStateStore(st, "policy-v1"))
				}
				clients = append(clients, benchReplica(b, opts))
			}
			runBench(b, clients)
		})
	}
}

func redisFlush(b *testing.B, url string) error {
	st, err := redisstore.New(url, redisstore.WithLogger(quiet()))
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Client().FlushAll(context.Background()).Err()
}

// benchReplica starts one serve: pipeline, audit log on disk, HTTP on loopback.
func benchReplica(b *testing.B, opts []guardian.Option) *server.Client {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	log, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"), audit.WithSync(audit.SyncBatch), audit.WithMaxSize(0))
	if err != nil {
		b.Fatal(err)
	}
	p := guardian.New(an, opts...)
	srv := server.New(guardian.Audited(p, log, time.Now), server.WithConcurrency(benchClients))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	b.Cleanup(func() {
		cancel()
		<-served
		log.Close()
		p.Close()
	})
	c, err := server.NewClient("http://" + ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func runBench(b *testing.B, clients []*server.Client) {
	var next atomic.Int64
	lat := make([][]time.Duration, benchClients)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range benchClients {
		c := clients[i%len(clients)]
		wg.Go(func() {
			for {
				n := next.Add(1) - 1
				if n >= int64(b.N) {
					return
				}
				t0 := time.Now()
				res, err := c.Decide(context.Background(), mix[n%int64(len(mix))], caller)
				lat[i] = append(lat[i], time.Since(t0))
				if err != nil || res.Decision == 0 {
					b.Errorf("review %d: %v", n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return float64(all[min(len(all)-1, int(float64(len(all))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "reviews/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
