package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guardianhq/guardian/guardian/approval"
)

// Approvals is the approval.Store that replicas of guardian serve share: a request held on
// one replica can be answered through any other, and a grant given through one applies on all.
// Its keys, under the Store's prefix, all expire:
//
//	PREFIX:approval:ID          hash: p (the approval as held, JSON), state, answer (JSON);
//	                            until it stops waiting plus the retention (1 h), refreshed on answer
//	PREFIX:approvals            sorted set of approval ids by creation time (listing, id prefixes)
//	PREFIX:approvals:open       sorted set of open approval ids by the time their wait ends
//	PREFIX:approvals:key:KEY    set of the approval ids of one request shape (late answers)
//	PREFIX:grant:ID             one grant (JSON), until it expires
//	PREFIX:grants               sorted set of grant ids by creation time
//	PREFIX:grants:key:KEY       set of the grant ids of one request shape (matching a request)
//	PREFIX:approvals:settled    the pub/sub channel on which an answered or expired id is published
//
// Every change of an approval's state is one Lua script, so two people answering through two
// replicas cannot both succeed. A waiter is woken by the channel and re-reads the approval
// after it subscribed (an answer given in between is not missed) and every RecheckEvery while
// it waits (a message lost while the subscription reconnected is not waited out).
//
// Redis unreachable is never a reason to allow: a grant that cannot be looked up does not
// apply, a held request whose approval cannot be read gets its ask back, and an answer that
// cannot be stored fails with an error saying nothing was answered.
type Approvals struct {
	s       *Store
	retain  time.Duration
	recheck time.Duration
	// staleAfter: an approval still open this long after its wait ended was held by a replica
	// that is gone (crashed, killed): it is shown and counted as expired.
	staleAfter time.Duration

	mu      sync.Mutex
	ps      *redis.PubSub
	waiters map[string]map[chan struct{}]struct{}
}

// ApprovalsOption configures Store.Approvals.
type ApprovalsOption func(*Approvals)

// WithRetention sets how long an approval is kept after it stopped waiting
// (approval.DefaultRetention), for late answers and guardian pending --all.
func WithRetention(d time.Duration) ApprovalsOption {
	return func(a *Approvals) {
		if d > 0 {
			a.retain = d
		}
	}
}

// DefaultRecheckEvery is how often a waiter re-reads its approval besides being woken.
const DefaultRecheckEvery = 2 * time.Second

// WithRecheckEvery sets how often a waiter re-reads its approval (DefaultRecheckEvery).
func WithRecheckEvery(d time.Duration) ApprovalsOption {
	return func(a *Approvals) {
		if d > 0 {
			a.recheck = d
		}
	}
}

// Approvals returns the approval store on s's connections and prefix. Close it before s.
func (s *Store) Approvals(opts ...ApprovalsOption) *Approvals {
	a := &Approvals{s: s, retain: approval.DefaultRetention, recheck: DefaultRecheckEvery, staleAfter: 30 * time.Second,
		waiters: map[string]map[chan struct{}]struct{}{}}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Close ends the subscription that wakes waiters.
func (a *Approvals) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ps == nil {
		return nil
	}
	err := a.ps.Close()
	a.ps = nil
	return err
}

func (a *Approvals) approvalKey(id string) string { return a.s.key("approval", id) }
func (a *Approvals) indexKey() string             { return a.s.prefix + ":approvals" }
func (a *Approvals) openKey() string              { return a.s.prefix + ":approvals:open" }
func (a *Approvals) byKey(key string) string      { return a.s.key("approvals:key", key) }
func (a *Approvals) grantKey(id string) string    { return a.s.key("grant", id) }
func (a *Approvals) grantsKey() string            { return a.s.prefix + ":grants" }
func (a *Approvals) grantsByKey(key string) string {
	return a.s.key("grants:key", key)
}
func (a *Approvals) channel() string { return a.s.prefix + ":approvals:settled" }

