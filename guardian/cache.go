package guardian

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// cacheKey identifies one exact request under one policy and prompt version.
type cacheKey [sha256.Size]byte

// decisionCache is an exact-match, TTL-bounded LRU of final results. It holds only what is safe
// to replay (see cacheable); its mutex guards the map and list only, never a review, so
// concurrent misses on different keys never wait for each other's model call.
type decisionCache struct {
	ttl     time.Duration
	size    int
	version string
	now     func() time.Time

	mu    sync.Mutex
	ll    *list.List // front = most recently used; values are *cacheEntry
	items map[cacheKey]*list.Element
}

type cacheEntry struct {
	key     cacheKey
	res     Result // already in its served form: StatusCached, DecidedBy "cache"
	expires time.Time
}

func newDecisionCache(ttl time.Duration, size int, version string, now func() time.Time) *decisionCache {
	if ttl <= 0 || size <= 0 {
		return nil
	}
	return &decisionCache{ttl: ttl, size: size, version: version, now: now, ll: list.New(), items: make(map[cacheKey]*list.Element, size)}
}

// key hashes the policy/prompt version, the request kind and the canonical JSON of the whole
// payload (argv, cwd, justification, MCP arguments…). encoding/json writes struct fields in
// declaration order and map keys sorted, so equal requests hash equally. Each part is
// length-prefixed so no two different (version, kind, payload) triples share a byte stream.
func (c *decisionCache) key(req Request) (cacheKey, error) {
	var payload any = req.Exec
	if req.Kind == riskmodel.KindMCP {
		payload = req.MCP
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return cacheKey{}, fmt.Errorf("cache key: %w", err)
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.version), []byte(req.Kind), b} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	var k cacheKey
	h.Sum(k[:0])
	return k, nil
}

// get returns a fresh copy of the stored result, dropping it when it has expired.
func (c *decisionCache) get(k cacheKey) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return Result{}, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.ll.Remove(el)
		delete(c.items, k)
		return Result{}, false
	}
	c.ll.MoveToFront(el)
	return cloneResult(e.res), true
}

// put stores res in its served form, evicting the least recently used entry when full.
func (c *decisionCache) put(k cacheKey, res Result) {
	e := &cacheEntry{key: k, res: c.served(res), expires: c.now().Add(c.ttl)}

	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		el.Value = e
		c.ll.MoveToFront(el)
		return
	}
	for c.ll.Len() >= c.size {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*cacheEntry).key)
	}
	c.items[k] = c.ll.PushFront(e)
}

// served is res as the cache replays it: status cached, decided by "cache", the original
// decider named in the rationale.
func (c *decisionCache) served(res Result) Result {
	served := cloneResult(res)
	served.Assessment.Rationale = fmt.Sprintf("Cached decision of %s (status %s). %s", res.DecidedBy, res.Status, res.Assessment.Rationale)
	served.Status, served.DecidedBy = StatusCached, "cache"
	return served
}

func (c *decisionCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// cacheable says whether a result may be replayed for the same request: only what the rules or
// a valid model answer decided (never a fallback, failure or breaker result, whose cause is
// transient), only deny, and allow only at low risk — the deciding reviewer's level is low and
// the rules did not rate the request above medium (the rules leave a request to the model only
// at medium or above, so requiring low from them too would never cache a model allow, which is
// what the cache is for). Ask is never stored: it is a question for a human, who may answer
// differently next time.
func cacheable(res Result, rulesLevel riskmodel.Level) bool {
	if res.Status != StatusRule && res.Status != StatusOK {
		return false
	}
	switch res.Decision {
	case riskmodel.Deny:
		return true
	case riskmodel.Allow:
		return res.Assessment.Level == riskmodel.Low && rulesLevel >= riskmodel.Low && rulesLevel <= riskmodel.Medium
	}
	return false
}

// cloneResult copies the findings so a caller mutating its result cannot alter the cache.
func cloneResult(r Result) Result {
	r.Assessment.Findings = append([]riskmodel.Finding(nil), r.Assessment.Findings...)
	return r
}
