package client_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

// BenchmarkConcurrentReviews runs 500 concurrent reviews per iteration against a fake model
// that answers in 100 ms, through one shared Reviewer, and reports the latency percentiles of
// the reviews (a global lock on the hot path would show as p99 far above 100 ms).
func BenchmarkConcurrentReviews(b *testing.B) {
	const n = 500
	fm := newFake(b, func(w http.ResponseWriter, r *http.Request, _ int, _ map[string]any) {
		select { // simulated model latency, not synchronisation
		case <-time.After(100 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		writeJSON(w, http.StatusOK, completion(verdictJSON("allow", "low")))
	})
	rev := newReviewer(b, fm)
	req := execRequest("git", "status")
	var all []time.Duration
	var failed int
	b.ResetTimer()
	for b.Loop() {
		lat := make([]time.Duration, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), guardian.DefaultDeadline)
				defer cancel()
				start := time.Now()
				_, errs[i] = rev.Review(ctx, req, askRules)
				lat[i] = time.Since(start)
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				failed++
			}
		}
		all = append(all, lat...)
	}
	b.StopTimer()
	slices.Sort(all)
	b.ReportMetric(float64(percentile(all, 0.50))/1e6, "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99))/1e6, "p99-ms")
	b.ReportMetric(float64(all[len(all)-1])/1e6, "max-ms")
	b.ReportMetric(float64(failed), "failed")
}

// BenchmarkNeverAnswers runs concurrent reviews through the pipeline against a model that
// never answers, and reports how far past the pipeline's deadline the slowest one returned.
func BenchmarkNeverAnswers(b *testing.B) {
	const n = 100
	const deadline = 200 * time.Millisecond
	var fm *fakeModel
	fm = newFake(b, func(_ http.ResponseWriter, r *http.Request, _ int, _ map[string]any) { fm.block(r) })
	a, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		b.Fatal(err)
	}
	p := guardian.New(a, guardian.WithReviewer(newReviewer(b, fm)), guardian.WithDeadline(deadline),
		guardian.WithModelBreaker(guardian.ModelBreakerConfig{Failures: -1})) // every review must wait for the model
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"frobnicate"}, Cwd: "/home/dev/project"})
	var worst time.Duration
	var notTimeout int
	for b.Loop() {
		over := make([]time.Duration, n)
		st := make([]guardian.Status, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				start := time.Now()
				res, _ := p.Review(context.Background(), req)
				over[i] = time.Since(start) - deadline
				st[i] = res.Status
			})
		}
		wg.Wait()
		for i := range n {
			worst = max(worst, over[i])
			if st[i] != guardian.StatusTimeout {
				notTimeout++
			}
		}
	}
	b.ReportMetric(float64(worst)/1e6, "max-overshoot-ms")
	b.ReportMetric(float64(notTimeout), "not-timeout")
}
