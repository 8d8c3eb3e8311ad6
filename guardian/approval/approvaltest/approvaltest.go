// Package approvaltest is the behaviour every approval.Store must have, as a test suite that
// each implementation runs against itself: the local FileStore and the shared Redis store
// pass the same tests, so the gate can rely on either.
package approvaltest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/riskmodel"
)

// Run runs the suite; open returns a new, empty store for each test.
func Run(t *testing.T, open func(t *testing.T) approval.Store) {
	tests := []struct {
		name string
		f    func(t *testing.T, s approval.Store)
	}{
		{"lookup", testLookup},
		{"answer", testAnswer},
		{"wait", testWait},
		{"expire and deliver", testExpireDeliver},
		{"claim", testClaim},
		{"grants", testGrants},
		{"one answer wins", testOneAnswerWins},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.f(t, open(t)) })
	}
}

// base is a fixed time in the near past, at a millisecond, so every store keeps it exactly.
var base = time.Now().Add(-time.Minute).Truncate(time.Second).UTC()

func pending(id string, created time.Time) approval.Pending {
	return approval.Pending{
		ID: id, State: approval.StateOpen, Created: created, Expires: created.Add(50 * time.Minute),
		Kind: riskmodel.KindExec, Request: []byte(`{"command":["npm","publish"]}`), Shape: "npm publish", Key: "sha256:k-" + id,
		Project: "/src/p", Caller: guardian.Caller{Host: "claude", Session: "s1"}, AskedBy: "rule:test.ask",
		Assessment: riskmodel.Assessment{Summary: "publishes", Level: riskmodel.Medium, Category: riskmodel.CatNone},
	}
}

func put(t *testing.T, s approval.Store, ps ...approval.Pending) {
	t.Helper()
	for _, p := range ps {
		if err := s.Put(context.Background(), p); err != nil {
			t.Fatalf("Put %s: %v", p.ID, err)
		}
	}
}

func allow(by string) approval.Answer {
	return approval.Answer{Decision: riskmodel.Allow, Scope: approval.ScopeOnce, By: by, Time: base.Add(time.Second)}
}

func testLookup(t *testing.T, s approval.Store) {
	ctx := context.Background()
	put(t, s, pending("aaaa0001", base), pending("aaab0002", base.Add(time.Second)), pending("cccc0003", base.Add(2*time.Second)))
	if err := s.Put(ctx, pending("aaaa0001", base)); err == nil {
		t.Error("Put of a taken id succeeded")
	}
	tests := []struct {
		id, want string
		err      error
	}{
		{"aaaa0001", "aaaa0001", nil},
		{"cc", "cccc0003", nil},
		{" AAAB ", "aaab0002", nil},
		{"aaa", "", approval.ErrAmbiguous},
		{"dddd", "", approval.ErrNotFound},
		{"", "", approval.ErrNotFound},
	}
	for _, tt := range tests {
		p, err := s.Get(ctx, tt.id)
		if !errors.Is(err, tt.err) || (tt.err == nil && p.ID != tt.want) {
			t.Errorf("Get(%q) = %q, %v; want %q, %v", tt.id, p.ID, err, tt.want, tt.err)
		}
	}
	got, err := s.Get(ctx, "aaaa0001")
	if err != nil || got.State != approval.StateOpen || got.Shape != "npm publish" || got.Caller.Session != "s1" || !got.Created.Equal(base) || got.Answer != nil {
		t.Errorf("Get kept %+v, %v", got, err)
	}
	if _, err := s.Answer(ctx, "cccc", allow("alice"), nil); err != nil {
		t.Fatal(err)
	}
	open, err := s.List(ctx, false)
	if err != nil || len(open) != 2 || open[0].ID != "aaaa0001" || open[1].ID != "aaab0002" {
		t.Errorf("List(open) = %v, %v", ids(open), err)
	}
	all, err := s.List(ctx, true)
	if err != nil || len(all) != 3 || all[2].ID != "cccc0003" || all[2].State != approval.StateAnswered {
		t.Errorf("List(all) = %v, %v", ids(all), err)
	}
	if n, err := s.OpenCount(ctx); err != nil || n != 2 {
		t.Errorf("OpenCount = %d, %v; want 2", n, err)
	}
}

func ids(ps []approval.Pending) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID+":"+string(p.State))
	}
	return out
}

