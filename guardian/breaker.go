package guardian

import (
	"fmt"
	"sync"
	"time"
)

// The default thresholds of the two circuit breakers (docs/design.md, "Circuit breakers").
const (
	// DefaultDenialsConsecutive auto-denials in a row open the denials breaker.
	DefaultDenialsConsecutive = 5
	// DefaultDenialsWindow is how many recent decisions the denials breaker remembers…
	DefaultDenialsWindow = 20
	// DefaultDenialsInWindow …and how many of them must be auto-denials to open it.
	DefaultDenialsInWindow = 8
	// DefaultModelFailures consecutive model failures (timeout, unavailable, bad_output) open
	// the model health breaker.
	DefaultModelFailures = 3
	// DefaultModelCooldown is how long the model is skipped before one trial call.
	DefaultModelCooldown = 60 * time.Second
)

// DenialsBreakerConfig sets when the denials breaker opens. A zero field takes its default; a
// negative one switches that trigger off. An agent that keeps being denied is either stuck in a
// loop or fighting a policy that is wrong for its task; either way a human should look, so an
// open breaker hands every request to the human until ResetDenials is called.
type DenialsBreakerConfig struct {
	// Consecutive auto-denials in a row that open the breaker (default 5).
	Consecutive int
	// Window is the number of recent decisions remembered (default 20)…
	Window int
	// …and InWindow the number of auto-denials among them that open the breaker (default 8).
	InWindow int
}

// ModelBreakerConfig sets the model health breaker. A zero field takes its default. A failing
// model costs the agent a full deadline per request before the fallback applies; skipping it for
// a cool-down gives the same fail-safe decision at once.
type ModelBreakerConfig struct {
	// Failures is the number of consecutive model failures that open the breaker (default 3).
	// A negative value disables the breaker.
	Failures int
	// Cooldown is how long the model is skipped before a single trial call (default 60 s).
	Cooldown time.Duration
}

// CircuitState is the state of one breaker, as exported to metrics.
type CircuitState int

// The circuit states. The numeric values are what the guardian.breaker.state gauge reports.
const (
	CircuitClosed   CircuitState = 0 // normal operation
	CircuitOpen     CircuitState = 1 // tripped: the breaker decides (hands over / skips the model)
	CircuitHalfOpen CircuitState = 2 // model breaker only: one trial call is allowed through
)

// String returns "closed", "open" or "half_open".
func (s CircuitState) String() string {
	switch s {
	case CircuitClosed:
		return "closed"
	case CircuitOpen:
		return "open"
	case CircuitHalfOpen:
		return "half_open"
	}
	return fmt.Sprintf("invalid(%d)", int(s))
}

// BreakerState is a snapshot of both breakers of a Pipeline, for metrics, health endpoints and
// the operator deciding whether to call ResetDenials.
type BreakerState struct {
	// Denials is the denials breaker: open means every request goes to the human.
	Denials CircuitState
	// DenialsReason says why the denials breaker opened ("" while closed).
	DenialsReason string
	// ConsecutiveDenials and WindowDenials are the current counters of the denials breaker.
	ConsecutiveDenials, WindowDenials int
	// Model is the model health breaker: open means the model is skipped.
	Model CircuitState
	// ModelFailures is the current run of consecutive model failures.
	ModelFailures int
	// ModelRetryAt is when an open model breaker lets a trial call through (zero unless open).
	ModelRetryAt time.Time
}

// denialsBreaker counts auto-denials: N in a row, or M of the last K decisions, open it; it
// stays open until reset. It is safe for concurrent use.
type denialsBreaker struct {
	consecutive, window, inWindow int // ≤ 0: trigger disabled

	mu     sync.Mutex
	open   bool
	reason string
	run    int    // current run of consecutive denials
	ring   []bool // the last `window` decisions, true = auto-denial
	next   int    // next slot in ring
	filled int    // slots in use
	inRing int    // denials in ring
}

