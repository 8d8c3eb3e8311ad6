package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian"
)

// diagnosticConfig is the user config for the commands that find out what is wrong —
// verify and audit. A broken config must not lock the user out of them: it is the moment they
// are needed. When the config does not load, the result is the built-in defaults (so the
// default audit log, where the hooks record their fail-safe answers meanwhile) and the load
// error, which the caller reports with brokenConfigNote.
func (a *app) diagnosticConfig(cmd *cobra.Command) (guardian.Config, error) {
	cfg, err := a.loadConfig(cmd, "")
	if err != nil {
		return guardian.DefaultConfig(), err
	}
	return cfg, nil
}

// brokenConfigNote says what a config that does not load means for the hooks, and how to
// find every problem in it.
func brokenConfigNote(err error) string {
	file := "FILE"
	if ce := (*guardian.ConfigError)(nil); errors.As(err, &ce) && len(ce.Problems) > 0 {
		file = ce.Problems[0].File
	}
	return fmt.Sprintf(`the user config does not load:
%v
Until it is fixed every hook answers its host's fail-safe — Claude Code asks you, Codex shows its
own approval prompt, nothing is allowed or denied on guardian's word — and records that answer
in the default audit log. List every problem with: guardian config check %s`, indent(err.Error()), file)
}

// indent prefixes each line of s with two spaces.
func indent(s string) string {
	out := "  "
	for _, r := range s {
		out += string(r)
		if r == '\n' {
			out += "  "
		}
	}
	return out
}
