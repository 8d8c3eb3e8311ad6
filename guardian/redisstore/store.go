// Package redisstore keeps the state that replicas of guardian serve share in Redis: the
// circuit breakers and the decision cache (guardian.StateStore), and the approvals and grants
// (Approvals, an approval.Store). A breaker opened by one replica is then open on all of them,
// a decision cached by one is replayed by all, and a request held on one is answered through
// any.
//
// Keys are namespaced by a prefix ("guardian" by default) and always expire:
//
//	PREFIX:breakers:SCOPE   the breakers of one policy version (JSON), refreshed on each change, 24 h
//	PREFIX:cache:SCOPE:KEY  one cached decision (JSON), for the config's cache_ttl
//
// Redis being unreachable is never a reason to allow: every operation has a short deadline,
// an error makes the pipeline fall back to its local state (guardian.WithStateStore), and
// after a failure the store is not tried again for a second, so reviews do not each pay a
// timeout while Redis is down. The change from reachable to unreachable and back is logged
// once each way.
package redisstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	neturl "net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guardianhq/guardian/guardian"
)

// Defaults of the options.
const (
	DefaultPrefix     = "guardian"
	DefaultBreakerTTL = 24 * time.Hour
	// DefaultTimeout bounds one Redis operation (dial, read or write): a review makes a few,
	// and a hook's deadline is seconds.
	DefaultTimeout = 250 * time.Millisecond
	// DefaultRetryAfter is how long the store stays marked down after a failure.
	DefaultRetryAfter = time.Second
	// maxTxAttempts bounds the optimistic transactions of UpdateBreakers when other replicas
	// keep changing the same breakers; past it the update fails (and the pipeline keeps the
	// outcome locally).
	maxTxAttempts = 32
)

// Store is a guardian.StateStore on one Redis server (or anything speaking its protocol: Valkey,
// KeyDB, a managed Redis). It is safe for concurrent use.
type Store struct {
	rdb        *redis.Client
	prefix     string
	breakerTTL time.Duration
	retryAfter time.Duration
	log        *slog.Logger
	now        func() time.Time

	downUntil atomic.Int64 // unix nanoseconds; 0 while reachable
	down      atomic.Bool  // the last operation failed (for the transition logs)
}

// Option configures New.
type Option func(*Store)

// WithPrefix sets the key prefix (default "guardian"), so several guardian deployments can
// share one Redis.
func WithPrefix(p string) Option { return func(s *Store) { s.prefix = p } }

// WithLogger sets where the reachable/unreachable transitions are logged (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Store) { s.log = l } }

// WithBreakerTTL sets how long breakers outlive their last change (24 h). An open denials
// breaker no one resets closes when its key expires, as it would when a lone replica restarts.
func WithBreakerTTL(d time.Duration) Option { return func(s *Store) { s.breakerTTL = d } }

// WithRetryAfter sets how long the store is not tried after a failure (1 s).
func WithRetryAfter(d time.Duration) Option { return func(s *Store) { s.retryAfter = d } }

// New returns a store for a redis:// or rediss:// URL (redis://[user:password@]host:port/db,
// unix:///path/redis.sock). It does not connect: Ping says whether Redis answers.
func New(url string, opts ...Option) (*Store, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w (want redis://[user:password@]host:port[/db], rediss://… for TLS, or unix:///path/redis.sock)", redactURL(url), err)
	}
	// The URL's own timeouts (?dial_timeout=2s&read_timeout=1s…, as go-redis reads them) stand:
	// a Redis across a region needs more than a loopback one. The rest get DefaultTimeout.
	given := urlTimeouts(url)
	for key, d := range map[string]*time.Duration{"dial_timeout": &o.DialTimeout, "read_timeout": &o.ReadTimeout,
		"write_timeout": &o.WriteTimeout, "pool_timeout": &o.PoolTimeout} {
		if !given[key] {
			*d = DefaultTimeout
		}
	}
	o.DialerRetries = 1
	o.MaxRetries = -1 // a failed command fails the operation; the pipeline falls back at once
	o.ContextTimeoutEnabled = true
	o.DisableIdentity = true
	s := &Store{rdb: redis.NewClient(o), prefix: DefaultPrefix, breakerTTL: DefaultBreakerTTL, retryAfter: DefaultRetryAfter,
		log: slog.Default(), now: time.Now}
	for _, opt := range opts {
		opt(s)
	}
	if s.prefix == "" || strings.ContainsAny(s.prefix, " \t\r\n") {
		return nil, fmt.Errorf("store: key prefix %q: want a non-empty word without spaces, e.g. %q", s.prefix, DefaultPrefix)
	}
	return s, nil
}

// redactURL drops the password from a URL for messages.
func redactURL(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return u
	}
	return u[:scheme+3] + "[REDACTED]" + u[at:]
}

// Client is the underlying Redis client, for the other stores that share the connection
// pool (approvals) and for tests.
func (s *Store) Client() *redis.Client { return s.rdb }

// Prefix is the key prefix.
func (s *Store) Prefix() string { return s.prefix }

// Ping checks that Redis answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("store: ping %s: %w", s.rdb.Options().Addr, err)
	}
	return nil
}

// Close closes the connections.
func (s *Store) Close() error { return s.rdb.Close() }

// key builds a namespaced key.
func (s *Store) key(kind, name string) string { return s.prefix + ":" + kind + ":" + name }

