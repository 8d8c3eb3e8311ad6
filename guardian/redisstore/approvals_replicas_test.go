package redisstore_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/redisstore/redistest"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// heldSignal reports every approval its replica holds, so a test knows a review is waiting
// without polling.
type heldSignal struct {
	approval.Store
	put chan approval.Pending
}

func (s *heldSignal) Put(ctx context.Context, p approval.Pending) error {
	err := s.Store.Put(ctx, p)
	if err == nil {
		s.put <- p
	}
	return err
}

func (s *heldSignal) next(t *testing.T) approval.Pending {
	t.Helper()
	select {
	case p := <-s.put:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("no review was held")
	}
	return approval.Pending{}
}

// recorder keeps the audit records of a replica's gate.
type recorder struct {
	mu   sync.Mutex
	recs []audit.Record
}

func (r *recorder) Append(_ context.Context, rec audit.Record) (audit.Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
	return rec, nil
}

// approvalReplica is one guardian serve whose approvals are in Redis: every review asks, as
// a rule asking about `npm publish` would.
type approvalReplica struct {
	held  *heldSignal
	hook  *server.Client // the hook's side: holds asks for a person
	admin *server.Client // a person's side: guardian pending/approve/revoke
}

func startApprovalReplica(t *testing.T, redisURL string, opts ...redisstore.ApprovalsOption) *approvalReplica {
	t.Helper()
	ap := newStore(t, redisURL).Approvals(opts...)
	t.Cleanup(func() { ap.Close() })
	held := &heldSignal{Store: ap, put: make(chan approval.Pending, 8)}
	ask := guardian.DeciderFunc(func(context.Context, guardian.Request, guardian.Caller) (guardian.Result, error) {
		return guardian.Result{Decision: riskmodel.Ask, Status: guardian.StatusRule, DecidedBy: "rule:test.ask",
			Assessment: riskmodel.Assessment{Summary: "publishes a package", Level: riskmodel.Medium, Category: riskmodel.CatNone, Rationale: "test.ask"}}, nil
	})
	ts := httptest.NewServer(server.New(ask, server.WithApprovals(approval.NewGate(held, &recorder{}))))
	t.Cleanup(ts.Close)
	hook, err := server.NewClient(ts.URL, server.WithApprovalMode(server.ApprovalQueue))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := server.NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &approvalReplica{held: held, hook: hook, admin: admin}
}

var npmPublish = exec("bash", "-c", "npm publish")

// call sends a review in the background.
func call(ctx context.Context, c *server.Client, session string) <-chan guardian.Result {
	out := make(chan guardian.Result, 1)
	go func() {
		res, err := c.Decide(ctx, npmPublish, guardian.Caller{Host: "claude", Session: session})
		if err != nil {
			res = guardian.Result{Status: guardian.Status("error: " + err.Error())}
		}
		out <- res
	}()
	return out
}