// do runs one operation under the store's reachability bookkeeping, its error saying that
// the shared approval store failed. An operation cut short by its caller's context (a hook
// that stopped waiting) says so and does not mark Redis down.
func (a *Approvals) do(ctx context.Context, op string, f func() error) error {
	if err := a.s.available(); err != nil {
		return fmt.Errorf("approvals: the shared store is unreachable: %w", err)
	}
	err := f()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("approvals: %s: %w", op, ctx.Err())
	}
	if err := a.s.result(op, err); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("approvals: the shared store is unreachable: %w", err)
	}
	return nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// luaExtend is a Lua helper: extend(key, at) moves key's expiry to at (unix ms) unless it
// already lasts longer. It uses PTTL and TIME rather than PEXPIRETIME so Redis 6 runs it.
const luaExtend = `
local function extend(k, at)
  local ttl = redis.call('PTTL', k)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if ttl < 0 or now + ttl < tonumber(at) then redis.call('PEXPIREAT', k, at) end
end
`

// luaAddGrant stores a grant: KEYS g, grants, grants:key; ARGV gid, json, created ms, expires
// ms. It returns false when the id is taken.
const luaAddGrant = `
local function addgrant(kg, kidx, kbykey, gid, js, created, expires)
  if redis.call('SET', kg, js, 'NX') == false then return false end
  redis.call('PEXPIREAT', kg, expires)
  redis.call('ZADD', kidx, created, gid)
  redis.call('SADD', kbykey, gid)
  extend(kidx, expires)
  extend(kbykey, expires)
  return true
end
`

var (
	putScript = redis.NewScript(luaExtend + `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'p', ARGV[2], 'state', 'open')
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
for i = 2, 4 do extend(KEYS[i], ARGV[5]) end
return 1
`)

	// answerScript: KEYS approval, open, approvals, grant, grants, grants:key; ARGV id, answer
	// json, approval expiry ms, channel, grant json ('' for none), grant id, grant created ms,
	// grant expiry ms. Returns {status, p, state, answer}.
	answerScript = redis.NewScript(luaExtend + luaAddGrant + `
local v = redis.call('HMGET', KEYS[1], 'p', 'state', 'answer')
if not v[2] then return {'missing'} end
if v[2] ~= 'open' and v[2] ~= 'expired' then return {'settled', v[1], v[2], v[3]} end
if ARGV[5] ~= '' then
  if not addgrant(KEYS[4], KEYS[5], KEYS[6], ARGV[6], ARGV[5], ARGV[7], ARGV[8]) then return {'grant-taken'} end
end
redis.call('HSET', KEYS[1], 'state', 'answered', 'answer', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
extend(KEYS[3], ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return {'ok', v[1], 'answered', ARGV[2]}
`)

	// moveScript changes an approval's state from ARGV[2] to ARGV[3] (expire: open → expired;
	// deliver: answered → delivered). KEYS approval, open; ARGV id, from, to, channel. Returns
	// {status, p, state, answer}: status ok when it moved, as-is when it was in another state.
	moveScript = redis.NewScript(`
local v = redis.call('HMGET', KEYS[1], 'p', 'state', 'answer')
if not v[2] then return {'missing'} end
if v[2] ~= ARGV[2] then return {'as-is', v[1], v[2], v[3]} end
redis.call('HSET', KEYS[1], 'state', ARGV[3])
if ARGV[2] == 'open' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('PUBLISH', ARGV[4], ARGV[1])
end
return {'ok', v[1], ARGV[3], v[3]}
`)

	addGrantScript = redis.NewScript(luaExtend + luaAddGrant + `
if addgrant(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4]) then return 1 end
return 0
`)

	// revokeScript: KEYS grant, grants; ARGV gid. Returns the grant's JSON, or false.
	revokeScript = redis.NewScript(`
local js = redis.call('GET', KEYS[1])
if not js then return false end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return js
`)
)

// decode builds an approval from its hash fields (p, state, answer).
func (a *Approvals) decode(id string, p, state, answer any) (approval.Pending, error) {
	ps, _ := p.(string)
	st, _ := state.(string)
	if ps == "" || st == "" {
		return approval.Pending{}, fmt.Errorf("no approval %q: %w", id, approval.ErrNotFound)
	}
	var out approval.Pending
	if err := json.Unmarshal([]byte(ps), &out); err != nil {
		return approval.Pending{}, fmt.Errorf("approvals: decode approval %s: %w", id, err)
	}
	out.State, out.Answer = approval.State(st), nil
	if as, _ := answer.(string); as != "" {
		var an approval.Answer
		if err := json.Unmarshal([]byte(as), &an); err != nil {
			return approval.Pending{}, fmt.Errorf("approvals: decode the answer to %s: %w", id, err)
		}
		out.Answer = &an
	}
	if out.State == approval.StateOpen && a.s.now().After(out.Expires.Add(a.staleAfter)) {
		out.State = approval.StateExpired
	}
	return out, nil
}

