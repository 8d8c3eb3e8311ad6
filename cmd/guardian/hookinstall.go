package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/hook"
)

// installFlags are the flags of `guardian hook install`.
type installFlags struct {
	write   bool
	timeout int
	command string
	file    string // claude: the settings file; codex: CODEX_HOME
}

// DefaultHookTimeout is the host timeout (seconds) the installers write. The hook's own
// deadline is five seconds less: room for process start, the audit fsync and a telemetry
// flush, so the host never kills the hook first (a killed hook fails open).
const defaultHookTimeout = 15

func (a *app) hookInstallCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "install claude|codex",
		Short: "Print (or --write) the host configuration that runs guardian's hook",
		Long: `Print the host configuration that runs guardian's hook, or with --write add it to the host's
config file, keeping a timestamped backup of the previous content. Installing twice changes
nothing; an earlier guardian hook is replaced where it stands.

  claude  ~/.claude/settings.json (or --settings FILE, e.g. PROJECT/.claude/settings.json):
          a PreToolUse hook matching Bash, Write, Edit, MultiEdit, NotebookEdit and mcp__.*
  codex   $CODEX_HOME/hooks.json (CODEX_HOME defaults to ~/.codex; or --codex-home DIR):
          a PermissionRequest hook, and its trust entry in $CODEX_HOME/config.toml —
          Codex silently skips a hook it has not been told to trust.

The hook command is this executable's absolute path (or --command), with --deadline set
five seconds below the host timeout.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	var cf, xf installFlags
	claude := &cobra.Command{
		Use:   "claude [--write] [--settings FILE] [--timeout 15]",
		Short: "Install guardian as Claude Code's PreToolUse hook",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return a.installClaude(cf) },
	}
	claude.Flags().StringVar(&cf.file, "settings", "", "Claude Code settings `FILE` (default ~/.claude/settings.json)")
	codex := &cobra.Command{
		Use:   "codex [--write] [--codex-home DIR] [--timeout 15]",
		Short: "Install guardian as Codex's PermissionRequest hook, trusted",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return a.installCodex(xf) },
	}
	codex.Flags().StringVar(&xf.file, "codex-home", "", "Codex home `DIR` (default $CODEX_HOME, else ~/.codex)")
	for _, sub := range []struct {
		c *cobra.Command
		f *installFlags
	}{{claude, &cf}, {codex, &xf}} {
		sub.c.Flags().BoolVar(&sub.f.write, "write", false, "edit the host's config file (keeping a backup) instead of printing")
		sub.c.Flags().IntVar(&sub.f.timeout, "timeout", defaultHookTimeout, "the host's hook timeout in `SECONDS` (at least 7)")
		sub.c.Flags().StringVar(&sub.f.command, "command", "", "the hook `COMMAND` (default: this executable, quoted, with hook HOST --deadline)")
		c.AddCommand(sub.c)
	}
	return c
}

// hookCommand is the command line a host runs for guardian's hook.
func (a *app) hookCommand(f installFlags, host string) (string, error) {
	if f.timeout < 7 {
		return "", usageErrorf("hook install: --timeout %d is too short: the hook needs its deadline (timeout − 5 s) of at least 2 s", f.timeout)
	}
	if f.command != "" {
		return f.command, nil
	}
	exe, err := a.executable()
	if err != nil {
		return "", fmt.Errorf("hook install: cannot find this executable (pass --command): %w", err)
	}
	if strings.Contains(exe, "go-build") {
		return "", usageErrorf("hook install: this guardian runs from a temporary go-build directory (go run); build it (make build) and install from the binary, or pass --command")
	}
	return fmt.Sprintf("%s hook %s --deadline %ds", shellQuote(exe), host, f.timeout-5), nil
}

func (a *app) installClaude(f installFlags) error {
	command, err := a.hookCommand(f, "claude")
	if err != nil {
		return err
	}
	path := f.file
	if path == "" {
		home := a.getenv("HOME")
		if !filepath.IsAbs(home) {
			return usageErrorf("hook install claude: $HOME is not set; pass --settings FILE")
		}
		path = filepath.Join(home, ".claude", "settings.json")
	}
	old, err := readOptional(path)
	if err != nil {
		return err
	}
	out, changed, err := hook.InstallClaude(old, command, f.timeout)
	if err != nil {
		return invalidError(fmt.Errorf("%s: %w", path, err))
	}
	if !f.write {
		fmt.Fprintf(a.stdout, "# %s with guardian's hook (write it with --write):\n%s", path, out)
		return nil
	}
	if !changed {
		fmt.Fprintf(a.stdout, "guardian's hook is already installed in %s\n", path)
		return nil
	}
	backup, err := replaceFile(path, old, out)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "installed guardian's PreToolUse hook in %s (matcher %q, timeout %ds)\n", path, hook.ClaudeMatcher, f.timeout)
	if backup != "" {
		fmt.Fprintf(a.stdout, "previous content saved as %s\n", backup)
	}
	fmt.Fprintln(a.stdout, "check it with: guardian verify")
	return nil
}

// codexHome is $CODEX_HOME, else ~/.codex.
func (a *app) codexHome(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = a.getenv("CODEX_HOME")
	}
	if dir == "" {
		home := a.getenv("HOME")
		if !filepath.IsAbs(home) {
			return "", usageErrorf("neither $CODEX_HOME nor $HOME is set; pass --codex-home DIR")
		}
		dir = filepath.Join(home, ".codex")
	}
	return filepath.Abs(dir)
}

func (a *app) installCodex(f installFlags) error {
	command, err := a.hookCommand(f, "codex")
	if err != nil {
		return err
	}
	home, err := a.codexHome(f.file)
	if err != nil {
		return err
	}
	hooksPath, configPath := filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
	oldHooks, err := readOptional(hooksPath)
	if err != nil {
		return err
	}
	oldConfig, err := readOptional(configPath)
	if err != nil {
		return err
	}
	res, err := hook.InstallCodex(oldHooks, hooksPath, oldConfig, command, f.timeout)
	if err != nil {
		return invalidError(err)
	}
	if !f.write {
		fmt.Fprintf(a.stdout, "# %s with guardian's hook (write both files with --write):\n%s\n", hooksPath, res.HooksJSON)
		fmt.Fprintf(a.stdout, "# and in %s, the trust entry without which Codex skips the hook:\n[hooks.state.%q]\ntrusted_hash = %q\n", configPath, res.TrustKey, res.TrustHash)
		return nil
	}
	changed := false
	for _, w := range []struct {
		path     string
		old, new []byte
	}{{hooksPath, oldHooks, res.HooksJSON}, {configPath, oldConfig, res.ConfigTOML}} {
		if bytes.Equal(w.old, w.new) {
			continue
		}
		changed = true
		backup, err := replaceFile(w.path, w.old, w.new)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "wrote %s\n", w.path)
		if backup != "" {
			fmt.Fprintf(a.stdout, "previous content saved as %s\n", backup)
		}
	}
	if !changed {
		fmt.Fprintf(a.stdout, "guardian's hook is already installed and trusted in %s\n", home)
		return nil
	}
	fmt.Fprintf(a.stdout, "installed guardian's PermissionRequest hook (timeout %ds), trusted as %s\n", f.timeout, res.TrustKey)
	fmt.Fprintln(a.stdout, "approvals reach hooks only interactively or with codex exec --approve-for-me; check it with: guardian verify")
	return nil
}

// readOptional reads a config file that may not exist yet (nil content).
func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// replaceFile writes content to path atomically (temporary file, then rename), first saving
// old content as path.guardian-backup-<UTC time>; it returns the backup's name ("" when
// there was no old content).
func replaceFile(path string, old, content []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	backup := ""
	if old != nil {
		backup = path + ".guardian-backup-" + time.Now().UTC().Format("20060102T150405.000000000Z")
		if err := os.WriteFile(backup, old, mode); err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return backup, nil
}

// shellQuote quotes s for /bin/sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
