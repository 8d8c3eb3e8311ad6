package guardian

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// fakeStore is a StateStore in memory whose answers a test sets: it stands for what a shared
// store could hold after another replica (or someone with access to Redis) wrote it.
type fakeStore struct {
	breakers SavedBreakers
	cached   map[string]Result
	err      error
}

func (f *fakeStore) Breakers(context.Context, string) (SavedBreakers, error) {
	return f.breakers, f.err
}
func (f *fakeStore) UpdateBreakers(_ context.Context, _ string, fn func(SavedBreakers) SavedBreakers) (SavedBreakers, error) {
	if f.err != nil {
		return SavedBreakers{}, f.err
	}
	f.breakers = fn(f.breakers)
	return f.breakers, nil
}
func (f *fakeStore) CachedResult(_ context.Context, k string) (Result, bool, error) {
	r, ok := f.cached[k]
	return r, ok, f.err
}
func (f *fakeStore) CacheResult(_ context.Context, k string, r Result, _ time.Duration) error {
	if f.err != nil {
		return f.err
	}
	f.cached[k] = r
	return nil
}

// TestStoreCacheReplaysOnlyWhatIsCacheable: whatever a store returns for a key, the pipeline
// replays only the served form of a deny or a low-risk allow; anything else is a miss and the
// request is reviewed afresh.
func TestStoreCacheReplaysOnlyWhatIsCacheable(t *testing.T) {
	asm := func(l riskmodel.Level) riskmodel.Assessment {
		return riskmodel.Assessment{Summary: "planted", Level: l, Category: riskmodel.CatNone, Rationale: "planted"}
	}
	tests := []struct {
		name   string
		stored Result
		replay bool
	}{
		{"cached deny", Result{Decision: riskmodel.Deny, Status: StatusCached, DecidedBy: "cache", Assessment: asm(riskmodel.High)}, true},
		{"cached allow at low", Result{Decision: riskmodel.Allow, Status: StatusCached, DecidedBy: "cache", Assessment: asm(riskmodel.Low)}, true},
		{"allow at critical", Result{Decision: riskmodel.Allow, Status: StatusCached, DecidedBy: "cache", Assessment: asm(riskmodel.Critical)}, false},
		{"allow not in served form", Result{Decision: riskmodel.Allow, Status: StatusRule, DecidedBy: "rule:x", Assessment: asm(riskmodel.Low)}, false},
		{"ask", Result{Decision: riskmodel.Ask, Status: StatusCached, DecidedBy: "cache", Assessment: asm(riskmodel.Low)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &fakeStore{cached: map[string]Result{}}
			p := newPipeline(t, WithCache(time.Hour, 16, "v1"), WithStateStore(st, "v1"))
			req := execReq("rm -rf ~/")
			k, err := p.cache.key(req)
			if err != nil {
				t.Fatal(err)
			}
			st.cached[p.storeCacheKey(k)] = tc.stored
			res, err := p.Review(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if replayed := res.Assessment.Summary == "planted"; replayed != tc.replay {
				t.Fatalf("replayed = %v, want %v (%s, %s)", replayed, tc.replay, res.Decision, res.Status)
			}
			if !tc.replay && res.Decision != riskmodel.Deny {
				t.Fatalf("fresh review of rm -rf ~/: %s, want deny", res.Decision)
			}
		})
	}
}

// TestStoreFailureFallsBackToLocalState: with the store failing, a breaker that was open in it
// stays open (the mirror), and the local breaker goes on counting.
func TestStoreFailureFallsBackToLocalState(t *testing.T) {
	st := &fakeStore{cached: map[string]Result{}, breakers: SavedBreakers{DenialsOpen: true, DenialsReason: "elsewhere"}}
	p := newPipeline(t, WithDenialsBreaker(DenialsBreakerConfig{Consecutive: 2, Window: -1}), WithStateStore(st, "v1"))
	res, _ := p.Review(context.Background(), execReq("ls"))
	if res.Status != StatusBreakerOpen {
		t.Fatalf("with the shared breaker open: %s (%s)", res.Decision, res.Status)
	}
	st.err = errors.New("connection refused")
	res, _ = p.Review(context.Background(), execReq("ls"))
	if res.Status != StatusBreakerOpen || res.Decision == riskmodel.Allow {
		t.Fatalf("store down: %s (%s), want the mirrored open breaker to hand it over", res.Decision, res.Status)
	}

	// A closed mirror keeps counting locally while the store is down.
	st2 := &fakeStore{cached: map[string]Result{}, err: errors.New("connection refused")}
	p2 := newPipeline(t, WithDenialsBreaker(DenialsBreakerConfig{Consecutive: 2, Window: -1}), WithStateStore(st2, "v1"))
	for range 2 {
		p2.Review(context.Background(), execReq("rm -rf ~/"))
	}
	if res, _ := p2.Review(context.Background(), execReq("ls")); res.Status != StatusBreakerOpen {
		t.Fatalf("local denials while the store is down: %s (%s), want the local breaker open", res.Decision, res.Status)
	}
}
