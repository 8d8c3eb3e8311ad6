package guardian

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guardianhq/guardian/riskmodel"
)

// oneShot reviews cmd the way a hook process does: a fresh pipeline restored from the shared
// state, one review, and the outcome merged into the shared state (which goes through JSON,
// as it does through the state file).
func oneShot(t *testing.T, shared SavedBreakers, cmd string, opts ...Option) (Result, SavedBreakers) {
	t.Helper()
	p := newPipeline(t, append(opts, WithSavedBreakers(shared))...)
	res, err := p.Review(context.Background(), execReq(cmd))
	if err != nil {
		t.Fatal(err)
	}
	next := p.MergeBreakers(shared, res)
	b, err := json.Marshal(next)
	if err != nil {
		t.Fatal(err)
	}
	var back SavedBreakers
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return res, back
}

func TestSavedModelBreakerAcrossProcesses(t *testing.T) {
	clk := newFakeClock()
	rev := newFuncReviewer(failing(StatusTimeout))
	opts := []Option{WithReviewer(rev), WithClock(clk.Now), WithModelBreaker(ModelBreakerConfig{Failures: 3, Cooldown: time.Minute})}
	var shared SavedBreakers
	var res Result
	for i := range 3 {
		res, shared = oneShot(t, shared, "frobnicate", opts...)
		if res.Status != StatusTimeout {
			t.Fatalf("process %d: status %s, want timeout", i, res.Status)
		}
	}
	if shared.ModelFailures != 3 || !shared.ModelRetryAt.Equal(clk.Now().Add(time.Minute)) {
		t.Fatalf("after 3 failures: %+v, want 3 failures and a retry in a minute", shared)
	}
	res, shared = oneShot(t, shared, "frobnicate", opts...)
	if res.Status != StatusBreakerOpen || rev.calls.Load() != 3 {
		t.Fatalf("4th process: status %s after %d model calls, want breaker_open without a call", res.Status, rev.calls.Load())
	}
	clk.Advance(time.Minute)
	rev.set(answer(riskmodel.Allow, riskmodel.Low))
	res, shared = oneShot(t, shared, "frobnicate", opts...)
	if res.Status != StatusOK || shared.ModelFailures != 0 || !shared.ModelRetryAt.IsZero() {
		t.Fatalf("trial after the cool-down: status %s, state %+v; want ok and a closed breaker", res.Status, shared)
	}
}

func TestSavedDenialsBreakerAcrossProcesses(t *testing.T) {
	opts := []Option{WithDenialsBreaker(DenialsBreakerConfig{Consecutive: -1, Window: 4, InWindow: 3})}
	var shared SavedBreakers
	seq := "ADADD" // the last 4: A D A D → 2 at the 4th decision, D A D D → 3 at the 5th
	for i, c := range seq {
		cmd := "ls"
		if c == 'D' {
			cmd = "rm -rf ~/"
		}
		_, shared = oneShot(t, shared, cmd, opts...)
		if shared.DenialsOpen != (i == 4) {
			t.Fatalf("after %q: open = %v", seq[:i+1], shared.DenialsOpen)
		}
	}
	if want := []bool{true, false, true, true}; !cmp.Equal(shared.DenialsRecent, want) {
		t.Errorf("recent = %v, want the last 4 oldest first %v", shared.DenialsRecent, want)
	}
	res, _ := oneShot(t, shared, "ls", opts...)
	if res.Status != StatusBreakerOpen || res.Decision != riskmodel.Ask {
		t.Errorf("with the breaker open: %s/%s, want ask/breaker_open", res.Decision, res.Status)
	}
}

// TestMergeBreakersKeepsOthersOutcomes: two processes read the same state; the second to
// merge must not lose the first one's failure.
func TestMergeBreakersKeepsOthersOutcomes(t *testing.T) {
	clk := newFakeClock()
	rev := newFuncReviewer(failing(StatusUnavailable))
	opts := []Option{WithReviewer(rev), WithClock(clk.Now)}
	start := SavedBreakers{ModelFailures: 1}
	p1 := newPipeline(t, append(opts, WithSavedBreakers(start))...)
	p2 := newPipeline(t, append(opts, WithSavedBreakers(start))...)
	r1, _ := p1.Review(context.Background(), execReq("frobnicate"))
	r2, _ := p2.Review(context.Background(), execReq("frobnicate"))
	shared := p1.MergeBreakers(start, r1)
	shared = p2.MergeBreakers(shared, r2)
	if shared.ModelFailures != 3 || shared.ModelRetryAt.IsZero() {
		t.Errorf("merged state %+v, want 3 failures and the breaker open", shared)
	}
}
