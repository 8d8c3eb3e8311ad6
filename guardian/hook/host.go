package hook

import (
	"fmt"
	"path/filepath"
	"time"
)

// Host is one agent host guardian hooks into: its hook protocol, where its config lives, how
// guardian's hook is added to and removed from that config, and how `guardian verify` checks
// it. Everything host-specific is here, so that a new host is one file (its protocol and its
// Host value) plus tests; cmd/guardian iterates Hosts for `hook NAME`, `hook install`,
// `hook uninstall` and `verify`.
type Host struct {
	// Name is the command word (`guardian hook NAME`) and the audit record's host.
	Name string
	// Title is the host's own name, for help and messages ("Claude Code").
	Title string
	// Summary says in one line what the hook answers, for help.
	Summary string
	// Protocol reads the host's payload and writes its reply.
	Protocol Protocol

	// ConfigFlag names the flag that points install, uninstall and verify at another config
	// location ("settings" for a file, "codex-home" for a directory), ConfigUsage its help.
	ConfigFlag, ConfigUsage string
	// Paths are the config files guardian edits, in the order Install and Uninstall take
	// them: from the flag's value ("" for the default) and the environment.
	Paths func(flag string, getenv func(string) string) ([]string, error)
	// Owned says the config file is guardian's own (OpenCode's plugin, Cline's hook script):
	// written whole, with no backup, and removed on uninstall.
	Owned bool
	// Executable makes the config file executable (Cline runs its hook file itself).
	Executable bool
	// Install returns the files with guardian's hook added (command run with a host timeout
	// of timeoutSec seconds), keeping every other entry. A file whose content is unchanged is
	// not written.
	Install func(files []File, command string, timeoutSec int) ([]File, error)
	// Uninstall returns the files with exactly guardian's entries removed; a file whose
	// content comes back nil is guardian's own and is removed.
	Uninstall func(files []File) ([]File, error)
	// Done is printed after a successful install: how the host runs the hook, how to check it.
	Done string

	// Verify is how `guardian verify` checks an installed hook.
	Verify Verifier
}

// Verifier is what `guardian verify` needs to know about a host.
type Verifier struct {
	// Event is the hook event guardian is installed on.
	Event string
	// Tools are tool names the installed matcher must select.
	Tools []string
	// TimeoutUnit is the unit of the config's timeout value; DefaultTimeout applies when the
	// config sets none.
	TimeoutUnit, DefaultTimeout time.Duration
	// Find lists guardian's hooks in the config files.
	Find func(files []File) ([]Installed, error)
	// Check runs host-specific checks of one installed hook (Codex: its trust entry); nil when
	// there are none.
	Check func(files []File, h Installed) []Finding
	// Payload is the host's hook payload for a shell command from the main agent in project.
	Payload func(command, project string) string
	// Held is what Interpret returns for guardian's ask ("ask", "no verdict", …).
	Held string
	// Interpret says what the host makes of a hook's stdout and exit status: "allow", "deny",
	// Held, "blocked", or a "runs (fails open: …)" text.
	Interpret func(stdout []byte, exit int) string
}

// Finding is one check's outcome.
type Finding struct {
	OK      bool
	Message string
}

// File is one host config file: its path and content (nil when it does not exist).
type File struct {
	Path    string
	Content []byte
}

// Hosts is the table of every host guardian supports, in the order help and verify list them.
func Hosts() []Host {
	return []Host{claudeHost(), codexHost(), geminiHost(), qwenHost(), copilotHost(), opencodeHost(), clineHost(), cursorHost()}
}

// Lookup returns the host named name.
func Lookup(name string) (Host, bool) {
	for _, h := range Hosts() {
		if h.Name == name {
			return h, true
		}
	}
	return Host{}, false
}

// Timeout is h's host timeout as a duration.
func (v Verifier) Timeout(h Installed) time.Duration {
	if h.Timeout == 0 {
		return v.DefaultTimeout
	}
	return time.Duration(h.Timeout) * v.TimeoutUnit
}

// homeDir is dir from a flag, else $ENV, else ~/fallback, made absolute.
func homeDir(flag, env, fallback string, getenv func(string) string) (string, error) {
	dir := flag
	if dir == "" && env != "" {
		dir = getenv(env)
	}
	if dir == "" {
		home := getenv("HOME")
		if !filepath.IsAbs(home) {
			return "", fmt.Errorf("$HOME is not set; name the config location with a flag")
		}
		dir = filepath.Join(home, fallback)
	}
	return filepath.Abs(dir)
}

// changed returns files with the new contents, in order.
func withContents(files []File, contents ...[]byte) []File {
	out := make([]File, len(files))
	for i, f := range files {
		out[i] = File{Path: f.Path, Content: contents[i]}
	}
	return out
}

// editSettings applies edit to a host's one settings file: its error names the file, and an
// edit that changes nothing keeps the file's bytes as they are (so a second install reports
// "already installed" and rewrites nothing).
func editSettings(files []File, edit func(content []byte) (out []byte, changed bool, err error)) ([]File, error) {
	out, changed, err := edit(files[0].Content)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", files[0].Path, err)
	}
	if !changed {
		out = files[0].Content
	}
	return withContents(files, out), nil
}

// installSettingsHook is the Install of a host whose hooks live under event in one JSON
// settings file (Gemini CLI, Qwen Code): guardian's group with the matcher and a timeout in
// milliseconds, its command inside the host's fail-closed wrapper.
func installSettingsHook(event, adapter, matcher string, w failClosed) func([]File, string, int) ([]File, error) {
	return func(files []File, command string, timeoutSec int) ([]File, error) {
		return editSettings(files, func(c []byte) ([]byte, bool, error) {
			return installJSONHook(c, event, adapter, hookGroup{
				Matcher: matcher,
				Hooks:   []hookEntry{{Type: "command", Command: w.wrap(command, wrapperSeconds(timeoutSec)), Timeout: timeoutSec * 1000}},
			})
		})
	}
}

// uninstallSettingsHook is the Uninstall of such a host: exactly guardian's entries under
// event go, the user's stay.
func uninstallSettingsHook(event, adapter string) func([]File) ([]File, error) {
	return func(files []File) ([]File, error) {
		return editSettings(files, func(c []byte) ([]byte, bool, error) {
			out, _, err := uninstallJSON(c, event, adapter)
			return out, true, err
		})
	}
}
