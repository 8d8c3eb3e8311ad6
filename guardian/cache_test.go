package guardian

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

func TestCacheWhatIsStored(t *testing.T) {
	tests := []struct {
		name      string
		cmd       string
		answer    func(context.Context, Request) (Review, error)
		opts      []Option
		want      riskmodel.Decision
		wantCache bool
	}{
		{"rule deny", "rm -rf ~/", nil, nil, riskmodel.Deny, true},
		{"rule allow at low", "ls", nil, nil, riskmodel.Allow, true},
		{"rule allow at medium", "npm install lodash", nil, nil, riskmodel.Allow, false},
		{"rules ask without a model", "frobnicate", nil, nil, riskmodel.Ask, false},
		{"model allow at low", "frobnicate", answer(riskmodel.Allow, riskmodel.Low), nil, riskmodel.Allow, true},
		{"model allow at medium", "frobnicate", answer(riskmodel.Allow, riskmodel.Medium), nil, riskmodel.Allow, false},
		{"model allow capped to ask", "git push -f origin feat", answer(riskmodel.Allow, riskmodel.Low), nil, riskmodel.Ask, false},
		{"model allow at low, rules high, ceiling raised", "git push -f origin feat", answer(riskmodel.Allow, riskmodel.Low), []Option{WithAllowCeiling(riskmodel.High)}, riskmodel.Allow, false},
		{"model deny", "frobnicate", answer(riskmodel.Deny, riskmodel.Medium), nil, riskmodel.Deny, true},
		{"unsupported model deny handed over", "frobnicate", answer(riskmodel.Deny, riskmodel.Low), []Option{WithUnsupportedDeny(riskmodel.Ask)}, riskmodel.Ask, false},
		{"model ask", "frobnicate", answer(riskmodel.Ask, riskmodel.Medium), nil, riskmodel.Ask, false},
		{"fallback unavailable", "frobnicate", failing(StatusUnavailable), nil, riskmodel.Ask, false},
		{"fallback timeout", "frobnicate", failing(StatusTimeout), nil, riskmodel.Ask, false},
		{"fallback bad output", "frobnicate", failing(StatusBadOutput), nil, riskmodel.Ask, false},
		{"headless fallback deny", "frobnicate", failing(StatusBadOutput), []Option{WithFallback(FallbackHeadless)}, riskmodel.Deny, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]Option{WithCache(time.Hour, 16, "v1")}, tc.opts...)
			var rev *funcReviewer
			if tc.answer != nil {
				rev = newFuncReviewer(tc.answer)
				opts = append(opts, WithReviewer(rev))
			}
			p := newPipeline(t, opts...)
			first, _ := p.Review(context.Background(), execReq(tc.cmd))
			second, _ := p.Review(context.Background(), execReq(tc.cmd))
			if first.Decision != tc.want || second.Decision != tc.want {
				t.Fatalf("decisions %s, %s; want %s", first.Decision, second.Decision, tc.want)
			}
			if cached := second.Status == StatusCached; cached != tc.wantCache {
				t.Fatalf("second review %s by %s; cached = %v, want %v", second.Status, second.DecidedBy, cached, tc.wantCache)
			}
			if tc.wantCache {
				if second.DecidedBy != "cache" || !strings.Contains(second.Assessment.Rationale, "Cached decision of "+first.DecidedBy+" (status "+string(first.Status)+")") {
					t.Errorf("hit must name the original decider: %q", second.Assessment.Rationale)
				}
				if rev != nil && rev.calls.Load() != 1 {
					t.Errorf("model called %d times, want 1", rev.calls.Load())
				}
			}
			if p.cache.len() != map[bool]int{true: 1, false: 0}[tc.wantCache] {
				t.Errorf("cache holds %d entries", p.cache.len())
			}
		})
	}
}

func TestCacheNeverStoresBreakerResults(t *testing.T) {
	rev := newFuncReviewer(failing(StatusTimeout))
	p := newPipeline(t, WithReviewer(rev), WithCache(time.Hour, 16, "v1"), WithModelBreaker(ModelBreakerConfig{Failures: 1}),
		WithDenialsBreaker(DenialsBreakerConfig{Consecutive: 1, Window: -1}))
	_, _ = p.Review(context.Background(), execReq("frobnicate")) // opens the model breaker
	if res, _ := p.Review(context.Background(), execReq("frobnicate")); res.Status != StatusBreakerOpen {
		t.Fatalf("got %+v", res)
	}
	_, _ = p.Review(context.Background(), execReq("rm -rf ~/")) // cached, and opens the denials breaker
	if res, _ := p.Review(context.Background(), execReq("ls")); res.Status != StatusBreakerOpen {
		t.Fatalf("got %+v", res)
	}
	if n := p.cache.len(); n != 1 {
		t.Fatalf("cache holds %d entries, want only the rule deny", n)
	}
	p.ResetDenials()
	if res, _ := p.Review(context.Background(), execReq("rm -rf ~/")); res.Status != StatusCached || res.Decision != riskmodel.Deny {
		t.Fatalf("got %+v", res)
	}
}

