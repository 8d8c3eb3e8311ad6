package approval

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

// resolveAsync runs Resolve in a goroutine and returns where its answer arrives.
func resolveAsync(ctx context.Context, g *Gate, req guardian.Request, c guardian.Caller, res guardian.Result, h Hold) <-chan guardian.Result {
	out := make(chan guardian.Result, 1)
	go func() {
		r, err := g.Resolve(ctx, req, c, res, h)
		if err != nil {
			r = guardian.Result{Status: "error: " + guardian.Status(err.Error())}
		}
		out <- r
	}()
	return out
}

func TestGateHeld(t *testing.T) {
	caller := guardian.Caller{Host: "claude", Session: "s1", Turn: "t1"}
	tests := []struct {
		name     string
		answer   func(g *Gate, id string) error
		decision riskmodel.Decision
		status   guardian.Status
		by       string
	}{
		{"approve once", func(g *Gate, id string) error {
			_, _, err := g.Approve(context.Background(), id[:3], Answer{By: "alice"})
			return err
		}, riskmodel.Allow, guardian.StatusHuman, "human:alice"},
		{"deny", func(g *Gate, id string) error {
			_, err := g.Deny(context.Background(), id, Answer{By: "bob", Reason: "not today"})
			return err
		}, riskmodel.Deny, guardian.StatusHuman, "human:bob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &records{}
			store := newPutSignal(NewMemoryStore())
			g := NewGate(store, rec)
			out := resolveAsync(context.Background(), g, execReq("npm publish", "/src/app"), caller, askResult(riskmodel.Medium), Hold{Queue: true, Wait: time.Minute})
			p := store.next(t)
			if p.Shape != "npm publish" || p.AskedBy != "rule:test.ask" || p.State != StateOpen {
				t.Errorf("held %+v", p)
			}
			if err := tt.answer(g, p.ID); err != nil {
				t.Fatal(err)
			}
			res := <-out
			if res.Decision != tt.decision || res.Status != tt.status || res.DecidedBy != tt.by {
				t.Fatalf("got %s/%s/%s, want %s/%s/%s", res.Decision, res.Status, res.DecidedBy, tt.decision, tt.status, tt.by)
			}
			recs := rec.all()
			if len(recs) != 1 || recs[0].DecidedBy != tt.by || recs[0].Pending != p.ID || recs[0].AskedBy != "rule:test.ask" {
				t.Fatalf("audit records %+v", recs)
			}
			got, _ := store.Get(context.Background(), p.ID)
			if got.State != StateDelivered {
				t.Errorf("state %s, want delivered", got.State)
			}
		})
	}
}

func TestGateTimeoutFallsBack(t *testing.T) {
	rec := &records{}
	g := NewGate(NewMemoryStore(), rec)
	res, err := g.Resolve(context.Background(), execReq("npm publish", "/src/app"), guardian.Caller{Host: "claude"}, askResult(riskmodel.Medium), Hold{Queue: true, Wait: MinWait})
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != riskmodel.Ask || res.Status != guardian.StatusUnanswered {
		t.Fatalf("got %s/%s, want ask/unanswered", res.Decision, res.Status)
	}
	if recs := rec.all(); len(recs) != 1 || recs[0].Status != guardian.StatusUnanswered || recs[0].WaitMS < 1000 {
		t.Fatalf("audit records %+v", recs)
	}
	ps, _ := g.Store().List(context.Background(), true)
	if len(ps) != 1 || ps[0].State != StateExpired {
		t.Fatalf("approvals %+v", ps)
	}
}

func TestGateNotHeld(t *testing.T) {
	rec := &records{}
	g := NewGate(NewMemoryStore(), rec)
	tests := []struct {
		name   string
		caller guardian.Caller
		res    guardian.Result
		hold   Hold
	}{
		{"host mode", guardian.Caller{Host: "claude"}, askResult(riskmodel.Medium), Hold{}},
		{"allow", guardian.Caller{Host: "claude"}, guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule}, Hold{Queue: true}},
		{"deny", guardian.Caller{Host: "claude"}, guardian.Result{Decision: riskmodel.Deny, Status: guardian.StatusRule}, Hold{Queue: true}},
		{"monitor", guardian.Caller{Host: "claude", Monitor: true}, askResult(riskmodel.Medium), Hold{Queue: true}},
		{"wait too short", guardian.Caller{Host: "claude"}, askResult(riskmodel.Medium), Hold{Queue: true, Wait: time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := g.Resolve(context.Background(), execReq("npm publish", "/src/app"), tt.caller, tt.res, tt.hold)
			if err != nil || res.Decision != tt.res.Decision || res.Status != tt.res.Status {
				t.Fatalf("got %+v, %v; want the result unchanged", res, err)
			}
		})
	}
	if n := len(rec.all()); n != 0 {
		t.Errorf("%d audit records, want none", n)
	}
}