func testAnswer(t *testing.T, s approval.Store) {
	ctx := context.Background()
	put(t, s, pending("aaaa0001", base))
	a := allow("alice")
	a.Reason = "ok"
	p, err := s.Answer(ctx, "aaaa", a, nil)
	if err != nil || p.State != approval.StateAnswered || p.Answer == nil || p.Answer.By != "alice" || p.Answer.Reason != "ok" || !p.Answer.Time.Equal(a.Time) {
		t.Fatalf("Answer = %+v, %v", p, err)
	}
	if _, err := s.Answer(ctx, "aaaa0001", allow("bob"), nil); !errors.Is(err, approval.ErrSettled) {
		t.Errorf("second answer: %v, want ErrSettled", err)
	}
	if _, err := s.Answer(ctx, "ffff", allow("bob"), nil); !errors.Is(err, approval.ErrNotFound) {
		t.Errorf("answer to nothing: %v, want ErrNotFound", err)
	}
	if n, _ := s.OpenCount(ctx); n != 0 {
		t.Errorf("OpenCount after the answer = %d", n)
	}
}

func testWait(t *testing.T, s approval.Store) {
	ctx := context.Background()
	put(t, s, pending("aaaa0001", base), pending("bbbb0002", base))
	// Answered before anyone waits: Wait returns at once.
	if _, err := s.Answer(ctx, "bbbb0002", allow("alice"), nil); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Wait(ctx, "bbbb0002"); err != nil || p.State != approval.StateAnswered {
		t.Fatalf("Wait on an answered approval = %v, %v", p.State, err)
	}
	// Answered while waiting: the waiter wakes with the answer.
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var got approval.Pending
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		got, werr = s.Wait(wctx, "aaaa0001")
	}()
	if _, err := s.Answer(ctx, "aaaa0001", allow("carol"), nil); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if werr != nil || got.State != approval.StateAnswered || got.Answer.By != "carol" {
		t.Fatalf("Wait = %+v, %v", got, werr)
	}
	// A waiter whose context ends gets its error.
	put(t, s, pending("cccc0003", base))
	cctx, ccancel := context.WithCancel(ctx)
	ccancel()
	if _, err := s.Wait(cctx, "cccc0003"); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait with a cancelled context: %v", err)
	}
	if _, err := s.Wait(ctx, "dddd0004"); !errors.Is(err, approval.ErrNotFound) {
		t.Errorf("Wait on nothing: %v, want ErrNotFound", err)
	}
}

func testExpireDeliver(t *testing.T, s approval.Store) {
	ctx := context.Background()
	put(t, s, pending("aaaa0001", base), pending("bbbb0002", base))
	if p, err := s.Expire(ctx, "aaaa0001"); err != nil || p.State != approval.StateExpired {
		t.Fatalf("Expire = %v, %v", p.State, err)
	}
	// An expired approval can still be answered: a late answer, for a retry to claim.
	if p, err := s.Answer(ctx, "aaaa0001", allow("alice"), nil); err != nil || p.State != approval.StateAnswered {
		t.Fatalf("late answer = %v, %v", p.State, err)
	}
	// Expire after an answer (the answer raced the deadline) returns the answer.
	if _, err := s.Answer(ctx, "bbbb0002", allow("bob"), nil); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Expire(ctx, "bbbb0002"); err != nil || p.State != approval.StateAnswered || p.Answer.By != "bob" {
		t.Fatalf("Expire after the answer = %v, %v", p.State, err)
	}
	if p, err := s.Deliver(ctx, "bbbb0002"); err != nil || p.State != approval.StateDelivered {
		t.Fatalf("Deliver = %v, %v", p.State, err)
	}
	if p, err := s.Deliver(ctx, "bbbb0002"); err != nil || p.State != approval.StateDelivered {
		t.Fatalf("Deliver twice = %v, %v", p.State, err)
	}
	if _, err := s.Answer(ctx, "bbbb0002", allow("carol"), nil); !errors.Is(err, approval.ErrSettled) {
		t.Errorf("answer to a delivered approval: %v, want ErrSettled", err)
	}
	if _, err := s.Expire(ctx, "ffff0000"); !errors.Is(err, approval.ErrNotFound) {
		t.Errorf("Expire of nothing: %v", err)
	}
}

