package redisstore_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/redisstore/redistest"
	"github.com/guardianhq/guardian/riskmodel"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newStore(t *testing.T, url string, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(url, append([]redisstore.Option{redisstore.WithLogger(quiet())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStoreBreakersAndCache(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	a := newStore(t, srv.URL, redisstore.WithPrefix("team1"))
	b := newStore(t, srv.URL, redisstore.WithPrefix("team1"))
	other := newStore(t, srv.URL, redisstore.WithPrefix("team2"))

	if s, err := a.Breakers(ctx, "v1"); err != nil || s.DenialsOpen || s.DenialsRun != 0 {
		t.Fatalf("empty store: %+v, %v", s, err)
	}
	open := func(s guardian.SavedBreakers) guardian.SavedBreakers {
		s.DenialsOpen, s.DenialsReason = true, "test"
		return s
	}
	if _, err := a.UpdateBreakers(ctx, "v1", open); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		store *redisstore.Store
		scope string
		open  bool
	}{
		{"same prefix, same scope", b, "v1", true},
		{"same prefix, other scope", b, "v2", false},
		{"other prefix", other, "v1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.store.Breakers(ctx, tt.scope)
			if err != nil || s.DenialsOpen != tt.open {
				t.Fatalf("DenialsOpen = %v (err %v), want %v", s.DenialsOpen, err, tt.open)
			}
		})
	}

	res := guardian.Result{Decision: riskmodel.Deny, Status: guardian.StatusCached, DecidedBy: "cache",
		Assessment: riskmodel.Assessment{Summary: "s", Level: riskmodel.Critical, Category: riskmodel.CatNone, Rationale: "r"}}
	if err := a.CacheResult(ctx, "k1", res, time.Minute); err != nil {
		t.Fatal(err)
	}
	got, ok, err := b.CachedResult(ctx, "k1")
	if err != nil || !ok || got.Decision != riskmodel.Deny || got.DecidedBy != "cache" {
		t.Fatalf("CachedResult = %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := b.CachedResult(ctx, "k2"); ok || err != nil {
		t.Fatalf("missing key: ok %v, err %v", ok, err)
	}

	// Every key is namespaced and expires.
	keys, err := a.Client().Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 {
		t.Fatalf("keys = %v, want the breakers and one cached result", keys)
	}
	for _, k := range keys {
		ttl, err := a.Client().TTL(ctx, k).Result()
		if err != nil || ttl <= 0 {
			t.Errorf("key %s: TTL %v (%v), want it to expire", k, ttl, err)
		}
		if len(k) < 6 || k[:6] != "team1:" {
			t.Errorf("key %s is not under the prefix team1:", k)
		}
	}
}

// TestStoreUpdateBreakersConcurrent has two stores (two replicas) update the same breakers at
// once: the optimistic transaction must lose no update.
func TestStoreUpdateBreakersConcurrent(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	// Generous timeouts: this test is about lost updates, and a loaded CI machine can take
	// longer than DefaultTimeout to accept a connection.
	url := srv.URL + "?dial_timeout=10s&read_timeout=10s&write_timeout=10s&pool_timeout=10s"
	stores := []*redisstore.Store{newStore(t, url), newStore(t, url)}
	const each = 40
	var wg sync.WaitGroup
	errs := make(chan error, 4*each)
	for _, s := range stores {
		for range 2 {
			wg.Go(func() {
				for range each {
					_, err := s.UpdateBreakers(ctx, "v", func(b guardian.SavedBreakers) guardian.SavedBreakers {
						b.DenialsRun++
						return b
					})
					if err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s, err := stores[0].Breakers(ctx, "v")
	if err != nil || s.DenialsRun != 4*each {
		t.Fatalf("DenialsRun = %d (%v), want %d: an update was lost", s.DenialsRun, err, 4*each)
	}
}

// TestStoreDown: with Redis gone every operation fails fast with an error (which the pipeline
// turns into its local fallback), and right after a failure without even trying.
func TestStoreDown(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	s := newStore(t, srv.URL, redisstore.WithRetryAfter(time.Hour))
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	if _, err := s.Breakers(ctx, "v"); err == nil {
		t.Fatal("Breakers succeeded with Redis killed")
	}
	if _, _, err := s.CachedResult(ctx, "k"); !errors.Is(err, guardian.ErrStoreUnavailable) {
		t.Fatalf("right after a failure: %v, want ErrStoreUnavailable (no new attempt)", err)
	}
	if _, err := s.UpdateBreakers(ctx, "v", func(b guardian.SavedBreakers) guardian.SavedBreakers { return b }); !errors.Is(err, guardian.ErrStoreUnavailable) {
		t.Fatalf("UpdateBreakers: %v, want ErrStoreUnavailable", err)
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	for _, url := range []string{"http://localhost:6379", "redis://:secret@host:6379/notadb", "nonsense"} {
		_, err := redisstore.New(url)
		if err == nil {
			t.Errorf("New(%q) = nil error", url)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q) error shows the password: %v", url, err)
		}
	}
	if _, err := redisstore.New("redis://127.0.0.1:6379", redisstore.WithPrefix("a b")); err == nil {
		t.Error("a prefix with a space was accepted")
	}
}