// scriptResult decodes {status, p, state, answer}.
func (a *Approvals) scriptResult(id string, v []any) (string, approval.Pending, error) {
	status, _ := v[0].(string)
	if status == "missing" {
		return status, approval.Pending{}, fmt.Errorf("no approval %q: %w", id, approval.ErrNotFound)
	}
	if len(v) < 4 {
		return status, approval.Pending{}, nil
	}
	p, err := a.decode(id, v[1], v[2], v[3])
	return status, p, err
}

// Put implements approval.Store.
func (a *Approvals) Put(ctx context.Context, p approval.Pending) error {
	if p.ID == "" {
		return errors.New("approvals: empty id")
	}
	p.State, p.Answer = approval.StateOpen, nil
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("approvals: encode: %w", err)
	}
	var added int64
	err = a.do(ctx, "hold approval", func() error {
		var err error
		added, err = putScript.Run(ctx, a.s.rdb,
			[]string{a.approvalKey(p.ID), a.indexKey(), a.openKey(), a.byKey(p.Key)},
			p.ID, b, ms(p.Created), ms(p.Expires), ms(p.Expires.Add(a.retain))).Int64()
		return err
	})
	if err != nil {
		return err
	}
	if added == 0 {
		return fmt.Errorf("approvals: id %q is taken", p.ID)
	}
	return nil
}

// ids lists the members of a sorted index, oldest first.
func (a *Approvals) ids(ctx context.Context, key, op string) ([]string, error) {
	var ids []string
	err := a.do(ctx, op, func() error {
		var err error
		ids, err = a.s.rdb.ZRange(ctx, key, 0, -1).Result()
		return err
	})
	return ids, err
}

