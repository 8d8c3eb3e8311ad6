package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultPath is where the audit log lives when the config does not say:
// $GUARDIAN_AUDIT_LOG if set, else $XDG_STATE_HOME/guardian/audit.jsonl (XDG_STATE_HOME must
// be absolute, as the XDG spec requires), else $HOME/.local/state/guardian/audit.jsonl. It
// returns "" when none of them is known. getenv is os.Getenv in production.
func DefaultPath(getenv func(string) string) string {
	if p := getenv("GUARDIAN_AUDIT_LOG"); p != "" {
		return p
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "guardian", "audit.jsonl")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "guardian", "audit.jsonl")
	}
	return ""
}

// Files lists the files of the log at path in chain order: its rotated files, oldest first,
// then path itself. A missing path is left out (its rotated files still count); a log that
// does not exist at all is an error wrapping fs.ErrNotExist.
func Files(path string) ([]string, error) {
	files, err := rotatedFiles(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err == nil {
		files = append(files, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("audit: no log at %s: %w", path, fs.ErrNotExist)
	}
	return files, nil
}

// rotatedFiles lists <path>.<UTC timestamp> files, oldest first. Other names beside the log
// (<path>.lock, <path>.torn-…) are not part of the chain.
func rotatedFiles(path string) ([]string, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		stamp, ok := strings.CutPrefix(e.Name(), base+".")
		if !ok || len(stamp) != len(rotatedLayout) || !e.Type().IsRegular() {
			continue
		}
		if _, err := time.Parse(rotatedLayout, stamp); err == nil {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out) // fixed-width timestamps: name order is time order
	return out, nil
}
