package guardian

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// StateStore holds the state that replicas of guardian serve share: the two circuit breakers
// and the decision cache. Without one (the default) a Pipeline keeps that state in its own
// memory, as it always has; with one, a breaker opened by one replica is open on all, and a
// decision cached by one is replayed by all (guardian/redisstore is the Redis implementation).
//
// A store never decides anything: it only holds breakers (which can only hand requests to the
// human) and cached decisions (replays of what the same policy version decided before). So an
// unreachable store can never turn a request into allow: the Pipeline falls back to its local
// state (see WithStateStore) and counts the failure in guardian.store.errors.
//
// Every method is safe for concurrent use, honours ctx, and returns an error rather than
// block when the store cannot be reached.
type StateStore interface {
	// Breakers returns the breakers' state under scope; the zero state when none is stored.
	Breakers(ctx context.Context, scope string) (SavedBreakers, error)
	// UpdateBreakers applies f atomically to the state under scope, even when other replicas
	// update it at the same time (f may run more than once), and returns the new state.
	UpdateBreakers(ctx context.Context, scope string, f func(SavedBreakers) SavedBreakers) (SavedBreakers, error)
	// CachedResult returns the result stored under key, if it has not expired.
	CachedResult(ctx context.Context, key string) (Result, bool, error)
	// CacheResult stores res under key for ttl.
	CacheResult(ctx context.Context, key string, res Result, ttl time.Duration) error
}

// WithStateStore keeps the breakers and the decision cache in s, under scope: pipelines with
// the same scope share them. Pass the effective config's PolicyVersion as scope, so replicas
// under the same policy share their breakers and cache, and a different policy (another
// project file) has its own.
//
// The pipeline still keeps its breakers in memory, as a mirror: before each review it adopts
// the stored state, after it the review's effect is merged into the store (MergeBreakers).
// When the store fails, the review goes on with the mirror — the last shared state this
// replica saw plus its own decisions since — and the cache is skipped (a miss: the request is
// reviewed afresh). A breaker that was open in the store stays open here.
func WithStateStore(s StateStore, scope string) Option {
	return func(p *Pipeline) { p.store, p.storeScope = s, scope }
}

// The store operations, as the op attribute of guardian.store.errors.
const (
	storeOpBreakers = "breakers"
	storeOpUpdate   = "update"
	storeOpCacheGet = "cache_get"
	storeOpCachePut = "cache_put"
)

// pullBreakers adopts the shared breaker state before a review. On failure the mirror stands.
func (p *Pipeline) pullBreakers(ctx context.Context) {
	if !p.sharesBreakers() {
		return
	}
	s, err := p.store.Breakers(ctx, p.storeScope)
	if err != nil {
		p.metrics.storeError(ctx, storeOpBreakers)
		return
	}
	p.adopt(s)
}

// pushBreakers merges the effect of res into the shared state and adopts the result. On
// failure the mirror keeps the effect (the local breakers recorded it already).
func (p *Pipeline) pushBreakers(ctx context.Context, res Result) {
	if !p.sharesBreakers() {
		return
	}
	s, err := p.store.UpdateBreakers(ctx, p.storeScope, func(s SavedBreakers) SavedBreakers { return p.MergeBreakers(s, res) })
	if err != nil {
		p.metrics.storeError(ctx, storeOpUpdate)
		return
	}
	p.adopt(s)
}

// sharesBreakers reports whether there is breaker state to share: a store, and a denials
// breaker or a model breaker with a model behind it. A rules-only pipeline without the denials
// breaker makes no round trip for breakers.
func (p *Pipeline) sharesBreakers() bool {
	return p.store != nil && (p.denials != nil || (p.model != nil && p.second != nil))
}

// adopt makes the local breakers mirror a shared state. A model trial this replica has in
// flight is kept: the shared state cannot know about it yet.
func (p *Pipeline) adopt(s SavedBreakers) {
	p.denials.restore(s)
	p.model.adopt(s)
}

func (b *modelBreaker) adopt(s SavedBreakers) {
	if b == nil {
		return
	}
	b.mu.Lock()
	trial := b.state == CircuitHalfOpen && b.trialing
	b.mu.Unlock()
	if trial && (s.ModelRetryAt.IsZero() || !b.now().Before(s.ModelRetryAt)) {
		return
	}
	b.restore(s)
}

// cacheGet looks key up in the store, or in the local cache without one. A store failure is
// a miss.
func (p *Pipeline) cacheGet(ctx context.Context, k cacheKey) (Result, bool) {
	if p.store == nil {
		return p.cache.get(k)
	}
	res, ok, err := p.store.CachedResult(ctx, p.storeCacheKey(k))
	if err != nil {
		p.metrics.storeError(ctx, storeOpCacheGet)
		return Result{}, false
	}
	if !ok || !validCached(res) {
		return Result{}, false
	}
	return res, true
}

// cachePut stores res in the store, or in the local cache without one.
func (p *Pipeline) cachePut(ctx context.Context, k cacheKey, res Result) {
	if p.store == nil {
		p.cache.put(k, res)
		return
	}
	if err := p.store.CacheResult(ctx, p.storeCacheKey(k), p.cache.served(res), p.cache.ttl); err != nil {
		p.metrics.storeError(ctx, storeOpCachePut)
	}
}

// storeCacheKey is the cache key as a store key: the scope (policy version and agent home),
// then the request's key in hex.
func (p *Pipeline) storeCacheKey(k cacheKey) string {
	return p.storeScope + ":" + hex.EncodeToString(k[:])
}

// validCached checks a result read back from a store before it is replayed: only the served
// form of what cacheable admits (a deny, or an allow at low risk), never an ask or a failure,
// so a store holding garbage cannot make guardian answer anything it would not have cached.
func validCached(r Result) bool {
	if r.Status != StatusCached || r.DecidedBy != "cache" {
		return false
	}
	switch r.Decision {
	case riskmodel.Deny:
		return true
	case riskmodel.Allow:
		return r.Assessment.Level == riskmodel.Low
	}
	return false
}

// ErrStoreUnavailable is wrapped by stores for an operation they did not even try because
// the store was found unreachable moments ago (see redisstore): a review then pays no
// timeout, and the pipeline falls back to its local state as for any store error.
var ErrStoreUnavailable = errors.New("state store unavailable")

// ResetShared closes the named breaker ("denials", "model", or "" for both) here and in the
// store (ResetDenials and ResetModel close the local ones only), so that every replica sharing
// it decides on its own again.
func (p *Pipeline) ResetShared(ctx context.Context, which string) error {
	denials, model := which == "" || which == "denials", which == "" || which == "model"
	if denials {
		p.ResetDenials()
	}
	if model {
		p.ResetModel()
	}
	if p.store == nil {
		return nil
	}
	_, err := p.store.UpdateBreakers(ctx, p.storeScope, func(s SavedBreakers) SavedBreakers {
		if denials {
			s.DenialsOpen, s.DenialsReason, s.DenialsRun, s.DenialsRecent = false, "", 0, nil
		}
		if model {
			s.ModelFailures, s.ModelRetryAt = 0, time.Time{}
		}
		return s
	})
	if err != nil {
		p.metrics.storeError(ctx, storeOpUpdate)
		return fmt.Errorf("reset the shared breakers: %w", err)
	}
	return nil
}
