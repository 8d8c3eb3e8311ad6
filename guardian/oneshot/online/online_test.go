package online_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/oneshot/online"
	"github.com/guardianhq/guardian/guardian/server"
	"github.com/guardianhq/guardian/riskmodel"
)

// TestApprovalModes keeps oneshot's names for the approval modes, which it cannot import
// from the serve's package (it links no HTTP), equal to the serve's.
func TestApprovalModes(t *testing.T) {
	if oneshot.ApprovalQueue != server.ApprovalQueue || oneshot.ApprovalHost != server.ApprovalHost {
		t.Errorf("oneshot's approval modes %q, %q; the serve's %q, %q", oneshot.ApprovalQueue, oneshot.ApprovalHost, server.ApprovalQueue, server.ApprovalHost)
	}
}

// TestServeUnreachable checks the default-socket rule: a socket nobody listens on falls back
// to the in-process review when the call allows it (Local set), and is an error otherwise
// ($GUARDIAN_URL names a serve that must answer).
func TestServeUnreachable(t *testing.T) {
	target := "unix://" + filepath.Join(t.TempDir(), "guardian.sock")
	req := guardian.Request{Kind: riskmodel.KindExec, Exec: &riskmodel.ExecRequest{Command: []string{"ls"}, Cwd: "/w/p"}}
	local := func() (guardian.Decider, func(), error) {
		return guardian.DeciderFunc(func(context.Context, guardian.Request, guardian.Caller) (guardian.Result, error) {
			return guardian.Result{Decision: riskmodel.Allow, DecidedBy: "local"}, nil
		}), func() {}, nil
	}
	for _, tc := range []struct {
		name    string
		local   func() (guardian.Decider, func(), error)
		want    string
		wantErr error
	}{
		{name: "default socket: reviewed in-process", local: local, want: "local"},
		{name: "GUARDIAN_URL: an error", wantErr: server.ErrUnreachable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, done, err := online.Network{}.Serve(oneshot.Serve{Target: target, Local: tc.local})
			if err != nil {
				t.Fatal(err)
			}
			defer done()
			res, err := d.Decide(context.Background(), req, guardian.Caller{})
			if !errors.Is(err, tc.wantErr) || res.DecidedBy != tc.want {
				t.Errorf("Decide = %q, %v; want %q, %v", res.DecidedBy, err, tc.want, tc.wantErr)
			}
		})
	}
}
