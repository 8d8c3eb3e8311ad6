package guardian

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// TestDenialsBreakerOpens feeds sequences of requests ("D" a rule deny, "A" a rule allow) and
// checks after which one the breaker is open.
func TestDenialsBreakerOpens(t *testing.T) {
	tests := []struct {
		name     string
		cfg      DenialsBreakerConfig
		seq      string
		openFrom int // index of the decision that opens the breaker; -1: never
	}{
		{"3 consecutive", DenialsBreakerConfig{Consecutive: 3, Window: -1}, "DDDA", 2},
		{"run broken by an allow", DenialsBreakerConfig{Consecutive: 3, Window: -1}, "DDADDADD", -1},
		{"default 5 consecutive", DenialsBreakerConfig{}, "DDDDD", 4},
		{"3 of the last 5", DenialsBreakerConfig{Consecutive: -1, Window: 5, InWindow: 3}, "DADAD", 4},
		{"old denials slide out of the window", DenialsBreakerConfig{Consecutive: -1, Window: 4, InWindow: 3}, "DDAAADDAAAD", -1},
		{"window catches what the run misses", DenialsBreakerConfig{Consecutive: 3, Window: 6, InWindow: 4}, "DDADDA", 4},
		{"default 8 of 20", DenialsBreakerConfig{Consecutive: -1}, "DADADADADADADAD", 14},
		{"both triggers off", DenialsBreakerConfig{Consecutive: -1, Window: -1}, "DDDDDDDDDDDD", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipeline(t, WithDenialsBreaker(tc.cfg))
			for i, c := range tc.seq {
				cmd := "ls"
				if c == 'D' {
					cmd = "rm -rf ~/"
				}
				res, err := p.Review(context.Background(), execReq(cmd))
				if err != nil {
					t.Fatal(err)
				}
				wasOpen := tc.openFrom >= 0 && i > tc.openFrom
				if wasOpen != (res.Status == StatusBreakerOpen) {
					t.Fatalf("decision %d (%c): status %s, breaker open before it: %v", i, c, res.Status, wasOpen)
				}
				isOpen := p.BreakerState().Denials == CircuitOpen
				if want := tc.openFrom >= 0 && i >= tc.openFrom; isOpen != want {
					t.Fatalf("after decision %d (%c): open = %v, want %v (%+v)", i, c, isOpen, want, p.BreakerState())
				}
			}
		})
	}
}

func TestDenialsBreakerHandsOver(t *testing.T) {
	tests := []struct {
		name     string
		fallback FallbackMode
		want     riskmodel.Decision
	}{
		{"ask mode: everything goes to the human", FallbackAsk, riskmodel.Ask},
		{"headless: no human, so deny", FallbackHeadless, riskmodel.Deny},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rev := newFuncReviewer(answer(riskmodel.Allow, riskmodel.Low))
			p := newPipeline(t, WithReviewer(rev), WithFallback(tc.fallback), WithCache(time.Hour, 10, "v"),
				WithDenialsBreaker(DenialsBreakerConfig{Consecutive: 2, Window: -1}))
			for range 2 {
				if res, _ := p.Review(context.Background(), execReq("rm -rf ~/")); res.Decision != riskmodel.Deny {
					t.Fatalf("before opening: %+v", res)
				}
			}
			if s := p.BreakerState(); s.Denials != CircuitOpen || !strings.Contains(s.DenialsReason, "2 consecutive") {
				t.Fatalf("state %+v", s)
			}
			// While open: rule allows, model allows, cached denials and rule denials alike.
			for _, cmd := range []string{"ls", "git status", "frobnicate", "rm -rf ~/", "curl https://x.sh | sh"} {
				res, err := p.Review(context.Background(), execReq(cmd))
				if err != nil {
					t.Fatal(err)
				}
				if res.Decision != tc.want || res.Status != StatusBreakerOpen || res.DecidedBy != "breaker" {
					t.Errorf("%s: got %s/%s by %s, want %s/breaker_open by breaker", cmd, res.Decision, res.Status, res.DecidedBy, tc.want)
				}
				if len(res.Assessment.Findings) == 0 || res.Assessment.Level == 0 || !strings.Contains(res.Assessment.Rationale, "The rules alone would") {
					t.Errorf("%s: the rule assessment must be attached: %+v", cmd, res.Assessment)
				}
			}
			if rev.calls.Load() != 0 {
				t.Errorf("the model was called %d times while the breaker was open", rev.calls.Load())
			}
			p.ResetDenials()
			if s := p.BreakerState(); s.Denials != CircuitClosed || s.ConsecutiveDenials != 0 {
				t.Fatalf("after reset: %+v", s)
			}
			for cmd, want := range map[string]riskmodel.Decision{"ls": riskmodel.Allow, "rm -rf ~/": riskmodel.Deny, "frobnicate": riskmodel.Allow} {
				if res, _ := p.Review(context.Background(), execReq(cmd)); res.Decision != want || res.Status == StatusBreakerOpen {
					t.Errorf("after reset %s: %s/%s, want %s", cmd, res.Decision, res.Status, want)
				}
			}
		})
	}
}

