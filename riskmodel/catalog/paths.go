package catalog

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Class is the kind of place a path is, as far as approval goes.
type Class string

// The path classes. A path may be in more than one (/etc/shadow is a credential store to a
// reader and a privilege file to a writer).
const (
	// Credential stores: reading one puts a secret in the transcript; sending one off the
	// machine is theft.
	Credential Class = "credential"
	// AgentConfig decides what a coding agent (or guardian itself) may do without asking.
	AgentConfig Class = "agent-config"
	// Persistence is read or run later, unattended: shell rc files, autostart entries, cron,
	// launch agents, loader preloads, tool startup files.
	Persistence Class = "persistence"
	// Privilege controls who may become root: sudoers, the account database, PAM.
	Privilege Class = "privilege"
	// SecurityControl configures a security control: firewall, MAC, audit, trust store.
	SecurityControl Class = "security-control"
	// SystemCritical is a file the machine needs to boot or let anyone log in.
	SystemCritical Class = "system-critical"
	// UserData is data only the user has and no tool recreates: documents, mail, other
	// projects, backups. Deleting it is destruction outside the workspace (docs/policy.md).
	UserData Class = "user-data"
	// ProjectLocation is a place under a system directory where projects conventionally
	// live (a web server's document roots, a CI server's job workspaces): a working
	// directory there is a project, a workspace, not a system location.
	ProjectLocation Class = "project-location"
)

var classes = []Class{Credential, AgentConfig, Persistence, Privilege, SecurityControl, SystemCritical, UserData, ProjectLocation}

// PathEntry is one catalogue entry: a family of paths of one class.
type PathEntry struct {
	// ID names the entry ("ssh.private-key"); rules may single one out.
	ID    string `toml:"id" json:"id,omitempty"`
	Class Class  `toml:"class" json:"class,omitempty"`
	// What describes the paths for a summary ("an SSH private key").
	What string `toml:"what" json:"what,omitempty"`
	// Home holds patterns relative to a home directory — any home: the request's, /home/NAME,
	// /Users/NAME, /root, /mnt/c/Users/NAME, ~user. Abs holds absolute patterns. Base holds
	// file-name patterns that count in any directory. A pattern ending in "/" names a
	// directory and everything below it; "**" is any number of segments.
	Home []string `toml:"home" json:"home,omitempty"`
	Abs  []string `toml:"abs" json:"abs,omitempty"`
	// Any holds relative patterns that count below any directory (".claude/settings*.json").
	Any  []string `toml:"any" json:"any,omitempty"`
	Base []string `toml:"base" json:"base,omitempty"`
	// Not lists file-name patterns the entry does not cover (public keys, templates).
	Not []string `toml:"not" json:"not,omitempty"`
	// Severity is "high" for entries whose writes are a question rather than a certain harm
	// (a git hook in the user's own repository); empty means the class's own level.
	Severity string `toml:"severity" json:"severity,omitempty"`
	// Source says where the entry comes from: a tool's documentation, a MITRE ATT&CK
	// technique, GTFOBins.
	Source string `toml:"source" json:"source,omitempty"`

	home, abs, any [][]string
}

type pathFile struct {
	Path []PathEntry `toml:"path" json:"path,omitempty"`
	// Owner lists the programs whose own configuration a credential store is (owners.go).
	Owner []Owner `toml:"owner" json:"owner,omitempty"`
}

// validate checks an entry and compiles its patterns.
func (e *PathEntry) validate() error {
	if e.ID == "" {
		return fmt.Errorf("entry without id")
	}
	if !slices.Contains(classes, e.Class) {
		return fmt.Errorf("%s: unknown class %q", e.ID, e.Class)
	}
	if e.What == "" || e.Source == "" {
		return fmt.Errorf("%s: what and source are required", e.ID)
	}
	if len(e.Home)+len(e.Abs)+len(e.Any)+len(e.Base) == 0 {
		return fmt.Errorf("%s: no home, abs, any or base pattern", e.ID)
	}
	if e.Severity != "" && e.Severity != "high" {
		return fmt.Errorf("%s: severity %q (only \"high\" may be given)", e.ID, e.Severity)
	}
	for _, p := range e.Home {
		if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
			return fmt.Errorf("%s: home pattern %q must be relative to the home directory", e.ID, p)
		}
		e.home = append(e.home, compilePattern(p))
	}
	for _, p := range e.Abs {
		if !strings.HasPrefix(p, "/") {
			return fmt.Errorf("%s: abs pattern %q must be absolute", e.ID, p)
		}
		e.abs = append(e.abs, compilePattern(p))
	}
	for _, p := range e.Any {
		if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "**") {
			return fmt.Errorf("%s: any pattern %q must be relative (it counts below any directory)", e.ID, p)
		}
		e.any = append(e.any, append([]string{"**"}, compilePattern(p)...))
	}
	for _, p := range append(slices.Clone(e.Base), e.Not...) {
		if p == "" || strings.Contains(p, "/") {
			return fmt.Errorf("%s: file-name pattern %q must not be empty or hold a /", e.ID, p)
		}
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("%s: pattern %q: %w", e.ID, p, err)
		}
	}
	return nil
}

func compilePattern(p string) []string {
	dir := strings.HasSuffix(p, "/")
	segs := splitSegs(p)
	if dir {
		segs = append(segs, "**")
	}
	return segs
}

