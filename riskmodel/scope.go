package riskmodel

import (
	"path"
	"strings"

	"github.com/guardianhq/guardian/riskmodel/catalog"
)

// Zone says where a path lies relative to what the agent may change freely. Zones are what
// turn "rm -rf build" into a routine clean-up and "rm -rf ~/build" into a question.
type Zone uint8

// The zones, from harmless to catastrophic.
const (
	// ZoneWorkspace is inside a workspace root (the cwd or a configured root).
	ZoneWorkspace Zone = iota + 1
	// ZoneTemp is under /tmp, /var/tmp or /dev/shm.
	ZoneTemp
	// ZoneDevNull is /dev/null, /dev/stdout and the like: writing there changes nothing.
	ZoneDevNull
	// ZoneHome is under the home directory but outside every workspace.
	ZoneHome
	// ZoneSystem is a system location (/etc, /usr, /var, /dev/sda, …).
	ZoneSystem
	// ZoneUnknown is a path that could not be resolved (an unknown variable, a command
	// substitution): treated as outside the workspace.
	ZoneUnknown
	// ZoneVital is "/", the home directory itself, a top-level system directory, or an
	// ancestor of a workspace: deleting it recursively destroys everything below.
	ZoneVital
)

var zoneNames = [...]string{ZoneWorkspace: "inside the workspace", ZoneTemp: "in a temporary directory",
	ZoneDevNull: "a null device", ZoneHome: "in the home directory, outside the workspace",
	ZoneSystem: "a system location", ZoneUnknown: "at a location that cannot be resolved",
	ZoneVital: "a vital directory"}

// String describes the zone as a phrase for summaries ("inside the workspace").
func (z Zone) String() string {
	if int(z) < len(zoneNames) && zoneNames[z] != "" {
		return zoneNames[z]
	}
	return "unknown zone"
}

// Scope is the per-request frame of reference: where the agent is, where home is, which roots
// it may change.
type Scope struct {
	Cwd        string
	Home       string
	Workspaces []string
	Protected  []string // absolute globs
	// CwdUnknown is set when the request gave no cwd: relative paths then cannot be placed
	// and are treated as unresolvable rather than guessed.
	CwdUnknown bool

	credPaths []string // credHomePaths joined to Home, built on first use

	// links are the symbolic links the request itself creates, absolute link path → absolute
	// target ("" when the target cannot be resolved). A path through a link resolves to the
	// target: after "ln -s / dist", "dist/*" is "/*".
	links *linkSet

	// memo holds answers computed from a scope and a word, shared by the request's scopes
	// (every copy made from it) and keyed by the scope they were computed in. A scope is
	// never changed once made (cd, ln -s and pushd make copies), so an answer stays true.
	memo *scopeMemo
}

// scopeMemo is a request's cache of per-word answers that the extraction and several rules
// ask for again and again (a 64 KiB script repeats the same few words a thousand times). Its
// maps are made on first use, so a request that asks nothing pays nothing.
type scopeMemo struct {
	cred    map[credKey]credVal
	resolve map[resolveKey]credVal
	class   map[classKey]classVal
}

type classKey struct {
	sc       *Scope
	class    catalog.Class
	arg, abs string
}

type classVal struct {
	e  *catalog.PathEntry
	ok bool
}

type resolveKey struct {
	sc  *Scope
	arg string
}

type credKey struct {
	sc        *Scope
	arg       string
	recursive bool
}

type credVal struct {
	p  string
	ok bool
}

// withCwd returns a copy of the scope whose relative paths resolve against dir; known=false
// makes them unresolvable (after "cd $UNKNOWN"). The workspaces stay those of the request.
func (s *Scope) withCwd(dir string, known bool) *Scope {
	n := *s
	if !known {
		n.CwdUnknown = true
		return &n
	}
	n.Cwd, n.CwdUnknown = path.Clean(dir), false
	return &n
}

