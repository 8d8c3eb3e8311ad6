package oneshot

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/audit"
)

// AuditPath is where the audit log of cfg lives: the user config's [audit] path, else
// $GUARDIAN_AUDIT_LOG, else the default state path. Hooks run in every directory an agent
// works in, so a relative GUARDIAN_AUDIT_LOG would scatter the log over projects: it is an
// error, not resolved.
func (e Env) AuditPath(cfg guardian.Config) (string, error) {
	if cfg.Audit.Path != "" {
		return cfg.Audit.Path, nil
	}
	p := audit.DefaultPath(e.Getenv)
	switch {
	case p == "":
		return "", invalid(fmt.Errorf("no audit log path: HOME is not set; set [audit] path in the user config or GUARDIAN_AUDIT_LOG"))
	case !filepath.IsAbs(p):
		return "", invalid(fmt.Errorf("GUARDIAN_AUDIT_LOG=%q is a relative path, which would put a different log in every directory guardian runs in; set it to an absolute path", p))
	}
	return p, nil
}

// OpenAudit opens the audit log that cfg names (see AuditPath) for appending, with its sync
// mode and rotation size. Its warnings (a torn tail recovered after a crash) go to Stderr.
// serve and the hooks audit every decision through it, so a decision that was answered is in
// the log; the caller closes it, which flushes it.
func (e Env) OpenAudit(cfg guardian.Config, extra ...audit.Option) (*audit.Log, error) {
	path, err := e.AuditPath(cfg)
	if err != nil {
		return nil, err
	}
	mode, err := audit.ParseSyncMode(cfg.Audit.Sync)
	if err != nil {
		return nil, invalid(fmt.Errorf("config: [audit] sync: %w", err))
	}
	maxSize := cfg.Audit.MaxSize
	if maxSize == 0 {
		maxSize = audit.DefaultMaxSize
	}
	logger := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	l, err := audit.Open(path, append([]audit.Option{audit.WithSync(mode), audit.WithMaxSize(maxSize), audit.WithLogger(logger)}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("%w (the log is set by [audit] path in the user config, or GUARDIAN_AUDIT_LOG)", err)
	}
	return l, nil
}