func newDenialsBreaker(c DenialsBreakerConfig) *denialsBreaker {
	b := &denialsBreaker{
		consecutive: orDefault(c.Consecutive, DefaultDenialsConsecutive),
		window:      orDefault(c.Window, DefaultDenialsWindow),
		inWindow:    orDefault(c.InWindow, DefaultDenialsInWindow),
	}
	if b.window > 0 && b.inWindow > 0 {
		b.ring = make([]bool, b.window)
	}
	return b
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// isOpen reports whether requests must be handed to the human, and why.
func (b *denialsBreaker) isOpen() (bool, string) {
	if b == nil {
		return false, ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.open, b.reason
}

// record counts one decision made while the breaker was closed. Decisions that complete after
// the breaker opened (they were in flight) are not counted: the state is frozen until reset.
func (b *denialsBreaker) record(denied bool) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open {
		return
	}
	if denied {
		b.run++
	} else {
		b.run = 0
	}
	if b.ring != nil {
		if b.filled == len(b.ring) {
			if b.ring[b.next] {
				b.inRing--
			}
		} else {
			b.filled++
		}
		b.ring[b.next] = denied
		if denied {
			b.inRing++
		}
		b.next = (b.next + 1) % len(b.ring)
	}
	switch {
	case b.consecutive > 0 && b.run >= b.consecutive:
		b.open, b.reason = true, fmt.Sprintf("%d consecutive auto-denials", b.run)
	case b.ring != nil && b.inRing >= b.inWindow:
		b.open, b.reason = true, fmt.Sprintf("%d auto-denials in the last %d decisions", b.inRing, b.filled)
	}
}

// reset closes the breaker and forgets the history.
func (b *denialsBreaker) reset() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open, b.reason, b.run, b.next, b.filled, b.inRing = false, "", 0, 0, 0, 0
	clear(b.ring)
}

func (b *denialsBreaker) snapshot(s *BreakerState) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.open {
		s.Denials = CircuitOpen
	}
	s.DenialsReason, s.ConsecutiveDenials, s.WindowDenials = b.reason, b.run, b.inRing
}

// modelBreaker is a classic three-state breaker around the second reviewer: closed until
// `failures` consecutive failures, then open for `cooldown`, then half-open with exactly one
// trial call in flight; the trial's success closes it, its failure re-opens it.
type modelBreaker struct {
	failures int
	cooldown time.Duration
	now      func() time.Time

	mu       sync.Mutex
	state    CircuitState
	run      int       // consecutive failures
	retryAt  time.Time // when open: the earliest trial
	trialing bool      // half-open: the trial call is in flight
}

func newModelBreaker(c ModelBreakerConfig, now func() time.Time) *modelBreaker {
	if c.Failures < 0 {
		return nil
	}
	b := &modelBreaker{failures: orDefault(c.Failures, DefaultModelFailures), cooldown: c.Cooldown, now: now}
	if b.cooldown <= 0 {
		b.cooldown = DefaultModelCooldown
	}
	return b
}

// allow reports whether the model may be called now. When it returns true the caller must
// report the outcome with success, failure or abandon, so a half-open trial slot is released.
func (b *modelBreaker) allow() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case CircuitClosed:
		return true
	case CircuitOpen:
		if b.now().Before(b.retryAt) {
			return false
		}
		b.state, b.trialing = CircuitHalfOpen, true
		return true
	default: // half-open: only the one trial call
		if b.trialing {
			return false
		}
		b.trialing = true
		return true
	}
}

func (b *modelBreaker) success() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state, b.run, b.trialing, b.retryAt = CircuitClosed, 0, false, time.Time{}
}

func (b *modelBreaker) failure() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.run++
	if b.state == CircuitHalfOpen || b.run >= b.failures {
		b.state, b.trialing, b.retryAt = CircuitOpen, false, b.now().Add(b.cooldown)
	}
}

// abandon releases a call that proved nothing about the model's health (the caller's own
// context ended first): a half-open breaker lets the next request try.
func (b *modelBreaker) abandon() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trialing = false
}

func (b *modelBreaker) snapshot(s *BreakerState) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s.Model, s.ModelFailures = b.state, b.run
	if b.state == CircuitOpen {
		s.ModelRetryAt = b.retryAt
	}
}
