package audit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/guardianhq/guardian/guardian/audit"
)

// BenchmarkAppend measures Append on a real file (TMPDIR decides the filesystem) with each
// sync mode at 1 and 64 concurrent appenders. Every op is one record, written and fsynced
// before Append returns; records/s is the throughput. Run:
//
//	go test -run '^$' -bench Append -benchtime 2000x ./guardian/audit
func BenchmarkAppend(b *testing.B) {
	for _, mode := range []audit.SyncMode{audit.SyncRecord, audit.SyncBatch} {
		for _, g := range []int{1, 64} {
			b.Run(mode.String()+"/goroutines="+itoa(g), func(b *testing.B) {
				l, _ := openLog(b, audit.WithSync(mode), audit.WithMaxSize(0))
				rec := testRecord("benchmark")
				var left atomic.Int64
				left.Store(int64(b.N))
				var wg sync.WaitGroup
				b.ResetTimer()
				for range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for left.Add(-1) >= 0 {
							if _, err := l.Append(context.Background(), rec); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
