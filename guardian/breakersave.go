package guardian

import (
	"time"

	"github.com/guardianhq/guardian/riskmodel"
)

// SavedBreakers is the state of a pipeline's two circuit breakers in a form that outlives the
// process. A host hook is a new process for every request, so breakers kept in memory would
// never trip there; the hook adapters keep this in a small locked state file instead, restore
// it with WithSavedBreakers and merge their one outcome back with MergeBreakers.
type SavedBreakers struct {
	// DenialsOpen, DenialsReason, DenialsRun and DenialsRecent (oldest first, true = an
	// auto-denial) are the denials breaker. They stay empty while that breaker is disabled.
	DenialsOpen   bool   `json:"denials_open,omitempty"`
	DenialsReason string `json:"denials_reason,omitempty"`
	DenialsRun    int    `json:"denials_run,omitempty"`
	DenialsRecent []bool `json:"denials_recent,omitempty"`
	// ModelFailures is the current run of consecutive model failures; ModelRetryAt, when set,
	// means the model breaker is open until then (a trial call follows).
	ModelFailures int       `json:"model_failures,omitempty"`
	ModelRetryAt  time.Time `json:"model_retry_at,omitzero"`
}

// WithSavedBreakers starts the pipeline's breakers in a saved state. A state saved under other
// thresholds is taken as far as it fits (a longer denials history keeps its newest entries).
func WithSavedBreakers(s SavedBreakers) Option {
	return func(p *Pipeline) { p.saved = &s }
}

// SaveBreakers returns the breakers' current state for WithSavedBreakers.
func (p *Pipeline) SaveBreakers() SavedBreakers {
	var s SavedBreakers
	p.denials.save(&s)
	p.model.save(&s)
	return s
}

// MergeBreakers applies the effect one of this pipeline's results has on the breakers to a
// shared state that other processes may have changed since this one read it, and returns the
// new shared state. The effect is the pipeline's own: the result counts towards the denials
// breaker (unless it is open), and a model answer (status ok) closes the model breaker while a
// model failure (timeout, unavailable, bad_output) counts towards opening it. An allow the
// agent policy held back (status agent_policy) no longer says whether a model answered, so it
// leaves the model breaker as it is.
func (p *Pipeline) MergeBreakers(shared SavedBreakers, res Result) SavedBreakers {
	var d *denialsBreaker
	if p.denialsCfg != nil {
		d = newDenialsBreaker(*p.denialsCfg)
		d.restore(shared)
	}
	m := newModelBreaker(p.modelCfg, p.now)
	m.restore(shared)
	d.record(res.Decision == riskmodel.Deny)
	switch res.Status {
	case StatusOK:
		m.success()
	case StatusTimeout, StatusUnavailable, StatusBadOutput:
		m.failure()
	}
	var out SavedBreakers
	d.save(&out)
	m.save(&out)
	return out
}

func (b *denialsBreaker) save(s *SavedBreakers) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s.DenialsOpen, s.DenialsReason, s.DenialsRun = b.open, b.reason, b.run
	s.DenialsRecent = nil
	for i := range b.filled {
		// The oldest entry sits at next when the ring is full, at 0 otherwise.
		j := i
		if b.filled == len(b.ring) {
			j = (b.next + i) % len(b.ring)
		}
		s.DenialsRecent = append(s.DenialsRecent, b.ring[j])
	}
}

func (b *denialsBreaker) restore(s SavedBreakers) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open, b.reason, b.run = s.DenialsOpen, s.DenialsReason, max(s.DenialsRun, 0)
	if b.ring == nil {
		return
	}
	recent := s.DenialsRecent
	if len(recent) > len(b.ring) {
		recent = recent[len(recent)-len(b.ring):]
	}
	clear(b.ring)
	b.filled, b.inRing = len(recent), 0
	for i, denied := range recent {
		b.ring[i] = denied
		if denied {
			b.inRing++
		}
	}
	b.next = b.filled % len(b.ring)
}

func (b *modelBreaker) save(s *SavedBreakers) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	s.ModelFailures = b.run
	switch b.state {
	case CircuitOpen:
		s.ModelRetryAt = b.retryAt
	case CircuitHalfOpen:
		// A trial is due (or in flight in this process, whose outcome is merged separately):
		// the next process may make one.
		s.ModelRetryAt = b.now()
	}
}

func (b *modelBreaker) restore(s SavedBreakers) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.run, b.trialing = max(s.ModelFailures, 0), false
	b.state, b.retryAt = CircuitClosed, time.Time{}
	if !s.ModelRetryAt.IsZero() {
		b.state, b.retryAt = CircuitOpen, s.ModelRetryAt
	}
}
