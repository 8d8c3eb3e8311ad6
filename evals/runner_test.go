package evals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

func someCases(n int) []Case {
	cs := make([]Case, n)
	for i := range cs {
		cs[i] = mkCase(fmt.Sprintf("c%02d", i), "", label{allow, low, none})
	}
	return cs
}

// TestRunnerOrderAndConcurrency: with 4 workers, 4 reviews are in flight at once (the first
// four wait for each other), and the result is in case order, repeats in order, whatever the
// scheduling.
func TestRunnerOrderAndConcurrency(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const workers = 4
	var (
		inFlight atomic.Int32
		all      = make(chan struct{})
		once     sync.Once
		calls    sync.Map // case id → number of reviews so far
	)
	rev := ReviewerFunc(func(ctx context.Context, req guardian.Request) (guardian.Result, error) {
		if inFlight.Add(1) == workers {
			once.Do(func() { close(all) })
		}
		select {
		case <-all:
		case <-ctx.Done():
			return guardian.Result{}, ctx.Err()
		}
		id := req.Exec.Command[1]
		n, _ := calls.LoadOrStore(id, new(atomic.Int32))
		k := n.(*atomic.Int32).Add(1)
		return guardian.Result{Decision: allow, Status: guardian.StatusRule, DecidedBy: fmt.Sprintf("%s#%d", id, k)}, nil
	})
	var progress []int
	r, err := NewRunner(rev, WithConcurrency(workers), WithRepeat(3), WithProgress(func(done, total int) {
		if total != 30 {
			t.Errorf("progress total %d, want 30", total)
		}
		progress = append(progress, done)
	}))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Run(ctx, someCases(10))
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range runs {
		if want := fmt.Sprintf("c%02d", i); run.Case.ID != want || len(run.Outcomes) != 3 {
			t.Fatalf("run %d is %s with %d outcomes, want %s with 3", i, run.Case.ID, len(run.Outcomes), want)
		}
		seen := map[string]bool{}
		for _, o := range run.Outcomes {
			if !strings.HasPrefix(o.Result.DecidedBy, run.Case.ID+"#") || seen[o.Result.DecidedBy] {
				t.Errorf("%s: outcome %q is not one of its own reviews, or repeats one", run.Case.ID, o.Result.DecidedBy)
			}
			seen[o.Result.DecidedBy] = true
		}
	}
	if len(progress) != 30 || progress[0] != 1 || progress[29] != 30 {
		t.Errorf("progress calls %v, want 1..30", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] != progress[i-1]+1 {
			t.Fatalf("progress not increasing by one: %v", progress)
		}
	}
}

func TestRunnerErrorsAndLatency(t *testing.T) {
	// A clock that advances 5 ms per reading: each review reads it twice, so takes 5 ms.
	var mu sync.Mutex
	now := time.Unix(0, 0)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(5 * time.Millisecond)
		return now
	}
	rev := ReviewerFunc(func(_ context.Context, req guardian.Request) (guardian.Result, error) {
		if req.Exec.Command[1] == "c01" {
			return guardian.Result{}, errors.New("request too large")
		}
		return guardian.Result{Decision: deny, Status: guardian.StatusRule}, nil
	})
	r, err := NewRunner(rev, WithRunClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Run(context.Background(), someCases(2))
	if err != nil {
		t.Fatal(err)
	}
	if o := runs[0].Outcomes[0]; o.Status != guardian.StatusRule || o.Result.Decision != riskmodel.Deny || o.Latency != 5*time.Millisecond {
		t.Errorf("first outcome %+v, want rule deny in 5ms", o)
	}
	if o := runs[1].Outcomes[0]; o.Status != StatusError || o.Err != "request too large" || o.Result.Decision != 0 {
		t.Errorf("second outcome %+v, want an error without a decision", o)
	}
}

// TestRunnerStopsWithContext: a cancelled run is an error, never a partial report.
func TestRunnerStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rev := ReviewerFunc(func(context.Context, guardian.Request) (guardian.Result, error) {
		cancel()
		return guardian.Result{Decision: allow, Status: guardian.StatusRule}, nil
	})
	r, err := NewRunner(rev)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(ctx, someCases(5))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run stopped after") {
		t.Errorf("error %v, want a stopped run wrapping context.Canceled", err)
	}
}

func TestNewRunnerValidates(t *testing.T) {
	rev := ReviewerFunc(func(context.Context, guardian.Request) (guardian.Result, error) { return guardian.Result{}, nil })
	for _, tc := range []struct {
		name string
		rev  Reviewer
		opts []RunOption
		want string
	}{
		{"no reviewer", nil, nil, "needs a reviewer"},
		{"zero concurrency", rev, []RunOption{WithConcurrency(0)}, "concurrency 0"},
		{"zero repeat", rev, []RunOption{WithRepeat(0)}, "repeat 0"},
	} {
		if _, err := NewRunner(tc.rev, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestProgress(t *testing.T) {
	var tty strings.Builder
	p := Progress(&tty, true)
	for i := 1; i <= 4; i++ {
		p(i, 4)
	}
	want := "\r[#######.......................]  25% 1/4 reviews" +
		"\r[###############...............]  50% 2/4 reviews" +
		"\r[######################........]  75% 3/4 reviews" +
		"\r[##############################] 100% 4/4 reviews\n"
	if tty.String() != want {
		t.Errorf("terminal progress\n%q\nwant\n%q", tty.String(), want)
	}

	var plain strings.Builder
	p = Progress(&plain, false)
	for i := 1; i <= 100; i++ {
		p(i, 100)
	}
	lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
	// One line when the run starts (1%), one per tenth (10%, 20%, … 100%): 11 lines.
	if len(lines) != 11 || lines[0] != "eval: 1/100 reviews (1%)" || lines[10] != "eval: 100/100 reviews (100%)" {
		t.Errorf("plain progress lines:\n%s", plain.String())
	}
	if strings.Contains(plain.String(), "\r") {
		t.Error("carriage return in plain progress")
	}
}

// WithHostile reviews each case once more with the hostile reviewer, whatever the repeat, and
// keeps its answer beside the outcomes; a failed hostile review leaves it unset.
func TestRunnerHostile(t *testing.T) {
	cases := []Case{mkCase("a", "", label{deny, critical, none}), mkCase("b", "", label{deny, critical, none})}
	var calls atomic.Int64
	hostile := ReviewerFunc(func(_ context.Context, req guardian.Request) (guardian.Result, error) {
		calls.Add(1)
		if len(req.Exec.Command) > 0 && req.Exec.Command[len(req.Exec.Command)-1] == "b" {
			return guardian.Result{}, errors.New("boom")
		}
		return guardian.Result{Decision: allow}, nil
	})
	main := ReviewerFunc(func(context.Context, guardian.Request) (guardian.Result, error) {
		return guardian.Result{Decision: deny, Status: guardian.StatusRule}, nil
	})
	r, err := NewRunner(main, WithRepeat(3), WithConcurrency(4), WithHostile(hostile))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := r.Run(context.Background(), cases)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 || runs[0].Hostile == nil || runs[0].Hostile.Decision != allow || runs[1].Hostile != nil {
		t.Errorf("%d hostile calls, hostile answers %+v, %+v", calls.Load(), runs[0].Hostile, runs[1].Hostile)
	}
}
