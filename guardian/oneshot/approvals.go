package oneshot

import (
	"context"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/hook"
)

// EnvApprovals sets a hook's --approvals default, so one run of a headless host can ask for
// the approval queue without editing the installed hook: GUARDIAN_APPROVALS=queue claude -p …
// (hosts pass their environment on to their hooks).
const EnvApprovals = "GUARDIAN_APPROVALS"

// The approval modes a hook asks a guardian serve for (Serve.Approvals); the serve's own
// names for them are server.ApprovalQueue and server.ApprovalHost (package online checks
// they agree).
const (
	ApprovalQueue = "queue" // hold an ask for a person, within the hook's deadline
	ApprovalHost  = "host"  // send an ask to the host's prompt at once
)

// approvalMode tells guardian serve whether to hold the call's ask for a person: queue
// holds it (for at most the time left before the hook's deadline), host sends it to the
// host's prompt at once, auto holds it when the payload shows the host will not prompt and
// otherwise leaves it to the serve's --approvals mode (""). An in-process review has no
// queue: a held ask needs a serve that a person can reach.
//
// The mode is e.Approvals, else $GUARDIAN_APPROVALS; any other value counts as auto.
func (e Env) approvalMode(c hook.Call) string {
	mode := e.Approvals
	if mode == "" && e.Getenv != nil {
		mode = e.Getenv(EnvApprovals)
	}
	switch {
	case mode == ApprovalQueue, mode != ApprovalHost && c.Headless:
		return ApprovalQueue
	case mode == ApprovalHost:
		return ApprovalHost
	}
	return ""
}

// recordOutcome records a host's report of how a tool call ended against guardian's ask for
// it, in the audit log of the user config (the one a serve on this machine writes too).
func (e Env) recordOutcome(ctx context.Context, c hook.Call) error {
	if c.Request == nil {
		return nil
	}
	cfg, err := e.LoadConfig(e.RequestDir(*c.Request))
	if err != nil {
		return err
	}
	log, err := e.OpenAudit(cfg)
	if err != nil {
		return err
	}
	defer log.Close()
	_, err = approval.RecordHostOutcome(ctx, log.Recent, log, c.Caller, c.Outcome == hook.OutcomeRan)
	return err
}
