package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/guardianhq/guardian/guardian/approval"
)

// The kinds of Event the server's hub carries; they are the SSE event names of GET /v1/events.
const (
	// EventDecision carries one audit record, exactly as GET /v1/decisions lists it.
	EventDecision = "decision"
	// EventBreaker carries the breakers' state (BreakersBody) after one opened or was reset.
	EventBreaker = "breaker"
	// EventApproval carries one change of the approval queue (approval.Change: held,
	// settled, grant_added, grant_revoked), the approval or grant as the API shows it.
	EventApproval = "approval"
	// eventLagged is the last event a subscriber gets when it fell too far behind: it was
	// dropped, and should reconnect and reload what it shows.
	eventLagged = "lagged"
)

// Event is one thing that happened, as the console sees it: a kind (the SSE event name) and a
// JSON object. Other parts of guardian serve (pending approvals, grants) publish their own
// kinds on the same hub.
type Event struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// Defaults of the hub.
const (
	// DefaultSubscriberBuffer is how many events a subscriber may have waiting. A browser
	// reads them within milliseconds; one that has this many unread is stuck, and is dropped
	// rather than allowed to slow a review down.
	DefaultSubscriberBuffer = 256
	// DefaultMaxSubscribers bounds the event streams open at once (GET /v1/events answers
	// 503 beyond), so viewers cannot use up the server's memory.
	DefaultMaxSubscribers = 256
)

// Hub hands every published Event to every subscriber without ever waiting for one: Publish
// runs on a review's path, so a subscriber whose buffer is full is dropped (it gets a lagged
// event and its stream ends), never waited for. It is safe for concurrent use.
type Hub struct {
	buffer, max int
	seq         atomic.Uint64

	mu     sync.RWMutex
	subs   map[*Subscription]struct{}
	closed bool
	// observers see every event first, synchronously (the day's counts); they must be quick.
	observers []func(Event)
}

// NewHub returns a hub with per-subscriber buffers of buffer events and at most max
// subscribers (defaults for values below 1).
func NewHub(buffer, max int) *Hub {
	if buffer < 1 {
		buffer = DefaultSubscriberBuffer
	}
	if max < 1 {
		max = DefaultMaxSubscribers
	}
	return &Hub{buffer: buffer, max: max, subs: map[*Subscription]struct{}{}}
}

// Subscription is one subscriber's stream. C yields numbered events until the subscription is
// closed or dropped for lagging; then C is closed, and Lagged says which.
type Subscription struct {
	C      <-chan Numbered
	c      chan Numbered
	lagged atomic.Bool
	once   sync.Once
}

// Numbered is an Event with its place in the hub's sequence (the SSE id).
type Numbered struct {
	ID uint64
	Event
	// frame is the event as SSE lines, built once for every subscriber.
	frame []byte
}

// Lagged reports whether the subscription was dropped because it fell behind.
func (s *Subscription) Lagged() bool { return s.lagged.Load() }

func (s *Subscription) close() { s.once.Do(func() { close(s.c) }) }

// Subscribe adds a subscriber; ok is false when the hub already has its maximum.
func (h *Hub) Subscribe() (sub *Subscription, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || len(h.subs) >= h.max {
		return nil, false
	}
	c := make(chan Numbered, h.buffer)
	sub = &Subscription{C: c, c: c}
	h.subs[sub] = struct{}{}
	return sub, true
}

// Unsubscribe removes sub and closes its channel.
func (h *Hub) Unsubscribe(sub *Subscription) {
	h.mu.Lock()
	delete(h.subs, sub)
	h.mu.Unlock()
	sub.close()
}

// Publish hands e to every subscriber that has room and drops the ones that have none. It
// never blocks.
func (h *Hub) Publish(e Event) {
	if h == nil {
		return
	}
	e.Kind = sanitize(e.Kind, 64)
	if bytes.ContainsAny(e.Data, "\r\n") { // one SSE data line per event
		var b bytes.Buffer
		if json.Compact(&b, e.Data) == nil {
			e.Data = b.Bytes()
		}
	}
	n := Numbered{ID: h.seq.Add(1), Event: e}
	n.frame = fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", n.ID, n.Kind, n.Data)
	h.mu.RLock()
	observers := h.observers
	h.mu.RUnlock()
	for _, f := range observers {
		f(e)
	}
	var lagging []*Subscription
	h.mu.RLock()
	for sub := range h.subs {
		select {
		case sub.c <- n:
		default:
			lagging = append(lagging, sub)
		}
	}
	h.mu.RUnlock()
	for _, sub := range lagging {
		sub.lagged.Store(true)
		h.Unsubscribe(sub)
	}
}

// PublishDecision publishes one audit record, as stored, as a "decision" event. guardian
// serve's auditor calls it once the record is on disk.
func (h *Hub) PublishDecision(record json.RawMessage) {
	h.Publish(Event{Kind: EventDecision, Data: record})
}

// PublishApproval publishes one change of the approval queue as an "approval" event. It is
// the function guardian serve gives approval.WithChanges (with its notifications), so the
// console's pending and grants panels follow the queue live.
func (h *Hub) PublishApproval(c approval.Change) {
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	h.Publish(Event{Kind: EventApproval, Data: b})
}

// observe adds f to the functions that see every event before the subscribers do.
func (h *Hub) observe(f func(Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.observers = append(h.observers, f)
}

// Close ends every subscription and refuses new ones: at shutdown, event streams must not
// hold the drain up until its timeout.
func (h *Hub) Close() {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.closed = true
	subs := h.subs
	h.subs = map[*Subscription]struct{}{}
	h.mu.Unlock()
	for sub := range subs {
		sub.close()
	}
}

// Subscribers is the number of subscribers now.
func (h *Hub) Subscribers() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs)
}
