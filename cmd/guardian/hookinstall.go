package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/guardianhq/guardian/guardian/hook"
)

// installFlags are the flags of `guardian hook install HOST`.
type installFlags struct {
	write   bool
	timeout int
	command string
	config  string // the host's config location (Host.ConfigFlag)
	// monitor installs the hook in monitor mode (hook HOST --monitor): decisions are
	// recorded, the host gets no verdict — a trial period before guardian is enforced.
	monitor bool
}

// DefaultHookTimeout is the host timeout (seconds) the installers write. The hook's own
// deadline is five seconds less: room for process start, the audit fsync and a telemetry
// flush, so the host never kills the hook first (a killed hook fails open).
const defaultHookTimeout = 15

func (a *app) hookInstallCmd() *cobra.Command {
	var list strings.Builder
	for _, h := range hook.Hosts() {
		fmt.Fprintf(&list, "  %-8s %s (--%s)\n", h.Name, h.Summary, h.ConfigFlag)
	}
	c := &cobra.Command{
		Use:   "install " + strings.Join(hostNames(), "|"),
		Short: "Print (or --write) the host configuration that runs guardian's hook",
		Long: `Print the host configuration that runs guardian's hook, or with --write add it to the host's
config file, keeping a timestamped backup of the previous content. Installing twice changes
nothing; an earlier guardian hook is replaced where it stands.

` + list.String() + `
For Codex the trust entry in $CODEX_HOME/config.toml is written too: Codex silently skips a
hook it has not been told to trust.

The hook command is this executable's absolute path (or --command), with --deadline set
five seconds below the host timeout.

--monitor installs the hook in monitor mode, for a trial period: guardian reviews every call
and records its decision in the audit log (marked "monitor: not enforced"), but gives the
host no verdict, so the host's own permissions decide as if guardian were not there.
guardian verify reports the mode; install again without --monitor to enforce.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	for _, h := range hook.Hosts() {
		f := &installFlags{}
		sub := &cobra.Command{
			Use:   h.Name + " [--write] [--" + h.ConfigFlag + " PATH] [--timeout 15] [--monitor]",
			Short: "Install guardian as " + h.Title + "'s " + h.Verify.Event + " hook",
			Args:  usageArgs(cobra.NoArgs),
			RunE:  func(cmd *cobra.Command, _ []string) error { return a.installHost(h, *f) },
		}
		sub.Flags().StringVar(&f.config, h.ConfigFlag, "", h.ConfigUsage)
		sub.Flags().BoolVar(&f.write, "write", false, "edit the host's config file (keeping a backup) instead of printing")
		sub.Flags().IntVar(&f.timeout, "timeout", defaultHookTimeout, "the host's hook timeout in `SECONDS` (at least 7)")
		sub.Flags().StringVar(&f.command, "command", "", "the hook `COMMAND` (default: this executable, quoted, with hook HOST --deadline)")
		sub.Flags().BoolVar(&f.monitor, "monitor", false, "monitor mode: record every decision but give the host no verdict (a trial period)")
		c.AddCommand(sub)
	}
	return c
}

// hookCommand is the command line a host runs for guardian's hook.
func (a *app) hookCommand(f installFlags, host string) (string, error) {
	if f.timeout < 7 {
		return "", usageErrorf("hook install: --timeout %d is too short: the hook needs its deadline (timeout − 5 s) of at least 2 s", f.timeout)
	}
	if f.command != "" {
		if f.monitor && !(hook.Installed{Command: f.command}).Monitor() {
			return "", usageErrorf("hook install: --monitor with --command: put --monitor in the command itself")
		}
		return f.command, nil
	}
	exe, err := a.executable()
	if err != nil {
		return "", fmt.Errorf("hook install: cannot find this executable (pass --command): %w", err)
	}
	if dir := a.temporaryDir(exe); dir != "" {
		return "", usageErrorf("hook install: this guardian (%s) runs from %s, a temporary or build-cache directory (what go run produces): "+
			"it can be gone by the next tool call, and a hook that cannot start lets the host run the tool. "+
			"Install guardian first — go install ./cmd/guardian ./cmd/guardian-hook (they land in $(go env GOPATH)/bin), or make build and use bin/guardian — "+
			"and run hook install from that binary, or pass --command", exe, dir)
	}
	command := fmt.Sprintf("%s hook %s --deadline %ds", shellQuote(hookBinary(exe)), host, f.timeout-5)
	if f.monitor {
		command += " --monitor"
	}
	return command, nil
}

// leanHookName is the lean hook entry (cmd/guardian-hook): the same answers as guardian's
// hook and predicate verbs, from a binary that starts in a fraction of guardian's time.
const leanHookName = "guardian-hook"

// hookBinary is the binary a host runs for guardian's hook: guardian-hook when it lies beside
// exe (make build and go install put the two side by side), exe itself otherwise. A host
// starts the hook for every tool call, so its process start is the hook's whole cost.
func hookBinary(exe string) string {
	lean := filepath.Join(filepath.Dir(exe), leanHookName)
	if st, err := os.Stat(lean); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return lean
	}
	return exe
}

// hostFiles reads the config files of h at the location the flag names.
func (a *app) hostFiles(verb string, h hook.Host, flag string) ([]hook.File, error) {
	paths, err := h.Paths(flag, a.getenv)
	if err != nil {
		return nil, usageErrorf("hook %s %s: %v", verb, h.Name, err)
	}
	files := make([]hook.File, len(paths))
	for i, p := range paths {
		content, err := readOptional(p)
		if err != nil {
			return nil, err
		}
		files[i] = hook.File{Path: p, Content: content}
	}
	return files, nil
}

// installHost is `guardian hook install HOST`.
func (a *app) installHost(h hook.Host, f installFlags) error {
	command, err := a.hookCommand(f, h.Name)
	if err != nil {
		return err
	}
	files, err := a.hostFiles("install", h, f.config)
	if err != nil {
		return err
	}
	out, err := h.Install(files, command, f.timeout)
	if err != nil {
		return invalidError(err)
	}
	if !f.write {
		for _, nf := range out {
			fmt.Fprintf(a.stdout, "# %s with guardian's hook (write it with --write):\n%s", nf.Path, nf.Content)
			if !bytes.HasSuffix(nf.Content, []byte("\n")) {
				fmt.Fprintln(a.stdout)
			}
		}
		return nil
	}
	changed, err := a.writeFiles(h, files, out)
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(a.stdout, "guardian's hook is already installed in %s\n", files[0].Path)
		return nil
	}
	fmt.Fprintf(a.stdout, "installed guardian's %s hook in %s (timeout %ds)\n", h.Verify.Event, files[0].Path, f.timeout)
	if f.monitor {
		fmt.Fprintf(a.stdout, "monitor mode: guardian records every decision in the audit log but gives %s no verdict; install again without --monitor to enforce\n", h.Title)
	}
	fmt.Fprintln(a.stdout, h.Done)
	return nil
}

// writeFiles replaces each file whose content changed, keeping a backup of the old content,
// and says so; it reports whether any changed. A host's own guardian file (Host.Owned) gets no
// backup — nothing of the user's is in it, and a copy beside it in the host's hook directory
// could be loaded as a second hook — and is removed when its new content is nil.
func (a *app) writeFiles(h hook.Host, old, updated []hook.File) (bool, error) {
	changed := false
	for i, nf := range updated {
		if bytes.Equal(old[i].Content, nf.Content) && (nf.Content == nil) == (old[i].Content == nil) {
			continue
		}
		changed = true
		prev := old[i].Content
		if h.Owned {
			prev = nil
		}
		if h.Owned && nf.Content == nil {
			if err := os.Remove(nf.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return changed, fmt.Errorf("remove %s: %w", nf.Path, err)
			}
			fmt.Fprintf(a.stdout, "removed %s\n", nf.Path)
			continue
		}
		mode := fs.FileMode(0o600)
		if h.Executable {
			mode = 0o700
		}
		backup, err := replaceFile(nf.Path, prev, nf.Content, mode)
		if err != nil {
			return changed, err
		}
		fmt.Fprintf(a.stdout, "wrote %s\n", nf.Path)
		if backup != "" {
			fmt.Fprintf(a.stdout, "previous content saved as %s\n", backup)
		}
	}
	return changed, nil
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
// there was no old content). A new file gets mode; an existing one keeps its own, plus the
// owner's execute bit when mode has it.
func replaceFile(path string, old, content []byte, mode fs.FileMode) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm() | mode&0o100
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

// uninstallFlags are the flags of `guardian hook uninstall HOST`.
type uninstallFlags struct {
	write  bool
	config string
}

func (a *app) hookUninstallCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "uninstall " + strings.Join(hostNames(), "|"),
		Short: "Print (or --write) the host configuration without guardian's hook",
		Long: `Remove guardian's hook from a host's config: exactly the hook entries that run guardian's
adapter for that host (and, for Codex, their trust entries), keeping every other key and hook
of yours. Without --write the result is printed; with --write the file is replaced and the
previous content kept as a timestamped backup beside it.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	for _, h := range hook.Hosts() {
		f := &uninstallFlags{}
		sub := &cobra.Command{
			Use:   h.Name + " [--write] [--" + h.ConfigFlag + " PATH]",
			Short: "Remove guardian's hook from " + h.Title + "'s config",
			Args:  usageArgs(cobra.NoArgs),
			RunE:  func(cmd *cobra.Command, _ []string) error { return a.uninstallHost(h, *f) },
		}
		sub.Flags().StringVar(&f.config, h.ConfigFlag, "", h.ConfigUsage)
		sub.Flags().BoolVar(&f.write, "write", false, "edit the host's config file (keeping a backup) instead of printing")
		c.AddCommand(sub)
	}
	return c
}

// uninstallHost is `guardian hook uninstall HOST`.
func (a *app) uninstallHost(h hook.Host, f uninstallFlags) error {
	files, err := a.hostFiles("uninstall", h, f.config)
	if err != nil {
		return err
	}
	out, err := h.Uninstall(files)
	if err != nil {
		return invalidError(err)
	}
	same := true
	for i := range out {
		same = same && bytes.Equal(files[i].Content, out[i].Content) && (files[i].Content == nil) == (out[i].Content == nil)
	}
	if same {
		fmt.Fprintf(a.stdout, "guardian's %s hook is not installed in %s: nothing to remove\n", h.Title, files[0].Path)
		return nil
	}
	if !f.write {
		for i, nf := range out {
			switch {
			case h.Owned && nf.Content == nil:
				fmt.Fprintf(a.stdout, "# %s is guardian's own: --write removes it\n", nf.Path)
			case !bytes.Equal(files[i].Content, nf.Content):
				fmt.Fprintf(a.stdout, "# %s without guardian's hook (write it with --write):\n%s", nf.Path, nf.Content)
			}
		}
		return nil
	}
	if _, err := a.writeFiles(h, files, out); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "removed guardian's %s hook from %s\n", h.Verify.Event, files[0].Path)
	return nil
}

// temporaryDir returns the temporary or build-cache directory exe lies under, or "": the
// system temp dir ($TMPDIR, /tmp), Go's build cache ($GOCACHE, `go env GOCACHE`) or any path
// through a go-build directory (go run's work directory).
func (a *app) temporaryDir(exe string) string {
	if i := strings.Index(exe, string(filepath.Separator)+"go-build"); i >= 0 {
		return exe[:i+len("/go-build")]
	}
	dirs := []string{os.TempDir(), a.getenv("TMPDIR"), "/tmp", a.getenv("GOCACHE")}
	if a.goCache != nil {
		dirs = append(dirs, a.goCache())
	}
	resolved := exe
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		resolved = r
	}
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		for _, dd := range []string{filepath.Clean(d), evalOr(d)} {
			for _, e := range []string{exe, resolved} {
				if rel, err := filepath.Rel(dd, e); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
					return dd
				}
			}
		}
	}
	return ""
}

func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// goEnvCache asks the go command for its build cache; "" when there is no go command.
func goEnvCache() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
