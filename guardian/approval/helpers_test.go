package approval

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/riskmodel"
)

// records is a Recorder that keeps what it is given.
type records struct {
	mu   sync.Mutex
	recs []audit.Record
	err  error
}

func (r *records) Append(_ context.Context, rec audit.Record) (audit.Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return audit.Record{}, r.err
	}
	r.recs = append(r.recs, rec)
	return rec, nil
}

func (r *records) all() []audit.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]audit.Record(nil), r.recs...)
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func execReq(cmd, cwd string) guardian.Request {
	return guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"bash", "-c", cmd}, Cwd: cwd})
}

func askResult(level riskmodel.Level) guardian.Result {
	return guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:test.ask",
		Assessment: riskmodel.Assessment{Summary: "Publishes a package", Level: level, Category: riskmodel.CatNone, Rationale: "test.ask: publishes"}}
}

// putSignal is a Store that reports every approval put into it, so a test knows a request is
// being held without polling.
type putSignal struct {
	Store
	put chan Pending
}

func newPutSignal(s Store) *putSignal { return &putSignal{Store: s, put: make(chan Pending, 16)} }

func (s *putSignal) Put(ctx context.Context, p Pending) error {
	err := s.Store.Put(ctx, p)
	if err == nil {
		s.put <- p
	}
	return err
}

func (s *putSignal) next(t *testing.T) Pending {
	t.Helper()
	select {
	case p := <-s.put:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("no request was held")
	}
	return Pending{}
}
