package guardian_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/riskmodel"
)

type recordingAuditor struct {
	entries []guardian.AuditEntry
	err     error
}

func (r *recordingAuditor) Audit(_ context.Context, e guardian.AuditEntry) error {
	if r.err != nil {
		return r.err
	}
	r.entries = append(r.entries, e)
	return nil
}

func TestAuditedRecordsEveryDecision(t *testing.T) {
	an, err := riskmodel.New(riskmodel.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	tick := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { tick = tick.Add(3 * time.Millisecond); return tick }
	aud := &recordingAuditor{}
	d := guardian.Audited(guardian.New(an), aud, clock)
	caller := guardian.Caller{Host: "claude", Session: "s-1", Turn: "toolu_1"}
	req := guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"rm", "-rf", "/"}, Cwd: riskmodel.ExampleCwd})
	res, err := d.Decide(context.Background(), req, caller)
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != riskmodel.Deny {
		t.Fatalf("decision = %s, want deny", res.Decision)
	}
	if len(aud.entries) != 1 {
		t.Fatalf("audited %d entries, want 1", len(aud.entries))
	}
	e := aud.entries[0]
	if e.Caller != caller || e.Result.Decision != res.Decision || e.Request.Exec.Command[0] != "rm" {
		t.Errorf("entry = %+v, want the request, caller and result", e)
	}
	if e.Latency != 3*time.Millisecond {
		t.Errorf("latency = %s, want 3ms (one clock tick)", e.Latency)
	}
}

func TestAuditedFailureIsNoDecision(t *testing.T) {
	allow := guardian.DeciderFunc(func(context.Context, guardian.Request, guardian.Caller) (guardian.Result, error) {
		return guardian.Result{Decision: riskmodel.Allow, Status: guardian.StatusRule}, nil
	})
	disk := errors.New("disk full")
	d := guardian.Audited(allow, &recordingAuditor{err: disk}, time.Now)
	res, err := d.Decide(context.Background(), guardian.ExecRequest(riskmodel.ExecRequest{Command: []string{"ls"}}), guardian.Caller{})
	if !errors.Is(err, disk) {
		t.Fatalf("err = %v, want the auditor's error", err)
	}
	if res.Decision == riskmodel.Allow {
		t.Fatal("an unaudited allow was returned")
	}
}