// withLinksOf returns a copy of s that keeps the links known to o (a later scope): going back
// to an earlier directory does not undo the links made since.
func (s *Scope) withLinksOf(o *Scope) *Scope {
	n := *s
	n.links = o.links
	return &n
}

// withLink returns a copy of the scope in which link (absolute) points at target (absolute,
// "" when unknown).
func (s *Scope) withLink(link, target string) *Scope {
	n := *s
	n.links = s.links.with(link, target)
	return &n
}

// linkSet is an immutable set of links: a small map of the newest links over an older set.
// Adding a link makes a new layer rather than copying every link (a script of a thousand
// ln -s would copy half a million entries); past maxLinkLayers the layers are merged into one.
type linkSet struct {
	m      map[string]string
	older  *linkSet
	layers int
}

const maxLinkLayers = 16

func (l *linkSet) with(link, target string) *linkSet {
	if l == nil {
		return &linkSet{m: map[string]string{link: target}, layers: 1}
	}
	if l.layers >= maxLinkLayers {
		m := map[string]string{}
		l.each(func(k, v string) {
			if _, ok := m[k]; !ok {
				m[k] = v
			}
		})
		m[link] = target
		return &linkSet{m: m, layers: 1}
	}
	return &linkSet{m: map[string]string{link: target}, older: l, layers: l.layers + 1}
}

// get returns the newest target of link.
func (l *linkSet) get(link string) (string, bool) {
	for ; l != nil; l = l.older {
		if t, ok := l.m[link]; ok {
			return t, true
		}
	}
	return "", false
}

// each calls f for every entry, newest layer first (so an older entry of the same link
// comes after the one that replaced it).
func (l *linkSet) each(f func(link, target string)) {
	for ; l != nil; l = l.older {
		for k, v := range l.m {
			f(k, v)
		}
	}
}

// throughLinks rewrites p (absolute, cleaned) through the request's symlinks. A path is only
// followed when something below the link is named ("dist/x", "dist/*") or the argument ends
// in a slash ("dist/"): "rm dist" removes the link itself. ok is false when the link's
// target is unknown.
func (s *Scope) throughLinks(p string, trailingSlash bool) (string, bool) {
	for i := 0; i < 8 && s.links != nil; i++ {
		target, rest, found := s.linkAt(p, trailingSlash)
		if !found {
			break
		}
		if target == "" {
			return "", false
		}
		p = path.Clean(target + "/" + rest)
	}
	return p, true
}

// linkAt finds the request's link that p goes through: a directory above p that is a link,
// the nearest the root first (as the kernel resolves a path), or p itself when it ends in a
// slash. It looks up p's ancestors, not every link, so a script of a thousand ln -s stays
// linear. rest is what follows the link in p.
func (s *Scope) linkAt(p string, trailingSlash bool) (target, rest string, found bool) {
	for j := 1; j < len(p); j++ {
		if p[j] != '/' {
			continue
		}
		if t, ok := s.links.get(p[:j]); ok {
			return t, p[j:], true
		}
	}
	if trailingSlash {
		if t, ok := s.links.get(p); ok {
			return t, "", true
		}
	}
	return "", "", false
}

