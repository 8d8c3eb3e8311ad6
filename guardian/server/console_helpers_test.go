package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// liveLog is an Auditor and a DecisionSource at once, like guardian serve's audit log with its
// live feed: each decision becomes an audit record (audit.NewRecord: redacted, as stored),
// kept for GET /v1/decisions and published on the hub.
type liveLog struct {
	hub *server.Hub

	mu   sync.Mutex
	recs []json.RawMessage
	n    int
}

func (l *liveLog) Audit(_ context.Context, e guardian.AuditEntry) error {
	rec, err := audit.NewRecord(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.n++
	rec.ID = strings.Repeat("0", 12) + string(rune('a'+l.n%26)) + "000"
	b, err := json.Marshal(rec)
	if err == nil {
		l.recs = append(l.recs, b)
	}
	l.mu.Unlock()
	if err != nil {
		return err
	}
	l.hub.PublishDecision(b)
	return nil
}

// Append is the approval gate's recorder: a person's answer, a grant's use, or no answer in
// time is an audit record like a review's, shown live.
func (l *liveLog) Append(_ context.Context, rec audit.Record) (audit.Record, error) {
	l.mu.Lock()
	l.n++
	rec.ID = strings.Repeat("0", 12) + string(rune('a'+l.n%26)) + "001"
	b, err := json.Marshal(rec)
	if err == nil {
		l.recs = append(l.recs, b)
	}
	l.mu.Unlock()
	if err != nil {
		return rec, err
	}
	l.hub.PublishDecision(b)
	return rec, nil
}

func (l *liveLog) Recent(_ context.Context, n int) ([]json.RawMessage, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]json.RawMessage(nil), l.recs[max(0, len(l.recs)-n):]...), nil
}

// byCommand decides by the command's first word, as a rule would: rm is denied, curl asks,
// anything else is allowed. The rule id names the word, so the rule filter has something to
// find.
var byCommand = guardian.DeciderFunc(func(_ context.Context, req guardian.Request, _ guardian.Caller) (guardian.Result, error) {
	word := "?"
	if req.Exec != nil && len(req.Exec.Command) > 0 {
		word = req.Exec.Command[0]
	}
	d := riskmodel.Allow
	switch word {
	case "rm":
		d = riskmodel.Deny
	case "curl":
		d = riskmodel.Ask
	}
	return guardian.Result{Decision: d, Status: guardian.StatusRule, DecidedBy: "rule:test." + word,
		Assessment: riskmodel.Assessment{Summary: "runs " + word, Level: riskmodel.Medium, Category: riskmodel.CatNone, Rationale: "test"}}, nil
})

// fakeBreakers is a Breakers whose denials breaker is open until reset.
type fakeBreakers struct {
	mu     sync.Mutex
	open   bool
	resets []string
}

func (f *fakeBreakers) BreakerStates() []server.ScopedBreakers {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := guardian.BreakerState{}
	if f.open {
		st.Denials, st.DenialsReason, st.ConsecutiveDenials = guardian.CircuitOpen, "5 consecutive auto-denials", 5
	}
	return []server.ScopedBreakers{{Scope: "user config", State: st}}
}

func (f *fakeBreakers) ResetBreakers(which string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resets = append(f.resets, which)
	if which == "" || which == "denials" {
		f.open = false
	}
}

func (f *fakeBreakers) setOpen(open bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open = open
}

func (f *fakeBreakers) resetCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.resets...)
}

// consoleServer is a Server with everything the console shows: the live log, the breakers and
// the given token.
func consoleServer(token string, br *fakeBreakers, opts ...server.Option) (*server.Server, *liveLog) {
	s, log, _ := consoleServerWith(token, br, nil, opts...)
	return s, log
}

// consoleServerWith is consoleServer with an approval gate made by gate (nil: none), over the
// same log and hub as guardian serve wires them: answers recorded in the audit log, the
// queue's changes published as approval events.
func consoleServerWith(token string, br *fakeBreakers, gate func(approval.Recorder, func(approval.Change)) *approval.Gate,
	opts ...server.Option) (*server.Server, *liveLog, *approval.Gate) {
	hub := server.NewHub(0, 0)
	log := &liveLog{hub: hub}
	opts = append([]server.Option{server.WithToken(token), server.WithEvents(hub), server.WithDecisions(log), server.WithBreakers(br)}, opts...)
	var g *approval.Gate
	if gate != nil {
		g = gate(log, hub.PublishApproval)
		opts = append(opts, server.WithApprovals(g))
	}
	return server.New(guardian.Audited(byCommand, log, time.Now), opts...), log, g
}