func splitSegs(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// PathSpec is a path normalised for matching: relative to a home directory, or absolute.
type PathSpec struct {
	// InHome is true when Segs are relative to some user's home directory.
	InHome bool
	Segs   []string
}

// Normalize places p (absolute, "~", "~user", "$HOME" or a glob) for matching. home is the
// request's home directory. /proc/self/root and /private prefixes are removed, and any
// directory that is a home on a common system (/home/NAME, /Users/NAME, /root, /var/root,
// /mnt/c/Users/NAME, /var/home/NAME) counts as a home, so that a rule written for "~" holds
// for every user. ok is false for a relative path.
func Normalize(p, home string) (PathSpec, bool) {
	p = FromWindows(p) // C:\Users\NAME\…, %APPDATA%\… (winpath.go)
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		return PathSpec{InHome: true}, true
	case strings.HasPrefix(p, "$HOME/"):
		return PathSpec{InHome: true, Segs: cleanSegs(p[6:])}, true
	case strings.HasPrefix(p, "${HOME}/"):
		return PathSpec{InHome: true, Segs: cleanSegs(p[8:])}, true
	case strings.HasPrefix(p, "~"):
		// ~/x, and ~user/x: another user's home is still a home.
		rest := ""
		if i := strings.IndexByte(p, '/'); i >= 0 {
			rest = p[i+1:]
		}
		return PathSpec{InHome: true, Segs: cleanSegs(rest)}, true
	case !strings.HasPrefix(p, "/"):
		return PathSpec{}, false
	}
	segs := cleanSegs(p)
	for {
		n := len(segs)
		// /proc/self/root, /proc/PID/root and /proc/thread-self/root are the root directory.
		if len(segs) >= 3 && segs[0] == "proc" && segs[2] == "root" {
			segs = segs[3:]
		}
		// macOS keeps /etc, /var and /tmp under /private.
		if len(segs) >= 2 && segs[0] == "private" && (segs[1] == "etc" || segs[1] == "var" || segs[1] == "tmp") {
			segs = segs[1:]
		}
		if len(segs) == n {
			break
		}
	}
	if hs := cleanSegs(home); len(hs) > 0 && len(segs) >= len(hs) && slices.Equal(segs[:len(hs)], hs) {
		return PathSpec{InHome: true, Segs: segs[len(hs):]}, true
	}
	if n := homePrefixLen(segs); n > 0 {
		return PathSpec{InHome: true, Segs: segs[n:]}, true
	}
	return PathSpec{Segs: segs}, true
}

// homePrefixLen returns how many leading segments name a user's home directory, 0 if none.
func homePrefixLen(s []string) int {
	switch {
	case len(s) >= 1 && s[0] == "root":
		return 1
	case len(s) >= 2 && (s[0] == "home" || s[0] == "Users") && s[1] != "":
		return 2
	case len(s) >= 3 && s[0] == "var" && s[1] == "home":
		return 3 // Fedora Silverblue and other image-based systems
	case len(s) >= 2 && s[0] == "var" && s[1] == "root":
		return 2
	case len(s) >= 3 && s[0] == "export" && s[1] == "home":
		return 3
	case len(s) >= 4 && s[0] == "mnt" && len(s[1]) == 1 && (s[2] == "Users" || s[2] == "users"):
		return 4 // WSL: the Windows profile, /mnt/c/Users/NAME
	}
	return 0
}

// cleanSegs splits a path into segments, dropping "." and resolving "..".
func cleanSegs(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return out
}

// matches reports whether the entry covers the normalised path, which may be a glob.
func (e *PathEntry) matches(ps PathSpec) bool {
	if len(ps.Segs) > 0 {
		last := ps.Segs[len(ps.Segs)-1]
		for _, n := range e.Not {
			if ok, _ := path.Match(n, last); ok {
				return false // also when last is a glob that only names excluded files ("*.pub")
			}
		}
	}
	pats := e.abs
	if ps.InHome {
		pats = e.home
	}
	for _, p := range pats {
		if matchSegs(p, ps.Segs, true) {
			return true
		}
	}
	for _, p := range e.any {
		if matchSegs(p, ps.Segs, false) {
			return true
		}
	}
	if len(ps.Segs) > 0 {
		last := ps.Segs[len(ps.Segs)-1]
		// A file name counts anywhere, so a glob that merely could name one ("*", or
		// "com.acme.*" next to "*.key") would count everywhere: a globbed name counts when it
		// covers a typical name of the pattern (".env*" covers ".env", "*.pem" covers "x.pem").
		for _, b := range e.Base {
			if !hasGlob(last) && segIntersects(b, last) || hasGlob(last) && coversSample(last, b) {
				return true
			}
		}
	}
	return false
}

// below reports whether some path the entry covers lies strictly below the normalised
// directory (reading the directory recursively reads it).
func (e *PathEntry) below(ps PathSpec) bool {
	if ps.InHome && len(ps.Segs) == 0 || !ps.InHome && len(ps.Segs) == 0 {
		return false // the home directory or / holds everything: judged as such elsewhere
	}
	pats := e.abs
	if ps.InHome {
		pats = e.home
	}
	for _, p := range pats {
		if len(p) > len(ps.Segs) && matchSegs(p[:len(ps.Segs)], ps.Segs, true) && p[0] != "**" {
			return true
		}
	}
	return false
}

// literalLen counts the characters of a glob segment that are not glob syntax.
func literalLen(s string) int {
	n := 0
	for _, r := range simplifyClasses(s) {
		if r != '*' && r != '?' {
			n++
		}
	}
	return n
}

// sample returns a typical name a file-name pattern matches ("*.pem" → "x.pem").
func sample(p string) string {
	return strings.NewReplacer("*", "x", "?", "x").Replace(simplifyClasses(p))
}
