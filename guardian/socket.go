package guardian

import "path/filepath"

// DefaultSocketPath is the unix socket guardian serve uses with --socket default and the
// adapters look for: $GUARDIAN_SOCKET, else $XDG_RUNTIME_DIR/guardian/guardian.sock (a
// per-user tmpfs on systemd machines), else $HOME/.local/state/guardian/guardian.sock. It
// returns "" when none of them is set. getenv is os.Getenv in production.
//
// It lives here, not beside the serve's listener, so that a hook process can tell whether a
// serve may be running without linking the serve's HTTP client (cmd/guardian-hook).
func DefaultSocketPath(getenv func(string) string) string {
	if p := getenv("GUARDIAN_SOCKET"); p != "" {
		return p
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "guardian", "guardian.sock")
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "guardian", "guardian.sock")
	}
	return ""
}