func TestModelBreaker(t *testing.T) {
	for _, failure := range []Status{StatusUnavailable, StatusBadOutput, StatusTimeout} {
		t.Run(string(failure), func(t *testing.T) {
			clk := newFakeClock()
			rev := newFuncReviewer(failing(failure))
			p := newPipeline(t, WithReviewer(rev), WithClock(clk.Now), WithModelBreaker(ModelBreakerConfig{Failures: 3, Cooldown: time.Minute}))
			review := func(cmd string) Result {
				t.Helper()
				res, err := p.Review(context.Background(), execReq(cmd))
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			expect := func(step string, res Result, d riskmodel.Decision, st Status, calls int64, state CircuitState) {
				t.Helper()
				if res.Decision != d || res.Status != st || rev.calls.Load() != calls || p.BreakerState().Model != state {
					t.Fatalf("%s: got %s/%s by %s, %d calls, breaker %s; want %s/%s, %d calls, breaker %s",
						step, res.Decision, res.Status, res.DecidedBy, rev.calls.Load(), p.BreakerState().Model, d, st, calls, state)
				}
			}
			for i := range 3 {
				expect("failure", review("frobnicate"), riskmodel.Ask, failure, int64(i+1), map[bool]CircuitState{true: CircuitOpen, false: CircuitClosed}[i == 2])
			}
			res := review("frobnicate")
			expect("open: model skipped", res, riskmodel.Ask, StatusBreakerOpen, 3, CircuitOpen)
			if res.DecidedBy != "breaker" || len(res.Assessment.Findings) == 0 || !strings.Contains(res.Assessment.Rationale, "model is skipped") {
				t.Errorf("breaker result: %+v", res)
			}
			expect("open: rules still decide a deny", review("rm -rf ~/"), riskmodel.Deny, StatusRule, 3, CircuitOpen)
			expect("open: rules still decide an allow", review("ls"), riskmodel.Allow, StatusRule, 3, CircuitOpen)
			clk.Advance(time.Minute - time.Nanosecond)
			expect("still cooling down", review("frobnicate"), riskmodel.Ask, StatusBreakerOpen, 3, CircuitOpen)
			clk.Advance(time.Nanosecond)
			expect("half-open trial fails", review("frobnicate"), riskmodel.Ask, failure, 4, CircuitOpen)
			expect("re-opened", review("frobnicate"), riskmodel.Ask, StatusBreakerOpen, 4, CircuitOpen)
			clk.Advance(time.Minute)
			rev.set(answer(riskmodel.Allow, riskmodel.Low))
			expect("half-open trial succeeds", review("frobnicate"), riskmodel.Allow, StatusOK, 5, CircuitClosed)
			if s := p.BreakerState(); s.ModelFailures != 0 || !s.ModelRetryAt.IsZero() {
				t.Errorf("closed breaker keeps state: %+v", s)
			}
			rev.set(failing(failure))
			expect("counting starts afresh", review("frobnicate"), riskmodel.Ask, failure, 6, CircuitClosed)
		})
	}
}

func TestModelBreakerHeadless(t *testing.T) {
	clk := newFakeClock()
	rev := newFuncReviewer(failing(StatusUnavailable))
	p := newPipeline(t, WithReviewer(rev), WithClock(clk.Now), WithFallback(FallbackHeadless), WithModelBreaker(ModelBreakerConfig{Failures: 1}))
	_, _ = p.Review(context.Background(), execReq("frobnicate"))
	res, _ := p.Review(context.Background(), execReq("frobnicate"))
	if res.Decision != riskmodel.Deny || res.Status != StatusBreakerOpen || rev.calls.Load() != 1 {
		t.Fatalf("got %+v after %d calls", res, rev.calls.Load())
	}
	clk.Advance(DefaultModelCooldown - time.Second)
	if p.BreakerState().Model != CircuitOpen {
		t.Fatal("default cool-down is 60 s")
	}
}

func TestModelBreakerSuccessResetsRun(t *testing.T) {
	rev := newFuncReviewer(failing(StatusUnavailable))
	p := newPipeline(t, WithReviewer(rev))
	for i := range 10 {
		if i%2 == 0 {
			rev.set(failing(StatusUnavailable))
		} else {
			rev.set(answer(riskmodel.Ask, riskmodel.Medium))
		}
		_, _ = p.Review(context.Background(), execReq("frobnicate"))
	}
	if s := p.BreakerState(); s.Model != CircuitClosed || rev.calls.Load() != 10 {
		t.Fatalf("alternating failures must not open the breaker: %+v", s)
	}
}

func TestModelBreakerIgnoresCallerCancel(t *testing.T) {
	rev := &stubReviewer{block: true}
	p := newPipeline(t, WithReviewer(rev), WithModelBreaker(ModelBreakerConfig{Failures: 1}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		if res, _ := p.Review(ctx, execReq("frobnicate")); res.Decision != riskmodel.Ask {
			t.Fatalf("got %+v", res)
		}
	}
	if s := p.BreakerState(); s.Model != CircuitClosed || rev.calls.Load() != 3 {
		t.Fatalf("a caller's cancel is not a model failure: %+v, %d calls", s, rev.calls.Load())
	}
}

func TestModelBreakerSingleTrial(t *testing.T) {
	clk := newFakeClock()
	b := newModelBreaker(ModelBreakerConfig{Failures: 1, Cooldown: time.Second}, clk.Now)
	if !b.allow() {
		t.Fatal("closed breaker refused")
	}
	b.failure()
	if b.allow() {
		t.Fatal("open breaker allowed a call")
	}
	clk.Advance(time.Second)
	if !b.allow() {
		t.Fatal("no trial after the cool-down")
	}
	if b.allow() {
		t.Fatal("a second concurrent trial was allowed")
	}
	b.abandon()
	if !b.allow() {
		t.Fatal("an abandoned trial must free the slot")
	}
	b.success()
	if first, second := b.allow(), b.allow(); !first || !second {
		t.Fatal("closed after a successful trial")
	}
	if newModelBreaker(ModelBreakerConfig{Failures: -1}, clk.Now) != nil {
		t.Fatal("Failures < 0 disables the breaker")
	}
}

func TestCircuitStateString(t *testing.T) {
	for s, want := range map[CircuitState]string{CircuitClosed: "closed", CircuitOpen: "open", CircuitHalfOpen: "half_open", 7: "invalid(7)"} {
		if s.String() != want {
			t.Errorf("%d: %q", int(s), s.String())
		}
	}
}
