package main

import (
	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
)

// auditPath is where the audit log of cfg lives (oneshot.Env.AuditPath).
func (a *app) auditPath(cfg guardian.Config) (string, error) {
	return a.env(nil).AuditPath(cfg)
}

// openAudit opens the audit log that cfg names for appending (oneshot.Env.OpenAudit); the
// caller closes it, which flushes it.
func (a *app) openAudit(cmd *cobra.Command, cfg guardian.Config, extra ...audit.Option) (*audit.Log, error) {
	return a.env(cmd).OpenAudit(cfg, extra...)
}
