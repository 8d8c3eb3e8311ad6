package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/audit"
)

// approvalFlags are guardian serve's flags for the approval queue (docs/serve.md#approvals).
type approvalFlags struct {
	mode       string // auto, queue, off
	wait       time.Duration
	maxPending int
	file       string
}

func (f *approvalFlags) register(fl *pflag.FlagSet) {
	f.mode, f.wait, f.maxPending = "auto", approval.DefaultWait, approval.DefaultMaxPending
	fl.StringVar(&f.mode, "approvals", f.mode, "hold asks for a person: auto (when the client asks, Guardian-Approval: queue), queue (every ask) or off (a `MODE`)")
	fl.DurationVar(&f.wait, "approval-wait", f.wait, "hold a request for a person at most `D` (a client's Guardian-Wait can only shorten it)")
	fl.IntVar(&f.maxPending, "max-pending", f.maxPending, "hold at most `N` approvals at once; beyond, an ask goes to the host at once")
	fl.StringVar(&f.file, "approvals-file", "", "journal answers and grants in `FILE` (default $XDG_STATE_HOME/guardian/approvals.jsonl)")
}

func (f *approvalFlags) check() error {
	switch f.mode {
	case "auto", "queue", "off":
	default:
		return usageErrorf("serve: --approvals %q: want auto, queue or off", f.mode)
	}
	if f.wait < approval.MinWait || f.wait > approval.MaxWait {
		return usageErrorf("serve: --approval-wait %s: want %s to %s, below the hook timeout of the hosts that wait (Claude Code: 60 s unless its settings say otherwise)", f.wait, approval.MinWait, approval.MaxWait)
	}
	if f.maxPending < 1 || f.maxPending > 1<<20 {
		return usageErrorf("serve: --max-pending %d: want 1 to %d", f.maxPending, 1<<20)
	}
	return nil
}

// approvalGate opens the approval journal and builds the gate serve settles asks with; nil
// with --approvals off. The returned function closes the journal.
func (a *app) approvalGate(f approvalFlags, log *audit.Log) (*approval.Gate, func(), error) {
	if f.mode == "off" {
		return nil, func() {}, nil
	}
	path := f.file
	if path == "" {
		if path = approval.DefaultPath(a.getenv); path == "" {
			return nil, nil, usageErrorf("serve: no state directory for the approvals journal (neither XDG_STATE_HOME nor HOME is set): give --approvals-file FILE or --approvals off")
		}
	}
	store, err := approval.OpenFileStore(path)
	if err != nil {
		return nil, nil, invalidError(fmt.Errorf("serve: %w", err))
	}
	g := approval.NewGate(store, log, approval.WithWait(f.wait), approval.WithQueueAll(f.mode == "queue"), approval.WithMaxPending(f.maxPending))
	return g, func() { store.Close() }, nil
}