func TestGrants(t *testing.T) {
	dir := t.TempDir()
	s1 := execReq("npm publish", filepath.Join(dir, "app"))
	tests := []struct {
		name    string
		scope   Scope
		level   riskmodel.Level
		later   guardian.Request
		caller  guardian.Caller
		wantErr error
		applies bool
	}{
		{"session, same session", ScopeSession, riskmodel.Medium, s1, guardian.Caller{Host: "claude", Session: "s1"}, nil, true},
		{"session, other session", ScopeSession, riskmodel.Medium, s1, guardian.Caller{Host: "claude", Session: "s2"}, nil, false},
		{"session, other host", ScopeSession, riskmodel.Medium, s1, guardian.Caller{Host: "codex", Session: "s1"}, nil, false},
		{"project, other session", ScopeProject, riskmodel.Medium, s1, guardian.Caller{Host: "codex", Session: "s9"}, nil, true},
		{"project, other project", ScopeProject, riskmodel.Medium, execReq("npm publish", filepath.Join(dir, "lib")), guardian.Caller{Host: "claude", Session: "s1"}, nil, false},
		{"always, other project", ScopeAlways, riskmodel.Medium, execReq("npm publish", "/elsewhere"), guardian.Caller{Host: "claude"}, nil, true},
		{"always, other command", ScopeAlways, riskmodel.Medium, execReq("npm publish --tag next", "/elsewhere"), guardian.Caller{Host: "claude"}, nil, false},
		{"high is refused", ScopeAlways, riskmodel.High, s1, guardian.Caller{Host: "claude", Session: "s1"}, ErrScope, false},
		{"critical is refused", ScopeSession, riskmodel.Critical, s1, guardian.Caller{Host: "claude", Session: "s1"}, ErrScope, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			rec := &records{}
			store := newPutSignal(NewMemoryStore(WithClock(clk.now)))
			g := NewGate(store, rec, WithGateClock(clk.now))
			out := resolveAsync(context.Background(), g, s1, guardian.Caller{Host: "claude", Session: "s1"}, askResult(tt.level), Hold{Queue: true, Wait: time.Minute})
			p := store.next(t)
			_, gr, err := g.Approve(context.Background(), p.ID, Answer{By: "alice", Scope: tt.scope})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("approve: %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				// The scoped approval was refused: the request is still held; approve it once.
				if _, _, err := g.Approve(context.Background(), p.ID, Answer{By: "alice"}); err != nil {
					t.Fatal(err)
				}
				<-out
				return
			}
			<-out
			res, err := g.Resolve(context.Background(), tt.later, tt.caller, askResult(tt.level), Hold{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Decision == riskmodel.Allow; got != tt.applies {
				t.Fatalf("later request: %s by %s, grant applies = %v, want %v", res.Decision, res.DecidedBy, got, tt.applies)
			}
			if tt.applies && res.DecidedBy != "grant:"+gr.ID {
				t.Errorf("decided_by %q, want grant:%s", res.DecidedBy, gr.ID)
			}
			// The grant never outlives its expiry, and a revoked grant stops applying.
			clk.add(DefaultGrantTTL(tt.scope) + time.Second)
			if res, _ := g.Resolve(context.Background(), tt.later, tt.caller, askResult(tt.level), Hold{}); res.Decision != riskmodel.Ask {
				t.Errorf("expired grant still applies: %s", res.DecidedBy)
			}
		})
	}
}

func TestGrantNeverForHighAtUse(t *testing.T) {
	clk := newClock()
	g := NewGate(NewMemoryStore(WithClock(clk.now)), &records{}, WithGateClock(clk.now))
	req := execReq("make deploy", "/src/app")
	_, key := Shape(req)
	if err := g.Store().AddGrant(context.Background(), Grant{ID: "g1", Scope: ScopeAlways, Key: key, By: "alice", Created: clk.now(), Expires: clk.now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for _, level := range []riskmodel.Level{riskmodel.High, riskmodel.Critical} {
		res, err := g.Resolve(context.Background(), req, guardian.Caller{Host: "claude"}, askResult(level), Hold{})
		if err != nil || res.Decision != riskmodel.Ask {
			t.Errorf("%s request: got %s by %s, %v; a grant must not apply", level, res.Decision, res.DecidedBy, err)
		}
	}
	failed := askResult(riskmodel.Medium)
	failed.Status = guardian.StatusTimeout
	if res, _ := g.Resolve(context.Background(), req, guardian.Caller{Host: "claude"}, failed, Hold{}); res.Decision != riskmodel.Ask {
		t.Errorf("a failed review (risk unknown) was granted: %s", res.DecidedBy)
	}
	if _, err := g.Revoke(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if res, _ := g.Resolve(context.Background(), req, guardian.Caller{Host: "claude"}, askResult(riskmodel.Medium), Hold{}); res.Decision != riskmodel.Ask {
		t.Errorf("revoked grant still applies: %s", res.DecidedBy)
	}
}

func TestLateAnswerReachesRetry(t *testing.T) {
	rec := &records{}
	g := NewGate(NewMemoryStore(), rec)
	req := execReq("npm publish", "/src/app")
	c := guardian.Caller{Host: "claude", Session: "s1"}
	if res, _ := g.Resolve(context.Background(), req, c, askResult(riskmodel.Medium), Hold{Queue: true, Wait: MinWait}); res.Status != guardian.StatusUnanswered {
		t.Fatalf("got %s, want unanswered", res.Status)
	}
	ps, _ := g.Store().List(context.Background(), true)
	if _, _, err := g.Approve(context.Background(), ps[0].ID, Answer{By: "alice"}); err != nil {
		t.Fatal(err)
	}
	// Another session's identical request does not take the answer; the same session's does, once.
	if res, _ := g.Resolve(context.Background(), req, guardian.Caller{Host: "claude", Session: "s2"}, askResult(riskmodel.Medium), Hold{}); res.Decision != riskmodel.Ask {
		t.Errorf("other session took the answer: %s", res.DecidedBy)
	}
	if res, _ := g.Resolve(context.Background(), req, c, askResult(riskmodel.Medium), Hold{}); res.Decision != riskmodel.Allow || res.DecidedBy != "human:alice" {
		t.Errorf("retry got %s by %s, want allow by human:alice", res.Decision, res.DecidedBy)
	}
	if res, _ := g.Resolve(context.Background(), req, c, askResult(riskmodel.Medium), Hold{}); res.Decision != riskmodel.Ask {
		t.Errorf("a once answer applied twice: %s", res.DecidedBy)
	}
}

func TestAnswerErrors(t *testing.T) {
	store := NewMemoryStore()
	g := NewGate(store, &records{})
	for _, id := range []string{"ab12cd34", "ab99ef00"} {
		if err := store.Put(context.Background(), Pending{ID: id, Created: time.Now(), Caller: guardian.Caller{Host: "claude"}}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		id   string
		a    Answer
		want error
	}{
		{"ambiguous prefix", "ab", Answer{By: "alice"}, ErrAmbiguous},
		{"unknown", "ff", Answer{By: "alice"}, ErrNotFound},
		{"empty", "", Answer{By: "alice"}, ErrNotFound},
		{"session without session", "ab1", Answer{By: "alice", Scope: ScopeSession}, ErrScope},
		{"project without project", "ab1", Answer{By: "alice", Scope: ScopeProject}, ErrScope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := g.Approve(context.Background(), tt.id, tt.a); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	if _, _, err := g.Approve(context.Background(), "ab1", Answer{By: "alice"}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Deny(context.Background(), "ab1", Answer{By: "bob"}); !errors.Is(err, ErrSettled) {
		t.Fatalf("second answer: %v, want ErrSettled", err)
	}
	if _, err := g.Deny(context.Background(), "ab9", Answer{By: "bob", Scope: ScopeAlways}); !errors.Is(err, ErrScope) {
		t.Fatalf("deny with a scope: %v, want ErrScope", err)
	}
	if _, _, err := g.Approve(context.Background(), "ab9", Answer{By: " "}); err == nil {
		t.Fatal("an answer without a name was taken")
	}
}

func TestAuditFailureAnswersNothing(t *testing.T) {
	rec := &records{err: errors.New("disk full")}
	store := NewMemoryStore()
	g := NewGate(store, rec)
	if err := store.Put(context.Background(), Pending{ID: "ab12cd34", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.Approve(context.Background(), "ab", Answer{By: "alice"}); err == nil {
		t.Fatal("an answer that could not be audited was taken")
	}
	if p, _ := store.Get(context.Background(), "ab"); p.State != StateOpen {
		t.Fatalf("state %s, want open", p.State)
	}
}

// TestGateChanges: the queue's changes reach WithChanges. The waiter's delivery and the
// answer's own changes race, so they are compared as a set.
func TestGateChanges(t *testing.T) {
	var mu sync.Mutex
	var kinds []string
	store := newPutSignal(NewMemoryStore())
	g := NewGate(store, &records{}, WithChanges(func(c Change) {
		mu.Lock()
		defer mu.Unlock()
		kinds = append(kinds, c.Kind)
	}))
	out := resolveAsync(context.Background(), g, execReq("npm publish", "/src/app"), guardian.Caller{Host: "claude", Session: "s1"}, askResult(riskmodel.Medium), Hold{Queue: true, Wait: time.Minute})
	p := store.next(t)
	_, gr, err := g.Approve(context.Background(), p.ID, Answer{By: "alice", Scope: ScopeSession})
	if err != nil {
		t.Fatal(err)
	}
	<-out
	if _, err := g.Revoke(context.Background(), gr.ID); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{ChangeHeld, ChangeSettled, ChangeGrantAdded, ChangeSettled, ChangeGrantRevoked}
	slices.Sort(kinds)
	slices.Sort(want)
	if kinds[0] != ChangeGrantAdded || strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Fatalf("changes %v, want %v", kinds, want)
	}
}