// Available reports whether an operation may be tried now, or returns the error that stands
// in for it while the store is marked down.
func (s *Store) available() error {
	until := s.downUntil.Load()
	if until != 0 && s.now().UnixNano() < until {
		return fmt.Errorf("redis %s: %w (it failed moments ago; retrying after %s)", s.rdb.Options().Addr,
			guardian.ErrStoreUnavailable, time.Unix(0, until).UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// result records an operation's outcome: a failure marks the store down for retryAfter and
// logs the change once; the first success after one logs that Redis is back.
func (s *Store) result(op string, err error) error {
	if err == nil || errors.Is(err, redis.Nil) || errors.Is(err, redis.TxFailedErr) {
		s.downUntil.Store(0)
		if s.down.Swap(false) {
			s.log.Info("state store reachable again: sharing breakers and cache", "addr", s.rdb.Options().Addr)
		}
		return err
	}
	s.downUntil.Store(s.now().Add(s.retryAfter).UnixNano())
	if !s.down.Swap(true) {
		s.log.Warn("state store unreachable: reviews go on with this replica's local breakers and no shared cache, grants do not apply, held requests get their ask back and answers fail; nothing is allowed because of it",
			"addr", s.rdb.Options().Addr, "op", op, "err", err)
	}
	return fmt.Errorf("redis %s: %s: %w", s.rdb.Options().Addr, op, err)
}

// Breakers implements guardian.StateStore.
func (s *Store) Breakers(ctx context.Context, scope string) (guardian.SavedBreakers, error) {
	if err := s.available(); err != nil {
		return guardian.SavedBreakers{}, err
	}
	b, err := s.rdb.Get(ctx, s.key("breakers", scope)).Bytes()
	if err = s.result("get breakers", err); err != nil && !errors.Is(err, redis.Nil) {
		return guardian.SavedBreakers{}, err
	}
	return decodeBreakers(b)
}

func decodeBreakers(b []byte) (guardian.SavedBreakers, error) {
	var sb guardian.SavedBreakers
	if len(b) == 0 {
		return sb, nil
	}
	if err := json.Unmarshal(b, &sb); err != nil {
		return guardian.SavedBreakers{}, fmt.Errorf("store: decode the breakers: %w", err)
	}
	return sb, nil
}

// UpdateBreakers implements guardian.StateStore with an optimistic transaction (WATCH, GET,
// MULTI/SET/EXEC), retried when another replica changed the breakers in between. An update
// that changes nothing writes nothing.
func (s *Store) UpdateBreakers(ctx context.Context, scope string, f func(guardian.SavedBreakers) guardian.SavedBreakers) (guardian.SavedBreakers, error) {
	if err := s.available(); err != nil {
		return guardian.SavedBreakers{}, err
	}
	key := s.key("breakers", scope)
	for attempt := range maxTxAttempts {
		var out guardian.SavedBreakers
		err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
			b, err := tx.Get(ctx, key).Bytes()
			if err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			cur, err := decodeBreakers(b)
			if err != nil {
				return err
			}
			out = f(cur)
			nb, err := json.Marshal(out)
			if err != nil {
				return fmt.Errorf("store: encode the breakers: %w", err)
			}
			if bytes.Equal(nb, b) || (len(b) == 0 && string(nb) == "{}") {
				return nil
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, nb, s.breakerTTL)
				return nil
			})
			return err
		}, key)
		if err = s.result("update breakers", err); err == nil {
			return out, nil
		}
		if !errors.Is(err, redis.TxFailedErr) {
			return guardian.SavedBreakers{}, err
		}
		// Another replica changed the breakers between our read and our write. Retrying at
		// once lets the same fast writers win again and again (four writers on two cores
		// starved one through all its attempts); a short random wait, growing with each
		// conflict, spreads the retries out.
		if err := conflictWait(ctx, attempt); err != nil {
			return guardian.SavedBreakers{}, fmt.Errorf("store: update breakers %s: %w", scope, err)
		}
	}
	return guardian.SavedBreakers{}, fmt.Errorf("store: update breakers %s: %d attempts conflicted with other replicas' updates", scope, maxTxAttempts)
}

// CachedResult implements guardian.StateStore.
func (s *Store) CachedResult(ctx context.Context, key string) (guardian.Result, bool, error) {
	if err := s.available(); err != nil {
		return guardian.Result{}, false, err
	}
	b, err := s.rdb.Get(ctx, s.key("cache", key)).Bytes()
	if err = s.result("get cached result", err); err != nil {
		if errors.Is(err, redis.Nil) {
			return guardian.Result{}, false, nil
		}
		return guardian.Result{}, false, err
	}
	var res guardian.Result
	if err := json.Unmarshal(b, &res); err != nil {
		return guardian.Result{}, false, fmt.Errorf("store: decode cached result %s: %w", key, err)
	}
	return res, true, nil
}

// CacheResult implements guardian.StateStore.
func (s *Store) CacheResult(ctx context.Context, key string, res guardian.Result, ttl time.Duration) error {
	if err := s.available(); err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("store: encode the result: %w", err)
	}
	return s.result("cache result", s.rdb.Set(ctx, s.key("cache", key), b, ttl).Err())
}

var _ guardian.StateStore = (*Store)(nil)

// urlTimeouts says which of go-redis's timeout parameters the store URL sets itself.
func urlTimeouts(raw string) map[string]bool {
	u, err := neturl.Parse(raw)
	if err != nil {
		return nil
	}
	given := map[string]bool{}
	for key := range u.Query() {
		given[key] = true
	}
	return given
}

// conflictWait waits a random time of up to (attempt+1)×200 µs, capped at 5 ms, or until ctx
// ends, after an optimistic transaction lost to another replica's update.
func conflictWait(ctx context.Context, attempt int) error {
	limit := min(time.Duration(attempt+1)*200*time.Microsecond, 5*time.Millisecond)
	t := time.NewTimer(rand.N(limit) + time.Microsecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
