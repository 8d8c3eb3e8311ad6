package main

import (
	"github.com/guardianhq/guardian/guardian/oneshot"
	"github.com/guardianhq/guardian/guardian/server"
)

// envApprovals sets a hook's --approvals default (oneshot.EnvApprovals).
const envApprovals = oneshot.EnvApprovals

func checkApprovalMode(m string) error {
	switch m {
	case "auto", server.ApprovalQueue, server.ApprovalHost:
		return nil
	}
	return usageErrorf("hook: --approvals %q (or $%s): want queue, host or auto", m, envApprovals)
}