// NewScope builds the frame of a request. The cwd counts as a workspace unless it is "/",
// the home directory or a system directory.
func NewScope(p *Policy, cwd string) *Scope {
	s := &Scope{Home: p.Home, memo: &scopeMemo{}}
	cwd = catalog.FromWindows(cwd) // C:\Users\NAME\src\app is /Users/NAME/src/app (catalog/winpath.go)
	if s.Home == "" {
		s.Home = inferHome(cwd)
	}
	s.Home = path.Clean(s.Home)
	if cwd == "" || !path.IsAbs(cwd) {
		if cwd == "" {
			cwd = s.Home
			s.CwdUnknown = true
		} else {
			cwd = path.Join(s.Home, cwd)
		}
	}
	s.Cwd = path.Clean(cwd)
	for _, w := range p.Workspaces {
		s.Workspaces = append(s.Workspaces, s.expandHome(path.Clean(w)))
	}
	// The cwd is a workspace unless it is /, home, a system directory, an ancestor of home
	// or a scratch location (/tmp, /var/tmp, …): deleting "everything here" there is never
	// routine project work. A project location under a system directory (a site below
	// /var/www, a Jenkins job's workspace) is a project, not the system.
	if !s.CwdUnknown && s.Cwd != "/" && s.Cwd != s.Home && (!isSystemPath(s.Cwd) || isProjectLocation(s.Cwd, s.Home)) &&
		!isAncestor(s.Cwd, s.Home) && !isTempPath(s.Cwd) {
		s.Workspaces = append(s.Workspaces, s.Cwd)
	}
	for _, g := range p.ProtectedPaths {
		s.Protected = append(s.Protected, s.expandHome(g))
	}
	return s
}

// inferHome guesses the agent's home from its cwd: /home/NAME, /Users/NAME or /root.
func inferHome(cwd string) string {
	parts := strings.Split(strings.TrimPrefix(path.Clean(cwd), "/"), "/")
	if len(parts) >= 2 && (parts[0] == "home" || parts[0] == "Users") && parts[1] != "" {
		return "/" + parts[0] + "/" + parts[1]
	}
	if len(parts) >= 1 && parts[0] == "root" {
		return "/root"
	}
	return "/home/user"
}

func (s *Scope) expandHome(p string) string {
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		return s.Home
	case strings.HasPrefix(p, "~/"):
		return path.Join(s.Home, p[2:])
	case strings.HasPrefix(p, "$HOME/"):
		return path.Join(s.Home, p[6:])
	case strings.HasPrefix(p, "${HOME}/"):
		return path.Join(s.Home, p[8:])
	}
	return p
}

// Resolve turns a path argument into an absolute, cleaned path. Globs are resolved
// conservatively to the directory they could cover ("~/*" → home, "src/*.go" → src). ok is
// false when the argument holds something unresolvable (a variable, a substitution, another
// user's "~name").
func (s *Scope) Resolve(arg string) (abs string, ok bool) {
	if s.memo == nil {
		return s.resolve(arg)
	}
	k := resolveKey{s, arg}
	if v, ok := s.memo.resolve[k]; ok {
		return v.p, v.ok
	}
	abs, ok = s.resolve(arg)
	if s.memo.resolve == nil {
		s.memo.resolve = map[resolveKey]credVal{}
	}
	s.memo.resolve[k] = credVal{abs, ok}
	return abs, ok
}

func (s *Scope) resolve(arg string) (abs string, ok bool) {
	p := s.expandHome(catalog.FromWindows(arg))
	if strings.HasPrefix(p, "~") || strings.ContainsAny(p, "$`") || p == "" {
		return "", false
	}
	slash := strings.HasSuffix(arg, "/") || strings.HasSuffix(arg, "/.")
	if !path.IsAbs(p) {
		if s.CwdUnknown {
			return "", false
		}
		p = path.Join(s.Cwd, p)
	}
	p = path.Clean(p)
	if s.links != nil {
		var ok bool
		if p, ok = s.throughLinks(p, slash); !ok {
			return "", false
		}
	}
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		// Everything from the glob's path element on could be anything below its directory.
		dir := p[:i]
		if j := strings.LastIndexByte(dir, '/'); j >= 0 {
			dir = dir[:j]
		}
		if dir == "" {
			dir = "/"
		}
		p = dir
	}
	return p, true
}

// HasGlob reports whether an argument would be expanded by the shell.
func HasGlob(arg string) bool { return strings.ContainsAny(arg, "*?[") }

