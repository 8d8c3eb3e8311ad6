package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/hook"
	"github.com/guardianhq/guardian/guardian/server"
)

// envApprovals sets a hook's --approvals default, so one run of a headless host can ask for
// the approval queue without editing the installed hook: GUARDIAN_APPROVALS=queue claude -p …
// (hosts pass their environment on to their hooks).
const envApprovals = "GUARDIAN_APPROVALS"

func checkApprovalMode(m string) error {
	switch m {
	case "auto", server.ApprovalQueue, server.ApprovalHost:
		return nil
	}
	return usageErrorf("hook: --approvals %q (or $%s): want queue, host or auto", m, envApprovals)
}

// approvalOptions tells guardian serve whether to hold the call's ask for a person: queue
// holds it (for at most the time left before the hook's deadline), host sends it to the
// host's prompt at once, auto holds it when the payload shows the host will not prompt and
// otherwise leaves it to the serve's --approvals mode. An in-process review has no queue: a
// held ask needs a serve that a person can reach.
func (a *app) approvalOptions(c hook.Call) []server.ClientOption {
	switch {
	case a.approvals == server.ApprovalQueue, a.approvals == "auto" && c.Headless:
		return []server.ClientOption{server.WithApprovalMode(server.ApprovalQueue)}
	case a.approvals == server.ApprovalHost:
		return []server.ClientOption{server.WithApprovalMode(server.ApprovalHost)}
	}
	return nil
}

// hookRecord records a host's report of how a tool call ended against guardian's ask for it,
// in the audit log of the user config (the one a serve on this machine writes too).
func (a *app) hookRecord(cmd *cobra.Command) func(ctx context.Context, c hook.Call) error {
	return func(ctx context.Context, c hook.Call) error {
		if c.Request == nil {
			return nil
		}
		cfg, err := a.loadConfig(cmd, a.requestDir(*c.Request))
		if err != nil {
			return err
		}
		log, err := a.openAudit(cmd, cfg)
		if err != nil {
			return err
		}
		defer log.Close()
		_, err = approval.RecordHostOutcome(ctx, log.Recent, log, c.Caller, c.Outcome == hook.OutcomeRan)
		return err
	}
}