// fetch reads approvals by full id, in order, dropping those that have expired (and their
// index entries).
func (a *Approvals) fetch(ctx context.Context, ids []string) ([]approval.Pending, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var cmds []*redis.SliceCmd
	err := a.do(ctx, "read approvals", func() error {
		_, err := a.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, id := range ids {
				cmds = append(cmds, p.HMGet(ctx, a.approvalKey(id), "p", "state", "answer"))
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []approval.Pending
	var gone []any
	for i, c := range cmds {
		v := c.Val()
		if v[1] == nil {
			gone = append(gone, ids[i])
			continue
		}
		p, err := a.decode(ids[i], v[0], v[1], v[2])
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if len(gone) > 0 {
		_ = a.do(ctx, "prune approvals", func() error { return a.s.rdb.ZRem(ctx, a.indexKey(), gone...).Err() })
	}
	return out, nil
}

// full resolves an approval id prefix among the approvals kept.
func (a *Approvals) full(ctx context.Context, id string) (string, error) {
	ids, err := a.ids(ctx, a.indexKey(), "list approvals")
	if err != nil {
		return "", err
	}
	return approval.ResolveID("approval", id, slices.Values(ids))
}

// Get implements approval.Store.
func (a *Approvals) Get(ctx context.Context, id string) (approval.Pending, error) {
	full, err := a.full(ctx, id)
	if err != nil {
		return approval.Pending{}, err
	}
	ps, err := a.fetch(ctx, []string{full})
	if err != nil {
		return approval.Pending{}, err
	}
	if len(ps) == 0 {
		return approval.Pending{}, fmt.Errorf("no approval %q: %w", id, approval.ErrNotFound)
	}
	return ps[0], nil
}

// List implements approval.Store.
func (a *Approvals) List(ctx context.Context, all bool) ([]approval.Pending, error) {
	ids, err := a.ids(ctx, a.indexKey(), "list approvals")
	if err != nil {
		return nil, err
	}
	ps, err := a.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := []approval.Pending{}
	for _, p := range ps {
		if all || p.State == approval.StateOpen {
			out = append(out, p)
		}
	}
	return out, nil
}

// OpenCount implements approval.Store. Approvals still open past their wait (their replica is
// gone) are dropped from the count first.
func (a *Approvals) OpenCount(ctx context.Context) (int, error) {
	var n int64
	err := a.do(ctx, "count open approvals", func() error {
		var card *redis.IntCmd
		stale := strconv.FormatInt(ms(a.s.now().Add(-a.staleAfter)), 10)
		_, err := a.s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.ZRemRangeByScore(ctx, a.openKey(), "-inf", "("+stale)
			card = p.ZCard(ctx, a.openKey())
			return nil
		})
		n = card.Val()
		return err
	})
	return int(n), err
}

// Answer implements approval.Store: the answer and the grant it creates are stored by one
// script, which publishes the id to wake the waiter wherever it is.
func (a *Approvals) Answer(ctx context.Context, id string, an approval.Answer, g *approval.Grant) (approval.Pending, error) {
	full, err := a.full(ctx, id)
	if err != nil {
		return approval.Pending{}, err
	}
	ab, err := json.Marshal(an)
	if err != nil {
		return approval.Pending{}, fmt.Errorf("approvals: encode the answer: %w", err)
	}
	var gb []byte
	gid, gkey, gCreated, gExpires := "", "", int64(0), int64(0)
	if g != nil {
		if gb, err = json.Marshal(g); err != nil {
			return approval.Pending{}, fmt.Errorf("approvals: encode the grant: %w", err)
		}
		gid, gkey, gCreated, gExpires = g.ID, g.Key, ms(g.Created), ms(g.Expires)
	}
	// Kept the retention after the answer (which is longer than any wait), for guardian
	// pending --all and a retry that claims a late answer.
	keep := ms(an.Time) + a.retain.Milliseconds()
	var v []any
	err = a.do(ctx, "answer approval", func() error {
		var err error
		v, err = answerScript.Run(ctx, a.s.rdb,
			[]string{a.approvalKey(full), a.openKey(), a.indexKey(), a.grantKey(gid), a.grantsKey(), a.grantsByKey(gkey)},
			full, ab, keep, a.channel(), string(gb), gid, gCreated, gExpires).Slice()
		return err
	})
	if err != nil {
		return approval.Pending{}, fmt.Errorf("%w (nothing was answered)", err)
	}
	status, p, err := a.scriptResult(full, v)
	switch {
	case err != nil:
		return approval.Pending{}, err
	case status == "grant-taken":
		return approval.Pending{}, fmt.Errorf("approvals: grant id %q is taken", gid)
	case status == "settled":
		by, at := "", ""
		if p.Answer != nil {
			by, at = p.Answer.By, p.Answer.Time.Format(time.RFC3339)
		}
		return p, fmt.Errorf("approval %s was answered by %s at %s: %w", p.ID, by, at, approval.ErrSettled)
	}
	return p, nil
}

// move runs moveScript on a full id.
func (a *Approvals) move(ctx context.Context, op, id string, from, to approval.State) (string, approval.Pending, error) {
	var v []any
	err := a.do(ctx, op, func() error {
		var err error
		v, err = moveScript.Run(ctx, a.s.rdb, []string{a.approvalKey(id), a.openKey()}, id, string(from), string(to), a.channel()).Slice()
		return err
	})
	if err != nil {
		return "", approval.Pending{}, err
	}
	return a.scriptResult(id, v)
}

// Deliver implements approval.Store.
func (a *Approvals) Deliver(ctx context.Context, id string) (approval.Pending, error) {
	_, p, err := a.move(ctx, "deliver approval", id, approval.StateAnswered, approval.StateDelivered)
	return p, err
}

// Expire implements approval.Store.
func (a *Approvals) Expire(ctx context.Context, id string) (approval.Pending, error) {
	_, p, err := a.move(ctx, "expire approval", id, approval.StateOpen, approval.StateExpired)
	return p, err
}

// Claim implements approval.Store.
func (a *Approvals) Claim(ctx context.Context, key, host, session string, now time.Time) (approval.Pending, bool, error) {
	if session == "" {
		return approval.Pending{}, false, nil
	}
	var ids []string
	err := a.do(ctx, "look up late answers", func() error {
		var err error
		ids, err = a.s.rdb.SMembers(ctx, a.byKey(key)).Result()
		return err
	})
	if err != nil || len(ids) == 0 {
		return approval.Pending{}, false, err
	}
	ps, err := a.fetch(ctx, ids)
	if err != nil {
		return approval.Pending{}, false, err
	}
	slices.SortFunc(ps, func(x, y approval.Pending) int {
		if c := x.Created.Compare(y.Created); c != 0 {
			return c
		}
		return compareStrings(x.ID, y.ID)
	})
	for _, p := range ps {
		if p.State != approval.StateAnswered || p.Key != key || p.Caller.Host != host || p.Caller.Session != session || now.Sub(p.Answer.Time) > a.retain {
			continue
		}
		// Another replica may claim it first: only the one whose script moved it has it.
		status, got, err := a.move(ctx, "claim late answer", p.ID, approval.StateAnswered, approval.StateDelivered)
		if err != nil {
			return approval.Pending{}, false, err
		}
		if status == "ok" {
			return got, true, nil
		}
	}
	return approval.Pending{}, false, nil
}

func compareStrings(x, y string) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Wait implements approval.Store. The waiter registers, makes sure the store is subscribed to
// the settled channel, and only then reads the approval, so an answer published before the
// subscription took effect is still seen.
func (a *Approvals) Wait(ctx context.Context, id string) (approval.Pending, error) {
	wake := make(chan struct{}, 1)
	a.mu.Lock()
	if a.waiters[id] == nil {
		a.waiters[id] = map[chan struct{}]struct{}{}
	}
	a.waiters[id][wake] = struct{}{}
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.waiters[id], wake)
		if len(a.waiters[id]) == 0 {
			delete(a.waiters, id)
		}
		a.mu.Unlock()
	}()
	if err := a.subscribe(ctx); err != nil {
		return approval.Pending{}, err
	}
	tick := time.NewTicker(a.recheck)
	defer tick.Stop()
	for {
		ps, err := a.fetch(ctx, []string{id})
		if err != nil {
			if ctx.Err() != nil {
				return approval.Pending{}, ctx.Err()
			}
			return approval.Pending{}, err
		}
		if len(ps) == 0 {
			return approval.Pending{}, fmt.Errorf("no approval %q: %w", id, approval.ErrNotFound)
		}
		if ps[0].State != approval.StateOpen {
			return ps[0], nil
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-ctx.Done():
			return approval.Pending{}, ctx.Err()
		}
	}
}