// TestApprovalsAcrossReplicas: a request held on replica A is approved through replica B and
// released on A; the session grant that answer made through B applies on A and on B; revoked
// through A, it applies on neither.
func TestApprovalsAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	a, b := startApprovalReplica(t, srv.URL), startApprovalReplica(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	out := call(ctx, a.hook, "s1")
	held := a.held.next(t)
	list, err := b.admin.Pending(ctx, false)
	if err != nil || len(list) != 1 || list[0].ID != held.ID {
		t.Fatalf("B lists %+v, %v; want the approval held on A", list, err)
	}
	_, gr, err := b.admin.Approve(ctx, held.ID[:4], server.AnswerRequest{By: "alice", Scope: "session"})
	if err != nil || gr == nil {
		t.Fatalf("approve through B: %v (grant %v)", err, gr)
	}
	if res := <-out; res.Decision != riskmodel.Allow || res.DecidedBy != "human:alice" {
		t.Fatalf("A released %s by %s (%s), want allow by human:alice", res.Decision, res.DecidedBy, res.Status)
	}
	if p, err := a.admin.Approval(ctx, held.ID); err != nil || p.State != approval.StateDelivered {
		t.Errorf("on A the approval is %v (%v), want delivered", p.State, err)
	}

	for name, r := range map[string]*approvalReplica{"A": a, "B": b} {
		if res := <-call(ctx, r.admin, "s1"); res.Decision != riskmodel.Allow || res.DecidedBy != "grant:"+gr.ID {
			t.Errorf("%s: the grant made through B gave %s by %s, want allow by grant:%s", name, res.Decision, res.DecidedBy, gr.ID)
		}
		if res := <-call(ctx, r.admin, "s2"); res.Decision != riskmodel.Ask {
			t.Errorf("%s: another session got %s by %s, want ask", name, res.Decision, res.DecidedBy)
		}
	}

	if _, err := a.admin.RevokeGrant(ctx, gr.ID); err != nil {
		t.Fatal(err)
	}
	if gs, err := b.admin.Grants(ctx); err != nil || len(gs) != 0 {
		t.Errorf("B lists grants %+v, %v after the revocation on A", gs, err)
	}
	if res := <-call(ctx, b.admin, "s1"); res.Decision != riskmodel.Ask || res.Status != guardian.StatusRule {
		t.Errorf("after the revocation on A, B gave %s by %s, want the rule's ask", res.Decision, res.DecidedBy)
	}
}

// TestApprovalsRedisDown: Redis killed while a request is held on A. The held request gets
// its ask back (never allow), an approve through B fails saying the store is unreachable,
// and a later review on either replica is the rule's ask: no grant applies, nothing is held.
func TestApprovalsRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	// Waiters re-read their approval every 50 ms, so A sees Redis gone without waiting out
	// the hold.
	a := startApprovalReplica(t, srv.URL, redisstore.WithRecheckEvery(50*time.Millisecond))
	b := startApprovalReplica(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// A grant given before the outage must not apply during it either.
	out := call(ctx, a.hook, "s1")
	held := a.held.next(t)
	if _, _, err := b.admin.Approve(ctx, held.ID, server.AnswerRequest{By: "alice", Scope: "session"}); err != nil {
		t.Fatal(err)
	}
	if res := <-out; res.Decision != riskmodel.Allow {
		t.Fatalf("before the outage: %s", res.Decision)
	}

	out = call(ctx, a.hook, "s9")
	held = a.held.next(t)
	srv.Kill()
	res := <-out
	if res.Decision != riskmodel.Ask || res.Status != guardian.StatusUnanswered || !strings.Contains(res.Assessment.Rationale, "approval store failed") {
		t.Fatalf("the request held on A when Redis died got %s/%s: %q; want its ask back", res.Decision, res.Status, res.Assessment.Rationale)
	}
	t.Logf("held request on A: %s/%s: %s", res.Decision, res.Status, res.Assessment.Rationale)

	_, _, err := b.admin.Approve(ctx, held.ID, server.AnswerRequest{By: "bob"})
	if err == nil || !strings.Contains(err.Error(), "shared store is unreachable") {
		t.Fatalf("approve through B with Redis down: %v; want an error saying the store is unreachable", err)
	}
	t.Logf("approve through B: %v", err)

	for name, r := range map[string]*approvalReplica{"A": a, "B": b} {
		if res := <-call(ctx, r.admin, "s1"); res.Decision != riskmodel.Ask || res.Status != guardian.StatusRule {
			t.Errorf("%s with Redis down: the granted session got %s/%s by %s, want the rule's ask", name, res.Decision, res.Status, res.DecidedBy)
		}
		if res := <-call(ctx, r.hook, "s1"); res.Decision != riskmodel.Ask {
			t.Errorf("%s with Redis down: a hook asking to be held got %s/%s by %s, want ask", name, res.Decision, res.Status, res.DecidedBy)
		}
	}
}
