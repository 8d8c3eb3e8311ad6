package evals

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// Reviewer is what the harness grades: anything that turns a request into a result the way the
// pipeline does. *guardian.Pipeline satisfies it, and so does a CLI adapter that picks the
// pipeline of each case's project directory.
type Reviewer interface {
	Review(ctx context.Context, req guardian.Request) (guardian.Result, error)
}

// ReviewerFunc adapts a function to Reviewer, for adapters and tests.
type ReviewerFunc func(ctx context.Context, req guardian.Request) (guardian.Result, error)

// Review calls f.
func (f ReviewerFunc) Review(ctx context.Context, req guardian.Request) (guardian.Result, error) {
	return f(ctx, req)
}

// The statuses an Outcome can have beyond the pipeline's own (guardian.Status): they say that
// no trustworthy answer was produced for a reason the pipeline cannot see.
const (
	// StatusReplayMiss marks a review whose model call found no recorded answer under --replay.
	// The pipeline saw a failed model call and fell back; the case is graded on that fallback
	// but counted apart, because the recording — not the model — is what is missing.
	StatusReplayMiss guardian.Status = "replay_miss"
	// StatusError marks a review the reviewer refused with an error (an invalid request, a
	// cancelled run): it has no decision and counts as wrong.
	StatusError guardian.Status = "error"
)

// Outcome is one review of one case: what the reviewer answered and how long it took.
type Outcome struct {
	// Result is the reviewer's answer; its Decision is zero when Status is StatusError.
	Result guardian.Result
	// Status is Result.Status, or StatusReplayMiss / StatusError (see there).
	Status guardian.Status
	// Err is the reviewer's error for StatusError, or what the replay missed.
	Err string
	// Latency is the wall time of the Review call.
	Latency time.Duration
}

// CaseRun is one case with its outcomes, one per repeat, in repeat order.
type CaseRun struct {
	Case     Case
	Outcomes []Outcome
	// Hostile is the case's answer under a hostile model (see WithHostile); nil when the run
	// had none, or when that review failed.
	Hostile *guardian.Result
}

// Runner runs cases through a Reviewer, concurrently and as many times as asked. It holds no
// state between runs, so one Runner may serve several Run calls.
type Runner struct {
	reviewer    Reviewer
	hostile     Reviewer
	concurrency int
	repeat      int
	progress    func(done, total int)
	now         func() time.Time
}

// RunOption configures a Runner.
type RunOption func(*Runner)

// WithConcurrency sets how many reviews run at once (default 1). A model reviewer is mostly
// waiting on the network, so it pays to go well above the number of cores.
func WithConcurrency(n int) RunOption { return func(r *Runner) { r.concurrency = n } }

// WithRepeat reviews every case k times (default 1), to measure how often a non-deterministic
// reviewer changes its mind (the flip rate).
func WithRepeat(k int) RunOption { return func(r *Runner) { r.repeat = k } }

// WithProgress calls f after each review with the number done and the total. Calls are
// serialised and done increases by one each time, so f needs no lock of its own.
func WithProgress(f func(done, total int)) RunOption { return func(r *Runner) { r.progress = f } }

// WithHostile also reviews every case once with h: the pipeline as it would answer with a
// model that allows everything (what a prompt-injected model does), so the report can show the
// false allows the rules floor lets through under such a model beside the ordinary ones.
func WithHostile(h Reviewer) RunOption { return func(r *Runner) { r.hostile = h } }

// WithRunClock replaces time.Now for measuring latency, so tests get exact numbers.
func WithRunClock(now func() time.Time) RunOption {
	return func(r *Runner) {
		if now != nil {
			r.now = now
		}
	}
}

// NewRunner builds a Runner for rev. Concurrency and repeat must be at least 1.
func NewRunner(rev Reviewer, opts ...RunOption) (*Runner, error) {
	r := &Runner{reviewer: rev, concurrency: 1, repeat: 1, now: time.Now}
	for _, o := range opts {
		o(r)
	}
	switch {
	case rev == nil:
		return nil, fmt.Errorf("evals: runner needs a reviewer")
	case r.concurrency < 1:
		return nil, fmt.Errorf("evals: concurrency %d: want at least 1", r.concurrency)
	case r.repeat < 1:
		return nil, fmt.Errorf("evals: repeat %d: want at least 1", r.repeat)
	}
	return r, nil
}

// Run reviews every case Repeat times with up to Concurrency reviews in flight and returns the
// cases in their input order, each with its outcomes in repeat order — the result does not
// depend on scheduling. When ctx ends, Run stops handing out reviews, waits for those in
// flight and returns ctx's error: a partial run is never graded as if it were whole.
func (r *Runner) Run(ctx context.Context, cases []Case) ([]CaseRun, error) {
	runs := make([]CaseRun, len(cases))
	for i, c := range cases {
		runs[i] = CaseRun{Case: c, Outcomes: make([]Outcome, r.repeat)}
	}
	total := len(cases) * r.repeat
	type job struct{ c, k int }
	jobs := make(chan job)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex // serialises progress
		done int
	)
	for range min(r.concurrency, max(total, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				runs[j.c].Outcomes[j.k] = r.review(ctx, runs[j.c].Case)
				if j.k == 0 && r.hostile != nil {
					if res, err := r.hostile.Review(ctx, runs[j.c].Case.Request); err == nil {
						runs[j.c].Hostile = &res
					}
				}
				if r.progress != nil {
					mu.Lock()
					done++
					r.progress(done, total)
					mu.Unlock()
				}
			}
		}()
	}
	// Repeats are the outer loop so that a slow or failing stretch of the model's availability
	// hits different cases in different repeats rather than all repeats of the same cases.
feed:
	for k := range r.repeat {
		for c := range cases {
			select {
			case jobs <- job{c, k}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evals: run stopped after %d of %d reviews: %w", done, total, err)
	}
	return runs, nil
}

// review runs one case once, with a trace in ctx that the replayer can mark.
func (r *Runner) review(ctx context.Context, c Case) Outcome {
	tr := &reviewTrace{caseID: c.ID}
	ctx = context.WithValue(ctx, traceKey{}, tr)
	start := r.now()
	res, err := r.reviewer.Review(ctx, c.Request)
	o := Outcome{Result: res, Status: res.Status, Latency: r.now().Sub(start)}
	switch {
	case err != nil:
		o = Outcome{Status: StatusError, Err: err.Error(), Latency: o.Latency}
	case tr.missed():
		o.Status, o.Err = StatusReplayMiss, tr.missError()
	}
	return o
}

// reviewTrace travels in the context of one review so that the replaying HTTP client, far down
// the pipeline, can report a miss against the case that caused it.
type reviewTrace struct {
	caseID string
	mu     sync.Mutex
	misses []string // prompt keys that had no recorded answer
}

type traceKey struct{}

func traceFrom(ctx context.Context) *reviewTrace {
	tr, _ := ctx.Value(traceKey{}).(*reviewTrace)
	return tr
}

func (t *reviewTrace) markMiss(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.misses = append(t.misses, key)
}

func (t *reviewTrace) missed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.misses) > 0
}

func (t *reviewTrace) missError() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("no recorded model answer for prompt %s", t.misses[0])
}