// subscribe starts the one subscription to the settled channel that wakes every waiter of
// this store, and returns once Redis confirmed it.
func (a *Approvals) subscribe(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ps != nil {
		return nil
	}
	if err := a.s.available(); err != nil {
		return fmt.Errorf("approvals: the shared store is unreachable: %w", err)
	}
	ps := a.s.rdb.Subscribe(context.WithoutCancel(ctx), a.channel())
	rctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	if _, err := ps.Receive(rctx); err != nil {
		_ = ps.Close()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("approvals: the shared store is unreachable: %w", a.s.result("subscribe", err))
	}
	a.ps = ps
	go a.wakeAll(ps.Channel())
	return nil
}

// wakeAll wakes the waiters of each id published, until the subscription is closed.
func (a *Approvals) wakeAll(msgs <-chan *redis.Message) {
	for m := range msgs {
		a.mu.Lock()
		for w := range a.waiters[m.Payload] {
			select {
			case w <- struct{}{}:
			default:
			}
		}
		a.mu.Unlock()
	}
}

// AddGrant implements approval.Store.
func (a *Approvals) AddGrant(ctx context.Context, g approval.Grant) error {
	if g.ID == "" {
		return errors.New("approvals: empty grant id")
	}
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("approvals: encode the grant: %w", err)
	}
	var added int64
	err = a.do(ctx, "add grant", func() error {
		var err error
		added, err = addGrantScript.Run(ctx, a.s.rdb, []string{a.grantKey(g.ID), a.grantsKey(), a.grantsByKey(g.Key)},
			g.ID, b, ms(g.Created), ms(g.Expires)).Int64()
		return err
	})
	if err != nil {
		return err
	}
	if added == 0 {
		return fmt.Errorf("approvals: grant id %q is taken", g.ID)
	}
	return nil
}

