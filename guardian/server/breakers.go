package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
)

// The breaker routes.
const (
	RouteBreakers     = "/v1/breakers"
	RouteBreakerReset = "/v1/breakers/reset"
)

// Breakers is what the server shows of the circuit breakers and how it resets them. guardian
// serve keeps one pipeline, with its own breakers, per project config; each is a scope.
type Breakers interface {
	// BreakerStates returns the breakers of every scope.
	BreakerStates() []ScopedBreakers
	// ResetBreakers closes the named breaker ("denials", "model", or "" for both) in every
	// scope: the human has looked, and guardian may decide on its own again.
	ResetBreakers(which string)
}

// ScopedBreakers is the breakers of one scope: the user config, or a project file.
type ScopedBreakers struct {
	Scope string
	State guardian.BreakerState
}

// BreakersBody is the reply of GET /v1/breakers and POST /v1/breakers/reset, and the data of
// the "breaker" event.
type BreakersBody struct {
	// Seq grows each time the set of open breakers changes, so a client that gets the state
	// both in replies and in events can tell the newer from a late older one.
	Seq uint64 `json:"seq"`
	// Open is true when any breaker of any scope is open.
	Open     bool           `json:"open"`
	Breakers []BreakerScope `json:"breakers"`
}

// BreakerScope is one scope's two breakers on the wire.
type BreakerScope struct {
	Scope   string         `json:"scope"`
	Denials DenialsBreaker `json:"denials"`
	Model   ModelBreaker   `json:"model"`
}

// DenialsBreaker is the denials breaker on the wire: open hands every request to the human.
type DenialsBreaker struct {
	State       string `json:"state"`
	Reason      string `json:"reason,omitempty"`
	Consecutive int    `json:"consecutive"`
	InWindow    int    `json:"in_window"`
}

// ModelBreaker is the model health breaker on the wire: open skips the model.
type ModelBreaker struct {
	State    string     `json:"state"`
	Failures int        `json:"failures"`
	RetryAt  *time.Time `json:"retry_at,omitempty"`
}

// WithBreakers serves b at GET /v1/breakers and POST /v1/breakers/reset, and publishes a
// "breaker" event when a breaker opens or is reset. Without it those routes are 404.
func WithBreakers(b Breakers) Option { return func(s *Server) { s.breakers = &breakerWatch{b: b} } }

// breakerWatch remembers which breakers were open, so that the server can tell when one
// opens.
type breakerWatch struct {
	b    Breakers
	mu   sync.Mutex
	open []string // "scope\x00breaker" of the open breakers, sorted
	seq  uint64   // changes of open
}

// body is the breakers' state now, and the keys of the open ones.
func (w *breakerWatch) body() (BreakersBody, []string) {
	states := w.b.BreakerStates()
	out := BreakersBody{Breakers: make([]BreakerScope, 0, len(states))}
	var open []string
	for _, st := range states {
		bs := BreakerScope{Scope: st.Scope,
			Denials: DenialsBreaker{State: st.State.Denials.String(), Reason: st.State.DenialsReason,
				Consecutive: st.State.ConsecutiveDenials, InWindow: st.State.WindowDenials},
			Model: ModelBreaker{State: st.State.Model.String(), Failures: st.State.ModelFailures}}
		if !st.State.ModelRetryAt.IsZero() {
			t := st.State.ModelRetryAt.UTC()
			bs.Model.RetryAt = &t
		}
		if st.State.Denials == guardian.CircuitOpen {
			open = append(open, st.Scope+"\x00denials")
		}
		if st.State.Model == guardian.CircuitOpen {
			open = append(open, st.Scope+"\x00model")
		}
		out.Breakers = append(out.Breakers, bs)
	}
	slices.SortFunc(out.Breakers, func(a, b BreakerScope) int {
		switch {
		case a.Scope < b.Scope:
			return -1
		case a.Scope > b.Scope:
			return 1
		}
		return 0
	})
	slices.Sort(open)
	out.Open = len(open) > 0
	w.mu.Lock()
	out.Seq = w.seq
	w.mu.Unlock()
	return out, open
}

// check compares the breakers with what they were and returns the state and the breakers that
// opened since; changed is true when the set of open breakers changed at all.
func (w *breakerWatch) check() (body BreakersBody, opened []BreakerOpened, changed bool) {
	body, open := w.body()
	w.mu.Lock()
	defer w.mu.Unlock()
	if slices.Equal(open, w.open) {
		return body, nil, false
	}
	for _, k := range open {
		if !slices.Contains(w.open, k) {
			scope, which, _ := strings.Cut(k, "\x00")
			opened = append(opened, BreakerOpened{Scope: scope, Breaker: which})
		}
	}
	w.open = open
	w.seq++
	body.Seq = w.seq
	return body, opened, true
}

// BreakerOpened names a breaker that just opened, for notifications.
type BreakerOpened struct {
	Scope   string
	Breaker string // "denials" or "model"
}

// WithBreakerOpened calls f (which must not block) for every breaker that opens, e.g. to send
// a notification.
func WithBreakerOpened(f func(BreakersBody, []BreakerOpened)) Option {
	return func(s *Server) { s.onBreakerOpen = f }
}

// watchBreakers publishes the breakers' state when it changed (after a review, or a reset).
func (s *Server) watchBreakers() {
	if s.breakers == nil {
		return
	}
	body, opened, changed := s.breakers.check()
	if !changed {
		return
	}
	if b, err := json.Marshal(body); err == nil {
		s.hub.Publish(Event{Kind: EventBreaker, Data: b})
	}
	if len(opened) > 0 && s.onBreakerOpen != nil {
		s.onBreakerOpen(body, opened)
	}
}

// breakerList answers GET /v1/breakers.
func (s *Server) breakerList(ex *exchange) {
	if s.breakers == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "breakers are not available on this server")
		return
	}
	body, _ := s.breakers.body()
	ex.json(http.StatusOK, body)
}

// ResetBody is the body of POST /v1/breakers/reset: which breaker to close.
type ResetBody struct {
	// Breaker is "denials", "model" or "all" (also the default, for an empty body).
	Breaker string `json:"breaker"`
}

// breakerReset answers POST /v1/breakers/reset: it closes the named breaker in every scope and
// answers the breakers' state after.
func (s *Server) breakerReset(ex *exchange) {
	if s.breakers == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "breakers are not available on this server")
		return
	}
	var rb ResetBody
	if err := decodeSmall(ex, &rb); err != nil {
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}
	which := rb.Breaker
	switch which {
	case "", "all":
		which = ""
	case "denials", "model":
	default:
		ex.fail(http.StatusBadRequest, CodeBadRequest, fmt.Sprintf(`unknown breaker %s: want "denials", "model" or "all", e.g. {"breaker":"denials"}`, quoteForMessage(which)))
		return
	}
	s.breakers.b.ResetBreakers(which)
	s.watchBreakers()
	body, _ := s.breakers.body()
	ex.json(http.StatusOK, body)
}