// Zone classifies an absolute path (from Resolve); "" is ZoneUnknown.
func (s *Scope) Zone(abs string) Zone {
	if abs == "" {
		return ZoneUnknown
	}
	if abs == "/" || abs == s.Home || isAncestor(abs, s.Home) || isTopLevelSystem(abs) {
		return ZoneVital
	}
	for _, w := range s.Workspaces {
		if isAncestor(abs, w) {
			return ZoneVital
		}
	}
	for _, w := range s.Workspaces {
		if abs == w || isAncestor(w, abs) {
			return ZoneWorkspace
		}
	}
	switch {
	case abs == "/dev/null" || abs == "/dev/stdout" || abs == "/dev/stderr" || abs == "/dev/zero" ||
		abs == "/dev/random" || abs == "/dev/urandom" || abs == "/dev/tty" || strings.HasPrefix(abs, "/dev/fd/"):
		return ZoneDevNull
	case isTempPath(abs) && !isScratchRoot(abs):
		return ZoneTemp
	case isAncestor(s.Home, abs):
		return ZoneHome
	}
	return ZoneSystem
}

// InWorkspace reports whether abs is inside a workspace root.
func (s *Scope) InWorkspace(abs string) bool { return s.Zone(abs) == ZoneWorkspace }

// IsWorkspaceRoot reports whether abs is itself a workspace root.
func (s *Scope) IsWorkspaceRoot(abs string) bool {
	for _, w := range s.Workspaces {
		if abs == w {
			return true
		}
	}
	return false
}

// Protected reports whether abs matches a protected-path glob ("**" matches any depth).
func (s *Scope) IsProtected(abs string) bool {
	for _, g := range s.Protected {
		if MatchPathGlob(g, abs, true) {
			return true
		}
	}
	return false
}

// Pretty shows abs relative to home ("~/.ssh") when it is below it, for summaries.
func (s *Scope) Pretty(abs string) string {
	if abs == s.Home {
		return abs + " (the home directory)"
	}
	return abs
}

// isAncestor reports whether dir is a strict ancestor of p.
func isAncestor(dir, p string) bool {
	if dir == "/" {
		return p != "/"
	}
	return strings.HasPrefix(p, dir+"/")
}

var topLevelSystem = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/lib": true, "/lib32": true, "/lib64": true,
		"/opt": true, "/proc": true, "/root": true, "/sbin": true, "/srv": true, "/sys": true, "/usr": true,
		"/var": true, "/home": true, "/Users": true, "/System": true, "/Library": true, "/Applications": true,
		"/private": true, "/snap": true, "/mnt": true, "/media": true, "/run": true, "/usr/bin": true,
		"/usr/lib": true, "/usr/local": true, "/usr/sbin": true, "/usr/share": true, "/var/lib": true,
		"/var/log": true, "/etc/ssh": true, "/nix": true, "/nix/store": true,
	}
}}

func isTopLevelSystem(p string) bool { return topLevelSystem.get()[p] }

// isProjectLocation reports a directory where projects conventionally live although it lies
// under a system directory (catalog class project-location).
func isProjectLocation(p, home string) bool {
	return catalog.Default().Is(catalog.ProjectLocation, p, home)
}

func isSystemPath(p string) bool {
	if p == "/" || topLevelSystem.get()[p] {
		return true
	}
	for _, pre := range []string{"/etc/", "/usr/", "/bin/", "/sbin/", "/lib", "/boot/", "/sys/", "/proc/", "/var/", "/opt/", "/System/", "/Library/", "/private/etc/"} {
		if strings.HasPrefix(p, pre) && !strings.HasPrefix(p, "/var/tmp/") && !strings.HasPrefix(p, "/var/folders/") {
			return true
		}
	}
	return false
}

// tempRoots are the scratch directories shared by every user and process.
var tempRoots = []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/var/folders", "/private/var/folders"}

// isTempPath reports whether p is a scratch root or below one.
func isTempPath(p string) bool {
	for _, r := range tempRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// isScratchRoot reports whether p is one of tempRoots itself.
func isScratchRoot(p string) bool {
	for _, r := range tempRoots {
		if p == r {
			return true
		}
	}
	return false
}