// grants reads grants by id, dropping those that expired (and their index entries).
func (a *Approvals) grants(ctx context.Context, index string, ids []string) ([]approval.Grant, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = a.grantKey(id)
	}
	var vals []any
	err := a.do(ctx, "read grants", func() error {
		var err error
		vals, err = a.s.rdb.MGet(ctx, keys...).Result()
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []approval.Grant
	var gone []any
	for i, v := range vals {
		s, _ := v.(string)
		if s == "" {
			gone = append(gone, ids[i])
			continue
		}
		var g approval.Grant
		if err := json.Unmarshal([]byte(s), &g); err != nil {
			return nil, fmt.Errorf("approvals: decode grant %s: %w", ids[i], err)
		}
		out = append(out, g)
	}
	if len(gone) > 0 {
		_ = a.do(ctx, "prune grants", func() error {
			if index == a.grantsKey() {
				return a.s.rdb.ZRem(ctx, index, gone...).Err()
			}
			return a.s.rdb.SRem(ctx, index, gone...).Err()
		})
	}
	return out, nil
}

// Grants implements approval.Store.
func (a *Approvals) Grants(ctx context.Context, now time.Time) ([]approval.Grant, error) {
	ids, err := a.ids(ctx, a.grantsKey(), "list grants")
	if err != nil {
		return nil, err
	}
	gs, err := a.grants(ctx, a.grantsKey(), ids)
	if err != nil {
		return nil, err
	}
	out := []approval.Grant{}
	for _, g := range gs {
		if now.Before(g.Expires) {
			out = append(out, g)
		}
	}
	return out, nil
}

// RevokeGrant implements approval.Store. The grant is deleted in Redis, so no replica applies
// it from the next request on.
func (a *Approvals) RevokeGrant(ctx context.Context, id string) (approval.Grant, error) {
	ids, err := a.ids(ctx, a.grantsKey(), "list grants")
	if err != nil {
		return approval.Grant{}, err
	}
	full, err := approval.ResolveID("grant", id, slices.Values(ids))
	if err != nil {
		return approval.Grant{}, err
	}
	var js string
	err = a.do(ctx, "revoke grant", func() error {
		var err error
		js, err = revokeScript.Run(ctx, a.s.rdb, []string{a.grantKey(full), a.grantsKey()}, full).Text()
		return err
	})
	if err != nil {
		return approval.Grant{}, fmt.Errorf("%w (nothing was revoked)", err)
	}
	if js == "" {
		return approval.Grant{}, fmt.Errorf("no grant %q: %w", id, approval.ErrNotFound)
	}
	var g approval.Grant
	if err := json.Unmarshal([]byte(js), &g); err != nil {
		return approval.Grant{}, fmt.Errorf("approvals: decode grant %s: %w", full, err)
	}
	_ = a.do(ctx, "revoke grant", func() error { return a.s.rdb.SRem(ctx, a.grantsByKey(g.Key), full).Err() })
	return g, nil
}

// MatchGrant implements approval.Store: the oldest unexpired grant of the request's shape
// that applies to it.
func (a *Approvals) MatchGrant(ctx context.Context, q approval.GrantQuery) (approval.Grant, bool, error) {
	var ids []string
	err := a.do(ctx, "look up grants", func() error {
		var err error
		ids, err = a.s.rdb.SMembers(ctx, a.grantsByKey(q.Key)).Result()
		return err
	})
	if err != nil {
		return approval.Grant{}, false, err
	}
	gs, err := a.grants(ctx, a.grantsByKey(q.Key), ids)
	if err != nil {
		return approval.Grant{}, false, err
	}
	var best *approval.Grant
	for i, g := range gs {
		if g.Applies(q) && (best == nil || g.Created.Before(best.Created) || (g.Created.Equal(best.Created) && g.ID < best.ID)) {
			best = &gs[i]
		}
	}
	if best == nil {
		return approval.Grant{}, false, nil
	}
	return *best, true, nil
}

var _ approval.Store = (*Approvals)(nil)