func TestCacheTTL(t *testing.T) {
	clk := newFakeClock()
	rev := newFuncReviewer(answer(riskmodel.Allow, riskmodel.Low))
	p := newPipeline(t, WithReviewer(rev), WithClock(clk.Now), WithCache(time.Minute, 16, "v1"))
	steps := []struct {
		advance    time.Duration
		wantStatus Status
		wantCalls  int64
	}{
		{0, StatusOK, 1},
		{time.Minute - time.Nanosecond, StatusCached, 1},
		{time.Nanosecond, StatusOK, 2}, // expired exactly at the TTL, stored anew
		{30 * time.Second, StatusCached, 2},
		{30 * time.Second, StatusOK, 3},
	}
	for i, s := range steps {
		clk.Advance(s.advance)
		res, _ := p.Review(context.Background(), execReq("frobnicate"))
		if res.Status != s.wantStatus || rev.calls.Load() != s.wantCalls {
			t.Fatalf("step %d: %s after %d calls, want %s after %d", i, res.Status, rev.calls.Load(), s.wantStatus, s.wantCalls)
		}
	}
}

func TestCacheKey(t *testing.T) {
	clk := newFakeClock()
	c1 := newDecisionCache(time.Hour, 8, "policy-1/exec-v1#ab", clk.Now)
	c2 := newDecisionCache(time.Hour, 8, "policy-1/exec-v2#cd", clk.Now)
	key := func(c *decisionCache, r Request) cacheKey {
		t.Helper()
		k, err := c.key(r)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	exec := func(cwd, just string) Request {
		return ExecRequest(riskmodel.ExecRequest{Command: []string{"make", "test"}, Cwd: cwd, Justification: just})
	}
	mcp := func(args map[string]any) Request {
		return MCPRequest(riskmodel.MCPRequest{Server: "gh", Tool: "list_issues", Arguments: args})
	}
	base := key(c1, exec("/home/dev/a", ""))
	tests := []struct {
		name string
		a, b cacheKey
		same bool
	}{
		{"same request", base, key(c1, exec("/home/dev/a", "")), true},
		{"cwd differs", base, key(c1, exec("/home/dev/b", "")), false},
		{"version differs", base, key(c2, exec("/home/dev/a", "")), false},
		{"justification differs", base, key(c1, exec("/home/dev/a", "tests")), false},
		{"argv split differs", key(c1, ExecRequest(riskmodel.ExecRequest{Command: []string{"make test"}})), key(c1, ExecRequest(riskmodel.ExecRequest{Command: []string{"make", "test"}})), false},
		{"map order is irrelevant", key(c1, mcp(map[string]any{"a": 1, "b": []any{"x"}})), key(c1, mcp(map[string]any{"b": []any{"x"}, "a": 1})), true},
		{"mcp arguments differ", key(c1, mcp(map[string]any{"a": 1})), key(c1, mcp(map[string]any{"a": 2})), false},
	}
	for _, tc := range tests {
		if (tc.a == tc.b) != tc.same {
			t.Errorf("%s: same = %v, want %v", tc.name, tc.a == tc.b, tc.same)
		}
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	clk := newFakeClock()
	c := newDecisionCache(time.Hour, 2, "v", clk.Now)
	k := func(s string) cacheKey { return cacheKey{s[0]} }
	res := func(s string) Result {
		return Result{Decision: riskmodel.Deny, Status: StatusRule, DecidedBy: "rule:" + s, Assessment: riskmodel.Assessment{Level: riskmodel.High}}
	}
	c.put(k("a"), res("a"))
	c.put(k("b"), res("b"))
	if _, ok := c.get(k("a")); !ok { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.put(k("c"), res("c"))
	for name, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, ok := c.get(k(name)); ok != want {
			t.Errorf("%s present = %v, want %v", name, ok, want)
		}
	}
	c.put(k("c"), res("c2")) // replacing does not evict
	if got, ok := c.get(k("c")); c.len() != 2 || !ok || !strings.Contains(got.Assessment.Rationale, "rule:c2") {
		t.Errorf("replace: len %d, %+v", c.len(), got)
	}
}

func TestCacheResultIsACopy(t *testing.T) {
	p := newPipeline(t, WithCache(time.Hour, 4, "v"))
	first, _ := p.Review(context.Background(), execReq("rm -rf ~/"))
	hit, _ := p.Review(context.Background(), execReq("rm -rf ~/"))
	hit.Assessment.Findings[0].Level = riskmodel.Low
	again, _ := p.Review(context.Background(), execReq("rm -rf ~/"))
	if again.Status != StatusCached || again.Assessment.Findings[0].Level != first.Assessment.Findings[0].Level {
		t.Fatalf("a caller's change leaked into the cache: %+v", again.Assessment.Findings)
	}
}

func TestCacheDisabled(t *testing.T) {
	for _, o := range []Option{WithCache(0, 10, "v"), WithCache(time.Hour, 0, "v")} {
		p := newPipeline(t, o)
		_, _ = p.Review(context.Background(), execReq("ls"))
		if res, _ := p.Review(context.Background(), execReq("ls")); p.cache != nil || res.Status != StatusRule {
			t.Fatalf("cache should be off: %+v", res)
		}
	}
}