func testClaim(t *testing.T, s approval.Store) {
	ctx := context.Background()
	p := pending("aaaa0001", base)
	put(t, s, p)
	now := base.Add(2 * time.Second)
	if _, ok, err := s.Claim(ctx, p.Key, "claude", "s1", now); ok || err != nil {
		t.Fatalf("claim of an unanswered approval: %v, %v", ok, err)
	}
	if _, err := s.Expire(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, p.ID, allow("alice"), nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, key, host, session string
	}{
		{"other key", "sha256:other", "claude", "s1"},
		{"other host", p.Key, "codex", "s1"},
		{"other session", p.Key, "claude", "s2"},
		{"no session", p.Key, "claude", ""},
	}
	for _, tt := range tests {
		if _, ok, err := s.Claim(ctx, tt.key, tt.host, tt.session, now); ok || err != nil {
			t.Errorf("%s: claimed (%v)", tt.name, err)
		}
	}
	got, ok, err := s.Claim(ctx, p.Key, "claude", "s1", now)
	if err != nil || !ok || got.ID != p.ID || got.State != approval.StateDelivered || got.Answer.By != "alice" {
		t.Fatalf("Claim = %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := s.Claim(ctx, p.Key, "claude", "s1", now); ok {
		t.Error("a late answer was claimed twice")
	}
}

func testGrants(t *testing.T, s approval.Store) {
	ctx := context.Background()
	p := pending("aaaa0001", base)
	put(t, s, p)
	g := &approval.Grant{ID: "g0000001", Scope: approval.ScopeProject, Kind: p.Kind, Shape: p.Shape, Key: p.Key, Project: "/src/p",
		By: "alice", Created: base.Add(time.Second), Expires: time.Now().Add(time.Hour).Truncate(time.Millisecond), From: p.ID}
	a := allow("alice")
	a.Scope, a.Grant = approval.ScopeProject, g.ID
	if _, err := s.Answer(ctx, p.ID, a, g); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGrant(ctx, approval.Grant{ID: "g0000002", Scope: approval.ScopeSession, Key: p.Key, Host: "claude", Session: "s9",
		By: "bob", Created: base.Add(2 * time.Second), Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddGrant(ctx, approval.Grant{ID: "g0000002", Key: "x", Created: base, Expires: time.Now().Add(time.Hour)}); err == nil {
		t.Error("AddGrant of a taken id succeeded")
	}
	// An expired grant is neither listed nor matched.
	if err := s.AddGrant(ctx, approval.Grant{ID: "g0000003", Scope: approval.ScopeAlways, Key: p.Key, By: "carol",
		Created: base, Expires: time.Now().Add(-time.Second)}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	gs, err := s.Grants(ctx, now)
	if err != nil || len(gs) != 2 || gs[0].ID != "g0000001" || gs[1].ID != "g0000002" || gs[0].From != p.ID || !gs[0].Expires.Equal(g.Expires) {
		t.Fatalf("Grants = %+v, %v", gs, err)
	}
	tests := []struct {
		name string
		q    approval.GrantQuery
		want string
	}{
		{"project", approval.GrantQuery{Key: p.Key, Project: "/src/p", Host: "codex", Session: "x", Now: now}, "g0000001"},
		{"session", approval.GrantQuery{Key: p.Key, Project: "/src/q", Host: "claude", Session: "s9", Now: now}, "g0000002"},
		{"other project", approval.GrantQuery{Key: p.Key, Project: "/src/q", Host: "claude", Session: "s1", Now: now}, ""},
		{"other key", approval.GrantQuery{Key: "sha256:other", Project: "/src/p", Now: now}, ""},
		{"after expiry", approval.GrantQuery{Key: p.Key, Project: "/src/p", Now: now.Add(2 * time.Hour)}, ""},
	}
	for _, tt := range tests {
		got, ok, err := s.MatchGrant(ctx, tt.q)
		if err != nil || ok != (tt.want != "") || got.ID != tt.want {
			t.Errorf("%s: MatchGrant = %q, %v, %v; want %q", tt.name, got.ID, ok, err, tt.want)
		}
	}
	if _, err := s.RevokeGrant(ctx, "g0000"); !errors.Is(err, approval.ErrAmbiguous) {
		t.Errorf("revoke by an ambiguous prefix: %v", err)
	}
	if gr, err := s.RevokeGrant(ctx, "g0000001"); err != nil || gr.ID != "g0000001" || gr.By != "alice" {
		t.Fatalf("RevokeGrant = %+v, %v", gr, err)
	}
	if _, ok, _ := s.MatchGrant(ctx, tests[0].q); ok {
		t.Error("a revoked grant still matches")
	}
	if _, err := s.RevokeGrant(ctx, "g0000001"); !errors.Is(err, approval.ErrNotFound) {
		t.Errorf("revoke twice: %v, want ErrNotFound", err)
	}
	if gs, _ := s.Grants(ctx, now); len(gs) != 1 {
		t.Errorf("Grants after revoke = %+v", gs)
	}
}

// testOneAnswerWins: of many people answering at once, exactly one succeeds.
func testOneAnswerWins(t *testing.T, s approval.Store) {
	ctx := context.Background()
	put(t, s, pending("aaaa0001", base))
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := s.Answer(ctx, "aaaa0001", allow(string(rune('a'+i))), nil)
			errs <- err
		}()
	}
	ok := 0
	for range n {
		err := <-errs
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, approval.ErrSettled):
			t.Errorf("answer: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d answers succeeded, want 1", ok)
	}
}
